/* Session core: framing and acknowledgement, reply helpers, general
 * queries (qSupported, threads, Q settings), and dispatch to the command
 * groups. Unknown packets get the empty reply, as the protocol asks. */
#include "gdbstub/session_int.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_THREADS (1u << 20)
#define IDS_PER_PACKET 1000 /* qfThreadInfo / qsThreadInfo pages */

ws_status ws_gdb_session_new(const ws_gdb_target_ops *ops, void *target, ws_gdb_send_fn send,
                             void *io, ws_gdb_session **out)
{
    if (!ops || !send || !out) return WS_ERR_INVALID_ARG;
    ws_gdb_session *s = calloc(1, sizeof *s);
    if (!s) return WS_ERR_OUT_OF_MEMORY;
    s->ops = ops;
    s->t = target;
    s->send = send;
    s->io = io;
    ws_rsp_reader_init(&s->rd);
    *out = s;
    return WS_OK;
}

void ws_gdb_session_free(ws_gdb_session *s)
{
    if (!s) return;
    /* A session that ends without gdb's D or k, and without the program's
     * exit (the connection failed, the server stops, a harness frees it),
     * lets the program go as a detach does: its breakpoints out of the
     * code (an ebreak left there faults once no debugger is attached),
     * its warps resumed. Until 2026-11-28 they stayed (gdb.session_free). */
    if (!s->done && s->ops->detach) s->ops->detach(s->t);
    free(s->last_sent);
    free(s->xfer_doc);
    free(s->files);
    free(s);
}

int ws_gdb_session_running(const ws_gdb_session *s)
{
    return s->running;
}

int ws_gdb_session_done(const ws_gdb_session *s)
{
    return s->done;
}

int ws_gdb_session_exit_unknown(const ws_gdb_session *s) { return s->exit_unknown; }
int ws_gdb_session_non_stop(const ws_gdb_session *s) { return s->non_stop; }
int ws_gdb_session_noack(const ws_gdb_session *s) { return s->noack; }

void ws_gdb_send_packet(ws_gdb_session *s, char prefix, const char *payload, size_t len)
{
    size_t cap = len + 4;
    char *buf = malloc(cap);
    if (!buf) return;
    /* Replies go run-length encoded: gdb reads a packet a character at a
     * time, and a `g` reply (every thread's, for `info threads`) is
     * mostly runs of zeros (264 characters become about 40; gdb then runs
     * 7 % fewer instructions for `info threads`: docs/performance.md). */
    char *rle = malloc(len ? len : 1);
    size_t rn = rle ? ws_rsp_rle_encode(payload, len, rle, len) : (size_t)-1;
    if (rn != (size_t)-1) {
        payload = rle;
        len = rn;
    }
    size_t n = ws_rsp_frame(prefix, payload, len, buf, cap);
    free(rle);
    s->send(s->io, buf, n);
    if (prefix == '$') { /* keep for a '-' resend; notifications are never acked */
        free(s->last_sent);
        s->last_sent = buf;
        s->last_len = n;
    } else {
        free(buf);
    }
}

void ws_gdb_reply(ws_gdb_session *s, const char *text)
{
    size_t n = strlen(text);
    if (n > WS_RSP_MAX_PACKET - s->outlen) n = WS_RSP_MAX_PACKET - s->outlen;
    memcpy(s->out + s->outlen, text, n);
    s->outlen += n;
}

void ws_gdb_replyf(ws_gdb_session *s, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    ws_gdb_reply(s, buf);
}

void ws_gdb_reply_bin(ws_gdb_session *s, const uint8_t *data, size_t n)
{
    size_t used;
    s->outlen += ws_rsp_escape(data, n, s->out + s->outlen, WS_RSP_MAX_PACKET - s->outlen, &used);
}

/* The target refused (a register write, a resume): "E.why", which gdb
 * shows ("Could not write register ...; remote failure reply 'E.why'",
 * "Remote failure reply: E.why"), or E0e when the target gives no reason.
 * The text leaves out the characters that frame packets. */
void ws_gdb_reply_refused(ws_gdb_session *s)
{
    const char *why = s->ops->error ? s->ops->error(s->t) : NULL;
    if (!why || !*why) {
        ws_gdb_reply_error(s, 0x0e);
        return;
    }
    char text[200];
    size_t k = 0;
    for (; why[k] && k < sizeof text - 1; k++)
        text[k] = why[k] == '#' || why[k] == '$' || why[k] == '}' || why[k] == '*' || why[k] == '\n' ? ' ' : why[k];
    text[k] = 0;
    s->outlen = 0;
    ws_gdb_replyf(s, "E.%s", text);
}

void ws_gdb_reply_error(ws_gdb_session *s, int code)
{
    s->outlen = 0;
    ws_gdb_replyf(s, "E%02x", code & 0xff);
}

