/* Rules that explain a kernel's top problems in words, each tied to the
 * exact metric that fired it (as Nsight Compute's rules do). Lines are
 * judged by the instruction counters; the rules fire on lines that carry at
 * least 2 % of the warp-cycles of the kernel's lines (the exit stub's
 * drain aside: docs/profiling.md), and are ordered by those cycles. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "profile/prof_internal.h"

#define MIN_SHARE 0.02     /* of the warp-cycles of the kernel's lines      */
#define SIMT_LOW 0.5       /* at most: a divergence rule (an if/else on odd
                              and even lanes runs each arm at exactly 0.5) */
#define SIMT_LOW_CAS 0.75  /* at most, for a compare-and-swap retry loop: one
                              lane leaves per round while the warp's others
                              wait at the loop (docs/device.md, issue order),
                              so even one warp alone runs it at about half
                              its lanes, and its fixed part raises that */
#define SECTORS_RATIO 2.0  /* sectors per request at least this many times
                              what 32 neighbouring elements take: uncoalesced
                              (a stride of 2 fetches every sector twice over) */
#define WAIT_HIGH 0.5      /* a scoreboard state's share of the line        */
#define BANKS 32u          /* shared-memory banks of one word (timing_memory.c) */
#define BARRIER_HIGH 0.10  /* of its lines' warp-cycles waiting at one barrier */
#define THROTTLE_HIGH 0.5  /* a memory queue's throttle share of the line's waits */
#define BUSY_HIGH 0.6      /* its unit's utilisation (the roofline's 60 %)  */
#define ISSUE_HIGH 0.8     /* the schedulers' issue slots used: issue-bound  */
#define WASTE_HIGH 0.5     /* of the unit's work, the share another rule names */

/* A rule on line l. cause tells apart texts of one rule that blame
 * different things (the LSU or the MIO, a stride); NULL: the rule has one. */
static int add_caused(prof_rule **r, size_t *n, const prof_line *l, const char *id, const char *cause,
                      double metric, uint64_t weight, const char *text)
{
    prof_rule *v = realloc(*r, (*n + 1) * sizeof *v);
    if (!v) return -1;
    *r = v;
    prof_rule *x = &v[(*n)++];
    memset(x, 0, sizeof *x);
    x->id = id;
    x->file = l->file;
    x->line = l->line;
    x->metric = metric;
    x->weight = weight;
    snprintf(x->cause, sizeof x->cause, "%s", cause ? cause : "");
    x->lines[0] = l->line;
    x->line_file[0] = l->file;
    x->line_metric[0] = metric;
    x->line_weight[0] = weight;
    x->nlines = 1;
    int at = snprintf(x->text, sizeof x->text, "%s:%u: ", ws_path_base(l->file), l->line);
    x->body = at > 0 && (size_t)at < sizeof x->text ? (size_t)at : 0;
    snprintf(x->text + x->body, sizeof x->text - x->body, "%s", text);
    return 0;
}

static int add(prof_rule **r, size_t *n, const prof_line *l, const char *id, double metric, uint64_t weight,
               const char *text)
{
    return add_caused(r, n, l, id, NULL, metric, weight, text);
}

/* The cause a degree of conflict points to. With BANKS banks of one word,
 * n lanes at a stride of s words meet n * gcd(s, BANKS) / BANKS at a time in
 * one bank (for n and the degree powers of two): with a warp's 32 lanes a
 * steady d-way conflict is a stride of d times an odd number, with 16
 * lanes (lanes_per_warp=16, or blocks of 16 threads) a stride of 2d times
 * one, and all n lanes in one bank a multiple of BANKS words. A degree that
 * is not a power of two comes from several patterns on the line. */
static int bank_advice(char *t, size_t len, double per, double active)
{
    unsigned d = (unsigned)(per + 0.5), n = (unsigned)(active + 0.5);
    int steady = per - d < 0.01 && d - per < 0.01 && d >= 2 && d <= BANKS && !(d & (d - 1));
    int pow2 = active - n < 1e-9 && n - active < 1e-9 && n >= 2 && n <= BANKS && !(n & (n - 1));
    unsigned g = pow2 && d <= n ? d * BANKS / n : 0; /* gcd(stride, BANKS) */
    if (steady && g == BANKS)
        snprintf(t, len, "lanes hit the same bank with different words (a stride that is a multiple of %u words): "
                 "pad the array by one word per row or change the stride", BANKS);
    else if (steady && g)
        snprintf(t, len, "%u lanes at a time hit one bank with different words, as a stride of %u times an odd "
                 "number of words does (e.g. s[%u * t]): make the stride odd, e.g. pad each row or element by one "
                 "word", d, g, g);
    else if (steady)
        snprintf(t, len, "%u lanes at a time hit one bank with different words: look at the shared access's index "
                 "(an odd stride has no conflicts)", d);
    else
        snprintf(t, len, "lanes hit the same bank with different words, in more than one pattern on this line: "
                 "look at each shared access's index (an odd stride has no conflicts)");
    return steady;
}

/* Whether a line's waits in one state (w of its cyc warp-cycles) are
 * worth a latency rule: most of the line (WAIT_HIGH), and themselves
 * past the bar a line passes to be judged at all, MIN_SHARE of the
 * warp-cycles of the kernel's lines (total): removing them saves at most that much,
 * and a 2 % line half waiting is 1 % of the kernel. */
static int waits_matter(uint64_t w, uint64_t cyc, uint64_t total)
{
    return cyc && (double)w >= WAIT_HIGH * (double)cyc && (double)w >= MIN_SHARE * (double)total;
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) { uint64_t r = a % b; a = b; b = r; }
    return a;
}

/* Whether the load that the line's scoreboard samples mostly wait for went
 * to the lanes' stacks (local memory) in most of its requests, by its
 * instruction counters (the kernel's PCs are sorted by address). */
static const prof_pc *find_pc(const prof_kernel *k, uint32_t pc)
{
    size_t lo = 0, hi = k->npcs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (k->pcs[mid].pc < pc) lo = mid + 1;
        else hi = mid;
    }
    return lo < k->npcs && k->pcs[lo].pc == pc ? &k->pcs[lo] : NULL;
}

static int local_load(const prof_kernel *k, const prof_pc *consumer)
{
    if (!consumer || !consumer->producer_pc) return 0;
    const prof_pc *p = find_pc(k, consumer->producer_pc);
    if (!p) return 0;
    const ws_pc_counter *e = &p->exact;
    return e->gmem_requests && 2 * e->local_requests > e->gmem_requests;
}

/* The lines the code without a line (l) that the late warps of barrier
 * line bl ran is reached from: "reached from lines 30 and 31". */
static void peers_line0_text(const prof_kernel *k, const prof_line *bl, const prof_line *l, char *t, size_t len)
{
    uint32_t *pcs = malloc((k->npeers + 1) * sizeof *pcs);
    size_t n = 0;
    t[0] = 0;
    if (!pcs) return;
    for (size_t i = 0; i < k->npeers; i++) {
        const prof_pc *b = find_pc(k, k->peers[i].barrier_pc), *o = find_pc(k, k->peers[i].pc);
        if (b && o && prof_line_has(bl, b) && prof_line_has(l, o)) pcs[n++] = o->pc;
    }
    uint32_t lines[4];
    int more;
    const size_t nl = prof_line0_origins(k, pcs, n, lines, 4, &more);
    free(pcs);
    prof_line0_format(lines, nl, more, t, len);
}

/* Where the warps that a barrier line's waiting warps wait for were, by
 * the samples (k->peers: other warps of the block at the same sample):
 * "; meanwhile the warps it waits for run line 25 in 93.8% of their
 * samples" (the barrier's own line is not named), or "" when no sample
 * saw them (round-robin mode takes one warp per sample). */
static void barrier_peers_text(const prof_kernel *k, const prof_line *bl, const prof_line *lines, size_t nl,
                               char *t, size_t len)
{
    t[0] = 0;
    uint64_t *per = calloc(nl + 1, sizeof *per), all = 0;
    if (!per) return;
    for (size_t i = 0; i < k->npeers; i++) {
        const prof_peer *q = &k->peers[i];
        const prof_pc *b = find_pc(k, q->barrier_pc), *o = find_pc(k, q->pc);
        if (!b || !prof_line_has(bl, b)) continue;
        all += q->samples;
        size_t j = 0;
        while (o && j < nl && !prof_line_has(&lines[j], o)) j++;
        per[o ? j : nl] += q->samples;
    }
    /* the line the late warps run most, and a second one when it has a
     * fifth of the first's samples or more */
    size_t best[2] = { nl, nl };
    for (size_t j = 0; j < nl; j++) {
        if (&lines[j] == bl || !per[j]) continue;
        if (best[0] == nl || per[j] > per[best[0]]) { best[1] = best[0]; best[0] = j; }
        else if (best[1] == nl || per[j] > per[best[1]]) best[1] = j;
    }
    if (best[1] < nl && per[best[1]] * 5 < per[best[0]]) best[1] = nl;
    size_t n = 0;
    for (int i = 0; i < 2 && all && best[i] < nl && n < len; i++) {
        const prof_line *l = &lines[best[i]];
        char where[160];
        if (!l->file && l->line == WS_RETIRE_ADDR)
            snprintf(where, sizeof where, "the kernel's exit");
        else if (!l->file && l->function)
            snprintf(where, sizeof where, "0x%08x in %.60s", l->line, l->function);
        else if (!l->file)
            snprintf(where, sizeof where, "0x%08x", l->line);
        else if (!l->line) {
            char from[80];
            peers_line0_text(k, bl, l, from, sizeof from);
            snprintf(where, sizeof where, "code without a line of %.60s%s%s%s", l->function ? l->function : "?",
                     from[0] ? " (" : "", from, from[0] ? ")" : "");
        }
        else if (bl->file && !strcmp(bl->file, l->file))
            snprintf(where, sizeof where, "line %u", l->line);
        else
            snprintf(where, sizeof where, "%.80s:%u", ws_path_base(l->file), l->line);
        n += (size_t)snprintf(t + n, len - n, "%s %s in %.1f%%%s", i ? " and" : "; meanwhile the warps it waits for run",
                              where, 100.0 * (double)per[best[i]] / (double)all, i ? "" : " of their samples");
    }
    free(per);
}

