/* The threading contract of the public API (docs/api.md, "Threads"):
 * a device may be used from several host threads; every call that reads or
 * changes mutable device state holds the device's API lock for its whole
 * duration, so calls on one device are serialised in the order they take
 * the lock. The lock is recursive because the library calls its own entry
 * points (device close unloads modules; a tool replays a launch).
 *
 * A device printf handler runs inside the call that drains the queue. A
 * call back into the library from the handler (on the thread that runs it)
 * is refused with WS_ERR_BUSY: the device is in the middle of a launch. */
#ifndef WS_RUNTIME_API_LOCK_H
#define WS_RUNTIME_API_LOCK_H
#include "device/device.h"

/* Take dev's API lock for the call named fn. Returns WS_ERR_BUSY (lock not
 * held) when called from the device's printf handler. */
ws_status ws_api_enter(ws_device *dev, const char *fn);
/* Release the lock taken by ws_api_enter; *held may be NULL. */
void ws_api_leave(ws_device **held);

/* Hold dev's API lock until the enclosing function returns. Use after dev
 * is known to be non-NULL. */
#define WS_API_LOCKED(dev, fn)                                                  \
    ws_device *ws_api_held_ __attribute__((cleanup(ws_api_leave))) = NULL;      \
    do {                                                                        \
        ws_status ws_api_st_ = ws_api_enter((dev), (fn));                      \
        if (ws_api_st_ != WS_OK) return ws_api_st_;                            \
        ws_api_held_ = (dev);                                                   \
    } while (0)

/* Hold dev's API lock for a call that only reads what a launch leaves
 * behind (ws_last_launch_stats): no refusal from the printf handler or a
 * tool's launch callback, whose thread already holds the (recursive)
 * lock, but another thread waits until the draining call is done. */
void ws_api_enter_read(ws_device *dev);
#define WS_API_READ_LOCKED(dev)                                                 \
    ws_device *ws_api_held_ __attribute__((cleanup(ws_api_leave))) = (dev);    \
    ws_api_enter_read(ws_api_held_)

/* Create and destroy the lock with the device. */
int ws_api_lock_init(ws_device *dev);
void ws_api_lock_destroy(ws_device *dev);

#endif
