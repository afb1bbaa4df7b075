/* Functions of another source file of calls.elf, reached through a
 * pointer from one line of calls_kernel.c (lib_indirect): the caller
 * view names both at that call site, each with its share. */
#include "calls_ops.h"

/* Stores words one at a time, so that its time grows with n. */
__attribute__((noinline)) void fill_words(int *p, int n, int v)
{
    for (int i = 0; i < n; i++) p[i] = v + i;
}

/* The same, three times over the words: about three times the time. */
void fill_words_thrice(int *p, int n, int v)
{
    for (int r = 0; r < 3; r++)
        for (int i = 0; i < n; i++) p[i] = v + r * i;
}

/* fill_words one call deeper (lib_deep): the kernel calls this, and the
 * time is in fill_words's lines. The store after the call keeps it a
 * call, not a tail jump, so that the kernel's call site names this. */
void fill_words_via(int *p, int n, int v)
{
    fill_words(p, n, v);
    p[0] = v;
}
