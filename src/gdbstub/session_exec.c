/* Execution control: '?', vCont (c C s S t), c/s, vCtrlC, k, D, stop
 * replies, and non-stop notifications (%Stop + vStopped). */
#include "gdbstub/session_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ACTIONS 64

size_t ws_gdb_format_stop(const ws_gdb_stop *st, char *buf, size_t cap)
{
    int n;
    if (st->kind == WS_GDB_STOP_EXITED) return (size_t)snprintf(buf, cap, "W%02x", st->exit_code & 0xff);
    if (st->kind == WS_GDB_STOP_NO_RESUMED) return (size_t)snprintf(buf, cap, "N");
    if (st->kind == WS_GDB_STOP_THREAD_EXITED) return (size_t)snprintf(buf, cap, "w00;%x", st->tid);
    n = snprintf(buf, cap, "T%02xthread:%x;", st->signal & 0xff, st->tid);
    if (n < 0 || (size_t)n >= cap) return 0;
    const char *r = "";
    char tmp[32] = "";
    switch (st->reason) {
    case WS_GDB_R_SWBREAK: r = "swbreak:;"; break;
    case WS_GDB_R_HWBREAK: r = "hwbreak:;"; break;
    case WS_GDB_R_WATCH: snprintf(tmp, sizeof tmp, "watch:%x;", st->addr); r = tmp; break;
    case WS_GDB_R_RWATCH: snprintf(tmp, sizeof tmp, "rwatch:%x;", st->addr); r = tmp; break;
    case WS_GDB_R_AWATCH: snprintf(tmp, sizeof tmp, "awatch:%x;", st->addr); r = tmp; break;
    case WS_GDB_R_REPLAY_BEGIN: r = "replaylog:begin;"; break;
    case WS_GDB_R_REPLAY_END: r = "replaylog:end;"; break;
    default: break;
    }
    if (st->kind == WS_GDB_STOP_LIBRARY) r = "library:;";
    int m = snprintf(buf + n, cap - (size_t)n, "%s", r);
    return m < 0 ? (size_t)n : (size_t)n + (size_t)m;
}

/* A line for gdb's console: an 'O' packet (allowed while gdb waits for the
 * stop reply). */
static void console(ws_gdb_session *s, const char *text, size_t n)
{
    if (n > WS_RSP_MAX_PACKET / 2 - 8) n = WS_RSP_MAX_PACKET / 2 - 8;
    char *h = malloc(2 * n + 2);
    if (h) {
        h[0] = 'O';
        ws_hex_encode((const uint8_t *)text, n, h + 1);
        ws_gdb_send_packet(s, '$', h, 1 + 2 * n);
    }
    free(h);
}

/* A fault stop: the device's report goes to gdb's console first. */
static void fault_console(ws_gdb_session *s, const ws_gdb_stop *st)
{
    char *text = NULL;
    if (st->kind != WS_GDB_STOP_SIGNAL ||
        (st->signal != WS_GDB_SIG_SEGV && st->signal != WS_GDB_SIG_BUS && st->signal != WS_GDB_SIG_ILL &&
         st->signal != WS_GDB_SIG_ABRT) ||
        !s->ops->monitor || s->ops->monitor(s->t, "fault", &text) != WS_OK || !text) {
        free(text);
        return;
    }
    console(s, text, strlen(text));
    free(text);
}

void ws_gdb_report_stop(ws_gdb_session *s, const ws_gdb_stop *st)
{
    char buf[128];
    if (st->kind == WS_GDB_STOP_EXITED) s->running = 0;
    if (st->kind == WS_GDB_STOP_EXITED && st->exit_code == WS_GDB_EXIT_UNKNOWN) {
        s->exit_unknown = s->done = 1; /* the one who learns the code tells gdb */
        return;
    }
    if (!s->non_stop) {
        fault_console(s, st);
        if (st->note[0]) console(s, st->note, strlen(st->note));
        size_t n = ws_gdb_format_stop(st, buf, sizeof buf);
        s->running = 0;
        s->last = *st;
        s->have_last = 1;
        if (st->kind == WS_GDB_STOP_SIGNAL || st->kind == WS_GDB_STOP_LIBRARY) s->g_tid = st->tid;
        ws_gdb_send_packet(s, '$', buf, n);
        if (st->kind == WS_GDB_STOP_EXITED) s->done = 1;
        return;
    }
    /* Non-stop: one notification outstanding at a time; gdb drains the
     * rest with vStopped. */
    if (s->notif_out) {
        if (s->npending < WS_GDB_MAX_PENDING) s->pending[s->npending++] = *st;
        return;
    }
    size_t n = ws_gdb_format_stop(st, buf, sizeof buf);
    char note[140];
    int m = snprintf(note, sizeof note, "Stop:%.*s", (int)n, buf);
    s->notif_out = 1;
    s->last = *st;
    s->have_last = 1;
    ws_gdb_send_packet(s, '%', note, (size_t)m);
}

static void resume(ws_gdb_session *s, ws_gdb_action *acts, size_t n)
{
    if (s->ops->resume(s->t, acts, n) != WS_OK) { /* why, for gdb's "Remote failure reply" */
        ws_gdb_reply_refused(s);
        return;
    }
    s->running = 1;
    if (s->non_stop) ws_gdb_reply(s, "OK");
    else s->no_reply = 1; /* the stop reply answers this packet */
}

