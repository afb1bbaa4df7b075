/* Inside the tracer: options, the instrumented twins of each module, and
 * the launches traced so far. */
#ifndef WS_INSTRUMENT_TRACER_INT_H
#define WS_INSTRUMENT_TRACER_INT_H
#include <stdio.h>
#include "instrument/rewrite.h"
#include "runtime/line_map.h"
#include "runtime/runtime.h"
#include "warpscope/tool.h"
#include "warpscope/trace.h"

typedef enum tr_tool { TR_BBCOUNT, TR_MEMTRACE, TR_DUMP, TR_BRANCH, TR_RACECHECK, TR_CUSTOM } tr_tool;

typedef struct tr_options {
    tr_tool tool;
    char *out, *report, *kernel;
    uint64_t launch;              /* 0: every launch */
    char *launches;               /* launches=FILE: the program's launch counter, shared by
                                     its devices, so launch=N is the program's Nth launch
                                     (without it each device counts its own) */
    uint32_t device;              /* device=D: trace only the program's Dth device (0: all) */
    char *devices;                /* devices=FILE: the program's device counter, which numbers
                                     its devices in the order they open (without it, in the
                                     order they close) */
    uint32_t short_by;            /* tests: first recording pass's buffers this many records short */
    int values;                   /* memory records carry store values */
    int wide_counts;              /* counters=64: always count with 64-bit counters */
    int join;                     /* join=1: a device closing after another adds its
                                     launches to the `out` file that one wrote */
    int host_time;                /* time=1: each launch's host seconds to stderr (never
                                     into the report, which stays deterministic) */
} tr_options;

typedef struct tr_twin {
    const struct ws_module *orig;
    struct ws_module *count, *record;
    wsi_module_info cinfo, rinfo;
    struct ws_module *count_wide; /* counting with carries: built when first needed */
    wsi_module_info wcinfo;
    unsigned flags;               /* WSI_WARPS if the twins keep warp records */
    ws_line_map *lines;           /* of the original module (with its function symbols) */
    char *name;                   /* the original's name, kept for reports after it unloads */
    uint8_t *text;                /* its code, copied when it unloads (reports walk it) */
    uint32_t text_lo, text_size;  /* link addresses of that copy */
    char *error;                  /* why it could not be instrumented */
} tr_twin;

typedef struct tr_timing {          /* per traced launch */
    double original, count, record; /* host seconds of each run */
    size_t twin;                    /* the launch's module: index into twins (a name
                                       may be two modules': loaded twice, or named so) */
} tr_timing;

typedef struct tracer {
    ws_device *dev;
    ws_tool self;                 /* the table attached: a custom tool's under its own name,
                                     which messages about it give ("tracer" otherwise) */
    tr_options opt;
    tr_twin *twins;
    size_t ntwins, twincap;
    ws_trace trace;               /* launches traced so far */
    tr_timing *timing;
    uint32_t lanes_per_warp;
    uint64_t launches_seen;
    uint32_t device_number;       /* this device's: from devices=FILE, else set at close */
    int untraced;                 /* device=D names another device: its launches run as they are */
    /* TR_CUSTOM */
    ws_trace_tool custom_tool;
    void *custom_user;
    wsi_custom custom;            /* code points into custom_module */
    uint8_t *custom_module;
} tracer;

int tr_options_parse(const char *text, tr_options *o, char *err, size_t len);
void tr_options_free(tr_options *o);
/* Run one launch, the program's number-th as launch=N counts: counting
 * pass, recording pass (unless bbcount), then the launch itself; append
 * what was traced to t->trace. */
ws_status tr_launch(tracer *t, tr_twin *tw, ws_grid_run *L, uint64_t number, ws_tool_runner *run);
/* A custom tool's records, thread by thread (trace_merge.c). */
int tr_merge_custom(const uint8_t *recs, uint64_t n, uint32_t slot, uint32_t payload, uint32_t total_threads,
                    ws_trace_custom_records *out, char *err, size_t errlen);
void tr_custom_free(ws_trace_custom_records *r);
/* Merge the recording pass's buffers into L's thread-ordered records. */
typedef struct tr_buffers {
    const uint8_t *bb, *mem, *warp;  /* the recording pass's records */
    uint64_t nbb, nmem, nwarp;
} tr_buffers;
int tr_merge(const tr_twin *tw, const struct ws_module *record, ws_trace_launch *L, const tr_buffers *b,
             uint32_t total_threads, uint32_t threads_per_block, char *err, size_t errlen);
/* "file:line" of a link address of tw's original module, or the address
 * and the function holding it. */
void tr_where(const tr_twin *tw, uint32_t addr, char *buf, size_t n);
/* The branch tool's table for one launch (trace_branch.c). */
void tr_report_branches(const tr_twin *tw, const ws_trace_launch *L, FILE *f);
/* The racecheck tool's shared-memory hazards of one launch (trace_race.c). */
void tr_report_races(const tr_twin *tw, const ws_trace_launch *L, FILE *f);
/* The text report of every traced launch (device close): the same
 * program and inputs give the same bytes (no host times in it). */
void tr_report(const tracer *t, FILE *f);
/* Each traced launch's host seconds (time=1, on stderr at device close). */
void tr_report_host_time(const tracer *t, FILE *f);
/* The first halfword of the original's instruction at link address addr
 * (from the module, or the copy kept after it unloaded); 0 if neither has it. */
uint16_t tr_twin_halfword(const tr_twin *tw, uint32_t addr);
/* Thread-instructions the launch's block counts add up to (trace_report.c). */
uint64_t tr_counted_instructions(const ws_trace_launch *L);
/* A report's verdict on a count against the device's: "match" when a ==
 * b, "MISMATCH", or why it was not compared (the launch faulted). */
const char *tr_check(const ws_trace_launch *L, uint64_t a, uint64_t b);
/* bbcount's instruction mix of launch L: by kind (its memory kinds against
 * the device's counters) and by opcode (trace_mix.c). */
void tr_report_mix(const tr_twin *tw, const ws_trace_launch *L, FILE *f);
/* tw's counting twin with 64-bit counters (WSI_WIDE_COUNTS), built on the
 * first call; NULL (with a message in err) if it cannot be. */
struct ws_module *tr_twin_wide(tracer *t, tr_twin *tw, char *err, size_t errlen);

#endif