int ws_gdb_parse_tid(const char *p, const char **end, uint32_t *tid)
{
    if (p[0] == '-' && p[1] == '1') {
        *tid = 0;
        *end = p + 2;
        return 0;
    }
    uint64_t v;
    if (ws_hex_u64(p, ";:,", &v, end) || v > 0xffffffffu) return -1;
    *tid = (uint32_t)v;
    return 0;
}

ws_gdb_thread *ws_gdb_list_threads(ws_gdb_session *s, size_t *n)
{
    size_t cap = 64;
    for (;;) {
        ws_gdb_thread *th = malloc(cap * sizeof *th);
        if (!th) return NULL;
        if (s->ops->threads(s->t, th, cap, n) != WS_OK) {
            free(th);
            return NULL;
        }
        if (*n <= cap) return th;
        free(th);
        if (*n > MAX_THREADS) return NULL;
        cap = *n;
    }
}

uint32_t ws_gdb_pick_tid(ws_gdb_session *s, uint32_t tid)
{
    if (tid) return tid;
    size_t n;
    ws_gdb_thread *th = ws_gdb_list_threads(s, &n);
    uint32_t r = th && n ? th[0].tid : 0;
    free(th);
    return r;
}

int ws_gdb_thread_exists(ws_gdb_session *s, uint32_t tid)
{
    if (s->ops->thread_alive) return s->ops->thread_alive(s->t, tid);
    size_t n;
    int found = 0;
    ws_gdb_thread *th = ws_gdb_list_threads(s, &n);
    for (size_t i = 0; th && i < n && !found; i++) found = th[i].tid == tid;
    free(th);
    return found;
}

/* qfThreadInfo (first) / qsThreadInfo (next): ids in pages, in order,
 * continuing after the last id sent. */
static void thread_info(ws_gdb_session *s, int first)
{
    size_t n, sent = 0;
    ws_gdb_thread *th = ws_gdb_list_threads(s, &n);
    if (!th) {
        ws_gdb_reply_error(s, 1);
        return;
    }
    if (first) s->tinfo_last = 0;
    for (size_t i = 0; i < n && sent < IDS_PER_PACKET; i++) {
        if (th[i].tid <= s->tinfo_last) continue;
        ws_gdb_replyf(s, "%s%x", sent ? "," : "m", th[i].tid);
        s->tinfo_last = th[i].tid;
        sent++;
    }
    if (!sent) ws_gdb_reply(s, "l");
    free(th);
}

static void thread_extra(ws_gdb_session *s, const char *arg)
{
    uint32_t tid;
    const char *end;
    size_t n;
    ws_gdb_thread *th = NULL;
    if (ws_gdb_parse_tid(arg, &end, &tid) || !(th = ws_gdb_list_threads(s, &n))) {
        free(th);
        ws_gdb_reply_error(s, 1);
        return;
    }
    for (size_t i = 0; i < n; i++)
        if (th[i].tid == tid) {
            char hex[2 * sizeof th[i].name + 1];
            ws_hex_encode((const uint8_t *)th[i].name, strlen(th[i].name), hex);
            ws_gdb_reply(s, hex);
            free(th);
            return;
        }
    free(th);
    ws_gdb_reply_error(s, 2);
}

static void set_thread(ws_gdb_session *s, const char *arg)
{
    uint32_t tid;
    const char *end;
    if (ws_gdb_parse_tid(arg + 1, &end, &tid) || *end || (arg[0] != 'g' && arg[0] != 'c')) {
        ws_gdb_reply_error(s, 1);
        return;
    }
    if (tid && !ws_gdb_thread_exists(s, tid)) {
        ws_gdb_reply_error(s, 2);
        return;
    }
    if (arg[0] == 'g') s->g_tid = tid;
    else s->c_tid = tid;
    ws_gdb_reply(s, "OK");
}

