/* Launches: shape checks, argument checks against the kernel's parameter
 * types (from DWARF), and placement of arguments per the ilp32f calling
 * convention. */
#include <stdlib.h>
#include <string.h>
#include "device/timing.h"
#include "runtime/api_lock.h"
#include "runtime/launch_args.h"
#include "runtime/runtime.h"
#include "runtime/source_lines.h"

static const char *arg_type_name(ws_arg_type t)
{
    static const char *const n[] = { "i32", "u32", "i64", "u64", "f32", "f64", "ptr", "struct" };
    return (unsigned)t < 8 ? n[t] : "unknown";
}

/* The integer value of an integer argument. */
static ws_int_value int_value(const ws_arg *a)
{
    ws_int_value v = { 0 };
    if (a->type == WS_TYPE_I32 || a->type == WS_TYPE_I64) {
        v.sv = a->type == WS_TYPE_I32 ? a->v.i32 : a->v.i64;
        v.negative = v.sv < 0;
        v.uv = (uint64_t)v.sv;
    } else {
        v.uv = a->type == WS_TYPE_U32 ? a->v.u32 : a->v.u64;
    }
    return v;
}

/* Is argument `a` acceptable for parameter p? Width, integer/float and
 * pointer-ness must match. A 32- or 64-bit argument's signedness may
 * differ from the parameter's (the bits are passed); narrower integer
 * parameters, bools and _BitInt(N) take i32/u32 (or 64-bit) values that
 * fit what they hold (launch_args.c says what that is). */
static int arg_fits(const ws_elf_param *p, const ws_arg *a, char *why, size_t len)
{
    const ws_param_kind k = p->kind;
    const int is32 = a->type == WS_TYPE_I32 || a->type == WS_TYPE_U32;
    const int is64 = a->type == WS_TYPE_I64 || a->type == WS_TYPE_U64;
    int type_ok = 0, check_range = 0;
    switch (k) {
    case WS_PARAM_I8: case WS_PARAM_U8: case WS_PARAM_I16: case WS_PARAM_U16:
        type_ok = check_range = is32;
        break;
    case WS_PARAM_I32: case WS_PARAM_U32: type_ok = is32; check_range = p->bits != 0; break;
    case WS_PARAM_I64: case WS_PARAM_U64: type_ok = is64; check_range = p->bits && p->bits < 64; break;
    case WS_PARAM_F32: type_ok = a->type == WS_TYPE_F32; break;
    case WS_PARAM_F64: type_ok = a->type == WS_TYPE_F64; break;
    case WS_PARAM_PTR: type_ok = a->type == WS_TYPE_PTR; break;
    case WS_PARAM_AGG:
        if (a->type != WS_TYPE_STRUCT) break;
        if (a->v.bytes.size != p->agg.size || (!a->v.bytes.data && p->agg.size)) {
            snprintf(why, len, "got %s%u bytes; the struct is %u", a->v.bytes.data ? "" : "NULL for ",
                     a->v.bytes.size, p->agg.size);
            return 0;
        }
        return 1;
    }
    if (!type_ok) {
        snprintf(why, len, "got an argument of type %s", arg_type_name(a->type));
        return 0;
    }
    return !check_range || ws_param_int_fits(p, int_value(a), why, len);
}

static int push_stack(ws_grid_run *L, uint32_t word)
{
    if (L->nstack >= WS_STACK_ARG_WORDS) return -1;
    L->stack_args[L->nstack++] = word;
    return 0;
}

/* One word in the next a register, else on the stack; sp_rel: the word is
 * an offset from the lane's sp (fixed up when the copies' place is known). */
static int put_word(ws_grid_run *L, uint32_t w0, int sp_rel)
{
    if (L->ni < 8) {
        L->ireg_sp_rel |= (uint8_t)(sp_rel << L->ni);
        L->ireg[L->ni++] = w0;
        return 0;
    }
    if (push_stack(L, w0)) return -1;
    const uint32_t at = L->nstack - 1;
    if (sp_rel) L->stack_sp_rel[at / 64] |= 1ull << (at % 64);
    return 0;
}

/* A 64-bit value: a register pair, split between a7 and the stack if only
 * a7 is left, else on the stack 8-byte aligned. */
static int put_pair(ws_grid_run *L, uint32_t w0, uint32_t w1)
{
    if (L->ni <= 6) { L->ireg[L->ni++] = w0; L->ireg[L->ni++] = w1; return 0; }
    if (L->ni == 7) { L->ireg[L->ni++] = w0; return push_stack(L, w1); }
    if ((L->nstack & 1) && push_stack(L, 0)) return -1;
    return push_stack(L, w0) || push_stack(L, w1) ? -1 : 0;
}

/* Struct copies for arguments passed by reference, placed after the stack
 * arguments once those are all known. */