/* Whether line l holds a compare-and-swap retry loop: a load-reserved /
 * store-conditional pair or an amocas (a hand-written atomicCAS loop,
 * the device library's 64-bit ones). */
static int cas_loop(const prof_kernel *k, const prof_line *l)
{
    for (size_t j = 0; j < k->npcs; j++) {
        const char *d = k->pcs[j].disasm;
        if ((!strncmp(d, "lr.", 3) || !strncmp(d, "sc.", 3) || !strncmp(d, "amocas", 6)) && prof_line_has(l, &k->pcs[j]))
            return 1;
    }
    return 0;
}

/* The lanes an instruction ran on, on average (0 if it never ran). */
static double lanes_run(const prof_pc *p)
{
    const ws_pc_counter *e = &p->exact;
    return e->warp_instructions ? (double)e->thread_instructions / (double)e->warp_instructions : 0;
}

/* Whether line l's divergence is its own loop's: a backward branch on the
 * line closes a loop that the lanes enter together (the instruction laid
 * out before its head, the loop's entry, runs on at least LOOP_ENTRY
 * times the lanes of the branch) and leave at different iterations: a
 * trip count that depends on the lane. Lanes that a branch around the loop
 * left out are missing at its entry too. */
#define LOOP_ENTRY 1.5
static int lanes_leave_loop(const prof_kernel *k, const prof_line *l)
{
    for (size_t j = 0; j < k->npcs; j++) {
        const prof_pc *p = &k->pcs[j];
        const uint32_t head = prof_branch_target(p->disasm, 0);
        if (!head || head > p->pc || !lanes_run(p) || !prof_line_has(l, p)) continue;
        const prof_pc *entry = NULL; /* (the PCs are sorted by address) */
        for (size_t i = 0; i < k->npcs && k->pcs[i].pc < head; i++)
            if (lanes_run(&k->pcs[i])) entry = &k->pcs[i];
        if (entry && head - entry->pc <= 4 && lanes_run(entry) >= LOOP_ENTRY * lanes_run(p)) return 1;
    }
    return 0;
}

/* Bytes one lane moves with the global access `disasm` (lb 1, lh 2, lw
 * and word atomics 4, fld 8): 32 neighbouring lanes take as many sectors. */
static unsigned access_bytes(const char *disasm)
{
    const char *op = disasm;
    if (!strncmp(op, "c.", 2)) op += 2;
    if (op[0] == 'f') op++; /* flw, fsd: the width is the next letter */
    if ((op[0] == 'l' || op[0] == 's') && strlen(op) > 1) {
        switch (op[1]) {
        case 'b': return 1;
        case 'h': return 2;
        case 'd': return 8;
        default: return 4;
        }
    }
    return 4; /* amo*.w, lr.w, sc.w */
}

/* The 32-byte sectors a warp of `lanes` lanes takes for neighbouring
 * elements of `bytes` each: as many as the bytes with 32 lanes, one at
 * least (lanes_per_warp is a device setting). */
static unsigned warp_sectors(unsigned bytes, uint32_t lanes)
{
    return (bytes * lanes + 31) / 32;
}

/* The sectors per request line l would take if neighbouring lanes touched
 * neighbouring elements: its global requests weighted by their width. */
static double coalesced_sectors(const prof_kernel *k, const prof_line *l, uint32_t lanes)
{
    uint64_t req = 0, ideal = 0;
    for (size_t j = 0; j < k->npcs; j++) {
        const prof_pc *p = &k->pcs[j];
        if (!p->exact.gmem_requests || !prof_line_has(l, p)) continue;
        req += p->exact.gmem_requests;
        ideal += p->exact.gmem_requests * warp_sectors(access_bytes(p->disasm), lanes);
    }
    return req ? (double)ideal / (double)req : warp_sectors(4, lanes);
}

/* "4 when 32 lanes read 32 neighbouring words" for what a line's
 * accesses need per request: all of one width, else a mean. */
static void coalesced_text(const prof_kernel *k, const prof_line *l, uint32_t lanes, double ideal, char *buf,
                           size_t len)
{
    static const char *const names[] = { "bytes", "halfwords", NULL, "words", NULL, NULL, NULL, "doublewords" };
    unsigned width = 0;
    for (size_t j = 0; j < k->npcs; j++) {
        const prof_pc *p = &k->pcs[j];
        if (!p->exact.gmem_requests || !prof_line_has(l, p)) continue;
        const unsigned b = access_bytes(p->disasm);
        width = !width || width == b ? b : UINT32_MAX;
    }
    if (width && width <= 8 && names[width - 1])
        snprintf(buf, len, "%u when %u lanes read %u neighbouring %s", warp_sectors(width, lanes), lanes, lanes,
                 names[width - 1]);
    else snprintf(buf, len, "%.1f when neighbouring lanes touch neighbouring elements", ideal);
}

/* Whether every global access of line l takes twice the sectors its
 * elements need (8 per request for words, 2 for bytes): lanes two
 * elements apart, as when each thread owns elements 2i and 2i + 1. */
static int stride_two(const prof_kernel *k, const prof_line *l, uint32_t lanes)
{
    int any = 0;
    for (size_t j = 0; j < k->npcs; j++) {
        const prof_pc *p = &k->pcs[j];
        if (!p->exact.gmem_requests || !prof_line_has(l, p)) continue;
        if (p->exact.gmem_sectors != 2u * warp_sectors(access_bytes(p->disasm), lanes) * p->exact.gmem_requests)
            return 0;
        any = 1;
    }
    return any;
}

/* The width in bytes of line l's global accesses when every one is
 * narrower than a word and its requests take exactly the sectors of
 * neighbouring words: lanes 4 bytes apart, each using part of a word.
 * That is lane i on element i of an int array whose load the compiler
 * narrowed (`in[i] & 1` loads one byte) as much as every fourth byte of a
 * byte array; either way the index is not at fault. 0 otherwise. */
static unsigned narrow_in_words(const prof_kernel *k, const prof_line *l, uint32_t lanes)
{
    unsigned width = 0;
    for (size_t j = 0; j < k->npcs; j++) {
        const prof_pc *p = &k->pcs[j];
        if (!p->exact.gmem_requests || !prof_line_has(l, p)) continue;
        const unsigned b = access_bytes(p->disasm);
        if (b >= 4 || (width && b != width) ||
            p->exact.gmem_sectors != (uint64_t)warp_sectors(4, lanes) * p->exact.gmem_requests)
            return 0;
        width = b;
    }
    return width;
}

/* A 32-bit global load or store `disasm` ("lw a2, 4(a0)"): its kind ('l'
 * or 's'), offset and base register's name into base; 0 if not one. */
static int word_access(const char *disasm, char *kind, long *off, char *base, size_t len)
{
    const char *d = strncmp(disasm, "c.", 2) ? disasm : disasm + 2;
    if ((d[0] != 'l' && d[0] != 's') || d[1] != 'w' || d[2] != ' ') return 0;
    const char *comma = strrchr(d, ','), *open = strchr(d, '('), *close = strchr(d, ')');
    if (!comma || !open || !close || open < comma || close < open || (size_t)(close - open - 1) >= len) return 0;
    char *end;
    *off = strtol(comma + 1, &end, 0);
    if (end != open) return 0;
    memcpy(base, open + 1, (size_t)(close - open - 1));
    base[close - open - 1] = 0;
    *kind = d[0];
    return 1;
}

/* Does line l move a 64-bit value (a double, a long long) as this device
 * does, two 32-bit words 4 bytes apart from one base register, each half
 * as many requests as the other? Then each half's request spans the
 * sectors of both, as a stride of 2 would. */
static int wide_halves(const prof_kernel *k, const prof_line *l)
{
    struct { char kind, base[16]; long off; uint64_t requests; } w[64];
    size_t n = 0;
    for (size_t i = 0; i < k->npcs && n < sizeof w / sizeof *w; i++) {
        const prof_pc *p = &k->pcs[i];
        if (p->exact.gmem_requests && prof_line_has(l, p) &&
            word_access(p->disasm, &w[n].kind, &w[n].off, w[n].base, sizeof w[n].base))
            w[n++].requests = p->exact.gmem_requests;
    }
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            if (w[j].kind == w[i].kind && w[j].off == w[i].off + 4 && w[j].requests == w[i].requests &&
                !strcmp(w[j].base, w[i].base))
                return 1;
    return 0;
}

/* Does line l fetch at least SECTORS_RATIO times the sectors its elements
 * need? *ideal: what they need per request. */
static int uncoalesced(const prof_kernel *k, const prof_line *l, uint32_t lanes, double *ideal)
{
    const ws_pc_counter *e = &l->exact;
    *ideal = coalesced_sectors(k, l, lanes);
    return e->gmem_requests && (double)e->gmem_sectors >= SECTORS_RATIO * *ideal * (double)e->gmem_requests;
}

/* The share of a memory unit's work over kernel k that an access
 * pattern another rule names caused: for the LSU the sectors of
 * uncoalesced lines, for the MIO the
 * wavefronts beyond one per shared request (bank conflicts, shared atomics
 * taking turns) over its busy cycles (shuffles and CSR reads take it too). */
static double lsu_waste(const prof_kernel *k, const prof_line *lines, size_t nl, uint32_t lanes)
{
    uint64_t all = 0, waste = 0;
    for (size_t i = 0; i < nl; i++) {
        double ideal;
        all += lines[i].exact.gmem_sectors;
        if (uncoalesced(k, &lines[i], lanes, &ideal)) waste += lines[i].exact.gmem_sectors;
    }
    return all ? (double)waste / (double)all : 0;
}

static double mio_waste(const prof_kernel *k)
{
    uint64_t extra = 0, waves = 0;
    for (size_t j = 0; j < k->npcs; j++) {
        extra += k->pcs[j].exact.shared_wavefronts - k->pcs[j].exact.shared_requests;
        waves += k->pcs[j].exact.shared_wavefronts;
    }
    uint64_t busy = k->unit_busy[WS_UNIT_MIO] > waves ? k->unit_busy[WS_UNIT_MIO] : waves;
    return busy ? (double)extra / (double)busy : 0;
}

