/* <warpscope/kernel.h>: everything a Warpscope kernel needs. Kernels are
 * plain C functions marked WS_KERNEL, compiled by `warpscope cc`.
 *
 *   #include <warpscope/kernel.h>
 *   WS_KERNEL void scale(float *v, float s, int n) {
 *       int i = blockIdx_x() * blockDim_x() + threadIdx_x();
 *       if (i < n) v[i] *= s;
 *   }
 *
 * Reference: docs/kernel-api.md. ABI numbers: <warpscope/abi.h>. */
#ifndef WARPSCOPE_KERNEL_H
#define WARPSCOPE_KERNEL_H
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <warpscope/abi.h>

/* C++ kernels (warpscope cc k.cpp) call the device library's C functions
 * (ws_printf, ws_assert_fail, ws_trap, ...) by their C names. */
#ifdef __cplusplus
extern "C" {
#endif

/* ---- declarations ---- */
/* A kernel entry point: a global function placed where the loader finds it. */
#define WS_KERNEL __attribute__((used, noinline, section(".ws_kernels"))) __attribute__((visibility("default")))
/* A variable in the block's static shared memory, at file scope or inside
 * a kernel (`WS_SHARED int buf[256];`, as CUDA's __shared__ is written).
 * It has static storage, one copy per block, zeroed when the block starts;
 * it cannot have an initializer. WS_SHARED_GLOBAL is the external-linkage
 * form for an array that several source files of one module share (declare
 * it `extern WS_SHARED_GLOBAL int buf[];` in the others). */
#define WS_SHARED static __attribute__((section(".ws_shared")))
#define WS_SHARED_GLOBAL __attribute__((section(".ws_shared")))
/* An inlined device function (yours keep their lines under a debugger). */
#define WS_DEVICE static inline __attribute__((always_inline))
/* A helper of these headers. nodebug: its inlined instructions take the
 * caller's line, as a debugger treats intrinsics, so a breakpoint on a line
 * made only of a call (`atomicAdd(&h[b], 1);`, `__syncthreads();`) stops
 * before the call, and `step` does not enter the header. Without it the
 * line had no code of its own: the breakpoint went to the next line, past
 * the call. The float and double CAS loops too: a retry is not a step the
 * user wrote. */
#define WS__HELPER WS_DEVICE __attribute__((nodebug))

#define WS__CSR(num) __extension__({ unsigned ws_v_; __asm__ volatile("csrr %0, " #num : "=r"(ws_v_)); ws_v_; })

/* ---- thread and block coordinates (CUDA: threadIdx.x, blockIdx.x, ...) ---- */
WS__HELPER unsigned threadIdx_x(void) { return WS__CSR(0xCC4); }
WS__HELPER unsigned threadIdx_y(void) { return WS__CSR(0xCC5); }
WS__HELPER unsigned threadIdx_z(void) { return WS__CSR(0xCC6); }
WS__HELPER unsigned blockIdx_x(void) { return WS__CSR(0xCC7); }
WS__HELPER unsigned blockIdx_y(void) { return WS__CSR(0xCC8); }
WS__HELPER unsigned blockIdx_z(void) { return WS__CSR(0xCC9); }
WS__HELPER unsigned blockDim_x(void) { return WS__CSR(0xCCA); }
WS__HELPER unsigned blockDim_y(void) { return WS__CSR(0xCCB); }
WS__HELPER unsigned blockDim_z(void) { return WS__CSR(0xCCC); }
WS__HELPER unsigned gridDim_x(void) { return WS__CSR(0xCCD); }
WS__HELPER unsigned gridDim_y(void) { return WS__CSR(0xCCE); }
WS__HELPER unsigned gridDim_z(void) { return WS__CSR(0xCCF); }
/* x + y*blockDim.x + z*blockDim.x*blockDim.y */
WS__HELPER unsigned ws_thread_linear(void) { return WS__CSR(0xCD3); }
/* blockIdx.x * blockDim.x + threadIdx.x: the usual 1-D global index. */
WS__HELPER unsigned ws_global_id_x(void) { return blockIdx_x() * blockDim_x() + threadIdx_x(); }

/* ---- hardware coordinates ---- */
WS__HELPER unsigned ws_lane_id(void) { return WS__CSR(0xCC0); }
WS__HELPER unsigned ws_warp_id(void) { return WS__CSR(0xCC1); }      /* warp slot on the core */
WS__HELPER unsigned ws_core_id(void) { return WS__CSR(0xCC2); }
WS__HELPER unsigned ws_warp_in_block(void) { return WS__CSR(0xCD4); }
WS__HELPER unsigned ws_warp_size(void) { return WS__CSR(0xFC0); }
WS__HELPER unsigned ws_active_mask(void) { return WS__CSR(0xCC3); }
WS__HELPER unsigned ws_launch_id(void) { return WS__CSR(0xCD0); }

/* ---- barriers and shared memory ---- */
/* Wait until every live thread of the block reaches barrier `id` (0-15). */
WS__HELPER void ws_barrier(unsigned id)
{
    __asm__ volatile(".insn r 0x0B, 4, 0, x0, %0, x0" : : "r"(id) : "memory");
}
WS__HELPER void ws_syncthreads(void) { ws_barrier(0); }
#define __syncthreads() ws_syncthreads()
/* Order memory accesses (the device is sequentially consistent; this also
 * stops the compiler from moving accesses across it). */
WS__HELPER void ws_threadfence(void) { __asm__ volatile("fence rw, rw" ::: "memory"); }
/* The block's dynamic shared memory (size given at launch). */
WS__HELPER void *ws_dynamic_shared(void) { return (void *)(uintptr_t)WS__CSR(0xCD1); }

/* ---- warp vote and shuffle (over the lanes executing together) ---- */
#define WS__VOTE(f3, p) __extension__({ unsigned ws_r_; __asm__ volatile(".insn r 0x0B, " #f3 ", 1, %0, %1, x0" \
                           : "=r"(ws_r_) : "r"((unsigned)(p))); ws_r_; })