typedef struct copies { uint8_t bytes[WS_STACK_ARG_WORDS * 4]; uint32_t n; } copies;

/* A struct or union by value (p->agg, elf_dwarf_agg.c): as its fields in
 * fa and a registers when the ilp32f convention says so and enough are
 * left; else up to 8 bytes as one or two words (an 8-byte-aligned one as
 * a 64-bit value), larger ones as the address of a copy on each lane's
 * stack (*cpp: the copies, made with the first). -1: the argument area is
 * full; -2: out of host memory. */
static int put_struct(ws_grid_run *L, const ws_elf_agg *g, const uint8_t *b, copies **cpp)
{
    if (!g->size) return 0; /* an empty struct takes no place */
    if (g->fp) {
        uint32_t nf = 0, ni = 0;
        for (uint32_t i = 0; i < g->nfields; i++) g->field[i].is_float ? nf++ : ni++;
        if (L->nf + nf <= 8 && L->ni + ni <= 8) {
            for (uint32_t i = 0; i < g->nfields; i++) {
                uint32_t w = 0;
                memcpy(&w, b + g->field[i].offset, g->field[i].size);
                if (g->field[i].is_float) L->freg[L->nf++] = w;
                else L->ireg[L->ni++] = w;
            }
            return 0;
        }
    }
    if (!ws_elf_agg_by_reference(g)) {
        uint32_t w[2] = { 0, 0 };
        memcpy(w, b, g->size);
        if (g->size <= 4) return put_word(L, w[0], 0);
        if (g->align == 8) return put_pair(L, w[0], w[1]);
        return put_word(L, w[0], 0) || put_word(L, w[1], 0) ? -1 : 0;
    }
    if (!*cpp && !(*cpp = calloc(1, sizeof **cpp))) return -2; /* (the first copy: most launches have none) */
    copies *cp = *cpp;
    const uint32_t at = (cp->n + 15u) & ~15u;
    if (at + g->size > sizeof cp->bytes) return -1;
    memset(cp->bytes + cp->n, 0, at - cp->n);
    memcpy(cp->bytes + at, b, g->size);
    cp->n = at + g->size;
    return put_word(L, at, 1);
}

/* Place arguments: integers/pointers in a0-a7, floats in fa0-fa7 then
 * a-registers, 64-bit values in a register pair (split with the stack if
 * only a7 is left), the rest on the stack in order (8-byte aligned for
 * 64-bit values); structs by put_struct, their copies after the stack
 * arguments, 16-byte aligned. Returns -1 if they overflow the argument
 * area, -2 out of host memory. */
static int marshal(ws_grid_run *L, const ws_elf_param *params, const ws_arg *args, size_t n)
{
    copies *cp = NULL;
    int bad = 0;
    for (size_t i = 0; i < n && !bad; i++) {
        const ws_arg *a = &args[i];
        uint32_t w0;
        switch (a->type) {
        case WS_TYPE_F32:
            memcpy(&w0, &a->v.f32, 4);
            if (L->nf < 8) { L->freg[L->nf++] = w0; continue; }
            bad = put_word(L, w0, 0);
            continue;
        case WS_TYPE_I32: case WS_TYPE_U32: case WS_TYPE_PTR:
            bad = put_word(L, a->type == WS_TYPE_PTR ? a->v.ptr : a->v.u32, 0);
            continue;
        case WS_TYPE_STRUCT:
            bad = put_struct(L, &params[i].agg, a->v.bytes.data, &cp);
            continue;
        default: {
            uint64_t v;
            memcpy(&v, &a->v, 8);
            bad = put_pair(L, (uint32_t)v, (uint32_t)(v >> 32));
        }
        }
    }
    if (!bad && cp && cp->n) { /* the copies, after the arguments: offsets from sp fixed up */
        while (!bad && L->nstack % 4) bad = push_stack(L, 0);
        const uint32_t base = L->nstack * 4;
        for (uint32_t o = 0; o < cp->n && !bad; o += 4) {
            uint32_t w = 0;
            memcpy(&w, cp->bytes + o, cp->n - o < 4 ? cp->n - o : 4);
            bad = push_stack(L, w);
        }
        for (uint32_t r = 0; r < L->ni; r++)
            if (L->ireg_sp_rel >> r & 1) L->ireg[r] += base;
        for (uint32_t j = 0; j < base / 4; j++)
            if (L->stack_sp_rel[j / 64] >> (j % 64) & 1) L->stack_args[j] += base;
    }
    free(cp);
    return bad == -2 ? -2 : bad ? -1 : 0;
}

/* Why a kernel's static part is the module's whole .ws_shared, for a
 * launch refused for its shared memory: "; the static part is every
 * WS_SHARED object of the module: the kernel makes an indirect call or
 * jump (at k.c:12 in f), through which it may reach any of them", or ""
 * when the kernel's own objects are all it reserves. */
