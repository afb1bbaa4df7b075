/* The timing model (mode=timing): a cycle-driven model on top of the
 * functional interpreter. Each warp-instruction executes when it issues
 * (so results are those of functional mode); the model decides *when* it
 * may issue: per-core schedulers, a scoreboard, unit latencies and
 * initiation intervals, shared-memory banks, global-memory sectors and
 * bandwidth, barriers, fences, branch resolution and instruction fetch.
 * docs/timing.md documents every parameter and warp-state rule. */
#ifndef WS_DEVICE_TIMING_H
#define WS_DEVICE_TIMING_H
#include <stddef.h>
#include <stdint.h>
#include "device/device.h"
#include "device/warp_state.h"

typedef struct ws_timing ws_timing;

typedef enum ws_sched_policy { WS_SCHED_LRR = 0, WS_SCHED_GTO } ws_sched_policy;

typedef struct ws_timing_params {
    uint32_t schedulers;              /* per core                               */
    ws_sched_policy policy;
    uint32_t latency[WS_UNIT_COUNT];  /* result latency (MIO: after last pass;
                                         LSU: after the last sector)           */
    uint32_t interval[WS_UNIT_COUNT]; /* initiation interval of ALU pipes      */
    uint32_t mio_queue;               /* MIO backlog (passes) before throttling */
    uint32_t lg_queue;                /* LSU backlog (cycles) before throttling */
    uint32_t sector_cycles;           /* LSU port cycles per 32-byte sector     */
    uint32_t branch_latency;          /* cycles before a branch target is known */
    uint32_t fetch_latency;           /* refetch after a non-sequential PC      */
} ws_timing_params;

void ws_timing_params_default(ws_timing_params *p);
/* Parse "key = value" lines; `name` names the source in messages
 * ("FILE:LINE: ..."). Unknown keys and bad values are errors. */
int ws_timing_params_parse(ws_timing_params *p, const char *text, const char *name,
                           char *err, size_t errlen);
/* Defaults, then the file. Returns 0, or -1 with the reason in err. */
int ws_timing_params_load(ws_timing_params *p, const char *path, char *err, size_t errlen);

/* Operands and unit of an instruction, for the scoreboard. Register
 * numbers: 0..31 integer, 32..63 float; 0 = none (x0 never waits). */
typedef struct ws_op_timing {
    uint8_t src[3], dst;
    uint8_t more;                     /* 0: more_src / more_dst are all 0; 1:
                                         amocas.d; 2: an ecall (its service
                                         refines them: ws_op_timing_ecall)     */
    uint8_t more_src[2], more_dst[3]; /* further registers read; written (and
                                         read: write after write): amocas.d's
                                         second registers of its pairs, an
                                         ecall's by its service (a7)           */
    uint8_t unit;                     /* ws_unit_kind                           */
    uint8_t mem;                      /* load/store: 1; atomic (lanes never share
                                         a word: timing_memory.c): 2          */
    uint8_t branch;                   /* branch or jump                         */
    uint8_t solo;                     /* reads and writes the warp's registers
                                         only and cannot fault (a float op
                                         with dynamic rounding: if frm is valid) */
} ws_op_timing;
void ws_op_timing_of(const ws_inst *in, ws_op_timing *out);
/* An ecall's operands by its service number (a7 of its first lane): a
 * texture sample reads a0, fa0, fa1 (and fa2 for an explicit level) and
 * writes fa0..fa3; an assert reads a0..a3. */
void ws_op_timing_ecall(uint32_t service, ws_op_timing *o);

/* Run launch L in timing mode (cmdproc.c calls it from run_launch). Fills
 * L->stats.cycles and the device's counters; on a fault, deadlock or
 * watchdog expiry returns the status with dev->fault filled in. */
ws_status ws_timing_run(ws_device *dev, ws_grid_run *L);
/* Create dev->timing from dev->cfg (device open); free it (close). */
ws_status ws_timing_create(ws_device *dev);
void ws_timing_destroy(ws_device *dev);
/* The parameters of the device's timing model (NULL before it exists). */
const ws_timing_params *ws_timing_params_of(const ws_device *dev);
/* The cycle from which the last timing-mode launch ran on several host
 * threads (0: all of it), or UINT64_MAX: all on one (docs/parallel.md). */
uint64_t ws_timing_parallel_from(const ws_device *dev);
/* Copy the counters of the last timing-mode launch to *out; -1 if none
 * has completed. (The public ws_last_launch_counters, launch_api.c,
 * calls it under the device's lock.) */
int ws_timing_last_counters(const ws_device *dev, ws_timing_counters *out);

#endif
