/* The fast functional engine: pre-decoded blocks, threaded dispatch.
 *
 * A block is the straight-line code from one PC up to and including its
 * first control transfer (branch, jal, jalr), or up to the first
 * instruction the engine leaves to the interpreter (ecall, ebreak,
 * barriers, SIMT ops, illegal or trapped entries, fetch faults),
 * or FX_MAX_OPS instructions (one in timing mode, which runs a single
 * instruction per call: timing.c's step). Each entry holds a copy of the decoded
 * instruction and the address of its handler's label; blocks are chained
 * to their successors. Blocks are built from the interpreter's decode
 * cache (ws_warp_fetch) and all of them are dropped whenever that cache is
 * invalidated (ws_code_invalidate, a debugger's trigger marks), so a block
 * never outlives the code it was decoded from.
 *
 * The engine runs the warp's issuing group (not a starvation guard's
 * forced turn) with no debugger and no event bus. When other lanes wait
 * (other_min_pc), it takes the interpreter's decisions at block
 * granularity: a block runs only if its code stays below other_min_pc,
 * and each transfer checks its target and counts loop turns for the
 * guard (fast_exec_run.h). The group's mask cannot change inside a run:
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
#define FX_AHEAD 64u    /* bytes a strided gather prefetches ahead: the next line */
#define SEQ_AHEAD 1024u /* bytes a warp's consecutive access prefetches ahead */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define FX_WIDE 1            /* AVX2 and AVX-512 copies of the run loop */
#include <immintrin.h>
#endif

enum {
    FX_STOP, FX_END, FX_NOP, FX_LI,
    FX_ADDI, FX_SLTI, FX_SLTIU, FX_XORI, FX_ORI, FX_ANDI, FX_SLLI, FX_SRLI, FX_SRAI,
    FX_ADD, FX_SUB, FX_SLL, FX_SLT, FX_SLTU, FX_XOR, FX_SRL, FX_SRA, FX_OR, FX_AND,
    FX_MUL, FX_MULH, FX_MULHSU, FX_MULHU, FX_DIV, FX_DIVU, FX_REM, FX_REMU,
    FX_LOAD, FX_STORE, FX_CSR, FX_FLOAT, FX_LW, FX_FLW, FX_SW, FX_FSW, FX_CSR_TID, FX_CSR_UNI, FX_CSR_LANE, FX_CSR_MASK, FX_ATOMIC,
    FX_ADDI_SP, FX_ADD_SP, FX_SUB_SP, /* writes of sp, checked against the lane's stack */
    FX_BEQ, FX_BNE, FX_BLT, FX_BGE, FX_BLTU, FX_BGEU, FX_JAL, FX_JALR,
    FX_CREDIT, /* not an instruction: the next imm are inserted code (below) */
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
    uint32_t key_max;    /* the highest issue key of its entries (ws_issue_key):
                            a diverged group below it runs the block whole */
    uint32_t header;     /* ... unless an entry is a loop's header (simt.c) */
    fx_op ops[];
};

/* One cache per core (dev->fast[core]): a core's warps only touch their
 * own, so cores run on separate host threads need no locking here. */
struct ws_fast_cache {
    fx_block ***pages;   /* per 4 KiB page of the global arena: 2048 slots */
    uint32_t npages;
    fx_block *all;
};

/* The widest instruction set the host has, or a narrower one asked for
 * in WARPSCOPE_ENGINE_ISA (base, avx2, avx512: the tests run each). */