static void shared_all_reason(const ws_device *dev, const ws_kernel *k, char *buf, size_t len)
{
    buf[0] = 0;
    if (!k->meta->shared_all_pc) return;
    char where[512] = "";
    uint32_t pc = k->mod->base + (k->meta->shared_all_pc - k->mod->link_base);
    ws_source_describe_pc(dev, pc, NULL, 0, where, sizeof where);
    if (!where[0]) snprintf(where, sizeof where, " at 0x%08x", pc);
    snprintf(buf, len, "; the static part is every WS_SHARED object of the module: the kernel makes an indirect "
             "call or jump (%s), through which it may reach any of them", where + 1);
}

static ws_status check_shape(ws_device *dev, const ws_kernel *k, ws_dim3 grid, ws_dim3 block,
                             uint32_t dyn, uint32_t *shared_total)
{
    const char *kn = k->meta->name;
    const ws_config *c = &dev->cfg;
    if (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z)
        return ws_set_error(dev, WS_ERR_BAD_LAUNCH, "launch of '%s': grid (%u,%u,%u) and block (%u,%u,%u) "
                            "must have no zero dimension", kn, grid.x, grid.y, grid.z, block.x, block.y, block.z);
    /* x*y fits in 64 bits; x*y*z of three 32-bit values may not, and a
     * wrapped count (2^64 + 64) would pass as 64 threads. */
    uint64_t xy = (uint64_t)block.x * block.y;
    if (xy > UINT64_MAX / block.z)
        return ws_set_error(dev, WS_ERR_BAD_LAUNCH, "launch of '%s': block (%u,%u,%u) has more than 2^64 "
                            "threads; the device allows at most %u per block", kn, block.x, block.y, block.z,
                            c->max_threads_per_block);
    uint64_t threads = xy * block.z;
    if (threads > c->max_threads_per_block)
        return ws_set_error(dev, WS_ERR_BAD_LAUNCH, "launch of '%s': block (%u,%u,%u) has %llu threads; "
                            "the device allows at most %u per block", kn, block.x, block.y, block.z,
                            (unsigned long long)threads, c->max_threads_per_block);
    /* these limits keep the block count below 2^63, so it cannot wrap */
    if (grid.y > 65535 || grid.z > 65535 || grid.x > 0x7fffffffu)
        return ws_set_error(dev, WS_ERR_BAD_LAUNCH, "launch of '%s': grid (%u,%u,%u) exceeds the limits "
                            "(2^31-1, 65535, 65535)", kn, grid.x, grid.y, grid.z);
    uint32_t stat = k->meta->shared_hi - k->meta->shared_lo; /* what this kernel uses */
    uint64_t total = (((uint64_t)stat + 15u) & ~15ull) + dyn;
    if (total > c->max_shared_per_block) {
        char why[768];
        shared_all_reason(dev, k, why, sizeof why);
        return ws_set_error(dev, WS_ERR_BAD_LAUNCH, "launch of '%s': %llu bytes of shared memory "
                            "(%u static + %u dynamic) exceed the %u-byte limit per block%s", kn,
                            (unsigned long long)total, stat, dyn, c->max_shared_per_block, why);
    }
    *shared_total = (uint32_t)total;
    return WS_OK;
}

static ws_status check_args(ws_device *dev, const ws_kernel *k, const ws_arg *args, size_t nargs)
{
    const ws_elf_kernel *m = k->meta;
    const ws_status counted = ws_args_counted(dev, k, nargs); /* (launch_args.h: `warpscope run` says the same) */
    if (counted != WS_OK) return counted;
    for (uint32_t i = 0; i < m->nparams; i++) {
        char why[192];
        const ws_elf_param *p = &m->params[i];
        if (args[i].type > WS_TYPE_STRUCT)
            return ws_set_error(dev, WS_ERR_BAD_LAUNCH, "launch of '%s': argument %u has an invalid type tag %d",
                                m->name, i, (int)args[i].type);
        if (!arg_fits(p, &args[i], why, sizeof why)) return ws_arg_refused(dev, k, i, why);
    }
    return WS_OK;
}

