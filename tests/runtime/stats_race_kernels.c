/* A short kernel for test_stats_race.c. */
#include <warpscope/kernel.h>

WS_KERNEL void touch(int *out) { out[blockIdx_x() * blockDim_x() + threadIdx_x()] = (int)ws_launch_id(); }
