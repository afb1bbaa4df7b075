/* warpscope profile --baseline OLD.json: per kernel and per line, what got
 * better or worse against an earlier profile (the JSON the profiler wrote,
 * read with jansson). Kernels pair by name and module file name, lines by
 * file name and line within their kernel (code without a source file, such
 * as the kernel-exit stub, by address); figures are the exact metrics (instruction counters),
 * so the comparison has no sampling noise. The calls out of the kernel's
 * source (library code) have only samples: they are compared as their
 * share of the kernel's samples, by the line that calls. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <warpscope/abi.h>
#include "profile_compare.h"
#include "runtime/path_text.h"

typedef struct metric {
    char key[320];             /* "kernel|module": a kernel, or the kernel
                                  a line belongs to (a kernel's name is not
                                  enough: two modules may each have one of
                                  that name, even from the same file)     */
    size_t name_len;           /* the kernel name's length in key         */
    char line[160];            /* lines: their label (line_label), kernels: "" */
    double cycles, instr;      /* kernel: cycles, warp-instructions;
                                  line: exact warp-cycles, warp-instructions */
    double sect_req, wf_req;   /* lines: sectors/request, wavefronts/request (0: none) */
    double share;              /* calls: the line's call sites' share of the kernel's samples, % */
    char callee[64];           /* calls: the functions they reached, heaviest first */
    char moved_from[104];      /* a baseline kernel paired with this run's
                                  by name alone: its module's name      */
} metric;

typedef struct table { metric *m; size_t n, cap; } table;

static metric *add(table *t, const char *key, size_t name_len, const char *line)
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
    e->name_len = name_len;
    snprintf(e->line, sizeof e->line, "%s", line);
    return e;
}

static double num(json_t *o, const char *k) { return json_number_value(json_object_get(o, k)); }

/* number: the device's own (its "device"), else its place in the array, from 1 */
typedef struct device { table kernels, lines, calls; long long number; size_t place; } device;

struct ws_profile_doc { device *dev; size_t ndev; };

/* How a row of a kernel's "lines" is named, and paired: "line FILE:N";
 * code of a function without a line, "line FILE:0 (FUNCTION)"; code
 * without a source file (the JSON's "line" is then its address), by that
 * address, and the kernel-exit stub as what it is: its drain can grow
 * with the stores before the exit, and then ranks with the lines. */
static void line_label(json_t *l, char *out, size_t len)
{
    const char *file = json_string_value(json_object_get(l, "file"));
    const char *fn = json_string_value(json_object_get(l, "function"));
    long long no = json_integer_value(json_object_get(l, "line"));
    if (!file && no == WS_RETIRE_ADDR)
        snprintf(out, len, "kernel exit (pc 0x%08llx, retired warps draining)", no);
    else if (!file)
        snprintf(out, len, "pc 0x%08llx (no line information)", no);
    else if (!no && fn) /* one entry per function */
        snprintf(out, len, "line %.80s:0 (%.30s)", ws_path_base(file), fn);
    else
        snprintf(out, len, "line %.80s:%lld", ws_path_base(file), no);
}

/* Whether the list "a, b, c" holds name. */
static int listed(const char *list, const char *name)
{
    const size_t n = strlen(name);
    for (const char *at = list; (at = strstr(at, name)) != NULL; at += n)
        if ((at == list || (at - list >= 2 && !strncmp(at - 2, ", ", 2))) && (!at[n] || at[n] == ',')) return 1;
    return 0;
}

/* The functions call site c reached ("callees"; "callee" in profiles
 * written before 2026-11-28) join the list out ("memset, op_a"), once each. */
static void add_callees(json_t *c, char *out, size_t len)
{
    size_t i, n = strlen(out);
    json_t *e, *list = json_object_get(c, "callees");
    if (!json_array_size(list)) list = json_pack("[{s:O}]", "name", json_object_get(c, "callee"));
    else json_incref(list);
    json_array_foreach(list, i, e) {
        const char *name = json_string_value(json_object_get(e, "name"));
        char item[40];
        snprintf(item, sizeof item, "%.36s", name ? name : "?");
        if (!listed(out, item) && n < len) n += (size_t)snprintf(out + n, len - n, "%s%s", n ? ", " : "", item);
    }
    json_decref(list);
}

/* The calls out of kernel k's source, one entry per line that calls: its
 * sites' share of the kernel's samples and their callees. */
