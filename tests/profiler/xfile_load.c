/* The load the kernel of xfile_kernel.c waits on, out of line in a file of
 * its own (no LTO: never inlined into the kernel). */
int fetch(const int *p, unsigned i)
{
    return p[i]; /* MARK_FETCH */
}
