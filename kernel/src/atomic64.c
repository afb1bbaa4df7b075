/* 64-bit atomics for kernels. RV32A has no doubleword AMOs, so clang turns
 * every 64-bit __atomic_* operation into a call to these libatomic-named
 * functions. Each is lock-free, built on the device's Zacas amocas.d (a
 * compare-and-swap on an even register pair, low word first; the
 * assembler of clang 14 does not know the mnemonic, hence .insn), so the
 * lanes of a warp contending for one doubleword never wait on each other
 * across iterations: a failed lane retries with the value it saw. Memory
 * order arguments are ignored: the device is sequentially consistent. */
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

#define WS__RMW8(name, expr)                                              \
    uint64_t name(volatile void *p, uint64_t v, int order)                \
    {                                                                     \
        (void)order;                                                      \
        uint64_t old = cas64(p, 0, 0), seen;                              \
        while ((seen = cas64(p, old, (expr))) != old) old = seen;         \
        return old;                                                       \
    }
WS__RMW8(__atomic_exchange_8, v)
WS__RMW8(__atomic_fetch_add_8, old + v)
WS__RMW8(__atomic_fetch_sub_8, old - v)
WS__RMW8(__atomic_fetch_and_8, old & v)
WS__RMW8(__atomic_fetch_or_8, old | v)
WS__RMW8(__atomic_fetch_xor_8, old ^ v)
WS__RMW8(__atomic_fetch_nand_8, ~(old & v))
/* (clang's extension: __atomic_fetch_min/max on signed and unsigned types) */
WS__RMW8(__atomic_fetch_min_8, (int64_t)old < (int64_t)v ? old : v)
WS__RMW8(__atomic_fetch_max_8, (int64_t)old > (int64_t)v ? old : v)
WS__RMW8(__atomic_fetch_umin_8, old < v ? old : v)
WS__RMW8(__atomic_fetch_umax_8, old > v ? old : v)

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