static uint32_t pick_isa(void)
{
    uint32_t best = 0;
#ifdef FX_WIDE
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2")) best = 1;
    if (best && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512cd"))
        best = 2;
#endif
    const char *env = getenv("WARPSCOPE_ENGINE_ISA");
    uint32_t want = !env ? 2 : !strcmp(env, "base") ? 0 : !strcmp(env, "avx2") ? 1 : 2;
    return want < best ? want : best;
}

int ws_fast_create(ws_device *dev)
{
    dev->fast_isa = pick_isa();
    dev->fast = calloc(dev->cfg.cores, sizeof *dev->fast);
    return dev->fast ? 0 : -1;
}

/* Every block, and the slot pages that held them: found from the blocks
 * (a block sits in the page of its first PC, and every slot page holds a
 * block: lookup), not by reading the whole page table — 64 Ki entries per
 * core for 256 MiB, mostly untouched memory that each flush (every module
 * load and unload) would fault in. */
void ws_fast_flush(ws_device *dev)
{
    for (uint32_t k = 0; dev->fast && k < dev->cfg.cores; k++) {
        struct ws_fast_cache *c = &dev->fast[k];
        for (fx_block *b = c->all, *next; b; b = next) {
            next = b->link;
            const uint32_t idx = (b->ops[0].pc - WS_GLOBAL_BASE) >> 12;
            if (c->pages && idx < c->npages && c->pages[idx]) {
                free(c->pages[idx]);
                c->pages[idx] = NULL;
            }
            free(b);
        }
        c->all = NULL;
    }
}

size_t ws_fast_blocks(const ws_device *dev)
{
    size_t n = 0;
    for (uint32_t k = 0; dev->fast && k < dev->cfg.cores; k++)
        for (const fx_block *b = dev->fast[k].all; b; b = b->link) n++;
    return n;
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
static uint16_t classify_op(const ws_inst *in)
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
            case WS_CSR_NCTAID_Z: case WS_CSR_LANES_PER_WARP: case WS_CSR_WARP_ID: case WS_CSR_CORE_ID:
            case WS_CSR_WARP_IN_BLOCK: return FX_CSR_UNI;
            case WS_CSR_LANE_ID: return FX_CSR_LANE;   /* the tracer's helpers read these two */
            case WS_CSR_ACTIVE_MASK: return FX_CSR_MASK;
            default: break;
            }
        }
        return FX_CSR;
    case OP_CSRRW: case OP_CSRRWI: return FX_CSR;
    case OP_LR_W: case OP_SC_W: case OP_AMOSWAP_W: case OP_AMOADD_W: case OP_AMOXOR_W: case OP_AMOAND_W:
    case OP_AMOOR_W: case OP_AMOMIN_W: case OP_AMOMAX_W: case OP_AMOMINU_W: case OP_AMOMAXU_W: case OP_AMOCAS_W:
    case OP_AMOCAS_D: case OP_AMOFADD_S: case OP_AMOFADD_D: case OP_AMOSWAP_D: case OP_AMOADD_D: case OP_AMOXOR_D:
    case OP_AMOAND_D: case OP_AMOOR_D: case OP_AMOMIN_D: case OP_AMOMAX_D: case OP_AMOMINU_D: case OP_AMOMAXU_D:
        return FX_ATOMIC;
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
        return FX_STOP; /* ecall, ebreak, SIMT ops, illegal */
    }
}

/* An instruction whose rd is x2 (sp): the frame adjustments (addi, add,
 * sub) get handlers that check the new sp against the lane's stack
 * (lane_io.h: ws_sp_below_stack), except `addi sp, sp, N` with N >= 0,
 * which raises sp (ws_sp_check_needed); any other write of sp is left to
 * the interpreter, which checks it too. Stores and branches have no rd,
 * and float instructions other than those below write f2, not sp. */
static uint16_t classify(const ws_inst *in)
{
    const uint16_t h = classify_op(in);
    if (in->rd != 2) return h;
    switch (h) {
    case FX_ADDI: return in->rs1 == 2 && in->imm >= 0 ? FX_ADDI : FX_ADDI_SP; /* (a frame's release: sp rises) */
    case FX_ADD: return FX_ADD_SP;
    case FX_SUB: return FX_SUB_SP;
    case FX_STOP: case FX_NOP: case FX_STORE: case FX_SW: case FX_FSW: case FX_FLW:
    case FX_BEQ: case FX_BNE: case FX_BLT: case FX_BGE: case FX_BLTU: case FX_BGEU:
        return h;
    case FX_FLOAT:
        switch ((ws_op)in->op) {
        case OP_FCVT_W_S: case OP_FCVT_WU_S: case OP_FMV_X_W: case OP_FCLASS_S: case OP_FEQ_S: case OP_FLT_S:
        case OP_FLE_S:
            return FX_STOP;
        default:
            return h;
        }
    default:
        return FX_STOP;
    }
}