static double unit_use(const prof_kernel *k, unsigned u)
{
    return k->unit_capacity[u] ? (double)k->unit_busy[u] / (double)k->unit_capacity[u] : 0;
}

/* The share of the schedulers' issue slots the kernel used: one warp-
 * instruction per scheduler and cycle at most, and the integer pipes are
 * one per scheduler (their capacity counts the slots). */
static double issue_use(const prof_kernel *k)
{
    uint64_t issued = 0;
    for (size_t i = 0; i < k->npcs; i++) issued += k->pcs[i].exact.warp_instructions;
    return k->unit_capacity[WS_UNIT_INT] ? (double)issued / (double)k->unit_capacity[WS_UNIT_INT] : 0;
}

/* Whether the lanes of global atomic p must have shared words: more
 * lanes per request than its sectors hold words (32 lanes in 1 sector: 8
 * words at most). Lanes within that many words may each have their own,
 * and nothing counts whether they did. */
static int atomic_shares_words(const prof_pc *p)
{
    if (!p->exact.gmem_requests || strcmp(prof_inst_kind(p->disasm), "atomic")) return 0;
    const double words = (double)p->exact.gmem_sectors * 32.0 / access_bytes(p->disasm) / (double)p->exact.gmem_requests;
    return lanes_run(p) > words + 1e-9;
}

/* Line l's global atomic of most requests whose lanes share words, or
 * NULL: its lanes on one word take turns at the LSU port, one
 * sector_cycles each (docs/timing.md), where its sectors alone take fewer. */
static const prof_pc *turning_atomic(const prof_kernel *k, const prof_line *l)
{
    const prof_pc *best = NULL;
    for (size_t j = 0; j < k->npcs; j++) {
        const prof_pc *p = &k->pcs[j];
        if (prof_line_has(l, p) && atomic_shares_words(p) &&
            (!best || p->exact.gmem_requests > best->exact.gmem_requests))
            best = p;
    }
    return best;
}

/* Bandwidth: most of line l's waits are for room in a memory queue
 * (lg_throttle, mio_throttle) whose unit is busy most of the kernel's
 * cycles, and that unit's work is not mostly uncoalesced sectors or bank
 * conflicts, which the rules above name. Eligible cycles (selected,
 * not_selected) are not waits: when a full queue drains a pass, one of
 * the throttled warps issues and the others are eligible meanwhile. */
static int bandwidth_rule(const prof_kernel *k, const prof_line *l, uint64_t cyc, const double waste[2],
                          prof_rule **out, size_t *nout)
{
    const ws_pc_counter *e = &l->exact;
    const uint64_t lg = e->stall_cycles[WS_STATE_LG_THROTTLE], mio = e->stall_cycles[WS_STATE_MIO_THROTTLE];
    const uint64_t waits = cyc - e->stall_cycles[WS_STATE_SELECTED] - e->stall_cycles[WS_STATE_NOT_SELECTED];
    const int lsu = lg >= mio;
    const unsigned unit = lsu ? WS_UNIT_LSU : WS_UNIT_MIO;
    const double share = waits ? (double)(lsu ? lg : mio) / (double)waits : 0, use = unit_use(k, unit);
    if (share < THROTTLE_HIGH || use < BUSY_HIGH || waste[!lsu] >= WASTE_HIGH) return 0;
    char t[800], per[64] = "";
    if (lsu && e->gmem_requests)
        snprintf(per, sizeof per, " at %.1f sectors per request", (double)e->gmem_sectors / (double)e->gmem_requests);
    else if (!lsu && e->shared_requests)
        snprintf(per, sizeof per, " at %.1f wavefronts per shared request",
                 (double)e->shared_wavefronts / (double)e->shared_requests);
    const prof_pc *at = lsu ? turning_atomic(k, l) : NULL;
    if (at) /* the port's cycles are the atomic's turns, not its bytes */
        snprintf(t, sizeof t, "bandwidth: in kernel %.80s, %.1f%% of the line's waits are for room in the LSU queue "
                 "(lg_throttle), whose port is busy %.1f%% of the cycles: the line's atomic (%.40s) puts %.1f lanes "
                 "per request on the words of %.1f sector%s, and lanes on one word take turns at the port, up to %u "
                 "cycles a request where its sectors alone take %.1f: contention, not bytes; combine within the "
                 "warp first (shuffles, then one atomic per warp and address) or spread the updates over several "
                 "addresses", k->kernel, 100.0 * share, 100.0 * use, at->disasm, lanes_run(at),
                 (double)at->exact.gmem_sectors / (double)at->exact.gmem_requests,
                 at->exact.gmem_sectors == at->exact.gmem_requests ? "" : "s",
                 (unsigned)(lanes_run(at) + 0.5) * k->sector_cycles,
                 (double)at->exact.gmem_sectors * k->sector_cycles / (double)at->exact.gmem_requests);
    else if (lsu)
        snprintf(t, sizeof t, "bandwidth: in kernel %.80s, %.1f%% of the line's waits are for room in the LSU queue "
                 "(lg_throttle), whose port is busy %.1f%% of the cycles%s: the kernel moves as many bytes as the "
                 "port carries, and more requests in flight would only queue; move fewer bytes per result (smaller "
                 "types, values recomputed rather than reloaded, data read once per block into shared memory and "
                 "reused from there); the port is busy per 32-byte sector, not per request, so wider requests help "
                 "only when they need fewer sectors", k->kernel, 100.0 * share, 100.0 * use, per);
    else
        snprintf(t, sizeof t, "bandwidth: in kernel %.80s, %.1f%% of the line's waits are for room in the MIO queue "
                 "(mio_throttle), which is busy %.1f%% of the cycles%s: the warps ask for more shared-memory "
                 "passes than it serves, one a cycle; fewer requests per result help, whatever their width (keep "
                 "reused values in registers, read a value once and share it by shuffle only when that saves "
                 "requests), and shuffles and CSR reads such as thread ids pass through it too",
                 k->kernel, 100.0 * share, 100.0 * use, per);
    return add_caused(out, nout, l, "bandwidth", at ? "atomic turns" : lsu ? "LSU" : "MIO", share, cyc, t);
}

/* Pipe throughput: most of line l's waits are for a free ALU pipe
 * (math_pipe_throttle) while the busiest of the kernel's pipes is busy
 * most of its cycles: the kernel is bound by that pipe's rate (the limits
 * line says "compute-bound by the fp pipes"), and only fewer operations
 * on it per result help. A throttle without a busy pipe comes from
 * bursts of one warp's own dependent-free operations and is left alone. */
static int pipe_rule(const prof_kernel *k, const prof_line *l, uint64_t cyc, prof_rule **out, size_t *nout)
{
    const ws_pc_counter *e = &l->exact;
    const uint64_t thr = e->stall_cycles[WS_STATE_MATH_PIPE_THROTTLE];
    const uint64_t waits = cyc - e->stall_cycles[WS_STATE_SELECTED] - e->stall_cycles[WS_STATE_NOT_SELECTED];
    unsigned unit = WS_UNIT_INT;
    for (unsigned u = WS_UNIT_INT; u <= WS_UNIT_FDIV; u++)
        if (unit_use(k, u) > unit_use(k, unit)) unit = u;
    const double share = waits ? (double)thr / (double)waits : 0, use = unit_use(k, unit);
    if (share < THROTTLE_HIGH || use < BUSY_HIGH) return 0;
    static const char *const what[] = { [WS_UNIT_INT] = "integer operations", [WS_UNIT_MUL] = "multiplies",
                                        [WS_UNIT_DIV] = "divides and remainders",
                                        [WS_UNIT_FP] = "floating-point operations",
                                        [WS_UNIT_FDIV] = "floating-point divides and square roots" };
    static const char *const how[] = {
        [WS_UNIT_INT] = "index arithmetic stepped rather than recomputed, invariants hoisted out of loops",
        [WS_UNIT_MUL] = "strength reduction: a running sum instead of i * stride",
        /* (an integer has no inverse to multiply by: a fixed-point reciprocal and a multiply-high) */
        [WS_UNIT_DIV] = ("by a power of two, a shift or a mask; by a divisor fixed for the loop, a multiply-high "
                         "(mulhu) by its fixed-point reciprocal, computed once, and a shift, as compilers do for "
                         "constant divisors"),
        [WS_UNIT_FP] = ("products computed once and reused, fused multiply-adds, float rather than double, "
                        "invariants hoisted out of loops"),
        [WS_UNIT_FDIV] = "a multiply by a reciprocal computed once",
    };
    char t[800];
    snprintf(t, sizeof t, "pipe throughput: in kernel %.80s, %.1f%% of the line's waits are for a free pipe "
             "(math_pipe_throttle), and the %s pipes are busy %.1f%% of the cycles: the warps issue as many "
             "operations as the pipes accept, so more warps or loads in flight would only queue; fewer %s per "
             "result shorten the waits (%s)", k->kernel, 100.0 * share, prof_unit_name(unit), 100.0 * use,
             what[unit], how[unit]);
    return add_caused(out, nout, l, "pipe", prof_unit_name(unit), share, cyc, t);
}

/* The kernel's achieved occupancy when no more warps could be resident:
 * every warp slot is allowed (theoretical 100 %) and nearly all are filled
 * (OCC_FULL of them); then -1 is returned, else the achieved share. Advice
 * to raise occupancy is only given when there is room. */
#define OCC_FULL 0.9
static int occupancy_full(const prof_kernel *k, double *achieved)
{
    if (!k->occ_cycles) return 0;
    const double theo = k->occ_theoretical / (double)k->occ_cycles;
    *achieved = k->occ_achieved / (double)k->occ_cycles;
    return theo >= 0.999 && *achieved >= OCC_FULL;
}

/* The lanes a shader's launches start, as a share of their warps' lanes:
 * the SIMT efficiency of its entry, the lowest address of its function
 * that ran (the pipeline starts a lane per vertex or fragment, so a draw
 * of 6 vertices runs its whole shader on 6 of 32 lanes, branch or not).
 * 1 when unknown. */
