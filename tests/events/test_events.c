/* The event bus and trace (issue 10): each event fires as often as the
 * device's own counts say, with the right data; the formatter is lossless
 * on random streams; the trace is deterministic, does not change the
 * simulated cycles, and a damaged trace gets a clear error. */
#include <pthread.h>
#include <stdint.h>
#include "device/debug/debug.h"
#include "device/events/event_codec.h"
#include "warpscope/events.h"
#include "warpscope/warpscope.h"
#include "../test.h"

enum { BLOCKS = 6, THREADS = 256 };

typedef struct run {
    ws_event *ev;
    size_t n;
    uint8_t *bytes;
    size_t size;
    uint64_t cycles, dropped;
    int counter;
} run;

static int do_run(const char *module, ws_exec_mode mode, int traced, run *r)
{
    memset(r, 0, sizeof *r);
    ws_config cfg;
    ws_config_default(&cfg);
    cfg.mode = mode;
    cfg.cores = 4;
    ws_device *dev;
    if (ws_device_open(&cfg, &dev) != WS_OK) return -1;
    ws_event_config ec = { .capacity = 1 << 20 };
    for (int s = 0; s < WS_EV_SOURCES; s++) ec.mask[s] = 0xFFFF;
    ws_module *m;
    ws_kernel *k;
    ws_addr out = 0, counter = 0;
    ws_status st = traced ? ws_events_configure(dev, &ec) : WS_OK;
    if (st == WS_OK) st = ws_module_load_file(dev, module, &m);
    if (st == WS_OK) st = ws_kernel_get(m, "staged", &k);
    if (st == WS_OK) st = ws_malloc(dev, BLOCKS * THREADS * 4, &out);
    if (st == WS_OK) st = ws_malloc(dev, 4, &counter);
    if (st == WS_OK) st = ws_memset(dev, counter, 0, 4);
    ws_arg args[] = { WS_ARG_PTR(out), WS_ARG_PTR(counter) };
    if (st == WS_OK) st = ws_launch(dev, k, (ws_dim3){ BLOCKS, 1, 1 }, (ws_dim3){ THREADS, 1, 1 }, 0, args, 2);
    if (st == WS_OK) st = ws_synchronize(dev);
    if (st == WS_OK) st = ws_memcpy_dtoh(dev, &r->counter, counter, 4);
    ws_launch_stats ls;
    if (st == WS_OK && ws_last_launch_stats(dev, &ls) == WS_OK) r->cycles = ls.cycles;
    if (st == WS_OK && traced) {
        uint64_t events;
        st = ws_events_read(dev, &r->bytes, &r->size, &events, &r->dropped);
        char err[256];
        if (st == WS_OK) st = ws_events_decode(r->bytes, r->size, &r->ev, &r->n, err, sizeof err);
        if (st != WS_OK) fprintf(stderr, "decode: %s\n", err);
    }
    if (st != WS_OK) fprintf(stderr, "run: %s\n", ws_last_error(dev));
    ws_device_close(dev);
    return st == WS_OK ? 0 : -1;
}

static uint64_t count(const run *r, unsigned src, unsigned id)
{
    uint64_t n = 0;
    for (size_t i = 0; i < r->n; i++) n += r->ev[i].source == src && r->ev[i].id == id;
    return n;
}

static void check_counts(const run *r)
{
    const uint32_t warps = BLOCKS * (THREADS / 32);
    CHECK_EQ_U(count(r, WS_EV_WD, WS_EV_WD_DISPATCH), BLOCKS);
    CHECK_EQ_U(count(r, WS_EV_WD, WS_EV_WD_RETIRE), BLOCKS);
    CHECK_EQ_U(count(r, WS_EV_SCHED, WS_EV_SCHED_WARP_START), warps);
    CHECK_EQ_U(count(r, WS_EV_SCHED, WS_EV_SCHED_WARP_RETIRE), warps);
    CHECK_EQ_U(count(r, WS_EV_SCHED, WS_EV_SCHED_BARRIER_RELEASE), 2 * BLOCKS); /* two barriers per block */
    CHECK_EQ_U(count(r, WS_EV_MEM, WS_EV_MEM_ATOMIC), warps);                  /* lane 0 of each warp */
    CHECK_EQ_U(count(r, WS_EV_CP, WS_EV_CP_START), count(r, WS_EV_CP, WS_EV_CP_DONE));
    CHECK(count(r, WS_EV_SCHED, WS_EV_SCHED_BARRIER_WAIT) >= 2 * warps);
    CHECK(count(r, WS_EV_SCHED, WS_EV_SCHED_DIVERGE) >= warps);                /* t & 1 splits every warp */
    CHECK_EQ_U(r->counter, warps);
    CHECK_EQ_U(r->dropped, 0);
    /* every block dispatched exactly once, to some core; time never goes back */
    uint32_t seen = 0;
    int ordered = 1;
    for (size_t i = 0; i < r->n; i++) {
        if (i && r->ev[i].time < r->ev[i - 1].time) ordered = 0;
        if (r->ev[i].source == WS_EV_WD && r->ev[i].id == WS_EV_WD_DISPATCH && r->ev[i].data < 32)
            seen |= 1u << r->ev[i].data;
    }
    CHECK_EQ_U(seen, (1u << BLOCKS) - 1);
    CHECK(ordered);
}

/* The file form of an encoded stream (malloc'd; *len its size). */
static uint8_t *stream_file(const ws_ev_writer *w, size_t *len)
{
    size_t n = (size_t)((w->bits + 7) / 8);
    uint8_t *blob = malloc(WS_EV_HEADER + n);
    uint16_t version = WS_EV_VERSION, zero = 0;
    memcpy(blob, "WSEV", 4); memcpy(blob + 4, &version, 2); memcpy(blob + 6, &zero, 2);
    memcpy(blob + 8, &w->events, 8); memcpy(blob + 16, &w->bits, 8); memcpy(blob + WS_EV_HEADER, w->buf, n);
    *len = WS_EV_HEADER + n;
    return blob;
}

/* The densest stream: each event repeats the last one's type, core and
 * time step with data one higher, 5 bits apiece (a spin loop's atomics
 * come close). The decoder's plausibility check once assumed at least 6
 * bits an event and called such a trace truncated. */
static void check_dense(void)
{
    enum { N = 30000 };
    ws_ev_writer w = { .buf = calloc(1, 1 << 16), .cap_bits = (uint64_t)8 << 16 };
    for (uint32_t i = 0; i < N; i++)
        ws_ev_write(&w, &(ws_event){ .time = 100 + 3ull * i, .source = WS_EV_MEM, .id = 0, .core = 1, .data = i });
    CHECK_EQ_U(w.events, N);
    CHECK(w.bits < (uint64_t)N * 6);
    size_t len;
    uint8_t *blob = stream_file(&w, &len);
    ws_event *out = NULL;
    size_t got = 0;
    char err[256];
    CHECK(ws_events_decode(blob, len, &out, &got, err, sizeof err) == WS_OK);
    CHECK_EQ_U(got, N);
    CHECK(got == N && out[N - 1].data == N - 1 && out[N - 1].time == 100 + 3ull * (N - 1));
    free(out);
    free(blob);
    free(w.buf);
}

/* decode(encode(x)) == x on random streams, including large jumps */
static void check_lossless(void)
{
    enum { N = 20000 };
    ws_event *in = calloc(N, sizeof *in);
    ws_ev_writer w = { .buf = calloc(1, 1 << 20), .cap_bits = (uint64_t)8 << 20 };
    uint64_t t = 0, seed = 12345;
    for (int i = 0; i < N; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t r = (uint32_t)(seed >> 33);
        t += r % 7 == 0 ? (uint64_t)r * 1000 : r % 3;
        in[i] = (ws_event){ .time = t, .source = (uint8_t)(r % WS_EV_SOURCES), .id = (uint8_t)((r >> 4) % 6),
                            .core = (uint16_t)(r % 11 == 0 ? r >> 8 : (r >> 3) % 4),
                            .data = r % 5 == 0 ? r : (uint32_t)i % 40 };
        ws_ev_write(&w, &in[i]);
    }
    CHECK_EQ_U(w.events, N);
    CHECK_EQ_U(w.dropped, 0);
    size_t len;
    uint8_t *blob = stream_file(&w, &len);
    const size_t n = len - WS_EV_HEADER;
    ws_event *out;
    size_t got;
    char err[256];
    CHECK(ws_events_decode(blob, WS_EV_HEADER + n, &out, &got, err, sizeof err) == WS_OK);
    CHECK_EQ_U(got, N);
    int same = got == N;
    for (size_t i = 0; same && i < got; i++)
        same = out[i].time == in[i].time && out[i].data == in[i].data && out[i].source == in[i].source &&
               out[i].id == in[i].id && out[i].core == in[i].core;
    CHECK(same);
    free(out);
    /* truncated and corrupt streams: clear errors */
    CHECK(ws_events_decode(blob, WS_EV_HEADER + n / 2, &out, &got, err, sizeof err) == WS_ERR_BAD_MODULE);
    CHECK_STR_CONTAINS(err, "truncated or corrupt");
    { /* the sizes compared are said as what they are: bytes after the header, and their bits */
        char want[96];
        snprintf(want, sizeof want, "the %zu bytes after its %d-byte header hold %zu bits", n / 2, WS_EV_HEADER,
                 n / 2 * 8);
        CHECK_STR_CONTAINS(err, want);
    }
    CHECK(ws_events_decode(blob, 10, &out, &got, err, sizeof err) == WS_ERR_BAD_MODULE);
    uint64_t more = N + 5;
    memcpy(blob + 8, &more, 8);
    CHECK(ws_events_decode(blob, WS_EV_HEADER + n, &out, &got, err, sizeof err) == WS_ERR_BAD_MODULE);
    CHECK_STR_CONTAINS(err, "event 20000");
    /* a buffer that fills: events dropped, what was kept still decodes */
    ws_ev_writer small = { .buf = calloc(1, 64), .cap_bits = 64 * 8 };
    for (int i = 0; i < 1000; i++) ws_ev_write(&small, &in[i]);
    CHECK(small.dropped > 0 && small.events + small.dropped == 1000);
    free(small.buf);
    free(blob);
    free(w.buf);
    free(in);
}

/* Events whose time goes back (one core's events after another's later
 * ones, a launch's first events after the last launch's end) are events,
 * not a full buffer: the formatter dropped such an event and every one
 * after it, counted them dropped, and the watcher said they "did not fit
 * the trace buffer". Now each is kept in the order given, with its time;
 * the header says version 2 (a step back) and no drop; a trace without a
 * step back is still version 1. */
static const ws_event time_back[] = {
        { .time = 100, .source = WS_EV_WD, .id = WS_EV_WD_DISPATCH, .core = 0, .data = 0 },
        { .time = 140, .source = WS_EV_SCHED, .id = WS_EV_SCHED_WARP_RETIRE, .core = 0, .data = 0 },
        { .time = 120, .source = WS_EV_SCHED, .id = WS_EV_SCHED_WARP_RETIRE, .core = 1, .data = 0 }, /* core 1, earlier */
        { .time = 150, .source = WS_EV_WD, .id = WS_EV_WD_RETIRE, .core = 0, .data = 0 },
        { .time = 0, .source = WS_EV_CP, .id = WS_EV_CP_START, .core = 0, .data = 3 },               /* back to 0 */
        { .time = 0, .source = WS_EV_CP, .id = WS_EV_CP_START, .core = 0, .data = 3 },
        { .time = 7, .source = WS_EV_WD, .id = WS_EV_WD_DISPATCH, .core = 2, .data = 1 },
        { .time = 6, .source = WS_EV_WD, .id = WS_EV_WD_DISPATCH, .core = 3, .data = 2 },
        { .time = UINT64_MAX - 1, .source = WS_EV_MEM, .id = WS_EV_MEM_ATOMIC, .core = 1, .data = 9 },
        { .time = 1, .source = WS_EV_MEM, .id = WS_EV_MEM_ATOMIC, .core = 1, .data = 9 },
};

