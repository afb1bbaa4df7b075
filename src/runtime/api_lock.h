/* The threading contract of the public API (docs/api.md, "Threads"):
 * a device may be used from several host threads; every call that reads or
 * changes mutable device state holds the device's API lock for its whole
 * duration, so calls on one device are serialised in the order they take
 * the lock. The lock is recursive because the library calls its own entry
 * points (device close unloads modules; a tool replays a launch).
 *
 * A device printf handler runs inside the call that drains the queue. A
 * call back into the library from the handler (on the thread that runs it)
 * is refused with WS_ERR_BUSY: the device is in the middle of a launch.
 *
 * Closing (ws_device_close) while other threads call in: every call counts
 * itself in dev->api_callers before it asks for the lock and out after it
 * has released it (one atomic add and one subtract). Close, once it holds
 * the lock, sets dev->closing; a call from another thread that gets the
 * lock after that is refused (WS_ERR_INVALID_ARG, "the device is being
 * closed by another thread") and touches nothing else. Close releases the
 * lock and waits until the count is 0 before it destroys the lock and
 * frees the device. A call that counts itself in after that (it started
 * as close was returning) uses freed memory: the caller's bug
 * (docs/api.md, "Threads"). */
#ifndef WS_RUNTIME_API_LOCK_H
#define WS_RUNTIME_API_LOCK_H
#include "device/device.h"

/* Take dev's API lock for the call named fn. Returns WS_ERR_BUSY (lock not
 * held) when called from the device's printf handler, WS_ERR_INVALID_ARG
 * (lock not held) when another thread is closing the device. */
ws_status ws_api_enter(ws_device *dev, const char *fn);
/* Release the lock taken by ws_api_enter or ws_api_enter_read; *held may
 * be NULL. */
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
 * lock, but another thread waits until the draining call is done. Refused
 * only when another thread is closing the device (as ws_api_enter). */
ws_status ws_api_enter_read(ws_device *dev, const char *fn);
#define WS_API_READ_LOCKED(dev, fn)                                             \
    ws_device *ws_api_held_ __attribute__((cleanup(ws_api_leave))) = NULL;      \
    do {                                                                        \
        ws_status ws_api_st_ = ws_api_enter_read((dev), (fn));                 \
        if (ws_api_st_ != WS_OK) return ws_api_st_;                            \
        ws_api_held_ = (dev);                                                   \
    } while (0)

/* For a lock-free call (ws_device_interrupt, ws_device_config): count it
 * among dev's callers while it runs, so that a close on another thread
 * does not free the device under it. Async-signal-safe. */
void ws_api_count_in(const ws_device *dev);
void ws_api_count_out(const ws_device *dev);

/* ws_device_close, holding the lock: refuse other threads from now on.
 * After releasing it: wait until no call is inside or waiting. */
void ws_api_closing(ws_device *dev);
void ws_api_wait_callers(ws_device *dev);
/* How many calls are inside the lock or waiting for it (tests use it to
 * know that a thread is waiting: tests/runtime/test_query_lock.c). */
unsigned ws_api_callers(const ws_device *dev);

/* Create and destroy the lock with the device. */
int ws_api_lock_init(ws_device *dev);
void ws_api_lock_destroy(ws_device *dev);

#endif
