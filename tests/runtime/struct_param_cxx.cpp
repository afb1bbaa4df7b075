// A C++ class with a member function, by value: clang passes classes with
// a non-trivial copy or destructor by reference whatever their size, which
// DWARF does not say plainly; the loader refuses every class with member
// functions or bases rather than guess (test_struct_params.c).
#include <warpscope/kernel.h>

struct counter {
    int n;
    counter(const counter &o) : n(o.n + 1) {}
    int get() const { return n; }
};

WS_KERNEL void k_class(counter c, int *out) { out[threadIdx_x()] = c.get(); }
