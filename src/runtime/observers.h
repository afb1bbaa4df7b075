/* Environment-driven tools attached at device open (see observers.c). */
#ifndef WS_RUNTIME_OBSERVERS_H
#define WS_RUNTIME_OBSERVERS_H
#include "device/device.h"

/* Attach what the environment asks for; an error closes nothing and is
 * returned by ws_device_open with its message on stderr. */
ws_status ws_observers_open(ws_device *dev);
/* Detach everything ws_observers_open attached (reports are written here). */
void ws_observers_close(ws_device *dev);

#endif
