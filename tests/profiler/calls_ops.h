/* calls_ops.c: the targets of calls_kernel.c's call through a pointer. */
#ifndef CALLS_OPS_H
#define CALLS_OPS_H
void fill_words(int *p, int n, int v);
void fill_words_thrice(int *p, int n, int v);
void fill_words_via(int *p, int n, int v);
#endif
