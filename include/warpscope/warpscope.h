/* Warpscope runtime API: a simulated RISC-V SIMT GPU and its host interface.
 *
 * Every function returns a ws_status. On failure, ws_last_error(dev) holds a
 * readable message with context (kernel, block, thread, PC, address, file).
 * The library keeps no global mutable state: everything hangs off a device.
 * The host never holds a raw pointer into device memory; data moves through
 * the copy calls, so an interception layer sees every write. */
#ifndef WARPSCOPE_H
#define WARPSCOPE_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "abi.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define WS_API __attribute__((visibility("default")))
#else
#define WS_API
#endif

#define WS_VERSION_MAJOR 0
#define WS_VERSION_MINOR 1
#define WS_VERSION_PATCH 0

typedef uint32_t ws_addr; /* a device address */

typedef enum ws_status {
    WS_OK = 0,
    WS_ERR_INVALID_ARG,      /* a bad argument from the caller                  */
    WS_ERR_OUT_OF_MEMORY,    /* device memory limit reached, or host malloc     */
    WS_ERR_BAD_ADDRESS,      /* copy/free outside an allocation, double free    */
    WS_ERR_BAD_MODULE,       /* malformed or unsupported ELF                    */
    WS_ERR_NOT_FOUND,        /* unknown kernel name, file not found             */
    WS_ERR_BAD_LAUNCH,       /* launch shape or arguments rejected              */
    WS_ERR_KERNEL_FAULT,     /* a lane raised an exception                      */
    WS_ERR_KERNEL_ASSERT,    /* device assert() failed                          */
    WS_ERR_DEADLOCK,         /* no lane can make progress (barrier mismatch)    */
    WS_ERR_IO,               /* host file I/O failed                            */
    WS_ERR_BUSY,             /* operation not allowed while work is in flight   */
    WS_ERR_UNSUPPORTED,
    WS_ERR_INTERNAL,
    WS_ERR_TIMEOUT,          /* the launch ran past the watchdog limit        */
    WS_ERR_STOPPED,          /* a debug machine stopped the launch (events.h) */
    WS_ERR_INTERRUPTED       /* the host asked to stop it (ws_device_interrupt) */
} ws_status;

typedef enum ws_exec_mode { WS_MODE_FUNCTIONAL = 0, WS_MODE_TIMING = 1 } ws_exec_mode;

typedef struct ws_config {
    uint32_t cores;              /* default 4, 1..256                         */
    uint32_t warps_per_core;     /* default 8, 1..64                          */
    uint32_t lanes_per_warp;     /* default 32, 1..32                         */
    uint32_t shared_per_core;    /* bytes of shared memory per core, default
                                    64 KiB, at most 256 MiB                  */
    uint32_t max_shared_per_block; /* default 48 KiB, at most shared_per_core */
    uint32_t stack_per_lane;     /* bytes, default 8 KiB, a power of two
                                    >= 1 KiB; all lanes' stacks together at
                                    most 256 MiB                             */
    uint64_t global_mem_limit;   /* bytes of global memory, default 256 MiB,
                                    1 MiB..3040 MiB, a multiple of 4 KiB     */
    uint32_t max_threads_per_block; /* default 256 (must fit warps_per_core warps; ws_config_parse
                                       lowers it with a smaller core it is not given with) */
    ws_exec_mode mode;           /* functional (default) or timing            */
    uint32_t warp_quantum;       /* warp-instructions a warp runs before the
                                    scheduler moves on, default 64            */
    uint32_t watchdog_ms;        /* end a launch that runs longer than this
                                    (host time), 0 = never (default)          */
    char timing_file[256];       /* timing-model parameters ("timing=FILE",
                                    at most 255 bytes, docs/timing.md);
                                    "" = built-in defaults                   */
    uint32_t threads;            /* host threads simulating the cores
                                    (docs/parallel.md): 0 = $WARPSCOPE_THREADS
                                    if set, else one per host core (default;
                                    timing mode starts on one and hands over
                                    once its blocks prove long); at most 256 */
    uint32_t engine;             /* functional mode's execution engine
                                    ("engine=fast|interp"): 0 = pre-decoded
                                    blocks with the interpreter as fallback
                                    (default), 1 = the interpreter only;
                                    results are identical (docs/performance.md) */
} ws_config;

