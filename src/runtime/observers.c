/* Tools that attach to a device from the environment, so an unmodified
 * program linked with libwarpscope can be debugged or profiled:
 *   WARPSCOPE_DEBUG    start the gdb server (src/gdbstub, docs/debugging.md)
 *   WARPSCOPE_PROFILE  profile every launch (src/profile, docs/profiling.md)
 * Each subsystem adds its own call below; open runs after the device is
 * fully built, close before anything is torn down. */
#include "runtime/observers.h"

ws_status ws_observers_open(ws_device *dev)
{
    (void)dev;
    return WS_OK;
}

void ws_observers_close(ws_device *dev)
{
    (void)dev;
}
