// Kernels a CUDA programmer writes in C++: mangled names (a template in a
// namespace, overloads, a static member function, nested namespaces) and
// one extern "C". check_cxx_kernels.sh compiles and launches each.
#include <warpscope/kernel.h>

namespace ns {
template <class T> WS_KERNEL void scale(T *p, T s) { p[threadIdx_x()] *= s; }
}
template WS_KERNEL void ns::scale<float>(float *, float);
template WS_KERNEL void ns::scale<int>(int *, int);

WS_KERNEL void over(int *p) { p[threadIdx_x()] = 7; }
WS_KERNEL void over(float *p) { p[threadIdx_x()] = 1.5f; }

struct S {
    static WS_KERNEL void fill(int *p, int v);
};
void S::fill(int *p, int v) { p[threadIdx_x()] = v; }

namespace a { namespace b { WS_KERNEL void deep(long long *p, long long v) { p[threadIdx_x()] = v * 3; } } }

extern "C" WS_KERNEL void plain(int *p) { p[threadIdx_x()] = 3; }

// References: the calling convention passes them as pointers (until
// 2026-11-29 one such kernel made the whole module fail to load, its
// parameter's type spelt '?').
WS_KERNEL void by_ref(int &x, float *o) { o[threadIdx_x()] = (float)x + 0.5f; x = 9; }
WS_KERNEL void refs(const double &d, double &&r, float (&arr)[4]) { r = d * 2; arr[3] = 1.5f; }

// The device library's C functions from C++ (until 2026-11-29 kernel.h
// declared them without extern "C": ws_printf(char const*, ...) did not
// link). The whole file builds with -Wall -Wextra -Werror -pedantic.
WS_KERNEL void says(int *o)
{
    assert(threadIdx_x() < 64);
    printf("lane %u of %u\n", ws_lane_id(), blockDim_x());
    o[threadIdx_x()] = (int)ws_ballot(1) + ws_shfl_down(1, 1) + atomicAdd(&o[8], 1);
}
