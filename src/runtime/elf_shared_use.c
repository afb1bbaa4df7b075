/* What each kernel's code reaches: which part of the static shared memory
 * it uses, and for a shader, whether it reads another stage's system
 * values (docs/graphics.md, "Shaders").
 *
 * Shared memory per kernel (docs/modules.md). Every reference to a WS_SHARED object is an
 * absolute relocation in the code; the kernel's code is what a walk of its
 * control flow reaches from the entry (branches, jumps, direct calls and
 * their returns). The kernel reserves the span of the objects referenced
 * from that code, so a module with many kernels does not make each launch
 * pay for the others' arrays. A `switch`'s indirect jump goes to the
 * entries of the jump table it reads (code_pointers.h); a walk that meets
 * another indirect jump or call cannot know where it goes: that kernel
 * keeps the whole section. Objects
 * whose address sits in module data (an initialized pointer) are reserved
 * by every kernel. */
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include "isa/isa.h"
#include "runtime/code_pointers.h"
#include "runtime/dwarf_objects.h"
#include "runtime/elf_internal.h"
#include "runtime/func_symbols.h"
#include "warpscope/abi.h"

/* The span [lo, hi) of window offsets that a reference to value lands in:
 * the shared object containing it, or the whole section if none does. */
static void object_span(ws_elf_ctx *cx, const ws_elf_image *img, uint32_t value, uint32_t *lo, uint32_t *hi)
{
    GElf_Sym s;
    if (!ws_elf_object_at(cx->symtab, value, &s)) {
        *lo = (uint32_t)(s.st_value - WS_SHARED_BASE);
        *hi = (uint32_t)(s.st_value - WS_SHARED_BASE + s.st_size);
        return;
    }
    *lo = 0;
    *hi = img->shared_static_size;
}

int ws_elf_note_shared_ref(ws_elf_ctx *cx, const ws_elf_image *img, uint32_t place, uint32_t value)
{
    if (cx->nshrefs == cx->shrefcap) {
        uint32_t cap = cx->shrefcap ? cx->shrefcap * 2 : 32;
        struct ws_shared_ref *r = realloc(cx->shrefs, cap * sizeof *r);
        if (!r) return ws_elf_fail(cx, "out of memory");
        cx->shrefs = r;
        cx->shrefcap = cap;
    }
    struct ws_shared_ref *r = &cx->shrefs[cx->nshrefs++];
    r->place = place;
    object_span(cx, img, value, &r->lo, &r->hi);
    return 0;
}

typedef struct walk {
    const ws_elf_image *img;
    uint8_t *seen;              /* one byte per 2-byte code unit of the text span:
                                   1 where a reached instruction starts       */
    uint32_t *todo;
    size_t ntodo, cap;
    uint32_t indirect;          /* the first indirect jump or call met (0: none) */
    const uint32_t *funcs;      /* the functions' [start, end) pairs, for a jump table's bounds */
    size_t nfuncs;
    const ws_code_pointer *ptrs; /* the code pointers in read-only data, by address */
    size_t nptrs;
} walk;

#define WINDOW 16 /* instructions before an indirect jump searched for its table's address */

static int in_text(const walk *w, uint32_t pc)
{
    return pc >= w->img->text_start && pc + 2 <= w->img->text_end && !(pc & 1);
}

static int push(walk *w, uint32_t pc)
{
    if (!in_text(w, pc) || w->seen[(pc - w->img->text_start) / 2]) return 0;
    if (w->ntodo == w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 64;
        uint32_t *t = realloc(w->todo, cap * sizeof *t);
        if (!t) return -1;
        w->todo = t;
        w->cap = cap;
    }
    w->todo[w->ntodo++] = pc;
    return 0;
}

static int fetch(const walk *w, uint32_t pc, ws_inst *in)
{
    if (!in_text(w, pc)) return -1;
    uint32_t off = pc - w->img->link_base, bits = 0;
    size_t avail = w->img->size - off;
    memcpy(&bits, w->img->bytes + off, avail < 4 ? avail : 4);
    ws_decode(bits, in);
    return in->op == OP_ILLEGAL || pc + in->len > w->img->text_end ? -1 : 0;
}

/* Whether CSR csr holds a system value of the other stage than kind's. */
static int foreign_sysval(ws_func_kind kind, uint32_t csr)
{
    if (kind == WS_FUNC_VERTEX) return csr >= WS_CSR_GFX_SYS0 && csr <= WS_CSR_GFX_SYS3;
    if (kind == WS_FUNC_FRAGMENT) return csr == WS_CSR_GFX_VERTEX;
    return 0;
}

