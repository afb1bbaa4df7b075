/* A struct by value the device does not pass (a float beside a bitfield
 * in 8 bytes, whose placement clang decides by rules not worked out here)
 * and one too large: the module is refused at load, naming each. */
#include <warpscope/kernel.h>

typedef struct { float x; int flags : 4; } s_fbits;

WS_KERNEL void k_fbits(s_fbits p, int *out) { out[threadIdx_x()] = p.flags + (int)p.x; }
