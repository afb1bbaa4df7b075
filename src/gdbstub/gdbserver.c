/* WARPSCOPE_DEBUG server: option parsing, the server thread, and the
 * handshake with the application thread at device open and close. */
#include "gdbstub/gdbserver.h"
#include "warpscope/tool.h"
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "gdbstub/server.h"
#include "net/loopback.h"
#include "net/spec.h"
#include "device/device.h"
#include "gdbstub/target_dbg.h"
#include "gdbstub/warp_view.h"

struct ws_gdbserver {
    ws_gdb_dbg target;
    ws_gdb_warp_view view;       /* threads=warp (target.warp_stops): gdb's threads are warps */
    ws_debug *dbg;
    ws_device *dev;
    int lfd, cfd;
    int handoff_fd;              /* handoff=FD: gdb's connection goes there at an early close (-1) */
    char socket_path[108];       /* unlinked at the end ("" for TCP) */
    pthread_t thread;
    int have_thread;
    uint32_t blocking;           /* events that park the application      */
    atomic_int stop, served;
    atomic_int connected;        /* a gdb is attached now                 */
};

typedef struct opts {
    unsigned port, stop_at_launch;
    int server_conditions;       /* conditions=server: never in hardware */
    int warp_threads;            /* threads=warp: a gdb thread per warp  */
    int timeout_ms;
    char port_file[512];
    char socket_path[108];       /* socket=PATH: a Unix-domain socket, not TCP */
    int port_given;              /* port= was said (not with socket=)     */
    int handoff_fd;              /* handoff=FD (exit_handoff.h); -1: none */
    unsigned quiet;              /* announce=0: the launcher says where it listens */
} opts;

static int take(void *user, const char *k, const char *v)
{
    opts *o = user;
    long n;
    if (!strcmp(k, "port-file")) return ws_spec_path(v, o->port_file, sizeof o->port_file);
    if (!strcmp(k, "socket")) return ws_spec_path(v, o->socket_path, sizeof o->socket_path);
    if (!strcmp(k, "conditions") && (!strcmp(v, "hardware") || !strcmp(v, "server"))) {
        o->server_conditions = v[0] == 's';
        return 0;
    }
    if (!strcmp(k, "threads") && (!strcmp(v, "lane") || !strcmp(v, "warp"))) {
        o->warp_threads = v[0] == 'w';
        return 0;
    }
    if (!strcmp(k, "port") && !ws_spec_uint(v, 65535, &n)) o->port = (unsigned)n, o->port_given = 1;
    else if (!strcmp(k, "stop-at-launch") && !ws_spec_uint(v, 1, &n)) o->stop_at_launch = (unsigned)n;
    else if (!strcmp(k, "connect-timeout") && !ws_spec_uint(v, INT_MAX, &n)) o->timeout_ms = (int)n;
    else if (!strcmp(k, "handoff") && !ws_spec_uint(v, INT_MAX, &n)) o->handoff_fd = (int)n;
    else if (!strcmp(k, "announce") && !ws_spec_uint(v, 1, &n)) o->quiet = !n;
    else return -1;
    return 0;
}

static ws_status parse(const char *spec, opts *o, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    o->timeout_ms = -1;
    o->handoff_fd = -1;
    ws_status st = ws_spec_parse(spec, take, o, "WARPSCOPE_DEBUG",
                                 "port=N (0-65535), socket=PATH (at most 107 bytes), stop-at-launch=0|1, port-file=PATH, "
                                 "connect-timeout=MS, handoff=FD, announce=0|1, "
                                 "conditions=hardware|server, threads=lane|warp",
                                 err, errlen);
    if (st == WS_OK && o->port_given && o->socket_path[0]) { /* one or the other: the port would be ignored */
        snprintf(err, errlen, "WARPSCOPE_DEBUG: port=%u and socket=%s: the server listens on a TCP port or on a "
                 "Unix-domain socket, not both; give one", o->port, o->socket_path);
        return WS_ERR_INVALID_ARG;
    }
    return st;
}

/* A gdb connects again after the last one detached: attach the debug
 * hardware again and stop the program for it, as at first attach: a
 * running kernel is halted, and a program between launches is held at its
 * next launch until gdb resumes it. */