/* The straight-line walk: the code every run of a shader executes. From
 * the entry it goes on through unconditional jumps, into direct calls and
 * on after them, and stops at the first conditional branch, indirect jump
 * or return, where it cannot know the way. A call is assumed to return
 * unless the walk of the callee ends where nothing comes back: an illegal
 * instruction (__builtin_trap(), __builtin_unreachable()) or an ecall that
 * ends the lane (ws_trap(), assert, exit). After such a call the compiler
 * puts nothing, so the bytes there are the next function's: the walk went
 * on into them, and a stub vertex shader that only traps was refused for
 * the ws_pixel_x() of the fragment shader after it. Registers are followed
 * as far as lui/addi set them, to see a7 at an ecall. */
typedef struct straight {
    const walk *w;
    ws_func_kind kind;
    uint32_t budget;       /* instructions left to look at                  */
    uint32_t reg[32];      /* register values where known[] says so         */
    uint32_t known;        /* bit r: reg[r] is known (x0 always)            */
    uint32_t csr, csr_pc;  /* the first foreign system value read, if any   */
    uint32_t discard_pc;   /* a vertex shader's ws_discard() ecall, if any  */
} straight;

static void note_constant(straight *s, const ws_inst *in)
{
    if (!in->rd) return;
    uint32_t bit = 1u << in->rd;
    if (in->op == OP_LUI) s->reg[in->rd] = (uint32_t)in->imm, s->known |= bit;
    else if (in->op == OP_ADDI && (s->known & (1u << in->rs1)))
        s->reg[in->rd] = (in->rs1 ? s->reg[in->rs1] : 0) + (uint32_t)in->imm, s->known |= bit;
    else s->known &= ~bit;
}

static int a7_is(const straight *s, uint32_t v) { return (s->known & (1u << 17)) && s->reg[17] == v; }

/* How a straight walk ended: the code may go on after it (a return, or a
 * branch or indirect jump whose way is not known), or it never does. */
enum { WALK_GOES_ON, WALK_ENDS };

static int walk_straight(straight *s, uint32_t pc, int depth)
{
    ws_inst in;
    while (s->budget && !s->csr && !s->discard_pc) {
        if (!in_text(s->w, pc)) return WALK_GOES_ON; /* not known */
        if (fetch(s->w, pc, &in) != 0) return WALK_ENDS; /* an illegal instruction stops the lane */
        s->budget--;
        uint32_t next = pc + in.len;
        if (in.op >= OP_CSRRW && in.op <= OP_CSRRCI && foreign_sysval(s->kind, (uint32_t)in.imm & 0xFFFu)) {
            s->csr = (uint32_t)in.imm & 0xFFFu;
            s->csr_pc = pc;
            return WALK_ENDS;
        }
        if (in.op == OP_ECALL && s->kind == WS_FUNC_VERTEX && a7_is(s, WS_ECALL_DISCARD)) {
            s->discard_pc = pc;
            return WALK_ENDS;
        }
        if (in.op == OP_ECALL && (a7_is(s, WS_ECALL_EXIT) || a7_is(s, WS_ECALL_TRAP) || a7_is(s, WS_ECALL_ASSERT)))
            return WALK_ENDS; /* the lane retires or the launch stops */
        note_constant(s, &in);
        switch (in.op) {
        case OP_BEQ: case OP_BNE: case OP_BLT: case OP_BGE: case OP_BLTU: case OP_BGEU: case OP_JALR:
            return WALK_GOES_ON;
        case OP_JAL:
            if (in.rd == 0) { next = pc + (uint32_t)in.imm; break; }
            if (depth < 16 && walk_straight(s, pc + (uint32_t)in.imm, depth + 1) == WALK_ENDS) return WALK_ENDS;
            s->known = 1; /* the callee may have changed any register but x0 */
            break;
        case OP_AUIPC: { /* auipc rX + jalr rX: a call or tail call */
            ws_inst j;
            if (fetch(s->w, next, &j) != 0 || j.op != OP_JALR || j.rs1 != in.rd) break;
            uint32_t target = pc + (uint32_t)in.imm + (uint32_t)j.imm;
            if (!j.rd) { next = target; break; }
            if (depth < 16 && walk_straight(s, target, depth + 1) == WALK_ENDS) return WALK_ENDS;
            s->known = 1;
            next += j.len;
            break;
        }
        default:
            break;
        }
        pc = next;
    }
    return s->budget ? WALK_ENDS : WALK_GOES_ON;
}

