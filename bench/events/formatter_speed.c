/* Events per second through the event-trace formatter and the decoder:
 * decode a trace written by `warpscope watch -o`, then encode and decode
 * it again, timed. Usage: formatter_speed TRACE.wsev [REPEATS] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "device/events/event_codec.h"
#include "warpscope/events.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: formatter_speed TRACE.wsev [REPEATS]\n"); return 2; }
    int repeats = argc > 2 ? atoi(argv[2]) : 5;
    FILE *f = fopen(argv[1], "rb");
    if (!f) { perror(argv[1]); return 1; }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *bytes = malloc((size_t)size + 1);
    if (!bytes || fread(bytes, 1, (size_t)size, f) != (size_t)size) { fclose(f); return 1; }
    fclose(f);
    ws_event *ev;
    size_t n;
    char err[256];
    if (ws_events_decode(bytes, (size_t)size, &ev, &n, err, sizeof err) != WS_OK) { fprintf(stderr, "%s\n", err); return 1; }
    double enc = 1e30, dec = 1e30;
    for (int r = 0; r < repeats; r++) {
        ws_ev_writer w = { .buf = malloc((size_t)size), .cap_bits = (uint64_t)size * 8 };
        double t0 = now();
        for (size_t i = 0; i < n; i++) ws_ev_write(&w, &ev[i]);
        double t1 = now();
        if (t1 - t0 < enc) enc = t1 - t0;
        free(w.buf);
        ws_event *again;
        size_t m;
        t0 = now();
        ws_events_decode(bytes, (size_t)size, &again, &m, err, sizeof err);
        t1 = now();
        if (t1 - t0 < dec) dec = t1 - t0;
        free(again);
    }
    printf("%zu events: formatter %.3g events/s, decoder %.3g events/s (best of %d)\n", n, (double)n / enc,
           (double)n / dec, repeats);
    free(ev);
    free(bytes);
    return 0;
}
