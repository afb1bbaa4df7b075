/* The profiler session of one device: attached at open from
 * WARPSCOPE_PROFILE, it owns the event buffer in device memory, the
 * launches profiled so far and the line maps of their modules; at close it
 * writes the report, JSON and trace. Several devices in one process share
 * the output files: each appends its section (the JSON and trace documents
 * are reopened and extended), so no process-wide state is needed. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "device/timing.h"
#include "profile/prof_session.h"
#include "runtime/counter_file.h"

static const ws_tool prof_tool;

ws_status ws_profiler_attach(ws_device *dev, const char *spec)
{
    if (!spec) return WS_OK;
    ws_profiler *P = calloc(1, sizeof *P);
    if (!P) return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "profiler: out of host memory");
    char err[256];
    if (prof_options_parse(spec, &P->opt, err, sizeof err)) {
        free(P);
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "%s", err);
    }
    /* Samples need cycles: the profiler runs the device in timing mode
     * (results are identical to functional mode). */
    const ws_exec_mode mode = dev->cfg.mode;
    dev->cfg.mode = WS_MODE_TIMING;
    /* ... and builds its model now, as a device opened in timing mode does,
     * from the parameter file validated moments ago (built at the first
     * launch instead, it read the file again there: a file changed since
     * the open failed that launch with a message about a fault that never
     * happened, its status saying out of host memory) */
    if (!dev->timing) {
        ws_status ts = ws_timing_create(dev);
        if (ts != WS_OK) {
            dev->cfg.mode = mode;
            prof_options_free(&P->opt);
            free(P);
            return ts == WS_ERR_OUT_OF_MEMORY ? ws_set_error(dev, ts, "profiler: timing model: out of host memory")
                                              : ts;
        }
    }
    /* The event buffer: as many records as asked for, halved until it fits
     * beside the program's own data (samples that do not fit are counted
     * as dropped and reported). */
    uint32_t cap = P->opt.buffer_records;
    /* room for it beside the program's global_mem_limit, not taken from it */
    (void)ws_runtime_grow_arena(dev, dev->mem.limit + ws_mem_span(sizeof(ws_trace_header) +
                                                                   (uint64_t)cap * sizeof(ws_trace_record)));
    for (;;) {
        uint64_t bytes = sizeof(ws_trace_header) + (uint64_t)cap * sizeof(ws_trace_record);
        if (bytes <= dev->mem.limit / 4 && !ws_mem_alloc_tool(&dev->mem, (uint32_t)bytes, REGION_DATA, &P->buffer)) break;
        if (cap <= 256) {
            prof_options_free(&P->opt);
            free(P);
            return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY,
                                "profiler: no room for the sample buffer in device memory (global_mem_limit=%llu)",
                                (unsigned long long)dev->mem.limit);
        }
        cap /= 2;
    }
    P->capacity = cap;
    /* The report exists from the first device open on, so `warpscope
     * profile` can tell a program that opened no device from one that
     * never closed its device (the profile is written at close). */
    FILE *rf = P->opt.report ? fopen(P->opt.report, "a") : NULL;
    ws_status st = WS_OK;
    if (P->opt.report && (!rf || fclose(rf)))
        st = ws_set_error(dev, WS_ERR_INVALID_ARG, "profiler: report %s: cannot write: %s", P->opt.report,
                          strerror(errno));
    /* numbered as the program opens its devices, as `warpscope trace` does */
    else if (P->opt.devices && !(P->device_number = (uint32_t)ws_counter_next(P->opt.devices)))
        st = ws_set_error(dev, WS_ERR_IO, "profiler: the program's device counter %s: %s", P->opt.devices,
                          strerror(errno));
    else
        st = ws_tool_attach(dev, &prof_tool, P);
    if (st != WS_OK) {
        ws_mem_free_tool(&dev->mem, P->buffer);
        prof_options_free(&P->opt);
        free(P);
        return st;
    }
    return WS_OK;
}

