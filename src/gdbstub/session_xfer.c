/* Data transfers: qXfer (features, threads, libraries), vFile (module
 * files for gdb's target: sysroot) and qRcmd (monitor commands). */
#include "gdbstub/session_int.h"
#include "gdbstub/tdesc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "offset,length" window of a document: 'm' + data if more follows,
 * 'l' + data for the last piece. */
static void xfer_window(ws_gdb_session *s, const char *doc, size_t doclen, const char *range)
{
    uint64_t off, len;
    const char *e;
    if (ws_hex_u64(range, ",", &off, &e) || *e != ',' || ws_hex_u64(e + 1, "", &len, &e) || *e) {
        ws_gdb_reply_error(s, 1);
        return;
    }
    if (off > doclen) {
        ws_gdb_reply_error(s, 1);
        return;
    }
    size_t n = doclen - (size_t)off;
    if (len < n) n = (size_t)len;
    if (n > WS_RSP_MAX_PACKET / 2 - 8) n = WS_RSP_MAX_PACKET / 2 - 8; /* escaping may double it */
    ws_gdb_reply(s, off + n < doclen ? "m" : "l");
    ws_gdb_reply_bin(s, (const uint8_t *)doc + off, n);
}

static void xml_escape(char *dst, size_t cap, const char *src)
{
    size_t o = 0;
    for (; *src && o + 7 < cap; src++) {
        const char *r = *src == '<' ? "&lt;" : *src == '>' ? "&gt;" : *src == '&' ? "&amp;"
                      : *src == '"' ? "&quot;" : NULL;
        if (r) {
            memcpy(dst + o, r, strlen(r));
            o += strlen(r);
        } else {
            dst[o++] = *src;
        }
    }
    dst[o] = 0;
}

static char *threads_xml(ws_gdb_session *s, size_t *len)
{
    size_t n;
    ws_gdb_thread *th = ws_gdb_list_threads(s, &n);
    if (!th) return NULL;
    size_t size = 64 + n * 320;
    char *xml = malloc(size), esc[sizeof th->name * 6];
    if (!xml) {
        free(th);
        return NULL;
    }
    size_t o = (size_t)snprintf(xml, size, "<?xml version=\"1.0\"?>\n<threads>\n");
    for (size_t i = 0; i < n; i++) {
        xml_escape(esc, sizeof esc, th[i].name);
        o += (size_t)snprintf(xml + o, size - o, "<thread id=\"%x\" name=\"%.200s\"/>\n", th[i].tid, esc);
    }
    o += (size_t)snprintf(xml + o, size - o, "</threads>\n");
    free(th);
    *len = o;
    return xml;
}

/* A generated document (threads, libraries): made afresh when gdb reads
 * from offset 0, and kept for the reads that continue it. */
static void xfer_generated(ws_gdb_session *s, const char *object, const char *range)
{
    int fresh = !strncmp(range, "0,", 2) || strcmp(s->xfer_object, object) || !s->xfer_doc;
    if (fresh) {
        char *doc = NULL;
        size_t len = 0;
        ws_status st = WS_OK;
        if (!strcmp(object, "threads")) {
            if (!(doc = threads_xml(s, &len))) st = WS_ERR_OUT_OF_MEMORY;
        } else {
            st = s->ops->libraries(s->t, &doc, &len);
        }
        if (st != WS_OK) {
            free(doc);
            ws_gdb_reply_error(s, 0x0e);
            return;
        }
        free(s->xfer_doc);
        s->xfer_doc = doc;
        s->xfer_len = len;
        snprintf(s->xfer_object, sizeof s->xfer_object, "%s", object);
    }
    xfer_window(s, s->xfer_doc, s->xfer_len, range);
}

static void cmd_qxfer(ws_gdb_session *s, const char *p)
{
    if (!strncmp(p, "features:read:", 14)) {
        const char *annex = p + 14, *colon = strchr(annex, ':');
        if (!colon || (size_t)(colon - annex) != 10 || strncmp(annex, "target.xml", 10)) {
            ws_gdb_reply_error(s, 0);
            return;
        }
        xfer_window(s, ws_tdesc_xml(), strlen(ws_tdesc_xml()), colon + 1);
    } else if (!strncmp(p, "threads:read::", 14)) {
        xfer_generated(s, "threads", p + 14);
    } else if (!strncmp(p, "libraries:read::", 16) && s->ops->libraries) {
        xfer_generated(s, "libraries", p + 16);
    } else {
        return; /* unknown object: empty reply */
    }
}

/* ---- vFile: files are the modules the target knows by name ---- */

static void file_reply(ws_gdb_session *s, long result, int err)
{
    if (result < 0) ws_gdb_replyf(s, "F-1,%x", err);
    else ws_gdb_replyf(s, "F%lx", result);
}

