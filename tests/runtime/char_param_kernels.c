/* Plain, signed and unsigned char parameters (test_char_param.c). */
#include <warpscope/kernel.h>

WS_KERNEL void chars(char c, signed char s, unsigned char u, int *out)
{
    out[0] = c;
    out[1] = s;
    out[2] = u;
}
