/* The host side of the differential tests (test_qemu_diff.c,
 * tests/cfdiff/test_cfdiff.c): run a program under qemu-riscv32 with
 * in_bytes of input on its stdin and read out_bytes of results from its
 * stdout. 0 if it ran, exited 0 and wrote them all. */
#ifndef WS_TEST_RUN_QEMU_H
#define WS_TEST_RUN_QEMU_H
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static inline int run_qemu(const char *qemu, const char *prog, const void *in, size_t in_bytes, void *out,
                           size_t out_bytes)
{
    int to[2], from[2];
    if (pipe(to) || pipe(from)) return -1;
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        dup2(to[0], 0);
        dup2(from[1], 1);
        close(to[1]);
        close(from[0]);
        execl(qemu, qemu, prog, (char *)NULL);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    /* the callers' inputs (a few KiB) fit in the pipe buffer */
    int ok = write(to[1], in, in_bytes) == (ssize_t)in_bytes;
    close(to[1]);
    size_t got = 0;
    while (got < out_bytes) {
        ssize_t r = read(from[0], (char *)out + got, out_bytes - got);
        if (r <= 0) break;
        got += (size_t)r;
    }
    close(from[0]);
    int st;
    waitpid(pid, &st, 0);
    return ok && got == out_bytes && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}
#endif
