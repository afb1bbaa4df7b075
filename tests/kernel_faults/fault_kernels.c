/* One kernel per fault kind. Only block 2, thread 5 misbehaves, so the
 * report must name exactly that thread. */
#include <warpscope/kernel.h>

#define CULPRIT (blockIdx_x() == 2 && threadIdx_x() == 5)

WS_SHARED int sh[16];

static int deep(int n, volatile int *sink)
{
    volatile int big[200];
    big[n % 200] = n;
    *sink += big[n % 200];
    return deep(n + 1, sink) + 1;
}

WS_KERNEL void fault(int kind, int *buf, int *freed)
{
    if (!CULPRIT) return;
    switch (kind) {
    case 0: __asm__ volatile(".word 0"); break;                          /* illegal instruction */
    case 1: buf[1024] = 1; break;                                        /* out of bounds store */
    case 2: *(volatile int *)0 = 1; break;                               /* null store */
    case 3: buf[0] = *(volatile int *)((char *)buf + 2); break;          /* misaligned load */
    case 4: *(volatile int *)((char *)buf + 6) = 1; break;               /* misaligned store */
    case 5: buf[0] = *(volatile int *)freed; break;                      /* use after free */
    case 6: *(volatile int *)(void *)&deep = 0; break;                   /* write to code */
    case 7: buf[0] = deep(0, buf); break;                                /* stack overflow */
    case 8: { int *volatile p = sh; p[threadIdx_x() + 100000] = 1; break; } /* shared out of bounds
                                      (through a pointer the compiler cannot see through: indexing the
                                      static array itself out of bounds lets it drop the store) */
    case 9: __asm__ volatile("ebreak"); break;                           /* breakpoint */
    case 10: { register int a7 __asm__("a7") = 4242; __asm__ volatile("ecall" : : "r"(a7)); break; }
    case 11: assert(kind == 42); break;                                  /* device assert */
    case 12: ws_trap("custom trap message"); break;
    case 13: ((void (*)(void))(void *)buf)(); break;                     /* jump to data */
    case 14: buf[0] = *(volatile int *)(buf + 1024 * 1024); break;       /* out of bounds load */
    case 15: ((volatile char *)buf)[4096] = 1; break;                    /* out of bounds byte store */
    case 16: __atomic_fetch_add((long long *)(buf + 1024 * 1024), 1LL, __ATOMIC_RELAXED); break; /* in the
                                      library's 64-bit atomics, which have no line information */
    default: break;
    }
}

WS_KERNEL void good(int *out)
{
    out[ws_global_id_x()] = (int)ws_global_id_x() * 3;
}

/* Never ends: waits for a flag nobody sets. */
WS_KERNEL void spin_forever(volatile int *flag)
{
    while (*flag == 0) { } /* (test_kernel_faults.c names this line) */
}

/* The overflow of device lane 0's stack (slot 0, at the bottom of the
 * stack window): reported as a stack overflow too, not as an unmapped
 * address. */
WS_KERNEL void overflow0(int *buf)
{
    if (blockIdx_x() == 0 && threadIdx_x() == 0) buf[0] = deep(0, buf);
}

/* A lane-0 frame larger than its stack: its low end lies below the stack
 * window, where the global arena ended when global_mem_limit was at its
 * largest (the store landed in the highest allocation, no fault). */
WS_KERNEL void bigframe(int *out, int i)
{
    volatile char frame[16384];
    frame[i] = 0x5A;
    out[0] = frame[i];
}

/* A frame two stacks deep in lane `lane` only: its sp leaves the lane's
 * stack and its stores land in the guard (lane 1) or in a lower lane's
 * slot (lanes 2 and up), which is a stack overflow all the same. */
static __attribute__((noinline)) int big_frame_fn(int *out, int i)
{
    volatile char frame[20000];
    frame[i] = 0x5A;
    out[0] = frame[i];
    return frame[i];
}

WS_KERNEL void bigframe_lane(int *out, int lane)
{
    if (threadIdx_x() == (unsigned)lane) out[1] = big_frame_fn(out, out[2]);
}

/* A 20 MiB frame: larger than the 16 MiB guard between the global arena
 * and the stacks, so its low end lands in the arena (in the allocation
 * the test places there), past the guard. Until 2026-11-27 its store went
 * there without a fault; the write of sp below the stack now faults. */
WS_KERNEL void bigframe20m(int *out, int i)
{
    volatile char frame[20 << 20];
    frame[i] = 0x5A;
    out[0] = frame[i];
}

static __attribute__((noinline)) int big_frame_20m_fn(int *out, int i)
{
    volatile char frame[20 << 20];
    frame[i] = 0x5A;
    out[0] = frame[i];
    return frame[i];
}

/* The same frame in lane `lane` only. */
WS_KERNEL void bigframe20m_lane(int *out, int lane)
{
    if (threadIdx_x() == (unsigned)lane) out[1] = big_frame_20m_fn(out, out[2]);
}

/* One line from thread 0, then done: test_kernel_faults.c's printf handler
 * asks for the host's interrupt while the launch runs. */
WS_KERNEL void say_once(int *out)
{
    if (ws_global_id_x() == 0) printf("say_once\n");
    out[ws_global_id_x()] = 1;
}
