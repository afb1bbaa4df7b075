/* Profiler internals shared by its files: options, per-launch sample
 * tables, and the writers. Each file has one job:
 *   prof_options.c    parse the WARPSCOPE_PROFILE text
 *   prof_session.c    attach/detach, event buffer, launch bookkeeping
 *   prof_replay.c     replay passes with memory restored, sample read-back
 *   prof_aggregate.c  records -> per-PC tables, per-kernel merge
 *   prof_callers.c    samples outside the kernel's unit -> their call sites
 *   prof_source.c     PC -> file:line/function/inline chain, source text
 *   prof_report.c     readable report
 *   prof_annotate.c   the source view of one kernel (--source)
 *   prof_limits.c     occupancy and its limiter, core balance, roofline
 *   prof_rules.c      rules that explain a kernel's top problems
 *   prof_drain.c      the exit drain: its share, the stores it waits for
 *   prof_json.c       JSON document
 *   prof_perfetto.c   Chrome/Perfetto trace-event JSON */
#ifndef WS_PROFILE_PROF_INTERNAL_H
#define WS_PROFILE_PROF_INTERNAL_H
#include <stdint.h>
#include <stdio.h>
#include "device/warp_state.h"
#include "device/trace/pc_counters.h"
#include "device/trace/trace_cell.h"
#include "runtime/line_map.h"
#include "runtime/path_text.h"
#include "runtime/source_lines.h"

/* Where inlined code is charged (--inline). */
typedef enum prof_inline {
    PROF_INLINE_CALLER = 0,    /* the line in the function it was inlined into */
    PROF_INLINE_CALLEE         /* its own line (device headers still go up)   */
} prof_inline;

typedef struct prof_options {
    uint32_t period_log2;      /* sample every 2^period_log2 cycles       */
    uint32_t passes;           /* replay passes per launch (>= 1)         */
    ws_trace_mode mode;        /* all warps or round-robin                */
    uint32_t buffer_records;   /* event buffer capacity per pass          */
    prof_inline inline_mode;
    char *json, *trace, *report; /* output files (NULL: not written)     */
    char *source;              /* kernel whose source view the report adds */
    char *devices;             /* the program's device counter (devices=FILE), which
                                  numbers its devices as they open (NULL: as they close) */
} prof_options;

/* Parse "period=10,passes=4,mode=rr,inline=callee,json=F,trace=F,report=F,buffer=N".
 * Returns 0, or -1 with a message naming the bad item. */
int prof_options_parse(const char *text, prof_options *o, char *err, size_t len);
void prof_options_free(prof_options *o);

/* Small helpers the writers share (prof_aggregate.c): a / b in percent (0
 * when b is 0) and the warp-cycles of instruction counters summed over
 * the states. (File names: ws_path_base, runtime/path_text.h.) */
double prof_pct(uint64_t a, uint64_t b);
uint64_t prof_exact_cycles(const ws_pc_counter *e);

/* "selected", "long_scoreboard", ...: Nsight Compute's spelling. */
const char *prof_state_name(unsigned state);

/* Source position of one PC, strings owned by the launch table. */
typedef struct prof_src {
    char *file;                /* NULL if unknown                         */
    uint32_t line;
    char *function;            /* innermost function                      */
    char *inline_chain;        /* "f <- g (file.c:12) <- ..." or NULL     */
} prof_src;

/* One function a call site reached, and the samples spent in it. */
#define PROF_CALLEES 4
typedef struct prof_callee {
    char name[32];
    uint64_t samples;
} prof_callee;

/* Samples of one PC. */
typedef struct prof_pc {
    uint32_t pc;               /* device address                          */
    uint64_t samples;
    uint64_t state[WS_STATE_COUNT];
    /* Scoreboard stalls: the instruction most often waited on, by the
     * long_scoreboard and short_scoreboard samples if there are any
     * (producer_memory = 1), else by the `wait` ones (an ALU result). */
    uint32_t producer_pc;
    uint64_t producer_samples;
    int producer_memory;
    char disasm[64];
    uint16_t op;               /* the instruction decoded (ws_op; 0 OP_ILLEGAL if
                                  not read): the instruction mix's         */
    prof_src src;
    prof_src producer_src;
    char producer_disasm[64];
    /* The register this instruction waits on is one it only overwrites
     * (write after write: it does not read the producer's result, as the
     * next `atomicAdd(&x, 1);` of a loop whose old values are unused). */
    int producer_waw;
    /* Exact counts of the timing model's instruction counters (first pass
     * of each launch; zero where a launch ran without them). */
    ws_pc_counter exact;
    /* A call site (prof_launch.calls): the functions it called, as their
     * symbols name them ("" unknown), most samples first (then by name):
     * a call through a pointer reaches several. */
    prof_callee callees[PROF_CALLEES];
    uint32_t ncallees;
    uint64_t other_callee_samples; /* of the callees past PROF_CALLEES        */
    int outside_unit;          /* outside the kernel's compile unit (library
                                  code, another file's function): its samples
                                  are charged to a call site too            */
} prof_pc;
/* Count n samples of callee `name` at call site p (kept sorted, the
 * samples of callees beyond PROF_CALLEES counted together). */
