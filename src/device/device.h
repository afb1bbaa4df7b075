/* Internal model of the simulated GPU: cores with warp slots, resident
 * blocks, the current launch, the command queue. The runtime (src/runtime)
 * owns a ws_device and drives it through the functions declared here. */
#ifndef WS_DEVICE_DEVICE_H
#define WS_DEVICE_DEVICE_H
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include "warpscope/warpscope.h"
#include "isa/isa.h"
#include "device/memory.h"

#define WS_MAX_LANES 32
#define WS_MAX_BARRIERS 16
#define WS_ERRLEN 1024

struct ws_module;
struct ws_kernel;

/* Why a lane stopped abnormally. */
typedef enum ws_fault_kind {
    FAULT_NONE = 0,
    FAULT_ILLEGAL_INSTRUCTION,
    FAULT_FETCH,             /* instruction access fault               */
    FAULT_LOAD,              /* load access fault                      */
    FAULT_STORE,             /* store/AMO access fault                 */
    FAULT_LOAD_MISALIGNED,
    FAULT_STORE_MISALIGNED,
    FAULT_BREAKPOINT,        /* ebreak with no debugger attached       */
    FAULT_ECALL,             /* unknown environment call               */
    FAULT_ASSERT,            /* device assert() failed                 */
    FAULT_TRAP,              /* abort() / __builtin_trap()             */
    FAULT_DEADLOCK,          /* no lane of the launch can progress     */
    FAULT_WATCHDOG,          /* the launch ran past watchdog_ms        */
    FAULT_MACHINE,           /* a debug machine's stop action          */
    FAULT_INTERRUPTED        /* ws_device_interrupt                    */
} ws_fault_kind;

typedef struct ws_fault {
    ws_fault_kind kind;
    uint32_t pc, addr, size;   /* addr/size for memory faults          */
    uint32_t core, warp, lane;
    ws_dim3 block, thread;
    char detail[512];          /* what exactly went wrong               */
} ws_fault;

typedef struct ws_block ws_block;

/* One warp slot of a core. Registers are stored structure-of-arrays so one
 * instruction runs over all lanes in a tight loop. */
typedef struct ws_warp {
    uint32_t x[32][WS_MAX_LANES];
    uint32_t f[32][WS_MAX_LANES];
    /* LR/SC reservations: read only for lanes whose resv_valid bit is set,
     * so a warp start leaves them as they are. */
    uint32_t resv_addr[WS_MAX_LANES], resv_val[WS_MAX_LANES];
    uint32_t start_x, start_f;     /* rows the slot's last warp start set   */
    /* Everything from pc on is reset when a warp starts (dispatch.c). */
    uint32_t pc[WS_MAX_LANES];     /* authoritative for lanes outside `group` */
    uint16_t tid[3][WS_MAX_LANES]; /* thread coordinates in the block        */
    /* (a start writes pc and tid whole and clears the rest, from depth on) */
    int16_t depth[WS_MAX_LANES];   /* calls not yet returned (jal/jalr linking
                                      ra, minus returns through ra): the
                                      deepest lanes issue first (simt.c)    */
    uint8_t frm[WS_MAX_LANES], fflags[WS_MAX_LANES];
    uint8_t bar_id[WS_MAX_LANES];  /* barrier a waiting lane waits at       */
    uint32_t live;                 /* lanes that have not retired           */
    uint32_t waiting;              /* lanes waiting at a block barrier      */
    uint32_t step_exclude;         /* debug: lanes that sit out the next step
                                      (set by the debug hardware, cleared
                                      after the step; src/device/debug)    */
    uint32_t resv_valid;           /* lanes holding an LR reservation       */
    /* The group of lanes currently issuing: they share group_pc and
     * group_depth. 0 = pick again. other_min_pc is the lowest issue key
     * (ws_issue_key: the PC, unless the module's blocks are out of order)
     * of the other runnable lanes at the group's call depth (UINT32_MAX if
     * none; 0 if lanes deeper than the group wait), has_others whether any
     * other lane is runnable; both valid while group != 0. */
    uint32_t group, group_pc, other_min_pc;
    /* ... and other_floor: the key of a loop's header where lanes wait for
     * the group, which is inside that loop (0: none); the group yields on
     * reaching a key at or below it too (simt.c, held headers) */
    uint32_t other_floor, loop_cap; /* loop_cap: that loop's end key, which
                                       other_min_pc does not pass */
    int16_t group_depth;
    uint8_t has_others;
    uint8_t depth_split;           /* a group called or returned without the
                                      other live lanes: depths may differ */
    uint32_t starve;               /* loop turns taken while others wait    */
#define WS_STARVE_LIMIT 256u       /* ... until another group gets a turn   */
    uint8_t diverged;              /* split since its lanes last ran as one  */
    uint32_t sticky;               /* loop turns left to the guard's group   */
    uint32_t parked;               /* the group a debug halt interrupted: it
                                      goes on at resume (simt.c)           */
    uint32_t held_to;              /* a hold hint ran: no scheduling decision
                                      before the instruction at this PC has
                                      (isa.h, WS_HINT_HOLD); 0: none      */
    uint8_t retire_told;           /* sched.warp_retire emitted (early, at the
                                      exit, for a debugger: simt.c)       */
    /* Decoded-instruction page cache for the current code page. */
    uint32_t code_page_addr;
    ws_inst *code_page;
    ws_block *block;
    uint32_t core, slot, warp_in_block;
    uint32_t stack_slot0;          /* stack slot of lane 0                   */
    int active;                    /* holds a warp of a resident block       */
    int fp_used;                   /* float registers may be non-zero         */
    uint64_t instret;
    int initialized;               /* f[] has been cleared once              */
} ws_warp;

