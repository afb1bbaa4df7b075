/* The fast functional engine: pre-decoded blocks, threaded dispatch.
 *
 * A block is the straight-line code from one PC up to and including its
 * first control transfer (branch, jal, jalr), or up to the first
 * instruction the engine leaves to the interpreter (ecall, ebreak,
 * atomics, barriers, SIMT ops, illegal or trapped entries, fetch faults),
 * or FX_MAX_OPS instructions (one in timing mode, which runs a single
 * instruction per call: timing.c's step). Each entry holds a copy of the decoded
 * instruction and the address of its handler's label; blocks are chained
 * to their successors. Blocks are built from the interpreter's decode
 * cache (ws_warp_fetch) and all of them are dropped whenever that cache is
 * invalidated (ws_code_invalidate, a debugger's trigger marks), so a block
 * never outlives the code it was decoded from.
 *
 * The engine runs only the warp's single runnable group (other_min_pc ==
 * UINT32_MAX, so no scheduling decision is taken per instruction) with no
 * debugger and no event bus. The group's mask cannot change inside a run:
 * nothing the engine executes retires lanes or waits at a barrier. Every
 * lane computation is the interpreter's, in the same lane order;
 * statistics are added once at the end of the run with the same totals. */
#include <stdlib.h>
#include <string.h>
#include "device/fast_exec.h"
#include "device/lane_io.h"
#include "device/events/event_bus.h"
#include "device/debug/debug_hooks.h"

#define FX_MAX_OPS 64

enum {
    FX_STOP, FX_END, FX_NOP, FX_LI,
    FX_ADDI, FX_SLTI, FX_SLTIU, FX_XORI, FX_ORI, FX_ANDI, FX_SLLI, FX_SRLI, FX_SRAI,
    FX_ADD, FX_SUB, FX_SLL, FX_SLT, FX_SLTU, FX_XOR, FX_SRL, FX_SRA, FX_OR, FX_AND,
    FX_MUL, FX_MULH, FX_MULHSU, FX_MULHU, FX_DIV, FX_DIVU, FX_REM, FX_REMU,
    FX_LOAD, FX_STORE, FX_CSR, FX_FLOAT, FX_LW, FX_FLW, FX_SW, FX_FSW, FX_CSR_TID, FX_CSR_UNI,
    FX_BEQ, FX_BNE, FX_BLT, FX_BGE, FX_BLTU, FX_BGEU, FX_JAL, FX_JALR,
    FX_NHANDLERS
};

typedef struct fx_op {
    uint16_t h;          /* FX_* handler */
    uint8_t rd, rs1, rs2;
    uint32_t imm;        /* immediate (shift amounts masked, auipc resolved) */
    uint32_t pc;         /* address of the instruction (FX_END, FX_STOP: next pc) */
    ws_inst in;          /* the decoded instruction, for call-outs */
    /* Word loads and stores: the live data allocation [rlo, rhi) this
     * instruction last hit, during launch rlaunch (allocations change
     * only between launches; launch ids are never reused) */
    uint32_t rlo, rhi;
    uint64_t rlaunch;
} fx_op;

typedef struct fx_block fx_block;
struct fx_block {
    fx_block *link;      /* every block of the cache, for the flush */
    fx_block *succ[2];   /* taken / fall-through successors, once looked up */
    fx_block *jr_blk;    /* the last jalr target of this block */
    uint32_t jr_pc;
    uint32_t n;          /* entries, including the final control or FX_END/STOP */
    fx_op ops[];
};

/* One cache per core (dev->fast[core]): a core's warps only touch their
 * own, so cores run on separate host threads need no locking here. */
struct ws_fast_cache {
    fx_block ***pages;   /* per 4 KiB page of the global arena: 2048 slots */
    uint32_t npages;
    fx_block *all;
};

int ws_fast_create(ws_device *dev)
{
    dev->fast = calloc(dev->cfg.cores, sizeof *dev->fast);
    return dev->fast ? 0 : -1;
}

void ws_fast_flush(ws_device *dev)
{
    for (uint32_t k = 0; dev->fast && k < dev->cfg.cores; k++) {
        struct ws_fast_cache *c = &dev->fast[k];
        for (fx_block *b = c->all, *next; b; b = next) {
            next = b->link;
            free(b);
        }
        c->all = NULL;
        for (uint32_t i = 0; c->pages && i < c->npages; i++) {
            free(c->pages[i]);
            c->pages[i] = NULL;
        }
    }
}

