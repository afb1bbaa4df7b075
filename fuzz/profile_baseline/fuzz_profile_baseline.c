/* libFuzzer target for `warpscope profile --baseline OLD.json`
 * (tools/profile_compare.c): the input is two profile JSON documents, the
 * baseline and the current one, split at the first NUL byte (none: the
 * same document twice), handed over as files (memfd). A crash, a
 * sanitizer report or a leak is a finding; a document that is not a
 * profile must be refused, not compared. The seeds are profiles of format
 * version 1 (with "version": 1, or the reader refuses them). */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "profile_compare.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A file holding buf, as a path ("/dev/fd/N"); -1 if it cannot be made. */
static int as_file(const uint8_t *buf, size_t n, char *path, size_t len)
{
    int fd = memfd_create("profile", 0);
    if (fd < 0) return -1;
    if (n && write(fd, buf, n) != (ssize_t)n) {
        close(fd);
        return -1;
    }
    snprintf(path, len, "/dev/fd/%d", fd);
    return fd;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *cut = memchr(data, 0, size);
    size_t n1 = cut ? (size_t)(cut - data) : size;
    const uint8_t *second = cut ? cut + 1 : data;
    size_t n2 = cut ? size - n1 - 1 : size;
    char p1[32], p2[32];
    int f1 = as_file(data, n1, p1, sizeof p1), f2 = as_file(second, n2, p2, sizeof p2);
    FILE *out = fopen("/dev/null", "w");
    /* the refusals' messages go to stderr: not millions of them */
    int saved = dup(2), null = open("/dev/null", O_WRONLY);
    if (saved >= 0 && null >= 0) dup2(null, 2);
    int rc = f1 >= 0 && f2 >= 0 && out ? ws_profile_compare(p1, p2, out) : 0;
    if (saved >= 0) {
        dup2(saved, 2);
        close(saved);
    }
    if (null >= 0) close(null);
    if (out) fclose(out);
    if (f1 >= 0) close(f1);
    if (f2 >= 0) close(f2);
#ifdef WS_FUZZ_SEEDS_COMPARE
    /* The corpus replay (profiler.baseline_corpus): a seed that is a
     * profile must reach the comparison. When the reader began to require
     * "version": 1, every seed was refused before it, and the fuzzer and
     * the replay both stopped at the reader unnoticed. */
    if (rc && memmem(data, n1, "\"warpscope-profile\"", 19)) abort();
#else
    (void)rc;
#endif
    return 0;
}
