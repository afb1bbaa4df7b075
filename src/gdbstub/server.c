/* Socket side of the gdb server (see server.h). Loopback only. */
#include "gdbstub/server.h"
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "gdbstub/exit_handoff.h"
#include "gdbstub/session.h"

ws_status ws_gdb_accept(int lfd, int timeout_ms, const atomic_int *stop, int *cfd, char *err,
                        size_t errlen)
{
    int waited = 0;
    for (;;) {
        struct pollfd p = { lfd, POLLIN, 0 };
        int r = poll(&p, 1, 100);
        if (r < 0 && errno != EINTR) {
            snprintf(err, errlen, "gdb server: poll: %s", strerror(errno));
            return WS_ERR_IO;
        }
        if (r > 0) break;
        waited += 100;
        if ((stop && atomic_load(stop)) || (timeout_ms >= 0 && waited >= timeout_ms)) {
            snprintf(err, errlen, "gdb server: no gdb connected");
            return WS_ERR_TIMEOUT;
        }
    }
    int c = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
    if (c < 0) {
        snprintf(err, errlen, "gdb server: accept: %s", strerror(errno));
        return WS_ERR_IO;
    }
    int one = 1;
    /* small packets, answered at once (a Unix-domain socket refuses it: fine) */
    setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    *cfd = c;
    return WS_OK;
}

static void send_all(void *io, const char *buf, size_t n)
{
    int fd = *(int *)io;
    while (n) {
        ssize_t w = send(fd, buf, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return; /* gdb went away: the read side notices */
        buf += w;
        n -= (size_t)w;
    }
}

/* Refuse one connected client: an error for its first packet, then let it
 * read the reply. */
static void refuse_client(int c)
{
    char junk[512];
    struct pollfd p = { c, POLLIN, 0 };
    if (poll(&p, 1, 500) > 0) (void)!recv(c, junk, sizeof junk, 0); /* its first packet */
    static const char msg[] = "E.another gdb is already attached to this program; detach it first";
    uint8_t sum = 0;
    for (const char *q = msg; *q; q++) sum = (uint8_t)(sum + (uint8_t)*q);
    char pkt[sizeof msg + 8];
    int n = snprintf(pkt, sizeof pkt, "+$%s#%02x", msg, sum);
    int fd = c;
    send_all(&fd, pkt, (size_t)n);
    shutdown(c, SHUT_WR);
    /* Let it read the reply: drain what it sends (its acknowledgement)
     * until it hangs up, 2 s at most. Closing earlier would fail that
     * acknowledgement on a Unix-domain socket (EPIPE), and gdb would say
     * "Broken pipe" instead of the message. */
    for (int i = 0; i < 10 && poll(&p, 1, 200) > 0; i++)
        if (recv(c, junk, sizeof junk, 0) <= 0) break;
    close(c);
}

static void *refuse_thread(void *arg)
{
    int c = (int)(intptr_t)arg;
    refuse_client(c);
    return NULL;
}

/* One gdb at a time: a second one gets an error for its first packet
 * (gdb prints it) and the connection closes, instead of waiting forever.
 * On a thread of its own: the 2.5 s it may take (a client that sends
 * nothing, a port scanner) would otherwise stall the attached gdb's
 * session, which calls this from its loop. */
void ws_gdb_refuse(int lfd)
{
    int c = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
    if (c < 0) return;
    pthread_t th;
    if (pthread_create(&th, NULL, refuse_thread, (void *)(intptr_t)c) == 0) {
        pthread_detach(th);
        return;
    }
    refuse_client(c); /* no thread to be had: refused here, as before */
}

ws_status ws_gdb_serve(int cfd, int lfd, const ws_gdb_target_ops *ops, void *t, const atomic_int *stop)
{
    return ws_gdb_serve_handoff(cfd, lfd, ops, t, stop, -1);
}

ws_status ws_gdb_serve_handoff(int cfd, int lfd, const ws_gdb_target_ops *ops, void *t, const atomic_int *stop,
                               int handoff_fd)
{
    ws_gdb_session *s;
    int fd = cfd;
    ws_status st = ws_gdb_session_new(ops, t, send_all, &fd, &s);
    if (st) return st;
    uint8_t buf[4096];
    /* Sleep on gdb's socket, a second gdb knocking and (if the target has
     * one) its event descriptor together, so a stop reaches gdb and gdb's
     * next packet reaches the target without a polling delay. */
    int efd = ops->event_fd ? ops->event_fd(t) : -1;
    while (!ws_gdb_session_done(s) && !(stop && atomic_load(stop))) {
        if (efd >= 0)
            while (ws_gdb_session_poll(s, 0)) {} /* all the target has now */
        int running = ws_gdb_session_running(s);
        struct pollfd p[3] = { { cfd, POLLIN, 0 }, { lfd, POLLIN, 0 }, { efd, POLLIN, 0 } };
        if (lfd < 0) p[1].fd = -1; /* poll skips negative descriptors */
        int r = poll(p, 3, running && efd < 0 ? 0 : 50);
        if (r < 0 && errno != EINTR) break;
        /* A gdb knocking is refused only once this one has nothing left to
         * read: a gdb that just detached or hung up is finished first, and
         * the next one is served (it was refused as "another gdb is
         * already attached" when it connected in the same moment). */
        if (r > 0 && lfd >= 0 && (p[1].revents & POLLIN) && !(p[0].revents & (POLLIN | POLLHUP | POLLERR)))
            ws_gdb_refuse(lfd);
        if (r > 0 && (p[0].revents & (POLLIN | POLLHUP | POLLERR))) {
            ssize_t n = recv(cfd, buf, sizeof buf, 0);
            if (n <= 0) break; /* gdb disconnected: the application runs on (ws_gdb_session_free detaches) */
            ws_gdb_session_input(s, buf, (size_t)n);
        }
        if (efd < 0 && ws_gdb_session_running(s)) ws_gdb_session_poll(s, 20);
    }
    if (handoff_fd >= 0 && ws_gdb_session_exit_unknown(s)) {
        ws_gdb_handoff h = { cfd, ws_gdb_session_non_stop(s), ws_gdb_session_noack(s) };
        (void)ws_gdb_handoff_send(handoff_fd, &h); /* failing, gdb loses the connection: nothing better to say */
    }
    ws_gdb_session_free(s);
    return WS_OK;
}
