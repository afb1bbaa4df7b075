/* Debugger overhead benchmark.
 *  1. Throughput: the same launches with no debugger and with the gdb
 *     server attached (WARPSCOPE_DEBUG) and breakpoints (4 software, 1
 *     hardware) on code that never runs; ratio reported, best of 3 each.
 *  2. Stop latency: a breakpoint at the kernel's first instruction; time
 *     from ws_launch to the client holding the stop reply, and from a
 *     step request to its stop reply.
 * The "gdb" is a minimal RSP client thread in this process. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "rsp_client.h"
#include "runtime/elf_image.h"
#include "warpscope/warpscope.h"

enum { BLOCKS = 64, THREADS = 128, ITERS = 4000, LAUNCHES = 5 };

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

typedef struct client {
    char port_file[64];
    uint32_t never_off, work_off; /* entry - link base */
    int mode;                     /* 1 unreached breakpoints, 2 latency */
    volatile double t_launch;     /* set by the main thread */
    double stop_latency, step_latency;
    int ok;
} client;

/* The module's base from the library list (segment address). */
static uint32_t lib_base(int fd)
{
    char buf[4096];
    if (rsp_send(fd, "qXfer:libraries:read::0,fff") || rsp_recv(fd, buf, sizeof buf, 5000) < 0) return 0;
    const char *p = strstr(buf, "address=\"0x");
    return p ? (uint32_t)strtoul(p + 11, NULL, 16) : 0;
}

static void *client_main(void *arg)
{
    client *c = arg;
    char buf[8192], cmd[128];
    unsigned port = 0;
    for (int i = 0; i < 500 && !port; i++) {
        FILE *f = fopen(c->port_file, "r");
        if (f) {
            if (fscanf(f, "%u", &port) != 1) port = 0;
            fclose(f);
        }
        if (!port) usleep(10000);
    }
    int fd = port ? rsp_connect(port) : -1;
    if (fd < 0) return NULL;
    rsp_send(fd, "qSupported:swbreak+;hwbreak+");
    rsp_recv(fd, buf, sizeof buf, 5000);
    rsp_send(fd, "QStartNoAckMode");
    rsp_recv(fd, buf, sizeof buf, 5000);
    rsp_send(fd, "vCont;c"); /* let the application load its module */
    if (rsp_recv(fd, buf, sizeof buf, 10000) < 0 || !strstr(buf, "library")) goto out;
    uint32_t base = lib_base(fd);
    if (!base) goto out;
    if (c->mode == 1) {
        for (int k = 0; k < 4; k++) {
            snprintf(cmd, sizeof cmd, "Z0,%x,2", base + c->never_off + 8u * (uint32_t)k);
            rsp_send(fd, cmd);
            rsp_recv(fd, buf, sizeof buf, 5000);
            if (strcmp(buf, "OK")) goto out;
        }
        snprintf(cmd, sizeof cmd, "Z1,%x,2", base + c->never_off + 40);
        rsp_send(fd, cmd);
        rsp_recv(fd, buf, sizeof buf, 5000);
        if (strcmp(buf, "OK")) goto out;
        rsp_send(fd, "vCont;c");
        c->ok = rsp_recv(fd, buf, sizeof buf, 600000) >= 0 && buf[0] == 'W';
    } else {
        snprintf(cmd, sizeof cmd, "Z0,%x,2", base + c->work_off);
        rsp_send(fd, cmd);
        rsp_recv(fd, buf, sizeof buf, 5000);
        rsp_send(fd, "vCont;c");
        if (rsp_recv(fd, buf, sizeof buf, 60000) < 0 || buf[0] != 'T') goto out;
        c->stop_latency = now() - c->t_launch;
        unsigned tid = (unsigned)strtoul(strstr(buf, "thread:") + 7, NULL, 16);
        snprintf(cmd, sizeof cmd, "z0,%x,2", base + c->work_off);
        rsp_send(fd, cmd);
        rsp_recv(fd, buf, sizeof buf, 5000);
        double best = 1e9;
        for (int k = 0; k < 20; k++) {
            snprintf(cmd, sizeof cmd, "vCont;s:%x", tid);
            double t0 = now();
            rsp_send(fd, cmd);
            if (rsp_recv(fd, buf, sizeof buf, 10000) < 0 || buf[0] != 'T') goto out;
            if (now() - t0 < best) best = now() - t0;
        }
        c->step_latency = best;
        rsp_send(fd, "vCont;c");
        c->ok = rsp_recv(fd, buf, sizeof buf, 600000) >= 0 && buf[0] == 'W';
    }
out:
    close(fd);
    return NULL;
}

