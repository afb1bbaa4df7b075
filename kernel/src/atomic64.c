/* 64-bit atomics for kernels. RV32A has no doubleword AMOs, so clang turns
 * every 64-bit __atomic_* operation into a call to these libatomic-named
 * functions. The device has them on even register pairs, low word first:
 * Zacas's amocas.d, and RV64A's amoswap.d .. amomaxu.d encodings read as
 * pair operations (docs/device.md; the assembler of clang 14 takes none of
 * them on RV32, hence .insn). So each of these is one instruction, but
 * nand (no AMO: a compare-and-swap loop, in which a failed lane retries
 * with the value it saw). Memory order arguments are ignored: the device
 * is sequentially consistent. */
#include <stdbool.h>
#include <stdint.h>

/* amocas.d: if *p == expect, *p = desired; returns the old *p. */
static inline uint64_t cas64(volatile void *p, uint64_t expect, uint64_t desired)
{
    register uint32_t lo __asm__("a4") = (uint32_t)expect, hi __asm__("a5") = (uint32_t)(expect >> 32);
    register uint32_t nlo __asm__("a6") = (uint32_t)desired, nhi __asm__("a7") = (uint32_t)(desired >> 32);
    /* AMO opcode 0x2f, width 3 (doubleword), funct5 0x05 with aq and rl */
    __asm__ volatile(".insn r 0x2f, 3, 0x17, %0, %2, %3"
                     : "+r"(lo), "+r"(hi)
                     : "r"(p), "r"(nlo), "r"(nhi)
                     : "memory");
    return lo | (uint64_t)hi << 32;
}

/* (a compare with 0 that stores 0 on a match: the value, unchanged) */
uint64_t __atomic_load_8(const volatile void *p, int order)
{
    (void)order;
    return cas64((volatile void *)p, 0, 0);
}

/* A doubleword AMO: AMO opcode 0x2f, width 3, funct7 = funct5 << 2 with
 * aq and rl; returns the old *p. */
#define WS__AMO8(name, funct7, operand)                                                             \
    uint64_t name(volatile void *p, uint64_t v, int order)                                        \
    {                                                                                             \
        (void)order;                                                                              \
        const uint64_t x = (operand);                                                             \
        register uint32_t lo __asm__("a4"), hi __asm__("a5");                                     \
        register uint32_t xlo __asm__("a6") = (uint32_t)x, xhi __asm__("a7") = (uint32_t)(x >> 32); \
        __asm__ volatile(".insn r 0x2f, 3, " #funct7 ", %0, %2, %3"                               \
                         : "=&r"(lo), "=&r"(hi)                                                   \
                         : "r"(p), "r"(xlo), "r"(xhi)                                             \
                         : "memory");                                                             \
        return lo | (uint64_t)hi << 32;                                                           \
    }
WS__AMO8(__atomic_exchange_8, 0x07, v)
WS__AMO8(__atomic_fetch_add_8, 0x03, v)
WS__AMO8(__atomic_fetch_sub_8, 0x03, 0 - v)
WS__AMO8(__atomic_fetch_and_8, 0x33, v)
WS__AMO8(__atomic_fetch_or_8, 0x23, v)
WS__AMO8(__atomic_fetch_xor_8, 0x13, v)
/* (clang's extension: __atomic_fetch_min/max on signed and unsigned types) */
WS__AMO8(__atomic_fetch_min_8, 0x43, v)
WS__AMO8(__atomic_fetch_max_8, 0x53, v)
WS__AMO8(__atomic_fetch_umin_8, 0x63, v)
WS__AMO8(__atomic_fetch_umax_8, 0x73, v)

uint64_t __atomic_fetch_nand_8(volatile void *p, uint64_t v, int order)
{
    (void)order;
    uint64_t old = cas64(p, 0, 0), seen;
    while ((seen = cas64(p, old, ~(old & v))) != old) old = seen;
    return old;
}

void __atomic_store_8(volatile void *p, uint64_t v, int order)
{
    (void)__atomic_exchange_8(p, v, order);
}

bool __atomic_compare_exchange_8(volatile void *p, void *expected, uint64_t desired, bool weak, int success,
                                 int failure)
{
    (void)weak, (void)success, (void)failure;
    uint64_t want = *(uint64_t *)expected, seen = cas64(p, want, desired);
    if (seen == want) return true;
    *(uint64_t *)expected = seen;
    return false;
}