static double shader_fill(const prof_kernel *k, uint32_t lanes)
{
    for (size_t j = 0; j < k->npcs; j++) {
        const prof_pc *p = &k->pcs[j];
        if (p->exact.warp_instructions && p->src.function && !strcmp(p->src.function, k->kernel))
            return (double)p->exact.thread_instructions / ((double)p->exact.warp_instructions * lanes);
    }
    return 1.0;
}

/* Whether the kernel ran a backward branch or jump: a loop. Without one,
 * each thread runs each load once and "unroll" names nothing to unroll. */
static int kernel_loops(const prof_kernel *k)
{
    for (size_t j = 0; j < k->npcs; j++) {
        const prof_pc *p = &k->pcs[j];
        const char *d = strncmp(p->disasm, "c.", 2) ? p->disasm : p->disasm + 2, *last = strrchr(d, ' ');
        const uint32_t to = prof_branch_target(p->disasm, 0) ? prof_branch_target(p->disasm, 0)
                            : !strncmp(d, "j ", 2) && last && !strncmp(last + 1, "0x", 2) ? (uint32_t)strtoul(last + 1, NULL, 16)
                                                                                           : 0;
        if (to && to <= p->pc && p->exact.warp_instructions) return 1;
    }
    return 0;
}

/* Whether a load restores a register saved on the stack: the return
 * address or a callee-saved register, from sp ("lw ra, 12(sp)", "lw s0,
 * 8(sp)", "flw fs0, 4(sp)"): an epilogue's, which no build option removes. */
static int register_restore(const char *d)
{
    if (!strncmp(d, "c.", 2)) d += 2;
    if (!strncmp(d, "lw ", 3)) d += 3;
    else if (!strncmp(d, "flw ", 4)) d += 4;
    else return 0;
    if (!strncmp(d, "ra,", 3)) d += 3;
    else if (d[0] == 's' && d[1] >= '0' && d[1] <= '9') d += d[2] == ',' ? 3 : d[2] >= '0' && d[2] <= '9' && d[3] == ',' ? 4 : 0;
    else if (d[0] == 'f' && d[1] == 's' && d[2] >= '0' && d[2] <= '9') d += d[3] == ',' ? 4 : d[4] == ',' ? 5 : 0;
    else return 0;
    const char *sp = strstr(d, "(sp)");
    return sp && sp[4] == 0;
}

/* The latency rule's text when the LSU port has room: more loads in
 * flight (in a kernel without a loop, by more elements per thread), and
 * more warps only when the warp slots have room. */
static void latency_text(const prof_kernel *k, double share, char *t, size_t len)
{
    double occ = 0;
    if (k->stage && !kernel_loops(k)) {
        /* a shader's lane is one vertex or fragment: it cannot take more */
        const int vertex = !strcmp(k->stage, "vertex");
        if (occupancy_full(k, &occ))
            snprintf(t, len, "memory latency: %.1f%% of its warp-cycles wait for a global load's result "
                     "(long_scoreboard); each lane of a %s shader reads its own record once (a lane per %s), and "
                     "every warp slot is already filled (occupancy %.1f%%): read all of the record's fields before "
                     "using any, so that their loads are in flight together, and keep the records small (fewer "
                     "varyings%s)", 100.0 * share, k->stage, vertex ? "vertex" : "fragment", 100.0 * occ,
                     vertex ? " and vertex attributes" : "");
        else
            snprintf(t, len, "memory latency: %.1f%% of its warp-cycles wait for a global load's result "
                     "(long_scoreboard); each lane of a %s shader reads its own record once (a lane per %s, so it "
                     "cannot take several), and only other warps issue meanwhile: the warp slots have room, so "
                     "%s", 100.0 * share, k->stage, vertex ? "vertex" : "fragment",
                     vertex ? "shade more vertices per draw (batch small draws into one)"
                            : "shade more fragments per draw (fewer, larger draws)");
        return;
    }
    const char *more = kernel_loops(k) ? "put independent loads in flight together (unroll)"
                                       : "each thread loads once, so give each thread several elements and issue "
                                         "their loads together";
    if (occupancy_full(k, &occ))
        snprintf(t, len, "memory latency: %.1f%% of its warp-cycles wait for a global load's result "
                 "(long_scoreboard); every warp slot is already filled (occupancy %.1f%%): %s so that each warp "
                 "waits for several at once", 100.0 * share, 100.0 * occ, more);
    else
        snprintf(t, len, "memory latency: %.1f%% of its warp-cycles wait for a global load's result "
                 "(long_scoreboard); %s or raise occupancy so other warps issue meanwhile", 100.0 * share, more);
}

/* ", on DISASM" for the instruction consumer waits on, with its line
 * when that is not line l's: the wait is charged to the line that uses
 * the result, and the read, load or atomic to change may sit on another
 * (`int old = atomicAdd(...);` then `acc += old;`): ", on amoadd.w a4,
 * a6, (a4) at line 564" (in another file, "at f.c:7"). */
static void producer_on(const prof_line *l, const prof_pc *consumer, char *buf, size_t len)
{
    const prof_src *s = &consumer->producer_src;
    const int same_file = s->file && l->file && !strcmp(s->file, l->file);
    if (s->file && s->line && (s->line != l->line || !same_file))
        snprintf(buf, len, ", on %.40s at %s%.80s%s%u", consumer->producer_disasm, same_file ? "line " : "",
                 same_file ? "" : ws_path_base(s->file), same_file ? "" : ":", s->line);
    else
        snprintf(buf, len, ", on %.40s", consumer->producer_disasm);
}

/* Whether the lanes of the global atomic that consumer waits on must
 * have shared words (atomic_shares_words); unknown: yes. */
static int lanes_share_words(const prof_kernel *k, const prof_pc *consumer)
{
    const prof_pc *p = consumer ? find_pc(k, consumer->producer_pc) : NULL;
    if (!p || !p->exact.gmem_requests || !p->exact.warp_instructions) return 1;
    return atomic_shares_words(p);
}

/* Whether the lanes of an atomic that share words cost the warps time:
 * they take turns at the LSU port (docs/timing.md), one sector_cycles
 * each at most, which a round trip of global_latency cycles dwarfs while
 * the port has room; with the port busy most of the cycles, every turn
 * delays the accesses queued behind it. */
static int turns_matter(const prof_kernel *k)
{
    return unit_use(k, WS_UNIT_LSU) >= BUSY_HIGH;
}

/* What the atomics rule blames (its cause): the atomic's own result or
 * only its register (an unused result), turns that matter or the round
 * trip. */
static const char *atomic_cause(const prof_kernel *k, const prof_pc *consumer)
{
    const int turns = lanes_share_words(k, consumer) && turns_matter(k);
    if (consumer->producer_waw) return turns ? "unused result, turns" : "unused result";
    return turns ? NULL : "round trip";
}

/* The atomics rule's first words: what the warp waits for. An atomic
 * whose old value is unused still writes its destination register, and
 * the next instruction that writes it (the loop's next atomic) waits for
 * it to land (write after write): the warp is held for the round trip. */
static size_t atomic_wait_text(const prof_line *l, const prof_pc *consumer, double share, char *t, size_t len)
{
    int n;
    char on[200];
    producer_on(l, consumer, on, sizeof on);
    if (consumer->producer_waw)
        n = snprintf(t, len, "atomic completion: %.1f%% of its warp-cycles wait for an earlier atomic to complete "
                     "(long_scoreboard%s): its old value is unused, but the next write of its register "
                     "(%.40s) waits for it to land (write after write)", 100.0 * share, on, consumer->disasm);
    else
        n = snprintf(t, len, "atomic latency: %.1f%% of its warp-cycles wait for an atomic's result "
                     "(long_scoreboard%s)", 100.0 * share, on);
    return n > 0 && (size_t)n < len ? (size_t)n : len - 1;
}

/* The atomics rule's text: what the warp waits for, whether its lanes
 * take turns and whether that costs time in the timing model, and what
 * helps. */
static void atomic_text(const prof_kernel *k, const prof_line *l, const prof_pc *consumer, double share, char *t,
                        size_t len)
{
    const prof_pc *p = find_pc(k, consumer->producer_pc);
    const int shared = lanes_share_words(k, consumer), waw = consumer->producer_waw;
    const double lanes = p ? lanes_run(p) : 0;
    /* the most port cycles its lanes' turns take: all of them on one word */
    const unsigned turns = (unsigned)(lanes + 0.5) * k->sector_cycles;
    double occ = 0;
    size_t n = atomic_wait_text(l, consumer, share, t, len);
    if (!waw && n < len && cas_loop(k, l)) {
        /* a retry loop branches on each try's result: it cannot be used
         * later, and a lane that loses the word tries again */
        char lat[48] = "";
        if (k->global_latency) snprintf(lat, sizeof lat, ", %u cycles", k->global_latency);
        snprintf(t + n, len - n, "; the line is an atomic retry loop (lr/sc or compare-and-swap: a lock, or an "
                 "update the device has no atomic for), whose branch needs each try's result, so it cannot be used "
                 "later, and a lane that loses the word tries again, a round trip (global_latency%s) each time: "
                 "let fewer lanes compete for the word (combine within the warp first, then one lane per warp "
                 "tries) or use an atomic that needs no loop (amoadd, amomax, amoswap)", lat);
        return;
    }
    if (shared && turns_matter(k))
        n += (size_t)snprintf(t + n, len - n, "; lanes on one word take turns at the LSU port (up to %u cycles a "
                              "request), which is busy %.1f%% of the cycles: the turns delay the other warps too; "
                              "combine within the warp first (shuffles, one atomic per warp and address) or spread "
                              "the updates over several addresses", turns, 100.0 * unit_use(k, WS_UNIT_LSU));
    else if (shared && p && k->global_latency)
        n += (size_t)snprintf(t + n, len - n, "; lanes on one word take turns at the LSU port, at most %u cycles "
                              "against a %u-cycle round trip (global_latency), and the port is busy only %.1f%% of "
                              "the cycles: the wait is the round trip, not contention", turns, k->global_latency,
                              100.0 * unit_use(k, WS_UNIT_LSU));
    else if (!shared && p)
        n += (size_t)snprintf(t + n, len - n, "; its %.1f lanes per request fit in the words of its %.1f sectors, "
                              "so they need not take turns: the wait is the atomic's round trip to memory, as a "
                              "load's", lanes, (double)p->exact.gmem_sectors / (double)p->exact.gmem_requests);
    if (n >= len) return;
    if (waw && shared && turns_matter(k))
        snprintf(t + n, len - n, "; better still, add up in a register and make one atomic at the end");
    else if (waw)
        snprintf(t + n, len - n, "; make fewer atomics: add up in a register (or per warp by shuffles, per block "
                 "in shared memory) and make one atomic at the end");
    else
        snprintf(t + n, len - n, "; use the old value later (other work or atomics in flight meanwhile)%s",
                 occupancy_full(k, &occ) ? "" : " or raise occupancy so other warps issue meanwhile");
}

