/* The device's memory system: one 32-bit address space (see abi.h) with a
 * global arena (modules + allocations) guarded by a shadow map, per-lane
 * stacks, and per-block shared-memory windows. Every lane access is checked. */
#ifndef WS_DEVICE_MEMORY_H
#define WS_DEVICE_MEMORY_H
#include <stddef.h>
#include <stdint.h>
#include "warpscope/abi.h"

/* Shadow byte per 8-byte granule of the global arena. Zero means "not
 * addressable", so a fresh (zero-filled) shadow map starts fully poisoned. */
enum {
    SHADOW_NONE  = 0x00,  /* never allocated, or a redzone                */
    /* 1..8: the first k bytes of the granule are readable and writable   */
    SHADOW_RW    = 0x08,
    SHADOW_RX    = 0x10,  /* module code / read-only data: read + execute */
    SHADOW_FREED = 0xFD   /* freed allocation (use-after-free)            */
};

/* REGION_HARDWARE: a buffer only the device's hardware writes (a render
 * target or texture); its shadow stays NONE, so kernels and host copies cannot touch it. */
typedef enum ws_region_kind { REGION_DATA, REGION_MODULE, REGION_HARDWARE } ws_region_kind;
typedef enum ws_region_state { REGION_LIVE, REGION_FREED, REGION_FREE } ws_region_state;

/* A span of the arena: an allocation (live or quarantined after free) or a
 * hole. Regions tile [base, base + brk) in address order. */
typedef struct ws_region {
    uint32_t addr;       /* device address of the first byte            */
    uint32_t span;       /* bytes reserved, including the redzone       */
    uint32_t size;       /* bytes the user asked for                    */
    uint8_t kind, state;
    uint64_t serial;     /* allocation sequence number, for reports     */
} ws_region;

typedef struct ws_memory {
    uint8_t *global;         /* host view of [WS_GLOBAL_BASE, +limit)    */
    uint8_t *shadow;         /* limit / 8 bytes                          */
    uint64_t limit;          /* bytes of global memory                    */
    uint32_t brk;            /* bytes of the arena handed out so far      */
    uint32_t dirty_top;      /* highest brk ever: above it the arena is still
                                the mmap's untouched zero pages            */
    /* Tools' buffers (the profiler's samples, the
     * tracer's instrumented modules and records) sit at the top of the
     * arena, outside the regions, so a program's modules and allocations
     * get the addresses they get without the tool (captures replay; no
     * perturbation); the program's arena ends below the lowest
     * (ws_mem_tool_lo). */
    uint64_t user_limit;     /* the program's global_mem_limit: its arena
                                ends there or at ws_mem_tool_lo, whichever is lower
                                (the tracer maps more for its own buffers) */
    uint64_t tool_dirty;     /* lowest offset a tool buffer ever had: below
                                it the top of the arena is untouched        */
    struct ws_tool_buffer { uint32_t off, span, size; uint8_t kind; } *tool; /* highest first */
    uint32_t ntool, toolcap;
    ws_region *regions;
    size_t nregions, cap;
    uint64_t used;           /* bytes in live regions (user sizes)        */
    uint64_t quarantined;    /* bytes in freed regions not yet reusable  */
    uint64_t serial;
    uint8_t *stacks;         /* nslots * stack_size bytes, lane-interleaved */
    uint32_t stack_size, nslots;
    uint32_t stack_shift;    /* log2(stack_size): stack sizes are powers of two */
    uint32_t stack_lanes;    /* lanes per warp: the interleave factor          */
} ws_memory;

/* The lowest offset of a tool buffer (they are kept highest first), or the
 * limit when there is none. */
static inline uint64_t ws_mem_tool_lo(const ws_memory *m)
{
    return m->ntool ? m->tool[m->ntool - 1].off : m->limit;
}

/* The end of the program's arena (offset): allocations stay below it. */
static inline uint64_t ws_mem_user_end(const ws_memory *m)
{
    const uint64_t tools = ws_mem_tool_lo(m);
    return m->user_limit < tools ? m->user_limit : tools;
}

/* The bytes an allocation of `size` takes: its red zone, rounded up to the
 * allocation alignment (room a tool makes for a buffer: ws_runtime_grow_arena). */
uint64_t ws_mem_span(uint64_t size);
/* The largest allocation a free range of `range` bytes holds (its red zone
 * and alignment included), 0 if none. */
