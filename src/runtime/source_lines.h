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

#endif
