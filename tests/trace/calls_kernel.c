/* Calls the assembler resolves itself (static noinline and recursive
 * functions in the same section: no relocation is left for the rewriter,
 * which refused every kernel of such a module). */
#include <warpscope/kernel.h>

__attribute__((noinline)) static int fib(int d) { return d < 2 ? d : fib(d - 1) + fib(d - 2); }
__attribute__((noinline)) static int triple_plus_one(int d) { return d * 3 + 1; }
__attribute__((noinline)) static int chain(int d) { return triple_plus_one(d) + 2; }

WS_KERNEL void use_calls(int *a)
{
    unsigned i = ws_global_id_x();
    a[i] = fib((int)(i % 9)) + chain((int)i);
}
