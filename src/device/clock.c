/* Host time for the watchdog, statistics and the debugger's parked time. */
#include <time.h>
#include "device/device.h"

double ws_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}