/* Open a device (with the debugger if c), run the launches; best time. */
static double run(client *c, double *best)
{
    ws_config cfg;
    ws_config_default(&cfg);
    ws_device *dev;
    ws_module *mod;
    ws_kernel *k;
    ws_addr out;
    pthread_t th;
    if (c) {
        char spec[128];
        snprintf(spec, sizeof spec, "port=0,port-file=%s,connect-timeout=20000", c->port_file);
        setenv("WARPSCOPE_DEBUG", spec, 1);
        pthread_create(&th, NULL, client_main, c);
    }
    ws_status st = ws_device_open(&cfg, &dev);
    unsetenv("WARPSCOPE_DEBUG");
    if (st) return -1;
    if (ws_module_load_file(dev, WS_BENCH_KERNEL, &mod) || ws_kernel_get(mod, "work", &k) ||
        ws_malloc(dev, BLOCKS * THREADS * 4, &out))
        return -1;
    ws_arg args[] = { WS_ARG_PTR(out), WS_ARG_I32(ITERS) };
    *best = 1e9;
    int launches = c && c->mode == 2 ? 1 : LAUNCHES;
    for (int i = 0; i < launches; i++) {
        double t0 = now();
        if (c) c->t_launch = t0;
        if (ws_launch(dev, k, WS_DIM3(BLOCKS, 1, 1), WS_DIM3(THREADS, 1, 1), 0, args, 2) || ws_synchronize(dev))
            return -1;
        if (now() - t0 < *best) *best = now() - t0;
    }
    ws_device_close(dev);
    if (c) pthread_join(th, NULL);
    return 0;
}

int main(void)
{
    ws_elf_image img;
    char err[256];
    size_t size = 0;
    FILE *f = fopen(WS_BENCH_KERNEL, "rb");
    static unsigned char elf[1 << 20];
    if (f) {
        size = fread(elf, 1, sizeof elf, f);
        fclose(f);
    }
    if (!size || ws_elf_parse(elf, size, "bench_kernel.elf", &img, err, sizeof err)) {
        fprintf(stderr, "cannot read %s\n", WS_BENCH_KERNEL);
        return 1;
    }
    client c;
    memset(&c, 0, sizeof c);
    for (uint32_t i = 0; i < img.nkernels; i++) {
        if (!strcmp(img.kernels[i].name, "never")) c.never_off = img.kernels[i].entry - img.link_base;
        if (!strcmp(img.kernels[i].name, "work")) c.work_off = img.kernels[i].entry - img.link_base;
    }
    ws_elf_free(&img);
    snprintf(c.port_file, sizeof c.port_file, "/tmp/ws-debug-bench-%d", (int)getpid());
    double plain[3], dbg[3];
    printf("work: %d blocks x %d threads, %d iterations, best of %d launches\n", BLOCKS, THREADS, ITERS, LAUNCHES);
    for (int r = 0; r < 3; r++) { /* interleaved, so drift hits both alike */
        if (run(NULL, &plain[r])) return 1;
        c.mode = 1;
        unlink(c.port_file);
        if (run(&c, &dbg[r]) || !c.ok) {
            fprintf(stderr, "debug run failed\n");
            return 1;
        }
        printf("run %d: no debugger %.1f ms, gdb server + 5 unreached breakpoints %.1f ms, throughput ratio %.3f\n", r + 1,
               plain[r] * 1e3, dbg[r] * 1e3, plain[r] / dbg[r]);
    }
    double bp = 1e9, bd = 1e9;
    for (int r = 0; r < 3; r++) {
        if (plain[r] < bp) bp = plain[r];
        if (dbg[r] < bd) bd = dbg[r];
    }
    printf("best: no debugger %.1f ms, with debugger %.1f ms: throughput ratio %.3f (goal >= 0.95)\n", bp * 1e3,
           bd * 1e3, bp / bd);
    c.mode = 2;
    unlink(c.port_file);
    double dummy;
    if (run(&c, &dummy) || !c.ok) {
        fprintf(stderr, "latency run failed\n");
        return 1;
    }
    printf("breakpoint at kernel entry: ws_launch -> stop reply at the client %.2f ms; step request -> stop reply %.3f ms (best of 20)\n",
           c.stop_latency * 1e3, c.step_latency * 1e3);
    unlink(c.port_file);
    return 0;
}
