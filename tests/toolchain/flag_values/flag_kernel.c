/* Built by check_flag_values.sh with clang options whose value is a
 * separate argument: -include forced.h, -iquote quoted, -U DROPPED. */
#include <warpscope/kernel.h>
#include "scale.h" /* found through -iquote */

#ifdef DROPPED
#error "-U DROPPED did not reach clang"
#endif

WS_KERNEL void scaled(int *out) { out[threadIdx_x()] = FORCED_BASE + SCALE * (int)threadIdx_x(); }
