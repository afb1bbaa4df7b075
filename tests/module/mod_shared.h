/* Declarations shared by the two source files of the test module. */
#ifndef MOD_SHARED_H
#define MOD_SHARED_H
int shared_lookup(int i);
/* A kernel defined in mod_other.c and called from there: its call-site
 * declaration DIE must not be taken for its definition. */
void k_other(const int *in, int n, int *out);
#endif
