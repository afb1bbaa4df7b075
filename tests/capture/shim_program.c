/* A small compute-only program for the capture shim tests, linked with
 * libwarpscope.so: frames of htod + memset + dtoh (each read back ends a
 * frame). Modes:
 *   ok N             N frames, then close the device
 *   crash-in K N     abort() inside frame K (after its upload)
 *   crash-after K N  abort() after frame K ended
 *   exit-in K N      exit(3) inside frame K, the device left open
 *   key K N          raise SIGUSR1 after frame K (the shim captures K+1)
 *   slow-after K N   after frame K print "frame K done", then wait 10 ms
 *                    before each frame (time for a SIGUSR1 from outside) */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "warpscope/warpscope.h"

int main(int argc, char **argv)
{
    if (argc < 3) { fprintf(stderr, "usage: shim_program ok N | crash-in K N | crash-after K N | exit-in K N | key K N | slow-after K N\n"); return 2; }
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
    ws_free(dev, a);
    ws_free(dev, b);
    ws_device_close(dev);
    printf("shim_program: %d frames\n", n);
    return 0;
}
