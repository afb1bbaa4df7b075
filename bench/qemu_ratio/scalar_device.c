#include <warpscope/kernel.h>
unsigned scalar_program(void);
WS_KERNEL void scalar_entry(unsigned *result) { *result = scalar_program(); }
