#include <string.h>
#include <warpscope/kernel.h>

static inline __attribute__((always_inline)) void store_at(int *p, int i, int v)
{
    p[i] = v; /* FAULT_LINE_INLINED */
}

/* Thread 5 stores through a null pointer inside an inlined helper. */
WS_KERNEL void bad_store(int *out)
{
    int *p = threadIdx_x() == 5 ? (int *)0 : out;
    store_at(p, (int)threadIdx_x(), 1); /* CALL_LINE */
}

/* Thread 2 loads out of bounds, in the kernel's own code. */
WS_KERNEL void bad_load(int *out, int n)
{
    int t = (int)threadIdx_x();
    out[t] = out[t + (t == 2 ? n * 1000 : 0)]; /* FAULT_LINE_DIRECT */
}

/* A fault inside a library function (picolibc's memset, assembly with no
 * CFI) called from a helper of the kernel's own: the report names the
 * library's line and then each call that led there. */
static __attribute__((noinline)) void fill(int *p, int n)
{
    memset(p, 0, (size_t)n * sizeof *p); /* LIB_CALL_LINE */
    p[0] += n; /* (not a tail call: a tail call leaves no frame to name) */
}

WS_KERNEL void lib_call(int *out)
{
    int *p = threadIdx_x() == 5 ? (int *)0 : out + threadIdx_x();
    fill(p, 1); /* FILL_CALL_LINE */
    out[threadIdx_x()] = 2; /* (not a tail call) */
}

/* A call through a bad function pointer: no code at the pc, the line that
 * made the call. */
WS_KERNEL void bad_pointer(int *out)
{
    void (*f)(int *) = threadIdx_x() == 5 ? (void (*)(int *))0x40 : 0;
    if (f) f(out); /* BAD_CALL_LINE */
    out[threadIdx_x()] = 1;
}

/* ws_trap (the device library) from a recursion: the trap's caller, the
 * recursive calls counted, and the kernel's line. */
static __attribute__((noinline)) int down(int *out, int d)
{
    if (d == 0) ws_trap("bottom"); /* TRAP_LINE */
    int r = down(out, d - 1) + d; /* RECURSE_LINE */
    out[d] = r;
    return r;
}

WS_KERNEL void recurse(int *out)
{
    if (threadIdx_x() == 5) down(out, 6); /* RECURSE_CALL_LINE */
    out[threadIdx_x()] = 2; /* (not a tail call) */
}

/* A function a kernel of another module calls through a pointer
 * (test_fault_modules): publish gives its address. */
__attribute__((noinline, used)) int other_victim(const int *p)
{
    return p[3] * 2 + 1; /* OTHER_FAULT_LINE */
}

WS_KERNEL void publish(unsigned *o)
{
    o[0] = (unsigned)(uintptr_t)&other_victim;
}
