/* Allocation and copies. Host-to-device copies and memsets are queued
 * (ordered with launches); device-to-host copies and frees wait for the
 * queue, as on a real driver. Ranges are checked when the call is made, so
 * errors come back from the call that caused them. */
#include <stdlib.h>
#include <string.h>
#include "runtime/api_lock.h"
#include "runtime/runtime.h"

ws_status ws_malloc(ws_device *dev, size_t size, ws_addr *out)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_malloc"); /* before any refusal: it writes the device's error message */
    if (!out) return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_malloc(%zu): out is NULL", size);
    *out = 0;
    if (size == 0) /* docs/api.md, "Zero-byte allocations": refused, not a null or shared address */
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_malloc(0): size is 0; an allocation holds at least 1 byte "
                            "(cudaMalloc's null pointer for 0 bytes has no counterpart): skip the call when there "
                            "is nothing to allocate");
    if (size <= UINT32_MAX && !ws_mem_alloc(&dev->mem, (uint32_t)size, REGION_DATA, out)) return WS_OK;
    /* Why not, and what would help. Every allocation has a red zone after
     * it (256 bytes at least, the whole rounded up to 256): an allocation
     * of the whole global_mem_limit never fits (until 2026-11-29 its
     * message said only "raise global_mem_limit", as if memory were in
     * use). */
    const uint64_t arena_max = WS_GLOBAL_MAX_END - WS_GLOBAL_BASE, limit = dev->mem.user_limit;
    char used[160];
    snprintf(used, sizeof used, "%llu of %llu bytes in use%s", (unsigned long long)dev->mem.used,
             (unsigned long long)limit,
             ws_mem_tool_lo(&dev->mem) < limit ? ", and tools' buffers at the top" : "");
    if ((uint64_t)size > limit) /* larger than the whole arena: no freeing makes room, past the largest arena no limit does */
        return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "ws_malloc(%zu): device memory exhausted (%s; %s %llu MiB)", size,
                            used, (uint64_t)size > arena_max - 256 ? "larger than the whole global memory, and than "
                                                                     "any device's: global_mem_limit is at most"
                                                                   : "larger than the whole global memory: raise "
                                                                     "global_mem_limit, at most",
                            (unsigned long long)(arena_max >> 20));
    if (ws_mem_span(size) > limit) /* fits the limit, not with its red zone */
        return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "ws_malloc(%zu): device memory exhausted (%s): with the red "
                            "zone every allocation has after it (at least 256 bytes, the whole rounded up to 256) it "
                            "takes %llu bytes, more than the whole global memory; the largest allocation this device "
                            "holds is %llu bytes (or raise global_mem_limit)", size, used,
                            (unsigned long long)ws_mem_span(size), (unsigned long long)ws_mem_fit(limit));
    return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "ws_malloc(%zu): device memory exhausted (%s; the largest free "
                        "range holds an allocation of at most %llu bytes, each taking a red zone of at least 256 "
                        "bytes after it; free some or raise global_mem_limit)", size, used,
                        (unsigned long long)ws_mem_largest_alloc(&dev->mem));
}

ws_status ws_check_placement(ws_device *dev, const char *what, ws_addr addr, uint64_t size)
{
    uint64_t end = WS_GLOBAL_BASE + dev->mem.user_limit;
    if (addr >= WS_GLOBAL_BASE && addr < end && size > end - addr) /* (addr + size may wrap: no range to name) */
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "%s: size too large: from 0x%08x the global arena [0x%08x, "
                            "0x%08llx) (global_mem_limit=%llu) has room for %llu bytes", what, addr, WS_GLOBAL_BASE,
                            (unsigned long long)end, (unsigned long long)dev->mem.user_limit,
                            (unsigned long long)(end - addr));
    if (addr < WS_GLOBAL_BASE || addr >= end)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "%s: [0x%08x, 0x%08llx) is outside the global arena "
                            "[0x%08x, 0x%08llx) (global_mem_limit=%llu)", what, addr,
                            (unsigned long long)(addr + size), WS_GLOBAL_BASE, (unsigned long long)end,
                            (unsigned long long)dev->mem.user_limit);
    if ((addr - WS_GLOBAL_BASE) % 256)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "%s: address 0x%08x is not 256-byte aligned", what, addr);
    return WS_OK;
}