struct ws_block {
    ws_dim3 idx;
    uint64_t linear;
    uint32_t core;
    uint32_t shared_off;           /* offset in the core's shared memory    */
    uint32_t nwarps, first_slot;
    uint32_t live_lanes;
    uint32_t arrived[WS_MAX_BARRIERS];
    uint32_t arrivals;             /* bit id: arrived[id] is not 0          */
    int in_use;
    uint8_t init_pending;          /* placed; its warps are set up later     */
};

typedef struct ws_core {
    ws_warp *warps;                /* warps_per_core slots                  */
    ws_block *blocks;              /* resident block slots                  */
    uint32_t nblock_slots;
    uint8_t *shared;               /* shared_per_core bytes                 */
    uint32_t free_warps;
    uint8_t init_pending;          /* a placed block awaits set-up           */
    uint64_t next_block;           /* functional mode: the next block this
                                      core runs (its chunks c, c + cores,
                                      ...; dispatch.c take_block)           */
    uint64_t taken_blocks;         /* functional mode: blocks it has taken  */
    uint64_t done_blocks;          /* parallel rounds: blocks this core
                                      finished (the launch's count is summed
                                      at its end, not shared per block)     */
    /* The live data allocation last hit by a warp-wide access of this
     * core, [hot_lo, hot_hi). Allocations only change between launches. */
    uint32_t hot_lo, hot_hi;
    /* Parallel rounds (src/device/parallel.c): this core's warps count
     * their statistics here, folded into the launch's after the round. */
    ws_launch_stats part;
    ws_fault fault;                /* parallel rounds: this core's first fault */
    struct ws_print_buf *prints;   /* parallel rounds: printf held until the
                                      round ends, then emitted in core order */
} ws_core;

/* A module's code as the device knows it (code_table.c): the runtime adds
 * one when a module is placed and removes it before the module goes. */
typedef struct ws_code_region {
    const void *key;               /* the runtime's module (identity only)  */
    const char *name;              /* file path or given name               */
    uint32_t base, size;           /* where it lives in device memory       */
    uint32_t link_base;            /* address the ELF was linked at         */
    const void *image;             /* the ELF file as loaded (debuggers)    */
    size_t image_size;
    uint32_t text_lo, text_hi;     /* its executable code: [lo, hi)          */
    /* An instrumented module (the tracer's twins): where its original
     * instructions lie, [lo, hi) device-address pairs, ascending; the rest
     * of its text is inserted code, which a warp's quantum leaves out
     * (ws_code_inserted). NULL for other modules. Owned by the table. */
    uint32_t *orig;
    uint32_t norig;
    /* The order a diverged warp issues this code in (src/runtime/
     * issue_order.h): one key per halfword of [text_lo, text_hi), or NULL
     * for address order; and at each loop header, the key past its loop
     * (loop_end, 0 elsewhere; NULL: no loop). Owned by the table. */
    uint32_t *order, *loop_end;
} ws_code_region;

