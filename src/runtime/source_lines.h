/* Device PC -> source line and inline chain (source_lines.c). */
#ifndef WS_RUNTIME_SOURCE_LINES_H
#define WS_RUNTIME_SOURCE_LINES_H
#include "device/device.h"

/* Write " at FILE:LINE in FUNC[, inlined at FILE:LINE in CALLER...]" for a
 * device pc into buf, or "" when no loaded module has line information for
 * it. Matches the device's describe_pc hook. */
void ws_source_describe_pc(const ws_device *dev, uint32_t pc, char *buf, size_t len);

#endif