static int load_calls(json_t *k, const char *key, size_t name_len, table *calls)
{
    const double samples = num(k, "samples");
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(k, "call_sites"), i, c) {
        char lkey[160];
        line_label(c, lkey, sizeof lkey);
        metric *m = NULL;
        for (size_t j = 0; j < calls->n && !m; j++)
            if (!strcmp(calls->m[j].key, key) && !strcmp(calls->m[j].line, lkey)) m = &calls->m[j];
        if (!m && !(m = add(calls, key, name_len, lkey))) return -1;
        if (samples > 0) m->share += 100.0 * num(c, "samples") / samples;
        add_callees(c, m->callee, sizeof m->callee);
    }
    return 0;
}

/* Kernels and lines of one device of a profile. */
static int load_device(json_t *dev, table *kernels, table *lines, table *calls)
{
    size_t i, j;
    json_t *k, *l;
    json_array_foreach(json_object_get(dev, "kernels"), i, k) {
        const char *kn = json_string_value(json_object_get(k, "kernel"));
        char key[320], lkey[160];
        int name_len = snprintf(key, sizeof key, "%.200s", kn ? kn : "?");
        snprintf(key + name_len, sizeof key - (size_t)name_len, "|%.100s",
                 ws_path_base(json_string_value(json_object_get(k, "module"))));
        metric *e = add(kernels, key, (size_t)name_len, "");
        if (!e || load_calls(k, key, (size_t)name_len, calls)) return -1;
        e->cycles = num(k, "cycles");
        json_array_foreach(json_object_get(k, "lines"), j, l) {
            json_t *x = json_object_get(l, "exact");
            if (!x) continue;
            line_label(l, lkey, sizeof lkey);
            metric *m = add(lines, key, (size_t)name_len, lkey);
            if (!m) return -1;
            const char *st;
            json_t *v;
            json_object_foreach(json_object_get(x, "cycles"), st, v) m->cycles += json_number_value(v);
            m->instr = num(x, "warp_instructions");
            e->instr += m->instr;
            if (num(x, "global_requests") > 0) m->sect_req = num(x, "global_sectors") / num(x, "global_requests");
            if (num(x, "shared_requests") > 0) m->wf_req = num(x, "shared_wavefronts") / num(x, "shared_requests");
        }
    }
    return 0;
}

void ws_profile_doc_free(ws_profile_doc *doc)
{
    if (!doc) return;
    for (size_t i = 0; i < doc->ndev; i++) {
        free(doc->dev[i].kernels.m);
        free(doc->dev[i].lines.m);
        free(doc->dev[i].calls.m);
    }
    free(doc->dev);
    free(doc);
}

/* Devices in the order the program opened them: the array holds them as
 * they closed, each naming its number ("device"; an older file names none
 * and keeps its order). */
static int by_number(const void *a, const void *b)
{
    const device *x = a, *y = b;
    if (x->number != y->number) return x->number < y->number ? -1 : 1;
    return x->place < y->place ? -1 : x->place > y->place;
}

ws_profile_doc *ws_profile_doc_load(const char *path, char *err, size_t len)
{
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je);
    if (!root) { snprintf(err, len, "%s:%d: %s", path, je.line, je.text); return NULL; }
    json_t *fmt = json_object_get(root, "format"), *devs = json_object_get(root, "devices");
    json_t *ver = json_object_get(root, "version");
    ws_profile_doc *doc = NULL;
    if (!json_is_string(fmt) || strcmp(json_string_value(fmt), "warpscope-profile") || !json_array_size(devs))
        snprintf(err, len, "%s: not a warpscope profile with a device (warpscope profile --json)", path);
    else if (!json_is_integer(ver) || json_integer_value(ver) != 1) /* other versions may mean other things */
        snprintf(err, len, "%s: profile format version %lld; this warpscope reads version 1", path,
                 json_is_integer(ver) ? (long long)json_integer_value(ver) : 0LL);
    else if (!(doc = calloc(1, sizeof *doc)) || !(doc->dev = calloc(json_array_size(devs), sizeof *doc->dev))) {
        snprintf(err, len, "out of memory reading %s", path);
        free(doc);
        doc = NULL;
    } else {
        for (doc->ndev = 0; doc->ndev < json_array_size(devs); doc->ndev++) {
            device *d = &doc->dev[doc->ndev];
            json_t *number = json_object_get(json_array_get(devs, doc->ndev), "device");
            d->place = doc->ndev;
            d->number = json_is_integer(number) ? json_integer_value(number) : (long long)doc->ndev + 1;
            if (load_device(json_array_get(devs, doc->ndev), &d->kernels, &d->lines, &d->calls)) {
                doc->ndev++; /* (freed with the others) */
                ws_profile_doc_free(doc);
                doc = NULL;
                snprintf(err, len, "out of memory reading %s", path);
                break;
            }
        }
        if (doc) qsort(doc->dev, doc->ndev, sizeof *doc->dev, by_number);
    }
    json_decref(root);
    return doc;
}

