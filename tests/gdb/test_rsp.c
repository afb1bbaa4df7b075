/* Raw GDB remote protocol tests: a C client speaks RSP over a loopback
 * socket to the server loop running on an in-memory target. Malformed
 * packets, bad checksums, unknown packets and out-of-range memory must
 * get error (or empty) replies, and the server must keep answering. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>
#include "../test.h"
#include "fake_target.h"
#include "device/debug/agent_expr.h"
#include "gdbstub/rsp_packet.h"
#include "gdbstub/server.h"
#include "net/loopback.h"

typedef struct srv {
    int lfd;
    uint16_t port;
    fake_target ft;
    atomic_int stop;
} srv;

static void *serve_thread(void *arg)
{
    srv *sv = arg;
    int cfd;
    char err[256];
    if (ws_gdb_accept(sv->lfd, 10000, &sv->stop, &cfd, err, sizeof err) == WS_OK) {
        ws_gdb_serve(cfd, -1, &fake_ops, &sv->ft, &sv->stop);
        close(cfd);
    }
    return NULL;
}

static int cfd = -1;
static int noack;

static void raw_send(const char *s, size_t n)
{
    CHECK(send(cfd, s, n, MSG_NOSIGNAL) == (ssize_t)n);
}

/* Read one byte with a 5 s limit (tests must never hang). */
static int read_byte(void)
{
    struct pollfd p = { cfd, POLLIN, 0 };
    uint8_t c;
    if (poll(&p, 1, 5000) <= 0 || recv(cfd, &c, 1, 0) != 1) return -1;
    return c;
}

/* Read a reply packet's payload into out ('+' acks skipped); returns its
 * length or -1. Checks the reply's checksum. */
static int rle_count; /* replies that came run-length encoded */

static long read_packet(char *out, size_t cap, char *prefix)
{
    int c;
    do {
        c = read_byte();
        if (c == '-') return -2;
    } while (c == '+');
    if (c != '$' && c != '%') return -1;
    if (prefix) *prefix = (char)c;
    size_t n = 0;
    uint8_t sum = 0;
    while ((c = read_byte()) >= 0 && c != '#') {
        if (n + 1 < cap) out[n++] = (char)c;
        sum = (uint8_t)(sum + c);
    }
    int h = read_byte(), l = read_byte();
    out[n] = 0;
    if (c < 0 || h < 0 || l < 0 || (ws_hex_val(h) << 4 | ws_hex_val(l)) != sum) return -1;
    if (!noack) raw_send("+", 1);
    /* the server run-length encodes its replies; expand them as gdb does */
    if (memchr(out, '*', n)) rle_count++;
    n = ws_rsp_rle_decode(out, n, cap - 1);
    if (n == (size_t)-1) return -1;
    out[n] = 0;
    return (long)n;
}

static char reply[WS_RSP_MAX_PACKET + 1];

static const char *cmd(const char *payload)
{
    char buf[WS_RSP_MAX_PACKET + 8];
    size_t n = ws_rsp_frame('$', payload, strlen(payload), buf, sizeof buf);
    raw_send(buf, n);
    if (read_packet(reply, sizeof reply, NULL) < 0) return "<no reply>";
    return reply;
}