/* Whether a direct call to target certainly does not come back: its
 * straight walk ends in a trap, an illegal instruction or an ecall that
 * ends the lane before any branch or return (then the bytes after the
 * call are another function's, not code this one reaches). */
static int call_ends(const walk *w, uint32_t target)
{
    straight s = { .w = w, .kind = WS_FUNC_KERNEL, .budget = 4096, .known = 1 };
    return walk_straight(&s, target, 1) == WALK_ENDS;
}

/* Push the cases of the jump table the indirect jump at pc reads, from
 * the run's instructions before it, recent[0, nrecent) at recent_pc[]:
 * 1 if found, 0 if not (where it goes is not known), -1 out of memory.
 * The table runs on while its words point into the jump's function; one
 * that runs into the next switch's table only reaches more code, so
 * reserves more, never less. */
static int push_table(walk *w, uint32_t pc, const ws_inst *recent, const uint32_t *recent_pc, size_t nrecent)
{
    const size_t f = ws_func_range_at(w->funcs, w->nfuncs, pc);
    if (f == w->nfuncs) return 0;
    const uint32_t fa = w->funcs[2 * f], fe = w->funcs[2 * f + 1];
    size_t i = ws_jump_table_at(recent, recent_pc, nrecent, w->ptrs, w->nptrs, fa, fe);
    if (i >= w->nptrs) return 0;
    for (size_t first = i; i < w->nptrs && w->ptrs[i].to > fa && w->ptrs[i].to < fe; i++) {
        if (i > first && w->ptrs[i].at != w->ptrs[i - 1].at + 4) break;
        if (push(w, w->ptrs[i].to)) return -1;
    }
    return 1;
}

/* Visit everything reachable from entry, noting indirect jumps and calls
 * (where they go is not known; an indirect call returns; a direct call
 * returns unless call_ends() says it cannot; a switch's jump goes to its
 * table's cases). -1: out of memory. */
static int walk_code(walk *w, uint32_t entry)
{
    if (push(w, entry)) return -1;
    while (w->ntodo) {
        uint32_t pc = w->todo[--w->ntodo];
        ws_inst in, recent[WINDOW];
        uint32_t recent_pc[WINDOW];
        size_t nrecent = 0;
        while (in_text(w, pc) && !w->seen[(pc - w->img->text_start) / 2] && fetch(w, pc, &in) == 0) {
            w->seen[(pc - w->img->text_start) / 2] = 1;
            uint32_t next = pc + in.len;
            if (nrecent == WINDOW) { /* the run's last WINDOW instructions, oldest first */
                memmove(recent, recent + 1, (WINDOW - 1) * sizeof *recent);
                memmove(recent_pc, recent_pc + 1, (WINDOW - 1) * sizeof *recent_pc);
                nrecent--;
            }
            switch (in.op) {
            case OP_BEQ: case OP_BNE: case OP_BLT: case OP_BGE: case OP_BLTU: case OP_BGEU:
                if (push(w, pc + (uint32_t)in.imm)) return -1;
                break;
            case OP_JAL:
                if (push(w, pc + (uint32_t)in.imm)) return -1;
                if (in.rd == 0 || call_ends(w, pc + (uint32_t)in.imm)) next = 0; /* a jump: no fall-through */
                break;
            case OP_AUIPC: { /* auipc rX + jalr rX: a call or tail call */
                ws_inst j;
                if (fetch(w, next, &j) == 0 && j.op == OP_JALR && j.rs1 == in.rd) {
                    w->seen[(next - w->img->text_start) / 2] = 1;
                    uint32_t target = pc + ((uint32_t)in.imm) + (uint32_t)j.imm;
                    if (push(w, target)) return -1;
                    next = j.rd && !call_ends(w, target) ? next + j.len : 0;
                }
                break;
            }
            case OP_JALR: {
                int known = in.rd == 0 && in.rs1 == 1 && in.imm == 0; /* a ret */
                if (!known && in.rd == 0 && in.rs1 != 1) {
                    known = push_table(w, pc, recent, recent_pc, nrecent);
                    if (known < 0) return -1;
                }
                if (!known && !w->indirect) w->indirect = pc;
                if (in.rd == 0) next = 0;
                break;
            }
            default:
                break;
            }
            recent[nrecent] = in, recent_pc[nrecent++] = pc;
            if (!next) break;
            pc = next;
        }
    }
    return 0;
}

/* A shader's first read (lowest address) of another stage's system value
 * in the code the walk reached: a vertex shader's ws_pixel_x() read its
 * vertex index, a fragment shader's ws_vertex_id() nothing it could use. */