void prof_callee_add(prof_pc *p, const char *name, uint64_t n);

#define PROF_UNITS 7
/* Exact counters of one launch (from the timing model when present). */
typedef struct prof_counters {
    int valid;
    uint64_t cycles;
    uint64_t warp_instructions, thread_instructions;
    double ipc, simt_efficiency, occupancy;
    uint64_t mem_requests, mem_sectors, shared_requests, bank_conflicts;
    double sectors_per_request;
    uint64_t unit_busy[PROF_UNITS];   /* cycles occupied, summed over instances */
    uint32_t unit_instances[PROF_UNITS]; /* of each unit kind on the device     */
    uint64_t state_cycles[WS_STATE_COUNT]; /* exact warp-cycles per state     */
} prof_counters;
const char *prof_unit_name(unsigned u); /* "int", "mul", ... "lsu" */

/* What bounds a launch (prof_limits.c): occupancy and its limiter, core
 * balance, an instruction roofline point. */
typedef struct prof_limits {
    int valid;
    uint32_t warps_per_block, blocks_per_core;   /* resident blocks the limits allow (on the busiest core) */
    uint64_t total_blocks;                       /* of the launch                    */
    uint32_t cores;
    uint32_t limit_warps, limit_shared;          /* blocks per core each resource allows (0: none) */
    const char *limiter;                         /* "warp slots", "shared memory", "grid size" */
    double theoretical_occupancy, achieved_occupancy;
    uint64_t core_min, core_max;                 /* warp-instructions per core */
    double core_imbalance;                       /* busiest core / mean        */
    double ipc, peak_ipc;                        /* warp-instructions per cycle */
    double sectors_per_cycle, peak_sectors_per_cycle; /* peak 0: no limit (sector_cycles = 0) */
    double intensity, ridge;                     /* warp-instructions per sector (ridge 0: none) */
    const char *bound;
    const char *bound_unit;                      /* "fp", "mio", ...: the unit whose use set the
                                                    bound, NULL when the issue or sector rate did */
    double bound_unit_use;                       /* its busy cycles / (cycles x instances) */
    uint32_t global_latency, sector_cycles;      /* the timing model's, as the rules quote them */
} prof_limits;
struct ws_device;
struct ws_grid_run;
void prof_limits_fill(prof_limits *o, const struct ws_device *dev, const struct ws_grid_run *L, const prof_counters *c);
void prof_limits_text(FILE *f, const prof_limits *o);
void prof_limits_json(FILE *f, const prof_limits *o);
/* s as a JSON string (quoted, escaped, valid UTF-8 whatever its bytes);
 * NULL as null. */
void prof_json_string(FILE *f, const char *s);
/* A launch's fault, kept field by field so the report and JSON can name
 * each part (the device's ws_fault, plus its source line). */
typedef struct prof_fault {
    const char *kind;          /* "load access fault", ...; NULL: no fault */
    int has_lane;              /* address/block/thread mean something      */
    uint32_t pc, addr, size;
    ws_dim3 block, thread;
    uint32_t core, warp, lane;
    char detail[256];
    char disasm[64];
    prof_src src;
} prof_fault;

/* One sample of a warp that did not wait at a barrier while warps of its
 * block did (same sample, same block): the barrier they waited at, and
 * where this warp was. Summed: how often the late warps of a block were
 * at pc while the others waited at barrier_pc. */
typedef struct prof_peer {
    uint32_t barrier_pc;       /* the bar the waiting warps issued           */
    uint32_t pc;               /* the late warp's next instruction           */
    uint64_t samples;
} prof_peer;

/* How the records of one sampling point (one cycle: every resident warp
 * of every core) vary together, per state: with m_i records at point i,
 * y_i of them in the state, the sums below. A point's records are not
 * independent draws (a full MIO queue throttles all warps of a core at
 * once), so a share's standard error takes the point as the unit
 * (prof_share_error). Integer sums: additive over launches, exact. */