uint64_t ws_mem_fit(uint64_t range);
/* The largest allocation ws_mem_alloc could place now: the largest free
 * range of the program's arena (a hole or the top; quarantined bytes not
 * counted), as ws_mem_fit gives it. */
uint64_t ws_mem_largest_alloc(const ws_memory *m);

/* nslots lane stacks of stack_size bytes, for warps of `lanes` lanes. */
int  ws_mem_init(ws_memory *m, uint64_t limit, uint32_t stack_size, uint32_t nslots, uint32_t lanes);
void ws_mem_fini(ws_memory *m);

/* Reserve `size` bytes (>0) with 256-byte alignment and a trailing redzone.
 * Returns 0 and the address, or -1 when the limit is reached. The new
 * region's shadow is marked RW (REGION_DATA) or left NONE (REGION_MODULE,
 * for the caller to mark; REGION_HARDWARE). */
int ws_mem_alloc(ws_memory *m, uint32_t size, ws_region_kind kind, uint32_t *addr);
/* The same at a chosen address (a replayer rebuilding a captured layout):
 * 0, or -1 if [addr, addr + span) is not free or not 256-byte aligned. */
int ws_mem_alloc_at(ws_memory *m, uint32_t addr, uint32_t size, ws_region_kind kind);
/* A tool's buffer at the top of the arena, out of the program's way: its
 * allocations, their order numbers and ws_mem_info's used bytes stay what
 * they are without the tool. The highest free range that holds it; shadow
 * as ws_mem_alloc's (a MODULE's for the caller to mark). 0, or -1 when
 * there is no room (the program's arena reaches up to it). */
int ws_mem_alloc_tool(ws_memory *m, uint32_t size, ws_region_kind kind, uint32_t *addr);
/* Free a tool buffer from ws_mem_alloc_tool: 0, or -1 if addr is none. */
int ws_mem_free_tool(ws_memory *m, uint32_t addr);
/* Free a live region that starts exactly at addr. Returns 0, -1 if addr is
 * not the start of a live allocation, -2 if it was already freed. */
int ws_mem_free(ws_memory *m, uint32_t addr, ws_region_kind kind);
/* The region containing addr (live, freed or hole), or the one just before
 * it; NULL if the arena is empty or addr precedes every region. */
const ws_region *ws_mem_region_near(const ws_memory *m, uint32_t addr);
/* Host copies: the range must lie inside one live DATA allocation, or for
 * a copy's source (WS_MEM_COPY_FROM) inside a loaded module's image too.
 * Returns a host pointer or NULL with a message in err. */
enum { WS_MEM_READ = 0, WS_MEM_WRITE = 1, WS_MEM_COPY_FROM = 2 };
uint8_t *ws_mem_host_range(ws_memory *m, uint32_t addr, uint64_t n, int write,
                           char *err, size_t errlen);
/* Mark the shadow of [addr, addr+n) (granule aligned) with a state. */
void ws_mem_mark(ws_memory *m, uint32_t addr, uint32_t n, uint8_t state);

static inline uint8_t *ws_mem_global_ptr(const ws_memory *m, uint32_t addr)
{
    return m->global + (addr - WS_GLOBAL_BASE);
}
static inline int ws_mem_in_global(const ws_memory *m, uint32_t addr)
{
    return addr >= WS_GLOBAL_BASE && (uint64_t)(addr - WS_GLOBAL_BASE) < m->limit;
}
/* Is addr in the lane stacks' window (any lane's)? */
static inline int ws_addr_in_stacks(uint32_t addr) { return addr - WS_STACK_BASE < WS_STACK_END - WS_STACK_BASE; }

/* Host address of byte `off` of lane stack `slot`. Each lane's stack is
 * contiguous in the device address space, but the host stores a warp's
 * stacks word-interleaved (word w of lane l at w * lanes + l), as GPUs
 * lay out local memory: the same offset across a warp's lanes — spills,
 * locals — is one contiguous run, not one page per lane. */
static inline uint8_t *ws_mem_stack_ptr(const ws_memory *m, uint32_t slot, uint32_t off)
{
    uint32_t warp = slot / m->stack_lanes, lane = slot % m->stack_lanes;
    uint64_t word = (uint64_t)warp * (m->stack_size / 4) + off / 4;
    return m->stacks + (word * m->stack_lanes + lane) * 4 + (off & 3);
}

/* Explain why a lane access to addr failed, e.g. "out of bounds: 4 bytes
 * after the end of the 4096-byte allocation at 0x01000100". */
void ws_mem_describe(const ws_memory *m, uint32_t addr, char *buf, size_t len);

#endif
