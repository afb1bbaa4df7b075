/* The device's API lock and the printf-handler re-entry check (api_lock.h). */
#include <pthread.h>
#include <time.h>
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

void ws_api_count_in(const ws_device *dev)
{
    atomic_fetch_add(&((ws_device *)dev)->api_callers, 1u);
}

void ws_api_count_out(const ws_device *dev)
{
    atomic_fetch_sub(&((ws_device *)dev)->api_callers, 1u);
}

unsigned ws_api_callers(const ws_device *dev)
{
    return atomic_load(&((ws_device *)dev)->api_callers);
}

/* Taken the lock while another thread closes the device? Then refuse (the
 * lock is released and the call counted out: nothing of the device may be
 * touched after that). The closing thread's own nested calls go on. */
static ws_status closing_refusal(ws_device *dev, const char *fn)
{
    if (!atomic_load_explicit(&dev->closing, memory_order_relaxed) || pthread_equal(dev->closer, pthread_self()))
        return WS_OK;
    ws_set_error(dev, WS_ERR_INVALID_ARG, "%s: the device is being closed by another thread (ws_device_close); "
                 "the call did nothing, and the device must not be used again", fn);
    return WS_ERR_INVALID_ARG;
}

static void unlock_out(ws_device *dev)
{
    pthread_mutex_unlock(&dev->api_lock);
    ws_api_count_out(dev); /* last: close may free the device as soon as this lands */
}

void ws_api_closing(ws_device *dev)
{
    dev->closer = pthread_self();
    atomic_store(&dev->closing, 1);
}

void ws_api_wait_callers(ws_device *dev)
{
    /* The ones waiting for the lock take it in turn, see `closing` and
     * leave at once: a short wait. */
    while (atomic_load(&dev->api_callers))
        nanosleep(&(struct timespec){ 0, 100 * 1000 }, NULL);
}

ws_status ws_api_enter(ws_device *dev, const char *fn)
{
    ws_api_count_in(dev);
    pthread_mutex_lock(&dev->api_lock);
    /* Only the thread running the handler can hold the lock while the
     * handler runs, so the flags are ours to read once we hold it. A call
     * from inside the device (a handler or callback it runs) is refused:
     * the device is mid-launch there. */
    ws_status st = closing_refusal(dev, fn);
    if (st == WS_OK && dev->machine_cb_depth)
        st = ws_set_error(dev, WS_ERR_BUSY, "%s: called from a debug machine's callback (ws_events_set_callback), "
                          "which runs inside the device (launch %llu); the callback may only record the event "
                          "(call the library after the call that ran the device returns)", fn, running_launch(dev));
    else if (st == WS_OK && dev->printf_depth)
        st = ws_set_error(dev, WS_ERR_BUSY, "%s: called from the device printf handler while launch %llu "
                          "runs; the handler may only record the text (call the library after the "
                          "synchronising call returns)", fn, running_launch(dev));
    else if (st == WS_OK && dev->tool_launch_depth)
        st = ws_set_error(dev, WS_ERR_BUSY, "%s: called from a tool's launch callback while launch %llu runs",
                          fn, (unsigned long long)dev->tool_launch_id);
    if (st != WS_OK) unlock_out(dev);
    return st;
}

ws_status ws_api_enter_read(ws_device *dev, const char *fn)
{
    ws_api_count_in(dev);
    pthread_mutex_lock(&dev->api_lock);
    const ws_status st = closing_refusal(dev, fn);
    if (st != WS_OK) unlock_out(dev);
    return st;
}

void ws_api_leave(ws_device **held)
{
    if (*held) unlock_out(*held);
}