typedef struct prof_spread {
    uint64_t points;                 /* k                                */
    uint64_t mm;                     /* Σ m_i²                            */
    uint64_t ym[WS_STATE_COUNT];     /* Σ y_i m_i                         */
    uint64_t yy[WS_STATE_COUNT];     /* Σ y_i²                            */
} prof_spread;
/* The spread of records (any order) over their sampling points. 0 or -1. */
int prof_point_spread(const ws_trace_record *rec, size_t n, prof_spread *out);
void prof_spread_add(prof_spread *acc, const prof_spread *add);
/* The standard error of a state's sampled share y/m (y of m records), the
 * ratio estimator's over k points: sqrt(k/(k-1) Σ (y_i - p m_i)²) / m,
 * p = y/m; 0 with fewer than 2 points. */
double prof_share_error(const prof_spread *s, unsigned state, uint64_t y, uint64_t m);

/* A sample outside the kernel's compile unit, unwound to its call site. */
typedef struct prof_callrec {
    uint64_t cycle;
    uint16_t core, warp;
    uint32_t call;             /* the call instruction, in the kernel's unit */
    char callee[32];
} prof_callrec;
/* How often a call site's samples were at one instruction outside the
 * kernel's unit: which of the kernel's calls led to a library line. */
typedef struct prof_reach {
    uint32_t call;             /* the call instruction, in the kernel's unit */
    uint32_t pc;               /* the sampled instruction it led to        */
    uint64_t samples;
} prof_reach;
/* Add the pairs of another launch of the same kernel (both summed and
 * sorted by call, then pc). 0 or -1 (out of memory). */
int prof_reach_merge(prof_reach **acc, size_t *nacc, const prof_reach *add, size_t nadd);
/* Sort n pairs and add up equal ones in place; returns the new count. */
size_t prof_reach_fold(prof_reach *r, size_t n);
/* The call sites of one launch's samples (prof_callers.c). */
#define PROF_UNIT_SPANS 16
typedef struct prof_callers {
    ws_code_span spans[PROF_UNIT_SPANS]; /* the kernel's compile unit  */
    size_t nspans;
    prof_callrec *pass;        /* this pass's, as the cells took them      */
    size_t npass, passcap;
    ws_trace_record *sites;    /* matched records, pc: the call site       */
    size_t nsites, sitecap;
    prof_callrec *names;       /* one per call site and callee: its samples */
    uint64_t *name_samples;    /* (of names[i])                             */
    size_t nnames;
    prof_reach *reach;         /* one per matched sample until folded      */
    size_t nreach, reachcap;
    ws_source_cache *cache;    /* the modules the unwinder keeps open (the
                                  launch's: its modules stay loaded)      */
    int failed;                /* out of host memory during a pass         */
} prof_callers;
struct ws_device;
/* Watch the samples of the next pass (the cells configured): the spans of
 * the unit holding the kernel's entry, on the first call. */
ws_status prof_callers_arm(struct ws_device *dev, prof_callers *c, uint32_t entry);
/* After a pass: its records (any order) that have a call site join the
 * sites. 0 or -1 (out of memory). */
int prof_callers_match(prof_callers *c, const ws_trace_record *rec, size_t n);
/* The sites as a PC table (sorted, callee named). 0 or -1. */
int prof_callers_table(const prof_callers *c, prof_pc **out, size_t *nout);
/* The sites' (call, sampled pc) pairs, summed and sorted, handed to the
 * caller (c keeps none). */
void prof_callers_reach(prof_callers *c, prof_reach **out, size_t *nout);
void prof_callers_free(prof_callers *c);
/* Mark the PCs outside the kernel's compile unit (prof_pc.outside_unit);
 * none when the unit is not known. */
void prof_callers_mark_outside(const prof_callers *c, prof_pc *p, size_t n);