static ws_status reattach(struct ws_gdbserver *g)
{
    ws_debug_config dc = { WS_DBG_TOPO_BROADCAST, 1 };
    ws_status st = ws_debug_attach(g->dev, &dc, &g->dbg);
    if (st != WS_OK) return st;
    int stop_at_launch = g->target.stop_at_launch, closing = atomic_load(&g->target.closing);
    int exit_code = atomic_load(&g->target.exit_code);
    int server_conditions = g->target.server_conditions, warp_stops = g->target.warp_stops;
    ws_gdb_dbg_fini(&g->target);
    if ((st = ws_gdb_dbg_init(&g->target, g->dbg)) != WS_OK) return st;
    g->target.stop_at_launch = stop_at_launch;
    g->target.server_conditions = server_conditions;
    g->target.warp_stops = warp_stops;
    atomic_store(&g->target.exit_code, exit_code);
    atomic_store(&g->target.closing, closing);
    if (warp_stops) ws_gdb_warp_view_reset(&g->view);
    g->target.gate_open = 1; /* the application is past device open */
    st = ws_debug_set_blocking_events(g->dbg, g->blocking | 1u << WS_DBG_EV_LAUNCH_START);
    if (st == WS_OK) {
        g->target.hold_launch = 1;
        g->target.blocking_after = g->blocking;
        st = ws_gdb_dbg_halt_all(&g->target);
    }
    return st;
}

static void *serve_main(void *arg)
{
    struct ws_gdbserver *g = arg;
    for (;;) {
        atomic_store(&g->connected, 1);
        if (g->target.warp_stops)
            ws_gdb_serve_handoff(g->cfd, g->lfd, &ws_gdb_warp_view_ops, &g->view, &g->stop, g->handoff_fd);
        else ws_gdb_serve_handoff(g->cfd, g->lfd, &ws_gdb_dbg_ops, &g->target, &g->stop, g->handoff_fd);
        /* gdb is gone: nothing may keep the application waiting. Detaching
         * the hardware resumes every halted warp and stops further halts,
         * also one already in flight when gdb left (a step finishing in
         * all-stop). */
        ws_gdb_dbg_open_gate(&g->target);
        ws_dmi_write(g->dbg, 0, WS_DM_EVCTL, 8); /* (before the release: see dbg_detach) */
        ws_debug_set_blocking_events(g->dbg, 0);
        ws_debug_release(g->dbg);
        ws_debug_detach(g->dbg);
        close(g->cfd);
        g->cfd = -1;
        atomic_store(&g->connected, 0);
        if (atomic_load(&g->stop) || atomic_load(&g->target.closing)) break;
        /* keep listening: attach, detach, attach again */
        char err[256];
        int cfd;
        if (ws_gdb_accept(g->lfd, -1, &g->stop, &cfd, err, sizeof err) != WS_OK) break;
        g->cfd = cfd;
        if (reattach(g) != WS_OK) {
            ws_gdb_refuse(g->lfd); /* nothing more to offer: stop serving */
            break;
        }
    }
    atomic_store(&g->served, 1);
    return NULL;
}

static void cleanup(struct ws_gdbserver *g)
{
    if (g->cfd >= 0) close(g->cfd);
    if (g->lfd >= 0) close(g->lfd);
    if (g->socket_path[0]) unlink(g->socket_path);
    if (g->dbg) {
        ws_gdb_dbg_fini(&g->target);
        ws_debug_detach(g->dbg);
    }
    ws_gdb_warp_view_fini(&g->view);
    free(g);
}

