/* Slots claimed with an atomic counter (stream compaction's pattern): the
 * slot each thread gets depends on the order in which blocks of different
 * cores reach the counter (docs/parallel.md, "racing blocks"). */
#include <warpscope/kernel.h>

WS_KERNEL void claim(unsigned *counter, unsigned *owner)
{
    unsigned g = ws_global_id_x();
    owner[atomicAdd(counter, 1u)] = g;
}