/* The module's line map, built once per loaded module from the ELF the
 * runtime kept (memory-loaded modules too), else from the module's file. */
prof_module *prof_module_for(ws_profiler *P, const struct ws_module *m)
{
    for (size_t i = 0; i < P->nmods; i++)
        if (P->mods[i].mod == m && P->mods[i].base == m->base && !strcmp(P->mods[i].name, m->name))
            return &P->mods[i];
    if (P->nmods == P->modcap) {
        size_t cap = P->modcap ? P->modcap * 2 : 4;
        prof_module *n = realloc(P->mods, cap * sizeof *n);
        if (!n) return NULL;
        P->mods = n;
        P->modcap = cap;
    }
    prof_module *e = &P->mods[P->nmods];
    memset(e, 0, sizeof *e);
    if (!(e->name = strdup(m->name))) return NULL;
    e->mod = m;
    e->base = m->base;
    P->nmods++;
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0, r;
    if (m->elf) { /* the runtime keeps the ELF as loaded (file or memory) */
        if (!(buf = malloc(m->elf_size ? m->elf_size : 1))) return e;
        memcpy(buf, m->elf, m->elf_size);
        len = m->elf_size;
        goto parse;
    }
    FILE *f = fopen(m->name, "rb");
    if (!f) return e;
    do {
        if (len == cap) {
            uint8_t *nb = cap < (256u << 20) ? realloc(buf, cap = cap ? cap * 2 : 1 << 16) : NULL;
            if (!nb) { free(buf); buf = NULL; break; }
            buf = nb;
        }
        r = fread(buf + len, 1, cap - len, f);
        len += r;
    } while (r);
    fclose(f);
parse:;
    char err[256];
    /* The image in memory is relocated: the file gives the link address
     * that the DWARF addresses use. */
    ws_elf_image img;
    if (buf && !ws_elf_parse(buf, len, m->name, &img, err, sizeof err)) {
        e->link_base = img.link_base;
        ws_elf_free(&img);
        if (ws_line_map_build(buf, len, m->name, &e->map, err, sizeof err)) e->map = NULL;
    }
    free(buf);
    return e;
}

static void launch_free(prof_launch *L)
{
    free(L->kernel);
    free(L->module);
    prof_pcs_free(L->pcs, L->npcs);
    free(L->records);
    free(L->peers);
    prof_pcs_free(L->calls, L->ncalls);
    free(L->reach);
    prof_src_free(&L->fault.src);
}

/* Read a whole file (NULL if absent); *len gets its size. */
static char *slurp(const char *path, size_t *len)
{
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1))) {
            *len = fread(buf, 1, (size_t)n, f);
            buf[*len] = 0;
        }
    }
    fclose(f);
    return buf;
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; p && (p = strstr(p, needle)); p += strlen(needle)) n++;
    return n;
}

/* Write head+body+tail, or, if the file already holds such a document
 * (ending in tail), add body to its comma-separated items: before the item
 * that starts at offset `at`, or after the last one when `at` is past them. */
static int merge_write(const char *path, const char *existing, size_t elen, const char *head,
                       const char *body, size_t blen, const char *tail, size_t at)
{
    size_t tl = strlen(tail);
    int extend = existing && elen >= tl && !memcmp(existing + elen - tl, tail, tl);
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    if (!extend) {
        fputs(head, f);
        fwrite(body, 1, blen, f);
    } else if (at >= elen - tl) {
        fwrite(existing, 1, elen - tl, f);
        fputs(",", f);
        fwrite(body, 1, blen, f);
    } else {
        fwrite(existing, 1, at, f);
        fwrite(body, 1, blen, f);
        fputs(",", f);
        fwrite(existing + at, 1, elen - tl - at, f);
    }
    fputs(tail, f);
    return fclose(f) ? -1 : 0;
}

/* Where device `number`'s object goes in a JSON profile: before the first
 * device numbered above it, so the array is in numbering (opening) order
 * whatever order the devices close in; SIZE_MAX (the end) if none is. */