void ws_fast_free(ws_device *dev)
{
    if (!dev->fast) return;
    ws_fast_flush(dev);
    for (uint32_t k = 0; k < dev->cfg.cores; k++) free(dev->fast[k].pages);
    free(dev->fast);
    dev->fast = NULL;
}

/* The handler of a decoded instruction, or FX_STOP for the interpreter. */
static uint16_t classify(const ws_inst *in)
{
    if (in->op & WS_INST_TRAP) return FX_STOP;
    switch ((ws_op)in->op) {
    case OP_LUI: case OP_AUIPC: return in->rd ? FX_LI : FX_NOP;
#define ALU(o) case OP_##o: return in->rd ? FX_##o : FX_NOP;
    ALU(ADDI) ALU(SLTI) ALU(SLTIU) ALU(XORI) ALU(ORI) ALU(ANDI) ALU(SLLI) ALU(SRLI) ALU(SRAI)
    ALU(ADD) ALU(SUB) ALU(SLL) ALU(SLT) ALU(SLTU) ALU(XOR) ALU(SRL) ALU(SRA) ALU(OR) ALU(AND)
    ALU(MUL) ALU(MULH) ALU(MULHSU) ALU(MULHU) ALU(DIV) ALU(DIVU) ALU(REM) ALU(REMU)
#undef ALU
    case OP_FENCE: case OP_FENCE_I: case OP_SPLIT: case OP_JOIN: return FX_NOP;
    case OP_LW: return FX_LW;
    case OP_FLW: return FX_FLW;
    case OP_SW: return FX_SW;
    case OP_FSW: return FX_FSW;
    case OP_LB: case OP_LH: case OP_LBU: case OP_LHU: return FX_LOAD;
    case OP_SB: case OP_SH: return FX_STORE;
    case OP_CSRRS: case OP_CSRRC: case OP_CSRRSI: case OP_CSRRCI:
        if (in->rs1 == 0 && in->rd != 0) { /* a read of an identity CSR (as fast_csr_read) */
            switch ((uint32_t)in->imm & 0xFFFu) {
            case WS_CSR_TID_X: case WS_CSR_TID_Y: case WS_CSR_TID_Z: return FX_CSR_TID;
            case WS_CSR_CTAID_X: case WS_CSR_CTAID_Y: case WS_CSR_CTAID_Z: case WS_CSR_NTID_X:
            case WS_CSR_NTID_Y: case WS_CSR_NTID_Z: case WS_CSR_NCTAID_X: case WS_CSR_NCTAID_Y:
            case WS_CSR_NCTAID_Z: case WS_CSR_LANES_PER_WARP: return FX_CSR_UNI;
            default: break;
            }
        }
        return FX_CSR;
    case OP_CSRRW: case OP_CSRRWI: return FX_CSR;
    case OP_BEQ: return FX_BEQ;
    case OP_BNE: return FX_BNE;
    case OP_BLT: return FX_BLT;
    case OP_BGE: return FX_BGE;
    case OP_BLTU: return FX_BLTU;
    case OP_BGEU: return FX_BGEU;
    case OP_JAL: return FX_JAL;
    case OP_JALR: return FX_JALR;
    default:
        if (in->op >= OP_FMADD_S && in->op <= OP_FMV_W_X) return FX_FLOAT;
        return FX_STOP; /* ecall, ebreak, atomics, SIMT ops, illegal */
    }
}

static int is_control(uint16_t h) { return h >= FX_BEQ; }