typedef struct ws_device ws_device;
typedef struct ws_module ws_module;
typedef struct ws_kernel ws_kernel;

typedef struct ws_dim3 { uint32_t x, y, z; } ws_dim3;
#define WS_DIM3(X, Y, Z) ((ws_dim3){ (X), (Y), (Z) })

typedef enum ws_arg_type {
    WS_TYPE_I32, WS_TYPE_U32, WS_TYPE_I64, WS_TYPE_U64,
    WS_TYPE_F32, WS_TYPE_F64, WS_TYPE_PTR,
    WS_TYPE_STRUCT            /* a struct or union by value: its bytes */
} ws_arg_type;

/* A typed kernel argument; checked against the kernel's parameter types.
 * WS_TYPE_STRUCT: `size` bytes at `data`, laid out as the device's C
 * compiler lays the type out (little-endian, the same as on x86-64 and
 * AArch64 hosts for structs of fixed-width members); ws_launch copies
 * them, so they need not outlive the call. */
typedef struct ws_arg {
    ws_arg_type type;
    union { int32_t i32; uint32_t u32; int64_t i64; uint64_t u64;
            float f32; double f64; ws_addr ptr;
            struct { const void *data; uint32_t size; } bytes; } v;
} ws_arg;
#define WS_ARG_I32(x) ((ws_arg){ .type = WS_TYPE_I32, .v.i32 = (x) })
#define WS_ARG_U32(x) ((ws_arg){ .type = WS_TYPE_U32, .v.u32 = (x) })
#define WS_ARG_I64(x) ((ws_arg){ .type = WS_TYPE_I64, .v.i64 = (x) })
#define WS_ARG_U64(x) ((ws_arg){ .type = WS_TYPE_U64, .v.u64 = (x) })
#define WS_ARG_F32(x) ((ws_arg){ .type = WS_TYPE_F32, .v.f32 = (x) })
#define WS_ARG_F64(x) ((ws_arg){ .type = WS_TYPE_F64, .v.f64 = (x) })
#define WS_ARG_PTR(x) ((ws_arg){ .type = WS_TYPE_PTR, .v.ptr = (x) })
#define WS_ARG_STRUCT(p, n) ((ws_arg){ .type = WS_TYPE_STRUCT, .v.bytes = { (p), (uint32_t)(n) } })

/* Statistics of one launch (functional mode counts are exact). */
#define WS_STATS_MAX_CORES 256
typedef struct ws_launch_stats {
    uint64_t launch_id;
    uint64_t thread_instructions; /* instructions executed, summed over lanes   */
    uint64_t warp_instructions;   /* instructions issued, summed over warps     */
    double   simt_efficiency;     /* thread_instr / (warp_instr * lanes_per_warp) */
    uint64_t blocks;              /* blocks that ran to their end: a launch
                                     that failed leaves out the blocks it cut
                                     short, whose instructions are counted
                                     above and in core_blocks[] below       */
    uint64_t threads;             /* blocks x threads per block             */
    uint64_t cycles;              /* timing mode only; 0 in functional mode     */
    double   host_seconds;        /* wall time the device spent on the launch  */
    uint32_t shared_per_block;    /* shared bytes reserved per block: the static
                                     objects the kernel uses + dynamic        */
    uint32_t blocks_per_core;     /* resident-block limit per core (occupancy) */
    uint32_t cores;               /* entries used in the per-core arrays       */
    uint64_t core_blocks[WS_STATS_MAX_CORES];            /* blocks each core started */
    uint64_t core_warp_instructions[WS_STATS_MAX_CORES]; /* issued per core      */
    uint64_t thread_loads;        /* load instructions (incl. flw) over lanes   */
    uint64_t thread_stores;       /* store instructions (incl. fsw) over lanes  */
    uint64_t thread_atomics;      /* lr/sc/amo instructions over lanes          */
} ws_launch_stats;

/* Device printf sink: called once per printf call of a lane (one record:
 * its text, at most 256 bytes, may hold part of a line or several lines),
 * in order per thread. Default: text is written to stdout. */
