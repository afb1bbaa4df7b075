/* Agent-expression interpreter (see agent_expr.h). Opcode values are those
 * of gdb's "Bytecode Descriptions"; floating point, tracing and printf are
 * not supported (gdb then evaluates the condition itself). */
#include "device/debug/agent_expr.h"

#define STACK 64
#define MAX_STEPS 10000 /* backward gotos must not hang the server */

static uint64_t operand(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++) v = v << 8 | p[i]; /* big-endian */
    return v;
}

int ws_ax_eval(const uint8_t *code, size_t len, const ws_ax_env *env, int64_t *result)
{
    int64_t s[STACK];
    int sp = 0; /* number of items */
    size_t pc = 0;
#define NEED(n) do { if (sp < (n)) return -1; } while (0)
#define PUSH(v) do { int64_t v_ = (int64_t)(v); if (sp >= STACK) return -1; s[sp++] = v_; } while (0)
#define OPND(n) do { if (pc + (n) > len) return -1; } while (0)
    for (int steps = 0; steps < MAX_STEPS; steps++) {
        if (pc >= len) return -1;
        uint8_t op = code[pc++];
        int64_t a, b;
        uint64_t u;
        switch (op) {
        case 0x02: NEED(2); sp--; s[sp - 1] = (int64_t)((uint64_t)s[sp - 1] + (uint64_t)s[sp]); break;
        case 0x03: NEED(2); sp--; s[sp - 1] = (int64_t)((uint64_t)s[sp - 1] - (uint64_t)s[sp]); break;
        case 0x04: NEED(2); sp--; s[sp - 1] = (int64_t)((uint64_t)s[sp - 1] * (uint64_t)s[sp]); break;
        case 0x05: case 0x07: /* div/rem signed */
            NEED(2); b = s[--sp]; a = s[sp - 1];
            if (b == 0 || (a == INT64_MIN && b == -1)) return -1;
            s[sp - 1] = op == 0x05 ? a / b : a % b;
            break;
        case 0x06: case 0x08: /* div/rem unsigned */
            NEED(2); b = s[--sp]; a = s[sp - 1];
            if (b == 0) return -1;
            s[sp - 1] = (int64_t)(op == 0x06 ? (uint64_t)a / (uint64_t)b : (uint64_t)a % (uint64_t)b);
            break;
        /* shift counts are unsigned; 64 or more shifts everything out */
        case 0x09: NEED(2); u = (uint64_t)s[--sp]; s[sp - 1] = u >= 64 ? 0 : (int64_t)((uint64_t)s[sp - 1] << u); break;
        case 0x0a: NEED(2); u = (uint64_t)s[--sp]; s[sp - 1] = s[sp - 1] >> (u >= 64 ? 63 : u); break;
        case 0x0b: NEED(2); u = (uint64_t)s[--sp]; s[sp - 1] = u >= 64 ? 0 : (int64_t)((uint64_t)s[sp - 1] >> u); break;
        case 0x0e: NEED(1); s[sp - 1] = !s[sp - 1]; break;
        case 0x0f: NEED(2); sp--; s[sp - 1] &= s[sp]; break;
        case 0x10: NEED(2); sp--; s[sp - 1] |= s[sp]; break;
        case 0x11: NEED(2); sp--; s[sp - 1] ^= s[sp]; break;
        case 0x12: NEED(1); s[sp - 1] = ~s[sp - 1]; break;
        case 0x13: NEED(2); sp--; s[sp - 1] = s[sp - 1] == s[sp]; break;
        case 0x14: NEED(2); sp--; s[sp - 1] = s[sp - 1] < s[sp]; break;
        case 0x15: NEED(2); sp--; s[sp - 1] = (uint64_t)s[sp - 1] < (uint64_t)s[sp]; break;
        case 0x16: case 0x2a: { /* ext / zero_ext n */
            OPND(1);
            int n = code[pc++];
            NEED(1);
            if (n == 0 || n > 64) return -1;
            if (n < 64) {
                uint64_t m = (1ull << n) - 1, v = (uint64_t)s[sp - 1] & m;
                if (op == 0x16 && (v >> (n - 1)) & 1) v |= ~m;
                s[sp - 1] = (int64_t)v;
            }
            break;
        }
        case 0x17: case 0x18: case 0x19: case 0x1a: { /* ref8/16/32/64 */
            int n = 1 << (op - 0x17);
            uint8_t buf[8];
            NEED(1);
            if (!env->mem || env->mem(env->user, (uint32_t)s[sp - 1], buf, (size_t)n)) return -1;
            u = 0;
            for (int i = n - 1; i >= 0; i--) u = u << 8 | buf[i]; /* target is little-endian */
            s[sp - 1] = (int64_t)u;
            break;
        }
        case 0x20: case 0x21: /* if_goto / goto: 16-bit absolute offset */
            OPND(2);
            u = operand(code + pc, 2);
            pc += 2;
            if (op == 0x20) {
                NEED(1);
                if (!s[--sp]) break;
            }
            pc = (size_t)u;
            break;
        case 0x22: case 0x23: case 0x24: case 0x25: { /* const8..64 */
            int n = 1 << (op - 0x22);
            OPND((size_t)n);
            PUSH(operand(code + pc, n));
            pc += (size_t)n;
            break;
        }
        case 0x26: /* reg n */
            OPND(2);
            u = operand(code + pc, 2);
            pc += 2;
            {
                uint64_t v;
                if (!env->reg || env->reg(env->user, (uint32_t)u, &v)) return -1;
                PUSH(v);
            }
            break;
        case 0x27: /* end */
            NEED(1);
            *result = s[sp - 1];
            return 0;
        case 0x28: NEED(1); PUSH(s[sp - 1]); break;
        case 0x29: NEED(1); sp--; break;
        case 0x2b: NEED(2); a = s[sp - 1]; s[sp - 1] = s[sp - 2]; s[sp - 2] = a; break;
        case 0x32: { /* pick n */
            OPND(1);
            int n = code[pc++];
            NEED(n + 1);
            PUSH(s[sp - 1 - n]);
            break;
        }
        case 0x33: /* rot: a b c => c a b */
            NEED(3);
            a = s[sp - 1];
            s[sp - 1] = s[sp - 2];
            s[sp - 2] = s[sp - 3];
            s[sp - 3] = a;
            break;
        default:
            return -1;
        }
    }
    return -1;
#undef NEED
#undef PUSH
#undef OPND
}

