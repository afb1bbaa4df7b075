/* WARPSCOPE_JTAG server: options, the listening socket, and the thread
 * that serves one remote_bitbang probe at a time. The thread touches the
 * device only through debug.h (ws_debug_attach/detach and the DMI calls,
 * all locked inside), the same way the gdb server's thread does. */
#include "jtag/jtag_server.h"
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "device/debug/jtag_dtm.h"
#include "device/device.h"
#include "jtag/bitbang.h"
#include "net/loopback.h"
#include "net/spec.h"
#include "warpscope/tool.h"

typedef struct jtag_server {
    ws_device *dev;
    int lfd;
    unsigned idle;
    int per_core;               /* one TAP + DTM per core's (or group's)
                                   debug module                          */
    uint32_t group;             /* cores per module: 0 per core        */
    pthread_t thread;
    int have_thread;
    atomic_int stop;
} jtag_server;

typedef struct opts {
    unsigned port, idle;
    int per_core;
    uint32_t group;
    unsigned quiet;             /* announce=0: the launcher says where it listens */
    char port_file[512];
} opts;

static int take(void *user, const char *k, const char *v)
{
    opts *o = user;
    long n;
    if (!strcmp(k, "port-file")) return ws_spec_path(v, o->port_file, sizeof o->port_file);
    if (!strcmp(k, "topology")) {
        /* each value sets the whole topology: the last one given wins */
        char *gend = NULL;
        unsigned long group = 0;
        if (!strcmp(v, "per-core")) o->per_core = 1;
        else if (!strcmp(v, "broadcast")) o->per_core = 0;
        else if (!strncmp(v, "groups:", 7) && isdigit((unsigned char)v[7]) &&
                 (group = strtoul(v + 7, &gend, 10)) >= 1 && group <= 1024 && !*gend)
            o->per_core = 1; /* one module per group of cores, each on its TAP */
        else return -1;
        o->group = (uint32_t)group;
        return 0;
    }
    if (!strcmp(k, "port") && !ws_spec_uint(v, 65535, &n)) o->port = (unsigned)n;
    else if (!strcmp(k, "idle") && !ws_spec_uint(v, 7, &n)) o->idle = (unsigned)n;
    else if (!strcmp(k, "announce") && !ws_spec_uint(v, 1, &n)) o->quiet = !n;
    else return -1;
    return 0;
}

static ws_status parse(const char *spec, opts *o, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    o->idle = 1;
    return ws_spec_parse(spec, take, o, "WARPSCOPE_JTAG",
                         "port=N, port-file=PATH (under 512 bytes), idle=0..7, topology=broadcast|per-core|groups:N, "
                         "announce=0|1", err, errlen);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* How long a probe may go on talking to a dead bus after the program
 * closed the device, so it can notice and quit instead of losing its
 * socket in the middle of a scan. */
#define CLOSE_GRACE_S 1.0

/* Send the answers. A probe that stops reading them fills the socket;
 * waiting for it is flow control while the program runs, but once the
 * device is closing it may hold the close (and the program's exit) for
 * CLOSE_GRACE_S only. 0, -1 (errno set), or -2: the probe stalled. */
static int send_all(jtag_server *s, int fd, const char *p, size_t n)
{
    double give_up = 0;
    while (n) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w < 0 && errno == EINTR) continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (atomic_load(&s->stop)) {
                if (!give_up) give_up = now_s() + CLOSE_GRACE_S;
                else if (now_s() > give_up) return -2;
            }
            struct pollfd q = { fd, POLLOUT, 0 };
            poll(&q, 1, 100);
            continue;
        }
        if (w <= 0) return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* The debug module after the program closed the device. The harts went
 * with the program, so the module says what a debug module says of harts
 * that hold no thread: dmstatus reports every hart unavailable (OpenOCD:
 * "Hart N is unavailable", as when a kernel ends under it), keeping the
 * resume acknowledgement the live module gave last, and sbcs and
 * abstractcs keep their last values. So an access that completed before
 * the close (a resume, or a system bus write that let the kernel finish)
 * is reported as done when the probe reads its status afterwards; until
 * 2026-11-27 that status read failed, and OpenOCD called the write or the
 * resume failed. Anything that needs the device (memory, registers, an
 * abstract command, a mode-switch frame) fails with a message; the
 * mode-switch port's status of the last frame still reads. */