/* Why [addr, addr + size) could not be had: the first allocation in it. */
static void describe_taken(const ws_memory *m, ws_addr addr, uint64_t size, char *buf, size_t len)
{
    for (size_t i = 0; i < m->nregions; i++) {
        const ws_region *r = &m->regions[i];
        if (r->state == REGION_FREE || (uint64_t)r->addr + r->span <= addr || r->addr >= addr + size) continue;
        snprintf(buf, len, "it overlaps the %s%u-byte %s at 0x%08x (with its red zone)",
                 r->state == REGION_FREED ? "freed (quarantined) " : "", r->size,
                 r->kind == REGION_MODULE ? "module image" : r->kind == REGION_HARDWARE ? "render target or texture" :
                 "allocation", r->addr);
        return;
    }
    if (addr + size > WS_GLOBAL_BASE + ws_mem_tool_lo(m)) {
        snprintf(buf, len, "it reaches into the tools' buffers at the top of device memory, from 0x%08llx "
                 "(the profiler's samples or the tracer's buffers)", (unsigned long long)(WS_GLOBAL_BASE + ws_mem_tool_lo(m)));
        return;
    }
    snprintf(buf, len, "the red zone after it (256 bytes) does not fit, or host memory ran out");
}

ws_status ws_malloc_at(ws_device *dev, ws_addr addr, size_t size)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_malloc_at");
    if (size == 0) return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_malloc_at(0x%08x): size is 0", addr);
    char what[64];
    snprintf(what, sizeof what, "ws_malloc_at(0x%08x, %zu)", addr, size);
    ws_status st = ws_check_placement(dev, what, addr, size);
    if (st != WS_OK) return st;
    if (ws_mem_alloc_at(&dev->mem, addr, (uint32_t)size, REGION_DATA)) {
        char why[160];
        describe_taken(&dev->mem, addr, size, why, sizeof why);
        return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "%s: the range is not free: %s", what, why);
    }
    return WS_OK;
}

ws_status ws_free(ws_device *dev, ws_addr addr)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_free");
    ws_status st = ws_cmd_drain(dev, 0);
    /* The wait may report a failure of earlier work (perhaps another
     * thread's launch: docs/api.md, "Threads"). The queue is empty then,
     * so nothing can still use the allocation: it is freed all the same
     * and the failure, reported only here, is returned (until 2026-11-29
     * the free was skipped, and an allocation the caller took for freed
     * leaked). Work still queued (a halted command processor) may use it:
     * then nothing is freed. */
    if (st != WS_OK) {
        if (!dev->qlen) (void)ws_mem_free(&dev->mem, addr, REGION_DATA);
        return st;
    }
    int r = ws_mem_free(&dev->mem, addr, REGION_DATA);
    if (r == -2)
        return ws_set_error(dev, WS_ERR_BAD_ADDRESS, "ws_free(0x%08x): double free (already freed)", addr);
    if (r)
        return ws_set_error(dev, WS_ERR_BAD_ADDRESS,
                            "ws_free(0x%08x): not the start of a live allocation", addr);
    return WS_OK;
}

static ws_status check_range(ws_device *dev, const char *what, ws_addr a, size_t n, int write)
{
    char err[256];
    if (!ws_mem_host_range(&dev->mem, a, n, write, err, sizeof err))
        return ws_set_error(dev, WS_ERR_BAD_ADDRESS, "%s: %s", what, err);
    return WS_OK;
}