/* Whether p is a CSR read (a thread or block id) that each warp ran at
 * most once: its warp-instructions are no more than the launches' warps
 * (k->block_lanes counts their lanes). Reading it again is not the cause
 * of its waits then: it is a fixed cost at the warp's start. */
static int csr_once_per_warp(const prof_kernel *k, const prof_pc *p, uint32_t lanes)
{
    return p && !strncmp(p->disasm, "csrr", 4) && p->exact.warp_instructions &&
           p->exact.warp_instructions * lanes <= k->block_lanes;
}

/* Whether line l's MIO waits are for ids each warp reads once: the
 * producer its samples waited on most is such a CSR read, or, with no
 * sampled producer, the line's own MIO instructions all are (no shared
 * access, shuffle, vote or environment call among them). */
static int ids_once_per_warp(const prof_kernel *k, const prof_line *l, uint32_t lanes)
{
    if (l->top_producer_pc) return csr_once_per_warp(k, find_pc(k, l->top_producer_pc->producer_pc), lanes);
    int csr = 0;
    for (size_t j = 0; j < k->npcs; j++) {
        const prof_pc *p = &k->pcs[j];
        if (!prof_line_has(l, p) || !p->exact.warp_instructions) continue;
        const char *d = p->disasm;
        if (p->exact.shared_requests || !strncmp(d, "shfl", 4) || !strncmp(d, "vote", 4) || !strncmp(d, "ecall", 5))
            return 0;
        if (!strncmp(d, "csrr", 4) && !csr_once_per_warp(k, p, lanes)) return 0;
        csr |= !strncmp(d, "csrr", 4);
    }
    return csr;
}

/* MIO latency: most of line l's warp-cycles wait for the result of an
 * MIO instruction (short_scoreboard): a shared load or atomic, a shuffle,
 * a CSR read (thread and block ids), an environment call, each ready
 * shared_latency cycles after its pass. With the MIO busy most of the
 * kernel's cycles the wait is its queue's, as for a saturated LSU. */
static int mio_latency_rule(const prof_kernel *k, const prof_line *l, uint64_t cyc, uint64_t total, uint32_t lanes,
                            prof_rule **out, size_t *nout)
{
    const uint64_t ssb = l->exact.stall_cycles[WS_STATE_SHORT_SCOREBOARD];
    if (!waits_matter(ssb, cyc, total)) return 0;
    /* waiting on a shared access that took extra wavefronts (the one the
     * samples saw waited on, or the line's own): the bank conflicts or
     * atomics taking turns are the cause, and their rules name its line */
    const prof_pc *p = l->top_producer_pc ? find_pc(k, l->top_producer_pc->producer_pc) : NULL;
    if ((p && p->exact.shared_wavefronts > p->exact.shared_requests) ||
        l->exact.shared_wavefronts > l->exact.shared_requests)
        return 0;
    char t[800], on[200] = "";
    if (l->top_producer_pc) producer_on(l, l->top_producer_pc, on, sizeof on);
    const double share = (double)ssb / (double)cyc, use = unit_use(k, WS_UNIT_MIO);
    double occ = 0;
    const int once = ids_once_per_warp(k, l, lanes);
    /* the id read waited on, run more than once per warp (a loop): where
     * to read it once instead, its own line (the wait is the using line's) */
    char again[160] = "";
    const prof_pc *rd = l->top_producer_pc;
    if (rd && !strncmp(rd->producer_disasm, "csrr", 4) && rd->producer_src.file && rd->producer_src.line) {
        const int same = l->file && !strcmp(l->file, rd->producer_src.file);
        snprintf(again, sizeof again, ": read the one at %s%.80s%s%u once, before its loop", same ? "line " : "",
                 same ? "" : ws_path_base(rd->producer_src.file), same ? "" : ":", rd->producer_src.line);
    }
    if (use < BUSY_HIGH && once)
        snprintf(t, sizeof t, "MIO latency: %.1f%% of its warp-cycles wait for an MIO result (short_scoreboard%s): "
                 "each warp reads its thread and block ids (CSRs) once and waits shared_latency cycles for them, "
                 "a fixed cost per warp that reading them less cannot cut; the more work each thread does after "
                 "it, the smaller its share: give each thread several elements (a grid-stride loop)",
                 100.0 * share, on);
    else if (use >= BUSY_HIGH)
        snprintf(t, sizeof t, "MIO latency: %.1f%% of its warp-cycles wait for an MIO result (short_scoreboard%s), "
                 "while the MIO is busy %.1f%% of the cycles: the requests wait their turn, one pass a cycle, so "
                 "more of them in flight would only queue; fewer shared accesses, shuffles and CSR reads per result "
                 "shorten the waits", 100.0 * share, on, 100.0 * use);
    else if (occupancy_full(k, &occ))
        snprintf(t, sizeof t, "MIO latency: %.1f%% of its warp-cycles wait for an MIO result (short_scoreboard%s): "
                 "shared-memory loads and atomics, shuffles and CSR reads (thread and block ids) return "
                 "shared_latency cycles after their pass; every warp slot is already filled (occupancy %.1f%%): "
                 "put independent ones in flight together or keep values such as thread ids in registers "
                 "instead of reading them again%s", 100.0 * share, on, 100.0 * occ, again);
    else
        snprintf(t, sizeof t, "MIO latency: %.1f%% of its warp-cycles wait for an MIO result (short_scoreboard%s): "
                 "shared-memory loads and atomics, shuffles and CSR reads (thread and block ids) return "
                 "shared_latency cycles after their pass; put independent ones in flight together, keep values "
                 "such as thread ids in registers instead of reading them again%s, or raise occupancy so other "
                 "warps issue meanwhile", 100.0 * share, on, again);
    return add_caused(out, nout, l, "mio_latency", use >= BUSY_HIGH ? "busy MIO" : once ? "ids once per warp" : NULL,
                      share, cyc, t);
}

/* The instruction of line l whose samples most often waited for an
 * arithmetic result (the lines keep memory waits' producers only), or NULL. */
static const prof_pc *arithmetic_producer(const prof_kernel *k, const prof_line *l)
{
    const prof_pc *best = NULL;
    for (size_t i = 0; i < k->npcs; i++) {
        const prof_pc *p = &k->pcs[i];
        if (p->producer_pc && !p->producer_memory && prof_line_has(l, p) &&
            (!best || p->producer_samples > best->producer_samples))
            best = p;
    }
    return best;
}

/* Dependent arithmetic: most of line l's warp-cycles wait for the result
 * of an arithmetic instruction (wait: integer, multiply, divide or float,
 * ready a fixed latency after issue): each operation needs the one
 * before. That costs time only when the schedulers then have nothing
 * else to issue: with their issue slots mostly used (other warps issue
 * while this one waits) the latency is already hidden. Independent work
 * hides it: several chains in a thread, or more warps. A wait behind a
 * saturated pipe is pipe_rule's. */
static int dependency_rule(const prof_kernel *k, const prof_line *l, uint64_t cyc, uint64_t total, prof_rule **out,
                           size_t *nout)
{
    const uint64_t w = l->exact.stall_cycles[WS_STATE_WAIT];
    if (!waits_matter(w, cyc, total) || issue_use(k) >= BUSY_HIGH) return 0;
    char t[800], on[200] = "", slow[200] = "";
    const prof_pc *p = arithmetic_producer(k, l);
    if (p) producer_on(l, p, on, sizeof on);
    /* a divide's result comes last of all (docs/timing.md): fewer divides first */
    const char *d = p ? p->producer_disasm : "";
    if (!strncmp(d, "div", 3) || !strncmp(d, "rem", 3))
        snprintf(slow, sizeof slow, "; the result waited for is a divide's or remainder's, the slowest: by a power "
                 "of two, a shift or a mask; by a divisor fixed for the loop, a multiply-high by its reciprocal");
    else if (!strncmp(d, "fdiv", 4) || !strncmp(d, "fsqrt", 5))
        snprintf(slow, sizeof slow, "; the result waited for is a float divide's or square root's, the slowest: "
                 "a multiply by a reciprocal computed once");
    const double share = (double)w / (double)cyc;
    double occ = 0;
    if (occupancy_full(k, &occ))
        snprintf(t, sizeof t, "dependent arithmetic: %.1f%% of its warp-cycles wait for an arithmetic result (wait%s): "
                 "each operation needs the one before, a fixed latency later; every warp slot is already filled "
                 "(occupancy %.1f%%): give each thread independent chains to interleave (several accumulators, an "
                 "unrolled loop with separate partial results)%s", 100.0 * share, on, 100.0 * occ, slow);
    else
        snprintf(t, sizeof t, "dependent arithmetic: %.1f%% of its warp-cycles wait for an arithmetic result (wait%s): "
                 "each operation needs the one before, a fixed latency later, and no other warp had an instruction "
                 "ready meanwhile: raise occupancy (more warps per core) or give each thread independent chains to "
                 "interleave (several accumulators, an unrolled loop with separate partial results)%s", 100.0 * share,
                 on, slow);
    return add(out, nout, l, "dependency", share, cyc, t);
}

/* Whether b is the same finding as a on another line: one rule, one
 * cause (the compiler spreads a loop's stores over its body, the loop's
 * line and its closing brace; an inlined header function's lines sit in
 * another file: they share one explanation). */
