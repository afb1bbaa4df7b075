/* Copying a command's output file (file_copy.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static int write_all(int fd, const void *data, size_t len)
{
    for (size_t done = 0; done < len;) {
        ssize_t w = write(fd, (const char *)data + done, len - done);
        if (w < 0) return -1;
        done += (size_t)w;
    }
    return 0;
}

/* A device or FIFO: written in place (never replaced by a rename). */
static int write_special(const char *path, const void *data, size_t len, char *why, size_t whylen)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    int rc = fd < 0 || write_all(fd, data, len) ? -1 : 0;
    if (fd >= 0 && close(fd)) rc = -1;
    if (rc) snprintf(why, whylen, "%s", strerror(errno));
    return rc;
}

/* Why the directory of target cannot take a new file: named, not "No
 * such file or directory" about the file. */
static void say_directory(const char *target, int err, char *why, size_t whylen)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", target);
    char *slash = strrchr(dir, '/');
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == dir) dir[1] = 0;
    else *slash = 0;
    if (err == ENOENT) snprintf(why, whylen, "its directory %s does not exist", dir);
    else if (err == ENOTDIR) snprintf(why, whylen, "its directory %s is not a directory (a file is in the path)", dir);
    else snprintf(why, whylen, "cannot create a file in %s: %s", dir, strerror(err));
}

int ws_write_file_whole(const char *path, const void *data, size_t len, char *why, size_t whylen)
{
    struct stat sb;
    char target[PATH_MAX], tmp[PATH_MAX + 16];
    const int exists = !stat(path, &sb);
    if (exists && !S_ISREG(sb.st_mode)) return write_special(path, data, len, why, whylen);
    /* (a file without write permission is read-only to root too, who may
     * write it anyway: the rename would replace it without a word) */
    if (exists && (!(sb.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) || access(path, W_OK))) {
        snprintf(why, whylen, "the file is read-only (mode %04o): left as it is", (unsigned)(sb.st_mode & 07777));
        return -1;
    }
    /* the file a symbolic link names is the one replaced */
    if (!exists || !realpath(path, target)) snprintf(target, sizeof target, "%s", path);
    if (snprintf(tmp, sizeof tmp, "%s.XXXXXX", target) >= (int)sizeof tmp) {
        snprintf(why, whylen, "%s", strerror(ENAMETOOLONG));
        return -1;
    }
    int fd = mkstemp(tmp);
    if (fd < 0) {
        say_directory(target, errno, why, whylen);
        return -1;
    }
    /* the mode a new file would get (mkstemp's is 0600), or the old file's */
    mode_t mask = umask(0);
    umask(mask);
    int rc = fchmod(fd, exists ? sb.st_mode & 07777 : 0644 & ~mask) || write_all(fd, data, len) ? -1 : 0;
    if (close(fd)) rc = -1;
    if (!rc && rename(tmp, target)) rc = -1;
    if (rc) {
        snprintf(why, whylen, "%s (left as it was)", strerror(errno));
        unlink(tmp);
    }
    return rc;
}
