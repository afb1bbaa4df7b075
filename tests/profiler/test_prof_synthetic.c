/* The profiler's aggregation, stall attribution, report, JSON and trace
 * writers on synthetic trace-cell records (no timing model needed). */
#include <stdlib.h>
#include <string.h>
#include "profile/prof_internal.h"
#include "../test.h"

static ws_trace_record rec(uint64_t cycle, uint32_t pc, uint8_t state, uint32_t producer, uint16_t warp)
{
    ws_trace_record r;
    memset(&r, 0, sizeof r);
    r.cycle = cycle;
    r.launch_id = 1;
    r.pc = pc;
    r.state = state;
    r.producer_pc = producer;
    r.warp = warp;
    r.active_mask = 0xffffffffu;
    return r;
}

static void set_src(prof_pc *p, const char *file, uint32_t line, const char *fn)
{
    p->src.file = strdup(file);
    p->src.line = line;
    p->src.function = strdup(fn);
}

static char *to_string(int (*w)(FILE *, const prof_data *), const prof_data *d)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK(w(f, d) == 0);
    fclose(f);
    return buf;
}

static int json_ok(const char *path)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "python3 -m json.tool '%s' > /dev/null", path);
    return system(cmd) == 0;
}

/* The per-point spread of the states and the standard error of a share
 * with the point as the unit (docs/profiling.md, "Sampled against exact"),
 * on three points of four warps: all throttled, none, half. */
static void test_point_spread(void)
{
    ws_trace_record r[12];
    size_t n = 0;
    for (uint16_t w = 0; w < 4; w++) r[n++] = rec(30, 0x100, w < 2 ? WS_STATE_MIO_THROTTLE : WS_STATE_SELECTED, 0, w);
    for (uint16_t w = 0; w < 4; w++) r[n++] = rec(10, 0x100, WS_STATE_MIO_THROTTLE, 0, w);
    for (uint16_t w = 0; w < 4; w++) r[n++] = rec(20, 0x100, WS_STATE_SELECTED, 0, w);
    prof_spread s;
    CHECK(prof_point_spread(r, n, &s) == 0);
    CHECK_EQ_U(s.points, 3);
    CHECK_EQ_U(s.mm, 48);                               /* 3 x 4² */
    CHECK_EQ_U(s.ym[WS_STATE_MIO_THROTTLE], 24);        /* (4 + 0 + 2) x 4 */
    CHECK_EQ_U(s.yy[WS_STATE_MIO_THROTTLE], 20);        /* 16 + 0 + 4 */
    /* p = 6/12; Σ (y_i - p m_i)² = 4 + 4 + 0; sqrt(3/2 x 8) / 12 = 0.2887,
     * twice the binomial sqrt(0.25 / 12) = 0.1443: the warps move together */
    double se = prof_share_error(&s, WS_STATE_MIO_THROTTLE, 6, 12);
    CHECK(se > 0.28867 && se < 0.28868);
    prof_spread one;
    CHECK(prof_point_spread(r + 4, 4, &one) == 0);    /* a single point: no spread to measure */
    CHECK(prof_share_error(&one, WS_STATE_MIO_THROTTLE, 4, 4) == 0);
    prof_spread_add(&one, &s);
    CHECK_EQ_U(one.points, 4);
    CHECK_EQ_U(one.mm, 64);
}

/* Bank conflicts on three lines in mixed patterns: two with the same
 * figures (one pattern mix, as a loop's loads and stores of one tree
 * level) are one rule entry; the third, another mix, stays apart. */