static const metric *find(const table *t, const metric *like)
{
    for (size_t i = 0; i < t->n; i++)
        if (!strcmp(t->m[i].key, like->key) && !strcmp(t->m[i].line, like->line)) return &t->m[i];
    return NULL;
}

/* Whether kernel entry e has m's name. */
static int same_name(const metric *e, const metric *m)
{
    return e->name_len == m->name_len && !strncmp(e->key, m->key, m->name_len);
}

/* How many kernels of t have m's name, and the first of them. */
static size_t named(table *t, const metric *m, metric **first)
{
    size_t n = 0;
    for (size_t i = 0; i < t->n; i++)
        if (same_name(&t->m[i], m) && !n++ && first) *first = &t->m[i];
    return n;
}

/* Two builds compared (k.elf, then k_o3.elf): a kernel whose module file
 * is named otherwise in this run pairs by its name alone when each profile
 * has one kernel of that name and the baseline's module is not in this run
 * too. The baseline's kernel, lines and calls then take this run's key (it
 * was "new" here and "only in the baseline"). */
static void pair_renamed_modules(device *o, device *n)
{
    for (size_t i = 0; i < n->kernels.n; i++) {
        const metric *now = &n->kernels.m[i];
        metric *old = NULL;
        if (find(&o->kernels, now) || named(&n->kernels, now, NULL) != 1 || named(&o->kernels, now, &old) != 1 ||
            find(&n->kernels, old))
            continue;
        char was[sizeof old->key];
        snprintf(was, sizeof was, "%s", old->key);
        snprintf(old->moved_from, sizeof old->moved_from, "%s", was + old->name_len + 1);
        table *t[3] = { &o->kernels, &o->lines, &o->calls };
        for (int j = 0; j < 3; j++)
            for (size_t k = 0; k < t[j]->n; k++)
                if (!strcmp(t[j]->m[k].key, was)) memcpy(t[j]->m[k].key, now->key, sizeof now->key);
    }
}

/* Whether another kernel of either table has m's name in another module:
 * then the report names the module too. */
static int ambiguous(const table *a, const table *b, const metric *m)
{
    const table *t[2] = { a, b };
    for (int j = 0; j < 2; j++)
        for (size_t i = 0; i < t[j]->n; i++)
            if (t[j]->m[i].name_len == m->name_len && !strncmp(t[j]->m[i].key, m->key, m->name_len) &&
                strcmp(t[j]->m[i].key, m->key))
                return 1;
    return 0;
}

/* "kernel NAME", with " (MODULE)" when the name alone is ambiguous. */
static void kernel_name(FILE *f, const char *ind, const table *a, const table *b, const metric *m)
{
    fprintf(f, "%skernel %.*s", ind, (int)m->name_len, m->key);
    if (ambiguous(a, b, m)) fprintf(f, " (%s)", m->key + m->name_len + 1);
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
    return strcmp(a->now->line, b->now->line);
}

/* Kernel `now`'s calls out of its source whose share of the samples
 * changed most (those of either profile), indented by ind. */
static void compare_calls(const table *oc, const table *nc, const metric *now, const char *ind, FILE *f)
{
    const table *t[2] = { nc, oc };
    delta *d = calloc(nc->n + oc->n + 1, sizeof *d);
    size_t nd = 0;
    for (int side = 0; d && side < 2; side++)
        for (size_t j = 0; j < t[side]->n; j++) {
            const metric *m = &t[side]->m[j], *other = find(t[!side], m);
            if (strcmp(m->key, now->key) || (side && other)) continue; /* (a pair once, from this run's side) */
            const metric *old = side ? m : other, *cur = side ? NULL : m;
            d[nd++] = (delta){ old, cur ? cur : old, (cur ? cur->share : 0) - (old ? old->share : 0) };
        }
    if (d) qsort(d, nd, sizeof *d, by_size);
    if (nd) fprintf(f, "%s  calls out of the kernel's source, share of its samples (sampled):\n", ind);
    for (size_t j = 0; j < nd && j < 5; j++) {
        const metric *cur = find(nc, d[j].now) ? d[j].now : NULL;
        const char *site = d[j].now->line;
        if (!strncmp(site, "line ", 5)) site += 5;
        fprintf(f, "%s    %s -> %s: %.1f%% -> %.1f%%%s\n", ind, site, d[j].now->callee,
                d[j].old ? d[j].old->share : 0.0, cur ? cur->share : 0.0,
                !d[j].old ? " (new call)" : !cur ? " (only in the baseline)" : "");
    }
    free(d);
}