/* Decode the block at pc (NULL: out of host memory). */
static fx_block *build(ws_device *dev, ws_warp *w, uint32_t pc)
{
    fx_op ops[FX_MAX_OPS + 1];
    uint32_t n = 0, p = pc;
    /* Timing mode runs one instruction per call, from every PC: a block
     * per PC of all the code after it would cost quadratic memory. */
    const uint32_t max = dev->cfg.mode == WS_MODE_TIMING ? 1 : FX_MAX_OPS;
    for (;;) {
        const ws_inst *in = n < max && ws_mem_in_global(&dev->mem, p) ? ws_warp_fetch(dev, w, p) : NULL;
        uint16_t h = in && in->len ? classify(in) : FX_STOP;
        fx_op *o = &ops[n++];
        memset(o, 0, sizeof *o);
        o->pc = p;
        if (h == FX_STOP) {
            o->h = n > 1 ? FX_END : FX_STOP; /* FX_END: continue with the block at p */
            break;
        }
        o->h = h;
        o->in = *in;
        o->rd = in->rd;
        o->rs1 = in->rs1;
        o->rs2 = in->rs2;
        o->imm = (uint32_t)in->imm;
        if (in->op == OP_AUIPC) o->imm += p;
        if (in->op == OP_SLLI || in->op == OP_SRLI || in->op == OP_SRAI) o->imm &= 31;
        if (h == FX_CSR_TID || h == FX_CSR_UNI) o->imm &= 0xFFFu;
        if (is_control(h)) break;
        p += in->len;
    }
    fx_block *b = calloc(1, sizeof *b + n * sizeof(fx_op));
    if (!b) return NULL;
    b->n = n;
    memcpy(b->ops, ops, n * sizeof(fx_op));
    return b;
}

/* The block at pc, built on first use; NULL if pc is not in the global
 * arena or host memory ran out (the interpreter then takes over). */
static fx_block *lookup(ws_device *dev, struct ws_fast_cache *c, ws_warp *w, uint32_t pc)
{
    if (pc == WS_RETIRE_ADDR || !ws_mem_in_global(&dev->mem, pc)) return NULL;
    uint32_t idx = (pc - WS_GLOBAL_BASE) >> 12;
    if (idx >= c->npages) return NULL;
    if (!c->pages[idx] && !(c->pages[idx] = calloc(2048, sizeof(fx_block *)))) return NULL;
    fx_block **slot = &c->pages[idx][(pc & 0xFFFu) >> 1];
    if (!*slot) {
        fx_block *b = build(dev, w, pc);
        if (!b) return NULL;
        b->link = c->all;
        c->all = b;
        *slot = b;
    }
    return *slot;
}

/* Lanes of the group: every lane of a full 32-lane warp in a counted loop
 * the compiler vectorises, else the set bits of g in ascending order. */
#define LANES(...) do {                                                          \
        if (full) { for (int l = 0; l < 32; l++) { __VA_ARGS__; } }              \
        else { for (uint32_t m_ = g; m_; m_ &= m_ - 1) { int l = __builtin_ctz(m_); __VA_ARGS__; } } \
    } while (0)

/* The value of a uniform identity CSR (fast_csr_read in warp_exec.c). */
static uint32_t csr_uniform(const ws_device *dev, const ws_warp *w, uint32_t csr)
{
    const ws_grid_run *L = dev->current;
    switch (csr) {
    case WS_CSR_CTAID_X: return w->block->idx.x;
    case WS_CSR_CTAID_Y: return w->block->idx.y;
    case WS_CSR_CTAID_Z: return w->block->idx.z;
    case WS_CSR_NTID_X: return L->block.x;
    case WS_CSR_NTID_Y: return L->block.y;
    case WS_CSR_NTID_Z: return L->block.z;
    case WS_CSR_NCTAID_X: return L->grid.x;
    case WS_CSR_NCTAID_Y: return L->grid.y;
    default: return csr == WS_CSR_NCTAID_Z ? L->grid.z : dev->cfg.lanes_per_warp;
    }
}

/* The live data allocation holding the group's first address, as
 * uniform_region (lane_io.c) finds it, cached in the instruction. 0: not
 * in one (the exact path decides). */
static inline int op_region(const ws_device *dev, fx_op *op, uint32_t a0)
{
    if (op->rlaunch == dev->current->id && a0 - op->rlo < op->rhi - op->rlo) return 1;
    const ws_region *r = ws_mem_in_global(&dev->mem, a0) ? ws_mem_region_near(&dev->mem, a0) : NULL;
    if (!r || r->kind != REGION_DATA || r->state != REGION_LIVE || a0 - r->addr >= r->size) return 0;
    op->rlo = r->addr;
    op->rhi = r->addr + r->size;
    op->rlaunch = dev->current->id;
    return 1;
}