WS__HELPER int ws_all(int pred) { return (int)WS__VOTE(0, pred != 0); }
WS__HELPER int ws_any(int pred) { return (int)WS__VOTE(1, pred != 0); }
WS__HELPER int ws_uni(int pred) { return (int)WS__VOTE(2, pred != 0); }
WS__HELPER unsigned ws_ballot(int pred) { return WS__VOTE(3, pred != 0); }
#define WS__SHFL(f3, v, s) __extension__({ unsigned ws_r_; __asm__ volatile(".insn r 0x0B, " #f3 ", 1, %0, %1, %2" \
                              : "=r"(ws_r_) : "r"((unsigned)(v)), "r"((unsigned)(s))); ws_r_; })
/* Value from lane (lane - delta) / (lane + delta) / (lane ^ mask) / (src);
 * a source outside the warp or not active gives the caller's own value. */
WS__HELPER int ws_shfl_up(int v, unsigned delta) { return (int)WS__SHFL(4, v, delta); }
WS__HELPER int ws_shfl_down(int v, unsigned delta) { return (int)WS__SHFL(5, v, delta); }
WS__HELPER int ws_shfl_xor(int v, unsigned mask) { return (int)WS__SHFL(6, v, mask); }
WS__HELPER int ws_shfl_idx(int v, unsigned src) { return (int)WS__SHFL(7, v, src); }
WS__HELPER float ws_shfl_down_f(float v, unsigned delta)
{
    union { float f; int i; } u = { v };
    u.i = ws_shfl_down(u.i, delta);
    return u.f;
}
WS__HELPER float ws_shfl_xor_f(float v, unsigned mask)
{
    union { float f; int i; } u = { v };
    u.i = ws_shfl_xor(u.i, mask);
    return u.f;
}

/* ---- atomics (global or shared memory; lanes of a warp apply in lane order) ---- */
#define WS__ATOMIC_FNS(T, S)                                                                      \
    WS__HELPER T atomicAdd##S(T *p, T v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }  \
    WS__HELPER T atomicSub##S(T *p, T v) { return __atomic_fetch_sub(p, v, __ATOMIC_SEQ_CST); }  \
    WS__HELPER T atomicAnd##S(T *p, T v) { return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST); }  \
    WS__HELPER T atomicOr##S(T *p, T v) { return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST); }    \
    WS__HELPER T atomicXor##S(T *p, T v) { return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST); }  \
    WS__HELPER T atomicExch##S(T *p, T v) { return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST); } \
    WS__HELPER T atomicCAS##S(T *p, T expected, T desired)                                       \
    {                                                                                           \
        __atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
        return expected;                                                                        \
    }
WS__ATOMIC_FNS(int, _i)
WS__ATOMIC_FNS(unsigned, _u)
WS__HELPER int atomicMin_i(int *p, int v) { return __atomic_fetch_min(p, v, __ATOMIC_SEQ_CST); }
WS__HELPER int atomicMax_i(int *p, int v) { return __atomic_fetch_max(p, v, __ATOMIC_SEQ_CST); }
WS__HELPER unsigned atomicMin_u(unsigned *p, unsigned v) { return __atomic_fetch_min(p, v, __ATOMIC_SEQ_CST); }
WS__HELPER unsigned atomicMax_u(unsigned *p, unsigned v) { return __atomic_fetch_max(p, v, __ATOMIC_SEQ_CST); }
/* Float add: one amofadd.s (include/warpscope/abi.h), as a GPU's float
 * atomic: lanes apply in lane order, rounding to nearest even whatever
 * frm says, raising no fflags. */