/* Operand bytes after opcode op, or -1 for an opcode ws_ax_eval does not run. */
static int operand_size(uint8_t op)
{
    switch (op) {
    case 0x16: case 0x2a: case 0x22: case 0x32: return 1;
    case 0x20: case 0x21: case 0x23: case 0x26: return 2;
    case 0x24: return 4;
    case 0x25: return 8;
    case 0x0c: case 0x0d: case 0x1b: case 0x1c: case 0x1d: case 0x1e: case 0x1f:
    case 0x2c: case 0x2d: case 0x2e: case 0x2f: case 0x30: case 0x31:
        return -1;
    default:
        return (op >= 0x02 && op <= 0x33) ? 0 : -1;
    }
}

int ws_ax_map_regs(uint8_t *code, size_t len, int (*map)(void *user, uint32_t regno, uint32_t *out),
                   void *user)
{
    for (size_t pc = 0; pc < len;) {
        int n = operand_size(code[pc]);
        if (n < 0 || pc + 1 + (size_t)n > len) return -1;
        if (code[pc] == 0x26) {
            uint32_t to;
            if (map(user, (uint32_t)operand(code + pc + 1, 2), &to) || to > 0xFFFF) return -1;
            code[pc + 1] = (uint8_t)(to >> 8);
            code[pc + 2] = (uint8_t)to;
        }
        pc += 1 + (size_t)n;
    }
    return 0;
}
