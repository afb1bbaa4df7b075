/* `warpscope replay --debug`: the frame debugger's server entry point
 * (replay_debug.h). Options, listening, one gdb session on this thread:
 * every resume replays the frame here, so no thread runs beside gdb's. */
#include "capture/replay_debug.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "capture/replay_debug_int.h"
#include "gdbstub/server.h"
#include "net/loopback.h"
#include "net/spec.h"

typedef struct rd_opts {
    unsigned port;
    int timeout_ms;
    char port_file[512];
} rd_opts;

static int take(void *user, const char *k, const char *v)
{
    rd_opts *o = user;
    long n;
    if (!strcmp(k, "port-file")) return ws_spec_path(v, o->port_file, sizeof o->port_file);
    if (!strcmp(k, "port") && !ws_spec_uint(v, 65535, &n)) o->port = (unsigned)n;
    else if (!strcmp(k, "connect-timeout") && !ws_spec_uint(v, 86400000, &n)) o->timeout_ms = (int)n;
    else return -1;
    return 0;
}

static ws_status parse(const char *spec, rd_opts *o, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    o->timeout_ms = -1;
    return ws_spec_parse(spec, take, o, "replay --debug", "port=N, port-file=PATH, connect-timeout=MS", err, errlen);
}

ws_status ws_replay_debug_serve(ws_replay *r, const char *spec, char *err, size_t errlen)
{
    if (!r || !err || !errlen) return WS_ERR_INVALID_ARG;
    err[0] = 0;
    rd_opts o;
    ws_status st = parse(spec, &o, err, errlen);
    if (st) return st;
    rd_target *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, errlen, "replay --debug: out of host memory");
        return WS_ERR_OUT_OF_MEMORY;
    }
    int lfd = -1, cfd = -1;
    uint16_t port = 0;
    st = rd_init(t, r);
    if (st) snprintf(err, errlen, "replay --debug: %s", t->err);
    if (!st) st = ws_loopback_listen("replay --debug", (uint16_t)o.port, &lfd, &port, err, errlen);
    if (!st) {
        fprintf(stderr, "listening on 127.0.0.1:%u\n", port);
        if (o.port_file[0]) {
            FILE *f = fopen(o.port_file, "w");
            if (!f) {
                snprintf(err, errlen, "replay --debug: cannot write port-file %s", o.port_file);
                st = WS_ERR_IO;
            } else {
                fprintf(f, "%u\n", port);
                fclose(f);
            }
        }
    }
    if (!st) st = ws_gdb_accept(lfd, o.timeout_ms, NULL, &cfd, err, errlen);
    if (!st) st = ws_gdb_serve(cfd, lfd, &rd_ops, t, NULL);
    if (cfd >= 0) close(cfd);
    if (lfd >= 0) close(lfd);
    rd_fini(t);
    free(t);
    return st;
}