/* A launch being executed by the work distributor. */
/* Words of a launch's stack argument area: every scalar argument of a
 * kernel's at most 64 parameters (two words each) and copies of structs
 * passed by value, up to 2 KiB in all. */
#define WS_STACK_ARG_WORDS 512u

typedef struct ws_grid_run {
    uint64_t id;
    struct ws_kernel *kernel;          /* the runtime's handle (opaque here) */
    const char *kernel_name;             /* for reports; lives as long as L  */
    uint32_t entry;                      /* device address of the kernel     */
    uint32_t body;                       /* ... past its prologue (debuggers) */
    uint32_t tls_size;                   /* each lane's thread-local block
                                            (errno) at the top of its stack,
                                            tp pointing at it; 0: none     */
    uint32_t tls_image, tls_filesz;      /* device address and initialised
                                            bytes of the module's template  */
    ws_dim3 grid, block;
    uint32_t dyn_shared, shared_total;  /* static + dynamic, per block      */
    uint32_t shared_lo;                  /* window offset of the block's first
                                            shared byte: the kernel's static
                                            objects start there, the dynamic
                                            part follows at dyn_shared_addr */
    uint32_t dyn_shared_addr;
    uint32_t threads_per_block, warps_per_block;
    uint8_t slots_by_shared;             /* resident blocks per core limited by
                                            shared memory, not by warps     */
    uint32_t nregs;                      /* argument registers               */
    uint32_t ireg[8], freg[8];           /* a0..a7, fa0..fa7 initial values  */
    uint32_t ni, nf;                     /* how many of each are used        */
    uint32_t stack_args[WS_STACK_ARG_WORDS]; /* arguments passed on the stack,
                                            then the copies of structs passed
                                            by reference (16-byte aligned)  */
    uint32_t nstack;
    uint8_t ireg_sp_rel;                 /* bit i: ireg[i] is an offset from
                                            the lane's sp (a struct copy's
                                            address: each lane has its own) */
    uint64_t stack_sp_rel[WS_STACK_ARG_WORDS / 64]; /* the same for stack words */
    uint64_t total_blocks, next_block, done_blocks; /* next_block: blocks placed */
    uint8_t per_core_order;              /* functional mode: core c runs chunks
                                            c, c + cores, ... (dispatch.c)  */
    uint32_t block_chunk;                /* ... of this many blocks          */
    ws_launch_stats stats;
    double t_start;
    /* Graphics (src/gfx): shader launches made by the pipeline. Lane t of
     * the grid (t = block * threads_per_block + thread) starts with
     * a_i = ireg[i] + ireg_stride[i] * t, reads sysval[t * WS_GFX_SYSVALS + k] through
     * the WS_CSR_GFX_SYS* CSRs, and runs only if t < thread_limit. */
    struct ws_gfx_run *gfx;              /* NULL for compute launches        */
    uint32_t ireg_stride[8];
    const uint32_t *sysval;
    uint64_t thread_limit;
    uint32_t draw_id;
    uint32_t gfx_stage;                  /* WS_GFX_STAGE_*: which system values
                                            the lanes have                  */
} ws_grid_run;

#define WS_GFX_STAGE_NONE 0u             /* a kernel                         */
#define WS_GFX_STAGE_VERTEX 1u
#define WS_GFX_STAGE_FRAGMENT 2u
#define WS_GFX_STAGE_OLD_VERTEX 3u       /* a vertex shader of a module built
                                            before WS_SYSVALS_SECTION: SYS0..3
                                            are its vertex, instance, 0, draw */

typedef enum ws_cmd_kind { CMD_COPY_HTOD, CMD_COPY_DTOD, CMD_MEMSET, CMD_LAUNCH, CMD_FENCE, CMD_GFX } ws_cmd_kind;
struct ws_gfx_cmd;

/* Runs one launch to its end (the command processor's own run). */
struct ws_device;
typedef ws_status (*ws_launch_fn)(struct ws_device *dev, ws_grid_run *L);

typedef struct ws_cmd {
    ws_cmd_kind kind;
    uint32_t dst, src;
    uint64_t n;
    uint8_t *data;                 /* CMD_COPY_HTOD: owned snapshot         */
    int value;                     /* CMD_MEMSET                            */
    uint64_t fence;                /* CMD_FENCE                             */
    ws_grid_run *launch;             /* CMD_LAUNCH: owned                     */
    struct ws_gfx_cmd *gfx;          /* CMD_GFX: owned (src/gfx/gfx.h)        */
} ws_cmd;