typedef void (*ws_printf_fn)(void *user, uint64_t launch_id, ws_dim3 block,
                             ws_dim3 thread, const char *text, size_t len);

/* ---- Library and device ---- */
WS_API const char *ws_version(void);
WS_API const char *ws_status_name(ws_status s);
WS_API void ws_config_default(ws_config *cfg);
/* Parse "key=value" settings (keys as in ws_config: cores=8, lanes_per_warp=16,
 * global_mem_limit=64M, mode=timing) separated by commas or whitespace; a
 * value with a space or comma goes in double quotes (timing="/a b/x.timing",
 * \" and \\ within them: docs/device.md). A value that can never be
 * valid ("cores=1K"), or that clashes with the rest of cfg ("cores=256"
 * with 8 KiB stacks), is refused naming the setting as written; what it
 * accepts ws_config_validate accepts, except a timing= file, which only
 * validate and ws_device_open read. */
WS_API ws_status ws_config_parse(ws_config *cfg, const char *text, char *err, size_t errlen);
/* Check a configuration; err receives what is wrong ("cores=0: must be 1..256"). */
WS_API ws_status ws_config_validate(const ws_config *cfg, char *err, size_t errlen);
/* Open a device (cfg NULL: defaults). Invalid configurations are rejected
 * with WS_ERR_INVALID_ARG (ws_config_validate says why). */
WS_API ws_status ws_device_open(const ws_config *cfg, ws_device **out);
/* Runs work still queued, then closes: returns that work's failure, if any
 * (the device is closed either way; ws_synchronize first to read the report).
 * A call from another thread that waits for the device's lock while close
 * runs, or starts before close returns, is refused with WS_ERR_INVALID_ARG
 * and close frees the device only after it has left; a call that starts
 * as close returns, or any use after, is the caller's bug (docs/api.md,
 * "Threads"). */
WS_API ws_status ws_device_close(ws_device *dev);
/* Ask the launch running on dev to end now, as the watchdog ends one
 * (docs/api.md): it ends within a few milliseconds with
 * WS_ERR_INTERRUPTED, its report naming where its warps are. Asked while
 * no launch runs, the next launch to start ends before it runs anything.
 * The request is answered by one launch only: consumed by the launch it
 * ends, or dropped when the launch it was asked during completes first
 * (that launch reports WS_OK); it never ends a later launch. Takes no
 * lock and only sets a flag, so a signal handler or another thread may
 * call it while ws_synchronize runs (`warpscope run` does on Ctrl-C).
 * WS_ERR_INVALID_ARG for NULL. */
WS_API ws_status ws_device_interrupt(ws_device *dev);
/* The message of dev's last failure ("no device" for NULL). The pointer
 * is into the device: the next failing call on dev, from any thread,
 * rewrites the text under it. Read it only while no other thread uses dev
 * (one thread per device, or the caller serialises its threads' calls);
 * with several threads, use ws_last_error_copy. */
WS_API const char *ws_last_error(const ws_device *dev);
/* A message holds at most WS_ERROR_MAX - 1 bytes: a buffer of
 * WS_ERROR_MAX bytes always takes it whole. */
#define WS_ERROR_MAX 1024
/* Copy dev's last message (ws_last_error's text) into buf under the
 * device's API lock, so another thread's failing call cannot change it
 * half-way: buf gets one whole message, truncated to len - 1 bytes and
 * always NUL-terminated. With several threads on dev the message may be
 * another thread's failure, never a mix of two. Allowed in the printf
 * handler and tools' callbacks (as ws_last_launch_stats is). NULL dev:
 * WS_ERR_INVALID_ARG, buf gets "no device"; NULL buf or len 0:
 * WS_ERR_INVALID_ARG, and the device's message is left as it was. */
WS_API ws_status ws_last_error_copy(const ws_device *dev, char *buf, size_t len);
/* The configuration dev was opened with, and `threads` as resolved: the
 * host threads a launch on several threads uses ($WARPSCOPE_THREADS or the
 * host's cores for 0, at most `cores`; docs/parallel.md). */
WS_API ws_status ws_device_config(const ws_device *dev, ws_config *out);
WS_API ws_status ws_set_printf_handler(ws_device *dev, ws_printf_fn fn, void *user);

