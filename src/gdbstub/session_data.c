/* Registers (g G p P), memory (m M X) and breakpoints (Z z). Errors:
 * E01 malformed, E0e bad address / target refused (E.text for a refused
 * register write), E02 no such thread. */
#include "gdbstub/session_int.h"
#include "gdbstub/tdesc.h"
#include <stdlib.h>
#include <string.h>

#define MAX_MEM (WS_RSP_MAX_PACKET / 2 - 16) /* hex doubles the size */

static uint32_t cur_tid(ws_gdb_session *s)
{
    return ws_gdb_pick_tid(s, s->g_tid);
}

static void reg_to_hex(uint32_t v, char *out)
{
    uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
    ws_hex_encode(b, 4, out);
}

static int hex_to_reg(const char *p, size_t n, uint32_t *v)
{
    uint8_t b[4];
    if (n != 8 || ws_hex_decode(p, 8, b, 4) != 4) return -1;
    *v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    return 0;
}

static void cmd_g(ws_gdb_session *s)
{
    uint32_t tid = cur_tid(s);
    char hex[9];
    for (uint32_t r = 0; r < WS_GDB_G_REGS; r++) {
        uint32_t v;
        if (s->ops->read_reg(s->t, tid, r, &v) != WS_OK) {
            ws_gdb_reply_refused(s); /* with the target's reason: a thread that has exited */
            return;
        }
        reg_to_hex(v, hex);
        ws_gdb_reply(s, hex);
    }
}

static void cmd_G(ws_gdb_session *s, const char *p, size_t n)
{
    uint32_t tid = cur_tid(s);
    if (n % 8 || n / 8 > WS_GDB_G_REGS) {
        ws_gdb_reply_error(s, 1);
        return;
    }
    for (uint32_t r = 0; r < n / 8; r++) {
        uint32_t v;
        if (hex_to_reg(p + 8 * r, 8, &v)) {
            ws_gdb_reply_error(s, 1);
            return;
        }
        if (r && s->ops->write_reg(s->t, tid, r, v) != WS_OK) { /* x0 is not writable */
            ws_gdb_reply_error(s, 0x0e);
            return;
        }
    }
    ws_gdb_reply(s, "OK");
}

static void cmd_p(ws_gdb_session *s, const char *p, int write)
{
    uint64_t r;
    const char *end;
    uint32_t v = 0;
    if (ws_hex_u64(p, "=", &r, &end) || (write ? *end != '=' : *end) || r >= WS_GDB_NUM_REGS) {
        /* an unknown register number reads as "not available" (E) */
        ws_gdb_reply_error(s, 1);
        return;
    }
    uint32_t tid = cur_tid(s);
    if (write) {
        if (hex_to_reg(end + 1, strlen(end + 1), &v)) {
            ws_gdb_reply_error(s, 1);
            return;
        }
        if (s->ops->write_reg(s->t, tid, (uint32_t)r, v) != WS_OK) ws_gdb_reply_refused(s);
        else ws_gdb_reply(s, "OK");
        return;
    }
    if (s->ops->read_reg(s->t, tid, (uint32_t)r, &v) != WS_OK) {
        ws_gdb_reply_error(s, 0x0e);
        return;
    }
    char hex[9];
    reg_to_hex(v, hex);
    ws_gdb_reply(s, hex);
}

/* "addr,len" then `stop` (NUL for m). */
static int parse_addr_len(const char *p, char stop, uint32_t *addr, size_t *len, const char **end)
{
    uint64_t a, l;
    const char *e;
    char stops[2] = { stop, 0 };
    if (ws_hex_u64(p, ",", &a, &e) || *e != ',' || ws_hex_u64(e + 1, stops, &l, &e) || *e != stop)
        return -1;
    if (a > 0xffffffffu || l > 0x100000000u - a) return -1; /* wraps past 4 GiB */
    *addr = (uint32_t)a;
    *len = (size_t)l;
    *end = e;
    return 0;
}

static void cmd_m(ws_gdb_session *s, const char *p)
{
    uint32_t addr;
    size_t len;
    const char *end;
    if (parse_addr_len(p, 0, &addr, &len, &end)) {
        ws_gdb_reply_error(s, 1);
        return;
    }
    if (len > MAX_MEM) len = MAX_MEM; /* a short read is allowed */
    uint8_t *buf = malloc(len ? len : 1);
    char *hex = malloc(2 * len + 1);
    if (!buf || !hex || s->ops->read_mem(s->t, cur_tid(s), addr, buf, len) != WS_OK) {
        ws_gdb_reply_error(s, 0x0e);
    } else {
        ws_hex_encode(buf, len, hex);
        ws_gdb_reply(s, hex);
    }
    free(buf);
    free(hex);
}