/* The trace file of time_back[], as the device writes one (events.watch
 * reads it with `warpscope watch --read`: no drop warning). */
static int write_time_back(const char *path)
{
    ws_ev_writer w = { .buf = calloc(1, 4096), .cap_bits = 4096 * 8 };
    for (size_t i = 0; i < sizeof time_back / sizeof *time_back; i++) ws_ev_write(&w, &time_back[i]);
    size_t len;
    uint8_t *blob = stream_file(&w, &len);
    uint16_t version = ws_ev_version(&w), flags = w.dropped ? WS_EV_FLAG_DROPPED : 0;
    memcpy(blob + 4, &version, 2);
    memcpy(blob + 6, &flags, 2);
    FILE *f = fopen(path, "wb");
    int bad = !f || fwrite(blob, 1, len, f) != len;
    if (f && fclose(f)) bad = 1;
    free(blob);
    free(w.buf);
    return bad;
}

static void check_time_back(void)
{
    const ws_event *in = time_back;
    enum { N = sizeof time_back / sizeof *time_back };
    ws_ev_writer w = { .buf = calloc(1, 4096), .cap_bits = 4096 * 8 };
    for (size_t i = 0; i < N; i++) ws_ev_write(&w, &in[i]);
    CHECK_EQ_U(w.events, N);
    CHECK_EQ_U(w.dropped, 0);
    CHECK_EQ_U(w.rewinds, 4);
    CHECK_EQ_U(ws_ev_version(&w), WS_EV_VERSION_REWIND);
    size_t len;
    uint8_t *blob = stream_file(&w, &len);
    uint16_t v2 = WS_EV_VERSION_REWIND;
    memcpy(blob + 4, &v2, 2);
    ws_event *out = NULL;
    size_t got = 0;
    char err[256] = "";
    CHECK(ws_events_decode(blob, len, &out, &got, err, sizeof err) == WS_OK);
    if (err[0]) fprintf(stderr, "time back: %s\n", err);
    CHECK_EQ_U(got, N);
    int same = got == N;
    for (size_t i = 0; same && i < got; i++)
        same = out[i].time == in[i].time && out[i].source == in[i].source && out[i].id == in[i].id &&
               out[i].core == in[i].core && out[i].data == in[i].data;
    CHECK(same);
    free(out);
    { /* re-encoding the decoded events gives the same bits */
        ws_ev_writer again = { .buf = calloc(1, 4096), .cap_bits = 4096 * 8 };
        for (size_t i = 0; i < N; i++) ws_ev_write(&again, &in[i]);
        CHECK(again.bits == w.bits && !memcmp(again.buf, w.buf, (size_t)(w.bits + 7) / 8));
        free(again.buf);
    }
    /* a version-1 reader's promise (time never goes back) holds: the same
     * stream called version 1 is corrupt where the step back is */
    uint16_t v1 = WS_EV_VERSION;
    memcpy(blob + 4, &v1, 2);
    CHECK(ws_events_decode(blob, len, &out, &got, err, sizeof err) == WS_ERR_BAD_MODULE);
    CHECK_STR_CONTAINS(err, "corrupt at event 2");
    free(blob);
    /* in order: version 1, no step back */
    ws_ev_writer fwd = { .buf = calloc(1, 4096), .cap_bits = 4096 * 8 };
    for (size_t i = 0; i < 2; i++) ws_ev_write(&fwd, &in[i]);
    CHECK_EQ_U(fwd.rewinds, 0);
    CHECK_EQ_U(ws_ev_version(&fwd), WS_EV_VERSION);
    /* an event no source has is skipped; the trace goes on */
    ws_ev_write(&fwd, &(ws_event){ .time = 200, .source = WS_EV_SOURCES, .id = 0 });
    ws_ev_write(&fwd, &in[3]);
    CHECK_EQ_U(fwd.events, 3);
    CHECK_EQ_U(fwd.dropped, 0);
    CHECK_EQ_U(fwd.invalid, 1);
    free(fwd.buf);
    /* a step back that does not fit is a real drop, and the stream stays whole */
    ws_ev_writer tight = { .buf = calloc(1, 8), .cap_bits = 8 * 8 };
    for (size_t i = 0; i < N; i++) ws_ev_write(&tight, &in[i]);
    CHECK(tight.dropped > 0 && tight.events + tight.dropped == N);
    free(tight.buf);
    free(w.buf);
}

/* ---- debug machines ---- */

typedef struct mrun {
    ws_device *dev;
    ws_status launch;
    char error[1024];
} mrun;

static uint32_t machine_cores = 4;
static int machine_timing; /* open_machine_dev: timing mode */

static ws_status open_machine_dev(const char *module, ws_device **dev, ws_kernel **k, ws_addr *out, ws_addr *counter)
{
    ws_config cfg;
    ws_config_default(&cfg);
    cfg.cores = machine_cores;
    cfg.warps_per_core = 8; /* one 8-warp block per core at a time */
    if (machine_timing) cfg.mode = WS_MODE_TIMING;
    ws_module *m;
    ws_status st = ws_device_open(&cfg, dev);
    ws_event_config ec = { .capacity = 1 << 16 };
    if (st == WS_OK) st = ws_events_configure(*dev, &ec);
    if (st == WS_OK) st = ws_module_load_file(*dev, module, &m);
    if (st == WS_OK) st = ws_kernel_get(m, "staged", k);
    if (st == WS_OK) st = ws_malloc(*dev, BLOCKS * THREADS * 4, out);
    if (st == WS_OK) st = ws_malloc(*dev, 4, counter);
    return st;
}

/* A machine device (open_machine_dev) with a debugger attached and its
 * debug module active (dmactive), as gdb's server leaves it. */
static ws_status open_debugged_dev(const char *module, ws_device **dev, ws_kernel **k, ws_addr *out, ws_addr *counter,
                                   ws_debug **d)
{
    ws_status st = open_machine_dev(module, dev, k, out, counter);
    if (st == WS_OK) st = ws_debug_attach(*dev, &(ws_debug_config){ 0 }, d);
    return st == WS_OK ? ws_dmi_write(*d, 0, WS_DM_DMCONTROL, 1) : st;
}

static ws_status launch_staged(ws_device *dev, ws_kernel *k, ws_addr out, ws_addr counter)
{
    ws_arg args[] = { WS_ARG_PTR(out), WS_ARG_PTR(counter) };
    ws_status st = ws_launch(dev, k, (ws_dim3){ BLOCKS, 1, 1 }, (ws_dim3){ THREADS, 1, 1 }, 0, args, 2);
    return st == WS_OK ? ws_synchronize(dev) : st;
}

static ws_watch on(unsigned src, unsigned id, ws_match match, uint32_t value, uint32_t repeat)
{
    return (ws_watch){ .source = (uint8_t)src, .id = (uint8_t)id, .core = WS_EV_ANY_CORE, .match = match,
                       .value = value, .repeat = repeat };
}

static void on_callback(void *user, unsigned machine, const ws_event *e)
{
    (void)machine;
    (void)e;
    ++*(int *)user;
}

/* Blocks placed, from a fresh trace of the whole launch. */
static uint32_t dispatched(ws_device *dev, uint32_t *mask)
{
    uint8_t *bytes;
    size_t size, n;
    uint64_t nev, dropped;
    ws_event *ev;
    char err[256];
    uint32_t count = 0;
    *mask = 0;
    if (ws_events_read(dev, &bytes, &size, &nev, &dropped) != WS_OK) return 0;
    if (ws_events_decode(bytes, size, &ev, &n, err, sizeof err) == WS_OK) {
        for (size_t i = 0; i < n; i++)
            if (ev[i].source == WS_EV_WD && ev[i].id == WS_EV_WD_DISPATCH) count++, *mask |= 1u << (ev[i].data & 31);
        free(ev);
    }
    free(bytes);
    return count;
}

/* Halting the work distributor stops new blocks while placed ones finish;
 * a step places exactly one more. */
static void check_wd_halt(const char *module)
{
    ws_device *dev;
    ws_kernel *k;
    ws_addr out, counter;
    uint32_t mask;
    machine_cores = 1;
    CHECK(open_machine_dev(module, &dev, &k, &out, &counter) == WS_OK);
    ws_machine_program h = { .enabled = 1, .nwatch = 1, .nactions = 1 };
    h.watch[0] = on(WS_EV_WD, WS_EV_WD_DISPATCH, WS_MATCH_EQ, 1, 1);
    h.actions[0].kind = WS_ACT_WD_HALT;
    CHECK(ws_events_machine(dev, 0, &h) == WS_OK);
    CHECK(launch_staged(dev, k, out, counter) == WS_ERR_STOPPED);
    CHECK_STR_CONTAINS(ws_last_error(dev), "halted by debug machine 0 ('wd.dispatch data=1 do wd.halt') with 4 of 6 blocks not placed");
    CHECK_EQ_U(dispatched(dev, &mask), 2);
    CHECK_EQ_U(mask, 0x3);
    ws_device_close(dev);

    CHECK(open_machine_dev(module, &dev, &k, &out, &counter) == WS_OK);
    ws_machine_program s = { .enabled = 1, .nwatch = 1, .nactions = 1 };
    s.watch[0] = on(WS_EV_WD, WS_EV_WD_RETIRE, WS_MATCH_EQ, 1, 1);
    s.actions[0].kind = WS_ACT_WD_STEP;
    CHECK(ws_events_machine(dev, 0, &h) == WS_OK);
    CHECK(ws_events_machine(dev, 1, &s) == WS_OK);
    CHECK(launch_staged(dev, k, out, counter) == WS_ERR_STOPPED);
    CHECK_STR_CONTAINS(ws_last_error(dev), "3 of 6 blocks not placed");
    CHECK_EQ_U(dispatched(dev, &mask), 3);
    CHECK_EQ_U(mask, 0x7);
    ws_device_close(dev);

    /* Two cores: after the step places block 2, core 1's slot is free and
     * the halted distributor leaves it so. That is no wd.stall ("blocks
     * wait and no core has a free slot"): the only one is at the start,
     * when both slots are taken. A second came, as if for lack of room. */
    machine_cores = 2;
    CHECK(open_machine_dev(module, &dev, &k, &out, &counter) == WS_OK);
    ws_event_config wd_all = { .capacity = 1 << 16 };
    wd_all.mask[WS_EV_WD] = 0xFFFF;
    CHECK(ws_events_configure(dev, &wd_all) == WS_OK);
    CHECK(ws_events_machine(dev, 0, &h) == WS_OK);
    s.watch[0].value = 0;
    CHECK(ws_events_machine(dev, 1, &s) == WS_OK);
    CHECK(launch_staged(dev, k, out, counter) == WS_ERR_STOPPED);
    CHECK_STR_CONTAINS(ws_last_error(dev), "3 of 6 blocks not placed");
    uint8_t *bytes;
    size_t size, n;
    uint64_t nev, dropped;
    ws_event *ev;
    char err[256];
    uint32_t stalls = 0;
    CHECK(ws_events_read(dev, &bytes, &size, &nev, &dropped) == WS_OK);
    CHECK(ws_events_decode(bytes, size, &ev, &n, err, sizeof err) == WS_OK);
    for (size_t i = 0; i < n; i++)
        if (ev[i].source == WS_EV_WD && ev[i].id == WS_EV_WD_STALL) {
            stalls++;
            CHECK_EQ_U(ev[i].time, 0);
            CHECK_EQ_U(ev[i].data, 1u << 30 | 4); /* warp slots; blocks 2-5 wait */
        }
    CHECK_EQ_U(stalls, 1);
    free(ev);
    free(bytes);
    ws_device_close(dev);

    /* Four cores, a step at each retire: every block is placed. In
     * functional mode each core has its own blocks (core 0: 0 and 4), so
     * after block 4 core 0 has none left; the step went to it anyway, was
     * used up placing nothing, and the launch stopped with blocks 1, 2, 3
     * and 5 never placed. */
    machine_cores = 4;
    CHECK(open_machine_dev(module, &dev, &k, &out, &counter) == WS_OK);
    h.watch[0].value = 0;
    CHECK(ws_events_machine(dev, 0, &h) == WS_OK);
    s.watch[0].match = WS_MATCH_ANY;
    s.nactions = 2;
    s.actions[1].kind = WS_ACT_REARM;
    CHECK(ws_events_machine(dev, 1, &s) == WS_OK);
    CHECK(ws_memset(dev, counter, 0, 4) == WS_OK);
    CHECK_EQ_U(launch_staged(dev, k, out, counter), WS_OK);
    CHECK_EQ_U(dispatched(dev, &mask), BLOCKS);
    int atomics = 0;
    CHECK(ws_memcpy_dtoh(dev, &atomics, counter, 4) == WS_OK);
    CHECK_EQ_U(atomics, BLOCKS * (THREADS / 32));
    ws_device_close(dev);
}