typedef struct closed_dm {
    uint32_t dmcontrol, dmstatus, abstractcs, sbcs, modeswitch;
} closed_dm;

enum { DMS_ACK = 3u << 16, DMS_UNAVAIL = 3u << 12, DMS_FIXED = 0xFFu /* authenticated, version, ... */ };

static ws_status dead(uint32_t addr, uint32_t *v, char *err, size_t errlen)
{
    if (v) *v = 0;
    snprintf(err, errlen, "DMI access to 0x%02x after the program closed the device", addr);
    return WS_ERR_INVALID_ARG;
}

static ws_status closed_read(void *ctx, uint32_t addr, uint32_t *v, char *err, size_t errlen)
{
    const closed_dm *c = ctx;
    switch (addr) {
    case WS_DM_DMCONTROL: *v = c->dmcontrol; return WS_OK;
    case WS_DM_DMSTATUS: *v = c->dmstatus; return WS_OK;
    case WS_DM_ABSTRACTCS: *v = c->abstractcs; return WS_OK;
    case WS_DM_SBCS: *v = c->sbcs; return WS_OK;
    case WS_DM_MODESWITCH: *v = c->modeswitch; return WS_OK; /* the last frame's status */
    case WS_DM_HARTINFO: case WS_DM_HALTSUM0: case WS_DM_HALTSUM1: case WS_DM_HALTSUM2: case WS_DM_HALTSUM3:
        *v = 0; /* nothing halted */
        return WS_OK;
    default: return dead(addr, v, err, errlen);
    }
}

static ws_status closed_write(void *ctx, uint32_t addr, uint32_t v, char *err, size_t errlen)
{
    closed_dm *c = ctx;
    switch (addr) {
    case WS_DM_DMCONTROL:
        /* hart selection and dmactive are kept; haltreq, resumereq and the
         * other requests find no hart: a resume requested now is never
         * acknowledged (the live module clears the ack at a resumereq) */
        c->dmcontrol = v & (0x3FFu << 16 | 0x3FFu << 6 | 1u << 26 | 1u);
        if (v >> 30 & 1) c->dmstatus &= ~DMS_ACK;
        return WS_OK;
    case WS_DM_ABSTRACTCS: c->abstractcs &= ~(v & 7u << 8); return WS_OK; /* cmderr: W1C */
    case WS_DM_SBCS: /* sberror (14:12) and sbbusyerror (22) W1C; the access settings kept */
        c->sbcs = (c->sbcs & ~(v & (7u << 12 | 1u << 22)) & ~0x1F8000u) | (v & 0x1F8000u);
        return WS_OK;
    default: return dead(addr, NULL, err, errlen);
    }
}

/* The module's state as the probe last could see it, turned into that of
 * a module whose harts have all gone (above). */
static void close_dm(ws_jtag_tap *tap, closed_dm *c)
{
    char err[256];
    ws_jtag_dmi live = tap->dmi;
    uint32_t v;
    memset(c, 0, sizeof *c);
    c->dmcontrol = live.read(live.ctx, WS_DM_DMCONTROL, &v, err, sizeof err) == WS_OK ? v & ~(3u << 30) : 1u;
    c->dmstatus = live.read(live.ctx, WS_DM_DMSTATUS, &v, err, sizeof err) == WS_OK ? v : 0x82u;
    c->dmstatus = (c->dmstatus & (DMS_ACK | DMS_FIXED)) | DMS_UNAVAIL;
    c->abstractcs = live.read(live.ctx, WS_DM_ABSTRACTCS, &v, err, sizeof err) == WS_OK ? v & ~(1u << 12) : 0;
    c->sbcs = live.read(live.ctx, WS_DM_SBCS, &v, err, sizeof err) == WS_OK ? v & ~(1u << 21) : 0;
    c->modeswitch = live.read(live.ctx, WS_DM_MODESWITCH, &v, err, sizeof err) == WS_OK ? v : 0;
    tap->dmi.read = closed_read;
    tap->dmi.write = closed_write;
    tap->dmi.ctx = c;
}

