/* Included first with `warpscope cc -include forced.h`. */
#define FORCED_BASE 100
