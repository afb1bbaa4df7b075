/* Counter files shared by a program's devices (counter_file.h). */
#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#include "runtime/counter_file.h"

uint64_t ws_counter_next(const char *path)
{
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) return 0;
    uint64_t n = 0;
    int ok = !flock(fd, LOCK_EX) && pread(fd, &n, sizeof n, 0) >= 0;
    n++;
    ok = ok && pwrite(fd, &n, sizeof n, 0) == (ssize_t)sizeof n;
    const int saved = errno;
    close(fd); /* (releases the lock) */
    errno = saved;
    return ok ? n : 0;
}

uint64_t ws_counter_value(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    uint64_t n = 0;
    if (flock(fd, LOCK_SH) || pread(fd, &n, sizeof n, 0) != (ssize_t)sizeof n) n = 0;
    close(fd);
    return n;
}