typedef struct probe {
    ws_debug *dbg;              /* NULL once released                      */
    unsigned ntaps;             /* TAP k reaches debug module k            */
    ws_jtag_tap tap[WS_BITBANG_MAX_TAPS];
    ws_jtag_dtm dtm[WS_BITBANG_MAX_TAPS];
    closed_dm closed[WS_BITBANG_MAX_TAPS];  /* after the program closed the device */
} probe;

static void release(probe *p)
{
    if (!p->dbg) return;
    ws_debug_detach(p->dbg); /* halted warps resume, triggers are cleared */
    p->dbg = NULL;
}

/* One probe at a time: a second one is closed at once with a line saying
 * why, instead of waiting unanswered (its adapter would hang) until the
 * first leaves. */
static void refuse_second(jtag_server *s)
{
    int c = accept4(s->lfd, NULL, NULL, SOCK_CLOEXEC);
    if (c < 0) return;
    close(c);
    fprintf(stderr, "warpscope: JTAG: refused a second probe: one is connected already (one probe at a time; "
            "connect again after it leaves)\n");
}

/* Serve one probe until it quits, hangs up, misbehaves or the device
 * closes. Writes a line for stderr saying how it ended. */
static void serve(jtag_server *s, int cfd, probe *pr, char *why, size_t whylen)
{
    ws_jtag_tap *tap = &pr->tap[0];
    ws_bitbang bb;
    ws_bitbang_init_chain(&bb, pr->tap, pr->ntaps);
    uint8_t in[4096];
    char out[4096], err[256];
    uint64_t total = 0;
    double deadline = 0;
    for (;;) {
        if (atomic_load(&s->stop) && !deadline) {
            /* the device is closing: keep what the module last said, then let go of it */
            for (unsigned k = 0; k < pr->ntaps; k++) close_dm(&pr->tap[k], &pr->closed[k]);
            release(pr);
            deadline = now_s() + CLOSE_GRACE_S;
        }
        if (deadline && now_s() > deadline) {
            snprintf(why, whylen, "the program closed the device");
            return;
        }
        struct pollfd p[2] = { { cfd, POLLIN, 0 }, { s->lfd, POLLIN, 0 } };
        int r = poll(p, 2, deadline ? 20 : 100);
        if (r < 0 && errno != EINTR) { snprintf(why, whylen, "poll: %s", strerror(errno)); return; }
        /* A probe knocking while this one is connected is refused, but
         * only once this one has nothing left to read: a probe that just
         * quit or hung up is finished first and the next one served. */
        if (r > 0 && (p[1].revents & POLLIN) && !(p[0].revents & (POLLIN | POLLHUP | POLLERR))) {
            char peek;
            if (recv(cfd, &peek, 1, MSG_PEEK | MSG_DONTWAIT) < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
                refuse_second(s);
            continue;
        }
        if (r <= 0 || !(p[0].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        ssize_t n = recv(cfd, in, sizeof in, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            if (ws_bitbang_mid_scan(&bb))
                snprintf(why, whylen, "the probe disconnected in the middle of a scan (TAP in %s)",
                         ws_tap_state_name(tap->state));
            else
                snprintf(why, whylen, "the probe disconnected without quitting");
            return;
        }
        size_t nout = 0, used = 0;
        ws_status st = ws_bitbang_feed(&bb, in, (size_t)n, out, &nout, &used, err, sizeof err);
        int sent = nout ? send_all(s, cfd, out, nout) : 0;
        if (sent == -2) {
            snprintf(why, whylen, "the program closed the device while the probe was not reading its answers "
                     "(gave up after %.0f s)", CLOSE_GRACE_S);
            return;
        }
        if (sent) { snprintf(why, whylen, "cannot answer the probe: %s", strerror(errno)); return; }
        if (st != WS_OK) {
            snprintf(why, whylen, "bad input from the probe after %llu bytes: %s",
                     (unsigned long long)(total + used), err);
            return;
        }
        total += (size_t)n;
        if (bb.quit) { snprintf(why, whylen, "the probe quit"); return; }
    }
}

static void handle_probe(jtag_server *s, int cfd)
{
    probe pr;
    memset(&pr, 0, sizeof pr);
    ws_debug_config dc = { s->group ? WS_DBG_TOPO_GROUPS : s->per_core ? WS_DBG_TOPO_PER_CORE : WS_DBG_TOPO_BROADCAST,
                           s->group ? s->group : 1 };
    ws_status st = ws_debug_attach(s->dev, &dc, &pr.dbg);
    if (st != WS_OK) {
        char why[WS_ERROR_MAX]; /* (the program's threads use the device meanwhile: a copy, not the pointer) */
        ws_last_error_copy(s->dev, why, sizeof why);
        fprintf(stderr, "warpscope: JTAG: cannot attach the debug hardware for the probe: %s\n", why);
        return;
    }
    uint32_t ndm = 1;
    ws_debug_module_count(pr.dbg, &ndm);
    if (ndm > WS_BITBANG_MAX_TAPS) {
        fprintf(stderr, "warpscope: JTAG: the topology gives %u debug modules, more TAPs than the chain "
                "holds (%d); use topology=broadcast\n", ndm, WS_BITBANG_MAX_TAPS);
        release(&pr);
        return;
    }
    pr.ntaps = ndm;
    /* Per-core modules count their harts from 0, as OpenOCD expects of
     * each DM it finds on a TAP of the chain. */
    if (s->per_core) ws_debug_local_harts(pr.dbg, 1);
    /* Non-stop: the probe resumes only what it halted; with all-stop the
     * other warps would stay halted behind a probe that never asks. */
    ws_debug_set_all_stop(pr.dbg, 0);
    /* OpenOCD steps over a watchpoint before it resumes and never looks at
     * how that step ended: a fault in the stepped store must halt the hart
     * after the resume, or gdb never hears of it. */
    ws_debug_set_step_before_fault(pr.dbg, 1);
    /* A probe steps a hart: the step runs that hart's lane, as on any
     * RISC-V target (gdb's `stepi` through OpenOCD moves the thread). */
    ws_debug_set_hart_steps(pr.dbg, 1);
    for (unsigned k = 0; k < pr.ntaps; k++) {
        ws_jtag_dmi dmi;
        ws_jtag_dtm_bind(&pr.dtm[k], pr.dbg, k, &dmi);
        ws_jtag_tap_init(&pr.tap[k], &dmi, s->idle);
    }
    fprintf(stderr, "warpscope: JTAG: probe connected (%u TAP%s)\n", pr.ntaps, pr.ntaps == 1 ? "" : "s");
    double t0 = now_s();
    char why[512] = "";
    serve(s, cfd, &pr, why, sizeof why);
    double dt = now_s() - t0;
    release(&pr);
    uint64_t ops = 0;
    for (unsigned k = 0; k < pr.ntaps; k++) {
        ops += pr.tap[k].dmi_ops;
        if (pr.tap[k].dmistat == WS_DMI_FAILED && pr.tap[k].err[0])
            fprintf(stderr, "warpscope: JTAG: the last failed DMI access (TAP %u): %s\n", k, pr.tap[k].err);
    }
    fprintf(stderr, "warpscope: JTAG: %s; %llu DMI accesses in %.2f s (%.0f/s); debug hardware released\n", why,
            (unsigned long long)ops, dt, dt > 0 ? (double)ops / dt : 0.0);
}

static void *server_main(void *arg)
{
    jtag_server *s = arg;
    while (!atomic_load(&s->stop)) {
        struct pollfd p = { s->lfd, POLLIN, 0 };
        int r = poll(&p, 1, 100);
        if (r <= 0) continue;
        int c = accept4(s->lfd, NULL, NULL, SOCK_CLOEXEC);
        if (c < 0) continue;
        int one = 1;
        setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one); /* one byte answers one 'R' */
        handle_probe(s, c);
        close(c);
    }
    return NULL;
}

static void server_stop(ws_device *dev, void *user)
{
    (void)dev;
    jtag_server *s = user;
    if (!s) return;
    atomic_store(&s->stop, 1);
    if (s->have_thread) pthread_join(s->thread, NULL);
    if (s->lfd >= 0) close(s->lfd);
    free(s);
}

static const ws_tool jtag_tool = {
    .version = WS_TOOL_API_VERSION,
    .name = "JTAG remote_bitbang server",
    .detach = server_stop, /* at device close: stop serving, release the hardware */
};

ws_status ws_jtag_server_attach(ws_device *dev, const char *spec)
{
    char err[WS_ERRLEN] = "";
    opts o;
    ws_status st = parse(spec, &o, err, sizeof err);
    if (st != WS_OK) return ws_set_error(dev, st, "%s", err);
    if (o.per_core) {
        /* Refuse a chain longer than the server can bitbang now, not when
         * the first probe connects (it was closed at once, and OpenOCD
         * only saw its socket go away). */
        ws_config c;
        uint32_t per = o.group ? o.group : 1;
        if (ws_device_config(dev, &c) == WS_OK && (c.cores + per - 1) / per > WS_BITBANG_MAX_TAPS) {
            uint32_t ndm = (c.cores + per - 1) / per, fit = (c.cores + WS_BITBANG_MAX_TAPS - 1) / WS_BITBANG_MAX_TAPS;
            return ws_set_error(dev, WS_ERR_INVALID_ARG,
                                "WARPSCOPE_JTAG: topology=%s on %u cores gives %u debug modules, one TAP each, "
                                "more than the scan chain holds (%d); use topology=groups:%u or more, or "
                                "topology=broadcast", o.group ? "groups" : "per-core", c.cores, ndm,
                                WS_BITBANG_MAX_TAPS, fit);
        }
    }
    jtag_server *s = calloc(1, sizeof *s);
    if (!s) return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "WARPSCOPE_JTAG: out of host memory");
    s->dev = dev;
    s->idle = o.idle;
    s->per_core = o.per_core;
    s->group = o.group;
    uint16_t port = 0;
    st = ws_loopback_listen("WARPSCOPE_JTAG", (uint16_t)o.port, &s->lfd, &port, err, sizeof err);
    if (st != WS_OK) {
        free(s);
        return ws_set_error(dev, st, "%s", err);
    }
    if (o.port_file[0]) { /* (a line per device, as the gdb server's) */
        char line[16];
        snprintf(line, sizeof line, "%u\n", port);
        if (ws_port_file_add(o.port_file, line, s->lfd)) {
            const int e = errno;
            close(s->lfd);
            free(s);
            return ws_set_error(dev, WS_ERR_IO, "WARPSCOPE_JTAG: cannot write port-file %s: %s", o.port_file,
                                strerror(e));
        }
    }
    if (pthread_create(&s->thread, NULL, server_main, s)) {
        close(s->lfd);
        free(s);
        return ws_set_error(dev, WS_ERR_INTERNAL, "WARPSCOPE_JTAG: cannot start the server thread");
    }
    s->have_thread = 1;
    if (!o.quiet) fprintf(stderr, "warpscope: JTAG remote_bitbang listening on 127.0.0.1:%u\n", port);
    st = ws_tool_attach(dev, &jtag_tool, s);
    if (st != WS_OK) server_stop(dev, s);
    return st;
}