/* Do the 32 lanes address 32 consecutive words? The last lane first:
 * strided and broadcast patterns fail there. */
static inline int consecutive(const uint32_t *base, uint32_t imm)
{
    const uint32_t a0 = base[0] + imm;
    if (base[31] + imm != a0 + 124u) return 0;
    uint32_t seq = 0;
    for (int l = 0; l < 32; l++) seq |= (base[l] + imm) ^ (a0 + 4u * (uint32_t)l);
    return seq == 0;
}

/* Word accesses of the group that all fall, aligned, in that allocation:
 * exactly what ws_lane_loads/ws_lane_stores do for them (their uniform
 * path picks the same allocation; the shared window lies elsewhere). 0:
 * some lane is elsewhere, nothing was done, the caller takes the exact
 * path. */
static inline int word_loads(const ws_device *dev, fx_op *op, const uint32_t *base, uint32_t imm, uint32_t g,
                             int full, uint32_t *dst)
{
    if (!op_region(dev, op, base[__builtin_ctz(g)] + imm)) return 0;
    const uint32_t lo = op->rlo, span = op->rhi - lo;
    if (span < 4) return 0;
    const uint32_t last = span - 4;
    const uint8_t *host = dev->mem.global + (lo - WS_GLOBAL_BASE);
    uint32_t tmp[WS_MAX_LANES], bad = 0;
    LANES(bad |= (base[l] + imm - lo > last) | ((base[l] + imm) & 3u)); /* vectorises */
    if (bad) return 0;
    if (full && consecutive(base, imm)) { /* a thread's own element: one copy */
        memcpy(dst, host + (base[0] + imm - lo), 32 * 4);
        return 1;
    }
    LANES(memcpy(&tmp[l], host + (base[l] + imm - lo), 4));
    LANES(dst[l] = tmp[l]); /* dst may be base */
    return 1;
}

static inline int word_stores(const ws_device *dev, fx_op *op, const uint32_t *base, uint32_t imm, uint32_t g,
                              int full, const uint32_t *src)
{
    if (!op_region(dev, op, base[__builtin_ctz(g)] + imm)) return 0;
    const uint32_t lo = op->rlo, span = op->rhi - lo;
    if (span < 4) return 0;
    const uint32_t last = span - 4;
    uint8_t *host = dev->mem.global + (lo - WS_GLOBAL_BASE);
    uint32_t bad = 0;
    LANES(bad |= (base[l] + imm - lo > last) | ((base[l] + imm) & 3u));
    if (bad) return 0;
    if (full && consecutive(base, imm)) { /* one copy: no two lanes share a word */
        memcpy(host + (base[0] + imm - lo), src, 32 * 4);
        return 1;
    }
    LANES(memcpy(host + (base[l] + imm - lo), &src[l], 4)); /* lane order */
    return 1;
}

