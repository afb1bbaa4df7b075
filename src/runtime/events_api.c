/* The event trace's API (include/warpscope/events.h): configure the
 * filters and the buffer, read the stream back with its header. */
#include <stdlib.h>
#include <string.h>
#include "device/events/event_bus.h"
#include "runtime/api_lock.h"
#include "runtime/runtime.h"

ws_status ws_events_configure(ws_device *dev, const ws_event_config *cfg)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_events_configure");
    if (!cfg) return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_events_configure: cfg is NULL");
    if (dev->tool_launch_depth)
        return ws_set_error(dev, WS_ERR_BUSY, "ws_events_configure: a launch is running");
    ws_status st = ws_cmd_drain(dev, 0);
    if (st != WS_OK) return st;
    ws_ev_free(dev);
    struct ws_events *e = calloc(1, sizeof *e);
    if (!e) return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "ws_events_configure: out of host memory");
    memcpy(e->mask, cfg->mask, sizeof e->mask);
    e->capacity = cfg->capacity;
    if (e->capacity && ws_mem_alloc(&dev->mem, e->capacity, REGION_DATA, &e->buf_addr)) {
        free(e);
        return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "ws_events_configure: no room for a %u-byte trace buffer in "
                            "device memory", cfg->capacity);
    }
    if (e->capacity) memset(ws_mem_global_ptr(&dev->mem, e->buf_addr), 0, e->capacity);
    e->w.cap_bits = (uint64_t)e->capacity * 8;
    e->w.buf = e->capacity ? ws_mem_global_ptr(&dev->mem, e->buf_addr) : NULL;
    dev->events = e;
    return WS_OK;
}

ws_status ws_events_read(ws_device *dev, uint8_t **bytes, size_t *size, uint64_t *events, uint64_t *dropped)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_events_read");
    if (!bytes || !size) return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_events_read: bytes or size is NULL");
    *bytes = NULL;
    *size = 0;
    if (!dev->events) return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_events_read: the event trace is not configured");
    ws_status st = dev->tool_launch_depth ? WS_OK : ws_cmd_drain(dev, 0);
    const ws_ev_writer *w = &dev->events->w;
    size_t n = (size_t)((w->bits + 7) / 8);
    uint8_t *b = malloc(WS_EV_HEADER + n);
    if (!b) return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "ws_events_read: out of host memory");
    uint16_t version = WS_EV_VERSION, reserved = 0;
    memcpy(b, "WSEV", 4);
    memcpy(b + 4, &version, 2);
    memcpy(b + 6, &reserved, 2);
    memcpy(b + 8, &w->events, 8);
    memcpy(b + 16, &w->bits, 8);
    if (n) memcpy(b + WS_EV_HEADER, ws_mem_global_ptr(&dev->mem, dev->events->buf_addr), n);
    *bytes = b;
    *size = WS_EV_HEADER + n;
    if (events) *events = w->events;
    if (dropped) *dropped = w->dropped;
    return st; /* a failed launch still leaves its events */
}

ws_status ws_events_disable(ws_device *dev)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_events_disable");
    ws_ev_free(dev);
    return WS_OK;
}