static void test_framing_units(void)
{
    ws_rsp_reader r;
    ws_rsp_reader_init(&r);
    const char *in = "+-\x03$qC#b4$qC#00$a#";
    ws_rsp_event ev[32];
    int k = 0;
    for (const char *p = in; *p; p++) {
        ws_rsp_event e = ws_rsp_feed(&r, (uint8_t)*p);
        if (e != WS_RSP_NONE) ev[k++] = e;
    }
    CHECK(k == 5);
    CHECK(ev[0] == WS_RSP_ACK && ev[1] == WS_RSP_NAK && ev[2] == WS_RSP_INTERRUPT);
    CHECK(ev[3] == WS_RSP_PACKET && ev[4] == WS_RSP_BAD_CSUM);
    char rle[64] = "0* ";  /* '0' then ' ' (32-29 = 3 more) */
    CHECK(ws_rsp_rle_decode(rle, 3, sizeof rle) == 4 && !memcmp(rle, "0000", 4));
    char bad[8] = "*a";
    CHECK(ws_rsp_rle_decode(bad, 2, sizeof bad) == (size_t)-1);
    {
        /* encoding: runs of 4 to 98 become c '*' count, never with '#' or
         * '$' as the count (7 and 8 copies); expanding gives the input back */
        static const char *cases[] = { "", "a", "aaa", "aaaa", "0000000", "00000000", "000000000",
                                       "1000000002", "abbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbc" };
        char big[300], enc[300], dec[300];
        for (size_t i = 0; i < sizeof cases / sizeof *cases + 1; i++) {
            const char *in = cases[i % (sizeof cases / sizeof *cases)];
            if (i == sizeof cases / sizeof *cases) { /* a run longer than one count */
                memset(big, '0', 250);
                big[250] = 0;
                in = big;
            }
            size_t n = strlen(in), e = ws_rsp_rle_encode(in, n, enc, sizeof enc);
            CHECK(e <= n && !memchr(enc, '#', e) && !memchr(enc, '$', e));
            memcpy(dec, enc, e);
            CHECK(ws_rsp_rle_decode(dec, e, sizeof dec) == n && !memcmp(dec, in, n));
        }
        CHECK(ws_rsp_rle_encode("00000000", 8, enc, sizeof enc) == 5); /* 0*" then 00 */
        CHECK(ws_rsp_rle_encode("aaaa", 4, enc, 2) == (size_t)-1);     /* does not fit */
    }
    uint8_t esc[] = { 'a', 0x7d, '$' ^ 0x20, 'b' };
    CHECK(ws_rsp_unescape(esc, 4) == 3 && esc[1] == '$');
    uint8_t trail[] = { 'a', 0x7d };
    CHECK(ws_rsp_unescape(trail, 2) == (size_t)-1);
    uint8_t raw[] = { '$', '#', '}', '*', 'x' };
    char out[16];
    size_t used;
    CHECK(ws_rsp_escape(raw, 5, out, sizeof out, &used) == 9 && used == 5);
    uint64_t v;
    CHECK(ws_hex_u64("12345678123456789", "", &v, NULL) == -1); /* > 64 bits */
    CHECK(ws_hex_u64("", "", &v, NULL) == -1);
    /* an oversized packet is refused, and the reader recovers */
    ws_rsp_reader_init(&r);
    ws_rsp_feed(&r, '$');
    for (int i = 0; i < WS_RSP_MAX_PACKET + 10; i++) ws_rsp_feed(&r, 'a');
    ws_rsp_feed(&r, '#');
    ws_rsp_feed(&r, '0');
    CHECK(ws_rsp_feed(&r, '0') == WS_RSP_TOO_LONG);
    ws_rsp_event e = WS_RSP_NONE;
    for (const char *p = "$qC#b4"; *p; p++) e = ws_rsp_feed(&r, (uint8_t)*p);
    CHECK(e == WS_RSP_PACKET && !strcmp(r.buf, "qC"));
    /* a '$' where a checksum digit should be: that packet is bad, the next
     * one is read (its '$' was taken for a digit and the packet lost) */
    k = 0;
    for (const char *p = "$qC#$qC#b4$g#6$qC#b4"; *p; p++) {
        e = ws_rsp_feed(&r, (uint8_t)*p);
        if (e != WS_RSP_NONE) ev[k++] = e;
        if (e == WS_RSP_PACKET) CHECK(!strcmp(r.buf, "qC"));
    }
    CHECK(k == 4);
    CHECK(ev[0] == WS_RSP_BAD_CSUM && ev[1] == WS_RSP_PACKET && ev[2] == WS_RSP_BAD_CSUM && ev[3] == WS_RSP_PACKET);
}

static int ax_reg(void *u, uint32_t r, uint64_t *v)
{
    (void)u;
    if (r > 100) return -1;
    *v = r == 73 ? 5 : r; /* thread_x (73) is 5 */
    return 0;
}

static int ax_mem(void *u, uint32_t a, uint8_t *b, size_t n)
{
    (void)u;
    if (a < 0x100) return -1;
    for (size_t i = 0; i < n; i++) b[i] = (uint8_t)(a + i);
    return 0;
}

/* Numbers in monitor commands: 0..2^32-1, nothing wraps (sscanf's %u
 * took "-1" as 4294967295 and "4294967297" as 1: 'monitor focus' picked
 * the wrong thread). */
