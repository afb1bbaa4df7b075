/* Device PC -> source line and inline chain (source_lines.c). */
#ifndef WS_RUNTIME_SOURCE_LINES_H
#define WS_RUNTIME_SOURCE_LINES_H
#include "device/device.h"

/* Write " at FILE:LINE in FUNC[, inlined at FILE:LINE in CALLER...]" for a
 * device pc into buf, or "" when no loaded module has line information for
 * it. With a lane (w non-NULL: lane `lane` of w, stopped at pc), the calls
 * that led there follow (", called from FILE:LINE in F..."), unwound from
 * its registers and stack with the modules' CFI. Matches the device's
 * describe_pc hook. */
void ws_source_describe_pc(const ws_device *dev, uint32_t pc, const ws_warp *w, uint32_t lane, char *buf,
                           size_t len);

/* Device addresses [lo, hi). */
typedef struct ws_code_span {
    uint32_t lo, hi;
} ws_code_span;
/* The address ranges of the compile unit holding device pc (the DWARF
 * unit's), at most max into out; how many (0: no unit has pc). */
size_t ws_source_unit_spans(const ws_device *dev, uint32_t pc, ws_code_span *out, size_t max);
/* The modules ws_source_call_from opened, kept open for its next calls
 * (a profiler pass unwinds every sample outside the kernel's unit, most
 * in one module): valid while the device's modules stay loaded, for one
 * host thread. ws_source_cache_new returns NULL when out of memory. */
typedef struct ws_source_cache ws_source_cache;
ws_source_cache *ws_source_cache_new(void);
void ws_source_cache_free(ws_source_cache *c);
/* The call in code of `spans` that lane `lane` of w is inside, sampled
 * at device address `sampled` outside them (the instruction the warp
 * waits at, or has just issued): the lane unwound from its own next
 * instruction with the modules' CFI, as for fault reports, up to the
 * first return address whose call lies in the spans. *call: the call
 * instruction's device address; callee: the symbol of the function it
 * entered ("" if none), in at most len bytes. cache: NULL, or the
 * modules kept open. 0, or -1 when the chain ends before. */
int ws_source_call_from(const ws_device *dev, ws_source_cache *cache, uint32_t sampled, const ws_warp *w,
                        uint32_t lane, const ws_code_span *spans, size_t nspans, uint32_t *call, char *callee,
                        size_t len);

#endif