struct ws_device {
    ws_config cfg;
    atomic_int interrupt_req;      /* ws_device_interrupt: end the launch (set
                                      from anywhere, taken by the launch it
                                      ends: ws_host_interrupt_take)     */
    ws_memory mem;
    ws_core *cores;
    uint32_t full_mask;            /* (1 << lanes_per_warp) - 1              */
    ws_inst **code_pages;          /* decoded pages of the global arena      */
    uint32_t ncode_pages;
    uint32_t code_pages_live;      /* of them allocated (under decode_lock) */
    struct ws_fast_cache *fast;    /* the fast engine's blocks, per core (fast_exec.c) */
    /* Registers that may be non-zero in some warp slot: the destinations
     * of every instruction decoded so far (all of them for ecalls, which
     * write fixed registers), or all after a debugger wrote one. A warp
     * start clears only these rows (dispatch.c); bits are only ever added,
     * atomically, as host threads decode in parallel (ws_regs_written). */
    uint32_t written_x, written_f;
    uint32_t fast_isa;             /* the engine's instruction set: 0 SSE2, 1 AVX2, 2 AVX-512 */
    /* command queue (ring) */
    ws_cmd *queue;
    size_t qhead, qlen, qcap;
    ws_grid_run *current;            /* launch in progress, or NULL            */
    uint64_t next_launch_id, next_fence, fence_done;
    ws_launch_stats last_stats;
    int have_stats;
    /* The first error raised by queued work, reported by the next
     * synchronising call. */
    ws_status pending_status;
    char pending_msg[WS_ERRLEN];
    ws_fault fault;
    /* modules: the runtime's objects, and the device's table of their code */
    struct ws_module **modules;
    size_t nmodules, modcap;
    ws_code_region *code;
    size_t ncode, codecap;
    size_t nmarked;                  /* regions with inserted code (orig)   */
    size_t nordered;                 /* regions with an issue order or loops */
    struct ws_module **retired;      /* unloaded modules kept so stale handles
                                        are recognised (freed at close)     */
    size_t nretired, retcap;
    ws_printf_fn printf_fn;
    void *printf_user;
    /* Set by the runtime: names the source line of a device pc for fault
     * reports (src/runtime/source_lines.c); the device knows no DWARF.
     * Given the lane stopped there (w non-NULL), also the calls that led
     * to it, unwound from the lane's registers and stack. */
    void (*describe_pc)(const struct ws_device *dev, uint32_t pc, const ws_warp *w, uint32_t lane, char *buf,
                        size_t len);
    int printf_depth;                /* >0 while the printf handler runs    */
    int machine_cb_depth;            /* >0 while a debug machine's host
                                        callback runs (events.h)          */
    pthread_mutex_t api_lock;        /* src/runtime/api_lock.h               */
    int api_lock_ready;
    /* Calls inside the API lock or waiting for it (and ws_device_interrupt
     * or ws_device_config while they run): ws_device_close frees the
     * device only once it is 0 (src/runtime/api_lock.h). */
    atomic_uint api_callers;
    /* Set by ws_device_close once it holds the lock (closer: its thread):
     * a call from another thread that gets the lock after it is refused. */
    atomic_int closing;
    pthread_t closer;
    char err[WS_ERRLEN];
    /* A failure of queued work a tool met while waiting for the queue on
     * the program's behalf and handed back (ws_tool_hand_back): the next
     * wait discards the work queued since and reports it (0: none). */
    ws_status handed_back;
    char handed_back_msg[WS_ERRLEN];
    /* The host process's exit status, when an exit hook closes the device
     * (ws_tool_set_exit_status); tools report it at close. */
    int exit_status;
    int exit_status_known;           /* exit_status was set */
    /* Debug and trace hardware, NULL until a tool enables it. */
    struct ws_debug *debug;          /* debug modules, triggers (src/device/debug) */
    struct ws_timing *timing;        /* timing model state (mode=timing)       */
    struct ws_trace_cells *trace;    /* per-core trace cells (src/device/trace) */
    struct ws_events *events;        /* event bus and trace (src/device/events) */
    /* The tool built into the library that holds the bus (the watcher),
     * named in the program's refusals; NULL: the bus is the program's.
     * events_owner_calling: the holder's own calls are running. */
    const char *events_owner;
    int events_owner_calling;
    struct ws_pc_counters *pcc;      /* instruction counters (src/device/trace/pc_counters.h) */
    uint64_t now_cycle;              /* timing mode: the launch's current cycle */
    /* Set by the runtime: the command processor hands every launch to it
     * (the runtime's attached tools, src/runtime/tools.c); NULL = run it. */
    ws_status (*launch_hook)(struct ws_device *dev, ws_grid_run *L, ws_launch_fn run);
    struct ws_tool_list *tools;      /* the runtime's attached tools (opaque)   */
    struct ws_gfx_device *gfx;       /* graphics fixed-function state (src/gfx), NULL until used */
    struct ws_gfx_api *gfx_api;      /* the runtime's graphics context (src/runtime/gfx_*.c) */
    int tool_launch_depth;           /* >0 while tools see a launch            */
    uint64_t tool_launch_id;         /* the launch they see (for messages)     */
    /* Parallel simulation (src/device/parallel.c): host threads for the
     * cores (cfg.threads resolved at open), the worker pool (NULL until a
     * launch first runs in parallel), and whether the current round runs
     * on several threads. */
    uint32_t host_threads;
    int threads_asked;               /* threads=N or $WARPSCOPE_THREADS given */
    struct ws_par *par;
    int par_active;
    pthread_mutex_t decode_lock;     /* decoding shared code pages in parallel */
    int decode_lock_ready;
};