static void test_parse_u32(void)
{
    /* hexadecimal after 0x, as every number the project reads; 010 is ten */
    const char *ok[] = { "0", " 7 rest", "4294967295", "0x1f", " 0XfFfFfFfF", "010", "0x" };
    const uint32_t want[] = { 0, 7, 4294967295u, 31, 4294967295u, 10, 0 };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        const char *p = ok[i];
        uint32_t v = 1;
        CHECK(ws_parse_u32(&p, &v) == 0 && v == want[i]);
    }
    const char *bad[] = { "-1", "4294967296", "4294967297", "+3", "", "x1", "0x100000000" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const char *p = bad[i];
        uint32_t v = 5;
        CHECK(ws_parse_u32(&p, &v) == -1 && p == bad[i] && v == 5);
    }
}

/* Agent expressions as gdb 13 compiles them for conditions. */
static void test_agent_expr(void)
{
    ws_ax_env env = { NULL, ax_reg, ax_mem };
    int64_t r = -1;
    /* reg 73; ext 32; const8 5; equal; end  ->  $thread_x == 5 */
    const uint8_t eq[] = { 0x26, 0x00, 0x49, 0x16, 0x20, 0x22, 0x05, 0x13, 0x27 };
    CHECK(ws_ax_eval(eq, sizeof eq, &env, &r) == 0 && r == 1);
    const uint8_t ne[] = { 0x26, 0x00, 0x49, 0x22, 0x06, 0x13, 0x27 };
    CHECK(ws_ax_eval(ne, sizeof ne, &env, &r) == 0 && r == 0);
    /* if_goto / goto: (reg 2 != 0) ? 7 : 9 */
    const uint8_t br[] = { 0x26, 0x00, 0x02, 0x20, 0x00, 0x09, 0x22, 0x09, 0x27, 0x22, 0x07, 0x27 };
    CHECK(ws_ax_eval(br, sizeof br, &env, &r) == 0 && r == 7);
    /* const16 0x0200; ref32 -> bytes 00 01 02 03 little-endian */
    const uint8_t ld[] = { 0x23, 0x02, 0x00, 0x19, 0x27 };
    CHECK(ws_ax_eval(ld, sizeof ld, &env, &r) == 0 && r == 0x03020100);
    /* arithmetic, signed compare, zero_ext, swap, dup, pick, rot */
    const uint8_t ar[] = { 0x22, 0x03, 0x22, 0x04, 0x04, 0x22, 0x02, 0x03, 0x28, 0x02, 0x2a, 0x08, 0x27 };
    CHECK(ws_ax_eval(ar, sizeof ar, &env, &r) == 0 && r == 20);
    const uint8_t sw[] = { 0x22, 0x01, 0x22, 0x02, 0x2b, 0x03, 0x27 };
    CHECK(ws_ax_eval(sw, sizeof sw, &env, &r) == 0 && r == 1);
    /* errors: stack underflow, bad opcode, division by zero, failed read,
     * truncated operand, a jump loop, running off the end */
    const uint8_t e1[] = { 0x02, 0x27 }, e2[] = { 0xff }, e3[] = { 0x22, 1, 0x22, 0, 0x05, 0x27 },
                  e4[] = { 0x22, 0x10, 0x19, 0x27 }, e5[] = { 0x24, 0x00 }, e6[] = { 0x21, 0x00, 0x00 },
                  e7[] = { 0x22, 0x01 };
    CHECK(ws_ax_eval(e1, sizeof e1, &env, &r) == -1);
    CHECK(ws_ax_eval(e2, sizeof e2, &env, &r) == -1);
    CHECK(ws_ax_eval(e3, sizeof e3, &env, &r) == -1);
    CHECK(ws_ax_eval(e4, sizeof e4, &env, &r) == -1);
    CHECK(ws_ax_eval(e5, sizeof e5, &env, &r) == -1);
    CHECK(ws_ax_eval(e6, sizeof e6, &env, &r) == -1);
    CHECK(ws_ax_eval(e7, sizeof e7, &env, &r) == -1);
    CHECK(ws_ax_eval(e1, 0, &env, &r) == -1);
}

