/* Global arena allocator, shadow map and host-side range checks. */
#include "device/memory.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define ALLOC_ALIGN   256u
#define REDZONE       256u  /* at least this many poisoned bytes after each allocation */
#define QUARANTINE    (16u << 20) /* freed bytes held back before reuse */

static void *map_zeroed(uint64_t n)
{
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

int ws_mem_init(ws_memory *m, uint64_t limit, uint32_t stack_size, uint32_t nslots, uint32_t lanes)
{
    memset(m, 0, sizeof *m);
    m->limit = limit;
    m->user_limit = m->tool_dirty = limit;
    m->global = map_zeroed(limit);
#ifdef MADV_HUGEPAGE
    /* Lanes of a warp often touch 32 different pages per access: huge
     * pages spare the host that many TLB misses. A hint; it may fail. */
    if (m->global) (void)madvise(m->global, limit, MADV_HUGEPAGE);
#endif
    m->shadow = map_zeroed(limit / 8);
    m->stack_size = stack_size;
    m->stack_shift = (uint32_t)__builtin_ctz(stack_size);
    m->nslots = nslots;
    m->stack_lanes = lanes;
    m->stacks = map_zeroed((uint64_t)stack_size * nslots);
    if (!m->global || !m->shadow || !m->stacks) {
        ws_mem_fini(m);
        return -1;
    }
    return 0;
}

void ws_mem_fini(ws_memory *m)
{
    if (m->global) munmap(m->global, m->limit);
    if (m->shadow) munmap(m->shadow, m->limit / 8);
    if (m->stacks) munmap(m->stacks, (uint64_t)m->stack_size * m->nslots);
    free(m->regions);
    free(m->tool);
    memset(m, 0, sizeof *m);
}

void ws_mem_mark(ws_memory *m, uint32_t addr, uint32_t n, uint8_t state)
{
    uint32_t off = addr - WS_GLOBAL_BASE;
    memset(m->shadow + off / 8, state, (n + 7) / 8);
}

/* Mark a live data allocation: whole granules RW, then a partial one. */
static void mark_live(ws_memory *m, const ws_region *r)
{
    uint32_t off = r->addr - WS_GLOBAL_BASE;
    memset(m->shadow + off / 8, SHADOW_NONE, r->span / 8);
    memset(m->shadow + off / 8, SHADOW_RW, r->size / 8);
    if (r->size % 8)
        m->shadow[off / 8 + r->size / 8] = (uint8_t)(r->size % 8);
}

static int insert_region(ws_memory *m, size_t at, ws_region r)
{
    if (m->nregions == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 64;
        ws_region *n = realloc(m->regions, cap * sizeof *n);
        if (!n) return -1;
        m->regions = n;
        m->cap = cap;
    }
    memmove(&m->regions[at + 1], &m->regions[at], (m->nregions - at) * sizeof r);
    m->regions[at] = r;
    m->nregions++;
    return 0;
}

static void remove_region(ws_memory *m, size_t at)
{
    memmove(&m->regions[at], &m->regions[at + 1], (m->nregions - at - 1) * sizeof(ws_region));
    m->nregions--;
}

/* Merge neighbouring holes so first-fit sees the largest spans. */
static void coalesce(ws_memory *m)
{
    for (size_t i = 0; i + 1 < m->nregions;) {
        ws_region *a = &m->regions[i], *b = &m->regions[i + 1];
        if (a->state == REGION_FREE && b->state == REGION_FREE) {
            a->span += b->span;
            remove_region(m, i + 1);
        } else {
            i++;
        }
    }
    /* A hole at the top of the arena goes back to the bump pointer. */
    if (m->nregions && m->regions[m->nregions - 1].state == REGION_FREE) {
        m->brk -= m->regions[m->nregions - 1].span;
        m->nregions--;
    }
}

/* Return quarantined regions to the free pool, oldest first, until at most
 * `keep` bytes remain quarantined. Their shadow stays FREED (poisoned) until
 * they are reused, so stale pointers still fault as use-after-free. */
static void release_quarantine(ws_memory *m, uint64_t keep)
{
    while (m->quarantined > keep) {
        size_t oldest = SIZE_MAX;
        for (size_t i = 0; i < m->nregions; i++)
            if (m->regions[i].state == REGION_FREED &&
                (oldest == SIZE_MAX || m->regions[i].serial < m->regions[oldest].serial))
                oldest = i;
        if (oldest == SIZE_MAX) break;
        m->quarantined -= m->regions[oldest].size;
        m->regions[oldest].state = REGION_FREE;
    }
    coalesce(m);
}

uint64_t ws_mem_span(uint64_t size)
{
    return (size + REDZONE + ALLOC_ALIGN - 1) / ALLOC_ALIGN * ALLOC_ALIGN;
}

uint64_t ws_mem_fit(uint64_t range)
{
    range = range / ALLOC_ALIGN * ALLOC_ALIGN;
    return range > REDZONE ? range - REDZONE : 0;
}

uint64_t ws_mem_largest_alloc(const ws_memory *m)
{
    const uint64_t end = ws_mem_user_end(m);
    uint64_t best = end > m->brk ? end - m->brk : 0;
    for (size_t i = 0; i < m->nregions; i++)
        if (m->regions[i].state == REGION_FREE && m->regions[i].span > best) best = m->regions[i].span;
    return ws_mem_fit(best);
}

static int try_alloc(ws_memory *m, uint32_t span, uint32_t size, ws_region_kind kind, uint32_t *addr)
{
    ws_region r = { 0, span, size, (uint8_t)kind, REGION_LIVE, ++m->serial };
    for (size_t i = 0; i < m->nregions; i++) {
        ws_region *h = &m->regions[i];
        if (h->state != REGION_FREE || h->span < span) continue;
        r.addr = h->addr;
        if (h->span == span) {
            *h = r;
        } else {
            h->addr += span;
            h->span -= span;
            if (insert_region(m, i, r)) return -1;
        }
        *addr = r.addr;
        return 0;
    }
    if ((uint64_t)m->brk + span > ws_mem_user_end(m)) return -1;
    r.addr = WS_GLOBAL_BASE + m->brk;
    if (insert_region(m, m->nregions, r)) return -1;
    m->brk += span;
    *addr = r.addr;
    return 0;
}

int ws_mem_alloc(ws_memory *m, uint32_t size, ws_region_kind kind, uint32_t *addr)
{
    if (size == 0 || size > m->limit) return -1;
    uint64_t span64 = ws_mem_span(size);
    if (span64 > m->limit) return -1;
    uint32_t span = (uint32_t)span64;
    if (m->quarantined > QUARANTINE) release_quarantine(m, QUARANTINE);
    if (try_alloc(m, span, size, kind, addr)) {
        release_quarantine(m, 0);
        if (try_alloc(m, span, size, kind, addr)) return -1;
    }
    const ws_region *r = ws_mem_region_near(m, *addr);
    /* Fresh memory reads as zero, as on a real driver that clears pages.
     * Only what an earlier allocation may have touched needs clearing (data
     * and shadow): a large buffer above that costs no page faults. */
    uint32_t off = *addr - WS_GLOBAL_BASE;
    uint32_t touched = off < m->dirty_top ? (m->dirty_top - off < span ? m->dirty_top - off : span) : 0;
    if (kind == REGION_DATA) mark_live(m, r);
    else if (touched) ws_mem_mark(m, r->addr, touched, SHADOW_NONE);
    if (touched) memset(ws_mem_global_ptr(m, *addr), 0, touched < size ? touched : size);
    if (m->brk > m->dirty_top) m->dirty_top = m->brk;
    m->used += size;
    return 0;
}

static size_t find_index(const ws_memory *m, uint32_t addr);

/* Carve [addr, addr + span) out of the hole at index i (which holds it). */
static int carve(ws_memory *m, size_t i, uint32_t addr, uint32_t span, uint32_t size, ws_region_kind kind)
{
    ws_region hole = m->regions[i];
    ws_region r = { addr, span, size, (uint8_t)kind, REGION_LIVE, ++m->serial };
    uint32_t before = addr - hole.addr, after = hole.addr + hole.span - (addr + span);
    size_t at = i;
    if (before) {
        m->regions[i].span = before;
        at = i + 1;
        if (insert_region(m, at, r)) return -1;
    } else {
        m->regions[i] = r;
    }
    if (after) {
        ws_region tail = { addr + span, after, 0, (uint8_t)REGION_DATA, REGION_FREE, 0 };
        if (insert_region(m, at + 1, tail)) return -1;
    }
    return 0;
}

int ws_mem_alloc_at(ws_memory *m, uint32_t addr, uint32_t size, ws_region_kind kind)
{
    if (size == 0 || size > m->limit || (addr - WS_GLOBAL_BASE) % ALLOC_ALIGN || !ws_mem_in_global(m, addr))
        return -1;
    uint64_t span64 = ws_mem_span(size);
    uint64_t off = addr - WS_GLOBAL_BASE;
    if (off + span64 > ws_mem_user_end(m)) return -1;
    uint32_t span = (uint32_t)span64;
    for (int pass = 0; pass < 2; pass++) {
        if (off >= m->brk) { /* above the bump pointer: a hole up to addr, then the region */
            if (off > m->brk) {
                ws_region gap = { WS_GLOBAL_BASE + m->brk, (uint32_t)(off - m->brk), 0, (uint8_t)REGION_DATA,
                                  REGION_FREE, 0 };
                if (insert_region(m, m->nregions, gap)) return -1;
            }
            ws_region r = { addr, span, size, (uint8_t)kind, REGION_LIVE, ++m->serial };
            if (insert_region(m, m->nregions, r)) return -1;
            m->brk = (uint32_t)(off + span);
            break;
        }
        size_t i = find_index(m, addr);
        if (!i) return -1; /* below the first region: cannot happen in the arena */
        i--;
        if (m->regions[i].state == REGION_FREE &&
            (uint64_t)addr + span <= (uint64_t)m->regions[i].addr + m->regions[i].span) {
            if (carve(m, i, addr, span, size, kind)) return -1;
            break;
        }
        if (m->regions[i].state == REGION_FREE && m->regions[i].addr + m->regions[i].span ==
            WS_GLOBAL_BASE + m->brk) { /* the last hole: grow the arena past it */
            uint64_t need = off + span64;
            m->brk = (uint32_t)need;
            m->regions[i].span = (uint32_t)(need - (m->regions[i].addr - WS_GLOBAL_BASE));
            if (carve(m, i, addr, span, size, kind)) return -1;
            break;
        }
        if (pass) return -1;
        release_quarantine(m, 0); /* a freed region may still hold the range */
    }
    const ws_region *r = ws_mem_region_near(m, addr);
    uint32_t touched = off < m->dirty_top ? (m->dirty_top - (uint32_t)off < span ? m->dirty_top - (uint32_t)off : span) : 0;
    if (kind == REGION_DATA) mark_live(m, r);
    else if (touched) ws_mem_mark(m, r->addr, touched, SHADOW_NONE);
    if (touched) memset(ws_mem_global_ptr(m, addr), 0, touched < size ? touched : size);
    if (m->brk > m->dirty_top) m->dirty_top = m->brk;
    m->used += size;
    return 0;
}

static size_t find_index(const ws_memory *m, uint32_t addr)
{
    size_t lo = 0, hi = m->nregions;
    while (lo < hi) { /* first region with start > addr */
        size_t mid = (lo + hi) / 2;
        if (m->regions[mid].addr <= addr) lo = mid + 1;
        else hi = mid;
    }
    return lo; /* regions[lo-1] is the candidate */
}

const ws_region *ws_mem_region_near(const ws_memory *m, uint32_t addr)
{
    size_t i = find_index(m, addr);
    return i ? &m->regions[i - 1] : NULL;
}

int ws_mem_alloc_tool(ws_memory *m, uint32_t size, ws_region_kind kind, uint32_t *addr)
{
    if (!size || size > m->limit) return -1;
    const uint64_t span = ws_mem_span(size);
    /* the gaps from the top down: above tool[0], between neighbours, and
     * from the lowest one down to the program's arena */
    uint64_t hi = m->limit, off = UINT64_MAX;
    uint32_t at = 0;
    for (; at <= m->ntool; at++) {
        const uint64_t lo = at < m->ntool ? (uint64_t)m->tool[at].off + m->tool[at].span : m->brk;
        if (hi >= lo && hi - lo >= span) {
            off = hi - span; /* (limit, offsets and spans are multiples of the alignment) */
            break;
        }
        if (at < m->ntool) hi = m->tool[at].off;
    }
    if (off == UINT64_MAX) return -1;
    if (m->ntool == m->toolcap) {
        const uint32_t cap = m->toolcap ? 2 * m->toolcap : 8;
        struct ws_tool_buffer *grown = realloc(m->tool, cap * sizeof *grown);
        if (!grown) return -1;
        m->tool = grown;
        m->toolcap = cap;
    }
    memmove(&m->tool[at + 1], &m->tool[at], (m->ntool - at) * sizeof *m->tool);
    m->tool[at] = (struct ws_tool_buffer){ (uint32_t)off, (uint32_t)span, size, (uint8_t)kind };
    m->ntool++;
    /* a buffer freed before may have left data and shadow here (above
     * tool_dirty); below it the pages were never touched */
    if (off + span > m->tool_dirty) {
        const uint64_t from = off > m->tool_dirty ? off : m->tool_dirty;
        memset(m->global + from, 0, off + span - from);
        ws_mem_mark(m, WS_GLOBAL_BASE + (uint32_t)from, (uint32_t)(off + span - from), SHADOW_NONE);
    }
    if (off < m->tool_dirty) m->tool_dirty = off;
    if (kind == REGION_DATA) ws_mem_mark(m, WS_GLOBAL_BASE + (uint32_t)off, size, SHADOW_RW);
    *addr = WS_GLOBAL_BASE + (uint32_t)off;
    return 0;
}

int ws_mem_free_tool(ws_memory *m, uint32_t addr)
{
    for (uint32_t i = 0; i < m->ntool; i++) {
        if (WS_GLOBAL_BASE + m->tool[i].off != addr) continue;
        ws_mem_mark(m, addr, m->tool[i].span, SHADOW_NONE);
        memmove(&m->tool[i], &m->tool[i + 1], (m->ntool - i - 1) * sizeof *m->tool);
        m->ntool--;
        return 0;
    }
    return -1;
}

/* The tool buffer holding offset off, or NULL. */
static const struct ws_tool_buffer *tool_buffer_at(const ws_memory *m, uint64_t off)
{
    for (uint32_t i = 0; i < m->ntool; i++)
        if (off - m->tool[i].off < m->tool[i].span) return &m->tool[i];
    return NULL;
}

int ws_mem_free(ws_memory *m, uint32_t addr, ws_region_kind kind)
{
    size_t i = find_index(m, addr);
    if (!i) return -1;
    ws_region *r = &m->regions[i - 1];
    if (r->addr != addr || r->kind != kind) return -1;
    if (r->state == REGION_FREED) return -2;
    if (r->state != REGION_LIVE) return -1;
    r->state = REGION_FREED;
    m->used -= r->size;
    m->quarantined += r->size;
    if (kind != REGION_HARDWARE) ws_mem_mark(m, r->addr, r->span, SHADOW_FREED); /* hardware's: NONE already */
    return 0;
}

uint8_t *ws_mem_host_range(ws_memory *m, uint32_t addr, uint64_t n, int write, char *err, size_t errlen)
{
    const struct ws_tool_buffer *t = ws_mem_in_global(m, addr) ? tool_buffer_at(m, addr - WS_GLOBAL_BASE) : NULL;
    const uint32_t into = t ? addr - WS_GLOBAL_BASE - t->off : 0;
    if (t && t->kind == REGION_DATA && into < t->size && n <= t->size - into)
        return ws_mem_global_ptr(m, addr); /* (a tool's data buffer: the profiler programs trace cells with it) */
    const ws_region *r = ws_mem_in_global(m, addr) ? ws_mem_region_near(m, addr) : NULL;
    /* A copy may also read a loaded module's image, which the host loaded
     * itself (a tool's opcode histogram reads the code, as NVBit's does);
     * only kernels write it (.data, .bss), so a copy into it is refused. */
    const int copy_from = write == WS_MEM_COPY_FROM, module_read = copy_from && r && r->kind == REGION_MODULE;
    if (!r || (r->kind != REGION_DATA && !module_read) || r->state != REGION_LIVE || addr - r->addr >= r->size) {
        char why[160];
        if (copy_from && r && r->kind == REGION_HARDWARE && r->state == REGION_LIVE && addr - r->addr < r->size)
            snprintf(why, sizeof why, "inside a %u-byte render target or texture at 0x%08x, which the host reads with "
                     "ws_gfx_target_read or ws_gfx_texture_read", r->size, r->addr);
        else
            ws_mem_describe(m, addr, why, sizeof why);
        snprintf(err, errlen, "%s of %llu byte%s at 0x%08x: %s", write == WS_MEM_WRITE ? "write" : "read",
                 (unsigned long long)n, n == 1 ? "" : "s", addr, why);
        return NULL;
    }
    if (n > (uint64_t)(r->addr + r->size - addr)) {
        const unsigned long long past = n - (r->addr + r->size - addr);
        snprintf(err, errlen, "%s of %llu byte%s at 0x%08x runs %llu byte%s past the end of the "
                 "%u-byte %s at 0x%08x", write == WS_MEM_WRITE ? "write" : "read", (unsigned long long)n, n == 1 ? "" : "s",
                 addr, past, past == 1 ? "" : "s", r->size, module_read ? "module image" : "allocation", r->addr);
        return NULL;
    }
    return ws_mem_global_ptr(m, addr);
}

void ws_mem_describe(const ws_memory *m, uint32_t addr, char *buf, size_t len)
{
    if (addr < WS_NULL_GUARD_END) {
        snprintf(buf, len, "null pointer (address in the guard page [0, 0x%x))", WS_NULL_GUARD_END);
        return;
    }
    if (!ws_mem_in_global(m, addr)) {
        snprintf(buf, len, "address is not mapped on the device");
        return;
    }
    const struct ws_tool_buffer *t = tool_buffer_at(m, addr - WS_GLOBAL_BASE);
    if (t) {
        snprintf(buf, len, "inside a tool's %u-byte %s at 0x%08x (profiler samples, or the tracer's "
                 "records or instrumented code)", t->size, t->kind == REGION_MODULE ? "module" : "buffer",
                 WS_GLOBAL_BASE + t->off);
        return;
    }
    /* past the program's global_mem_limit, in room a tool grew for its
     * buffers but outside them: what the program sees without the tool */
    if (addr - WS_GLOBAL_BASE >= m->user_limit) {
        snprintf(buf, len, "address is not mapped on the device");
        return;
    }
    const ws_region *r = ws_mem_region_near(m, addr);
    if (!r || r->state == REGION_FREE || addr >= r->addr + r->span) {
        snprintf(buf, len, "address is not inside any allocation");
        return;
    }
    const char *what = r->kind == REGION_MODULE ? "module image" : "allocation";
    if (r->state == REGION_FREED && addr - r->addr >= r->size) /* its red zone: not "N bytes into" it */
        snprintf(buf, len, "out of bounds: %u bytes past the end of the %u-byte %s at 0x%08x, which was freed",
                 addr - r->addr - r->size, r->size, what, r->addr);
    else if (r->state == REGION_FREED)
        snprintf(buf, len, "use after free: %u bytes into the freed %u-byte %s at 0x%08x",
                 addr - r->addr, r->size, what, r->addr);
    else if (addr - r->addr >= r->size)
        snprintf(buf, len, "out of bounds: %u bytes past the end of the %u-byte %s at 0x%08x",
                 addr - r->addr - r->size, r->size, what, r->addr);
    else if (r->kind == REGION_HARDWARE)
        snprintf(buf, len, "inside a %u-byte buffer at 0x%08x that only the device's hardware may write "
                 "(a render target or texture)", r->size, r->addr);
    else if (r->kind == REGION_MODULE)
        snprintf(buf, len, "read-only: %u bytes into the code/constant data of the %s at 0x%08x",
                 addr - r->addr, what, r->addr);
    else
        snprintf(buf, len, "inside the %u-byte %s at 0x%08x", r->size, what, r->addr);
}