ws_status ws_launch(ws_device *dev, ws_kernel *k, ws_dim3 grid, ws_dim3 block,
                    uint32_t dynamic_shared, const ws_arg *args, size_t nargs)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_launch");
    ws_status st = ws_kernel_check(dev, k, "ws_launch");
    if (st != WS_OK) return st;
    if (k->meta->kind != WS_FUNC_KERNEL)
        return ws_set_error(dev, WS_ERR_BAD_LAUNCH, "launch of '%s': it is a %s shader, not a kernel; "
                            "use it in a graphics pipeline (ws_gfx_pipeline_create)", k->meta->name,
                            k->meta->kind == WS_FUNC_VERTEX ? "vertex" : "fragment");
    if (!args && nargs)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "launch of '%s': args is NULL but nargs is %zu",
                            k->meta->name, nargs);
    uint32_t shared_total = 0;
    st = check_shape(dev, k, grid, block, dynamic_shared, &shared_total);
    if (st == WS_OK) st = check_args(dev, k, args, nargs);
    if (st != WS_OK) return st;
    if (((uint64_t)k->mod->img.tls_size + 15u) > dev->mem.stack_size / 2)
        return ws_set_error(dev, WS_ERR_BAD_LAUNCH, "launch of '%s': the module's %u bytes of thread-local "
                            "storage do not fit half of a lane's %u-byte stack (stack_per_lane)",
                            k->meta->name, k->mod->img.tls_size, dev->mem.stack_size);
    ws_grid_run *L = calloc(1, sizeof *L);
    if (!L) return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "launch: out of host memory");
    L->id = dev->next_launch_id++;
    L->kernel = k;
    L->kernel_name = k->meta->name;
    L->entry = k->entry;
    L->body = k->meta->body - k->meta->entry + k->entry;
    if (k->mod->img.tls_size) {
        L->tls_size = (k->mod->img.tls_size + 15u) & ~15u;
        L->tls_image = k->mod->img.tls_start - k->mod->img.link_base + k->mod->base;
        L->tls_filesz = k->mod->img.tls_filesz;
    }
    L->grid = grid;
    L->block = block;
    L->dyn_shared = dynamic_shared;
    L->shared_total = shared_total;
    L->shared_lo = k->meta->shared_lo;
    L->dyn_shared_addr = WS_SHARED_BASE + k->meta->shared_lo +
                         (((k->meta->shared_hi - k->meta->shared_lo) + 15u) & ~15u);
    L->threads_per_block = block.x * block.y * block.z;
    L->warps_per_block = (L->threads_per_block + dev->cfg.lanes_per_warp - 1) / dev->cfg.lanes_per_warp;
    L->total_blocks = (uint64_t)grid.x * grid.y * grid.z;
    const int overflow = marshal(L, k->meta->params, args, nargs);
    const uint32_t bytes = L->nstack * 4u; /* (the thread-local block has its own half: above) */
    if (overflow || bytes > dev->mem.stack_size / 2) {
        free(L);
        if (overflow == -2)
            return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "launch of '%s': out of host memory", k->meta->name);
        if (overflow)
            return ws_set_error(dev, WS_ERR_BAD_LAUNCH, "launch of '%s': the arguments take more than %u bytes of "
                                "each lane's stack (struct copies included), the launch's argument area",
                                k->meta->name, WS_STACK_ARG_WORDS * 4);
        return ws_set_error(dev, WS_ERR_BAD_LAUNCH, "launch of '%s': the arguments take %u bytes of each lane's "
                            "stack (struct copies included); at most %u fit (half of stack_per_lane=%u)",
                            k->meta->name, bytes, dev->mem.stack_size / 2, dev->mem.stack_size);
    }
    ws_cmd c = { .kind = CMD_LAUNCH, .launch = L };
    st = ws_cmd_push(dev, &c);
    if (st != WS_OK) free(L);
    return st;
}

ws_status ws_next_launch_id(ws_device *dev, uint64_t *out)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_next_launch_id");
    if (!out) return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_next_launch_id: out is NULL");
    *out = dev->next_launch_id;
    return WS_OK;
}

ws_status ws_last_launch_counters(const ws_device *dev, ws_timing_counters *out)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    /* as ws_last_launch_stats: the launch that ends on another thread
     * writes the counters under the lock */
    WS_API_READ_LOCKED((ws_device *)dev, "ws_last_launch_counters");
    if (!out) return ws_set_error((ws_device *)dev, WS_ERR_INVALID_ARG, "ws_last_launch_counters: out is NULL");
    if (ws_timing_last_counters(dev, out))
        return ws_set_error((ws_device *)dev, WS_ERR_NOT_FOUND,
                            "no timing-mode launch has completed on this device (open it with mode=timing)");
    return WS_OK;
}

ws_status ws_last_launch_stats(const ws_device *dev, ws_launch_stats *out)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    /* the draining call (on another thread) writes the statistics under
     * the lock: without it a reader could mix two launches' numbers */
    WS_API_READ_LOCKED((ws_device *)dev, "ws_last_launch_stats");
    if (!out) return ws_set_error((ws_device *)dev, WS_ERR_INVALID_ARG, "ws_last_launch_stats: out is NULL");
    if (!dev->have_stats)
        return ws_set_error((ws_device *)dev, WS_ERR_NOT_FOUND, "ws_last_launch_stats: no launch has finished yet");
    *out = dev->last_stats;
    return WS_OK;
}