typedef struct prof_launch {
    uint64_t id;
    char *kernel, *module;
    const char *stage;         /* "vertex" or "fragment" for a shader launch
                                  of the graphics pipeline, NULL for kernels */
    uint32_t draw;             /* ... and its draw                         */
    /* a parameter passed by value that the lanes read from their stacks (a
     * struct of more than 8 bytes: each lane's own copy), "" if none:
     * "'p' (struct big, 32 bytes)" */
    char stack_param[160];
    ws_dim3 grid, block;
    uint32_t passes;
    uint64_t cycles;           /* of one pass                              */
    uint64_t samples, dropped;
    uint64_t overflowed;       /* of dropped: left out by the FIFO's policy */
    uint64_t sample_points;    /* distinct cycles sampled (passes add more) */
    prof_spread spread;        /* the states' spread over those points    */
    prof_counters counters;
    prof_limits limits;
    ws_launch_stats stats;
    ws_status status;          /* the launch's own result                  */
    char error[1024];          /* the launch's fault report, or a profiler
                                  problem (e.g. cycles differ)            */
    prof_fault fault;          /* kind == NULL: the launch did not fault   */
    prof_pc *pcs;              /* sorted by pc                             */
    size_t npcs;
    ws_trace_record *records;  /* all passes, for the timeline             */
    prof_peer *peers;          /* what the block's other warps ran while
                                  some waited at a barrier (sorted)        */
    size_t npeers;
    size_t nrecords;
    prof_pc *exact;            /* instruction counters of the first pass,
                                  until finish_launch merges them into pcs */
    size_t nexact;
    prof_pc *calls;            /* call sites in the kernel's compile unit of
                                  the samples outside it (sorted by pc)    */
    size_t ncalls;
    prof_reach *reach;         /* where those samples were, per call site  */
    size_t nreach;
} prof_launch;

/* Group the records of one launch by PC (records are not modified).
 * Returns 0 or -1 (out of memory). */
int prof_aggregate(const ws_trace_record *rec, size_t n, prof_pc **out, size_t *nout);
/* The barrier peers of one launch's records (barrier samples already
 * charged to the bar): per sample and block that has warps in `barrier`
 * and warps in other states, one count per other warp and barrier. Sorted
 * by (barrier_pc, pc). Returns 0 or -1 (out of memory). */
int prof_barrier_peers(const ws_trace_record *rec, size_t n, prof_peer **out, size_t *nout);
/* Add the peers of another launch of the same kernel (both sorted). */
int prof_peers_merge(prof_peer **acc, size_t *nacc, const prof_peer *add, size_t nadd);
/* Merge the PC tables of launches of one kernel (same module placement). */
int prof_merge(prof_pc **acc, size_t *nacc, const prof_pc *add, size_t nadd);
void prof_pcs_free(prof_pc *p, size_t n);
/* The instruction counters' non-zero entries as PC records (sorted, no
 * samples); the counters outside the module go to WS_RETIRE_ADDR, the exit
 * stub where retired warps drain. Returns 0 or -1 (out of memory). */
int prof_exact_table(const ws_pc_counters *c, prof_pc **out, size_t *nout);
/* Add counters to counters. */
void prof_exact_add(ws_pc_counter *acc, const ws_pc_counter *add);
void prof_src_free(prof_src *s);
int prof_src_copy(prof_src *dst, const prof_src *src);

/* Fill src/disasm of each PC (and its producer) from the module's line
 * map. `base`/`link_base` translate device addresses to link addresses;
 * `code` is the module image as loaded (for disassembly); `outer` names
 * the function when a PC is charged to its kernel's own line. */
void prof_correlate(prof_pc *p, size_t n, const ws_line_map *map, uint32_t base,
                    uint32_t link_base, const uint8_t *code, uint32_t code_size, const char *outer,
                    prof_inline mode);
/* The same for a fault's PC (its line, function and instruction). */
void prof_correlate_fault(prof_fault *f, const ws_line_map *map, uint32_t base, uint32_t link_base,
                          const uint8_t *code, uint32_t code_size, const char *outer, prof_inline mode);

/* "no line information", with the function holding the code when its
 * symbol is known ("no line information, in FUNCTION"). */
void prof_no_line_text(const char *function, char *buf, size_t len);

/* One source line of text (without newline) into buf; -1 if unavailable.
 * Files are re-read per call: reports touch few lines. */
int prof_source_line(const char *file, uint32_t line, char *buf, size_t len);

/* Everything the writers need: the launches of one device. */
typedef struct prof_data {
    const prof_options *opt;
    const ws_config *cfg;
    prof_launch *launches;
    size_t nlaunches;
    uint32_t device_index;     /* the device's number - 1 (docs/profiling.md) */
} prof_data;