static void cmd_vcont(ws_gdb_session *s, const char *p)
{
    ws_gdb_action acts[MAX_ACTIONS];
    size_t n = 0;
    while (*p == ';') {
        char op = p[1];
        p += 2;
        uint64_t lo = 0, hi = 0, sig = 0;
        if (op == 'C' || op == 'S') { /* signals cannot be delivered to a lane: the target is told */
            if (ws_hex_u64(p, ":;", &sig, &p) || sig > 255) goto bad;
            op = (char)(op + ('a' - 'A'));
        } else if (op == 'r') { /* rSTART,END: step while pc is in [START, END) */
            if (ws_hex_u64(p, ",", &lo, &p) || *p != ',' || ws_hex_u64(p + 1, ":;", &hi, &p) ||
                lo > 0xffffffffu || hi > 0xffffffffu)
                goto bad;
            if (!s->ops->range_stepping) op = 's'; /* a stop after each step is allowed */
        } else if (op != 'c' && op != 's' && op != 't') {
            goto bad;
        }
        uint32_t tid = 0;
        if (*p == ':') {
            if (ws_gdb_parse_tid(p + 1, &p, &tid)) goto bad;
        }
        if (n == MAX_ACTIONS) goto bad;
        acts[n].tid = tid;
        acts[n].op = op;
        acts[n].lo = (uint32_t)lo;
        acts[n].hi = (uint32_t)hi;
        acts[n].sig = (int)sig;
        n++;
        if (!tid) break; /* a default action ends the list */
    }
    if (*p || !n) goto bad;
    if (s->non_stop && n == 1 && acts[0].op == 't') {
        if (!s->ops->interrupt || s->ops->interrupt(s->t, acts[0].tid) != WS_OK) goto bad;
        s->running = 1;
        ws_gdb_reply(s, "OK");
        return;
    }
    resume(s, acts, n);
    return;
bad:
    ws_gdb_reply_error(s, 1);
}

static void cmd_status(ws_gdb_session *s)
{
    char buf[128];
    ws_gdb_stop st;
    if (s->have_last && s->last.kind == WS_GDB_STOP_SIGNAL && ws_gdb_thread_exists(s, s->last.tid)) {
        st = s->last;
    } else {
        memset(&st, 0, sizeof st);
        st.kind = WS_GDB_STOP_SIGNAL;
        st.signal = 5;
        st.tid = ws_gdb_pick_tid(s, 0);
    }
    if (s->non_stop) s->npending = 0; /* '?' restarts the notification sequence */
    size_t n = ws_gdb_format_stop(&st, buf, sizeof buf);
    s->outlen = 0;
    memcpy(s->out, buf, n);
    s->outlen = n;
}

int ws_gdb_cmd_exec(ws_gdb_session *s, char *pkt, size_t len)
{
    (void)len;
    if (!strcmp(pkt, "?")) {
        cmd_status(s);
    } else if (!strcmp(pkt, "vCont?")) {
        ws_gdb_reply(s, "vCont;c;C;s;S;t;r");
    } else if (!strncmp(pkt, "vCont;", 6)) {
        cmd_vcont(s, pkt + 5);
    } else if ((pkt[0] == 'c' || pkt[0] == 's') && !pkt[1]) {
        ws_gdb_action a[2] = { { ws_gdb_pick_tid(s, s->c_tid), 's', 0, 0, 0 }, { 0, 'c', 0, 0, 0 } };
        if (pkt[0] == 'c') resume(s, a + 1, 1);
        else resume(s, a, 2);
    } else if ((!strcmp(pkt, "bs") || !strcmp(pkt, "bc")) && s->ops->reverse) {
        /* reverse execution (replaying targets): the stop reply answers */
        if (s->ops->reverse(s->t, pkt[1] == 's' ? 's' : 'c', s->c_tid) != WS_OK) { /* 0: any */
            ws_gdb_reply_refused(s);
        } else {
            s->running = 1;
            s->no_reply = 1;
        }
    } else if (!strcmp(pkt, "vCtrlC")) {
        if (s->ops->interrupt && s->ops->interrupt(s->t, 0) == WS_OK) ws_gdb_reply(s, "OK");
        else ws_gdb_reply_error(s, 1);
    } else if (!strcmp(pkt, "vStopped")) {
        if (s->npending) {
            char buf[128];
            size_t n = ws_gdb_format_stop(&s->pending[0], buf, sizeof buf);
            memmove(s->pending, s->pending + 1, --s->npending * sizeof *s->pending);
            memcpy(s->out, buf, n);
            s->outlen = n;
        } else {
            s->notif_out = 0;
            ws_gdb_reply(s, "OK");
        }
    } else if (!strcmp(pkt, "k") || !strncmp(pkt, "vKill", 5)) {
        /* The application owns its process: release it to run on, like D. */
        if (s->ops->detach) s->ops->detach(s->t);
        s->done = 1;
        if (pkt[0] == 'k') s->no_reply = 1;
        else ws_gdb_reply(s, "OK");
    } else if (pkt[0] == 'D') {
        if (s->ops->detach) s->ops->detach(s->t);
        s->done = 1;
        ws_gdb_reply(s, "OK");
    } else {
        return 0;
    }
    return 1;
}
