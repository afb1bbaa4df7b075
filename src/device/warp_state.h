/* Warp states of the timing model, named as Nsight Compute names its warp
 * stall reasons so users recognise them. Every cycle each resident warp is
 * in exactly one state; docs/timing.md gives each state's exact rule. */
#ifndef WS_DEVICE_WARP_STATE_H
#define WS_DEVICE_WARP_STATE_H

typedef enum ws_warp_state {
    WS_STATE_SELECTED = 0,      /* issued an instruction this cycle            */
    WS_STATE_NOT_SELECTED,      /* could issue, another warp was picked        */
    WS_STATE_WAIT,              /* fixed-latency dependency / issue interval   */
    WS_STATE_LONG_SCOREBOARD,   /* waits on a global/local memory result       */
    WS_STATE_SHORT_SCOREBOARD,  /* waits on a shared memory / MIO result       */
    WS_STATE_MIO_THROTTLE,      /* shared-memory / MIO queue full              */
    WS_STATE_LG_THROTTLE,       /* global/local memory queue full              */
    WS_STATE_MATH_PIPE_THROTTLE,/* the functional unit it needs is busy        */
    WS_STATE_BARRIER,           /* waiting at a block barrier                  */
    WS_STATE_MEMBAR,            /* waiting for a memory fence                  */
    WS_STATE_BRANCH_RESOLVING,  /* waiting for a branch target                 */
    WS_STATE_NO_INSTRUCTIONS,   /* instruction fetch miss / empty buffer       */
    WS_STATE_DISPATCH_STALL,    /* dispatch conflict                           */
    WS_STATE_SLEEPING,          /* all runnable lanes asleep                   */
    WS_STATE_DRAIN,             /* exited, waiting for stores to drain         */
    WS_STATE_MISC,              /* anything else                               */
    WS_STATE_COUNT
} ws_warp_state;

/* "selected", "long_scoreboard", ... (Nsight Compute's spelling). */
const char *ws_warp_state_name(ws_warp_state s);

#endif
