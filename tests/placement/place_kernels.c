#include <warpscope/kernel.h>

/* Three shared arrays in one module; each kernel uses some of them. */
WS_SHARED int tile_a[256];    /* 1 KiB */
WS_SHARED int tile_b[1024];   /* 4 KiB */
WS_SHARED float tile_c[64];   /* 256 B, used only through a helper */

/* Reverse the block's slice through tile_a. */
WS_KERNEL void use_a(int *out)
{
    unsigned t = threadIdx_x(), n = blockDim_x();
    tile_a[t] = (int)(blockIdx_x() * n + t);
    ws_syncthreads();
    out[blockIdx_x() * n + t] = tile_a[n - 1 - t];
}

/* Sum over tile_b, written by a helper that the kernel calls. */
__attribute__((noinline)) static void fill_b(unsigned t, unsigned n)
{
    for (unsigned i = t; i < 1024; i += n) tile_b[i] = (int)i;
}

WS_KERNEL void use_b(int *out)
{
    unsigned t = threadIdx_x(), n = blockDim_x();
    fill_b(t, n);
    ws_syncthreads();
    int s = 0;
    for (unsigned i = 0; i < 1024; i++) s += tile_b[i];
    out[blockIdx_x() * n + t] = s + (int)t;
}

__attribute__((noinline)) static float through_c(unsigned t)
{
    tile_c[t % 64] = (float)t;
    ws_syncthreads();
    return tile_c[(t + 1) % 64];
}

/* tile_c only through a helper, plus dynamic shared memory after it. */
WS_KERNEL void use_c_dyn(int *out)
{
    unsigned t = threadIdx_x();
    int *dyn = (int *)ws_dynamic_shared();
    dyn[t % 16] = (int)t;
    float v = through_c(t);
    ws_syncthreads();
    out[blockIdx_x() * blockDim_x() + t] = (int)v + dyn[t % 16];
}

/* No shared memory at all. */
WS_KERNEL void use_none(int *out)
{
    out[ws_global_id_x()] = (int)WS__CSR(0xCC2); /* the core it ran on */
}

/* Block-scope shared arrays, written the way CUDA code writes __shared__:
 * each kernel has its own, and reserves only it. */
WS_KERNEL void local_a(int *out)
{
    WS_SHARED int buf[128];
    unsigned t = threadIdx_x();
    buf[t] = (int)t * 3;
    ws_syncthreads();
    out[blockIdx_x() * blockDim_x() + t] = buf[blockDim_x() - 1 - t];
}

WS_KERNEL void local_b(int *out)
{
    WS_SHARED long long buf[8];
    unsigned t = threadIdx_x();
    if (t < 8) buf[t] = (long long)t << 33;
    ws_syncthreads();
    out[blockIdx_x() * blockDim_x() + t] = (int)(buf[t % 8] >> 33);
}

/* A switch compiled to a jump table: its indirect jump goes to the
 * table's cases, so the kernel reserves its own array only (until
 * 2026-11-29, every WS_SHARED object of the module, as a call through a
 * pointer does). */
WS_KERNEL void local_switch(int *out)
{
    WS_SHARED int sw[32];
    unsigned t = threadIdx_x();
    int v = (int)t;
    switch (t % 8) {
    case 0: v = v * 5; break;
    case 1: v = v + 9; break;
    case 2: v = v ^ 6; break;
    case 3: v = v - 3; break;
    case 4: v = v << 2; break;
    case 5: v = v * v + 1; break;
    case 6: v = v + 200; break;
    default: break;
    }
    sw[t % 32] = v;
    ws_syncthreads();
    out[blockIdx_x() * blockDim_x() + t] = sw[(t + 1) % 32];
}

/* No shared memory of its own, but a call through a function pointer the
 * walk cannot follow: it reserves every WS_SHARED object of the module,
 * and a launch refused for that says why. */
typedef int (*int_op)(int);
__attribute__((noinline)) static int doubled(int x) { return 2 * x; }
static int_op volatile chosen_op = doubled;
WS_KERNEL void through_pointer(int *out)
{
    out[ws_global_id_x()] = chosen_op((int)threadIdx_x());
}