static int same_finding(const prof_rule *a, const prof_rule *b)
{
    return !strcmp(a->id, b->id) && !strcmp(a->cause, b->cause) && a->file && b->file &&
           a->outside_unit == b->outside_unit;
}

/* Whether the entry's listed lines are all in its first line's file. */
static int one_file(const prof_rule *g)
{
    for (size_t i = 1; i < g->nlines; i++)
        if (strcmp(g->line_file[i], g->file)) return 0;
    return 1;
}

/* The entry's text with all its lines: "f.c:42, 40 and 47: " (in one
 * file) or "f.c:42, f.h:7 and f.c:47: " (across files) + the heaviest
 * line's explanation + whose figures they are. */
static void group_text(prof_rule *g, const char *body)
{
    char *t = g->text;
    const size_t len = sizeof g->text;
    const int files = !one_file(g);
    size_t n = 0;
    for (size_t i = 0; i < g->nlines && n < len; i++) {
        const char *sep = !i ? "" : i + 1 == g->nlines && !g->more_lines ? " and " : ", ";
        if (!i || files)
            n += (size_t)snprintf(t + n, len - n, "%s%s:%u", sep, ws_path_base(g->line_file[i]), g->lines[i]);
        else
            n += (size_t)snprintf(t + n, len - n, "%s%u", sep, g->lines[i]);
    }
    if (g->more_lines && n < len)
        n += (size_t)snprintf(t + n, len - n, " and %zu more line%s", g->more_lines, g->more_lines == 1 ? "" : "s");
    if (n < len && files)
        n += (size_t)snprintf(t + n, len - n, ": %.800s (figures of %s:%u, the heaviest of the %zu lines)", body,
                              ws_path_base(g->file), g->lines[0], g->nlines + g->more_lines);
    else if (n < len)
        n += (size_t)snprintf(t + n, len - n, ": %.800s (figures of line %u, the heaviest of the %zu lines)", body,
                              g->lines[0], g->nlines + g->more_lines);
}

/* Merge each rule into the first (heaviest) entry of the same finding;
 * r is sorted by weight, so each entry's lines stay heaviest first. */
static void group_rules(prof_rule *r, size_t *n)
{
    size_t kept = 0;
    for (size_t i = 0; i < *n; i++) {
        size_t g = 0;
        while (g < kept && !same_finding(&r[g], &r[i])) g++;
        if (g == kept) { /* a finding of its own */
            if (g != i) r[g] = r[i];
            kept++;
            continue;
        }
        prof_rule *e = &r[g];
        if (e->nlines < PROF_RULE_LINES) {
            e->lines[e->nlines] = r[i].line;
            e->line_file[e->nlines] = r[i].file;
            e->line_metric[e->nlines] = r[i].metric;
            e->line_weight[e->nlines] = r[i].weight;
            e->nlines++;
        } else {
            e->more_lines++;
        }
    }
    *n = kept;
    for (size_t i = 0; i < kept; i++) {
        if (r[i].nlines < 2) continue;
        char body[sizeof r[i].text];
        snprintf(body, sizeof body, "%s", r[i].text + r[i].body);
        group_text(&r[i], body);
    }
}

/* Whether line l is code outside the kernel's compile unit (library
 * code such as picolibc's printf or libgcc, another file's function):
 * its PCs' samples are charged to the kernel's calls too. */
static int line_outside_unit(const prof_kernel *k, const prof_line *l)
{
    int any = 0;
    for (size_t j = 0; j < k->npcs; j++) {
        if (!prof_line_has(l, &k->pcs[j])) continue;
        if (!k->pcs[j].outside_unit) return 0;
        any = 1;
    }
    return any;
}

/* Whether the instruction at pc is on one of rule r's lines. */
static int pc_on_rule(const prof_kernel *k, const prof_rule *r, uint32_t pc)
{
    const prof_pc *p = find_pc(k, pc);
    if (!p) return 0;
    for (size_t i = 0; i < r->nlines; i++) {
        const char *f = r->line_file[i];
        if (f ? p->src.file && p->src.line == r->lines[i] && !strcmp(p->src.file, f)
              : !p->src.file && p->pc == r->lines[i])
            return 1;
    }
    return 0;
}

/* Whether code of function fn holds one of rule r's lines. */
static int rule_in_function(const prof_kernel *k, const prof_rule *r, const char *fn)
{
    for (size_t j = 0; j < k->npcs; j++) {
        const prof_src *s = &k->pcs[j].src;
        if (s->function && !strcmp(s->function, fn) && pc_on_rule(k, r, k->pcs[j].pc)) return 1;
    }
    return 0;
}

/* Whether call site c called straight into the function rule r's lines
 * are in (memset's lines: the calls of memset, not those of printf). */
static int site_calls_rule(const prof_kernel *k, const prof_rule *r, const prof_pc *c)
{
    for (uint32_t j = 0; j < c->ncallees; j++)
        if (c->callees[j].name[0] && rule_in_function(k, r, c->callees[j].name)) return 1;
    return 0;
}

/* The samples of call site c that were on rule r's lines, however deep
 * in the code it called. */
static uint64_t site_samples_on_rule(const prof_kernel *k, const prof_rule *r, const prof_pc *c)
{
    uint64_t n = 0;
    for (size_t i = 0; i < k->nreach; i++)
        if (k->reach[i].call == c->pc && pc_on_rule(k, r, k->reach[i].pc)) n += k->reach[i].samples;
    return n;
}

#define NOTE_SITES 64  /* the call sites the note weighs (a bit each in `taken`) */
#define NOTE_SHARE 0.1 /* of the lines' samples a call must have run to be named:
                          printf's own memset call is not where memset's advice goes */

/* Per call site (the first NOTE_SITES), what ties it to rule r's lines:
 * its samples on them, when it has at least NOTE_SHARE of those charged
 * to calls; when no sample is (the lines were not sampled), its samples
 * when it calls their function directly; else 0. Returns how many sites
 * have a weight. */
static size_t note_weights(const prof_kernel *k, const prof_rule *r, uint64_t *w)
{
    size_t sites = 0, n = k->ncalls < NOTE_SITES ? k->ncalls : NOTE_SITES;
    uint64_t all = 0;
    for (size_t i = 0; i < n; i++) all += w[i] = site_samples_on_rule(k, r, &k->calls[i]);
    for (size_t i = 0; i < n; i++) {
        if ((double)w[i] < NOTE_SHARE * (double)all) w[i] = 0;
        sites += w[i] > 0;
    }
    for (size_t i = 0; i < n && !sites; i++)
        if (site_calls_rule(k, r, &k->calls[i])) w[i] = k->calls[i].samples, sites++;
    return sites;
}

/* The kernel's call site of largest weight among those not yet named
 * (taken: a bit per call site), or NULL. */
static const prof_pc *heaviest_call(const prof_kernel *k, const uint64_t *w, uint64_t *taken)
{
    const prof_pc *best = NULL;
    size_t at = 0;
    for (size_t i = 0; i < k->ncalls && i < NOTE_SITES; i++) {
        const prof_pc *c = &k->calls[i];
        if (*taken >> i & 1 || !c->src.file || !w[i]) continue;
        if (!best || w[i] > w[at]) best = c, at = i;
    }
    if (best) *taken |= 1ull << at;
    return best;
}

/* Advice on code outside the kernel's source may be advice on code its
 * user cannot edit (libgcc, picolibc's printf): the entry says so, and
 * points to the kernel's calls that ran its lines (the call-site view's
 * samples on them, however deep: printf's calls for a line of vfprintf),
 * the two heaviest, where the advice can be applied. */
static void outside_note(const prof_kernel *k, prof_rule *r)
{
    char *t = r->text;
    const size_t len = sizeof r->text;
    size_t n = strlen(t);
    n += (size_t)snprintf(t + n, len - n, "; %s outside the kernel's source file (library code, or another "
                          "file's function)", r->nlines > 1 ? "these lines are" : "this line is");
    uint64_t w[NOTE_SITES] = { 0 }, taken = 0;
    const size_t sites = note_weights(k, r, w);
    const prof_pc *first = heaviest_call(k, w, &taken), *second = first ? heaviest_call(k, w, &taken) : NULL;
    if (n >= len || !first) return;
    char callee[96];
    prof_callees_text(first, callee, sizeof callee);
    n += (size_t)snprintf(t + n, len - n, ", run for the kernel's call%s at %s:%u -> %s", second ? "s" : "",
                          ws_path_base(first->src.file), first->src.line, callee);
    if (n < len && second) {
        prof_callees_text(second, callee, sizeof callee);
        n += (size_t)snprintf(t + n, len - n, "%s %s:%u -> %s", sites > 2 ? "," : " and",
                              ws_path_base(second->src.file), second->src.line, callee);
    }
    if (n < len && sites > 2)
        n += (size_t)snprintf(t + n, len - n, " and %zu more", sites - 2);
    if (n < len)
        snprintf(t + n, len - n, ": if you cannot edit %s, apply the advice to %s (which lanes make %s, how "
                 "often, with what arguments)", r->nlines > 1 ? "them" : "it", second ? "those calls" : "that call",
                 second ? "them" : "it");
}

static int by_weight(const void *a, const void *b)
{
    const prof_rule *x = a, *y = b;
    if (x->weight != y->weight) return x->weight > y->weight ? -1 : 1;
    if (x->line != y->line) return x->line < y->line ? -1 : 1;
    return strcmp(x->id, y->id);
}

/* The mnemonic of an instruction's disassembly ("mul" of "mul a1, a1, a6"). */
static void mnemonic(const char *disasm, char *buf, size_t len)
{
    size_t n = strcspn(disasm, " \t");
    snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), disasm);
}

/* Issue-bound: the schedulers issue most of their slots (the limits
 * line's compute-bound by issue), so a warp's waits for results are
 * filled by other warps' instructions (the dependency rule is silent
 * then) and more warps would only queue: only fewer instructions per
 * result shorten the kernel. Named once, on the line of the kernel that
 * issues the most, with its two most issued instructions. */
