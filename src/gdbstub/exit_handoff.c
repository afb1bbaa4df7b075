/* Passing gdb's connection to the process that learns the exit status
 * (exit_handoff.h). */
#include "gdbstub/exit_handoff.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include "gdbstub/rsp_packet.h"

/* What travels beside the descriptor: the modes, one byte each. */
enum { MSG_NON_STOP, MSG_NOACK, MSG_LEN };

int ws_gdb_handoff_send(int handoff_fd, const ws_gdb_handoff *h)
{
    char modes[MSG_LEN] = { [MSG_NON_STOP] = (char)!!h->non_stop, [MSG_NOACK] = (char)!!h->noack };
    struct iovec iov = { modes, sizeof modes };
    union { struct cmsghdr align; char buf[CMSG_SPACE(sizeof(int))]; } ctl;
    memset(&ctl, 0, sizeof ctl);
    struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf,
                          .msg_controllen = sizeof ctl.buf };
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &h->cfd, sizeof(int));
    ssize_t n;
    while ((n = sendmsg(handoff_fd, &msg, MSG_NOSIGNAL)) < 0 && errno == EINTR) {}
    return n == (ssize_t)sizeof modes ? 0 : -1;
}

int ws_gdb_handoff_take(int handoff_fd, ws_gdb_handoff *h)
{
    char modes[MSG_LEN];
    struct iovec iov = { modes, sizeof modes };
    union { struct cmsghdr align; char buf[CMSG_SPACE(sizeof(int))]; } ctl;
    struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf,
                          .msg_controllen = sizeof ctl.buf };
    ssize_t n;
    while ((n = recvmsg(handoff_fd, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR) {}
    struct cmsghdr *c = n == (ssize_t)sizeof modes ? CMSG_FIRSTHDR(&msg) : NULL;
    if (!c || c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS || c->cmsg_len != CMSG_LEN(sizeof(int)))
        return 0;
    memcpy(&h->cfd, CMSG_DATA(c), sizeof(int));
    h->non_stop = modes[MSG_NON_STOP];
    h->noack = modes[MSG_NOACK];
    return 1;
}

/* gdb's number for host signal sig (its numbering follows the historical
 * Unix one, which Linux keeps for most but not all signals). */
static int gdb_signal(int sig)
{
    switch (sig) {
    case SIGHUP: return 1;
    case SIGINT: return 2;
    case SIGQUIT: return 3;
    case SIGILL: return 4;
    case SIGTRAP: return 5;
    case SIGABRT: return 6;
    case SIGFPE: return 8;
    case SIGKILL: return 9;
    case SIGBUS: return 10;
    case SIGSEGV: return 11;
    case SIGPIPE: return 13;
    case SIGALRM: return 14;
    case SIGTERM: return 15;
    case SIGUSR1: return 30;
    case SIGUSR2: return 31;
    default: return 143; /* GDB_SIGNAL_UNKNOWN */
    }
}

static void send_packet(int fd, char prefix, const char *payload)
{
    char buf[512];
    size_t n = ws_rsp_frame(prefix, payload, strlen(payload), buf, sizeof buf);
    if (n) (void)!send(fd, buf, n, MSG_NOSIGNAL);
}

/* Console output for gdb (an 'O' packet: the text in hex). */
static void send_console(int fd, const char *text)
{
    char payload[400] = "O";
    size_t n = 1;
    for (const char *c = text; *c && n + 2 < sizeof payload; c++, n += 2)
        snprintf(payload + n, 3, "%02x", (unsigned char)*c);
    send_packet(fd, '$', payload);
}

static int is_interrupt_packet(const char *p) { return !strncmp(p, "vCont;t", 7); }

/* The reply to packet p of gdb's once the device is gone: no stop is
 * pending (vStopped), no thread is left (gdb asks for the list in
 * non-stop mode), an interrupt is accepted (the note follows, while the
 * process runs on) and must stay possible (vCont?, as the server said);
 * anything else is unsupported. */
static const char *reply_after_device(const char *p)
{
    if (!strcmp(p, "vStopped") || is_interrupt_packet(p)) return "OK";
    if (!strcmp(p, "vCont?")) return "vCont;c;C;s;S;t;r";
    if (!strncmp(p, "qXfer:threads:read:", 19)) return "l<?xml version=\"1.0\"?><threads></threads>";
    return "";
}

/* Answer what gdb sent on h that is there now; 0, or -1 once gdb hung
 * up. pid >= 0: the process runs on (an interrupt is told so); -1: it
 * has ended. */
static int answer_available(const ws_gdb_handoff *h, ws_rsp_reader *rd, long pid)
{
    uint8_t buf[512];
    ssize_t n = recv(h->cfd, buf, sizeof buf, MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) return -1;
    char note[160];
    snprintf(note, sizeof note,
             "warpscope: process %ld closed its device and runs on in the host; "
             "gdb hears its exit status when it ends\n", pid);
    for (ssize_t i = 0; i < n; i++) {
        ws_rsp_event ev = ws_rsp_feed(rd, buf[i]);
        if (ev == WS_RSP_INTERRUPT && pid >= 0) send_console(h->cfd, note);
        if (ev != WS_RSP_PACKET) continue;
        if (!h->noack) (void)!send(h->cfd, "+", 1, MSG_NOSIGNAL);
        send_packet(h->cfd, '$', reply_after_device(rd->buf));
        if (pid >= 0 && is_interrupt_packet(rd->buf)) send_console(h->cfd, note);
    }
    return 0;
}

void ws_gdb_handoff_answer_running(const ws_gdb_handoff *h, ws_rsp_reader *rd, long pid)
{
    (void)answer_available(h, rd, pid);
}

void ws_gdb_handoff_tell_exit(const ws_gdb_handoff *h, ws_rsp_reader *rd, int wait_status)
{
    char stop[32];
    if (WIFSIGNALED(wait_status)) snprintf(stop, sizeof stop, "X%02x", gdb_signal(WTERMSIG(wait_status)));
    else snprintf(stop, sizeof stop, "W%02x", WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) & 0xff : 0);
    char note[40];
    snprintf(note, sizeof note, "Stop:%s", stop);
    if (h->non_stop) send_packet(h->cfd, '%', note);
    else send_packet(h->cfd, '$', stop);
    /* gdb acknowledges, drains notifications (vStopped: no more) and hangs
     * up; anything else it asks of a process that is gone is unsupported */
    struct pollfd p = { h->cfd, POLLIN, 0 };
    for (int waited = 0; waited < 5000 && poll(&p, 1, 100) >= 0; waited += 100)
        if (p.revents && answer_available(h, rd, -1)) break;
    close(h->cfd);
}
