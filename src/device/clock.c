/* Host time for the watchdog, statistics and the debugger's parked time;
 * the host's request to end a launch (ws_device_interrupt). */
#include <time.h>
#include "device/device.h"

int ws_interrupt_taken(ws_device *dev)
{
    return atomic_load_explicit(&dev->interrupt_req, memory_order_relaxed) && atomic_exchange(&dev->interrupt_req, 0);
}

double ws_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}
