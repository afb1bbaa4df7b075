/* Half of xfile_strided's loads, in a function inlined from this header
 * (check_depth.sh, case rule_files). Keep one marker per line. */
static inline int strided_at(const int *a, unsigned i, unsigned k)
{
    return a[(i * 32u + k) & 65535u]; /* MARK_HLOAD */
}
