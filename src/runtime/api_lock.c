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

ws_status ws_api_enter(ws_device *dev, const char *fn)
{
    pthread_mutex_lock(&dev->api_lock);
    /* Only the thread running the handler can hold the lock while the
     * handler runs, so the flag is ours to read once we hold it. */
    if (dev->tool_launch_depth && !dev->printf_depth && !dev->machine_cb_depth) {
        ws_set_error(dev, WS_ERR_BUSY, "%s: called from a tool's launch callback while launch %llu runs",
                     fn, (unsigned long long)dev->tool_launch_id);
        pthread_mutex_unlock(&dev->api_lock);
        return WS_ERR_BUSY;
    }
    if (dev->machine_cb_depth) {
        ws_set_error(dev, WS_ERR_BUSY, "%s: called from a debug machine's callback (ws_events_set_callback), "
                     "which runs inside the device (launch %llu); the callback may only record the event "
                     "(call the library after the call that ran the device returns)", fn,
                     (unsigned long long)(dev->current ? dev->current->id : 0));
        pthread_mutex_unlock(&dev->api_lock);
        return WS_ERR_BUSY;
    }
    if (dev->printf_depth) {
        ws_set_error(dev, WS_ERR_BUSY, "%s: called from the device printf handler while launch %llu "
                     "runs; the handler may only record the text (call the library after the "
                     "synchronising call returns)", fn,
                     (unsigned long long)(dev->current ? dev->current->id : 0));
        pthread_mutex_unlock(&dev->api_lock);
        return WS_ERR_BUSY;
    }
    return WS_OK;
}

void ws_api_enter_read(ws_device *dev)
{
    pthread_mutex_lock(&dev->api_lock);
}

void ws_api_leave(ws_device **held)
{
    if (*held) pthread_mutex_unlock(&(*held)->api_lock);
}
