/* The loopback listener (loopback.h). */
#include "net/loopback.h"
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

ws_status ws_loopback_listen(const char *who, uint16_t port, int *fd, uint16_t *bound, char *err, size_t errlen)
{
    int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0) {
        snprintf(err, errlen, "%s: socket: %s", who, strerror(errno));
        return WS_ERR_IO;
    }
    int one = 1;
    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t al = sizeof a;
    if (bind(s, (struct sockaddr *)&a, sizeof a) || listen(s, 1) ||
        getsockname(s, (struct sockaddr *)&a, &al)) {
        snprintf(err, errlen, "%s: cannot listen on 127.0.0.1:%u: %s", who, port, strerror(errno));
        close(s);
        return WS_ERR_IO;
    }
    *fd = s;
    *bound = ntohs(a.sin_port);
    return WS_OK;
}

/* Does a socket listen on path? /proc/net/unix lists every bound
 * Unix-domain socket: "Num RefCount Protocol Flags Type St Inode Path",
 * St 01 with flag __SO_ACCEPTCON (0x10000) for a listener. Unreadable: no. */
static int listening_on(const char *path)
{
    FILE *f = fopen("/proc/net/unix", "r");
    if (!f) return 0;
    char line[512 + 108];
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        unsigned long flags;
        int at = -1; /* where the path starts: it may hold spaces */
        if (sscanf(line, "%*s %*s %*s %lx %*s %*s %*s %n", &flags, &at) != 1 || at < 0) continue;
        line[strcspn(line, "\n")] = 0;
        found = (flags & 0x10000) && !strcmp(line + at, path);
    }
    fclose(f);
    return found;
}

ws_status ws_local_listen(const char *who, const char *path, int *fd, char *err, size_t errlen)
{
    struct sockaddr_un a;
    memset(&a, 0, sizeof a);
    a.sun_family = AF_UNIX;
    size_t n = strlen(path);
    if (!n || n >= sizeof a.sun_path) {
        snprintf(err, errlen, "%s: socket path '%s' is empty or longer than %zu bytes", who, path,
                 sizeof a.sun_path - 1);
        return WS_ERR_INVALID_ARG;
    }
    memcpy(a.sun_path, path, n);
    int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0) {
        snprintf(err, errlen, "%s: socket: %s", who, strerror(errno));
        return WS_ERR_IO;
    }
    /* A socket left by an earlier run goes; one a live server listens on
     * (connecting to find out would look like a gdb to that server), or
     * any other kind of file, stays. */
    struct stat sb;
    if (!lstat(path, &sb)) {
        int live = S_ISSOCK(sb.st_mode) && listening_on(path);
        if (!S_ISSOCK(sb.st_mode) || live) {
            snprintf(err, errlen, "%s: %s %s", who, path,
                     live ? "is in use by another server" : "exists and is not a socket");
            close(s);
            return WS_ERR_IO;
        }
        unlink(path);
    }
    if (bind(s, (struct sockaddr *)&a, sizeof a) || listen(s, 1)) {
        snprintf(err, errlen, "%s: cannot listen on %s: %s", who, path, strerror(errno));
        close(s);
        return WS_ERR_IO;
    }
    *fd = s;
    return WS_OK;
}

/* 1 if fd is a socket this process listens on whose address is `name`:
 * a port number for TCP, a path for a Unix-domain socket. */
static int listens_as(int fd, const char *name)
{
    int on = 0;
    socklen_t ol = sizeof on;
    struct sockaddr_storage a;
    socklen_t al = sizeof a;
    if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &on, &ol) || !on || getsockname(fd, (struct sockaddr *)&a, &al))
        return 0;
    if (a.ss_family == AF_INET) {
        char *end;
        unsigned long port = strtoul(name, &end, 10);
        return end != name && !*end && port == ntohs(((struct sockaddr_in *)&a)->sin_port);
    }
    if (a.ss_family == AF_UNIX) {
        const struct sockaddr_un *u = (const struct sockaddr_un *)&a;
        size_t n = al > offsetof(struct sockaddr_un, sun_path) ? al - offsetof(struct sockaddr_un, sun_path) : 0;
        return n && strnlen(u->sun_path, n) == strlen(name) && !memcmp(u->sun_path, name, strlen(name));
    }
    return 0;
}

/* 1 if the first line of the file at path names a server another
 * descriptor than own_fd of this process listens on. */
static int names_our_server(const char *path, int own_fd)
{
    char first[256];
    FILE *f = fopen(path, "r");
    int ok = f && fgets(first, sizeof first, f);
    if (f) fclose(f);
    if (!ok) return 0;
    first[strcspn(first, "\n")] = 0;
    DIR *d = opendir("/proc/self/fd");
    if (!d) return 0;
    int ours = 0;
    for (struct dirent *e; !ours && (e = readdir(d));) {
        int fd = atoi(e->d_name);
        if (e->d_name[0] != '.' && fd != own_fd && fd != dirfd(d)) ours = listens_as(fd, first);
    }
    closedir(d);
    return ours;
}

int ws_port_file_add(const char *path, const char *line, int own_fd)
{
    FILE *f = fopen(path, names_our_server(path, own_fd) ? "a" : "w");
    if (!f) return -1;
    int bad = fputs(line, f) < 0;
    if (fclose(f)) bad = 1;
    return bad ? -1 : 0;
}