static void cmd_M(ws_gdb_session *s, char *p, size_t pktlen, int binary)
{
    uint32_t addr;
    size_t len;
    const char *end;
    if (parse_addr_len(p, ':', &addr, &len, &end) || len > WS_RSP_MAX_PACKET) {
        ws_gdb_reply_error(s, 1);
        return;
    }
    char *data = p + (end + 1 - p);
    size_t dlen = pktlen - (size_t)(data - (p - 1));
    uint8_t *buf = malloc(len ? len : 1);
    long got = -1;
    if (buf && binary) {
        size_t u = ws_rsp_unescape((uint8_t *)data, dlen); /* in place: it only shrinks */
        if (u == len) {
            memcpy(buf, data, len);
            got = (long)len;
        }
    } else if (buf) {
        got = ws_hex_decode(data, dlen, buf, len);
    }
    if (got != (long)len) ws_gdb_reply_error(s, 1);
    else if (len && s->ops->write_mem(s->t, cur_tid(s), addr, buf, len) != WS_OK)
        ws_gdb_reply_error(s, 0x0e);
    else ws_gdb_reply(s, "OK");
    free(buf);
}

/* Z/z type,addr,kind[;X len,bytecode]... (conditions evaluated here) */
static void cmd_Z(ws_gdb_session *s, const char *p, int insert)
{
    uint64_t type, addr, kind;
    const char *e;
    if (ws_hex_u64(p, ",", &type, &e) || *e != ',' || ws_hex_u64(e + 1, ",", &addr, &e) || *e != ',' ||
        ws_hex_u64(e + 1, ";", &kind, &e) || addr > 0xffffffffu || kind > 0xffffffffu) {
        ws_gdb_reply_error(s, 1);
        return;
    }
    if (type > WS_GDB_WP_ACCESS) return; /* unsupported type: empty reply */
    static const size_t max_code = 1024;
    uint8_t *codes = NULL;
    ws_gdb_cond conds[WS_GDB_MAX_CONDS];
    size_t n = 0, used = 0;
    while (*e == ';' && e[1] == 'X') {
        uint64_t clen;
        const char *h;
        if (n == WS_GDB_MAX_CONDS || ws_hex_u64(e + 2, ",", &clen, &h) || *h != ',' || clen > max_code ||
            strlen(h + 1) < 2 * clen)
            goto bad;
        if (!codes && !(codes = malloc(WS_GDB_MAX_CONDS * max_code))) goto bad;
        if (ws_hex_decode(h + 1, 2 * (size_t)clen, codes + used, (size_t)clen) != (long)clen) goto bad;
        conds[n].code = codes + used;
        conds[n].len = (size_t)clen;
        used += (size_t)clen;
        n++;
        e = h + 1 + 2 * clen;
    }
    if (*e && strncmp(e, ";cmds:", 6)) goto bad; /* commands lists are not run on the target */
    if (s->ops->selected) s->ops->selected(s->t, cur_tid(s));
    if (s->ops->breakpoint(s->t, (int)type, (uint32_t)addr, (uint32_t)kind, insert, conds, n) != WS_OK)
        ws_gdb_reply_error(s, 0x0e);
    else
        ws_gdb_reply(s, "OK");
    free(codes);
    return;
bad:
    free(codes);
    ws_gdb_reply_error(s, 1);
}

int ws_gdb_cmd_data(ws_gdb_session *s, char *pkt, size_t len)
{
    switch (pkt[0]) {
    case 'g': if (pkt[1]) return 0; cmd_g(s); return 1;
    case 'G': cmd_G(s, pkt + 1, len - 1); return 1;
    case 'p': cmd_p(s, pkt + 1, 0); return 1;
    case 'P': cmd_p(s, pkt + 1, 1); return 1;
    case 'm': cmd_m(s, pkt + 1); return 1;
    case 'M': cmd_M(s, pkt + 1, len, 0); return 1;
    case 'X': cmd_M(s, pkt + 1, len, 1); return 1;
    case 'Z': cmd_Z(s, pkt + 1, 1); return 1;
    case 'z': cmd_Z(s, pkt + 1, 0); return 1;
    default: return 0;
    }
}