/* Halting the command processor: the launch that fired finishes, the next
 * one waits in the queue until ws_events_resume. */
static void check_cp_halt(const char *module)
{
    ws_device *dev;
    ws_kernel *k;
    ws_addr out, counter;
    CHECK(open_machine_dev(module, &dev, &k, &out, &counter) == WS_OK);
    ws_machine_program h = { .enabled = 1, .nwatch = 1, .nactions = 1 };
    h.watch[0] = on(WS_EV_CP, WS_EV_CP_DONE, WS_MATCH_EQ, 3 /* a launch */, 1);
    h.actions[0].kind = WS_ACT_CP_HALT;
    CHECK(ws_events_machine(dev, 0, &h) == WS_OK);
    CHECK(ws_memset(dev, counter, 0, 4) == WS_OK);
    ws_arg args[] = { WS_ARG_PTR(out), WS_ARG_PTR(counter) };
    CHECK(ws_launch(dev, k, (ws_dim3){ BLOCKS, 1, 1 }, (ws_dim3){ THREADS, 1, 1 }, 0, args, 2) == WS_OK);
    CHECK(ws_launch(dev, k, (ws_dim3){ BLOCKS, 1, 1 }, (ws_dim3){ THREADS, 1, 1 }, 0, args, 2) == WS_OK);
    CHECK(ws_synchronize(dev) == WS_ERR_STOPPED);
    CHECK_STR_CONTAINS(ws_last_error(dev), "command processor was halted by debug machine 0 ('cp.done data=3 do cp.halt') with 1 command queued");
    int c = 0;
    CHECK(ws_events_resume(dev) == WS_OK);
    CHECK(ws_memcpy_dtoh(dev, &c, counter, 4) == WS_OK); /* drains the rest: the second launch runs */
    CHECK_EQ_U(c, 2 * BLOCKS * THREADS / 32);
    ws_device_close(dev);
}

static void check_machines(const char *module)
{
    ws_device *dev;
    ws_kernel *k;
    ws_addr out, counter;
    ws_machine_status ms;
    /* single match -> stop: the launch ends with the machine's reason */
    CHECK(open_machine_dev(module, &dev, &k, &out, &counter) == WS_OK);
    ws_machine_program p = { .enabled = 1, .nwatch = 1, .nactions = 1 };
    p.watch[0] = on(WS_EV_WD, WS_EV_WD_DISPATCH, WS_MATCH_EQ, 3, 1);
    p.actions[0].kind = WS_ACT_STOP;
    CHECK(ws_events_machine(dev, 0, &p) == WS_OK);
    CHECK(launch_staged(dev, k, out, counter) == WS_ERR_STOPPED);
    CHECK_STR_CONTAINS(ws_last_error(dev), "debug machine 0 fired on wd.dispatch");
    CHECK(ws_events_machine_status(dev, 0, &ms) == WS_OK);
    CHECK_EQ_U(ms.fired, 1);
    CHECK_EQ_U(ms.last.data, 3);
    CHECK(ms.done && !ms.enabled);
    /* the device goes on: the next launch (machine done) runs to the end */
    CHECK(launch_staged(dev, k, out, counter) == WS_OK);
    ws_device_close(dev);

    /* counted match, re-armed: fires every 5 barrier releases (12 in all) */
    CHECK(open_machine_dev(module, &dev, &k, &out, &counter) == WS_OK);
    ws_machine_program c = { .enabled = 1, .nwatch = 1, .nactions = 2 };
    c.watch[0] = on(WS_EV_SCHED, WS_EV_SCHED_BARRIER_RELEASE, WS_MATCH_ANY, 0, 5);
    c.actions[0].kind = WS_ACT_COUNT;
    c.actions[1].kind = WS_ACT_REARM;
    CHECK(ws_events_machine(dev, 0, &c) == WS_OK);
    /* chain: machine 1 counts atomics only after block 4 is dispatched */
    ws_machine_program a = { .enabled = 1, .nwatch = 1, .nactions = 1 };
    a.watch[0] = on(WS_EV_WD, WS_EV_WD_DISPATCH, WS_MATCH_EQ, 4, 1);
    a.actions[0].kind = WS_ACT_ENABLE;
    a.actions[0].arg = 2;
    ws_machine_program b = { .enabled = 0, .nwatch = 1, .nactions = 2 };
    b.watch[0] = on(WS_EV_MEM, WS_EV_MEM_ATOMIC, WS_MATCH_ANY, 0, 1);
    b.actions[0].kind = WS_ACT_COUNT;
    b.actions[1].kind = WS_ACT_REARM;
    /* callback on every block retire */
    ws_machine_program r = { .enabled = 1, .nwatch = 1, .nactions = 2 };
    r.watch[0] = on(WS_EV_WD, WS_EV_WD_RETIRE, WS_MATCH_ANY, 0, 1);
    r.actions[0].kind = WS_ACT_CALLBACK;
    r.actions[1].kind = WS_ACT_REARM;
    /* a sequence with a window too short never completes */
    ws_machine_program wnd = { .enabled = 1, .nwatch = 2, .nactions = 1 };
    wnd.watch[0] = on(WS_EV_WD, WS_EV_WD_DISPATCH, WS_MATCH_EQ, 0, 1);
    wnd.watch[1] = on(WS_EV_WD, WS_EV_WD_RETIRE, WS_MATCH_EQ, 0, 1);
    wnd.watch[1].window = 1;
    wnd.actions[0].kind = WS_ACT_COUNT;
    ws_machine_program seq = wnd; /* ... and completes without one */
    seq.watch[1].window = 0;
    int calls = 0;
    CHECK(ws_events_machine(dev, 1, &a) == WS_OK);
    CHECK(ws_events_machine(dev, 2, &b) == WS_OK);
    CHECK(ws_events_machine(dev, 3, &r) == WS_OK);
    CHECK(ws_events_machine(dev, 4, &wnd) == WS_OK);
    CHECK(ws_events_machine(dev, 5, &seq) == WS_OK);
    CHECK(ws_events_set_callback(dev, on_callback, &calls) == WS_OK);
    CHECK(ws_memset(dev, counter, 0, 4) == WS_OK);
    CHECK(launch_staged(dev, k, out, counter) == WS_OK);
    CHECK(ws_events_machine_status(dev, 0, &ms) == WS_OK);
    CHECK_EQ_U(ms.fired, 2);
    CHECK_EQ_U(ms.counter, 2);
    CHECK(ws_events_machine_status(dev, 2, &ms) == WS_OK);
    CHECK(ms.counter > 0 && ms.counter < BLOCKS * THREADS / 32);
    CHECK_EQ_U(calls, BLOCKS);
    CHECK(ws_events_machine_status(dev, 4, &ms) == WS_OK);
    CHECK_EQ_U(ms.fired, 0);
    CHECK(ws_events_machine_status(dev, 5, &ms) == WS_OK);
    CHECK_EQ_U(ms.fired, 1);
    /* refusals */
    ws_machine_program bad = { .enabled = 1, .nwatch = 0 };
    CHECK(ws_events_machine(dev, 0, &bad) == WS_ERR_INVALID_ARG);
    CHECK(ws_events_machine(dev, WS_EV_MACHINES, &p) == WS_ERR_INVALID_ARG);
    ws_device_close(dev);

    /* trace start by a machine: the trace begins at the event */
    CHECK(open_machine_dev(module, &dev, &k, &out, &counter) == WS_OK);
    CHECK(ws_events_trace_enable(dev, 0) == WS_OK);
    ws_machine_program t = { .enabled = 1, .nwatch = 1, .nactions = 1 };
    t.watch[0] = on(WS_EV_WD, WS_EV_WD_DISPATCH, WS_MATCH_EQ, 2, 1);
    t.actions[0].kind = WS_ACT_TRACE_START;
    CHECK(ws_events_machine(dev, 0, &t) == WS_OK);
    CHECK(launch_staged(dev, k, out, counter) == WS_OK);
    uint8_t *bytes;
    size_t size, n;
    uint64_t nev, dropped;
    ws_event *ev;
    char err[256];
    CHECK(ws_events_read(dev, &bytes, &size, &nev, &dropped) == WS_OK);
    CHECK(ws_events_decode(bytes, size, &ev, &n, err, sizeof err) == WS_OK);
    CHECK(n > 0 && ev[0].source == WS_EV_WD && ev[0].id == WS_EV_WD_DISPATCH && ev[0].data == 2);
    free(ev);
    free(bytes);
    ws_device_close(dev);

    /* a snapshot: the trace as it was when block 4 retired; the trace goes on */
    CHECK(open_machine_dev(module, &dev, &k, &out, &counter) == WS_OK);
    CHECK(ws_events_read_snapshot(dev, &bytes, &size) == WS_ERR_NOT_FOUND);
    ws_machine_program sn = { .enabled = 1, .nwatch = 1, .nactions = 1 };
    sn.watch[0] = on(WS_EV_WD, WS_EV_WD_RETIRE, WS_MATCH_EQ, 4, 1);
    sn.actions[0].kind = WS_ACT_TRACE_SNAPSHOT;
    CHECK(ws_events_machine(dev, 0, &sn) == WS_OK);
    CHECK(launch_staged(dev, k, out, counter) == WS_OK);
    CHECK(ws_events_read_snapshot(dev, &bytes, &size) == WS_OK);
    CHECK(ws_events_decode(bytes, size, &ev, &n, err, sizeof err) == WS_OK);
    CHECK(n > 0 && ev[n - 1].source == WS_EV_WD && ev[n - 1].id == WS_EV_WD_RETIRE && ev[n - 1].data == 4);
    size_t snap_n = n;
    free(ev);
    free(bytes);
    CHECK(ws_events_read(dev, &bytes, &size, &nev, &dropped) == WS_OK);
    CHECK(nev > snap_n); /* the trace went on after the snapshot */
    free(bytes);
    ws_device_close(dev);
}

/* A `for>T` step times every matching event, not only the first: block
 * 1's two barrier waits (a deadlock) begin while block 0's wait, which
 * ends, is being timed. Only block 1's waits outlive the launch; the
 * machine (count; rearm) counts both. It counted none: while it timed
 * block 0's wait it looked at no other. */