static int cmd_query(ws_gdb_session *s, char *pkt)
{
    if (!strncmp(pkt, "qSupported", 10)) {
        ws_gdb_replyf(s, "PacketSize=%x;QStartNoAckMode+;swbreak+;hwbreak+;qXfer:features:read+;"
                         "qXfer:threads:read+;qXfer:libraries:read+;vContSupported+;QThreadEvents+;"
                         "ConditionalBreakpoints+",
                      WS_RSP_MAX_PACKET);
        if (s->ops->non_stop_capable) ws_gdb_reply(s, ";QNonStop+");
        if (s->ops->reverse) ws_gdb_reply(s, ";ReverseStep+;ReverseContinue+");
    } else if (!strcmp(pkt, "QStartNoAckMode")) {
        ws_gdb_reply(s, "OK"); /* this reply is still acked; noack starts after */
    } else if (!strcmp(pkt, "qAttached")) {
        ws_gdb_reply(s, "1");
    } else if (!strcmp(pkt, "qC")) {
        ws_gdb_replyf(s, "QC%x", ws_gdb_pick_tid(s, s->g_tid));
    } else if (!strcmp(pkt, "qfThreadInfo") || !strcmp(pkt, "qsThreadInfo")) {
        thread_info(s, pkt[1] == 'f');
    } else if (!strncmp(pkt, "qThreadExtraInfo,", 17)) {
        thread_extra(s, pkt + 17);
    } else if (!strcmp(pkt, "qSymbol::")) {
        ws_gdb_reply(s, "OK");
    } else if (!strncmp(pkt, "QNonStop:", 9)) {
        int on = pkt[9] == '1';
        if ((pkt[9] != '0' && !on) || pkt[10] || (on && !s->ops->non_stop_capable) ||
            (s->ops->set_non_stop && s->ops->set_non_stop(s->t, on) != WS_OK)) {
            ws_gdb_reply_error(s, 1);
        } else {
            s->non_stop = on;
            ws_gdb_reply(s, "OK");
        }
    } else if (!strncmp(pkt, "QThreadEvents:", 14) || !strncmp(pkt, "QPassSignals:", 13) ||
               !strncmp(pkt, "QProgramSignals:", 16)) {
        ws_gdb_reply(s, "OK");
    } else if (pkt[0] == 'H') {
        set_thread(s, pkt + 1);
    } else if (pkt[0] == 'T') {
        uint32_t tid;
        const char *end;
        if (ws_gdb_parse_tid(pkt + 1, &end, &tid) || *end || !ws_gdb_thread_exists(s, tid))
            ws_gdb_reply_error(s, 1);
        else
            ws_gdb_reply(s, "OK");
    } else {
        return 0;
    }
    return 1;
}

static void dispatch(ws_gdb_session *s, char *pkt, size_t len)
{
    s->outlen = 0;
    s->no_reply = 0;
    if (!cmd_query(s, pkt) && !ws_gdb_cmd_data(s, pkt, len) && !ws_gdb_cmd_exec(s, pkt, len))
        ws_gdb_cmd_xfer(s, pkt, len); /* else: empty reply = unsupported */
    if (s->no_reply) return;
    ws_gdb_send_packet(s, '$', s->out, s->outlen);
    if (!strcmp(pkt, "QStartNoAckMode")) s->noack = 1;
}

void ws_gdb_session_input(ws_gdb_session *s, const uint8_t *buf, size_t n)
{
    for (size_t i = 0; i < n && !s->done; i++) {
        switch (ws_rsp_feed(&s->rd, buf[i])) {
        case WS_RSP_PACKET: {
            size_t len = s->rd.len;
            if (!s->noack) s->send(s->io, "+", 1);
            int binary = s->rd.buf[0] == 'X' || !strncmp(s->rd.buf, "vFile:pwrite:", 13);
            if (!binary) { /* run-length encoding: gdb never sends it, but tolerate it */
                len = ws_rsp_rle_decode(s->rd.buf, len, WS_RSP_MAX_PACKET);
                if (len == (size_t)-1) {
                    s->outlen = 0;
                    ws_gdb_reply_error(s, 0x16);
                    ws_gdb_send_packet(s, '$', s->out, s->outlen);
                    break;
                }
                s->rd.buf[len] = 0;
            }
            /* A NUL inside a text packet would hide its tail from the
             * string parsers: reject it instead. */
            if (!binary && memchr(s->rd.buf, 0, len)) {
                s->outlen = 0;
                ws_gdb_reply_error(s, 0x16);
                ws_gdb_send_packet(s, '$', s->out, s->outlen);
                break;
            }
            dispatch(s, s->rd.buf, len);
            break;
        }
        case WS_RSP_BAD_CSUM:
        case WS_RSP_TOO_LONG:
            if (!s->noack) s->send(s->io, "-", 1); /* ask for a resend */
            else {
                s->outlen = 0;
                ws_gdb_reply_error(s, 0x16);
                ws_gdb_send_packet(s, '$', s->out, s->outlen);
            }
            break;
        case WS_RSP_NAK:
            if (s->last_sent && !s->noack) s->send(s->io, s->last_sent, s->last_len);
            break;
        case WS_RSP_INTERRUPT:
            if (s->running && s->ops->interrupt) s->ops->interrupt(s->t, 0);
            break;
        default:
            break;
        }
    }
}

int ws_gdb_session_poll(ws_gdb_session *s, int timeout_ms)
{
    ws_gdb_stop st;
    if (s->done || !s->running || !s->ops->wait) return 0;
    /* non-stop: the target keeps what does not fit until gdb drains this
     * queue with vStopped (a warp's halt is a stop per lane) */
    if (s->non_stop && s->npending >= WS_GDB_MAX_PENDING) return 0;
    if (s->ops->wait(s->t, timeout_ms, &st) != WS_OK) return 0;
    ws_gdb_report_stop(s, &st);
    return 1;
}