/* Per-kernel view built from the launches (sorted by samples, then name). */
typedef struct prof_kernel {
    const char *kernel, *module;
    uint64_t samples, cycles, dropped, overflowed;
    uint32_t launches;
    uint64_t state[WS_STATE_COUNT];
    prof_spread spread;        /* over the launches' sampling points      */
    uint64_t block_threads;    /* Σ over launches of blocks x threads per block */
    uint64_t block_lanes;      /* ... x lanes of the warps they occupy          */
    uint32_t block_size;       /* threads per block, 0 if launches differ    */
    const char *stage;         /* "vertex" or "fragment" for a shader, else NULL */
    const char *stack_param;   /* its launches' prof_launch.stack_param    */
    prof_pc *pcs;
    size_t npcs;
    prof_peer *peers;          /* the launches' barrier peers, merged      */
    size_t npeers;
    prof_pc *calls;            /* the launches' call sites, merged          */
    size_t ncalls;
    prof_reach *reach;         /* the launches' (call, sampled pc) pairs, merged */
    size_t nreach;
    /* Unit occupancy over the launches that have exact counters: cycles
     * busy, and cycles x instances (busy / capacity = utilisation). */
    uint64_t unit_busy[PROF_UNITS], unit_capacity[PROF_UNITS];
    /* Occupancy over the same launches, weighted by their cycles: Σ cycles
     * x theoretical, Σ cycles x achieved, and Σ cycles. */
    double occ_theoretical, occ_achieved;
    uint64_t occ_cycles;
    /* The timing model's global_latency and sector_cycles (its first launch
     * with exact counters; one device: its launches share them), 0: none. */
    uint32_t global_latency, sector_cycles;
} prof_kernel;
int prof_kernels_build(const prof_data *d, prof_kernel **out, size_t *n);
/* A kernel's instruction mix from its exact instruction counters (per PC,
 * over lanes), as the tracer's is from its block counts (prof_mix.c): by
 * kind (ws_mix_kind) and by opcode, most run first. */
#define PROF_MIX_OPS 160
typedef struct prof_mix_op { uint16_t op; uint64_t n; } prof_mix_op;
typedef struct prof_mix {
    uint64_t total, kinds[8];  /* by ws_mix_kind (isa.h), 7 of them */
    size_t nops;
    prof_mix_op ops[PROF_MIX_OPS];
} prof_mix;
void prof_mix_build(const prof_kernel *k, prof_mix *m);
/* "  instruction mix (exact, over lanes): ...; most run: ..." (nothing
 * when the launches ran without exact counters). */
void prof_mix_text(FILE *f, const prof_mix *m);
/* {"lane_instructions": N, "kinds": {...}, "opcodes": [...]} */
void prof_mix_json(FILE *f, const prof_mix *m);
void prof_kernels_free(prof_kernel *k, size_t n);
/* The largest standard error of the kernel's sampled state shares, as
 * the agreement bound counts them: per state the larger of its per-point
 * error (prof_share_error) and the binomial error, here at its largest,
 * 0.5/sqrt(n) for n samples. 1 when there are no samples. */
double prof_kernel_share_error(const prof_kernel *k);

/* Source lines of a kernel: PCs grouped by file:line. */
typedef struct prof_line {
    const char *file, *function;
    uint32_t line;
    uint64_t samples;
    uint64_t state[WS_STATE_COUNT];
    const prof_pc *top_producer_pc; /* PC carrying the main scoreboard wait */
    uint64_t producer_samples;
    const prof_pc *second_producer_pc; /* the next one, waiting on another producer */
    uint64_t second_samples;
    ws_pc_counter exact;       /* the instruction counters of its PCs       */
} prof_line;
int prof_lines_build(const prof_pc *p, size_t n, prof_line **out, size_t *nout);
/* The functions call site c reached: "memset", or through a pointer each
 * with its share of the site's samples, "op_a 75.0%, op_b 25.0%"
 * (prof_report.c). */
void prof_callees_text(const prof_pc *c, char *buf, size_t len);
/* Of the extra shared wavefronts the device counts as bank conflicts
 * (passes - 1 per request), those of atomics, whose lanes take turns
 * even on one word (by the PCs' exact counters and disassembly). */
uint64_t prof_atomic_turns(const prof_pc *p, size_t n);
/* "load", "store", "atomic", "CSR read", "shuffle", "vote" or
 * "instruction", from an instruction's disassembly (prof_report.c). */
const char *prof_inst_kind(const char *disasm);
/* The target of a conditional branch from its disassembly ("bnez a1,
 * 0x1000032": device addresses), and with_jumps of a `j` too; 0 when it
 * is none (prof_line0.c). */