static void check_lasting_overlap(const char *module, ws_exec_mode mode)
{
    ws_config cfg;
    ws_config_default(&cfg);
    cfg.mode = mode;
    ws_device *dev;
    ws_module *m;
    ws_kernel *k;
    ws_addr out = 0;
    CHECK(ws_device_open(&cfg, &dev) == WS_OK);
    ws_event_config ec = { .capacity = 0 };
    CHECK(ws_events_configure(dev, &ec) == WS_OK);
    CHECK(ws_module_load_file(dev, module, &m) == WS_OK);
    CHECK(ws_kernel_get(m, "late_deadlock", &k) == WS_OK);
    CHECK(ws_malloc(dev, 128 * 4, &out) == WS_OK);
    CHECK(ws_memset(dev, out, 0, 128 * 4) == WS_OK);
    ws_machine_program p = { .enabled = 1, .nwatch = 1, .nactions = 2 };
    p.watch[0] = on(WS_EV_SCHED, WS_EV_SCHED_BARRIER_WAIT, WS_MATCH_ANY, 0, 1);
    p.watch[0].lasting = mode == WS_MODE_TIMING ? 100000 : 1000; /* block 0's wait lasts less */
    p.actions[0].kind = WS_ACT_COUNT;
    p.actions[1].kind = WS_ACT_REARM;
    CHECK(ws_events_machine(dev, 0, &p) == WS_OK);
    ws_arg args[] = { WS_ARG_PTR(out), WS_ARG_I32(100) };
    ws_status st = ws_launch(dev, k, (ws_dim3){ 2, 1, 1 }, (ws_dim3){ 64, 1, 1 }, 0, args, 2);
    if (st == WS_OK) st = ws_synchronize(dev);
    CHECK(st == WS_ERR_DEADLOCK);
    ws_machine_status ms;
    CHECK(ws_events_machine_status(dev, 0, &ms) == WS_OK);
    CHECK_EQ_U(ms.counter, 2);
    CHECK_EQ_U(ms.last.data >> 16, 1); /* block 1's */
    ws_device_close(dev);
}

/* A machine that another enables starts watching with the next event,
 * whatever the two machines' numbers: after block 2's dispatch, the next
 * dispatch is block 3's. The machine numbered after the enabling one saw
 * block 2's dispatch itself; the one numbered before it saw block 3's. */
static void check_enable_order(const char *module)
{
    for (unsigned first = 0; first < 2; first++) {
        ws_device *dev;
        ws_kernel *k;
        ws_addr out, counter;
        CHECK(open_machine_dev(module, &dev, &k, &out, &counter) == WS_OK);
        unsigned chained = 1 - first;
        ws_machine_program a = { .enabled = 1, .nwatch = 1, .nactions = 1 };
        a.watch[0] = on(WS_EV_WD, WS_EV_WD_DISPATCH, WS_MATCH_EQ, 2, 1);
        a.actions[0].kind = WS_ACT_ENABLE;
        a.actions[0].arg = chained;
        ws_machine_program b = { .enabled = 0, .nwatch = 1, .nactions = 1 };
        b.watch[0] = on(WS_EV_WD, WS_EV_WD_DISPATCH, WS_MATCH_ANY, 0, 1);
        b.actions[0].kind = WS_ACT_COUNT;
        CHECK(ws_events_machine(dev, first, &a) == WS_OK);
        CHECK(ws_events_machine(dev, chained, &b) == WS_OK);
        CHECK(ws_memset(dev, counter, 0, 4) == WS_OK);
        CHECK(launch_staged(dev, k, out, counter) == WS_OK);
        ws_machine_status ms;
        CHECK(ws_events_machine_status(dev, chained, &ms) == WS_OK);
        CHECK_EQ_U(ms.fired, 1);
        CHECK_EQ_U(ms.last.data, 3);
        CHECK(ms.done && !ms.enabled);
        ws_device_close(dev);
    }
}

/* Timing mode, two launches: every event of both is in the trace, in time
 * order. The second launch's first dispatches were stamped with the first
 * launch's last cycle added twice, the events after them went back in
 * time, and the formatter dropped them all ("did not fit the buffer"). */
static void check_timing_launches(const char *module)
{
    ws_config cfg;
    ws_config_default(&cfg);
    cfg.mode = WS_MODE_TIMING;
    ws_device *dev;
    ws_module *m;
    ws_kernel *k;
    ws_addr out = 0, counter = 0;
    CHECK(ws_device_open(&cfg, &dev) == WS_OK);
    ws_event_config ec = { .capacity = 1 << 20 };
    ec.mask[WS_EV_WD] = 0xFFFF;
    ec.mask[WS_EV_CP] = 0xFFFF;
    CHECK(ws_events_configure(dev, &ec) == WS_OK);
    CHECK(ws_module_load_file(dev, module, &m) == WS_OK);
    CHECK(ws_kernel_get(m, "staged", &k) == WS_OK);
    CHECK(ws_malloc(dev, BLOCKS * THREADS * 4, &out) == WS_OK);
    CHECK(ws_malloc(dev, 4, &counter) == WS_OK);
    ws_launch_stats ls[2];
    for (int i = 0; i < 2; i++) {
        CHECK(launch_staged(dev, k, out, counter) == WS_OK);
        CHECK(ws_last_launch_stats(dev, &ls[i]) == WS_OK);
    }
    uint8_t *bytes;
    size_t size, n = 0;
    uint64_t nev, dropped = 1;
    ws_event *ev = NULL;
    char err[256];
    CHECK(ws_events_read(dev, &bytes, &size, &nev, &dropped) == WS_OK);
    CHECK_EQ_U(dropped, 0);
    CHECK(ws_events_decode(bytes, size, &ev, &n, err, sizeof err) == WS_OK);
    uint32_t disp = 0, ret = 0, done = 0;
    int ordered = 1;
    uint64_t first_dispatch2 = 0;
    for (size_t i = 0; i < n; i++) {
        if (i && ev[i].time < ev[i - 1].time) ordered = 0;
        if (ev[i].source == WS_EV_WD && ev[i].id == WS_EV_WD_DISPATCH && ++disp == BLOCKS + 1) first_dispatch2 = ev[i].time;
        ret += ev[i].source == WS_EV_WD && ev[i].id == WS_EV_WD_RETIRE;
        done += ev[i].source == WS_EV_CP && ev[i].id == WS_EV_CP_DONE && ev[i].data == 3;
    }
    CHECK(ordered);
    CHECK_EQ_U(disp, 2 * BLOCKS);
    CHECK_EQ_U(ret, 2 * BLOCKS);
    CHECK_EQ_U(done, 2);
    CHECK_EQ_U(first_dispatch2, ls[0].cycles); /* the second launch starts where the first ended */
    CHECK(n > 0 && ev[n - 1].time == ls[0].cycles + ls[1].cycles);
    free(ev);
    free(bytes);
    ws_device_close(dev);
}

/* A machine's host callback runs inside the device: a library call from
 * it is refused (WS_ERR_BUSY, with a message), as from the printf
 * handler. ws_synchronize there ran the queue again, starting the next
 * launch inside this one (a crash), and ws_events_disable freed the bus
 * under the machine that was calling. */
typedef struct reentry {
    ws_device *dev;
    ws_addr counter;
    int calls;
    ws_status st[4];
    char msg[4][512];
} reentry;

static void reentering_callback(void *user, unsigned machine, const ws_event *e)
{
    reentry *r = user;
    (void)machine;
    (void)e;
    if (r->calls >= 4) return;
    int v;
    ws_event_config ec = { .capacity = 4096 };
    ws_status st = r->calls == 0 ? ws_synchronize(r->dev)
                 : r->calls == 1 ? ws_events_disable(r->dev)
                 : r->calls == 2 ? ws_events_configure(r->dev, &ec)
                 : ws_memcpy_dtoh(r->dev, &v, r->counter, 4);
    r->st[r->calls] = st;
    snprintf(r->msg[r->calls], sizeof r->msg[r->calls], "%s", ws_last_error(r->dev));
    r->calls++;
}

static void check_callback_reentry(const char *module)
{
    ws_device *dev;
    ws_kernel *k;
    ws_addr out, counter;
    CHECK(open_machine_dev(module, &dev, &k, &out, &counter) == WS_OK);
    CHECK(ws_memset(dev, counter, 0, 4) == WS_OK);
    reentry r = { .dev = dev, .counter = counter };
    ws_machine_program p;
    int print;
    char err[256];
    CHECK(ws_events_parse_machine("wd.dispatch do print; rearm", &p, &print, err, sizeof err) == 0);
    CHECK(ws_events_machine(dev, 0, &p) == WS_OK);
    CHECK(ws_events_set_callback(dev, reentering_callback, &r) == WS_OK);
    /* two launches queued: the second must not start inside the first */
    ws_arg args[] = { WS_ARG_PTR(out), WS_ARG_PTR(counter) };
    CHECK(ws_launch(dev, k, (ws_dim3){ BLOCKS, 1, 1 }, (ws_dim3){ THREADS, 1, 1 }, 0, args, 2) == WS_OK);
    CHECK(ws_launch(dev, k, (ws_dim3){ BLOCKS, 1, 1 }, (ws_dim3){ THREADS, 1, 1 }, 0, args, 2) == WS_OK);
    CHECK(ws_synchronize(dev) == WS_OK);
    CHECK_EQ_U(r.calls, 4);
    for (int i = 0; i < 4; i++) {
        CHECK_EQ_U(r.st[i], WS_ERR_BUSY);
        CHECK_STR_CONTAINS(r.msg[i], "called from a debug machine's callback");
    }
    ws_machine_status ms;
    CHECK(ws_events_machine_status(dev, 0, &ms) == WS_OK);
    CHECK_EQ_U(ms.fired, 2 * BLOCKS); /* the bus is still there, the machine ran on */
    int n = 0;
    CHECK(ws_memcpy_dtoh(dev, &n, counter, 4) == WS_OK);
    CHECK_EQ_U(n, 2 * BLOCKS * (THREADS / 32));
    ws_device_close(dev);
}

/* A `lasting` step completes when its time has passed, also when no event
 * reaches the machines meanwhile: warp 0 waits at a barrier while warp 1
 * spins (bar_spin), emitting nothing the filters pass; the machine stops
 * the launch 1000 time units into the wait. It fired only when the launch
 * ended (here by the watchdog, too late to stop anything). */
static void check_lasting_silent(const char *module, ws_exec_mode mode)
{
    ws_config cfg;
    ws_config_default(&cfg);
    cfg.mode = mode;
    cfg.watchdog_ms = 5000;
    ws_device *dev;
    ws_module *m = NULL;
    ws_kernel *k = NULL;
    ws_addr flag = 0;
    ws_event_config ec = { .capacity = 1 << 12 };
    ec.mask[WS_EV_SCHED] = 1u << WS_EV_SCHED_BARRIER_WAIT;
    CHECK(ws_device_open(&cfg, &dev) == WS_OK);
    CHECK(ws_events_configure(dev, &ec) == WS_OK);
    CHECK(ws_module_load_file(dev, module, &m) == WS_OK && ws_kernel_get(m, "bar_spin", &k) == WS_OK);
    CHECK(ws_malloc(dev, 4, &flag) == WS_OK && ws_memset(dev, flag, 0, 4) == WS_OK);
    ws_machine_program p = { .enabled = 1, .nwatch = 1, .nactions = 1 };
    p.watch[0] = on(WS_EV_SCHED, WS_EV_SCHED_BARRIER_WAIT, WS_MATCH_ANY, 0, 1);
    p.watch[0].lasting = 1000;
    p.actions[0].kind = WS_ACT_STOP;
    CHECK(ws_events_machine(dev, 0, &p) == WS_OK);
    ws_arg args[] = { WS_ARG_PTR(flag) };
    ws_status st = ws_launch(dev, k, (ws_dim3){ 1, 1, 1 }, (ws_dim3){ 64, 1, 1 }, 0, args, 1);
    if (st == WS_OK) st = ws_synchronize(dev);
    CHECK_EQ_U(st, WS_ERR_STOPPED);
    CHECK_STR_CONTAINS(ws_last_error(dev), "debug machine 0 fired on sched.barrier_wait (core 0, data 0x00000000)");
    ws_machine_status ms;
    CHECK(ws_events_machine_status(dev, 0, &ms) == WS_OK);
    CHECK_EQ_U(ms.fired, 1);
    ws_device_close(dev);
}

