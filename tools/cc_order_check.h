/* `warpscope cc`'s warning for code whose warp votes or shuffles the
 * device cannot keep together (cc_order_check.c). */
#ifndef WS_TOOLS_CC_ORDER_CHECK_H
#define WS_TOOLS_CC_ORDER_CHECK_H
#include <stddef.h>
#include <stdint.h>

/* Warn on stderr for each function of the module data[0, size) (named
 * `what`) that holds a warp vote, shuffle or barrier while its control
 * flow is one the device's issue order does not follow (a jump to an
 * address built in code, more than 2048 blocks): it runs in address order,
 * and lanes that branch apart in it may vote or shuffle apart. Returns
 * how many it warned of; a module it cannot read gets no warning. */
unsigned cc_warn_unfollowed(const uint8_t *data, size_t size, const char *what);
#endif
