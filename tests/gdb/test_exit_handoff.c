/* The exit handoff's receiver while the program runs on past its closed
 * device (exit_handoff.h): gdb's interrupt, in all-stop (0x03) and
 * non-stop (vCont;t) mode, is answered with console output naming the
 * process; vCont? and the thread list are answered, other packets get
 * the empty reply; a packet that arrives in pieces is answered once
 * whole. A socket pair stands for gdb's
 * connection. */
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include "../test.h"
#include "gdbstub/exit_handoff.h"
#include "gdbstub/rsp_packet.h"

/* What the receiver sent to "gdb" (fd) so far, NUL-terminated. */
static size_t heard(int fd, char *buf, size_t cap)
{
    size_t n = 0;
    struct pollfd p = { fd, POLLIN, 0 };
    while (n + 1 < cap && poll(&p, 1, 50) > 0) {
        ssize_t r = recv(fd, buf + n, cap - 1 - n, 0);
        if (r <= 0) break;
        n += (size_t)r;
    }
    buf[n] = 0;
    return n;
}

/* The text of the first console output packet ($O<hex>#xx) in s. */
static void console_text(const char *s, char *out, size_t cap)
{
    const char *o = strstr(s, "$O");
    while (o && ws_hex_val(o[2]) < 0) o = strstr(o + 1, "$O"); /* not $OK */
    size_t n = 0;
    for (o = o ? o + 2 : ""; o[0] && o[0] != '#' && o[1] && n + 1 < cap; o += 2) {
        int hi = ws_hex_val(o[0]), lo = ws_hex_val(o[1]);
        if (hi < 0 || lo < 0) break;
        out[n++] = (char)(hi * 16 + lo);
    }
    out[n] = 0;
}

static void say(int fd, const char *payload)
{
    char frame[128];
    size_t n = ws_rsp_frame('$', payload, strlen(payload), frame, sizeof frame);
    CHECK(n > 0 && send(fd, frame, n, 0) == (ssize_t)n);
}

static void test_all_stop_interrupt(void)
{
    int sv[2];
    CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
    ws_gdb_handoff h = { .cfd = sv[0], .non_stop = 0, .noack = 1 };
    static ws_rsp_reader rd;
    ws_rsp_reader_init(&rd);
    char buf[1024], text[512];
    ws_gdb_handoff_answer_running(&h, &rd, 4242);
    CHECK_EQ_U(heard(sv[1], buf, sizeof buf), 0); /* nothing asked, nothing said */
    CHECK(send(sv[1], "\x03", 1, 0) == 1);
    ws_gdb_handoff_answer_running(&h, &rd, 4242);
    heard(sv[1], buf, sizeof buf);
    console_text(buf, text, sizeof text);
    CHECK_STR_CONTAINS(text, "process 4242 closed its device and runs on in the host");
    CHECK(strchr(text, '\n') != NULL);
    close(sv[0]);
    close(sv[1]);
}

static void test_non_stop_interrupt_in_pieces(void)
{
    int sv[2];
    CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
    ws_gdb_handoff h = { .cfd = sv[0], .non_stop = 1, .noack = 0 };
    static ws_rsp_reader rd;
    ws_rsp_reader_init(&rd);
    char frame[64], buf[1024], text[512];
    size_t n = ws_rsp_frame('$', "vCont;t:p1.-1", 13, frame, sizeof frame);
    CHECK(send(sv[1], frame, 5, 0) == 5);
    ws_gdb_handoff_answer_running(&h, &rd, 7);
    CHECK_EQ_U(heard(sv[1], buf, sizeof buf), 0); /* half a packet: no answer yet */
    CHECK(send(sv[1], frame + 5, n - 5, 0) == (ssize_t)(n - 5));
    ws_gdb_handoff_answer_running(&h, &rd, 7);
    heard(sv[1], buf, sizeof buf);
    CHECK(!strncmp(buf, "+$OK#9a", 7)); /* acknowledged, then the interrupt's OK */
    console_text(buf, text, sizeof text);
    CHECK_STR_CONTAINS(text, "process 7 closed its device");
    /* gdb probes the interrupt before it sends one; no thread is left */
    say(sv[1], "vCont?");
    ws_gdb_handoff_answer_running(&h, &rd, 7);
    heard(sv[1], buf, sizeof buf);
    CHECK_STR_CONTAINS(buf, "$vCont;c;C;s;S;t;r#");
    say(sv[1], "qXfer:threads:read::0,1000");
    ws_gdb_handoff_answer_running(&h, &rd, 7);
    heard(sv[1], buf, sizeof buf);
    CHECK_STR_CONTAINS(buf, "<threads></threads>#");
    /* anything else asked of the device is unsupported now */
    say(sv[1], "qfThreadInfo");
    ws_gdb_handoff_answer_running(&h, &rd, 7);
    heard(sv[1], buf, sizeof buf);
    CHECK(!strcmp(buf, "+$#00"));
    close(sv[0]);
    close(sv[1]);
}

int main(void)
{
    test_all_stop_interrupt();
    test_non_stop_interrupt_in_pieces();
    return TEST_SUMMARY();
}
