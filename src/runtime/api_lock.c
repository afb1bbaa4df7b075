/* The device's API lock and the printf-handler re-entry check (api_lock.h). */
#include <pthread.h>
#include "runtime/api_lock.h"

int ws_api_lock_init(ws_device *dev)
{
    pthread_mutexattr_t a;
    if (pthread_mutexattr_init(&a)) return -1;
    int r = pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE) ||
            pthread_mutex_init(&dev->api_lock, &a);
    pthread_mutexattr_destroy(&a);
    if (!r) dev->api_lock_ready = 1;
    return r ? -1 : 0;
}

void ws_api_lock_destroy(ws_device *dev)
{
    if (dev->api_lock_ready) pthread_mutex_destroy(&dev->api_lock);
    dev->api_lock_ready = 0;
}

/* The launch running now, for a refusal's message. */
static unsigned long long running_launch(const ws_device *dev)
{
    return (unsigned long long)(dev->current ? dev->current->id : 0);
}

ws_status ws_api_enter(ws_device *dev, const char *fn)
{
    pthread_mutex_lock(&dev->api_lock);
    /* Only the thread running the handler can hold the lock while the
     * handler runs, so the flags are ours to read once we hold it. A call
     * from inside the device (a handler or callback it runs) is refused:
     * the device is mid-launch there. */
    ws_status st = WS_OK;
    if (dev->machine_cb_depth)
        st = ws_set_error(dev, WS_ERR_BUSY, "%s: called from a debug machine's callback (ws_events_set_callback), "
                          "which runs inside the device (launch %llu); the callback may only record the event "
                          "(call the library after the call that ran the device returns)", fn, running_launch(dev));
    else if (dev->printf_depth)
        st = ws_set_error(dev, WS_ERR_BUSY, "%s: called from the device printf handler while launch %llu "
                          "runs; the handler may only record the text (call the library after the "
                          "synchronising call returns)", fn, running_launch(dev));
    else if (dev->tool_launch_depth)
        st = ws_set_error(dev, WS_ERR_BUSY, "%s: called from a tool's launch callback while launch %llu runs",
                          fn, (unsigned long long)dev->tool_launch_id);
    if (st != WS_OK) pthread_mutex_unlock(&dev->api_lock);
    return st;
}

void ws_api_enter_read(ws_device *dev)
{
    pthread_mutex_lock(&dev->api_lock);
}

void ws_api_leave(ws_device **held)
{
    if (*held) pthread_mutex_unlock(&(*held)->api_lock);
}