int ws_fast_run(ws_device *dev, ws_warp *w, ws_launch_stats *st, uint32_t budget, uint32_t *issued)
{
    static const void *const labels[FX_NHANDLERS] = {
        [FX_STOP] = &&h_stop, [FX_END] = &&h_end, [FX_NOP] = &&h_nop, [FX_LI] = &&h_li,
        [FX_ADDI] = &&h_addi, [FX_SLTI] = &&h_slti, [FX_SLTIU] = &&h_sltiu, [FX_XORI] = &&h_xori,
        [FX_ORI] = &&h_ori, [FX_ANDI] = &&h_andi, [FX_SLLI] = &&h_slli, [FX_SRLI] = &&h_srli,
        [FX_SRAI] = &&h_srai, [FX_ADD] = &&h_add, [FX_SUB] = &&h_sub, [FX_SLL] = &&h_sll,
        [FX_SLT] = &&h_slt, [FX_SLTU] = &&h_sltu, [FX_XOR] = &&h_xor, [FX_SRL] = &&h_srl,
        [FX_SRA] = &&h_sra, [FX_OR] = &&h_or, [FX_AND] = &&h_and, [FX_MUL] = &&h_mul,
        [FX_MULH] = &&h_mulh, [FX_MULHSU] = &&h_mulhsu, [FX_MULHU] = &&h_mulhu, [FX_DIV] = &&h_div,
        [FX_DIVU] = &&h_divu, [FX_REM] = &&h_rem, [FX_REMU] = &&h_remu, [FX_LOAD] = &&h_load,
        [FX_STORE] = &&h_store, [FX_CSR] = &&h_csr, [FX_FLOAT] = &&h_float, [FX_BEQ] = &&h_beq,
        [FX_BNE] = &&h_bne, [FX_BLT] = &&h_blt, [FX_BGE] = &&h_bge, [FX_BLTU] = &&h_bltu,
        [FX_BGEU] = &&h_bgeu, [FX_JAL] = &&h_jal, [FX_JALR] = &&h_jalr, [FX_LW] = &&h_lw,
        [FX_FLW] = &&h_flw, [FX_SW] = &&h_sw, [FX_FSW] = &&h_fsw, [FX_CSR_TID] = &&h_csr_tid,
        [FX_CSR_UNI] = &&h_csr_uni,
    };
    struct ws_fast_cache *c = dev->fast && w->core < dev->cfg.cores ? &dev->fast[w->core] : NULL;
    if (c && !c->pages && (c->pages = calloc(dev->ncode_pages, sizeof *c->pages))) c->npages = dev->ncode_pages;
    if (!c || !c->pages) { *issued = 0; return 0; } /* no host memory: the interpreter */
    const uint32_t g = w->group;
    const int full = g == UINT32_MAX && dev->cfg.lanes_per_warp == 32;
    uint32_t lanes = g - ((g >> 1) & 0x55555555u); /* without a libgcc call: timing mode runs */
    lanes = (lanes & 0x33333333u) + ((lanes >> 2) & 0x33333333u); /* one instruction per call */
    const uint64_t count = (((lanes + (lanes >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24;
    const uint64_t instret0 = w->instret;
    uint32_t (*const x)[WS_MAX_LANES] = w->x;
    uint32_t k = 0, loads = 0, stores = 0, pc = w->group_pc, taken = 0;
    int faulted = 0;
    fx_block *b = lookup(dev, c, w, pc), *nb;
    fx_op *op;
    if (!b) goto stop;
    op = b->ops;

#define NEXT do { op++; k++; goto dispatch; } while (0)
/* A full warp computes into a local row first: rd is often rs1, which
 * makes the compiler's alias check send an in-place loop to scalar code. */
#define SET_RD(rd, expr) do {                                                          \
        if (full) { uint32_t t_[32]; for (int l = 0; l < 32; l++) t_[l] = (expr);      \
                    memcpy(x[rd], t_, sizeof t_); }                                     \
        else { for (uint32_t m_ = g; m_; m_ &= m_ - 1) { int l = __builtin_ctz(m_); x[rd][l] = (expr); } } \
    } while (0)
#define RR(o, expr) h_##o: { const uint32_t rd = op->rd, rs1 = op->rs1, rs2 = op->rs2;  \
        SET_RD(rd, expr); } NEXT;
#define RI(o, expr) h_##o: { const uint32_t rd = op->rd, rs1 = op->rs1, imm = op->imm; \
        SET_RD(rd, expr); } NEXT;
/* A full warp first asks whether all or no lanes branch (and/or
 * reductions that vectorise); the mask is built only when they split. */
#define BR(o, cond) h_##o: { const uint32_t rs1 = op->rs1, rs2 = op->rs2;             \
        taken = 0;                                                                    \
        if (full) {                                                                   \
            uint32_t all_ = 1, any_ = 0;                                              \
            for (int l = 0; l < 32; l++) { uint32_t c_ = (cond); all_ &= c_; any_ |= c_; } \
            if (all_) taken = g;                                                      \
            else if (any_) for (int l = 0; l < 32; l++) taken |= (uint32_t)(cond) << l; \
        } else {                                                                      \
            for (uint32_t m_ = g; m_; m_ &= m_ - 1) { int l = __builtin_ctz(m_); taken |= (uint32_t)(cond) << l; } \
        } } goto branch;
/* Before a call into the interpreter's code: the state it would see. */
#define SYNC() do { w->instret = instret0 + k + 1; w->group_pc = op->pc; } while (0)

dispatch:
    if (k == budget) { pc = op->pc; goto stop; }
    goto *labels[op->h];

h_stop:
    pc = op->pc;
    goto stop;
h_end: /* straight-line code continues in the next block */
    pc = op->pc;
    if (!(nb = b->succ[1]) && !(nb = b->succ[1] = lookup(dev, c, w, pc))) goto stop;
    b = nb;
    op = b->ops;
    goto dispatch;
h_nop: NEXT;
h_li: { const uint32_t rd = op->rd, imm = op->imm; LANES(x[rd][l] = imm); } NEXT;
    RI(addi, x[rs1][l] + imm)
    RI(slti, (int32_t)x[rs1][l] < (int32_t)imm)
    RI(sltiu, x[rs1][l] < imm)
    RI(xori, x[rs1][l] ^ imm)
    RI(ori, x[rs1][l] | imm)
    RI(andi, x[rs1][l] & imm)
    RI(slli, x[rs1][l] << imm)
    RI(srli, x[rs1][l] >> imm)
    RI(srai, (uint32_t)((int32_t)x[rs1][l] >> imm))
    RR(add, x[rs1][l] + x[rs2][l])
    RR(sub, x[rs1][l] - x[rs2][l])
    RR(sll, x[rs1][l] << (x[rs2][l] & 31))
    RR(slt, (int32_t)x[rs1][l] < (int32_t)x[rs2][l])
    RR(sltu, x[rs1][l] < x[rs2][l])
    RR(xor, x[rs1][l] ^ x[rs2][l])
    RR(srl, x[rs1][l] >> (x[rs2][l] & 31))
    RR(sra, (uint32_t)((int32_t)x[rs1][l] >> (x[rs2][l] & 31)))
    RR(or, x[rs1][l] | x[rs2][l])
    RR(and, x[rs1][l] & x[rs2][l])
    RR(mul, x[rs1][l] * x[rs2][l])
    RR(mulh, (uint32_t)(((int64_t)(int32_t)x[rs1][l] * (int32_t)x[rs2][l]) >> 32))
    RR(mulhsu, (uint32_t)(((int64_t)(int32_t)x[rs1][l] * (int64_t)x[rs2][l]) >> 32))
    RR(mulhu, (uint32_t)(((uint64_t)x[rs1][l] * x[rs2][l]) >> 32))
    RR(div, x[rs2][l] == 0 ? UINT32_MAX
            : ((int32_t)x[rs1][l] == INT32_MIN && (int32_t)x[rs2][l] == -1) ? x[rs1][l]
            : (uint32_t)((int32_t)x[rs1][l] / (int32_t)x[rs2][l]))
    RR(divu, x[rs2][l] ? x[rs1][l] / x[rs2][l] : UINT32_MAX)
    RR(rem, x[rs2][l] == 0 ? x[rs1][l]
            : ((int32_t)x[rs1][l] == INT32_MIN && (int32_t)x[rs2][l] == -1) ? 0
            : (uint32_t)((int32_t)x[rs1][l] % (int32_t)x[rs2][l]))
    RR(remu, x[rs2][l] ? x[rs1][l] % x[rs2][l] : x[rs1][l])

h_load:
    SYNC();
    w->fp_used |= op->in.op == OP_FLW;
    if (ws_lane_loads(dev, w, &op->in, g, op->pc)) goto fault;
    if (op->rd == 0) memset(x[0], 0, sizeof x[0]);
    loads++;
    NEXT;
h_lw:
    if (word_loads(dev, op, x[op->rs1], op->imm, g, full, x[op->rd])) {
        if (op->rd == 0) memset(x[0], 0, sizeof x[0]);
        loads++;
        NEXT;
    }
    goto h_load;
h_flw:
    if (word_loads(dev, op, x[op->rs1], op->imm, g, full, w->f[op->rd])) {
        w->fp_used = 1;
        loads++;
        NEXT;
    }
    goto h_load;
h_sw:
    if (word_stores(dev, op, x[op->rs1], op->imm, g, full, x[op->rs2])) { stores++; NEXT; }
    goto h_store;
h_fsw:
    if (word_stores(dev, op, x[op->rs1], op->imm, g, full, w->f[op->rs2])) { stores++; NEXT; }
    goto h_store;
h_csr_tid: { const uint32_t rd = op->rd; const uint16_t *tid = w->tid[op->imm - WS_CSR_TID_X];
    LANES(x[rd][l] = tid[l]); } NEXT;
h_csr_uni: { const uint32_t rd = op->rd, v = csr_uniform(dev, w, op->imm); LANES(x[rd][l] = v); } NEXT;
h_store:
    SYNC();
    if (ws_lane_stores(dev, w, &op->in, g, op->pc)) goto fault;
    stores++;
    NEXT;
h_csr:
    SYNC();
    if (ws_warp_exec_csr(dev, w, &op->in, g, op->pc)) goto fault;
    if (op->rd == 0) memset(x[0], 0, sizeof x[0]);
    NEXT;
h_float:
    SYNC();
    w->fp_used = 1;
    if (ws_warp_exec_float(dev, w, &op->in, g, op->pc)) goto fault;
    if (op->rd == 0) memset(x[0], 0, sizeof x[0]);
    NEXT;

    BR(beq, x[rs1][l] == x[rs2][l])
    BR(bne, x[rs1][l] != x[rs2][l])
    BR(blt, (int32_t)x[rs1][l] < (int32_t)x[rs2][l])
    BR(bge, (int32_t)x[rs1][l] >= (int32_t)x[rs2][l])
    BR(bltu, x[rs1][l] < x[rs2][l])
    BR(bgeu, x[rs1][l] >= x[rs2][l])

h_jal:
    if (op->rd) { const uint32_t rd = op->rd, link = op->pc + op->in.len; LANES(x[rd][l] = link); }
    k++;
    pc = op->pc + op->imm;
    if (!(nb = b->succ[0]) && !(nb = b->succ[0] = lookup(dev, c, w, pc))) goto stop;
    b = nb;
    op = b->ops;
    goto dispatch;
h_jalr: {
    const uint32_t rs1 = op->rs1, imm = op->imm, rd = op->rd, link = op->pc + op->in.len;
    const uint32_t t0 = (x[rs1][__builtin_ctz(g)] + imm) & ~1u;
    uint32_t same = 1;
    LANES({ uint32_t t = (x[rs1][l] + imm) & ~1u; w->pc[l] = t; same &= t == t0; });
    if (rd) LANES(x[rd][l] = link);
    k++;
    if (!same) { /* per-lane targets, already in w->pc[]: pick again */
        w->group_pc = op->pc;
        w->group = 0;
        goto done;
    }
    pc = t0;
    if (b->jr_blk && b->jr_pc == pc) nb = b->jr_blk;
    else if ((nb = lookup(dev, c, w, pc))) b->jr_blk = nb, b->jr_pc = pc;
    else goto stop;
    b = nb;
    op = b->ops;
    goto dispatch;
}

branch:
    k++;
    if (taken == 0) {
        pc = op->pc + op->in.len;
        if (!(nb = b->succ[1]) && !(nb = b->succ[1] = lookup(dev, c, w, pc))) goto stop;
    } else if (taken == g) {
        pc = op->pc + op->imm;
        if (!(nb = b->succ[0]) && !(nb = b->succ[0] = lookup(dev, c, w, pc))) goto stop;
    } else { /* divergence: as the interpreter, lanes keep their own PCs */
        const uint32_t bpc = op->pc, tpc = bpc + op->imm, fpc = bpc + op->in.len;
        w->diverged = 1;
        ws_ev_emit(dev, WS_EV_SCHED, WS_EV_SCHED_DIVERGE, w->core,
                   (uint32_t)(w - dev->cores[w->core].warps) | bpc << 8);
        for (uint32_t m = g; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            w->pc[l] = (taken >> l & 1) ? tpc : fpc;
        }
        w->group_pc = bpc;
        w->group = 0;
        goto done;
    }
    b = nb;
    op = b->ops;
    goto dispatch;

fault: /* the faulting instruction counts as issued-and-retired in instret
        * and the launch totals, not in *issued (as in ws_warp_run) */
    faulted = 1;
    w->group_pc = op->pc;
    k++;
    goto done;
stop:
    w->group_pc = pc;
done:
    w->instret = instret0 + k;
    st->warp_instructions += k;
    st->thread_instructions += k * count;
    st->thread_loads += loads * count;
    st->thread_stores += stores * count;
    *issued = k - (uint32_t)faulted;
    return faulted ? -1 : 0;
#undef NEXT
#undef RR
#undef RI
#undef BR
#undef SYNC
}
