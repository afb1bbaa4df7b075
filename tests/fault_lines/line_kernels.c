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

/* A tail call (this file builds at -O2): scaled ends in a jump to
 * tail_victim, not a call, so scaled's frame is gone when tail_victim
 * faults; the return address is still the kernel's, after its call of
 * scaled. The report names tail_victim's line, then the kernel's. */
static __attribute__((noinline)) int tail_victim(const int *p, int i)
{
    return p[i] * 3 + 1; /* TAIL_FAULT_LINE */
}

static __attribute__((noinline)) int scaled(const int *p, int i)
{
    return tail_victim(p, i * 2 + 1); /* TAIL_JUMP_LINE */
}

WS_KERNEL void tail_call(int *out)
{
    const int *p = threadIdx_x() == 5 ? (const int *)0 : out;
    int r = scaled(p, (int)threadIdx_x()); /* TAIL_CALL_LINE */
    out[threadIdx_x()] = r; /* (not a tail call itself) */
}

/* The kernel's own last statement a call, which -O2 makes a jump: the
 * kernel's frame is gone too; the report ends at tail_store's line (the
 * header names the kernel) and names no caller past the exit stub. */
static __attribute__((noinline)) void tail_store(int *p, int i)
{
    p[i] = i * 3 + 1; /* KERNEL_TAIL_FAULT_LINE */
}

WS_KERNEL void kernel_tail(int *out)
{
    int *p = threadIdx_x() == 5 ? (int *)0 : out;
    tail_store(p, (int)threadIdx_x());
}