static void find_foreign_sysval(const walk *w, ws_elf_kernel *K)
{
    K->foreign_csr = K->foreign_pc = 0;
    if (K->kind == WS_FUNC_KERNEL || w->img->legacy_sysvals) return; /* its SYS0 may be a vertex index */
    for (uint32_t pc = w->img->text_start; in_text(w, pc); pc += 2) {
        ws_inst in;
        if (!w->seen[(pc - w->img->text_start) / 2] || fetch(w, pc, &in)) continue;
        if (in.op < OP_CSRRW || in.op > OP_CSRRCI || !foreign_sysval(K->kind, (uint32_t)in.imm & 0xFFFu)) continue;
        K->foreign_csr = (uint32_t)in.imm & 0xFFFu;
        K->foreign_pc = pc;
        return;
    }
}

/* What a shader does on every run: a read of another stage's system value
 * (then that read is the one named, and pipelines refuse the shader) or, in
 * a vertex shader, a ws_discard() call. A read or call only on some paths
 * is left to the fault at run time: a helper shared by both stages may
 * read ws_pixel_x() only when it runs in the fragment shader. */
static void find_unconditional(const walk *w, ws_elf_kernel *K)
{
    K->foreign_always = 0;
    K->discard_pc = 0;
    if (K->kind == WS_FUNC_KERNEL || w->img->legacy_sysvals) return;
    straight s = { .w = w, .kind = K->kind, .budget = 1u << 16, .known = 1 };
    walk_straight(&s, K->entry, 0);
    if (s.csr) {
        K->foreign_csr = s.csr;
        K->foreign_pc = s.csr_pc;
        K->foreign_always = 1;
    }
    K->discard_pc = s.discard_pc;
}

int ws_elf_kernel_shared(ws_elf_ctx *cx, ws_elf_image *img)
{
    uint32_t units = (img->text_end - img->text_start) / 2 + 1;
    walk w = { .img = img, .seen = malloc(units) };
    ws_func_syms syms;
    ws_code_pointer *ptrs = NULL;
    size_t nptrs = 0;
    ws_func_syms_build(&syms, cx->elf);
    uint32_t *funcs = syms.n ? malloc(2 * syms.n * sizeof *funcs) : NULL;
    if (!w.seen || (syms.n && !funcs) || ws_code_pointers(cx->elf, 0, img->text_start, img->text_end, &ptrs, &nptrs)) {
        free(w.seen), free(funcs);
        ws_func_syms_free(&syms);
        return ws_elf_fail(cx, "out of memory");
    }
    w.funcs = funcs, w.nfuncs = funcs ? ws_func_syms_ranges(&syms, 0, funcs) : 0;
    ws_func_syms_free(&syms);
    w.ptrs = ptrs, w.nptrs = nptrs;
    int r = 0;
    for (uint32_t k = 0; k < img->nkernels && r >= 0; k++) {
        ws_elf_kernel *K = &img->kernels[k];
        if (!img->shared_static_size && K->kind == WS_FUNC_KERNEL) continue;
        memset(w.seen, 0, units);
        w.ntodo = 0;
        w.indirect = 0;
        r = walk_code(&w, K->entry);
        if (r < 0) { ws_elf_fail(cx, "out of memory"); break; }
        find_foreign_sysval(&w, K);
        find_unconditional(&w, K);
        if (!img->shared_static_size) continue;
        K->shared_all_pc = w.indirect;
        if (w.indirect) { /* it may reach any object */
            K->shared_lo = 0;
            K->shared_hi = img->shared_static_size;
            continue;
        }
        uint32_t lo = UINT32_MAX, hi = 0;
        for (uint32_t i = 0; i < cx->nshrefs; i++) {
            const struct ws_shared_ref *s = &cx->shrefs[i];
            /* A word of module data holding a shared address (`int *p =
             * buf;`): any kernel may load it and reach the object through
             * it, so every kernel reserves that object (it was left out,
             * and the access faulted as out of bounds). */
            if (in_text(&w, s->place) && !w.seen[(s->place - img->text_start) / 2]) continue;
            if (s->lo < lo) lo = s->lo;
            if (s->hi > hi) hi = s->hi;
        }
        K->shared_lo = lo == UINT32_MAX ? 0 : lo & ~15u; /* keep the block's 16-byte alignment */
        K->shared_hi = lo == UINT32_MAX ? 0 : hi;
    }
    free(w.seen);
    free(w.todo);
    free(ptrs), free(funcs);
    free(cx->shrefs);
    cx->shrefs = NULL;
    return r < 0 ? -1 : 0;
}