WS__HELPER float atomicAdd_f(float *p, float v)
{
    union { float f; unsigned u; } add = { v }, old;
    __asm__ volatile(".insn r 0x0B, 2, 2, %0, %1, %2" : "=r"(old.u) : "r"(p), "r"(add.u) : "memory");
    return old.f;
}
/* 64-bit atomics: lock-free calls into the device library (kernel/src/
 * atomic64.c, built on the device's amocas.d); the address must be
 * 8-byte aligned. */
WS__ATOMIC_FNS(long long, _ll)
WS__ATOMIC_FNS(unsigned long long, _ull)
WS__HELPER long long atomicMin_ll(long long *p, long long v) { return __atomic_fetch_min(p, v, __ATOMIC_SEQ_CST); }
WS__HELPER long long atomicMax_ll(long long *p, long long v) { return __atomic_fetch_max(p, v, __ATOMIC_SEQ_CST); }
WS__HELPER unsigned long long atomicMin_ull(unsigned long long *p, unsigned long long v)
{
    return __atomic_fetch_min(p, v, __ATOMIC_SEQ_CST);
}
WS__HELPER unsigned long long atomicMax_ull(unsigned long long *p, unsigned long long v)
{
    return __atomic_fetch_max(p, v, __ATOMIC_SEQ_CST);
}
/* Double add: one amofadd.d (abi.h) on the register pairs a4:a5 (old) and
 * a6:a7 (addend), lanes in lane order, rounding to nearest even. */
WS__HELPER double atomicAdd_d(double *p, double v)
{
    union { double d; unsigned long long u; } add = { v }, old;
    register unsigned lo __asm__("a4"), hi __asm__("a5");
    register unsigned vlo __asm__("a6") = (unsigned)add.u, vhi __asm__("a7") = (unsigned)(add.u >> 32);
    __asm__ volatile(".insn r 0x0B, 3, 2, %0, %2, %3" : "=&r"(lo), "=&r"(hi) : "r"(p), "r"(vlo), "r"(vhi) : "memory");
    old.u = lo | (unsigned long long)hi << 32;
    return old.d;
}
/* CUDA-style names that pick the right type. */
#define WS__PICK(fn, p, ...)                                                                      \
    __extension__ _Generic((p), int *: fn##_i, unsigned *: fn##_u, long long *: fn##_ll, unsigned long long *: fn##_ull)(p, __VA_ARGS__)
#define atomicAdd(p, v)                                                                            \
    __extension__ _Generic((p), int *: atomicAdd_i, unsigned *: atomicAdd_u, float *: atomicAdd_f, long long *: atomicAdd_ll, \
             unsigned long long *: atomicAdd_ull, double *: atomicAdd_d)(p, v)
#define atomicSub(p, v) WS__PICK(atomicSub, p, v)
#define atomicAnd(p, v) WS__PICK(atomicAnd, p, v)
#define atomicOr(p, v) WS__PICK(atomicOr, p, v)
#define atomicXor(p, v) WS__PICK(atomicXor, p, v)
#define atomicExch(p, v) WS__PICK(atomicExch, p, v)
#define atomicMin(p, v) WS__PICK(atomicMin, p, v)
#define atomicMax(p, v) WS__PICK(atomicMax, p, v)
#define atomicCAS(p, e, d) WS__PICK(atomicCAS, p, e, d)

/* ---- printf, assert, trap ---- */
/* Device printf: formatted on the device (picolibc vsnprintf), delivered to
 * the host as one record per call, in order per thread. At most 256 bytes. */
int ws_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int ws_vprintf(const char *fmt, va_list ap);
#define printf ws_printf
int snprintf(char *buf, size_t n, const char *fmt, ...);
int vsnprintf(char *buf, size_t n, const char *fmt, va_list ap);

void ws_assert_fail(const char *expr, const char *file, unsigned line, const char *func)
    __attribute__((noreturn));
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
#define assert(e) ((e) ? (void)0 : ws_assert_fail(#e, __FILE__, __LINE__, __func__))
#endif
/* Stop the launch with a message (reported as a trap). */
void ws_trap(const char *message) __attribute__((noreturn));

/* ---- math: <math.h> from picolibc; the F extension does these directly ---- */
#define sqrtf(x) __builtin_sqrtf(x)
#define fabsf(x) __builtin_fabsf(x)
#define fminf(x, y) __builtin_fminf(x, y)
#define fmaxf(x, y) __builtin_fmaxf(x, y)
#define fmaf(x, y, z) __builtin_fmaf(x, y, z)
#define copysignf(x, y) __builtin_copysignf(x, y)

#ifdef __cplusplus
}
#endif

#endif
