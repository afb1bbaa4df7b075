/* Copying a command's output file (file_copy.h). */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "file_copy.h"

int ws_copy_file(const char *from, const char *to)
{
    int in = open(from, O_RDONLY | O_CLOEXEC), out = in < 0 ? -1 : open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    int rc = in < 0 || out < 0 ? -1 : 0;
    char buf[65536];
    ssize_t got;
    while (!rc && (got = read(in, buf, sizeof buf)) != 0) {
        if (got < 0) { rc = -1; break; }
        for (ssize_t done = 0, w; done < got; done += w)
            if ((w = write(out, buf + done, (size_t)(got - done))) < 0) { rc = -1; break; }
    }
    const int saved = errno;
    if (out >= 0 && close(out)) rc = -1;
    if (in >= 0) close(in);
    if (rc) errno = saved;
    return rc;
}

int ws_is_special_file(const char *path)
{
    struct stat sb;
    return !stat(path, &sb) && !S_ISREG(sb.st_mode);
}
