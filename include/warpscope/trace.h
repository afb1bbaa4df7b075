/* Warpscope instrumentation traces: what `warpscope trace` records, and the
 * reader of its files (docs/tracing.md describes the method and the
 * versioned file format). A trace holds, per launch, the kernel's basic
 * blocks and memory instructions, how many lanes ran each block, and —
 * unless only counts were asked for — every thread's blocks in program
 * order with the memory accesses of each block execution inside it. */
#ifndef WARPSCOPE_TRACE_H
#define WARPSCOPE_TRACE_H
#include "warpscope.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WS_TRACE_FILE_VERSION 4 /* the reader also reads versions 1 to 3 */

enum {
    WS_TRACE_COMPLETE = 1,    /* every record of every lane is present         */
    WS_TRACE_FAULTED = 2,     /* the launch faulted: records up to the fault    */
    WS_TRACE_OVERFLOWED = 4,  /* the recording pass found a buffer too small
                                 (control flow differed from the counting pass);
                                 the records were measured again and re-run   */
    WS_TRACE_COUNTS_ONLY = 8, /* only block counts were asked for (bbcount)    */
    WS_TRACE_RESULTS_DIFFER = 16, /* the instrumented run left different global
                                 memory than the launch (a race, or a bug)  */
    WS_TRACE_WARPS = 32,      /* per-warp records are present               */
    WS_TRACE_NO_BLOCKS = 64,  /* accesses only (memtrace): each thread's accesses
                                 in program order, without block records    */
    WS_TRACE_VALUES = 128,    /* stores and atomics carry the value written
                                 (the whole register; the low `size` bytes
                                 are stored)                                */
    WS_TRACE_NO_ROOM = 256    /* the recording pass did not run: its buffers
                                 did not fit in device memory (the note says
                                 how many bytes, and how to make room); the
                                 block counts are there, no records        */
};

typedef enum ws_trace_mem_kind { WS_TRACE_LOAD = 1, WS_TRACE_STORE = 2, WS_TRACE_ATOMIC = 3 } ws_trace_mem_kind;

typedef struct ws_trace_block {
    uint32_t addr;        /* link address of its first instruction (original module) */
    uint32_t ninst;       /* instructions in it                      */
    uint32_t nmem;        /* memory instructions in it               */
    uint32_t first_mem;   /* index of the first in mem_insts         */
    int32_t taken, fall;  /* ends in a conditional branch: the block it goes
                             to when taken / not taken (-1: none)      */
    uint32_t last;        /* link address of its last instruction    */
} ws_trace_block;

typedef struct ws_trace_mem_inst {
    uint32_t addr;        /* link address of the instruction         */
    uint32_t block;
    uint8_t kind;         /* ws_trace_mem_kind                       */
    uint8_t size;         /* bytes per lane                          */
} ws_trace_mem_inst;

typedef struct ws_trace_thread {
    uint32_t gid;         /* global linear thread id: block linear id *
                             threads per block + thread linear id      */
    uint32_t nblocks;     /* block executions                        */
    uint64_t first_block; /* index into bb                           */
    uint64_t first_mem;   /* index into mem                          */
    uint32_t nmem;
} ws_trace_thread;

typedef struct ws_trace_access {
    uint32_t inst;        /* index into mem_insts                    */
    uint32_t addr;        /* the address accessed                    */
} ws_trace_access;

/* One block entry by one warp: the lanes that entered together. */
typedef struct ws_trace_warp_exec {
    uint32_t warp;        /* global warp id: block linear id * warps per block + warp in block */
    uint32_t mask;        /* active lanes                            */
    uint32_t block;
} ws_trace_warp_exec;

typedef struct ws_trace_launch {
    char *kernel, *module;
    uint64_t launch_id;
    ws_dim3 grid, block;
    uint32_t flags;               /* WS_TRACE_* */
    char *note;                   /* the fault report, or what went wrong ("" if nothing) */
    uint32_t nblocks;
    ws_trace_block *blocks;
    uint32_t nmem_insts;
    ws_trace_mem_inst *mem_insts;
    uint64_t *counts;             /* lane executions of each block           */
    uint32_t nthreads;            /* threads with records, by gid            */
    ws_trace_thread *threads;
    uint64_t nbb;
    uint32_t *bb;                 /* block ids, thread by thread, in order   */
    uint64_t nmem;
    ws_trace_access *mem;         /* accesses, thread by thread, in order    */
    uint32_t *values;             /* WS_TRACE_VALUES: per access, the value
                                     register of a store or atomic (0 for loads) */
    uint64_t *warp_counts;        /* WS_TRACE_WARPS: warp executions of each block */
    uint64_t nwarp;
    ws_trace_warp_exec *warps;    /* warp records, warp by warp, in order    */
    uint32_t lanes_per_warp;
    /* the device's own counters for the launch (uninstrumented run) */
    uint64_t device_thread_instructions, device_loads, device_stores, device_atomics;
    uint64_t results_checked;     /* bytes of global memory compared between the
                                     instrumented run and the launch (0: not compared) */
    uint32_t device;              /* the device that ran it: 1 for the first device
                                     the program opened, 2 for the next... (under
                                     `warpscope trace`; with WARPSCOPE_TRACE set by
                                     hand without devices=, in the order they close);
                                     0: not known (a version 1 file; in a custom
                                     tool's callback, the number the tool gave
                                     ws_trace_tool.device, else 0) */
    uint64_t launch_number;       /* the number WARPSCOPE_TRACE's launch=N (`warpscope
                                     trace --launch N`) matches it by: under
                                     `warpscope trace`, the program's Nth launch over
                                     all its devices; without a launches= counter,
                                     the device's Nth. 0: not known (a version 1 or
                                     2 file) */
    uint32_t stage;               /* what ran: WS_TRACE_STAGE_* (a compute kernel in
                                     files before version 4) */
    uint32_t draw;                /* a shader's draw, in its device's order (as the
                                     profiler and the frame debugger number them);
                                     0 for a compute kernel */
} ws_trace_launch;