/* A debugger's machine through the debug module's EV* registers (as gdb's
 * `monitor watch` loads it); the EVCTL status read back. */
static uint32_t debugger_load(ws_debug *d, const ws_machine_program *p)
{
    uint32_t words[128], n = ws_debug_machine_words(p, words, 128), ctl = 0;
    ws_dmi_write(d, 0, WS_DM_EVCTL, 4);
    ws_dmi_write(d, 0, WS_DM_EVSEL, 0);
    for (uint32_t i = 0; i < n; i++) ws_dmi_write(d, 0, WS_DM_EVDATA, words[i]);
    ws_dmi_write(d, 0, WS_DM_EVCTL, 1);
    ws_dmi_read(d, 0, WS_DM_EVCTL, &ctl);
    return ctl;
}

/* ws_events_machine refuses, with the reason, a machine that could never
 * fire on the device: a step on a core it does not have, a data condition
 * no value meets, a halt of cores it does not have. (Until 2026-11-27 only
 * the watcher's text form was checked; through the C API such a machine
 * was loaded and silently never fired.) */
static void check_machine_arguments(const char *module)
{
    ws_device *dev;
    ws_kernel *k;
    ws_addr out, counter;
    machine_cores = 4;
    CHECK(open_machine_dev(module, &dev, &k, &out, &counter) == WS_OK);
    ws_machine_program p = { .enabled = 1, .nwatch = 1, .nactions = 1 };
    p.watch[0] = on(WS_EV_WD, WS_EV_WD_DISPATCH, WS_MATCH_ANY, 0, 1);
    p.watch[0].core = 4;
    p.actions[0].kind = WS_ACT_COUNT;
    CHECK_EQ_U(ws_events_machine(dev, 0, &p), WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "ws_events_machine: machine 0 step 0: core=4: the device has 4 cores (0 to 3)");
    p.watch[0].core = 3;
    CHECK_EQ_U(ws_events_machine(dev, 0, &p), WS_OK);
    p.watch[0] = on(WS_EV_WD, WS_EV_WD_DISPATCH, WS_MATCH_EQ, 0x100, 1);
    p.watch[0].mask = 0xFF;
    CHECK_EQ_U(ws_events_machine(dev, 1, &p), WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "machine 1 step 0: data=0x100 has bits outside mask=0xff: no event can match");
    p.watch[0] = on(WS_EV_WD, WS_EV_WD_DISPATCH, WS_MATCH_RANGE, 5, 1);
    p.watch[0].hi = 3;
    CHECK_EQ_U(ws_events_machine(dev, 1, &p), WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "data=0x5..0x3 under mask=0xffffffff: no event can match");
    p.watch[0].hi = 7;
    CHECK_EQ_U(ws_events_machine(dev, 1, &p), WS_OK);
    p.actions[0].kind = WS_ACT_HALT;
    p.actions[0].arg = 0x30;
    CHECK_EQ_U(ws_events_machine(dev, 2, &p), WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "machine 2 action 0: halt=0x30: the device has 4 cores (mask 0xf)");
    /* the text form's refusals of for> and within= (a condition that
     * means nothing there): a lasting time on an event with no end, a
     * window on the first step; through the debug module's EVCTL too
     * (until 2026-11-28 both were taken: the first fired T after any such
     * event, the second was ignored) */
    p.actions[0].kind = WS_ACT_COUNT;
    p.watch[0] = on(WS_EV_WD, WS_EV_WD_DISPATCH, WS_MATCH_ANY, 0, 1);
    p.watch[0].lasting = 100;
    CHECK_EQ_U(ws_events_machine(dev, 2, &p), WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "machine 2 step 0: lasting=100: wd.dispatch has no duration (lasting times "
                       "sched.barrier_wait, sched.warp_start, wd.stall, cp.start)");
    p.watch[0] = on(WS_EV_WD, WS_EV_WD_DISPATCH, WS_MATCH_ANY, 0, 1);
    p.watch[0].window = 5;
    CHECK_EQ_U(ws_events_machine(dev, 2, &p), WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "machine 2 step 0: window=5: a window times a step from the one before "
                       "it, and the first step has none");
    ws_debug *d;
    CHECK(ws_debug_attach(dev, &(ws_debug_config){ 0 }, &d) == WS_OK);
    CHECK(ws_dmi_write(d, 0, WS_DM_DMCONTROL, 1) == WS_OK);
    CHECK_EQ_U(debugger_load(d, &p), 1u); /* refused */
    p.watch[0].window = 0;
    p.watch[0].lasting = 100;
    CHECK_EQ_U(debugger_load(d, &p), 1u);
    ws_debug_detach(d);
    /* a refused machine is not loaded: only the two good ones count dispatches */
    CHECK(ws_memset(dev, counter, 0, 4) == WS_OK);
    CHECK_EQ_U(launch_staged(dev, k, out, counter), WS_OK);
    ws_machine_status ms;
    CHECK(ws_events_machine_status(dev, 2, &ms) == WS_OK);
    CHECK_EQ_U(ms.fired, 0);
    CHECK(ws_events_machine_status(dev, 1, &ms) == WS_OK);
    CHECK_EQ_U(ms.fired, 1); /* blocks 5 to 7 of 6: block 5, once (no rearm) */
    ws_device_close(dev);
}

/* Under the event watcher (WARPSCOPE_WATCH, as `warpscope watch` sets it)
 * the program's events API does not share the watcher's bus: reading
 * without configuring does not hand it the watcher's events, and
 * configuring, programming or disabling is refused instead of replacing
 * the watcher's filters, machines and trace. Each call is refused with
 * WS_ERR_BUSY naming the watcher; the watcher's trace file still holds
 * every dispatch. (Until 2026-11-27 the read returned the watcher's
 * events and a configure left the watcher a trace of the program's.) */
static void check_program_under_watcher(const char *module, const char *trace)
{
    char spec[1200];
    snprintf(spec, sizeof spec, "events=wd,out=\"%s\"", trace);
    remove(trace);
    setenv("WARPSCOPE_WATCH", spec, 1);
    ws_config cfg;
    ws_config_default(&cfg);
    cfg.cores = machine_cores;
    ws_device *dev;
    ws_status opened = ws_device_open(&cfg, &dev);
    unsetenv("WARPSCOPE_WATCH");
    CHECK(opened == WS_OK);
    if (opened != WS_OK) return;
    uint8_t *bytes = (uint8_t *)"";
    size_t size = 1;
    CHECK_EQ_U(ws_events_read(dev, &bytes, &size, NULL, NULL), WS_ERR_BUSY);
    CHECK(bytes == NULL && size == 0);
    CHECK_STR_CONTAINS(ws_last_error(dev), "ws_events_read: the device's event bus is held by the event watcher");
    ws_event_config only_dbg = { .capacity = 64 };
    only_dbg.mask[WS_EV_DBG] = 0xFFFF;
    CHECK_EQ_U(ws_events_configure(dev, &only_dbg), WS_ERR_BUSY);
    CHECK_STR_CONTAINS(ws_last_error(dev), "ws_events_configure: the device's event bus is held by the event watcher");
    ws_machine_program p = { .enabled = 1, .nwatch = 1, .nactions = 1 };
    p.watch[0] = on(WS_EV_WD, WS_EV_WD_DISPATCH, WS_MATCH_EQ, 0, 1);
    p.actions[0].kind = WS_ACT_STOP;
    CHECK_EQ_U(ws_events_machine(dev, 0, &p), WS_ERR_BUSY);
    CHECK_EQ_U(ws_events_trace_enable(dev, 0), WS_ERR_BUSY);
    ws_machine_status ms;
    CHECK_EQ_U(ws_events_machine_status(dev, 0, &ms), WS_ERR_BUSY);
    CHECK_EQ_U(ws_events_set_callback(dev, NULL, NULL), WS_ERR_BUSY);
    CHECK_EQ_U(ws_events_resume(dev), WS_ERR_BUSY);
    CHECK_EQ_U(ws_events_read_snapshot(dev, &bytes, &size), WS_ERR_BUSY);
    CHECK_EQ_U(ws_events_disable(dev), WS_ERR_BUSY);
    /* the program's work runs as without its refused calls (no stop) ... */
    ws_module *m = NULL;
    ws_kernel *k = NULL;
    ws_addr out = 0, counter = 0;
    CHECK(ws_module_load_file(dev, module, &m) == WS_OK && ws_kernel_get(m, "staged", &k) == WS_OK);
    CHECK(ws_malloc(dev, BLOCKS * THREADS * 4, &out) == WS_OK && ws_malloc(dev, 4, &counter) == WS_OK);
    CHECK(ws_memset(dev, counter, 0, 4) == WS_OK);
    CHECK_EQ_U(launch_staged(dev, k, out, counter), WS_OK);
    ws_device_close(dev);
    /* ... and the watcher's trace has every block's dispatch */
    run r = { 0 };
    char err[256] = "";
    r.bytes = ws_test_read_file(trace, &r.size);
    CHECK(r.bytes && ws_events_decode(r.bytes, r.size, &r.ev, &r.n, err, sizeof err) == WS_OK);
    CHECK_EQ_U(count(&r, WS_EV_WD, WS_EV_WD_DISPATCH), BLOCKS);
    free(r.ev);
    free(r.bytes);
    remove(trace);
}

/* One step on event src.id (data = value when match is EQ), `repeat`
 * times, then `kind` (and re-arm when asked). */
static ws_machine_program one_step(unsigned src, unsigned id, ws_match match, uint32_t value, uint32_t repeat,
                                   ws_action_kind kind, int rearm)
{
    ws_machine_program p = { .enabled = 1, .nwatch = 1, .nactions = rearm ? 2 : 1 };
    p.watch[0] = on(src, id, match, value, repeat);
    p.actions[0].kind = kind;
    p.actions[1].kind = WS_ACT_REARM;
    return p;
}

/* Events of src.id in the program's trace so far. */
static uint64_t traced(ws_device *dev, unsigned src, unsigned id)
{
    run r = { 0 };
    char err[256];
    uint64_t n = UINT64_MAX;
    if (ws_events_read(dev, &r.bytes, &r.size, NULL, NULL) == WS_OK &&
        ws_events_decode(r.bytes, r.size, &r.ev, &r.n, err, sizeof err) == WS_OK)
        n = count(&r, src, id);
    free(r.ev);
    free(r.bytes);
    return n;
}

/* The debugger's machines and the program's share the bus without taking
 * each other's (docs/events.md, "Who holds the bus"): the program's
 * configure and disable keep the debugger's machines; its read says "not
 * configured" when only the debugger loaded machines; its trace has only
 * what it asked for; it cannot replace or read a debugger's machine
 * (WS_ERR_BUSY naming the debugger); the debugger's EVCTL clear and its
 * loads leave the program's machines alone, also one that is done; a
 * debugger's machine may not act on the program's trace or callback.
 * (Until 2026-11-28 each of these dropped or replaced the other side's
 * machines, or read them, without a word.) */