static ws_status gdbserver_start(ws_device *dev, const char *spec, struct ws_gdbserver **out, char *err,
                                size_t errlen)
{
    opts o;
    ws_status st = parse(spec, &o, err, errlen);
    if (st) return st;
    struct ws_gdbserver *g = calloc(1, sizeof *g);
    if (!g) return WS_ERR_OUT_OF_MEMORY;
    g->lfd = g->cfd = -1;
    ws_debug_config dc = { WS_DBG_TOPO_BROADCAST, 1 };
    st = ws_debug_attach(dev, &dc, &g->dbg);
    if (st) {
        snprintf(err, errlen, "gdb server: cannot attach the debug hardware (%s)", ws_status_name(st));
        g->dbg = NULL;
        cleanup(g);
        return st;
    }
    st = ws_gdb_dbg_init(&g->target, g->dbg);
    g->target.stop_at_launch = (int)o.stop_at_launch;
    g->target.server_conditions = o.server_conditions;
    g->dev = dev;
    g->handoff_fd = o.handoff_fd;
    g->target.warp_stops = o.warp_threads;
    if (!st && o.warp_threads)
        st = ws_gdb_warp_view_init(&g->view, &ws_gdb_dbg_ops, &g->target, dev->cfg.lanes_per_warp,
                                   dev->cfg.cores * dev->cfg.warps_per_core);
    /* Park the application when code arrives (gdb inserts breakpoints
     * first) or leaves (gdb sees the module gone before the program can
     * load another: a module unloaded and loaded again at once would
     * otherwise reach gdb as one list change, and gdb would not set its
     * breakpoints in the new copy) and, if asked, before every launch.
     * A wait on a command processor the debugger's machines halted waits
     * for gdb's 'monitor watch resume' or 'clear' (gdb hears a stop)
     * rather than failing the program's call; so does a launch whose
     * machine halt came after its last warp had left. */
    uint32_t block = 1u << WS_DBG_EV_MODULE_LOAD | 1u << WS_DBG_EV_MODULE_UNLOAD | 1u << WS_DBG_EV_CP_HELD | 1u << WS_DBG_EV_WD_HELD |
                     1u << WS_DBG_EV_END_HELD |
                     (o.stop_at_launch ? 1u << WS_DBG_EV_LAUNCH_START : 0);
    g->blocking = block;
    if (!st) st = ws_debug_set_blocking_events(g->dbg, block);
    uint16_t port = 0;
    if (!st && o.socket_path[0]) {
        st = ws_local_listen("gdb server", o.socket_path, &g->lfd, err, errlen);
        if (!st) memcpy(g->socket_path, o.socket_path, sizeof g->socket_path);
    } else if (!st) {
        st = ws_loopback_listen("gdb server", (uint16_t)o.port, &g->lfd, &port, err, errlen);
    }
    if (st) {
        cleanup(g);
        return st;
    }
    if (!o.quiet && o.socket_path[0]) fprintf(stderr, "warpscope: gdb server listening on %s\n", o.socket_path);
    else if (!o.quiet) fprintf(stderr, "warpscope: gdb server listening on 127.0.0.1:%u\n", port);
    if (o.port_file[0]) { /* the port, or with socket=PATH the path; a line per device */
        char line[sizeof o.socket_path + 1];
        if (o.socket_path[0]) snprintf(line, sizeof line, "%s\n", o.socket_path);
        else snprintf(line, sizeof line, "%u\n", port);
        if (ws_port_file_add(o.port_file, line, g->lfd)) {
            snprintf(err, errlen, "WARPSCOPE_DEBUG: cannot write port-file %s: %s", o.port_file, strerror(errno));
            cleanup(g);
            return WS_ERR_IO;
        }
    }
    st = ws_gdb_accept(g->lfd, o.timeout_ms, NULL, &g->cfd, err, errlen);
    if (st) {
        cleanup(g);
        return st;
    }
    if (pthread_create(&g->thread, NULL, serve_main, g)) {
        snprintf(err, errlen, "gdb server: cannot start its thread");
        cleanup(g);
        return WS_ERR_INTERNAL;
    }
    g->have_thread = 1;
    ws_gdb_dbg_wait_gate(&g->target); /* until gdb says continue */
    *out = g;
    return WS_OK;
}

/* Tell gdb the program exited, close the connection, detach. */
static void gdbserver_stop(ws_device *dev, void *user)
{
    struct ws_gdbserver *g = user;
    if (!g) return;
    /* The server reports W when it next waits for a stop, with the
     * process's exit status if an exit hook is closing the device; give a
     * connected gdb a moment to hear it and hang up before the socket goes.
     * Closed by the program itself, the process has no status yet: with a
     * handoff descriptor the session ends unsaid and `warpscope debug`
     * tells gdb once the process is gone (without one, W00 as ever). */
    int unknown = !dev->exit_status_known && g->handoff_fd >= 0;
    atomic_store(&g->target.exit_code, unknown ? WS_GDB_EXIT_UNKNOWN : dev->exit_status);
    atomic_store(&g->target.closing, 1);
    for (int i = 0; i < 500 && atomic_load(&g->connected) && !atomic_load(&g->served); i++) {
        struct timespec ts = { 0, 10 * 1000 * 1000 };
        nanosleep(&ts, NULL);
    }
    atomic_store(&g->stop, 1);
    if (g->have_thread) pthread_join(g->thread, NULL);
    cleanup(g);
}

static const ws_tool gdbserver_tool = {
    .version = WS_TOOL_API_VERSION,
    .name = "gdb server",
    .detach = gdbserver_stop, /* at device close: gdb hears the program exit */
};

ws_status ws_gdbserver_attach(ws_device *dev, const char *spec)
{
    char err[WS_ERRLEN];
    struct ws_gdbserver *g = NULL;
    ws_status st = gdbserver_start(dev, spec, &g, err, sizeof err);
    if (st != WS_OK) return ws_set_error(dev, st, "%s", err);
    st = ws_tool_attach(dev, &gdbserver_tool, g);
    if (st != WS_OK) gdbserver_stop(dev, g);
    return st;
}
