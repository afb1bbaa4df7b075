/* A small compute-only program for the capture shim tests, linked with
 * libwarpscope.so: frames of htod + memset + dtoh (each read back ends a
 * frame). Modes:
 *   ok N             N frames, then close the device
 *   crash-in K N     abort() inside frame K (after its upload)
 *   crash-after K N  abort() after frame K ended
 *   exit-in K N      exit(3) inside frame K, the device left open
 *   noclose N        N frames, then return from main with the device open
 *   gfx-exit-in K N  graphics frames (begin, clear, present) of an 8x8
 *                    target; exit(0) inside frame K, after its clear
 *   gfx-noclose N    N graphics frames, then return with the device open
 *   gfx-close-in K N ws_device_close inside graphics frame K, after its clear
 *   key K N          raise SIGUSR1 after frame K (the shim captures K+1)
 *   slow-after K N   after frame K print "frame K done", then wait 10 ms
 *                    before each frame (time for a SIGUSR1 from outside) */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "warpscope/graphics.h"
#include "warpscope/warpscope.h"

/* Graphics frames that clear to a colour of their own; exit(0) inside
 * frame `exit_in` (-1: none), or close the device inside frame
 * `close_in`. Else the device is left open. */
static int gfx_frames(ws_device *dev, int exit_in, int close_in, int n)
{
    ws_gfx_target *t;
    if (ws_gfx_target_create(dev, 8, 8, 1, &t) || ws_gfx_set_target(dev, t)) return 1;
    for (int f = 0; f < n; f++) {
        if (ws_gfx_begin_frame(dev, NULL) || ws_gfx_clear(dev, (float[4]){ 0.1f * (float)f, 0.5f, 0.25f, 1 }, 1)) return 1;
        if (f == exit_in) exit(0);
        if (f == close_in) return ws_device_close(dev) != WS_OK;
        if (ws_gfx_present(dev, t, NULL, 0)) return 1;
    }
    printf("shim_program: %d graphics frames\n", n);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) { fprintf(stderr, "usage: shim_program ok N | crash-in K N | crash-after K N | exit-in K N | key K N | slow-after K N | noclose N | gfx-exit-in K N | gfx-noclose N | gfx-close-in K N\n"); return 2; }
    const char *mode = argv[1];
    int k = argc > 3 ? atoi(argv[2]) : -1, n = atoi(argv[argc - 1]);
    ws_device *dev;
    ws_addr a, b;
    enum { SIZE = 4096 };
    uint8_t host[SIZE], back[SIZE];
    if (ws_device_open(NULL, &dev) || ws_malloc(dev, SIZE, &a) || ws_malloc(dev, SIZE, &b)) {
        fprintf(stderr, "shim_program: cannot set up the device\n");
        return 1;
    }
    if (!strncmp(mode, "gfx-", 4)) return gfx_frames(dev, !strcmp(mode, "gfx-exit-in") ? k : -1, !strcmp(mode, "gfx-close-in") ? k : -1, n);
    for (int f = 0; f < n; f++) {
        for (int i = 0; i < SIZE; i++) host[i] = (uint8_t)(i * 7 + f);
        if (ws_memcpy_htod(dev, a, host, SIZE)) return 1;
        if (!strcmp(mode, "crash-in") && f == k) abort();
        if (!strcmp(mode, "exit-in") && f == k) exit(3);
        if (ws_memset(dev, b, f, SIZE / 2) || ws_memcpy_dtod(dev, b + SIZE / 2, a, SIZE / 2) ||
            ws_memcpy_dtoh(dev, back, b, SIZE))
            return 1;
        if (back[0] != (uint8_t)f || back[SIZE / 2 + 1] != host[1]) { fprintf(stderr, "shim_program: wrong results\n"); return 1; }
        if (!strcmp(mode, "crash-after") && f == k) abort();
        if (!strcmp(mode, "key") && f == k) raise(SIGUSR1);
        if (!strcmp(mode, "slow-after") && f == k) printf("shim_program: frame %d done\n", f), fflush(stdout);
        if (!strcmp(mode, "slow-after") && f >= k) nanosleep(&(struct timespec){ .tv_nsec = 10000000 }, NULL);
    }
    if (!strcmp(mode, "noclose")) return printf("shim_program: %d frames, the device left open\n", n), 0;
    ws_free(dev, a);
    ws_free(dev, b);
    ws_device_close(dev);
    printf("shim_program: %d frames\n", n);
    return 0;
}