static int issue_rule(const prof_kernel *k, const prof_line *lines, size_t nl, prof_rule **out, size_t *nout)
{
    const double use = issue_use(k);
    if (use < ISSUE_HIGH) return 0;
    const prof_line *top = NULL;
    uint64_t all = 0;
    for (size_t i = 0; i < nl; i++) {
        if (!lines[i].file || !lines[i].line) continue;
        all += lines[i].exact.warp_instructions;
        if (!top || lines[i].exact.warp_instructions > top->exact.warp_instructions) top = &lines[i];
    }
    if (!top || !all || !top->exact.warp_instructions) return 0;
    const prof_pc *first = NULL, *second = NULL;
    for (size_t j = 0; j < k->npcs; j++) {
        const prof_pc *p = &k->pcs[j];
        if (!prof_line_has(top, p) || !p->exact.warp_instructions) continue;
        if (!first || p->exact.warp_instructions > first->exact.warp_instructions) second = first, first = p;
        else if (!second || p->exact.warp_instructions > second->exact.warp_instructions) second = p;
    }
    char most[160] = "", a[32], b[32];
    const double line_wi = (double)top->exact.warp_instructions;
    if (first && second) {
        mnemonic(first->disasm, a, sizeof a), mnemonic(second->disasm, b, sizeof b);
        snprintf(most, sizeof most, "; most issued there: %s %.1f%%, %s %.1f%%", a,
                 100.0 * (double)first->exact.warp_instructions / line_wi, b,
                 100.0 * (double)second->exact.warp_instructions / line_wi);
    }
    char t[800];
    snprintf(t, sizeof t, "issue-bound: in kernel %.80s the schedulers issue %.1f%% of their slots, so while a warp "
             "waits for a result (wait, not_selected) others issue, and more warps or shorter latencies would not "
             "make it faster; fewer instructions per result would: this line issues %.1f%% of the kernel's "
             "warp-instructions%s (work that is the same in every iteration hoisted out of the loop, simpler index "
             "arithmetic, a loop unrolled so that its counter and branch issue less often)",
             k->kernel, 100.0 * use, 100.0 * line_wi / (double)all, most);
    return add(out, nout, top, "issue", use, prof_exact_cycles(&top->exact), t);
}