ws_status ws_memcpy_htod(ws_device *dev, ws_addr dst, const void *src, size_t n)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    if (!n) return WS_OK;
    WS_API_LOCKED(dev, "ws_memcpy_htod");
    if (!src) return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_memcpy_htod(0x%08x, %zu bytes): src is NULL", dst, n);
    ws_status st = check_range(dev, "ws_memcpy_htod", dst, n, 1);
    if (st != WS_OK) return st;
    ws_cmd c = { .kind = CMD_COPY_HTOD, .dst = dst, .n = n, .data = malloc(n) };
    if (!c.data) return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "ws_memcpy_htod: out of host memory");
    memcpy(c.data, src, n); /* snapshot: the caller may reuse its buffer at once */
    st = ws_cmd_push(dev, &c);
    if (st != WS_OK) free(c.data);
    return st;
}

ws_status ws_memcpy_dtoh(ws_device *dev, void *dst, ws_addr src, size_t n)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_memcpy_dtoh");
    if (!dst && n) return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_memcpy_dtoh(0x%08x, %zu bytes): dst is NULL", src, n);
    ws_status st = ws_cmd_direct(dev, "ws_memcpy_dtoh"); /* a halted command processor holds the copy too */
    if (st != WS_OK || !n) return st;
    char err[256];
    const uint8_t *s = ws_mem_host_range(&dev->mem, src, n, WS_MEM_COPY_FROM, err, sizeof err);
    if (!s) return ws_set_error(dev, WS_ERR_BAD_ADDRESS, "ws_memcpy_dtoh: %s", err);
    memcpy(dst, s, n);
    return WS_OK;
}

ws_status ws_memcpy_dtod(ws_device *dev, ws_addr dst, ws_addr src, size_t n)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    if (!n) return WS_OK;
    WS_API_LOCKED(dev, "ws_memcpy_dtod");
    ws_status st = check_range(dev, "ws_memcpy_dtod (source)", src, n, WS_MEM_COPY_FROM);
    if (st == WS_OK) st = check_range(dev, "ws_memcpy_dtod (destination)", dst, n, 1);
    if (st != WS_OK) return st;
    ws_cmd c = { .kind = CMD_COPY_DTOD, .dst = dst, .src = src, .n = n };
    return ws_cmd_push(dev, &c);
}

ws_status ws_memset(ws_device *dev, ws_addr dst, int value, size_t n)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    if (!n) return WS_OK;
    WS_API_LOCKED(dev, "ws_memset");
    ws_status st = check_range(dev, "ws_memset", dst, n, 1);
    if (st != WS_OK) return st;
    ws_cmd c = { .kind = CMD_MEMSET, .dst = dst, .n = n, .value = value };
    return ws_cmd_push(dev, &c);
}

ws_status ws_mem_info(const ws_device *dev, uint64_t *used, uint64_t *limit)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    /* Reads two numbers only calls outside a launch change: the read lock,
     * so the printf handler and a tool's launch callback may ask (until
     * 2026-11-29 they were refused with WS_ERR_BUSY) */
    WS_API_READ_LOCKED((ws_device *)dev, "ws_mem_info");
    if (used) *used = dev->mem.used;
    if (limit) *limit = dev->mem.user_limit;
    return WS_OK;
}

ws_status ws_synchronize(ws_device *dev)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_synchronize");
    return ws_cmd_drain(dev, 0);
}

ws_status ws_fence(ws_device *dev, uint64_t *fence_id)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_fence");
    if (!fence_id) return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_fence: fence_id is NULL");
    ws_cmd c = { .kind = CMD_FENCE, .fence = ++dev->next_fence };
    *fence_id = c.fence;
    return ws_cmd_push(dev, &c);
}

ws_status ws_fence_wait(ws_device *dev, uint64_t fence_id)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_fence_wait");
    if (fence_id == 0 || fence_id > dev->next_fence)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_fence_wait(%llu): no such fence",
                            (unsigned long long)fence_id);
    return ws_cmd_drain(dev, fence_id);
}