static void check_debugger_machines(const char *module)
{
    ws_device *dev;
    ws_kernel *k;
    ws_addr out, counter;
    ws_debug *d;
    machine_cores = 4;
    CHECK(open_machine_dev(module, &dev, &k, &out, &counter) == WS_OK);
    CHECK(ws_events_disable(dev) == WS_OK);
    CHECK(ws_debug_attach(dev, &(ws_debug_config){ 0 }, &d) == WS_OK);
    CHECK(ws_dmi_write(d, 0, WS_DM_DMCONTROL, 1) == WS_OK); /* dmactive */
    /* block 2's second dispatch (the second launch) stops it */
    ws_machine_program p = one_step(WS_EV_WD, WS_EV_WD_DISPATCH, WS_MATCH_EQ, 2, 2, WS_ACT_STOP, 0);
    CHECK_EQ_U(debugger_load(d, &p), 1u << 8);
    CHECK_EQ_U(launch_staged(dev, k, out, counter), WS_OK);
    uint8_t *bytes = NULL;
    size_t size = 0;
    CHECK_EQ_U(ws_events_read(dev, &bytes, &size, NULL, NULL), WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "ws_events_read: the event trace is not configured");
    free(bytes);
    ws_machine_program mine = one_step(WS_EV_CP, WS_EV_CP_START, WS_MATCH_ANY, 0, 1, WS_ACT_COUNT, 1);
    CHECK_EQ_U(ws_events_machine(dev, 1, &mine), WS_ERR_INVALID_ARG); /* not configured: not the debugger's bus */
    ws_event_config ec = { .capacity = 1 << 16 };
    ec.mask[WS_EV_CP] = 0xFFFF;
    CHECK(ws_events_configure(dev, &ec) == WS_OK);
    CHECK_EQ_U(launch_staged(dev, k, out, counter), WS_ERR_STOPPED); /* the debugger's machine is still there */
    CHECK_STR_CONTAINS(ws_last_error(dev), "debug machine 0 fired on wd.dispatch");
    CHECK_EQ_U(traced(dev, WS_EV_WD, WS_EV_WD_DISPATCH), 0); /* its events are not the program's */
    CHECK(traced(dev, WS_EV_CP, WS_EV_CP_START) != 0 && traced(dev, WS_EV_CP, WS_EV_CP_START) != UINT64_MAX);

    /* the debugger's machine 0 is done; its next load takes it again */
    p = one_step(WS_EV_SCHED, WS_EV_SCHED_WARP_START, WS_MATCH_ANY, 0, 1, WS_ACT_COUNT, 1);
    CHECK_EQ_U(debugger_load(d, &p), 1u << 8);
    CHECK(ws_events_configure(dev, &ec) == WS_OK);
    CHECK_EQ_U(ws_events_machine(dev, 1, &mine), WS_OK);
    CHECK_EQ_U(launch_staged(dev, k, out, counter), WS_OK);
    CHECK_EQ_U(ws_events_machine(dev, 0, &mine), WS_ERR_BUSY);
    CHECK_STR_CONTAINS(ws_last_error(dev), "ws_events_machine: machine 0 is held by the debugger");
    ws_machine_status ms = { 0 }, before;
    CHECK_EQ_U(ws_events_machine_status(dev, 0, &ms), WS_ERR_BUSY);
    CHECK_STR_CONTAINS(ws_last_error(dev), "ws_events_machine_status: machine 0 is held by the debugger");
    CHECK_EQ_U(traced(dev, WS_EV_SCHED, WS_EV_SCHED_WARP_START), 0);
    CHECK(ws_events_machine_status(dev, 1, &before) == WS_OK);
    CHECK(before.counter > 0);
    /* the debugger clears its machines, not the program's */
    ws_dmi_write(d, 0, WS_DM_EVCTL, 2);
    CHECK_EQ_U(launch_staged(dev, k, out, counter), WS_OK);
    CHECK(ws_events_machine_status(dev, 1, &ms) == WS_OK);
    CHECK_EQ_U(ms.counter, 2 * before.counter);
    CHECK_EQ_U(ws_events_machine(dev, 0, &mine), WS_OK); /* machine 0 is free now */

    /* a program's machine that is done stays the program's: the debugger's
     * next load takes machine 2, the first free one */
    ws_machine_program once = one_step(WS_EV_WD, WS_EV_WD_DISPATCH, WS_MATCH_EQ, 0, 1, WS_ACT_COUNT, 0);
    CHECK_EQ_U(ws_events_machine(dev, 1, &once), WS_OK);
    CHECK_EQ_U(launch_staged(dev, k, out, counter), WS_OK);
    p = one_step(WS_EV_WD, WS_EV_WD_DISPATCH, WS_MATCH_EQ, 3, 2, WS_ACT_STOP, 0); /* the second launch from here */
    CHECK_EQ_U(debugger_load(d, &p), 1u << 8);
    CHECK_EQ_U(launch_staged(dev, k, out, counter), WS_OK);
    CHECK(ws_events_machine_status(dev, 1, &ms) == WS_OK);
    CHECK(ms.fired == 1 && ms.done && ms.counter == 1);
    CHECK(ws_events_disable(dev) == WS_OK); /* the program's go; the debugger's stays */
    CHECK_EQ_U(launch_staged(dev, k, out, counter), WS_ERR_STOPPED);
    CHECK_STR_CONTAINS(ws_last_error(dev), "debug machine 2 fired on wd.dispatch");

    /* a program's enable=N does not arm a debugger's machine N (done after
     * the launch above, it fires on block 3's second dispatch): the next
     * two launches are not stopped again */
    CHECK(ws_events_configure(dev, &ec) == WS_OK);
    ws_machine_program arm = one_step(WS_EV_WD, WS_EV_WD_DISPATCH, WS_MATCH_EQ, 0, 1, WS_ACT_ENABLE, 1);
    arm.actions[0].arg = 2;
    CHECK_EQ_U(ws_events_machine(dev, 0, &arm), WS_OK);
    CHECK_EQ_U(launch_staged(dev, k, out, counter), WS_OK);
    CHECK_EQ_U(launch_staged(dev, k, out, counter), WS_OK);

    /* the trace and callback actions are the program's: EVCTL refuses them */
    static const ws_action_kind programs[] = { WS_ACT_TRACE_START, WS_ACT_TRACE_STOP, WS_ACT_TRACE_SNAPSHOT,
                                               WS_ACT_CALLBACK };
    for (unsigned i = 0; i < sizeof programs / sizeof *programs; i++) {
        p = one_step(WS_EV_WD, WS_EV_WD_DISPATCH, WS_MATCH_ANY, 0, 1, programs[i], 0);
        CHECK_EQ_U(debugger_load(d, &p), 1u);
    }
    ws_debug_detach(d);
    ws_device_close(dev);
}

/* The debugger releases its own command processor halt and keeps its
 * machine armed (EVCTL 8, gdb's 'monitor watch resume'): the re-armed
 * machine halts the command processor again after the next launch. (Until
 * 2026-11-28 only the clear, EVCTL 2, released it, and unloaded the
 * machine with it.) */
static void check_debugger_resume(const char *module)
{
    ws_device *dev;
    ws_kernel *k;
    ws_addr out, counter;
    ws_debug *d;
    ws_arg args[2];
    int c = 0;
    machine_cores = 4;
    CHECK(open_debugged_dev(module, &dev, &k, &out, &counter, &d) == WS_OK);
    ws_machine_program p = one_step(WS_EV_CP, WS_EV_CP_DONE, WS_MATCH_EQ, 3 /* a launch */, 1, WS_ACT_CP_HALT, 1);
    CHECK_EQ_U(debugger_load(d, &p) & 0xFFFFu, 1u << 8);
    CHECK(ws_memset(dev, counter, 0, 4) == WS_OK);
    args[0] = (ws_arg)WS_ARG_PTR(out);
    args[1] = (ws_arg)WS_ARG_PTR(counter);
    for (int i = 0; i < 3; i++)
        CHECK(ws_launch(dev, k, (ws_dim3){ BLOCKS, 1, 1 }, (ws_dim3){ THREADS, 1, 1 }, 0, args, 2) == WS_OK);
    CHECK_EQ_U(ws_synchronize(dev), WS_ERR_STOPPED); /* held after the first launch */
    CHECK_STR_CONTAINS(ws_last_error(dev), "with 2 commands queued");
    CHECK(ws_dmi_write(d, 0, WS_DM_EVCTL, 8) == WS_OK);
    CHECK_EQ_U(ws_synchronize(dev), WS_ERR_STOPPED); /* the machine, still armed, held it after the second */
    CHECK_STR_CONTAINS(ws_last_error(dev), "with 1 command queued");
    CHECK(ws_dmi_write(d, 0, WS_DM_EVCTL, 8) == WS_OK);
    CHECK_EQ_U(ws_synchronize(dev), WS_OK); /* (nothing queued: nothing to hold) */
    /* the third launch's halt holds the program's copy, queue empty or not */
    c = -1;
    CHECK_EQ_U(ws_memcpy_dtoh(dev, &c, counter, 4), WS_ERR_STOPPED);
    CHECK_STR_CONTAINS(ws_last_error(dev), "ws_memcpy_dtoh: the command processor was halted by the debugger's debug "
                       "machine 0 ('cp.done data=3 do cp.halt; rearm') with 0 commands queued; the debugger's "
                       "'monitor watch resume'");
    CHECK_EQ_U(c, -1);
    CHECK(ws_dmi_write(d, 0, WS_DM_EVCTL, 8) == WS_OK); /* released: the program's copy goes on */
    CHECK(ws_memcpy_dtoh(dev, &c, counter, 4) == WS_OK);
    CHECK_EQ_U(c, 3 * BLOCKS * THREADS / 32);
    ws_debug_detach(d);
    ws_device_close(dev);
}

/* A command processor halted with nothing queued holds the program's
 * synchronous ws_memcpy_dtoh too, which reads at once rather than
 * through the queue; a step lets it through without using the step.
 * (Until 2026-11-28 it drained the empty queue and copied: a user who
 * halted the command processor to look at memory saw the copies go on.) */
static void check_cp_halt_holds_copy(const char *module)
{
    ws_device *dev;
    ws_kernel *k;
    ws_addr out, counter;
    ws_arg args[2];
    int c = -1;
    machine_cores = 4;
    CHECK(open_machine_dev(module, &dev, &k, &out, &counter) == WS_OK);
    ws_machine_program p = one_step(WS_EV_CP, WS_EV_CP_DONE, WS_MATCH_EQ, 3 /* a launch */, 1, WS_ACT_CP_HALT, 0);
    CHECK(ws_events_machine(dev, 0, &p) == WS_OK);
    CHECK(ws_memset(dev, counter, 0, 4) == WS_OK);
    args[0] = (ws_arg)WS_ARG_PTR(out);
    args[1] = (ws_arg)WS_ARG_PTR(counter);
    CHECK(ws_launch(dev, k, (ws_dim3){ BLOCKS, 1, 1 }, (ws_dim3){ THREADS, 1, 1 }, 0, args, 2) == WS_OK);
    CHECK_EQ_U(ws_synchronize(dev), WS_OK);
    CHECK_EQ_U(ws_memcpy_dtoh(dev, &c, counter, 4), WS_ERR_STOPPED);
    CHECK_STR_CONTAINS(ws_last_error(dev), "ws_memcpy_dtoh: the command processor was halted by debug machine 0 ('cp.done data=3 do cp.halt') with "
                       "0 commands queued; ws_events_resume lets it go on");
    CHECK_EQ_U(c, -1);
    CHECK_EQ_U(ws_memcpy_htod(dev, counter, &c, 4), WS_OK); /* queued, and held */
    CHECK_EQ_U(ws_synchronize(dev), WS_ERR_STOPPED);
    CHECK_EQ_U(ws_events_resume(dev), WS_OK);
    CHECK_EQ_U(ws_synchronize(dev), WS_OK);
    CHECK_EQ_U(ws_memcpy_dtoh(dev, &c, counter, 4), WS_OK);
    CHECK_EQ_U(c, -1); /* the htod ran, once released */
    ws_device_close(dev);
}