static void test_protocol(srv *sv)
{
    /* handshake */
    CHECK_STR_CONTAINS(cmd("qSupported:multiprocess+;swbreak+;hwbreak+"), "PacketSize=");
    CHECK_STR_CONTAINS(reply, "qXfer:features:read+");
    CHECK_STR_CONTAINS(reply, "QNonStop+");
    /* no reverse execution on a target without the reverse op (live targets) */
    CHECK(!strstr(reply, "ReverseStep+") && !strstr(reply, "ReverseContinue+"));
    CHECK(!strcmp(cmd("bs"), ""));
    CHECK(!strcmp(cmd("bc"), ""));
    CHECK(!strcmp(cmd("vMustReplyEmpty"), ""));
    CHECK(!strcmp(cmd("qAttached"), "1"));
    CHECK_STR_CONTAINS(cmd("qXfer:features:read:target.xml:0,ffff"), "riscv:rv32");
    CHECK(reply[0] == 'l');
    CHECK_STR_CONTAINS(reply, "org.warpscope.simt");
    CHECK_STR_CONTAINS(reply, "thread_x");
    CHECK(cmd("qXfer:features:read:target.xml:0,10")[0] == 'm');
    CHECK(cmd("qXfer:features:read:other.xml:0,10")[0] == 'E');
    CHECK(cmd("qXfer:features:read:target.xml:ffffff,10")[0] == 'E');
    CHECK(!strcmp(cmd("qfThreadInfo"), "m1,2,3,4"));
    CHECK(!strcmp(cmd("qsThreadInfo"), "l"));
    CHECK_STR_CONTAINS(cmd("qXfer:threads:read::0,fff"), "name=\"block (0,0,0) thread (2,0,0) core 0 warp 0 lane 2\"");
    {
        uint8_t txt[256];
        const char *r = cmd("qThreadExtraInfo,2");
        long n = ws_hex_decode(r, strlen(r), txt, sizeof txt - 1);
        CHECK(n > 0);
        txt[n > 0 ? n : 0] = 0;
        CHECK(!strcmp((char *)txt, "block (0,0,0) thread (1,0,0) core 0 warp 0 lane 1"));
    }
    CHECK(cmd("qThreadExtraInfo,99")[0] == 'E');
    CHECK(!strcmp(cmd("?"), "T05thread:1;"));

    /* registers */
    CHECK(!strcmp(cmd("Hg2"), "OK"));
    int rle_before = rle_count;
    CHECK(strlen(cmd("g")) == 33 * 8);
    CHECK(rle_count == rle_before + 1); /* the g reply's runs of zeros went encoded */
    CHECK(!strncmp(reply, "00100000" "01100000", 16)); /* thread 2: x0 = 0x1000, x1 = 0x1001 */
    CHECK(!strcmp(cmd("p20"), "20100000"));             /* pc of thread 2 */
    CHECK(!strcmp(cmd("p49"), "49100000"));             /* thread_x register */
    CHECK(cmd("p1000")[0] == 'E');
    CHECK(cmd("pzz")[0] == 'E');
    CHECK(!strcmp(cmd("P5=efbeadde"), "OK"));
    CHECK(sv->ft.regs[1][5] == 0xdeadbeef);
    CHECK(cmd("P49=01000000")[0] == 'E');               /* read-only */
    CHECK(cmd("P5=efbe")[0] == 'E');
    CHECK(cmd("Hg99")[0] == 'E');
    CHECK(cmd("Hx1")[0] == 'E');
    CHECK(cmd("T99")[0] == 'E');
    CHECK(!strcmp(cmd("T3"), "OK"));

    /* memory */
    CHECK(!strcmp(cmd("m10000,4"), "00070e15"));
    CHECK(cmd("m0,4")[0] == 'E');
    CHECK(cmd("mffffffff,10")[0] == 'E');
    CHECK(cmd("m1ffff,2")[0] == 'E');
    CHECK(cmd("m10000")[0] == 'E');
    CHECK(cmd("m,4")[0] == 'E');
    CHECK(cmd("m10000,zz")[0] == 'E');
    CHECK(!strcmp(cmd("M10010,2:abcd"), "OK"));
    CHECK(sv->ft.mem[0x10] == 0xab && sv->ft.mem[0x11] == 0xcd);
    CHECK(cmd("M10010,2:abc")[0] == 'E');
    CHECK(cmd("M10010,4:abcd")[0] == 'E');
    CHECK(cmd("M0,1:00")[0] == 'E');
    /* binary write with escapes: bytes $ # } * */
    {
        const char pl[] = "X10020,4:\x7d\x04\x7d\x03\x7d\x5d\x7d\x0a";
        char buf[64];
        size_t n = ws_rsp_frame('$', pl, sizeof pl - 1, buf, sizeof buf);
        raw_send(buf, n);
        CHECK(read_packet(reply, sizeof reply, NULL) >= 0 && !strcmp(reply, "OK"));
        CHECK(!memcmp(sv->ft.mem + 0x20, "$#}*", 4));
        CHECK(cmd("X10020,4:\x7d")[0] == 'E');
    }

    /* breakpoints */
    CHECK(!strcmp(cmd("Z0,10100,2"), "OK"));
    CHECK(!strcmp(cmd("Z1,10100,4"), "OK"));
    CHECK(!strcmp(cmd("Z2,10200,4"), "OK"));
    CHECK(sv->ft.nbp == 3);
    CHECK(!strcmp(cmd("z0,10100,2"), "OK"));
    CHECK(cmd("Z0,10,2")[0] == 'E');
    CHECK(!strcmp(cmd("Z9,10100,2"), ""));
    CHECK(cmd("Z0,10100")[0] == 'E');
    CHECK_STR_CONTAINS(cmd("qSupported"), "ConditionalBreakpoints+");
    CHECK(!strcmp(cmd("Z0,10100,2;X3,220127;X2,2227"), "OK") && sv->ft.nconds == 2);
    CHECK(cmd("Z0,10100,2;X3,2201")[0] == 'E');          /* shorter than announced */
    CHECK(cmd("Z0,10100,2;X2,zz27")[0] == 'E');
    CHECK(cmd("Z0,10100,2;Y")[0] == 'E');
    CHECK(!strcmp(cmd("Z0,10100,2;cmds:0,X2,2227"), "OK"));

    /* unknown and malformed packets */
    CHECK(!strcmp(cmd("qNoSuchThing"), ""));
    CHECK(!strcmp(cmd("vNoSuch"), ""));
    CHECK(!strcmp(cmd("!"), ""));
    CHECK(!strcmp(cmd(""), ""));
    CHECK(cmd("vCont;x")[0] == 'E');
    CHECK(cmd("vCont;c:zz")[0] == 'E');
    CHECK(cmd("vCont;c:99")[0] == 'E');
    /* a resume the target refuses says why (gdb: "Remote failure reply: E.why") */
    CHECK(!strcmp(cmd("vCont;s:99"), "E.fake error"));
    /* a monitor command that is not hex, or too long: said on the console, then OK (gdb printed only
     * "Protocol error with Rcmd" for a bare error) */
    {
        uint8_t txt[256];
        const char *r = cmd("qRcmd,zz");
        long n = r[0] == 'O' ? ws_hex_decode(r + 1, strlen(r + 1), txt, sizeof txt - 1) : -1;
        txt[n > 0 ? n : 0] = 0;
        CHECK_STR_CONTAINS((char *)txt, "not hex-encoded");
        CHECK(read_packet(reply, sizeof reply, NULL) >= 0 && !strcmp(reply, "OK"));
        static char big[8 + 2 * 600];
        strcpy(big, "qRcmd,");
        for (int i = 0; i < 600; i++) memcpy(big + 6 + 2 * i, "61", 2); /* 600 x 'a' */
        r = cmd(big);
        n = r[0] == 'O' ? ws_hex_decode(r + 1, strlen(r + 1), txt, sizeof txt - 1) : -1;
        txt[n > 0 ? n : 0] = 0;
        CHECK_STR_CONTAINS((char *)txt, "monitor command too long: 600 bytes, at most 511");
        CHECK(read_packet(reply, sizeof reply, NULL) >= 0 && !strcmp(reply, "OK"));
    }
    CHECK(!strcmp(cmd("vCont?"), "vCont;c;C;s;S;t;r"));
    CHECK(cmd("vCont;r10000:3")[0] == 'E');      /* a range needs START,END */
    CHECK(cmd("vCont;r10000,zz:3")[0] == 'E');

    /* bad checksum: the server asks for a resend with '-' */
    raw_send("$qC#00", 6);
    CHECK(read_packet(reply, sizeof reply, NULL) == -2);
    /* a packet with a NUL inside, and one run-length encoded */
    raw_send("$m\0#6d", 6);
    CHECK(read_packet(reply, sizeof reply, NULL) >= 0 && reply[0] == 'E');
    CHECK(!strcmp(cmd("qf*\"hreadInfo"), "") || 1); /* tolerated, just not understood */
    CHECK(!strcmp(cmd("m10000,4"), "00070e15"));     /* still alive */

    /* execution: all-stop continue and step report stops */
    CHECK(!strcmp(cmd("vCont;c"), "T05thread:1;swbreak:;"));
    CHECK(!strcmp(cmd("vCont;s:3;c"), "T05thread:3;"));
    /* range stepping: a target without it gets a plain step */
    CHECK(!strcmp(cmd("vCont;r10000,10008:3;c"), "T05thread:3;"));
    CHECK(!strcmp(cmd("c"), "T05thread:1;swbreak:;"));
    CHECK(!strcmp(cmd("?"), "T05thread:1;swbreak:;"));

    /* libraries and files */
    CHECK_STR_CONTAINS(cmd("qXfer:libraries:read::0,fff"), "<library name=\"mod.elf\">");
    CHECK(!strcmp(cmd("vFile:setfs:0"), "F0"));
    CHECK(!strcmp(cmd("vFile:open:6d6f642e656c66,0,0"), "F0"));   /* "mod.elf" */
    CHECK(!strcmp(cmd("vFile:open:6e6f7065,0,0"), "F-1,2"));      /* "nope" */
    CHECK(!strcmp(cmd("vFile:open:6d6f642e656c66,1,0"), "F-1,1e")); /* write: EROFS */
    {
        /* pread returns escaped binary; check length and bytes 0x23,0x24 */
        long n;
        char buf[64];
        size_t fl = ws_rsp_frame('$', "vFile:pread:0,40,20", 19, buf, sizeof buf);
        raw_send(buf, fl);
        n = read_packet(reply, sizeof reply, NULL);
        CHECK(n > 0 && !strncmp(reply, "F40;", 4));
        size_t u = n > 4 ? ws_rsp_unescape((uint8_t *)reply + 4, (size_t)n - 4) : 0;
        CHECK(u == 0x40 && (uint8_t)reply[4 + 3] == 0x23 && (uint8_t)reply[4 + 4] == 0x24);
    }
    CHECK(!strncmp(cmd("vFile:fstat:0"), "F40;", 4));
    CHECK(!strcmp(cmd("vFile:pread:0,10,1000"), "F0;"));
    CHECK(!strcmp(cmd("vFile:pread:7,10,0"), "F-1,9"));
    CHECK(!strcmp(cmd("vFile:pread:0,10"), "F-1,16"));
    CHECK(!strcmp(cmd("vFile:close:0"), "F0"));
    CHECK(!strcmp(cmd("vFile:close:0"), "F-1,9"));
    CHECK(!strcmp(cmd("vFile:unlink:00"), "F-1,58"));

    /* monitor */
    {
        char hex[128];
        const char *m = "thread block 0 0 0 thread 2 0 0";
        char pk[160] = "qRcmd,";
        ws_hex_encode((const uint8_t *)m, strlen(m), hex);
        strcat(pk, hex);
        const char *r = cmd(pk); /* console output, then OK */
        uint8_t txt[512];
        CHECK(r[0] == 'O');
        long n = ws_hex_decode(r + 1, strlen(r + 1), txt, sizeof txt - 1);
        CHECK(n > 0);
        txt[n > 0 ? n : 0] = 0;
        CHECK_STR_CONTAINS((char *)txt, "is target thread 3");
        CHECK(read_packet(reply, sizeof reply, NULL) >= 0 && !strcmp(reply, "OK"));
    }

    /* no-ack mode, then non-stop with notifications */
    CHECK(!strcmp(cmd("QStartNoAckMode"), "OK"));
    noack = 1;
    CHECK(!strcmp(cmd("qC"), "QC3") || reply[0] == 'Q');
    CHECK(!strcmp(cmd("QNonStop:1"), "OK"));
    CHECK(sv->ft.non_stop == 1);
    CHECK(!strcmp(cmd("vCont;c:2"), "OK"));
    {
        char pfx = 0;
        CHECK(read_packet(reply, sizeof reply, &pfx) > 0 && pfx == '%');
        CHECK(!strcmp(reply, "Stop:T05thread:2;swbreak:;"));
    }
    CHECK(!strcmp(cmd("vStopped"), "OK"));
    CHECK(!strcmp(cmd("vCont;t:3"), "OK"));
    {
        char pfx = 0;
        CHECK(read_packet(reply, sizeof reply, &pfx) > 0 && pfx == '%');
        CHECK(!strcmp(reply, "Stop:T00thread:3;"));
    }
    CHECK(!strcmp(cmd("vStopped"), "OK"));
    CHECK(cmd("QNonStop:7")[0] == 'E');
    CHECK(!strcmp(cmd("QNonStop:0"), "OK"));
    /* a bad checksum in no-ack mode gets an error reply, not silence */
    raw_send("$qC#00", 6);
    CHECK(read_packet(reply, sizeof reply, NULL) >= 0 && reply[0] == 'E');
    CHECK(!strcmp(cmd("D"), "OK"));
    CHECK(sv->ft.detached);
}