static size_t json_device_slot(const char *doc, uint32_t number)
{
    static const char key[] = "    {\"device\": ";
    for (const char *p = doc; p && (p = strstr(p, key)); p += sizeof key - 1)
        if (strtoul(p + sizeof key - 1, NULL, 10) > number) return (size_t)(p - doc);
    return SIZE_MAX;
}

/* A JSON or trace file that could not be written: said on stderr and in
 * the report, where `warpscope profile` finds it and fails. */
static void output_failed(const ws_profiler *P, const char *what, const char *path, int err)
{
    fprintf(stderr, "warpscope: profiler: cannot write the %s %s: %s\n", what, path, strerror(err));
    FILE *f = P->opt.report ? fopen(P->opt.report, "a") : NULL;
    if (f) {
        fprintf(f, "error: cannot write the %s %s: %s\n", what, path, strerror(err));
        fclose(f);
    }
}

static void write_outputs(ws_device *dev, ws_profiler *P)
{
    prof_data d = { &P->opt, &dev->cfg, P->launches, P->nlaunches, P->device_number ? P->device_number - 1 : 0 };
    char *body = NULL, *old;
    size_t blen = 0, olen;
    if (P->opt.report) {
        old = slurp(P->opt.report, &olen);
        if (!P->device_number) d.device_index = (uint32_t)count(old, "== warpscope profile"); /* closing order */
        free(old);
        FILE *f = fopen(P->opt.report, "a");
        if (!f || prof_report_write(f, &d) || fclose(f))
            fprintf(stderr, "warpscope: profiler: cannot write the report %s: %s\n", P->opt.report, strerror(errno));
    }
    if (P->opt.json) {
        FILE *m = open_memstream(&body, &blen);
        old = slurp(P->opt.json, &olen);
        size_t slot = P->device_number ? json_device_slot(old, P->device_number) : SIZE_MAX;
        errno = 0;
        if (!m || prof_json_write(m, &d) || fclose(m) ||
            merge_write(P->opt.json, old, olen, "{\"format\": \"warpscope-profile\", \"version\": 1, \"devices\": [\n",
                        body, blen, "\n]}\n", slot))
            output_failed(P, "JSON profile", P->opt.json, errno ? errno : EIO);
        free(old);
        free(body);
        body = NULL;
    }
    if (P->opt.trace) {
        old = slurp(P->opt.trace, &olen);
        uint32_t index = P->device_number ? d.device_index : (uint32_t)count(old, "launches\"}}");
        FILE *m = open_memstream(&body, &blen);
        errno = 0;
        if (!m || prof_perfetto_write(m, &d, index) || fclose(m) ||
            merge_write(P->opt.trace, old, olen, "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [", body, blen,
                        "\n]}\n", SIZE_MAX))
            output_failed(P, "trace", P->opt.trace, errno ? errno : EIO);
        free(old);
        free(body);
    }
}

static void prof_device_close(ws_device *dev, void *user)
{
    write_outputs(dev, user);
}

static void prof_detach(ws_device *dev, void *user)
{
    (void)dev;
    ws_profiler *P = user;
    for (size_t i = 0; i < P->nlaunches; i++) launch_free(&P->launches[i]);
    free(P->launches);
    for (size_t i = 0; i < P->nmods; i++) {
        if (P->mods[i].map) ws_line_map_free(P->mods[i].map);
        free(P->mods[i].name);
    }
    free(P->mods);
    prof_options_free(&P->opt);
    free(P);
}

static ws_status prof_run_launch(ws_device *dev, void *user, const ws_tool_launch *launch, ws_tool_runner *runner)
{
    return prof_launch_run(dev, user, launch->device_launch, runner);
}

static const ws_tool prof_tool = {
    .version = WS_TOOL_API_VERSION,
    .name = "profiler",
    .run_launch = prof_run_launch,
    .device_close = prof_device_close,
    .detach = prof_detach,
};