/* ---- execution (src/device/warp_exec.c) ---- */
typedef enum ws_warp_result { WARP_RAN, WARP_IDLE, WARP_FAULT, WARP_HALT } ws_warp_result;
/* Run up to `budget` instructions of warp w (in functional mode the
 * inserted code of an instrumented module, ws_code_inserted, does not
 * count towards it: the warp yields where it would without that code).
 * Returns WARP_IDLE if nothing
 * could issue (all lanes retired or waiting at a barrier), WARP_FAULT if a
 * lane faulted (dev->fault holds the report), WARP_HALT if the debugger
 * halted it (src/device/debug/debug_hooks.h), else WARP_RAN. *issued gets
 * the number of warp-instructions issued (inserted ones included). */
ws_warp_result ws_warp_run(ws_device *dev, ws_warp *w, uint32_t budget, uint32_t *issued);
/* Drop decoded instructions for [addr, addr+n) (module unload). */
void ws_code_invalidate(ws_device *dev, uint32_t addr, uint32_t n);
/* Fetch and decode (once per address) the instruction at pc; NULL if the
 * fetch would fault (warp_exec.c). */
const ws_inst *ws_warp_fetch(ws_device *dev, ws_warp *w, uint32_t pc);

/* Registers in xmask / fmask may now hold non-zero values (dev->written_x). */
static inline void ws_regs_written(ws_device *dev, uint32_t xmask, uint32_t fmask)
{
    if ((__atomic_load_n(&dev->written_x, __ATOMIC_RELAXED) & xmask) != xmask)
        __atomic_fetch_or(&dev->written_x, xmask, __ATOMIC_RELAXED);
    if ((__atomic_load_n(&dev->written_f, __ATOMIC_RELAXED) & fmask) != fmask)
        __atomic_fetch_or(&dev->written_f, fmask, __ATOMIC_RELAXED);
}

/* Lanes in mask g, without a libgcc call (the base x86-64 ISA has no
 * POPCNT; timing mode counts once per instruction). */