/* A halt names the machine that caused it by its program too: the
 * debugger's next load may take the same machine once the first is done,
 * and "debug machine 0" alone then named the wrong one. (Until 2026-11-28
 * the messages gave the machine's number only.) */
static void check_halt_names_machine(const char *module)
{
    ws_device *dev;
    ws_kernel *k;
    ws_addr out, counter;
    ws_debug *d;
    uint32_t ctl = 0;
    machine_cores = 4;
    CHECK(open_debugged_dev(module, &dev, &k, &out, &counter, &d) == WS_OK);
    ws_machine_program a = one_step(WS_EV_CP, WS_EV_CP_DONE, WS_MATCH_EQ, 3 /* a launch */, 1, WS_ACT_CP_HALT, 0);
    CHECK_EQ_U(debugger_load(d, &a) & 0xFFFFu, 1u << 8);
    ws_arg args[2] = { WS_ARG_PTR(out), WS_ARG_PTR(counter) };
    for (int i = 0; i < 2; i++)
        CHECK(ws_launch(dev, k, (ws_dim3){ BLOCKS, 1, 1 }, (ws_dim3){ THREADS, 1, 1 }, 0, args, 2) == WS_OK);
    const char *by_a = "halted by the debugger's debug machine 0 ('cp.done data=3 do cp.halt') with 1 command queued";
    CHECK_EQ_U(ws_synchronize(dev), WS_ERR_STOPPED);
    CHECK_STR_CONTAINS(ws_last_error(dev), by_a);
    /* the machine is done: the debugger's next program takes its place */
    ws_machine_program b = one_step(WS_EV_SCHED, WS_EV_SCHED_WARP_RETIRE, WS_MATCH_ANY, 0, 2, WS_ACT_COUNT, 1);
    CHECK_EQ_U(debugger_load(d, &b) & 0xFFFFu, 1u << 8);
    CHECK_EQ_U(ws_synchronize(dev), WS_ERR_STOPPED);
    CHECK_STR_CONTAINS(ws_last_error(dev), by_a);
    CHECK(ws_dmi_read(d, 0, WS_DM_EVCTL, &ctl) == WS_OK);
    CHECK_EQ_U(ctl >> 8 & 0xFF, 0); /* (b is in a machine: the one a had) */
    CHECK(ws_dmi_write(d, 0, WS_DM_EVCTL, 8) == WS_OK);
    CHECK_EQ_U(ws_synchronize(dev), WS_OK);
    ws_debug_detach(d);
    ws_device_close(dev);
}

/* A tool that waits on the program's waits (gdb: WS_DBG_EV_CP_HELD is
 * blocking): told the first time, it resumes the program without
 * releasing the halt (the program tells again), then releases it with
 * EVCTL `release` (8 resume, 2 clear) or, with 0, by detaching. */
typedef struct cp_wait_tool {
    ws_debug *d;
    uint32_t release;
    ws_dbg_event_kind kind; /* (0: WS_DBG_EV_CP_HELD) */
    int told;
    char reason[512];
} cp_wait_tool;

static void *cp_wait_tool_run(void *arg)
{
    cp_wait_tool *t = arg;
    ws_dbg_event ev;
    while (t->told < 2 && ws_debug_wait_event(t->d, 5000, &ev) == WS_OK) {
        if (ev.kind != (t->kind ? t->kind : WS_DBG_EV_CP_HELD)) continue;
        if (t->told++ == 0) {
            ws_debug_stop_reason(t->d, t->reason, sizeof t->reason);
            ws_debug_release(t->d);
        } else if (t->release) {
            ws_dmi_write(t->d, 0, WS_DM_EVCTL, t->release);
        } else {
            ws_debug_detach(t->d);
        }
    }
    return NULL;
}

/* A program's wait on a command processor the debugger's machine halted
 * waits for the debugger when the debugger asked for that (gdb does):
 * the debugger hears it (WS_DBG_EV_CP_HELD, the reason names the machine
 * and what lets it go on), may resume the program and hear it again, and
 * its resume, clear or detach lets the wait go on to WS_OK. (Until
 * 2026-11-28 the wait returned WS_ERR_STOPPED, and a program under gdb
 * took its error path while the user only looked.) */
static void check_debugger_wait(const char *module)
{
    static const uint32_t releases[] = { 8, 2, 0 };
    for (unsigned r = 0; r < 3; r++) {
        ws_device *dev;
        ws_kernel *k;
        ws_addr out, counter;
        cp_wait_tool tool = { .release = releases[r] };
        pthread_t th;
        int c = -1;
        machine_cores = 4;
        CHECK(open_machine_dev(module, &dev, &k, &out, &counter) == WS_OK);
        CHECK(ws_debug_attach(dev, &(ws_debug_config){ 0 }, &tool.d) == WS_OK);
        CHECK(ws_dmi_write(tool.d, 0, WS_DM_DMCONTROL, 1) == WS_OK);
        CHECK(ws_debug_set_blocking_events(tool.d, 1u << WS_DBG_EV_CP_HELD) == WS_OK);
        ws_machine_program p = one_step(WS_EV_CP, WS_EV_CP_DONE, WS_MATCH_EQ, 3 /* a launch */, 1, WS_ACT_CP_HALT, 0);
        CHECK_EQ_U(debugger_load(tool.d, &p) & 0xFFFFu, 1u << 8);
        CHECK(ws_memset(dev, counter, 0, 4) == WS_OK);
        ws_arg args[2] = { WS_ARG_PTR(out), WS_ARG_PTR(counter) };
        for (int i = 0; i < 2; i++)
            CHECK(ws_launch(dev, k, (ws_dim3){ BLOCKS, 1, 1 }, (ws_dim3){ THREADS, 1, 1 }, 0, args, 2) == WS_OK);
        CHECK(pthread_create(&th, NULL, cp_wait_tool_run, &tool) == 0);
        CHECK_EQ_U(ws_synchronize(dev), WS_OK); /* held after the first launch, until released */
        pthread_join(th, NULL);
        CHECK_EQ_U(tool.told, 2);
        CHECK_STR_CONTAINS(tool.reason, "the program waits: the command processor was halted by the debugger's debug "
                           "machine 0 ('cp.done data=3 do cp.halt') with 1 command queued; the debugger's 'monitor "
                           "watch resume'");
        CHECK_EQ_U(ws_memcpy_dtoh(dev, &c, counter, 4), WS_OK);
        CHECK_EQ_U(c, 2 * BLOCKS * THREADS / 32);
        char after[512] = ""; /* the program no longer waits: the debugger is not told it does */
        ws_debug_stop_reason(tool.d, after, sizeof after);
        CHECK(!strstr(after, "the program waits"));
        ws_debug_detach(tool.d);
        ws_device_close(dev);
    }
}

/* The same for a launch whose work distributor the debugger's machine
 * halted: once the blocks it placed have finished, the launch waits for
 * the debugger (WS_DBG_EV_WD_HELD) instead of ending with WS_ERR_STOPPED,
 * and goes on to place the rest when released; in both modes. (Until
 * 2026-11-28 it ended: under gdb the program failed and gdb heard no
 * stop at all.) */
static void check_debugger_wd_wait(const char *module, int timing)
{
    ws_device *dev;
    ws_kernel *k;
    ws_addr out, counter;
    cp_wait_tool tool = { .release = 8, .kind = WS_DBG_EV_WD_HELD };
    pthread_t th;
    int c = -1;
    machine_cores = 4;
    machine_timing = timing;
    CHECK(open_machine_dev(module, &dev, &k, &out, &counter) == WS_OK);
    machine_timing = 0;
    CHECK(ws_debug_attach(dev, &(ws_debug_config){ 0 }, &tool.d) == WS_OK);
    CHECK(ws_dmi_write(tool.d, 0, WS_DM_DMCONTROL, 1) == WS_OK);
    CHECK(ws_debug_set_blocking_events(tool.d, 1u << WS_DBG_EV_WD_HELD) == WS_OK);
    ws_machine_program p = one_step(WS_EV_WD, WS_EV_WD_DISPATCH, WS_MATCH_EQ, 2, 1, WS_ACT_WD_HALT, 0);
    CHECK_EQ_U(debugger_load(tool.d, &p) & 0xFFFFu, 1u << 8);
    CHECK(ws_memset(dev, counter, 0, 4) == WS_OK);
    CHECK(pthread_create(&th, NULL, cp_wait_tool_run, &tool) == 0);
    CHECK_EQ_U(launch_staged(dev, k, out, counter), WS_OK); /* every block placed in the end */
    pthread_join(th, NULL);
    CHECK_EQ_U(tool.told, 2);
    CHECK_STR_CONTAINS(tool.reason, "the program waits: launch 1: the work distributor was halted by the debugger's "
                       "debug machine 0 ('wd.dispatch data=2 do wd.halt') with ");
    CHECK_STR_CONTAINS(tool.reason, "blocks not placed; the debugger's 'monitor watch resume'");
    CHECK_EQ_U(ws_memcpy_dtoh(dev, &c, counter, 4), WS_OK);
    CHECK_EQ_U(c, BLOCKS * THREADS / 32);
    ws_debug_detach(tool.d);
    ws_device_close(dev);
}

/* A machine's text longer than a message shows is cut visibly, with its
 * whole length (until 2026-11-28 it ended in "..." at 120 characters,
 * with no word of how much was left out); ws_events_machine_text gives
 * the whole text and its length. */
static void check_long_machine_text(const char *module)
{
    ws_device *dev;
    ws_kernel *k;
    ws_addr out, counter;
    ws_machine_program p;
    int print;
    char err[256], whole[1024], cut[80];
    const char *text = "wd.dispatch data=0..4294967295 then wd.dispatch data=0..4294967295 within=1000000000 then "
                       "wd.dispatch data=0..4294967295 within=1000000000 then wd.dispatch data=0..4294967295 "
                       "within=1000000000 then wd.dispatch data=0..4294967295 within=1000000000 do stop";
    machine_cores = 4;
    CHECK(ws_events_parse_machine(text, &p, &print, err, sizeof err) == WS_OK);
    CHECK_EQ_U(ws_events_machine_text(&p, NULL, 0), strlen(text));
    CHECK_EQ_U(ws_events_machine_text(&p, whole, sizeof whole), strlen(text));
    CHECK(!strcmp(whole, text));
    CHECK_EQ_U(ws_events_machine_text(&p, cut, sizeof cut), strlen(text)); /* (cut to fit, NUL-ended) */
    CHECK_EQ_U(strlen(cut), sizeof cut - 1);
    CHECK(open_machine_dev(module, &dev, &k, &out, &counter) == WS_OK);
    CHECK(ws_events_machine(dev, 0, &p) == WS_OK);
    CHECK_EQ_U(launch_staged(dev, k, out, counter), WS_ERR_STOPPED);
    char tail[64];
    snprintf(tail, sizeof tail, "... (cut: %zu characters in all)')", strlen(text));
    CHECK_STR_CONTAINS(ws_last_error(dev), "(its program: 'wd.dispatch data=0..4294967295 then wd.dispatch");
    CHECK_STR_CONTAINS(ws_last_error(dev), tail);
    ws_device_close(dev);
}

/* A halt of the command processor or work distributor is the side's whose
 * machine caused it (docs/events.md, "Who holds the bus"): the program's
 * ws_events_resume, configure and machines do not release the debugger's
 * (WS_ERR_BUSY naming it), the debugger's machines and EVCTL clear do not
 * release the program's. (Until 2026-11-28 either side's resume released
 * the other's halt, and a configure dropped the debugger's.) */
