/* Frame debugger latency on a captured frame: the time one gdb resume
 * takes in the frame debugger (each replays the whole frame with the
 * shadow unit armed), against a plain replay of the frame (restore + run)
 * measured in the same run. Goes through the debugger's target ops (the
 * gdb protocol around them adds microseconds).
 *   ws_replay_step_latency CAPTURE X Y   (a pixel the frame's draw covers) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "capture/replay_debug_int.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* One resume through the target ops; its seconds, or -1 on failure. */
static double timed(rd_target *t, char op, int reverse)
{
    ws_gdb_action a = { 0, op, 0, 0, 0 };
    ws_gdb_stop st;
    double t0 = now();
    ws_status s = reverse ? rd_ops.reverse(t, op, 0) : rd_ops.resume(t, &a, 1);
    double dt = now() - t0;
    if (s != WS_OK || rd_ops.wait(t, 0, &st) != WS_OK) {
        fprintf(stderr, "resume %c%s: %s\n", op, reverse ? " (reverse)" : "", t->err);
        return -1;
    }
    return dt;
}

static void report(const char *what, double *v, int n, double base)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    printf("%-34s median %7.1f ms  best %7.1f ms  (%.2fx a plain frame replay)\n", what, v[n / 2] * 1e3,
           v[0] * 1e3, v[n / 2] / base);
}

int main(int argc, char **argv)
{
    if (argc != 4) { fprintf(stderr, "usage: ws_replay_step_latency CAPTURE X Y\n"); return 2; }
    enum { N = 9 };
    ws_replay *r = NULL;
    char err[1024];
    if (ws_replay_open(argv[1], NULL, &r, err, sizeof err) != WS_OK) { fprintf(stderr, "%s\n", err); return 1; }
    double plain[N];
    for (int i = 0; i < N; i++) {
        double t0 = now();
        if (ws_replay_restore(r) || ws_replay_run(r, 0, UINT64_MAX, NULL, NULL)) {
            fprintf(stderr, "%s\n", ws_replay_error(r));
            return 1;
        }
        plain[i] = now() - t0;
    }
    qsort(plain, N, sizeof *plain, cmp);
    double base = plain[N / 2];
    printf("plain frame replay (restore + run)  median %7.1f ms  best %7.1f ms\n", base * 1e3, plain[0] * 1e3);

    rd_target *t = calloc(1, sizeof *t);
    if (!t || rd_init(t, r) != WS_OK) { fprintf(stderr, "%s\n", t ? t->err : "out of memory"); return 1; }
    char cmd[64], *out = NULL;
    snprintf(cmd, sizeof cmd, "debug-pixel %s %s", argv[2], argv[3]);
    rd_ops.monitor(t, cmd, &out);
    free(out);
    timed(t, 'c', 0); /* the library stop */
    double cont = timed(t, 'c', 0);
    if (cont < 0 || t->where != RD_STOP) { fprintf(stderr, "no fragment at that pixel\n"); return 1; }
    printf("continue to the pixel's shader      %7.1f ms\n", cont * 1e3);
    double fw[N], bw[N], rc[N];
    for (int i = 0; i < N; i++) fw[i] = timed(t, 's', 0);
    for (int i = 0; i < N; i++) bw[i] = timed(t, 's', 1);
    for (int i = 0; i < N; i++) {
        timed(t, 's', 0);
        rc[i] = timed(t, 'c', 1); /* back to the pixel's shader entry: count + copy */
    }
    for (int i = 0; i < N; i++)
        if (fw[i] < 0 || bw[i] < 0 || rc[i] < 0) return 1;
    report("stepi (forwards)", fw, N, base);
    report("reverse-stepi", bw, N, base);
    report("reverse-continue (two replays)", rc, N, base);
    printf("%llu frame replays in all\n", (unsigned long long)t->replays);
    rd_fini(t);
    free(t);
    ws_replay_close(r);
    return 0;
}