static void test_mixed_bank_groups(void)
{
    static const struct { uint32_t line; uint64_t req, waves, cycles; } spec[3] = {
        { 10, 4, 19, 1000 }, { 11, 4, 19, 800 }, { 12, 2, 3, 600 },
    };
    prof_pc *p = calloc(3, sizeof *p);
    CHECK(p != NULL);
    if (!p) return;
    for (int i = 0; i < 3; i++) {
        p[i].pc = 0x100 + 4u * (uint32_t)i;
        snprintf(p[i].disasm, sizeof p[i].disasm, "lw a0, 0(a1)");
        set_src(&p[i], "/src/k.c", spec[i].line, "k");
        p[i].exact.warp_instructions = spec[i].req;
        p[i].exact.thread_instructions = 32 * spec[i].req;
        p[i].exact.shared_requests = spec[i].req;
        p[i].exact.shared_wavefronts = spec[i].waves;
        p[i].exact.stall_cycles[WS_STATE_SELECTED] = spec[i].cycles;
    }
    prof_kernel k;
    memset(&k, 0, sizeof k);
    k.kernel = "k";
    k.module = "k.elf";
    k.pcs = p;
    k.npcs = 3;
    prof_rule *r = NULL;
    size_t nr = 0;
    CHECK(prof_rules_build(&k, 32, &r, &nr) == 0);
    CHECK_EQ_U(nr, 2);
    if (nr == 2) {
        CHECK_EQ_U(r[0].nlines, 2);
        CHECK_EQ_U(r[0].lines[0], 10);
        CHECK_EQ_U(r[0].lines[1], 11);
        CHECK_STR_CONTAINS(r[0].text, "k.c:10 and 11: bank conflicts: 4.8 wavefronts per shared request");
        CHECK_EQ_U(r[1].nlines, 1);
        CHECK_STR_CONTAINS(r[1].text, "k.c:12: bank conflicts: 1.5 wavefronts per shared request");
    }
    free(r);
    prof_pcs_free(p, 3);
}

