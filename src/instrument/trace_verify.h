/* Page digests of global memory: do an instrumented pass and the launch
 * itself leave the same results? (trace_verify.c) */
#ifndef WS_INSTRUMENT_TRACE_VERIFY_H
#define WS_INSTRUMENT_TRACE_VERIFY_H
#include "device/device.h"

#define TV_MAX_HOLES 8

typedef struct tv_digest {
    uint64_t *page;               /* hash of each page digested          */
    uint64_t *at;                 /* its arena offset << 12 | (length - 1) */
    uint64_t npages, nbytes;
    uint64_t hole[TV_MAX_HOLES][2];  /* arena offsets [lo, hi) left out */
    int nholes;
} tv_digest;

/* Leave the allocation that holds addr out of the digests (call before
 * tv_take): the twins, the trace buffers. Returns 1 if the range was added. */
int tv_exclude(tv_digest *d, ws_device *dev, uint32_t addr, uint64_t size);
/* Digest the live regions inside the first nbytes of the global arena.
 * -1: out of host memory. */
int tv_take(tv_digest *d, ws_device *dev, uint64_t nbytes);
/* The address of the first page that differs now, or -1 if none does. */
int64_t tv_compare(const tv_digest *d, ws_device *dev);
void tv_free(tv_digest *d);

#endif
