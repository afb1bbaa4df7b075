/* Tools that attach to a device from the environment, so an unmodified
 * program linked with libwarpscope can be debugged or profiled:
 *   WARPSCOPE_DEBUG    start the gdb server (src/gdbstub, docs/debugging.md)
 *   WARPSCOPE_PROFILE  profile every launch (src/profile, docs/profiling.md)
 * Each subsystem adds its own call below; open runs after the device is
 * fully built, close before anything is torn down. */
#include <stdlib.h>
#include "gdbstub/gdbserver.h"
#include "profile/profiler.h"
#include "runtime/observers.h"

ws_status ws_observers_open(ws_device *dev)
{
    ws_status st = ws_profiler_attach(dev, getenv("WARPSCOPE_PROFILE"));
    if (st != WS_OK) return st;
    const char *dbg = getenv("WARPSCOPE_DEBUG");
    if (dbg && !dev->gdbserver) { /* waits here until gdb connects and continues */
        char err[512];
        st = ws_gdbserver_start(dev, dbg, &dev->gdbserver, err, sizeof err);
        if (st != WS_OK) {
            ws_profiler_detach(dev);
            return ws_set_error(dev, st, "%s", err);
        }
    }
    return WS_OK;
}

void ws_observers_close(ws_device *dev)
{
    ws_gdbserver_stop(dev->gdbserver); /* gdb hears that the program exited */
    dev->gdbserver = NULL;
    ws_profiler_detach(dev);
}
