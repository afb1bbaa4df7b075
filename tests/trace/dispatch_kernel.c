/* Indirect control flow (trace.indirect_dispatch): each lane calls through
 * a constant table of function pointers a different number of times, then
 * a switch that the compiler turns into a jump table (a load from .rodata
 * and an indirect jump, code the compiler gives no source line). */
#include <warpscope/kernel.h>

__attribute__((noinline)) static int op_add(int a) { return a + 7; }
__attribute__((noinline)) static int op_mul(int a) { return a * 3; }
__attribute__((noinline)) static int op_neg(int a) { return -a; }
__attribute__((noinline)) static int op_sq(int a) { return a * a; }
static int (*const ops[4])(int) = { op_add, op_mul, op_neg, op_sq };

__attribute__((noinline)) static int pick(int sel, int x)
{
    switch (sel) {
    case 0: return x + 1;
    case 1: return x ^ 0x55;
    case 2: return x << 2;
    case 3: return x - 9;
    case 4: return x * 5;
    case 5: return x >> 1;
    case 6: return ~x;
    case 7: return x | 0x100;
    default: return 0;
    }
}

WS_KERNEL void dispatch(int *out)
{
    unsigned i = ws_global_id_x();
    int v = (int)i;
    for (unsigned k = 0; k < (i % 3) + 1; k++) v = ops[(i + k) % 4](v); /* TABLE */
    out[i] = pick((int)(i % 9), v);
}