static void check_halt_holders(const char *module)
{
    ws_device *dev;
    ws_kernel *k;
    ws_addr out, counter;
    ws_debug *d;
    ws_arg args[2];
    int c = 0;
    machine_cores = 4;
    /* the debugger's cp.halt: the program can neither resume nor drop it */
    CHECK(open_debugged_dev(module, &dev, &k, &out, &counter, &d) == WS_OK);
    ws_machine_program p = one_step(WS_EV_CP, WS_EV_CP_DONE, WS_MATCH_EQ, 3 /* a launch */, 1, WS_ACT_CP_HALT, 0);
    CHECK_EQ_U(debugger_load(d, &p), 1u << 8);
    CHECK(ws_memset(dev, counter, 0, 4) == WS_OK);
    args[0] = (ws_arg)WS_ARG_PTR(out);
    args[1] = (ws_arg)WS_ARG_PTR(counter);
    CHECK(ws_launch(dev, k, (ws_dim3){ BLOCKS, 1, 1 }, (ws_dim3){ THREADS, 1, 1 }, 0, args, 2) == WS_OK);
    CHECK(ws_launch(dev, k, (ws_dim3){ BLOCKS, 1, 1 }, (ws_dim3){ THREADS, 1, 1 }, 0, args, 2) == WS_OK);
    CHECK_EQ_U(ws_synchronize(dev), WS_ERR_STOPPED);
    CHECK_STR_CONTAINS(ws_last_error(dev), "halted by the debugger's debug machine 0 ('cp.done data=3 do cp.halt') with 1 command queued; the "
                       "debugger's 'monitor watch resume' (EVCTL 8; its machines stay) or 'monitor watch clear'");
    CHECK_EQ_U(ws_events_resume(dev), WS_ERR_BUSY);
    CHECK_STR_CONTAINS(ws_last_error(dev), "ws_events_resume: the command processor is halted by the debugger's debug machine 0 "
                       "('cp.done data=3 do cp.halt'), "
                       "held by the debugger");
    ws_event_config ec = { .capacity = 1 << 16 };
    CHECK_EQ_U(ws_events_configure(dev, &ec), WS_ERR_STOPPED); /* (it waits for the queue) */
    CHECK_EQ_U(ws_events_disable(dev), WS_OK);
    CHECK_EQ_U(ws_synchronize(dev), WS_ERR_STOPPED);
    CHECK(ws_memcpy_dtoh(dev, &c, counter, 4) == WS_ERR_STOPPED);
    ws_dmi_write(d, 0, WS_DM_EVCTL, 2); /* the debugger releases it: the second launch runs */
    CHECK_EQ_U(ws_synchronize(dev), WS_OK);
    CHECK(ws_memcpy_dtoh(dev, &c, counter, 4) == WS_OK);
    CHECK_EQ_U(c, 2 * BLOCKS * THREADS / 32);
    ws_debug_detach(d);
    ws_device_close(dev);

    /* the program's cp.halt: the debugger's cp.resume and clear leave it */
    CHECK(open_debugged_dev(module, &dev, &k, &out, &counter, &d) == WS_OK);
    CHECK(ws_events_machine(dev, 0, &p) == WS_OK);
    ws_machine_program r = one_step(WS_EV_CP, WS_EV_CP_DONE, WS_MATCH_ANY, 0, 1, WS_ACT_CP_RESUME, 1);
    CHECK_EQ_U(debugger_load(d, &r), 1u << 8);
    CHECK(ws_memset(dev, counter, 0, 4) == WS_OK);
    CHECK(ws_launch(dev, k, (ws_dim3){ BLOCKS, 1, 1 }, (ws_dim3){ THREADS, 1, 1 }, 0, args, 2) == WS_OK);
    CHECK(ws_launch(dev, k, (ws_dim3){ BLOCKS, 1, 1 }, (ws_dim3){ THREADS, 1, 1 }, 0, args, 2) == WS_OK);
    CHECK_EQ_U(ws_synchronize(dev), WS_ERR_STOPPED);
    CHECK_STR_CONTAINS(ws_last_error(dev), "halted by debug machine 0 ('cp.done data=3 do cp.halt') with 1 command queued; ws_events_resume lets");
    ws_dmi_write(d, 0, WS_DM_EVCTL, 2);
    CHECK_EQ_U(ws_synchronize(dev), WS_ERR_STOPPED);
    CHECK_EQ_U(ws_events_resume(dev), WS_OK);
    CHECK_EQ_U(ws_synchronize(dev), WS_OK);
    ws_debug_detach(d);
    ws_device_close(dev);

    /* the program's wd.halt: the debugger's wd.resume and wd.step leave it */
    machine_cores = 1;
    CHECK(open_debugged_dev(module, &dev, &k, &out, &counter, &d) == WS_OK);
    p = one_step(WS_EV_WD, WS_EV_WD_DISPATCH, WS_MATCH_EQ, 1, 1, WS_ACT_WD_HALT, 0);
    CHECK(ws_events_machine(dev, 0, &p) == WS_OK);
    r = one_step(WS_EV_WD, WS_EV_WD_RETIRE, WS_MATCH_ANY, 0, 1, WS_ACT_WD_RESUME, 1);
    CHECK_EQ_U(debugger_load(d, &r), 1u << 8);
    r.actions[0].kind = WS_ACT_WD_STEP;
    CHECK_EQ_U(debugger_load(d, &r), 2u << 8);
    CHECK_EQ_U(launch_staged(dev, k, out, counter), WS_ERR_STOPPED);
    CHECK_STR_CONTAINS(ws_last_error(dev), "work distributor was halted by debug machine 0 ('wd.dispatch data=1 do wd.halt') with 4 of 6 blocks");
    ws_debug_detach(d);
    ws_device_close(dev);
    machine_cores = 4;
}

/* The program's ws_events_configure leaves the bus clock to the debugger's
 * machines: a `within` window of theirs still times from when their
 * previous step completed. (Until 2026-11-28 the configure restarted the
 * clock at 0 and the window timed from the configure: the debugger's
 * machine below fired on the next launch's first dispatch.) */
static void check_configure_keeps_debugger_clock(const char *module)
{
    ws_device *dev;
    ws_kernel *k;
    ws_addr out, counter;
    ws_debug *d;
    CHECK(open_debugged_dev(module, &dev, &k, &out, &counter, &d) == WS_OK);
    /* the last block placed, then the next launch's first within 2: never,
     * the last block runs longer than that after it is placed. The
     * machine waits on its second step across the configure. */
    ws_machine_program p = one_step(WS_EV_WD, WS_EV_WD_DISPATCH, WS_MATCH_EQ, BLOCKS - 1, 1, WS_ACT_STOP, 0);
    p.nwatch = 2;
    p.watch[1] = on(WS_EV_WD, WS_EV_WD_DISPATCH, WS_MATCH_EQ, 0, 1);
    p.watch[1].window = 2;
    CHECK_EQ_U(debugger_load(d, &p), 1u << 8);
    CHECK_EQ_U(launch_staged(dev, k, out, counter), WS_OK);
    ws_event_config ec = { .capacity = 1 << 16 };
    CHECK(ws_events_configure(dev, &ec) == WS_OK);
    CHECK_EQ_U(launch_staged(dev, k, out, counter), WS_OK);
    CHECK_EQ_U(launch_staged(dev, k, out, counter), WS_OK);
    ws_debug_detach(d);
    ws_device_close(dev);
}

/* decode(encode(x)) == x on trace files: the decoded events encode back
 * to the same bits. */
static int roundtrip_files(int n, char **files)
{
    for (int i = 0; i < n; i++) {
        size_t size;
        unsigned char *bytes = ws_test_read_file(files[i], &size);
        ws_event *ev;
        size_t count;
        char err[256];
        CHECK(bytes != NULL);
        if (!bytes) continue;
        CHECK(ws_events_decode(bytes, size, &ev, &count, err, sizeof err) == WS_OK);
        ws_ev_writer w = { .buf = calloc(1, size + 1), .cap_bits = (uint64_t)size * 8 };
        for (size_t k = 0; k < count; k++) ws_ev_write(&w, &ev[k]);
        int same = w.events == count && (w.bits + 7) / 8 == size - WS_EV_HEADER &&
                   !memcmp(w.buf, bytes + WS_EV_HEADER, size - WS_EV_HEADER);
        if (!same) fprintf(stderr, "%s: re-encoding differs\n", files[i]);
        CHECK(same);
        free(w.buf);
        free(ev);
        free(bytes);
    }
    return TEST_SUMMARY();
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "--roundtrip")) return roundtrip_files(argc - 2, argv + 2);
    if (argc == 3 && !strcmp(argv[1], "--write-time-back")) return write_time_back(argv[2]);
    if (argc != 2) { fprintf(stderr, "usage: test_events KERNELS.elf | --roundtrip TRACE.wsev...\n"); return 2; }
    run a, b, plain;
    CHECK(do_run(argv[1], WS_MODE_FUNCTIONAL, 1, &a) == 0);
    check_counts(&a);
    CHECK(do_run(argv[1], WS_MODE_FUNCTIONAL, 1, &b) == 0);
    CHECK(a.size == b.size && a.bytes && b.bytes && !memcmp(a.bytes, b.bytes, a.size)); /* deterministic */
    { /* lossless on a real trace: the decoded events encode to the same bits */
        ws_ev_writer w = { .buf = calloc(1, a.size), .cap_bits = (uint64_t)a.size * 8 };
        for (size_t i = 0; i < a.n; i++) ws_ev_write(&w, &a.ev[i]);
        CHECK(w.events == a.n && (w.bits + 7) / 8 == a.size - WS_EV_HEADER &&
              !memcmp(w.buf, a.bytes + WS_EV_HEADER, a.size - WS_EV_HEADER));
        free(w.buf);
    }
    free(b.ev); free(b.bytes);
    /* timing mode: the same events, and the trace does not change the cycles */
    CHECK(do_run(argv[1], WS_MODE_TIMING, 1, &b) == 0);
    check_counts(&b);
    CHECK(do_run(argv[1], WS_MODE_TIMING, 0, &plain) == 0);
    CHECK(b.cycles > 0 && b.cycles == plain.cycles);
    printf("events: %zu in %zu bytes (%.2f bits/event)\n", a.n, a.size, 8.0 * (double)(a.size - WS_EV_HEADER) / (double)a.n);
    free(a.ev); free(a.bytes); free(b.ev); free(b.bytes);
    check_lossless();
    check_dense();
    check_time_back();
    check_machines(argv[1]);
    check_wd_halt(argv[1]);
    check_cp_halt(argv[1]);
    check_lasting_overlap(argv[1], WS_MODE_FUNCTIONAL);
    check_lasting_overlap(argv[1], WS_MODE_TIMING);
    check_enable_order(argv[1]);
    check_timing_launches(argv[1]);
    check_callback_reentry(argv[1]);
    check_machine_arguments(argv[1]);
    check_program_under_watcher(argv[1], "program_under_watcher.wsev");
    check_debugger_machines(argv[1]);
    check_halt_holders(argv[1]);
    check_debugger_resume(argv[1]);
    check_debugger_wait(argv[1]);
    check_long_machine_text(argv[1]);
    check_debugger_wd_wait(argv[1], 0);
    check_debugger_wd_wait(argv[1], 1);
    check_cp_halt_holds_copy(argv[1]);
    check_halt_names_machine(argv[1]);
    check_configure_keeps_debugger_clock(argv[1]);
    check_lasting_silent(argv[1], WS_MODE_FUNCTIONAL);
    check_lasting_silent(argv[1], WS_MODE_TIMING);
    return TEST_SUMMARY();
}