/* ---- Memory ---- */
/* size bytes (at least 1: 0 is refused with WS_ERR_INVALID_ARG, *out = 0;
 * docs/api.md, "Zero-byte allocations"), 256-byte aligned, zero-filled. */
WS_API ws_status ws_malloc(ws_device *dev, size_t size, ws_addr *out);
/* Allocate [addr, addr + size) exactly (a replayer rebuilding a captured
 * frame's allocations): WS_ERR_INVALID_ARG if addr is not 256-byte aligned
 * or the range is not inside the global arena, WS_ERR_OUT_OF_MEMORY if any
 * of it is in use or the red zone every allocation has after it (256 bytes
 * at least) does not fit in the arena. */
WS_API ws_status ws_malloc_at(ws_device *dev, ws_addr addr, size_t size);
WS_API ws_status ws_free(ws_device *dev, ws_addr addr);
/* Copies and memset are ordered with launches (in-order command queue):
 * host-to-device calls snapshot the source and return at once; device-to-host
 * calls wait for prior work. */
WS_API ws_status ws_memcpy_htod(ws_device *dev, ws_addr dst, const void *src, size_t n);
WS_API ws_status ws_memcpy_dtoh(ws_device *dev, void *dst, ws_addr src, size_t n);
WS_API ws_status ws_memcpy_dtod(ws_device *dev, ws_addr dst, ws_addr src, size_t n);
WS_API ws_status ws_memset(ws_device *dev, ws_addr dst, int value, size_t n);
WS_API ws_status ws_mem_info(const ws_device *dev, uint64_t *used, uint64_t *limit);

/* ---- Modules and kernels ---- */
WS_API ws_status ws_module_load_file(ws_device *dev, const char *path, ws_module **out);
/* name: how messages, tools and gdb call the module; NULL or "": "<memory>"
 * for the device's first such module, then "<memory 2>", "<memory 3>", ... */
WS_API ws_status ws_module_load_data(ws_device *dev, const void *image, size_t size,
                                     const char *name, ws_module **out);
/* Load at a chosen device address (a replayer rebuilding a captured
 * frame): WS_ERR_INVALID_ARG if base is not 256-byte aligned or the image
 * would not be inside the global arena, WS_ERR_OUT_OF_MEMORY if the
 * module's range there is in use. */
WS_API ws_status ws_module_load_data_at(ws_device *dev, const void *image, size_t size, const char *name,
                                        ws_addr base, ws_module **out);
WS_API ws_status ws_module_unload(ws_device *dev, ws_module *mod);
WS_API ws_status ws_module_base(const ws_module *mod, ws_addr *base, uint32_t *size);
WS_API ws_status ws_kernel_get(ws_module *mod, const char *name, ws_kernel **out);
/* ws_kernel_name and ws_kernel_param_count have no status to give: for a
 * kernel of an unloaded module they still answer (the calls that return a
 * status refuse it with WS_ERR_INVALID_ARG); NULL and 0 for a NULL kernel. */
WS_API const char *ws_kernel_name(const ws_kernel *k);
/* Describe parameter i: its name and C type, e.g. ("n", "int"). */
WS_API ws_status ws_kernel_param(const ws_kernel *k, uint32_t i, const char **name,
                                 const char **type_name);
WS_API uint32_t ws_kernel_param_count(const ws_kernel *k);
/* How to pass parameter i, typedefs and qualifiers resolved from DWARF:
 * the argument type ws_launch accepts for it, the C type's width and
 * signedness, and for pointers what they point to. */
typedef struct ws_param_type {
    ws_arg_type arg;          /* WS_TYPE_I32 for signed 8/16/32-bit, U32 for
                                 unsigned (and bool/enum), I64, U64, F32, F64, PTR */
    uint32_t bits;            /* 8, 16, 32 or 64; 32 for pointers           */
    int is_signed;
    int pointee_float;        /* pointers: the elements are float or double
                                 (through arrays and vectors: float (*)[4],
                                 a pointer to a float vector)               */
    uint32_t pointee_size;    /* pointers: element bytes (the scalar of an
                                 array or vector pointed to; 4 for pointers),
                                 0 = void/struct/function/unknown            */
    int pointee_unsigned;     /* pointers: the elements are unsigned integers
                                 (plain char is unsigned on RISC-V)          */
    uint32_t size;            /* WS_TYPE_STRUCT: the struct's bytes (bits: 8
                                 times that); others: bits / 8              */
} ws_param_type;
WS_API ws_status ws_kernel_param_type(const ws_kernel *k, uint32_t i, ws_param_type *out);