uint32_t prof_branch_target(const char *disasm, int with_jumps);
/* The source lines (ascending, at most max; *more when there are others)
 * from which the code without a line at PCs from[0..nfrom) of kernel k is
 * reached: branches and jumps into it, the instruction before it, traced
 * back through code without a line (prof_line0.c). */
size_t prof_line0_origins(const prof_kernel *k, const uint32_t *from, size_t nfrom, uint32_t *lines, size_t max,
                          int *more);
/* Those lines as text: "reached from lines 30 and 31", or "" for none. */
void prof_line0_format(const uint32_t *lines, size_t n, int more, char *buf, size_t len);
/* The origins of line l's code without a line (a line 0 of k's), by its
 * sampled PCs, else by those that ran: what the report and JSON name. */
size_t prof_line0_line_origins(const prof_kernel *k, const prof_line *l, uint32_t *lines, size_t max, int *more);
/* Whether PC p belongs to line l (line 0: of the same function too). */
int prof_line_has(const prof_line *l, const prof_pc *p);
/* Whether l is the exit stub's row (WS_RETIRE_ADDR): warps whose lanes
 * returned, waiting for their last stores and atomics (drain). */
int prof_line_is_exit(const prof_line *l);
/* The warp-cycles of the kernel's lines other than the exit stub's: what
 * the rules' shares are of (the drain is on no line of its source). */
uint64_t prof_lines_cycles(const prof_line *l, size_t n);

/* The exit drain (prof_drain.c): the warp-cycles of the exit stub's row
 * and of all of the kernel's rows; and the stores and atomics whose
 * completion the warps' drains waited for last (the instruction
 * counters' exit_drains), for most warps first, at most max of them. */
/* the share of the kernel's warp-cycles from which the report names the drain */
#define PROF_DRAIN_NOTE 0.02
void prof_drain_figures(const prof_line *lines, size_t nl, uint64_t *drain, uint64_t *all);
size_t prof_drain_stores(const prof_kernel *k, const prof_pc **out, size_t max);

/* A rule that fired on a line (prof_rules.c): which, the metric, and the
 * explanation. */
typedef struct prof_rule {
    const char *id;            /* "bank_conflicts", "shared_atomics", "divergence", "partial_warps",
                                  "uncoalesced", "latency", "atomics", "local_memory",
                                  "barrier_imbalance", "bandwidth", "mio_latency", "pipe", "dependency" */
    const char *file;          /* owned by the kernel's PC table           */
    uint32_t line;
    double metric;             /* wavefronts/request, SIMT efficiency, sectors/request, wait share,
                                  the share of its lines' warp-cycles at a barrier, the throttle share
                                  of the line's waits (bandwidth) */
    uint64_t weight;           /* the line's exact warp-cycles             */
    char cause[160];           /* what the text blames, beyond the rule: lines with
                                  the same rule and cause are one entry, across the
                                  kernel's files (an inlined header's lines too) */
    size_t body;               /* where the text's explanation starts (after "file:line: ") */
    /* the entry's lines, heaviest first: lines[0] is line, with the metric and weight above */
#define PROF_RULE_LINES 8
    uint32_t lines[PROF_RULE_LINES];
    const char *line_file[PROF_RULE_LINES]; /* each line's file (file, for lines[0]) */
    double line_metric[PROF_RULE_LINES];
    uint64_t line_weight[PROF_RULE_LINES];
    size_t nlines, more_lines; /* lines kept; lines past PROF_RULE_LINES */
    int outside_unit;          /* its lines are outside the kernel's compile unit:
                                  the text names the kernel's calls into them */
    char text[1200];          /* "file.c:42: bank conflicts: ...", "file.c:42, 40 and 47: bandwidth:
                                  ... (figures of line 42, the heaviest)" */
} prof_rule;
/* The rules that fire on kernel k, heaviest line first; a rule with the
 * same cause on several lines, in one file or several, is one entry. 0 or -1. */
int prof_rules_build(const prof_kernel *k, uint32_t lanes, prof_rule **out, size_t *n);

/* Writers. Each returns 0, or -1 with a message. */
int prof_report_write(FILE *f, const prof_data *d);
/* The source view of kernel opt->source (nothing when it is NULL). */
int prof_annotate_write(FILE *f, const prof_data *d);
int prof_json_write(FILE *f, const prof_data *d);
int prof_perfetto_write(FILE *f, const prof_data *d, uint32_t device_index);

/* The dominant non-selected state of a set of counts, or -1. */
int prof_top_stall(const uint64_t state[WS_STATE_COUNT]);

#endif