/* ws_trace_launch.stage */
enum { WS_TRACE_STAGE_COMPUTE = 0, WS_TRACE_STAGE_VERTEX = 1, WS_TRACE_STAGE_FRAGMENT = 2 };

typedef struct ws_trace {
    uint32_t nlaunches;
    ws_trace_launch *launches;
    uint32_t ndevices;            /* devices that wrote the file, also those that
                                     traced no launch; numbered as they opened, the
                                     highest number among them (0: not known, version 1) */
} ws_trace;

/* ---- Custom tools (the NVBit use case) ----
 * A tool chooses where the tracer calls its device function, supplies the
 * function (compiled by `warpscope cc` into a module of its own), and gets
 * every call's record back on the host, merged thread by thread in program
 * order, after each traced launch. The function is copied into the
 * instrumented kernels, so it must be self-contained: no global data, no
 * calls (static inline helpers are fine), no gp/tp. Its signature:
 *   void f(uint32_t site, uint32_t addr, void *record, uint32_t gid);
 * With nb = launch->nblocks and nm = launch->nmem_insts, site and addr are:
 *   block entry:            site = block id            addr = 0
 *   before a memory inst m: site = nb + m              addr = the address
 *   after a load m:         site = nb + nm + m         addr = the value loaded
 *                                                      (float: its bits)
 *   before the conditional branch ending block b:
 *                           site = nb + 2 * nm + b     addr = 1 if this lane
 *                                                      takes it, else 0
 * record: record_size bytes to fill; gid: the global linear thread id. */
#define WS_TRACE_TOOL_VERSION 2 /* 1: as 2 without `device` */
enum {
    WS_TRACE_AT_BLOCK_ENTRY = 1,
    WS_TRACE_BEFORE_LOAD = 2,
    WS_TRACE_BEFORE_STORE = 4,
    WS_TRACE_BEFORE_ATOMIC = 8,
    WS_TRACE_AFTER_LOAD = 16,
    WS_TRACE_BEFORE_BRANCH = 32
};

typedef struct ws_trace_custom_records {
    uint64_t n;
    uint32_t record_size;      /* payload bytes per record                        */
    const uint32_t *gid;       /* n entries: thread by thread, each in program order */
    const uint32_t *site;
    const uint8_t *payload;    /* n * record_size bytes, in the same order         */
} ws_trace_custom_records;

typedef struct ws_trace_tool {
    int version;               /* WS_TRACE_TOOL_VERSION */
    const char *name;
    unsigned where;            /* WS_TRACE_AT_BLOCK_ENTRY | WS_TRACE_BEFORE_*      */
    const char *device_module; /* the module file holding the device function     */
    const char *device_function;
    uint32_t record_size;      /* 4..56, a multiple of 4                           */
    /* After each traced launch (the launch has run; its counters are filled). */
    void (*records)(void *user, const ws_trace_launch *launch, const ws_trace_custom_records *records);
    const char *kernel;        /* trace only this kernel (NULL: every launch)      */
    /* Version 2: the device's number, which each launch's `device` carries to
     * the callback (0: none). The library numbers no devices itself (a
     * program's devices share no state): a tool attached to several gives
     * each its number, such as 1, 2... in the order the program opens them,
     * as `warpscope trace` numbers them. */
    uint32_t device;
} ws_trace_tool;

/* Attach a custom tool to dev (before loading modules). Errors name the
 * device function and what in it cannot be copied. A device takes one
 * trace tool, and none beside another tool that runs launches itself
 * (WARPSCOPE_TRACE's tracer, the profiler): WS_ERR_BUSY. */
WS_API ws_status ws_trace_tool_attach(ws_device *dev, const ws_trace_tool *tool, void *user);

/* Read a trace file (or a file's bytes). Every count and index is checked:
 * a malformed or truncated file gets a message naming what and where, in
 * err (which may be NULL: the status alone). */
WS_API ws_status ws_trace_read(const char *path, ws_trace **out, char *err, size_t errlen);
WS_API ws_status ws_trace_read_memory(const void *data, size_t size, const char *what, ws_trace **out,
                                      char *err, size_t errlen);
WS_API void ws_trace_free(ws_trace *t);

#ifdef __cplusplus
}
#endif
#endif