static inline uint32_t ws_lane_count(uint32_t g)
{
    g = g - ((g >> 1) & 0x55555555u);
    g = (g & 0x33333333u) + ((g >> 2) & 0x33333333u);
    return (((g + (g >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24;
}

/* Grid thread index of lane l of warp w in launch L (graphics system values). */
static inline uint64_t ws_lane_grid_thread(const ws_grid_run *L, const ws_warp *w, uint32_t l)
{
    return w->block->linear * L->threads_per_block +
           (uint64_t)w->tid[0][l] + (uint64_t)L->block.x * (w->tid[1][l] + (uint64_t)L->block.y * w->tid[2][l]);
}

/* Lane l's graphics system value read by csr (WS_CSR_GFX_SYS0..4 and
 * VERTEX; the draw, 0xCDC, is the launch's), 0 outside a draw,
 * WS_GFX_WRONG_STAGE outside the value's stage (abi.h). Returns 0, 1 if
 * the lane is outside the value's stage or draw (the interpreter faults
 * there; the debug module shows the value), -1 if csr is none of them.
 * Shared by the interpreter's and the debug module's CSR reads.
 * A lane's words: vertex shaders vertex, instance, 0, draw, instance;
 * fragment shaders x, y, flags, primitive, instance. */
static inline int ws_lane_sysval(const ws_grid_run *L, const ws_warp *w, uint32_t l, uint32_t csr, uint32_t *v)
{
    uint32_t word, stage, old = L->gfx_stage == WS_GFX_STAGE_OLD_VERTEX;
    if (csr >= WS_CSR_GFX_SYS0 && csr <= WS_CSR_GFX_SYS3)
        word = csr - WS_CSR_GFX_SYS0, stage = old ? WS_GFX_STAGE_OLD_VERTEX : WS_GFX_STAGE_FRAGMENT;
    else if (csr == WS_CSR_GFX_VERTEX) word = 0, stage = old ? WS_GFX_STAGE_OLD_VERTEX : WS_GFX_STAGE_VERTEX;
    else if (csr == WS_CSR_GFX_SYS4) word = 4, stage = L->gfx_stage;
    else return -1;
    if (!L->sysval) *v = 0;
    else if (L->gfx_stage != stage) *v = WS_GFX_WRONG_STAGE;
    else *v = L->sysval[ws_lane_grid_thread(L, w, l) * WS_GFX_SYSVALS + word];
    return !L->sysval || L->gfx_stage != stage;
}

/* The lanes of g that are helper lanes of a fragment shader: uncovered
 * pixels of their quad, or fragments that called ws_discard. Their stores
 * and atomics reach no memory but their own stack, as for a GPU's helper
 * invocations (docs/graphics.md). 0 outside a draw; a vertex lane is never
 * a helper (its flags word is 0). */
static inline uint32_t ws_lane_helpers(const ws_device *dev, const ws_warp *w, uint32_t g)
{
    const ws_grid_run *L = dev->current;
    if (!L || !L->sysval) return 0;
    uint32_t helpers = 0;
    for (uint32_t m = g; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        if (L->sysval[ws_lane_grid_thread(L, w, l) * WS_GFX_SYSVALS + 2] & WS_GFX_FLAG_HELPER) helpers |= 1u << l;
    }
    return helpers;
}

/* ---- SIMT group selection and barriers (src/device/simt.c) ---- */
int  ws_simt_select(ws_device *dev, ws_warp *w);          /* 0 if none runnable */
void ws_simt_leave_group(ws_warp *w);                     /* write back group_pc */
void ws_simt_park_group(ws_warp *w);                      /* leave it until resume */
/* The group called (+1) or returned (-1): its lanes' depth moves, and
 * the key at which it yields to the other lanes is worked out again. */
void ws_simt_call_depth(const ws_device *dev, ws_warp *w, int delta);
/* The code region with a key table or loops that holds pc (NULL: none). */
static inline const ws_code_region *ws_issue_region(const ws_device *dev, uint32_t pc)
{
    for (size_t i = 0; dev->nordered && i < dev->ncode; i++) {
        const ws_code_region *r = &dev->code[i];
        if ((r->order || r->loop_end) && pc - r->text_lo < r->text_hi - r->text_lo) return r;
    }
    return NULL;
}
static inline uint32_t ws_issue_key(const ws_device *dev, uint32_t pc)
{
    const ws_code_region *r = dev->nordered ? ws_issue_region(dev, pc) : NULL;
    return r && r->order ? r->order[(pc - r->text_lo) / 2] : pc;
}
/* If pc is a loop's header: the issue key just past the loop (its
 * blocks are [ws_issue_key(pc), end) in issue order), else 0. */
static inline uint32_t ws_issue_loop_end(const ws_device *dev, uint32_t pc)
{
    const ws_code_region *r = dev->nordered ? ws_issue_region(dev, pc) : NULL;
    return r && r->loop_end ? r->loop_end[(pc - r->text_lo) / 2] : 0;
}
/* Whether a diverged group (w->group, has_others) yields to the other
 * lanes on reaching pc (simt.c): at or past their lowest key, back at a
 * held loop header's key, or at a loop's header with lanes inside it.
 * The interpreter and the fast engine both ask this. */
static inline int ws_group_yields_at(const ws_device *dev, const ws_warp *w, uint32_t pc)
{
    const ws_code_region *r = dev->nordered ? ws_issue_region(dev, pc) : NULL;
    const uint32_t i = r ? (pc - r->text_lo) / 2 : 0;
    const uint32_t key = r && r->order ? r->order[i] : pc, end = r && r->loop_end ? r->loop_end[i] : 0;
    return key >= w->other_min_pc || key <= w->other_floor || end > w->other_min_pc;
}
/* Is the instruction at pc a warp vote or shuffle? (the starvation
 * guard's group stops before one: simt.c) */
int ws_simt_collective_at(ws_device *dev, ws_warp *w, uint32_t pc);
/* A jal/jalr's effect on the call depth: +1 links ra (a call), -1 jumps
 * through ra without linking (a return), else 0. Only ra counts (not t0,
 * which RISC-V's return-address hints also name), so that a computed jump
 * through t0 is never taken for a return. A return to `target` on the
 * stacks is the end of a function a debugger called (gdb puts its return
 * address on the lane's stack and sets the pc without a call): the lane is
 * back at the depth it was called at, where its warp's other lanes are. */
static inline int ws_call_delta(uint32_t rd, uint32_t rs1, int is_jalr, uint32_t target)
{
    if (rd == 1) return 1;
    if (!is_jalr || rd != 0 || rs1 != 1) return 0;
    return ws_addr_in_stacks(target) ? 0 : -1;
}
void ws_simt_retire(ws_device *dev, ws_warp *w, uint32_t lanes);
/* Emit w's sched.warp_retire now, once: ws_simt_retire does not emit it
 * again when w's last lanes leave. */
void ws_simt_tell_retire(ws_device *dev, ws_warp *w);
void ws_simt_barrier_arrive(ws_device *dev, ws_warp *w, uint32_t lanes, uint32_t id);

/* ws_warp_fetch, with an entry already decoded in the warp's current code
 * page taken inline: timing mode fetches every instruction it issues this
 * way; a page change or a decode goes through the call. */
static inline const ws_inst *ws_warp_fetch_decoded(ws_device *dev, ws_warp *w, uint32_t pc)
{
    if (w->code_page && (pc & ~0xFFFu) == w->code_page_addr) {
        const ws_inst *e = &w->code_page[(pc & 0xFFFu) >> 1];
        if (__atomic_load_n(&e->len, __ATOMIC_ACQUIRE)) return e;
    }
    return ws_warp_fetch(dev, w, pc);
}

/* Timing mode (src/device/timing.c): select the issuing group if none is
 * selected and decode its next instruction without executing it. Returns 0
 * if no lane can issue; *in is NULL when *pc is WS_RETIRE_ADDR or the fetch
 * would fault (ws_warp_run(dev, w, 1, ..) then runs exactly that
 * instruction for that group: it retires or raises). */
static inline int ws_warp_peek(ws_device *dev, ws_warp *w, const ws_inst **in, uint32_t *pc, uint32_t *group)
{
    if (!w->group && !ws_simt_select(dev, w)) return 0;
    *pc = w->group_pc;
    *group = w->group;
    *in = *pc == WS_RETIRE_ADDR ? NULL : ws_warp_fetch_decoded(dev, w, *pc);
    return 1;
}

/* ---- work distribution (src/device/dispatch.c) ---- */
/* Functional mode hands each core chunks of consecutive blocks: about
 * WS_CHUNKS_PER_CORE chunks per core over the grid, at most
 * WS_MAX_BLOCK_CHUNK blocks each, and single blocks for small grids. */
#define WS_CHUNKS_PER_CORE 16u
#define WS_MAX_BLOCK_CHUNK 64u
uint32_t ws_block_chunk(uint64_t total_blocks, uint32_t cores);
/* Place as many pending blocks of the current launch as fit. Returns the
 * number placed. */
uint32_t ws_dispatch_blocks(ws_device *dev);
/* The same, on the cores c with only[c] != 0 (NULL: every core). */
uint32_t ws_dispatch_blocks_on(ws_device *dev, const uint8_t *only);
/* The same, on core c only (functional mode's per-core order: a core
 * running on its own host thread places its own next blocks). */
uint32_t ws_dispatch_blocks_core(ws_device *dev, uint32_t c);
/* Set up the warps of blocks placed on core c while cores ran in parallel
 * (placement defers it to the core's own thread). */
void ws_dispatch_init_core(ws_device *dev, uint32_t c);
/* Free the slots of a block whose lanes have all retired. */
void ws_block_release(ws_device *dev, ws_block *b);

/* ---- command processor (src/device/cmdproc.c) ---- */
ws_status ws_cmd_push(ws_device *dev, const ws_cmd *cmd);
/* Run queued work until the queue is empty (until_fence == 0) or the fence
 * has passed. Returns the first error raised by the work, with its message
 * in dev->err; the error is then cleared and the queue flushed. */
ws_status ws_cmd_drain(ws_device *dev, uint64_t until_fence);
/* Before a synchronous command that does not go through the queue
 * (ws_memcpy_dtoh reads at once): drain the queue, then wait like a
 * queued command for a halted command processor (docs/events.md). */
ws_status ws_cmd_direct(ws_device *dev, const char *what);
void ws_cmd_discard_all(ws_device *dev);
/* Fill dev->fault with the deadlock report (lanes stuck at barriers). */
void ws_raise_deadlock(ws_device *dev);
/* The report ws_raise_deadlock gives, into buf (a debugger shows it first). */
void ws_deadlock_text(const ws_device *dev, char *buf, size_t len);
/* A launch the host ends (ws_host_stop_due's reason): its report, the
 * launch's progress (with the cycle in timing mode; UINT64_MAX: none) and
 * where it still runs; returns its status, WS_ERR_TIMEOUT or
 * WS_ERR_INTERRUPTED. */
ws_status ws_fault_host_stop(ws_device *dev, int why, uint64_t cycle);

/* ---- fault reports (src/device/fault.c) ---- */
const char *ws_fault_kind_name(ws_fault_kind k);
/* Record a fault of lane `lane` of warp w at pc; formats the detail. */
void ws_fault_raise(ws_device *dev, ws_warp *w, uint32_t lane, ws_fault_kind kind,
                    uint32_t pc, uint32_t addr, uint32_t size, const char *fmt, ...)
    __attribute__((format(printf, 8, 9)));
/* Full report: "<kind>: <detail>; kernel 'k' launch N, block (x,y,z) thread
 * (x,y,z) [core c warp w lane l], pc 0x... (<disassembly>)"; a shader
 * launch is "fragment shader 'fs' of draw D, launch N" (or vertex) and its
 * lane is named by its draw, vertex or primitive and pixel. */
void ws_fault_format(const ws_device *dev, char *buf, size_t len);

/* ---- loaded code (src/device/code_table.c) ---- */
int ws_code_table_add(ws_device *dev, const ws_code_region *r);   /* -1: no host memory */
/* Is pc inserted code of an instrumented module (ws_code_region.orig)? */
int ws_code_inserted(const ws_device *dev, uint32_t pc);
void ws_code_table_remove(ws_device *dev, const void *key);

/* ---- errors (src/device/error.c): the device's error message register ---- */
ws_status ws_set_error(ws_device *dev, ws_status s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));


double ws_now_seconds(void);
/* Why the host ends the running launch now (clock.c): WS_HOST_INTERRUPT
 * when asked (ws_device_interrupt; the request is taken), WS_HOST_WATCHDOG
 * past limit seconds of host time since t0 (limit 0: no watchdog; with
 * less_parked, less the time a debugger held the device), else 0. */
enum { WS_HOST_WATCHDOG = 1, WS_HOST_INTERRUPT = 2 };
int ws_host_stop_due(ws_device *dev, double t0, double limit, int less_parked);
/* The host's request to end a launch (ws_device_interrupt), whenever it
 * was made, is consumed by the launch it ends: a launch about to run
 * anything takes it (1: asked; it ends at once) and so do the run loops'
 * checks (ws_host_stop_due). One asked while a launch ran that completed
 * anyway is cleared when that launch command ends (cmdproc.c), so it never
 * ends a later, unrelated one. */
int ws_host_interrupt_take(ws_device *dev);
void ws_host_interrupt_clear(ws_device *dev);

#endif
