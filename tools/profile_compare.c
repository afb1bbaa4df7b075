/* warpscope profile --baseline OLD.json: per kernel and per line, what got
 * better or worse against an earlier profile (the JSON the profiler wrote,
 * read with jansson). Kernels pair by name and module file name, lines by
 * file name and line; figures are the exact metrics (instruction counters),
 * so the comparison has no sampling noise. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include "profile_compare.h"

typedef struct metric {
    char key[320];             /* "kernel|module" or "kernel|file:line"   */
    double cycles, instr;      /* kernel: cycles, warp-instructions;
                                  line: exact warp-cycles, warp-instructions */
    double sect_req, wf_req;   /* lines: sectors/request, wavefronts/request (0: none) */
} metric;

typedef struct table { metric *m; size_t n, cap; } table;

static const char *base(const char *p)
{
    const char *s = p ? strrchr(p, '/') : NULL;
    return s ? s + 1 : p ? p : "?";
}

static metric *add(table *t, const char *key)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        metric *m = realloc(t->m, cap * sizeof *m);
        if (!m) return NULL;
        t->m = m;
        t->cap = cap;
    }
    metric *e = &t->m[t->n++];
    memset(e, 0, sizeof *e);
    snprintf(e->key, sizeof e->key, "%s", key);
    return e;
}

static double num(json_t *o, const char *k) { return json_number_value(json_object_get(o, k)); }

/* Kernels and lines of the first device of a profile. */
static int load(const char *path, table *kernels, table *lines, char *err, size_t len)
{
    json_error_t je;
    json_t *doc = json_load_file(path, 0, &je);
    if (!doc) { snprintf(err, len, "%s:%d: %s", path, je.line, je.text); return -1; }
    json_t *fmt = json_object_get(doc, "format"), *dev = json_array_get(json_object_get(doc, "devices"), 0);
    if (!json_is_string(fmt) || strcmp(json_string_value(fmt), "warpscope-profile") || !dev) {
        snprintf(err, len, "%s: not a warpscope profile with a device (warpscope profile --json)", path);
        json_decref(doc);
        return -1;
    }
    size_t i, j;
    json_t *k, *l;
    int fail = 0;
    json_array_foreach(json_object_get(dev, "kernels"), i, k) {
        const char *kn = json_string_value(json_object_get(k, "kernel"));
        char key[320];
        /* (names cut so the '|' always fits: the report splits keys there) */
        snprintf(key, sizeof key, "%.200s|%.100s", kn ? kn : "?",
                 base(json_string_value(json_object_get(k, "module"))));
        metric *e = add(kernels, key);
        if (!e) { fail = 1; break; }
        e->cycles = num(k, "cycles");
        json_array_foreach(json_object_get(k, "lines"), j, l) {
            const char *file = json_string_value(json_object_get(l, "file"));
            json_t *x = json_object_get(l, "exact");
            if (!file || !x) continue;
            snprintf(key, sizeof key, "%.200s|%.80s:%lld", kn ? kn : "?", base(file),
                     (long long)json_integer_value(json_object_get(l, "line")));
            metric *m = add(lines, key);
            if (!m) { fail = 1; break; }
            const char *st;
            json_t *v;
            json_object_foreach(json_object_get(x, "cycles"), st, v) m->cycles += json_number_value(v);
            m->instr = num(x, "warp_instructions");
            e->instr += m->instr;
            if (num(x, "global_requests") > 0) m->sect_req = num(x, "global_sectors") / num(x, "global_requests");
            if (num(x, "shared_requests") > 0) m->wf_req = num(x, "shared_wavefronts") / num(x, "shared_requests");
        }
    }
    json_decref(doc);
    if (fail) snprintf(err, len, "out of memory reading %s", path);
    return fail ? -1 : 0;
}

static const metric *find(const table *t, const char *key)
{
    for (size_t i = 0; i < t->n; i++)
        if (!strcmp(t->m[i].key, key)) return &t->m[i];
    return NULL;
}

static void change(FILE *f, const char *what, double a, double b)
{
    if (a > 0) fprintf(f, "%s %.0f -> %.0f (%+.1f%%)", what, a, b, 100.0 * (b - a) / a);
    else fprintf(f, "%s %.0f -> %.0f", what, a, b);
}

typedef struct delta { const metric *old, *now; double d; } delta;

static int by_size(const void *x, const void *y)
{
    const delta *a = x, *b = y;
    double da = a->d < 0 ? -a->d : a->d, db = b->d < 0 ? -b->d : b->d;
    if (da != db) return da > db ? -1 : 1;
    return strcmp(a->now->key, b->now->key);
}

int ws_profile_compare(const char *baseline, const char *current, FILE *f)
{
    table ok = { 0 }, ol = { 0 }, nk = { 0 }, nl = { 0 };
    char err[512];
    int rc = 0;
    if (load(baseline, &ok, &ol, err, sizeof err) || load(current, &nk, &nl, err, sizeof err)) {
        fprintf(stderr, "warpscope profile: --baseline: %s\n", err);
        rc = -1;
        goto out;
    }
    fprintf(f, "\nCompared with %s (exact metrics; kernels by name and module, lines by file and line)\n", baseline);
    for (size_t i = 0; i < nk.n; i++) {
        const metric *now = &nk.m[i], *old = find(&ok, now->key);
        const char *bar = strchr(now->key, '|');
        fprintf(f, "  kernel %.*s: ", (int)(bar - now->key), now->key);
        if (!old) { fprintf(f, "new (not in the baseline)\n"); continue; }
        change(f, "cycles", old->cycles, now->cycles);
        change(f, ", warp-instructions", old->instr, now->instr);
        fputc('\n', f);
        /* its lines that changed most in warp-cycles */
        delta *d = calloc(nl.n + 1, sizeof *d);
        size_t nd = 0;
        size_t klen = (size_t)(bar - now->key) + 1;
        for (size_t j = 0; d && j < nl.n; j++) {
            if (strncmp(nl.m[j].key, now->key, klen)) continue;
            const metric *lo = find(&ol, nl.m[j].key);
            d[nd++] = (delta){ lo, &nl.m[j], nl.m[j].cycles - (lo ? lo->cycles : 0) };
        }
        if (d) qsort(d, nd, sizeof *d, by_size);
        for (size_t j = 0; j < nd && j < 5; j++) {
            if (d[j].d == 0) break;
            fprintf(f, "    line %s: ", strchr(d[j].now->key, '|') + 1);
            change(f, "warp-cycles", d[j].old ? d[j].old->cycles : 0, d[j].now->cycles);
            change(f, ", warp-instructions", d[j].old ? d[j].old->instr : 0, d[j].now->instr);
            if (d[j].old && (d[j].old->sect_req || d[j].now->sect_req))
                fprintf(f, ", sectors/request %.2f -> %.2f", d[j].old->sect_req, d[j].now->sect_req);
            if (d[j].old && (d[j].old->wf_req || d[j].now->wf_req))
                fprintf(f, ", wavefronts/request %.2f -> %.2f", d[j].old->wf_req, d[j].now->wf_req);
            fprintf(f, "%s\n", d[j].old ? "" : " (new line)");
        }
        if (!nd || d[0].d == 0) fprintf(f, "    no line changed\n");
        free(d);
    }
    for (size_t i = 0; i < ok.n; i++)
        if (!find(&nk, ok.m[i].key))
            fprintf(f, "  kernel %.*s: only in the baseline\n", (int)(strchr(ok.m[i].key, '|') - ok.m[i].key),
                    ok.m[i].key);
out:
    free(ok.m);
    free(ol.m);
    free(nk.m);
    free(nl.m);
    return rc;
}