/* ---- a gdb that detaches as the next one connects ---- */

/* The fake target, with a monitor command that keeps the server busy
 * while the client detaches and the next gdb connects. */
static ws_status slow_monitor(void *t, const char *cmd, char **out)
{
    if (strcmp(cmd, "sleep")) return fake_monitor(t, cmd, out);
    usleep(300 * 1000);
    *out = strdup("slept\n");
    return *out ? WS_OK : WS_ERR_OUT_OF_MEMORY;
}

static ws_gdb_target_ops slow_ops;

/* Serve as the WARPSCOPE_DEBUG server does: one gdb after another, a
 * second one knocking meanwhile refused. */
static void *serve_twice(void *arg)
{
    srv *sv = arg;
    for (int k = 0; k < 2; k++) {
        int c;
        char err[256];
        if (ws_gdb_accept(sv->lfd, 10000, &sv->stop, &c, err, sizeof err) != WS_OK) break;
        ws_gdb_serve(c, sv->lfd, &slow_ops, &sv->ft, &sv->stop);
        close(c);
    }
    return NULL;
}

static int connect_to(uint16_t port)
{
    int c = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    CHECK(connect(c, (struct sockaddr *)&a, sizeof a) == 0);
    return c;
}

static void test_quick_reattach(void)
{
    srv *sv = calloc(1, sizeof *sv);
    char err[256];
    fake_init(&sv->ft);
    slow_ops = fake_ops;
    slow_ops.monitor = slow_monitor;
    if (ws_loopback_listen("gdb server", 0, &sv->lfd, &sv->port, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        CHECK(0);
        free(sv);
        return;
    }
    pthread_t th;
    pthread_create(&th, NULL, serve_twice, sv);
    noack = 0;
    cfd = connect_to(sv->port);
    CHECK(!strcmp(cmd("qC"), "QC1"));
    /* while the server runs the monitor command: detach, hang up, and the
     * next gdb connects and asks */
    char hex[16], pk[32] = "qRcmd,", buf[64];
    ws_hex_encode((const uint8_t *)"sleep", 5, hex);
    strcat(pk, hex);
    size_t n = ws_rsp_frame('$', pk, strlen(pk), buf, sizeof buf);
    raw_send(buf, n);
    usleep(100 * 1000);
    raw_send("$D#44", 5);
    shutdown(cfd, SHUT_WR);
    int first = cfd;
    cfd = connect_to(sv->port);
    raw_send("$qC#b4", 6);
    long got = read_packet(reply, sizeof reply, NULL);
    CHECK(got >= 0);
    if (strcmp(reply, "QC1")) {
        fprintf(stderr, "FAIL: the gdb that connected as the last one detached got '%s'\n", reply);
        CHECK(0);
    }
    close(first);
    close(cfd);
    atomic_store(&sv->stop, 1);
    pthread_join(th, NULL);
    close(sv->lfd);
    free(sv);
}

int main(void)
{
    test_quick_reattach();
    test_framing_units();
    test_parse_u32();
    test_agent_expr();
    srv *sv = calloc(1, sizeof *sv);
    char err[256];
    fake_init(&sv->ft);
    if (ws_loopback_listen("gdb server", 0, &sv->lfd, &sv->port, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    pthread_t th;
    pthread_create(&th, NULL, serve_thread, sv);
    cfd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(sv->port) };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    CHECK(connect(cfd, (struct sockaddr *)&a, sizeof a) == 0);
    int one = 1;
    setsockopt(cfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    test_protocol(sv);
    close(cfd);
    atomic_store(&sv->stop, 1);
    pthread_join(th, NULL);
    close(sv->lfd);
    free(sv);
    return TEST_SUMMARY();
}
