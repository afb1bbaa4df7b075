/* Unit tests of the global arena: allocation, redzones, shadow states,
 * quarantine, host range checks, limits. */
#include "device/memory.h"
#include "../test.h"

static uint8_t shadow_at(const ws_memory *m, uint32_t a) { return m->shadow[(a - WS_GLOBAL_BASE) >> 3]; }

int main(void)
{
    ws_memory m;
    char err[256];
    CHECK(ws_mem_init(&m, 4u << 20, 1024, 64, 32) == 0);

    uint32_t a, b, c;
    CHECK(ws_mem_alloc(&m, 100, REGION_DATA, &a) == 0);
    CHECK_EQ_U(a, WS_GLOBAL_BASE);
    CHECK(ws_mem_alloc(&m, 4096, REGION_DATA, &b) == 0);
    CHECK(b % 256 == 0 && b >= a + 100 + 256); /* redzone after a */
    CHECK_EQ_U(shadow_at(&m, a), SHADOW_RW);
    CHECK_EQ_U(shadow_at(&m, a + 96), 4);          /* 100 = 12*8 + 4 */
    CHECK_EQ_U(shadow_at(&m, a + 104), SHADOW_NONE); /* redzone */
    CHECK_EQ_U(m.used, 4196);

    /* host ranges */
    CHECK(ws_mem_host_range(&m, a, 100, 1, err, sizeof err) != NULL);
    CHECK(ws_mem_host_range(&m, a, 101, 1, err, sizeof err) == NULL);
    CHECK_STR_CONTAINS(err, "1 byte past the end of the 100-byte allocation");
    CHECK(ws_mem_host_range(&m, a + 100, 1, 0, err, sizeof err) == NULL);
    CHECK_STR_CONTAINS(err, "out of bounds");
    CHECK(ws_mem_host_range(&m, 0x10, 4, 0, err, sizeof err) == NULL);
    CHECK_STR_CONTAINS(err, "null pointer");

    /* free, double free, use after free description */
    CHECK(ws_mem_free(&m, a, REGION_DATA) == 0);
    CHECK(ws_mem_free(&m, a, REGION_DATA) == -2);
    CHECK(ws_mem_free(&m, b + 4, REGION_DATA) == -1);
    CHECK(ws_mem_free(&m, b, REGION_MODULE) == -1);
    CHECK_EQ_U(shadow_at(&m, a), SHADOW_FREED);
    ws_mem_describe(&m, a + 8, err, sizeof err);
    CHECK_STR_CONTAINS(err, "use after free: 8 bytes into the freed 100-byte allocation");
    /* past the freed allocation's end, in its red zone: not "200 bytes
     * into" a 100-byte allocation (as it said until 2026-11-27) */
    ws_mem_describe(&m, a + 200, err, sizeof err);
    CHECK_STR_CONTAINS(err, "out of bounds: 100 bytes past the end of the 100-byte allocation at 0x01000000, "
                       "which was freed");
    /* quarantined memory is not handed out again at once */
    CHECK(ws_mem_alloc(&m, 64, REGION_DATA, &c) == 0);
    CHECK(c != a);

    /* the limit: large allocations fail cleanly, and quarantine is released
     * when memory runs short */
    uint32_t big;
    CHECK(ws_mem_alloc(&m, 8u << 20, REGION_DATA, &big) == -1);
    CHECK(ws_mem_alloc(&m, 0, REGION_DATA, &big) == -1);
    CHECK(ws_mem_free(&m, b, REGION_DATA) == 0);
    CHECK(ws_mem_free(&m, c, REGION_DATA) == 0);
    CHECK(ws_mem_alloc(&m, (4u << 20) - 512, REGION_DATA, &big) == 0);
    CHECK_EQ_U(big, WS_GLOBAL_BASE);
    /* reused memory reads as zero again, in the part earlier allocations
     * wrote and in the part above it, which no allocation ever touched */
    int zero = 1;
    for (uint32_t i = 0; i < (4u << 20) - 512; i++) zero &= ws_mem_global_ptr(&m, big)[i] == 0;
    CHECK(zero);
    memset(ws_mem_global_ptr(&m, big), 0xA5, (4u << 20) - 512);
    CHECK(ws_mem_free(&m, big, REGION_DATA) == 0);
    {
        uint32_t again;
        CHECK(ws_mem_alloc(&m, (4u << 20) - 512, REGION_HARDWARE, &again) == 0); /* the quarantine is let go */
        CHECK_EQ_U(again, WS_GLOBAL_BASE);
        zero = 1;
        for (uint32_t i = 0; i < (4u << 20) - 512; i++) zero &= ws_mem_global_ptr(&m, again)[i] == 0;
        CHECK(zero);
        /* a hardware buffer: no kernel or host copy may touch it */
        CHECK_EQ_U(shadow_at(&m, again + 4096), SHADOW_NONE);
        CHECK(ws_mem_host_range(&m, again + 8, 4, 0, err, sizeof err) == NULL);
        CHECK_STR_CONTAINS(err, "only the device's hardware may write");
        /* a copy from it is told how the host reads one (it was told who may write it) */
        CHECK(ws_mem_host_range(&m, again + 8, 4, WS_MEM_COPY_FROM, err, sizeof err) == NULL);
        CHECK_STR_CONTAINS(err, "read of 4 bytes at 0x01000008: inside a 4193792-byte render target or texture at "
                           "0x01000000, which the host reads with ws_gfx_target_read or ws_gfx_texture_read");
        CHECK(ws_mem_free(&m, again, REGION_DATA) == -1);
        CHECK(ws_mem_free(&m, again, REGION_HARDWARE) == 0);
    }

    /* many small allocations reuse holes */
    uint32_t addrs[200];
    int ok = 1;
    for (int i = 0; i < 200; i++) ok &= ws_mem_alloc(&m, 1000 + (uint32_t)i, REGION_DATA, &addrs[i]) == 0;
    CHECK(ok);
    for (int i = 0; i < 200; i += 2) ok &= ws_mem_free(&m, addrs[i], REGION_DATA) == 0;
    CHECK(ok);
    for (int i = 0; i < 200; i++) {
        const ws_region *r = ws_mem_region_near(&m, addrs[i] + 5);
        ok &= r && r->addr == addrs[i];
    }
    CHECK(ok);
    /* interleaved stacks: distinct (slot, offset) pairs never share bytes,
     * and one offset across a warp's lanes is contiguous */
    CHECK(ws_mem_stack_ptr(&m, 1, 0) == ws_mem_stack_ptr(&m, 0, 0) + 4);
    CHECK(ws_mem_stack_ptr(&m, 0, 4) == ws_mem_stack_ptr(&m, 0, 0) + 32 * 4);
    CHECK(ws_mem_stack_ptr(&m, 0, 3) == ws_mem_stack_ptr(&m, 0, 0) + 3);
    CHECK(ws_mem_stack_ptr(&m, 32, 0) == ws_mem_stack_ptr(&m, 0, 1020) + 4 * 32 - 3 * 0);
    CHECK(ws_mem_stack_ptr(&m, 63, 1020) + 4 == m.stacks + 64u * 1024);
    ws_mem_fini(&m);
    return TEST_SUMMARY();
}