static int get_file(ws_gdb_session *s, uint64_t fd, const uint8_t **data, size_t *size)
{
    if (fd >= s->nfiles || !s->files[fd].open || !s->ops->file) return -1;
    return s->ops->file(s->t, s->files[fd].name, data, size) == WS_OK ? 0 : -1;
}

static void cmd_vfile(ws_gdb_session *s, const char *p)
{
    enum { EBADF_ = 9, ENOENT_ = 2, EINVAL_ = 22, EMFILE_ = 24, EROFS_ = 30 };
    uint64_t a, b, c;
    const char *e;
    const uint8_t *data;
    size_t size;
    if (!strncmp(p, "setfs:", 6)) {
        file_reply(s, 0, 0);
    } else if (!strncmp(p, "open:", 5)) {
        const char *comma = strchr(p + 5, ',');
        char name[512];
        long n = comma ? ws_hex_decode(p + 5, (size_t)(comma - p - 5), (uint8_t *)name, sizeof name - 1) : -1;
        if (n < 0 || ws_hex_u64(comma + 1, ",", &a, &e) || *e != ',') {
            file_reply(s, -1, EINVAL_);
            return;
        }
        name[n] = 0;
        if (a & 3) { /* O_WRONLY / O_RDWR */
            file_reply(s, -1, EROFS_);
            return;
        }
        if (!s->ops->file || s->ops->file(s->t, name, &data, &size) != WS_OK) {
            file_reply(s, -1, ENOENT_);
            return;
        }
        size_t fd = 0;
        while (fd < s->nfiles && s->files[fd].open) fd++;
        if (fd == s->nfiles) { /* every handle is open: grow, up to the bound */
            size_t n = s->nfiles ? 2 * s->nfiles : 16;
            if (n > WS_GDB_MAX_FILES) n = WS_GDB_MAX_FILES;
            ws_gdb_file *grown = n > s->nfiles ? realloc(s->files, n * sizeof *grown) : NULL;
            if (!grown) {
                file_reply(s, -1, EMFILE_);
                return;
            }
            memset(grown + s->nfiles, 0, (n - s->nfiles) * sizeof *grown);
            s->files = grown;
            s->nfiles = n;
        }
        s->files[fd].open = 1;
        snprintf(s->files[fd].name, sizeof s->files[fd].name, "%s", name);
        file_reply(s, (long)fd, 0);
    } else if (!strncmp(p, "close:", 6)) {
        if (ws_hex_u64(p + 6, "", &a, &e) || a >= s->nfiles || !s->files[a].open) {
            file_reply(s, -1, EBADF_);
            return;
        }
        s->files[a].open = 0;
        file_reply(s, 0, 0);
    } else if (!strncmp(p, "pread:", 6)) {
        if (ws_hex_u64(p + 6, ",", &a, &e) || *e != ',' || ws_hex_u64(e + 1, ",", &b, &e) || *e != ',' ||
            ws_hex_u64(e + 1, "", &c, &e)) {
            file_reply(s, -1, EINVAL_);
            return;
        }
        if (get_file(s, a, &data, &size)) {
            file_reply(s, -1, EBADF_);
            return;
        }
        size_t n = c >= size ? 0 : size - (size_t)c;
        if (b < n) n = (size_t)b;
        if (n > WS_RSP_MAX_PACKET / 2 - 16) n = WS_RSP_MAX_PACKET / 2 - 16;
        ws_gdb_replyf(s, "F%zx;", n);
        ws_gdb_reply_bin(s, data + c * (n > 0), n);
    } else if (!strncmp(p, "fstat:", 6)) {
        if (ws_hex_u64(p + 6, "", &a, &e) || get_file(s, a, &data, &size)) {
            file_reply(s, -1, EBADF_);
            return;
        }
        /* gdb's struct stat: big-endian fields, st_size at offset 28 */
        uint8_t st[64] = { 0 };
        st[8] = 0x81; /* st_mode 0100444: regular file, read-only */
        st[9] = 0x24;
        uint64_t sz = size;
        for (int i = 0; i < 8; i++) st[28 + i] = (uint8_t)(sz >> (56 - 8 * i));
        ws_gdb_replyf(s, "F%zx;", sizeof st);
        ws_gdb_reply_bin(s, st, sizeof st);
    } else {
        ws_gdb_reply(s, "F-1,58"); /* ENOSYS */
    }
}

/* ---- monitor ---- */

/* "block X [Y [Z]] thread X [Y [Z]]" (missing coordinates are 0). */
static int parse_coords(const char *p, uint32_t b[3], uint32_t t[3])
{
    int n = 0;
    b[0] = b[1] = b[2] = t[0] = t[1] = t[2] = 0;
    if (sscanf(p, " block %n", &n) != 0 || !n) return -1;
    p += n;
    for (int k = 0; k < 3 && !ws_parse_u32(&p, &b[k]); k++) { }
    n = 0;
    if (sscanf(p, " thread %n", &n) != 0 || !n) return -1;
    p += n;
    int k = 0;
    for (; k < 3 && !ws_parse_u32(&p, &t[k]); k++) { }
    while (*p == ' ') p++;
    return k && !*p ? 0 : -1;
}