static int is_control(uint16_t h) { return h >= FX_BEQ && h <= FX_JALR; }

/* Decode the block at pc (NULL: out of host memory). In an instrumented
 * module (ws_code_inserted), each run of inserted instructions is led by
 * an FX_CREDIT entry whose imm counts them: the run loop then extends the
 * quantum by that many, so inserted code is left out of it, as in the
 * interpreter (warp_exec.c). Other code has no such entries. */
static fx_block *build(ws_device *dev, ws_warp *w, uint32_t pc)
{
    fx_op ops[2 * FX_MAX_OPS + 1];
    uint32_t n = 0, ni = 0, p = pc;
    /* Timing mode runs one instruction per call, from every PC: a block
     * per PC of all the code after it would cost quadratic memory. */
    const uint32_t max = dev->cfg.mode == WS_MODE_TIMING ? 1 : FX_MAX_OPS;
    const int marked = dev->nmarked && dev->cfg.mode == WS_MODE_FUNCTIONAL;
    fx_op *credit = NULL; /* the entry leading the current run of inserted code */
    for (;;) {
        const ws_inst *in = ni < max && ws_mem_in_global(&dev->mem, p) ? ws_warp_fetch(dev, w, p) : NULL;
        uint16_t h = in && in->len ? classify(in) : FX_STOP;
        if (h != FX_STOP && marked && ws_code_inserted(dev, p)) {
            if (!credit) {
                credit = &ops[n++];
                memset(credit, 0, sizeof *credit);
                credit->h = FX_CREDIT;
                credit->pc = p;
            }
            credit->imm++;
        } else {
            credit = NULL;
        }
        fx_op *o = &ops[n++];
        ni++;
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
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t k = ws_issue_key(dev, ops[i].pc);
        b->key_max = k > b->key_max ? k : b->key_max;
        b->header |= ws_issue_loop_end(dev, ops[i].pc) != 0;
    }
    return b;
}

/* The block at pc, built on first use; NULL if pc is not in the global
 * arena or host memory ran out (the interpreter then takes over). */
static __attribute__((noinline)) fx_block *lookup_build(ws_device *dev, struct ws_fast_cache *c, ws_warp *w,
                                                        uint32_t pc)
{
    if (pc == WS_RETIRE_ADDR || !ws_mem_in_global(&dev->mem, pc)) return NULL;
    uint32_t idx = (pc - WS_GLOBAL_BASE) >> 12;
    if (idx >= c->npages) return NULL;
    const int fresh = !c->pages[idx];
    if (fresh && !(c->pages[idx] = calloc(2048, sizeof(fx_block *)))) return NULL;
    fx_block **slot = &c->pages[idx][(pc & 0xFFFu) >> 1];
    if (!*slot) {
        fx_block *b = build(dev, w, pc);
        if (!b) { /* no empty slot page stays: the flush finds pages from blocks */
            if (fresh) free(c->pages[idx]), c->pages[idx] = NULL;
            return NULL;
        }
        b->link = c->all;
        c->all = b;
        *slot = b;
    }
    return *slot;
}

/* A block built before is found inline (timing mode enters the engine
 * once per instruction); the first use builds it. The page table covers
 * the global arena and nothing else, so a block found is one
 * lookup_build would return. */
static inline fx_block *lookup(ws_device *dev, struct ws_fast_cache *c, ws_warp *w, uint32_t pc)
{
    const uint32_t idx = (pc - WS_GLOBAL_BASE) >> 12;
    fx_block **page, *b;
    if (idx < c->npages && (page = c->pages[idx]) && (b = page[(pc & 0xFFFu) >> 1])) return b;
    return lookup_build(dev, c, w, pc);
}