/* Device d's kernels, then their lines that changed most and their calls
 * out of their source, indented by ind. */
static void compare_device(const device *o, const device *n, const char *ind, FILE *f)
{
    const table *ok = &o->kernels, *ol = &o->lines, *nk = &n->kernels, *nl = &n->lines;
    for (size_t i = 0; i < nk->n; i++) {
        const metric *now = &nk->m[i], *old = find(ok, now);
        kernel_name(f, ind, ok, nk, now);
        fputs(": ", f);
        if (!old) { fprintf(f, "new (not in the baseline)\n"); continue; }
        if (old->moved_from[0]) fprintf(f, "module %s -> %s, ", old->moved_from, now->key + now->name_len + 1);
        change(f, "cycles", old->cycles, now->cycles);
        change(f, ", warp-instructions", old->instr, now->instr);
        fputc('\n', f);
        /* its lines that changed most in warp-cycles */
        delta *d = calloc(nl->n + 1, sizeof *d);
        size_t nd = 0;
        for (size_t j = 0; d && j < nl->n; j++) {
            if (strcmp(nl->m[j].key, now->key)) continue;
            const metric *lo = find(ol, &nl->m[j]);
            d[nd++] = (delta){ lo, &nl->m[j], nl->m[j].cycles - (lo ? lo->cycles : 0) };
        }
        if (d) qsort(d, nd, sizeof *d, by_size);
        for (size_t j = 0; j < nd && j < 5; j++) {
            if (d[j].d == 0) break;
            fprintf(f, "%s  %s: ", ind, d[j].now->line);
            change(f, "warp-cycles", d[j].old ? d[j].old->cycles : 0, d[j].now->cycles);
            change(f, ", warp-instructions", d[j].old ? d[j].old->instr : 0, d[j].now->instr);
            if (d[j].old && (d[j].old->sect_req || d[j].now->sect_req))
                fprintf(f, ", sectors/request %.2f -> %.2f", d[j].old->sect_req, d[j].now->sect_req);
            if (d[j].old && (d[j].old->wf_req || d[j].now->wf_req))
                fprintf(f, ", wavefronts/request %.2f -> %.2f", d[j].old->wf_req, d[j].now->wf_req);
            fprintf(f, "%s\n", d[j].old ? "" : " (new line)");
        }
        if (!nd || d[0].d == 0) fprintf(f, "%s  no line changed\n", ind);
        free(d);
        compare_calls(&o->calls, &n->calls, now, ind, f);
    }
    for (size_t i = 0; i < ok->n; i++)
        if (!find(nk, &ok->m[i])) {
            kernel_name(f, ind, ok, nk, &ok->m[i]);
            fputs(": only in the baseline\n", f);
        }
}

void ws_profile_doc_compare(ws_profile_doc *old, const char *old_name, const ws_profile_doc *now, FILE *f)
{
    for (size_t i = 0; i < old->ndev && i < now->ndev; i++) pair_renamed_modules(&old->dev[i], &now->dev[i]);
    fprintf(f, "\nCompared with %s (exact metrics; kernels by name and module, lines by file and line, code without a line by address%s)\n", old_name,
            old->ndev > 1 || now->ndev > 1 ? "; device N with device N" : "");
    if (old->ndev == 1 && now->ndev == 1) { /* the usual case: no device headings */
        compare_device(&old->dev[0], &now->dev[0], "  ", f);
        return;
    }
    size_t nd = old->ndev > now->ndev ? old->ndev : now->ndev;
    for (size_t i = 0; i < nd; i++) {
        fprintf(f, "  device %zu:", i + 1);
        if (i >= old->ndev) fprintf(f, " new (the baseline has %zu device%s)\n", old->ndev, old->ndev == 1 ? "" : "s");
        else if (i >= now->ndev) fprintf(f, " only in the baseline (this run has %zu)\n", now->ndev);
        else {
            fputc('\n', f);
            compare_device(&old->dev[i], &now->dev[i], "    ", f);
        }
    }
}

int ws_profile_compare(const char *baseline, const char *current, FILE *f)
{
    char err[512];
    ws_profile_doc *old = ws_profile_doc_load(baseline, err, sizeof err), *now = NULL;
    if (old) now = ws_profile_doc_load(current, err, sizeof err);
    if (!now) fprintf(stderr, "warpscope profile: --baseline: %s\n", err);
    else ws_profile_doc_compare(old, baseline, now, f);
    ws_profile_doc_free(old);
    ws_profile_doc_free(now);
    return now ? 0 : -1;
}