static void monitor_thread(ws_gdb_session *s, const char *cmd, char *out, size_t cap)
{
    uint32_t b[3], t[3];
    const char *args = strchr(cmd, ' ');
    if (!args || parse_coords(args, b, t)) {
        snprintf(out, cap, "usage: monitor %s block X [Y [Z]] thread X [Y [Z]]\n",
                 strncmp(cmd, "thread", 6) ? "focus" : "thread");
        return;
    }
    unsigned bx = b[0], by = b[1], bz = b[2], tx = t[0], ty = t[1], tz = t[2];
    char prefix[96];
    int pl = snprintf(prefix, sizeof prefix, "block (%u,%u,%u) thread (%u,%u,%u) ", bx, by, bz, tx, ty, tz);
    if (s->ops->focus) {
        if (s->ops->focus(s->t, prefix, out, cap) != WS_OK)
            snprintf(out, cap, "cannot list threads: %s\n", s->ops->error ? s->ops->error(s->t) : "");
        return;
    }
    size_t n;
    ws_gdb_thread *th = ws_gdb_list_threads(s, &n);
    if (!th) {
        snprintf(out, cap, "cannot list threads\n");
        return;
    }
    for (size_t i = 0; i < n; i++)
        if (!strncmp(th[i].name, prefix, (size_t)pl)) {
            /* gdb numbers threads itself; it finds ours with `thread find` */
            snprintf(out, cap, "%s is target thread %u (Thread %u); switch with: thread find %s\n",
                     th[i].name, th[i].tid, th[i].tid, prefix);
            free(th);
            return;
        }
    snprintf(out, cap, "no live thread has block (%u,%u,%u) thread (%u,%u,%u)\n", bx, by, bz, tx, ty, tz);
    free(th);
}

/* A monitor command's output: console output packets ('O' + hex) in
 * pieces, then OK, so any length reaches gdb's console. */
static void monitor_reply(ws_gdb_session *s, const char *out)
{
    size_t len = strlen(out), piece = WS_RSP_MAX_PACKET / 2 - 8;
    char *h = malloc(2 * piece + 2);
    for (size_t off = 0; h && off < len; off += piece) {
        size_t n = len - off < piece ? len - off : piece;
        h[0] = 'O';
        ws_hex_encode((const uint8_t *)out + off, n, h + 1);
        ws_gdb_send_packet(s, '$', h, 1 + 2 * n);
    }
    ws_gdb_reply(s, h ? "OK" : "E0c");
    free(h);
}

static void cmd_rcmd(ws_gdb_session *s, const char *hex)
{
    char cmd[512], *text = NULL, local[512];
    const size_t hexlen = strlen(hex);
    long n = ws_hex_decode(hex, hexlen, (uint8_t *)cmd, sizeof cmd - 1);
    if (n < 0) { /* said on gdb's console: a bare error reads "Protocol error with Rcmd" */
        if (hexlen > 2 * (sizeof cmd - 1))
            snprintf(local, sizeof local, "monitor command too long: %zu bytes, at most %zu\n", hexlen / 2,
                     sizeof cmd - 1);
        else
            snprintf(local, sizeof local, "monitor command: the packet is not hex-encoded text\n");
        monitor_reply(s, local);
        return;
    }
    cmd[n] = 0;
    const char *out = local;
    if (!strncmp(cmd, "thread ", 7) || !strcmp(cmd, "thread") || !strncmp(cmd, "focus ", 6) ||
        !strcmp(cmd, "focus")) {
        monitor_thread(s, cmd, local, sizeof local);
    } else if (!s->ops->monitor || s->ops->monitor(s->t, cmd, &text) != WS_OK) {
        if (text) snprintf(local, sizeof local, "%s\n", text);
        else snprintf(local, sizeof local, "unknown monitor command '%.400s'; try 'monitor help'\n", cmd);
    } else {
        out = text;
    }
    monitor_reply(s, out);
    free(text);
}

int ws_gdb_cmd_xfer(ws_gdb_session *s, char *pkt, size_t len)
{
    (void)len;
    if (!strncmp(pkt, "qXfer:", 6)) cmd_qxfer(s, pkt + 6);
    else if (!strncmp(pkt, "vFile:", 6)) cmd_vfile(s, pkt + 6);
    else if (!strncmp(pkt, "qRcmd,", 6)) cmd_rcmd(s, pkt + 6);
    else return 0;
    return 1;
}
