/* The device's error message: the command processor, the debug hardware
 * and the runtime all record what went wrong here, and ws_last_error reads
 * it. It lives with the device so the hardware never calls up into the
 * runtime to report an error. */
#include <stdarg.h>
#include <stdio.h>
#include "device/device.h"

ws_status ws_set_error(ws_device *dev, ws_status s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dev->err, sizeof dev->err, fmt, ap);
    va_end(ap);
    return s;
}