int main(int argc, char **argv)
{
    test_point_spread();
    test_mixed_bank_groups();
    const char *tmp = argc > 1 ? argv[1] : ".";
    /* A load at 0x100 (line 40) feeds an add at 0x108 (line 42) that waits
     * on it; a barrier at 0x110 (line 44). */
    ws_trace_record r[32];
    size_t n = 0;
    for (int i = 0; i < 6; i++) r[n++] = rec(100 + i * 8, 0x108, WS_STATE_LONG_SCOREBOARD, 0x100, (uint16_t)(i % 2));
    r[n++] = rec(200, 0x108, WS_STATE_SELECTED, 0, 0);
    r[n++] = rec(208, 0x108, WS_STATE_LONG_SCOREBOARD, 0x104, 1); /* a rarer producer */
    r[n++] = rec(216, 0x100, WS_STATE_SELECTED, 0, 0);
    r[n++] = rec(224, 0x110, WS_STATE_BARRIER, 0, 0);
    r[n++] = rec(232, 0x110, WS_STATE_BARRIER, 0, 1);
    r[n++] = rec(240, 0x110, 200 /* out of range: counted as misc */, 0, 1);

    prof_pc *p;
    size_t np;
    CHECK(prof_aggregate(r, n, &p, &np) == 0);
    CHECK_EQ_U(np, 3);
    CHECK_EQ_U(p[0].pc, 0x100);
    CHECK_EQ_U(p[0].samples, 1);
    CHECK_EQ_U(p[1].pc, 0x108);
    CHECK_EQ_U(p[1].samples, 8);
    CHECK_EQ_U(p[1].state[WS_STATE_LONG_SCOREBOARD], 7);
    CHECK_EQ_U(p[1].state[WS_STATE_SELECTED], 1);
    CHECK_EQ_U(p[1].producer_pc, 0x100);
    CHECK_EQ_U(p[1].producer_samples, 6);
    CHECK_EQ_U(p[2].state[WS_STATE_BARRIER], 2);
    CHECK_EQ_U(p[2].state[WS_STATE_MISC], 1);
    CHECK_EQ_U(prof_top_stall(p[1].state), WS_STATE_LONG_SCOREBOARD);

    set_src(&p[0], "kern.c", 40, "k");
    set_src(&p[1], "kern.c", 42, "k");
    set_src(&p[2], "kern.c", 44, "k");
    strcpy(p[0].disasm, "lw a5, 0(a4)");
    strcpy(p[1].disasm, "add a0, a0, a5");
    strcpy(p[2].disasm, "bar zero, zero");
    p[1].producer_src.file = strdup("kern.c");
    p[1].producer_src.line = 40;
    strcpy(p[1].producer_disasm, "lw a5, 0(a4)");

    /* Lines: hottest first, with the producer carried along. */
    prof_line *l;
    size_t nl;
    CHECK(prof_lines_build(p, np, &l, &nl) == 0);
    CHECK_EQ_U(nl, 3);
    CHECK_EQ_U(l[0].line, 42);
    CHECK_EQ_U(l[0].samples, 8);
    CHECK(l[0].top_producer_pc == &p[1]);
    CHECK_EQ_U(l[1].line, 44);
    free(l);

    /* Barrier peers: at cycle 500 warps 1-3 of block 0 wait at the bar at
     * 0x110 while warp 0 runs 0x108; block 1 (same cycle, same core) has
     * no waiting warp and core 1's block 0 is another block: neither
     * counts, nor does block 0's warp 6, which has exited. At cycle 508
     * two bars wait on one late warp at 0x100. */
    {
        ws_trace_record b[16];
        size_t nb = 0;
        b[nb++] = rec(500, 0x108, WS_STATE_SELECTED, 0, 0);
        for (uint16_t w = 1; w < 4; w++) b[nb++] = rec(500, 0x110, WS_STATE_BARRIER, 0, w);
        b[nb] = rec(500, 0x100, WS_STATE_WAIT, 0, 4); b[nb++].block = 1;
        b[nb] = rec(500, 0x108, WS_STATE_SELECTED, 0, 5); b[nb++].block = 1;
        b[nb] = rec(500, 0x104, WS_STATE_SELECTED, 0, 0); b[nb++].core = 1;
        b[nb++] = rec(500, WS_RETIRE_ADDR, WS_STATE_DRAIN, 0, 6); /* exited: holds nothing back */
        b[nb++] = rec(508, 0x110, WS_STATE_BARRIER, 0, 1);
        b[nb++] = rec(508, 0x118, WS_STATE_BARRIER, 0, 2);
        b[nb++] = rec(508, 0x100, WS_STATE_LONG_SCOREBOARD, 0x100, 0);
        b[nb++] = rec(516, 0x108, WS_STATE_SELECTED, 0, 0); /* nobody waits */
        prof_peer *q;
        size_t nq;
        CHECK(prof_barrier_peers(b, nb, &q, &nq) == 0);
        CHECK_EQ_U(nq, 3);
        CHECK(q[0].barrier_pc == 0x110 && q[0].pc == 0x100 && q[0].samples == 1);
        CHECK(q[1].barrier_pc == 0x110 && q[1].pc == 0x108 && q[1].samples == 1);
        CHECK(q[2].barrier_pc == 0x118 && q[2].pc == 0x100 && q[2].samples == 1);
        /* a second launch adds up */
        prof_peer *acc = NULL;
        size_t nacc = 0;
        CHECK(prof_peers_merge(&acc, &nacc, q, nq) == 0);
        CHECK(prof_peers_merge(&acc, &nacc, q, nq) == 0);
        CHECK_EQ_U(nacc, 3);
        CHECK_EQ_U(acc[1].samples, 2);
        free(acc);
        free(q);
        /* one warp per sample (round-robin): nothing to pair */
        CHECK(prof_barrier_peers(b, 1, &q, &nq) == 0);
        CHECK_EQ_U(nq, 0);
        free(q);
    }

    /* Two launches of one kernel merge into one kernel entry. */
    prof_options opt;
    char err[256];
    CHECK(prof_options_parse("period=3,passes=2,mode=rr", &opt, err, sizeof err) == 0);
    ws_config cfg;
    ws_config_default(&cfg);
    prof_launch L[2];
    memset(L, 0, sizeof L);
    for (int i = 0; i < 2; i++) {
        L[i].id = (uint64_t)i + 1;
        L[i].kernel = strdup("dep_load");
        L[i].module = strdup("/nonexistent/kern.elf");
        L[i].grid = WS_DIM3(1, 1, 1);
        L[i].block = WS_DIM3(64, 1, 1);
        L[i].passes = 2;
        L[i].cycles = 300;
        L[i].samples = n;
        L[i].records = r;
        L[i].nrecords = n;
        L[i].counters.valid = i == 0;
        L[i].counters.cycles = 300;
        L[i].counters.bank_conflicts = 12;
    }
    L[0].pcs = p;
    L[0].npcs = np;
    CHECK(prof_merge(&L[1].pcs, &L[1].npcs, p, np) == 0);
    CHECK_EQ_U(L[1].npcs, 3);
    prof_data d = { &opt, &cfg, L, 2, 0 };
    prof_kernel *k;
    size_t nk;
    CHECK(prof_kernels_build(&d, &k, &nk) == 0);
    CHECK_EQ_U(nk, 1);
    CHECK_EQ_U(k[0].launches, 2);
    CHECK_EQ_U(k[0].samples, 2 * n);
    CHECK_EQ_U(k[0].pcs[1].samples, 16);
    CHECK_EQ_U(k[0].state[WS_STATE_BARRIER], 4);
    prof_kernels_free(k, nk);

    /* The report names the stall, its line and the load it waits on. */
    char *text = to_string(prof_report_write, &d);
    CHECK_STR_CONTAINS(text, "dep_load");
    CHECK_STR_CONTAINS(text, "kern.c:42 (k)");
    CHECK_STR_CONTAINS(text, "line 42: 87.5% long_scoreboard, waiting on the load at line 40 (lw a5, 0(a4))");
    CHECK_STR_CONTAINS(text, "line 44: 66.7% barrier");
    CHECK_STR_CONTAINS(text, "shared bank conflicts 12");
    CHECK_STR_CONTAINS(text, "one warp per sample (round-robin)");
    char *again = to_string(prof_report_write, &d);
    CHECK(!strcmp(text, again)); /* deterministic */
    free(again);
    free(text);

    /* JSON and trace: valid documents holding the numbers. */
    char path[400];
    snprintf(path, sizeof path, "%s/synthetic_profile.json", tmp);
    FILE *f = fopen(path, "w");
    fputs("{\"devices\": [\n", f);
    CHECK(prof_json_write(f, &d) == 0);
    fputs("\n]}\n", f);
    fclose(f);
    CHECK(json_ok(path));
    size_t len;
    char *js = (char *)ws_test_read_file(path, &len);
    CHECK(js != NULL);
    js = realloc(js, len + 1);
    js[len] = 0;
    CHECK_STR_CONTAINS(js, "\"stall\": \"long_scoreboard\"");
    CHECK_STR_CONTAINS(js, "\"waiting_on\": {\"pc\": 256, \"samples\": 12, \"instruction\": \"lw a5, 0(a4)\"");
    CHECK_STR_CONTAINS(js, "\"bank_conflicts\": 12");
    CHECK_STR_CONTAINS(js, "\"counters\": null");
    free(js);
    snprintf(path, sizeof path, "%s/synthetic_trace.json", tmp);
    f = fopen(path, "w");
    fputs("{\"traceEvents\": [", f);
    CHECK(prof_perfetto_write(f, &d, 0) == 0);
    fputs("\n]}\n", f);
    fclose(f);
    CHECK(json_ok(path));
    js = (char *)ws_test_read_file(path, &len);
    js = realloc(js, len + 1);
    js[len] = 0;
    CHECK_STR_CONTAINS(js, "\"name\": \"long_scoreboard\"");
    CHECK_STR_CONTAINS(js, "\"name\": \"warp 1\"");
    free(js);

    /* Source text: the line itself, leading blanks trimmed; -1 past the end. */
    char srcline[128];
    CHECK(prof_source_line(__FILE__, __LINE__, srcline, sizeof srcline) == 0); /* SOURCE_MARK */
    CHECK_STR_CONTAINS(srcline, "SOURCE_MARK");
    CHECK(srcline[0] == 'C');
    CHECK(prof_source_line(__FILE__, 1000000, srcline, sizeof srcline) == -1);
    CHECK(prof_source_line("/nonexistent.c", 1, srcline, sizeof srcline) == -1);

    /* Options: errors name the bad item. */
    prof_options o2;
    CHECK(prof_options_parse("period=99", &o2, err, sizeof err) != 0);
    CHECK_STR_CONTAINS(err, "period=99");
    CHECK(prof_options_parse("passes=0", &o2, err, sizeof err) != 0);
    CHECK_STR_CONTAINS(err, "passes=0");
    /* more passes than cycles in a period would sample the same cycles again */
    CHECK(prof_options_parse("period=1,passes=4", &o2, err, sizeof err) != 0);
    CHECK_STR_CONTAINS(err, "at most 2 pass(es) at different cycles");
    CHECK(prof_options_parse("period=2,passes=4", &o2, err, sizeof err) == 0);
    prof_options_free(&o2);
    CHECK(prof_options_parse("colour=red", &o2, err, sizeof err) != 0);
    CHECK_STR_CONTAINS(err, "unknown key 'colour'");
    CHECK(prof_options_parse("mode=some", &o2, err, sizeof err) != 0);
    /* a bare word: the message lists every key, source= too */
    CHECK(prof_options_parse("period=3,verbose", &o2, err, sizeof err) != 0);
    CHECK_STR_CONTAINS(err, "'verbose' is not key=value (keys: period, passes, mode, inline, buffer, report, json, "
                            "trace, source, devices)");
    CHECK(prof_options_parse("", &o2, err, sizeof err) == 0);
    CHECK_EQ_U(o2.passes, 1);
    prof_options_free(&o2);

    for (int i = 0; i < 2; i++) {
        free(L[i].kernel);
        free(L[i].module);
        prof_pcs_free(L[i].pcs, L[i].npcs);
    }
    prof_options_free(&opt);
    return TEST_SUMMARY();
}
