#include <warpscope/kernel.h>
WS_KERNEL void broken(int *p) { p[0] = ; }