/* ---- Launch and synchronisation ---- */
WS_API ws_status ws_launch(ws_device *dev, ws_kernel *k, ws_dim3 grid, ws_dim3 block,
                           uint32_t dynamic_shared, const ws_arg *args, size_t nargs);
WS_API ws_status ws_synchronize(ws_device *dev);
/* Fences: ws_fence records a point in the queue; ws_fence_wait runs the queue
 * until that point. */
WS_API ws_status ws_fence(ws_device *dev, uint64_t *fence_id);
WS_API ws_status ws_fence_wait(ws_device *dev, uint64_t fence_id);
/* Statistics of the most recently completed launch. */
WS_API ws_status ws_last_launch_stats(const ws_device *dev, ws_launch_stats *out);
/* The id the next launch gets (its statistics' launch_id, ws_launch_id() in
 * its kernel): compute launches are numbered from 1 as they are queued,
 * shader launches as their draws run. A capture records it, so a replayed
 * frame's launches keep their ids. */
WS_API ws_status ws_next_launch_id(ws_device *dev, uint64_t *out);

/* ---- Timing-mode counters (docs/timing.md) ---- */
/* Functional units of the timing model; indexes ws_timing_counters.unit_busy. */
typedef enum ws_unit_kind {
    WS_UNIT_INT = 0, WS_UNIT_MUL, WS_UNIT_DIV, WS_UNIT_FP, WS_UNIT_FDIV,
    WS_UNIT_MIO,    /* shared memory, shuffles, CSRs, environment calls */
    WS_UNIT_LSU,    /* global and local (stack) memory                  */
    WS_UNIT_COUNT
} ws_unit_kind;
#define WS_WARP_STATE_COUNT 16  /* states of src/device/warp_state.h */

/* Exact counters of the most recent timing-mode launch. */
typedef struct ws_timing_counters {
    uint64_t launch_id;
    uint64_t cycles;
    double   ipc;                  /* warp_instructions / cycles (whole device) */
    uint64_t warp_instructions;
    uint64_t thread_instructions;
    double   simt_efficiency;      /* thread_instr / (warp_instr * lanes)      */
    double   achieved_occupancy;   /* resident_warp_cycles / (cycles * cores * warps_per_core) */
    uint64_t resident_warp_cycles; /* sum over cycles of resident warps        */
    uint64_t gmem_requests;        /* warp-level global/local memory instructions */
    uint64_t gmem_sectors;         /* 32-byte sectors those requests touched   */
    double   sectors_per_request;
    uint64_t shared_requests;      /* warp-level shared-memory instructions    */
    uint64_t shared_bank_conflicts;/* sum over requests of (passes - 1)        */
    uint64_t unit_busy[WS_UNIT_COUNT]; /* cycles each unit kind was occupied, summed over its instances */
    uint64_t state_cycles[WS_WARP_STATE_COUNT]; /* warp-cycles per warp state */
    uint32_t unit_instances[WS_UNIT_COUNT]; /* instances of each unit kind on the
                                    device (ALU pipes: cores * schedulers; MIO,
                                    LSU: cores): busy / (cycles * instances)
                                    is the utilisation                       */
} ws_timing_counters;

/* Counters of the most recent launch; WS_ERR_NOT_FOUND if no launch ran in
 * timing mode yet. */
WS_API ws_status ws_last_launch_counters(const ws_device *dev, ws_timing_counters *out);
/* Name of warp state s ("long_scoreboard"), of unit u ("lsu"); "?" if out of range. */
WS_API const char *ws_warp_state_label(unsigned s);
WS_API const char *ws_unit_label(unsigned u);

#ifdef __cplusplus
}
#endif
#endif
