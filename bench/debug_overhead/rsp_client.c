/* Minimal RSP client (see rsp_client.h). */
#include "rsp_client.h"
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "gdbstub/rsp_packet.h"

int rsp_connect(unsigned port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a)) {
        if (fd >= 0) close(fd);
        return -1;
    }
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

int rsp_send(int fd, const char *payload)
{
    char buf[4096];
    size_t n = ws_rsp_frame('$', payload, strlen(payload), buf, sizeof buf);
    return n && send(fd, buf, n, MSG_NOSIGNAL) == (ssize_t)n ? 0 : -1;
}

static int rd(int fd, int timeout_ms)
{
    struct pollfd p = { fd, POLLIN, 0 };
    unsigned char c;
    if (poll(&p, 1, timeout_ms) <= 0 || recv(fd, &c, 1, 0) != 1) return -1;
    return c;
}

long rsp_recv(int fd, char *out, size_t cap, int timeout_ms)
{
    int c;
    do {
        c = rd(fd, timeout_ms);
    } while (c == '+' || c == '-' || (c >= 0 && c != '$' && c != '%'));
    if (c < 0) return -1;
    size_t n = 0;
    while ((c = rd(fd, timeout_ms)) >= 0 && c != '#')
        if (n + 1 < cap) out[n++] = (char)c;
    rd(fd, timeout_ms);
    rd(fd, timeout_ms);
    out[n] = 0;
    return c < 0 ? -1 : (long)n;
}