/* A full warp's register row as one vector value (the compiler splits it
 * into the host's widest vectors). */
typedef uint32_t fx_row __attribute__((vector_size(128)));
typedef int32_t fx_srow __attribute__((vector_size(128)));

/* Lanes of the group: every lane of a full 32-lane warp in a counted loop
 * the compiler vectorises, else the set bits of g in ascending order. */
#define LANES(...) do {                                                          \
        if (full) { for (int l = 0; l < 32; l++) { __VA_ARGS__; } }              \
        else { for (uint32_t m_ = g; m_; m_ &= m_ - 1) { int l = __builtin_ctz(m_); __VA_ARGS__; } } \
    } while (0)

/* The value of a uniform identity CSR (csr_read in warp_exec.c). */
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
    case WS_CSR_WARP_ID: return w->slot;
    case WS_CSR_CORE_ID: return w->core;
    case WS_CSR_WARP_IN_BLOCK: return w->warp_in_block;
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

#ifdef FX_WIDE
/* A full warp's gather in the host's gather instructions: the 32 words
 * at host + base[l] + d, every offset checked within the allocation by
 * the caller and below 2^31 (the instructions take signed offsets). The
 * same words as the lane loop, with the loads in flight together. */
static __attribute__((target("avx2"))) void gather_avx2(const uint8_t *host, const uint32_t *base, uint32_t d,
                                                         uint32_t *dst)
{
    __m256i v[4];
    const __m256i dv = _mm256_set1_epi32((int)d);
    for (int i = 0; i < 4; i++) {
        __m256i off = _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(base + 8 * i)), dv);
        v[i] = _mm256_i32gather_epi32((const int *)host, off, 1);
    }
    for (int i = 0; i < 4; i++) _mm256_storeu_si256((__m256i *)(dst + 8 * i), v[i]); /* dst may be base */
}

static __attribute__((target("avx512f"))) void gather_avx512(const uint8_t *host, const uint32_t *base, uint32_t d,
                                                              uint32_t *dst)
{
    const __m512i dv = _mm512_set1_epi32((int)d);
    __m512i lo = _mm512_add_epi32(_mm512_loadu_si512(base), dv), hi = _mm512_add_epi32(_mm512_loadu_si512(base + 16), dv);
    lo = _mm512_i32gather_epi32(lo, host, 1);
    hi = _mm512_i32gather_epi32(hi, host, 1);
    _mm512_storeu_si512(dst, lo);
    _mm512_storeu_si512(dst + 16, hi);
}
#endif

/* A warp's 32 consecutive words at p: ask for the next warps' two lines,
 * SEQ_AHEAD on (a stream the host's prefetchers pick up late: four
 * simulated cores interleave theirs). rw: 1 to write them. A hint only. */
#define PREFETCH_NEXT_WARPS(p, rw) do {                                          \
        const uintptr_t next_ = (uintptr_t)(p) + SEQ_AHEAD; /* (may lie past the allocation) */ \
        __builtin_prefetch((const void *)next_, (rw));                           \
        __builtin_prefetch((const void *)(next_ + 64), (rw));                    \
    } while (0)

/* Word accesses of the group that all fall, aligned, in that allocation:
 * exactly what ws_lane_loads/ws_lane_stores do for them (their uniform
 * path picks the same allocation; the shared window lies elsewhere). 0:
 * some lane is elsewhere, nothing was done, the caller takes the exact
 * path. */
static inline int word_loads(const ws_device *dev, fx_op *op, const uint32_t *base, uint32_t imm, uint32_t g,
                             int full, uint32_t *dst, int isa)
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
        PREFETCH_NEXT_WARPS(host + (base[0] + imm - lo), 0);
        memcpy(dst, host + (base[0] + imm - lo), 32 * 4);
        return 1;
    }
    /* A strided gather (each lane walks its own array, as in the
     * reduction) outruns the host's prefetchers, which track far fewer
     * streams than 32 lanes per warp: when the first lane enters a new
     * cache line, ask for every lane's next line. Farther (256 bytes)
     * was 7 % slower on the reduction: 32 lanes' misses fill the host's
     * line-fill buffers and the prefetches stall. A hint only
     * (prefetches never fault), so results do not depend on it. */
    if (((base[__builtin_ctz(g)] + imm) & 63u) < 4u)
        LANES(__builtin_prefetch((const void *)((uintptr_t)host + (base[l] + imm - lo) + FX_AHEAD)));
