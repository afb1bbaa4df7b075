/* Host time for the watchdog, statistics and the debugger's parked time;
 * the host's request to end a launch (ws_device_interrupt). */
#include <time.h>
#include "device/device.h"
#include "device/debug/debug_hooks.h"

int ws_host_interrupt_take(ws_device *dev)
{
    return atomic_load_explicit(&dev->interrupt_req, memory_order_relaxed) && atomic_exchange(&dev->interrupt_req, 0);
}

void ws_host_interrupt_clear(ws_device *dev)
{
    if (atomic_load_explicit(&dev->interrupt_req, memory_order_relaxed)) atomic_store(&dev->interrupt_req, 0);
}

int ws_host_stop_due(ws_device *dev, double t0, double limit, int less_parked)
{
    if (ws_host_interrupt_take(dev)) return WS_HOST_INTERRUPT;
    if (!limit) return 0;
    const double parked = less_parked && dev->debug ? ws_dbg_parked_seconds(dev) : 0;
    return ws_now_seconds() - t0 - parked > limit ? WS_HOST_WATCHDOG : 0;
}

double ws_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}
