/* The process's resident set size now, in KiB (from /proc/self/statm; 0
 * if it cannot be read): for the memory checks of tests and benchmarks. */
#ifndef WS_TESTS_RSS_H
#define WS_TESTS_RSS_H
#include <stdio.h>
#include <unistd.h>

static inline long ws_rss_kib(void)
{
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f && fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    if (f) fclose(f);
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}
#endif