#ifdef FX_WIDE
    if (full && isa && span <= INT32_MAX) { /* isa: FX_ISA of the run loop inlining this */
        if (isa == 2) gather_avx512(host, base, imm - lo, dst);
        else gather_avx2(host, base, imm - lo, dst);
        return 1;
    }
#else
    (void)isa;
#endif
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
        PREFETCH_NEXT_WARPS(host + (base[0] + imm - lo), 1);
        memcpy(host + (base[0] + imm - lo), src, 32 * 4);
        return 1;
    }
    LANES(memcpy(host + (base[l] + imm - lo), &src[l], 4)); /* lane order */
    return 1;
}

/* Word accesses of the group to its own lane stacks at one offset
 * (spills, locals, the tracer helpers' saves): what ws_lane_loads and
 * ws_lane_stores do for them (their stack path), found without a region
 * lookup. 0: the exact path decides. */
static inline int stack_loads(const ws_device *dev, const ws_warp *w, const uint32_t *base, uint32_t imm, uint32_t g,
                              int full, uint32_t *dst)
{
    const uint8_t *row = ws_lane_stack_row(dev, w, base, imm, g, 4);
    if (!row) return 0;
    if (full) memcpy(dst, row, 32 * 4); /* every address is known: dst may be base */
    else LANES(memcpy(&dst[l], row + 4 * l, 4));
    return 1;
}

static inline int stack_stores(const ws_device *dev, const ws_warp *w, const uint32_t *base, uint32_t imm, uint32_t g,
                               int full, const uint32_t *src)
{
    uint8_t *row = ws_lane_stack_row(dev, w, base, imm, g, 4);
    if (!row) return 0;
    if (full) memcpy(row, src, 32 * 4);
    else LANES(memcpy(row + 4 * l, &src[l], 4));
    return 1;
}

/* The lane loops are 32 lanes wide: with AVX2 or AVX-512 (picked at run
 * time from the CPU) they take 4 or 2 vector operations instead of SSE2's
 * 8. Integer work and exact copies only, so the results are the same. */
#define FX_RUN fast_run_base
#define FX_TARGET
#define FX_ISA 0
#include "device/fast_exec_run.h"
#undef FX_RUN
#undef FX_TARGET
#undef FX_ISA
#ifdef FX_WIDE
#define FX_RUN fast_run_avx2
#define FX_TARGET __attribute__((target("avx,avx2,bmi,bmi2,popcnt,lzcnt")))
#define FX_ISA 1
#include "device/fast_exec_run.h"
#undef FX_RUN
#undef FX_TARGET
#undef FX_ISA
#define FX_RUN fast_run_avx512
#define FX_TARGET __attribute__((target("avx,avx2,bmi,bmi2,popcnt,lzcnt,avx512f,avx512bw,avx512vl,avx512dq,avx512cd")))
#define FX_ISA 2
#include "device/fast_exec_run.h"
#undef FX_RUN
#undef FX_TARGET
#undef FX_ISA
#endif

int ws_fast_run(ws_device *dev, ws_warp *w, ws_launch_stats *st, uint32_t budget, uint32_t *issued,
                uint32_t *inserted)
{
#ifdef FX_WIDE
    if (dev->fast_isa == 2) return fast_run_avx512(dev, w, st, budget, issued, inserted);
    if (dev->fast_isa == 1) return fast_run_avx2(dev, w, st, budget, issued, inserted);
#endif
    return fast_run_base(dev, w, st, budget, issued, inserted);
}