int prof_rules_build(const prof_kernel *k, uint32_t lanes, prof_rule **out, size_t *nout)
{
    *out = NULL;
    *nout = 0;
    prof_line *lines;
    size_t nl;
    if (prof_lines_build(k->pcs, k->npcs, &lines, &nl)) return -1;
    /* the shares are of the kernel's lines: the exit drain, on none of
     * them, would dilute every bar (a store-only kernel is mostly drain) */
    const uint64_t total = prof_lines_cycles(lines, nl);
    char t[800];
    int fail = 0;
    const double waste[2] = { lsu_waste(k, lines, nl, lanes), mio_waste(k) };
    for (size_t i = 0; i < nl && !fail; i++) {
        const prof_line *l = &lines[i];
        const ws_pc_counter *e = &l->exact;
        uint64_t cyc = prof_exact_cycles(e);
        if (!l->file || !l->line || !total || (double)cyc < MIN_SHARE * (double)total) continue;
        const size_t first_rule = *nout;
        /* A shared atomic's lanes take turns on one bank even on one word
         * (timing.md): its extra wavefronts are contention, which padding
         * does not cure. They get a rule of their own; the bank-conflict
         * rule judges the line's other shared accesses. */
        ws_pc_counter sh = { 0 }, at = { 0 };
        for (size_t j = 0; j < k->npcs; j++) {
            const prof_pc *p = &k->pcs[j];
            if (!p->exact.shared_requests || !prof_line_has(l, p)) continue;
            ws_pc_counter *d = !strcmp(prof_inst_kind(p->disasm), "atomic") ? &at : &sh;
            d->shared_requests += p->exact.shared_requests;
            d->shared_wavefronts += p->exact.shared_wavefronts;
            d->warp_instructions += p->exact.warp_instructions;
            d->thread_instructions += p->exact.thread_instructions;
        }
        if (at.shared_wavefronts > at.shared_requests) {
            double per = (double)at.shared_wavefronts / (double)at.shared_requests;
            /* (the counters do not say whether the lanes met on one word
             * or on different words of one bank: both causes are named) */
            snprintf(t, sizeof t, "shared atomic contention: %.1f wavefronts per shared atomic, %.1f%% of them "
                     "waiting their turn: a warp's atomics on one bank go one at a time, even on one word; lanes on "
                     "one word (a hot bin, a counter), which padding does not cure, need fewer atomics: combine "
                     "within the warp first (shuffles, then one atomic per warp and address) or give each warp its "
                     "own copy; lanes on different words of one bank (words an even stride apart) need an odd "
                     "stride, as bank conflicts do (the counters do not tell the two apart)", per,
                     100.0 * (double)(at.shared_wavefronts - at.shared_requests) / (double)at.shared_wavefronts);
            fail |= add(out, nout, l, "shared_atomics", per, cyc, t);
        }
        if (sh.shared_wavefronts > sh.shared_requests) {
            double per = (double)sh.shared_wavefronts / (double)sh.shared_requests;
            /* "c of every w" wavefronts are conflicts, as the reduced
             * fraction (1.5 wavefronts per request: 1 of every 3, not the
             * truncated "0 of every 1"); a share when that is unwieldy. */
            uint64_t c = sh.shared_wavefronts - sh.shared_requests, w = sh.shared_wavefronts, g = gcd64(c, w);
            int n = w / g <= 64
                ? snprintf(t, sizeof t, "bank conflicts: %.1f wavefronts per shared request, %llu of every %llu "
                           "are conflicts; ", per, (unsigned long long)(c / g), (unsigned long long)(w / g))
                : snprintf(t, sizeof t, "bank conflicts: %.1f wavefronts per shared request, %.1f%% of them are "
                           "conflicts; ", per, 100.0 * (double)c / (double)w);
            /* the lanes that ran it: a stride's degree depends on them */
            const int steady = bank_advice(t + n, sizeof t - (size_t)n, per,
                        sh.warp_instructions ? (double)sh.thread_instructions / (double)sh.warp_instructions : lanes);
            /* one stride is one cause; a mix of patterns is one only
             * where the lines' figures are the same too */
            fail |= add_caused(out, nout, l, "bank_conflicts", steady ? t + n : t, per, cyc, t);
        }
        if (e->warp_instructions) {
            double simt = (double)e->thread_instructions / ((double)e->warp_instructions * lanes);
            /* The most the blocks' shape allows: blocks whose threads
             * fill only part of their warps run every line on that part. */
            double fill = k->block_lanes ? (double)k->block_threads / (double)k->block_lanes : 1.0;
            /* a shader's lanes are its vertices or fragments, not its blocks' threads */
            if (k->stage) fill = shader_fill(k, lanes);
            int partial = simt >= fill * (1.0 - 1e-9);
            int n = snprintf(t, sizeof t, "%s: SIMT efficiency %.1f%%, %.1f of %u lanes run it on average; ",
                             partial ? "partial warps" : "divergence", 100.0 * simt,
                             (double)e->thread_instructions / (double)e->warp_instructions, lanes);
            const int low = simt <= SIMT_LOW + 1e-9;
            if (low && partial && k->stage && !strcmp(k->stage, "vertex")) {
                snprintf(t + n, sizeof t - (size_t)n, "no branch splits the warps: the pipeline starts a lane per "
                         "vertex, and the draws' vertices fill only %.1f%% of their warps' lanes (draws of few "
                         "vertices); draw more vertices per call (batch small draws into one) to fill them",
                         100.0 * fill);
                fail |= add_caused(out, nout, l, "partial_warps", "draw size", simt, cyc, t);
            } else if (low && partial && k->stage) {
                snprintf(t + n, sizeof t - (size_t)n, "no branch splits the warps: the pipeline starts a lane per "
                         "fragment, four per 2x2 quad packed into warps in turn, and the draws' quads fill only "
                         "%.1f%% of their warps' lanes (a draw of few quads leaves most of its last warp empty); "
                         "fewer, larger draws fill more", 100.0 * fill);
                fail |= add_caused(out, nout, l, "partial_warps", "draw size", simt, cyc, t);
            } else if (low && partial) {
                if (k->block_size)
                    snprintf(t + n, sizeof t - (size_t)n, "no branch splits the warps: blocks of %u thread%s fill "
                             "only %.1f%% of their warps' lanes; make the block size a multiple of %u threads",
                             k->block_size, k->block_size == 1 ? "" : "s", 100.0 * fill, lanes);
                else
                    snprintf(t + n, sizeof t - (size_t)n, "no branch splits the warps: the launches' blocks fill "
                             "only %.1f%% of their warps' lanes; make block sizes multiples of %u threads",
                             100.0 * fill, lanes);
                fail |= add(out, nout, l, "partial_warps", simt, cyc, t);
            } else if (simt <= SIMT_LOW_CAS + 1e-9 && !partial && cas_loop(k, l)) {
                /* a hand-written atomicCAS loop and the like: lr/sc (or
                 * amocas) in a loop that each lane leaves when its swap
                 * succeeds */
                snprintf(t + n, sizeof t - (size_t)n, "the lanes leave an atomic's compare-and-swap retry loop "
                         "one by one as their swaps succeed (an update the device has no atomic for, such as a "
                         "float atomicMax, on one address): combine within the warp first (shuffles, then one "
                         "atomic per warp and address)");
                fail |= add_caused(out, nout, l, "divergence", "compare-and-swap loop", simt, cyc, t);
            } else if (low && lanes_leave_loop(k, l)) {
                snprintf(t + n, sizeof t - (size_t)n, "the lanes enter its loop together and leave it at "
                         "different iterations (a trip count that depends on the lane), and the warp runs until its "
                         "last lane is done: give the lanes of a warp similar trip counts (sort or bin the work by "
                         "size, split long items) or spread one item's iterations over the warp's lanes");
                fail |= add_caused(out, nout, l, "divergence", "loop trip counts", simt, cyc, t);
            } else if (low) {
                snprintf(t + n, sizeof t - (size_t)n, "the "
                         "branch around it splits warps (for example a test on threadIdx %% N): give whole warps the "
                         "same path or pack the work into fewer lanes");
                fail |= add_caused(out, nout, l, "divergence", "branch", simt, cyc, t);
            }
        }
        double ideal;
        if (uncoalesced(k, l, lanes, &ideal)) {
            double per = (double)e->gmem_sectors / (double)e->gmem_requests;
            if (2 * e->local_requests > e->gmem_requests) /* mostly the lanes' stacks */
                snprintf(t, sizeof t, "uncoalesced: %.1f sectors per request, mostly to the lanes' stacks "
                         "(local memory keeps word k of every lane together: %u sector%s when the lanes use one "
                         "index); the lanes index a stack array differently: give them the same index or keep "
                         "the array in shared memory", per, warp_sectors(4, lanes), warp_sectors(4, lanes) == 1 ? "" : "s");
            else if (k->stage) /* a shader's lanes each read/write their own pipeline record */
                snprintf(t, sizeof t, "uncoalesced: %.1f sectors per request (%u when %u lanes read %u "
                         "neighbouring words); each lane of a %s shader %s, which the pipeline lays out one "
                         "after another, so neighbouring lanes are a record apart: the records' size sets this, "
                         "not the shader's indexing; fewer varyings%s make them smaller", per,
                         warp_sectors(4, lanes), lanes, lanes, k->stage,
                         strcmp(k->stage, "vertex") ? "reads its own interpolated record (VOut) and writes its "
                         "own colour" : "reads its own record (VIn) and writes its own (VOut)",
                         strcmp(k->stage, "vertex") ? "" : " and vertex attributes");
            else {
                char need[80], narrow[400];
                coalesced_text(k, l, lanes, ideal, need, sizeof need);
                const unsigned nw = narrow_in_words(k, l, lanes);
                const int byte = nw == 1;
                snprintf(narrow, sizeof narrow, "the lanes use one %s of a word each, 4 bytes apart: lane i on "
                         "element i of a 4-byte array (an int whose load the compiler narrowed to the %s the line "
                         "uses, as for `in[i] & 1`) or on every %s %s of a %s array; the sectors are those of whole "
                         "words, so the indexing is not at fault: keep such values in a %s array (or pack them) to "
                         "fetch fewer sectors", byte ? "byte" : "halfword", byte ? "byte" : "halfword",
                         byte ? "fourth" : "second", byte ? "byte" : "halfword", byte ? "char" : "short",
                         byte ? "char" : "short");
                snprintf(t, sizeof t, "uncoalesced: %.1f sectors per request (%s); %s", per, need,
                         nw ? narrow
                         : wide_halves(k, l)
                             ? "the line moves 64-bit values (a double, a long long) as this device does, two "
                               "32-bit words 4 bytes apart (it has no 64-bit loads or stores), so each half's "
                               "request spans the sectors of both: use 32-bit types where the precision allows, or "
                               "keep the low and high halves in two arrays"
                         : stride_two(k, l, lanes)
                             ? "neighbouring lanes are two elements apart (each thread owning elements 2i and "
                               "2i + 1, say), so each request fetches twice the sectors its elements need: let "
                               "thread i take elements i and i + the number of threads instead"
                             : "neighbouring lanes should touch neighbouring addresses: swap the index roles or "
                               "stage through shared memory");
            }
            fail |= add_caused(out, nout, l, "uncoalesced",
                               2 * e->local_requests > e->gmem_requests ? "local memory"
                               : k->stage                               ? "shader records"
                               : narrow_in_words(k, l, lanes)           ? "narrow access in words"
                                                                        : NULL,
                               per, cyc, t);
        }
        fail |= bandwidth_rule(k, l, cyc, waste, out, nout);
        /* Warps of a block waiting at a barrier for the others: the
         * wait is the spread of their arrival times, large when some
         * warps do much more before the barrier than others. */
        uint64_t bar = e->stall_cycles[WS_STATE_BARRIER];
        if ((double)bar >= BARRIER_HIGH * (double)total) {
            char peers[400];
            barrier_peers_text(k, l, lines, nl, peers, sizeof peers);
            snprintf(t, sizeof t, "barrier imbalance: in kernel %.80s, %.1f%% of its lines' warp-cycles wait at this barrier "
                     "for the rest of their block (barrier)%.320s; some warps of the block do much more work before it than "
                     "others (a branch on threadIdx that whole warps take or skip, the last levels of a tree): "
                     "spread that work over all of the block's warps, or finish the last levels within one warp "
                     "(shuffles) without a barrier", k->kernel, 100.0 * (double)bar / (double)total, peers);
            fail |= add_caused(out, nout, l, "barrier_imbalance", peers, (double)bar / (double)total, cyc, t);
        }
        uint64_t lsb = e->stall_cycles[WS_STATE_LONG_SCOREBOARD];
        /* waiting mostly on an atomic (the samples' main producer): contention, not loads in flight */
        const int atomic = l->top_producer_pc && !strcmp(prof_inst_kind(l->top_producer_pc->producer_disasm), "atomic");
        if (waits_matter(lsb, cyc, total) && atomic) {
            atomic_text(k, l, l->top_producer_pc, (double)lsb / (double)cyc, t, sizeof t);
            fail |= add_caused(out, nout, l, "atomics", atomic_cause(k, l->top_producer_pc), (double)lsb / (double)cyc,
                               cyc, t);
        } else if (waits_matter(lsb, cyc, total) && local_load(k, l->top_producer_pc)) {
            char on[200];
            producer_on(l, l->top_producer_pc, on, sizeof on);
            int m = snprintf(t, sizeof t, "local memory latency: %.1f%% of its warp-cycles wait for a load from "
                             "the lanes' stacks (long_scoreboard%s)", 100.0 * (double)lsb / (double)cyc, on);
            const prof_pc *c = l->top_producer_pc;
            const int restore = register_restore(c->producer_disasm);
            /* the kernel's own epilogue: the restore queues behind the
             * warp's last stores at the LSU port, as the exit drain would */
            const int at_end = restore && c->producer_src.function && !strcmp(c->producer_src.function, k->kernel);
            if (at_end)
                snprintf(t + m, sizeof t - (size_t)m, ": the load restores a register the kernel saved on its stack "
                         "(the return address, or a register kept across its calls) before it returns, at any "
                         "optimisation level; it takes its turn at the LSU port after the warp's last stores, so "
                         "its wait holds theirs, the wait the warp would otherwise spend in the exit drain: fewer "
                         "sectors per store (coalesced stores) shorten it, and with no calls left (callees inlined: "
                         "static inline) there is no register to restore");
            else if (restore)
                snprintf(t + m, sizeof t - (size_t)m, ": the load restores a register the function saved on its "
                         "stack (the return address, or a register kept across its calls), once per call, at any "
                         "optimisation level: a round trip to memory per call, which inlining the callee (static "
                         "inline) removes");
            else if (k->stack_param && k->stack_param[0])
                snprintf(t + m, sizeof t - (size_t)m, ": the kernel's parameter %s is passed by value as the "
                         "address of each lane's own copy on its stack, so its fields are loads from there; or "
                         "variables kept in memory (all at -O0, spills, arrays indexed at run time, registers "
                         "saved around calls). Read the fields once into locals, or pass a pointer to one copy in "
                         "global memory, which all lanes share", k->stack_param);
            else
                snprintf(t + m, sizeof t - (size_t)m, ": variables kept in memory (all at -O0, spills, arrays "
                         "indexed at run time, registers saved around calls); build with -O1 or more, or keep such "
                         "arrays small with constant indices");
            fail |= add_caused(out, nout, l, "local_memory",
                               at_end ? "kernel's restore" : restore ? "restore" : NULL,
                               (double)lsb / (double)cyc, cyc, t);
        } else if (waits_matter(lsb, cyc, total) && unit_use(k, WS_UNIT_LSU) >= BUSY_HIGH) {
            /* the port is the limit: a load's wait is mostly its queue's.
             * A shader cannot coalesce or share: the pipeline lays its
             * lanes' records out a record apart, so their size is the lever */
            const char *fewer = !k->stage ? "(coalesced access, smaller types, reuse through shared memory)"
                                : strcmp(k->stage, "vertex") ? "(smaller records: fewer or smaller varyings, as the "
                                                               "pipeline lays each lane's out a record apart)"
                                                             : "(smaller records: fewer or smaller varyings and "
                                                               "vertex attributes, as the pipeline lays each "
                                                               "lane's out a record apart)";
            snprintf(t, sizeof t, "memory latency: %.1f%% of its warp-cycles wait for a global load's result "
                     "(long_scoreboard), while the LSU port is busy %.1f%% of the cycles: the loads wait their "
                     "turn in its queue, so more loads in flight or more warps would only queue; the port moves "
                     "32-byte sectors, so fewer sectors per result %s shorten the waits",
                     100.0 * (double)lsb / (double)cyc, 100.0 * unit_use(k, WS_UNIT_LSU), fewer);
            fail |= add_caused(out, nout, l, "latency", "busy LSU", (double)lsb / (double)cyc, cyc, t);
        } else if (waits_matter(lsb, cyc, total)) {
            latency_text(k, (double)lsb / (double)cyc, t, sizeof t);
            fail |= add(out, nout, l, "latency", (double)lsb / (double)cyc, cyc, t);
        }
        fail |= mio_latency_rule(k, l, cyc, total, lanes, out, nout);
        fail |= pipe_rule(k, l, cyc, out, nout);
        fail |= dependency_rule(k, l, cyc, total, out, nout);
        const int outside = line_outside_unit(k, l);
        for (size_t r = first_rule; r < *nout; r++) (*out)[r].outside_unit = outside;
    }
    if (!fail) fail |= issue_rule(k, lines, nl, out, nout);
    free(lines);
    if (fail) { free(*out); *out = NULL; *nout = 0; return -1; }
    if (*nout) qsort(*out, *nout, sizeof **out, by_weight);
    group_rules(*out, nout);
    for (size_t r = 0; r < *nout; r++)
        if ((*out)[r].outside_unit) outside_note(k, &(*out)[r]);
    return 0;
}
