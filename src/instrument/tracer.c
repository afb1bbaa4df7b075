/* The tracer tool: options, the instrumented twins of each module the
 * program loads (rewritten and placed on first use), the run_launch hook,
 * and the outputs written at device close. */
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "instrument/trace_file.h"
#include "instrument/tracer.h"
#include "instrument/tracer_int.h"
#include "runtime/api_lock.h"
#include "runtime/counter_file.h"
#include "runtime/module_file.h"
#include "runtime/settings_text.h"
#include "runtime/tools.h"

static int set_str(char **dst, const char *v)
{
    free(*dst);
    *dst = strdup(v);
    return *dst ? 0 : -1;
}

int tr_options_parse(const char *text, tr_options *o, char *err, size_t len)
{
    memset(o, 0, sizeof *o);
    o->tool = TR_BBCOUNT;
    const char *at = text ? text : "";
    char *copy = malloc(strlen(at) + 1), *item = copy; /* (one item at a time, quotes taken out) */
    if (!copy) { snprintf(err, len, "WARPSCOPE_TRACE: out of memory"); return -1; }
    int rc = 0;
    for (int got; !rc && (got = ws_settings_next(&at, item)) != 0;) {
        if (got < 0) {
            snprintf(err, len, "WARPSCOPE_TRACE: '%.200s': a double quote is not closed", item);
            rc = -1;
            break;
        }
        if (!item[0]) continue;
        char *v = strchr(item, '=');
        if (!v) {
            snprintf(err, len, "WARPSCOPE_TRACE: '%s' is not key=value (keys: tool, out, report, kernel, launch, launches, device, devices, values, counters, time)", item);
            rc = -1;
            break;
        }
        *v++ = 0;
        if (!strcmp(item, "tool")) {
            if (!strcmp(v, "bbcount")) o->tool = TR_BBCOUNT;
            else if (!strcmp(v, "memtrace")) o->tool = TR_MEMTRACE;
            else if (!strcmp(v, "dump")) o->tool = TR_DUMP;
            else if (!strcmp(v, "branch")) o->tool = TR_BRANCH;
            else if (!strcmp(v, "racecheck")) o->tool = TR_RACECHECK;
            else { snprintf(err, len, "WARPSCOPE_TRACE: tool=%s: expected bbcount, memtrace, branch, racecheck or dump", v); rc = -1; }
        } else if (!strcmp(item, "out")) rc = set_str(&o->out, v);
        else if (!strcmp(item, "report")) rc = set_str(&o->report, v);
        else if (!strcmp(item, "kernel")) rc = set_str(&o->kernel, v);
        else if (!strcmp(item, "launches")) rc = set_str(&o->launches, v);
        else if (!strcmp(item, "devices")) rc = set_str(&o->devices, v);
        else if (!strcmp(item, "device")) {
            char *end;
            errno = 0;
            unsigned long long n = strtoull(v, &end, 10);
            if (*v < '0' || *v > '9' || *end || !n || n > UINT32_MAX || errno) {
                snprintf(err, len, "WARPSCOPE_TRACE: device=%s: expected a number from 1", v);
                rc = -1;
            }
            o->device = (uint32_t)n;
        }
        else if (!strcmp(item, "launch")) {
            char *end;
            errno = 0;
            unsigned long long n = strtoull(v, &end, 10);
            if (*v < '0' || *v > '9' || *end || !n || errno) {
                snprintf(err, len, "WARPSCOPE_TRACE: launch=%s: expected a number from 1", v);
                rc = -1;
            }
            o->launch = n;
        } else if (!strcmp(item, "values")) {
            o->values = !strcmp(v, "1");
        } else if (!strcmp(item, "time")) {
            o->host_time = !strcmp(v, "1");
        } else if (!strcmp(item, "join")) {
            o->join = !strcmp(v, "1");
        } else if (!strcmp(item, "counters")) {
            if (strcmp(v, "32") && strcmp(v, "64")) {
                snprintf(err, len, "WARPSCOPE_TRACE: counters=%s: expected 32 (64 when a launch could wrap them) or 64", v);
                rc = -1;
            }
            o->wide_counts = !strcmp(v, "64");
        } else if (!strcmp(item, "short")) {
            char *end;
            unsigned long n = strtoul(v, &end, 10);
            if (!*v || *end || n > 1000000) { snprintf(err, len, "WARPSCOPE_TRACE: short=%s: expected a number", v); rc = -1; }
            o->short_by = (uint32_t)n;
        } else {
            snprintf(err, len, "WARPSCOPE_TRACE: unknown key '%s' (keys: tool, out, report, kernel, launch, launches, device, devices, values, counters, time)", item);
            rc = -1;
        }
    }
    free(copy);
    if (!rc && o->device && !o->devices) { /* (each device would be the first it counts) */
        snprintf(err, len, "WARPSCOPE_TRACE: device=%u needs devices=FILE, the program's device counter that numbers "
                 "its devices as they open", o->device);
        rc = -1;
    }
    if (rc) tr_options_free(o);
    return rc;
}

int ws_tracer_check_spec(const char *spec, char *err, size_t errlen)
{
    tr_options o;
    if (tr_options_parse(spec, &o, err, errlen)) return -1;
    tr_options_free(&o);
    return 0;
}

void tr_options_free(tr_options *o)
{
    free(o->out);
    free(o->report);
    free(o->kernel);
    free(o->launches);
    free(o->devices);
    memset(o, 0, sizeof *o);
}

static void twin_clear(ws_device *dev, tr_twin *tw)
{
    ws_module_unload_twin(dev, tw->count);
    ws_module_unload_twin(dev, tw->record);
    ws_module_unload_twin(dev, tw->count_wide);
    wsi_info_free(&tw->cinfo);
    wsi_info_free(&tw->rinfo);
    wsi_info_free(&tw->wcinfo);
    ws_line_map_free(tw->lines);
    free(tw->error);
    free(tw->name);
    free(tw->text);
    memset(tw, 0, sizeof *tw);
}

/* Rewrite the module twice (counting and recording) and place both. */
static void twin_build(tracer *t, tr_twin *tw, const ws_module *m)
{
    char err[768];
    uint8_t *img = NULL;
    size_t n = 0;
    tw->orig = m;
    tw->name = strdup(m->name);
    if (ws_line_map_build(m->elf, m->elf_size, m->name, &tw->lines, err, sizeof err)) tw->lines = NULL;
    for (int pass = 0; pass < 2; pass++) {
        wsi_mode mode = pass ? WSI_RECORD : WSI_COUNT;
        unsigned flags = tw->flags = t->opt.tool == TR_BRANCH || t->opt.tool == TR_DUMP ? WSI_WARPS
                                   : t->opt.tool == TR_MEMTRACE ? WSI_NO_BLOCKS : 0;
        if (t->opt.values && pass) flags |= WSI_VALUES;
        int rc = pass && t->opt.tool == TR_CUSTOM
                     ? wsi_rewrite_custom(m->elf, m->elf_size, m->name, flags, &t->custom, &img, &n, &tw->rinfo, err, sizeof err)
                     : wsi_rewrite(m->elf, m->elf_size, m->name, mode, flags, &img, &n, pass ? &tw->rinfo : &tw->cinfo,
                                   err, sizeof err);
        if (rc) {
            tw->error = strdup(err);
            return;
        }
        char name[512];
        snprintf(name, sizeof name, "%s [%s]", m->name, pass ? "traced" : "counted");
        const wsi_module_info *inf = pass ? &tw->rinfo : &tw->cinfo;
        ws_status st = ws_module_load_twin(t->dev, img, n, name, inf->orig_ranges, inf->norig,
                                           pass ? &tw->record : &tw->count);
        free(img);
        if (st != WS_OK) {
            tw->error = strdup(t->dev->err);
            return;
        }
    }
}

struct ws_module *tr_twin_wide(tracer *t, tr_twin *tw, char *err, size_t errlen)
{
    if (tw->count_wide || !tw->orig) return tw->count_wide;
    const ws_module *m = tw->orig;
    uint8_t *img = NULL;
    size_t n = 0;
    if (wsi_rewrite(m->elf, m->elf_size, m->name, WSI_COUNT, (tw->flags & WSI_WARPS) | WSI_WIDE_COUNTS, &img, &n,
                    &tw->wcinfo, err, errlen))
        return NULL;
    char name[512];
    snprintf(name, sizeof name, "%s [counted, 64-bit]", m->name);
    if (ws_module_load_twin(t->dev, img, n, name, tw->wcinfo.orig_ranges, tw->wcinfo.norig, &tw->count_wide) !=
        WS_OK) {
        snprintf(err, errlen, "%s", t->dev->err);
        wsi_info_free(&tw->wcinfo);
    }
    free(img);
    return tw->count_wide;
}

static tr_twin *twin_for(tracer *t, const ws_module *m)
{
    for (size_t i = 0; i < t->ntwins; i++)
        if (t->twins[i].orig == m) return &t->twins[i];
    if (t->ntwins == t->twincap) {
        size_t cap = t->twincap ? t->twincap * 2 : 4;
        tr_twin *n = realloc(t->twins, cap * sizeof *n);
        if (!n) return NULL;
        t->twins = n;
        t->twincap = cap;
    }
    tr_twin *tw = &t->twins[t->ntwins++];
    memset(tw, 0, sizeof *tw);
    twin_build(t, tw, m);
    return tw;
}

uint16_t tr_twin_halfword(const tr_twin *tw, uint32_t addr)
{
    uint16_t h = 0;
    if (tw && tw->orig) {
        const ws_module *m = tw->orig;
        const uint32_t off = addr - m->link_base;
        if (off < m->img.size && m->img.size - off >= 2) memcpy(&h, m->img.bytes + off, 2);
    } else if (tw && tw->text) {
        const uint32_t off = addr - tw->text_lo;
        if (off < tw->text_size && tw->text_size - off >= 2) memcpy(&h, tw->text + off, 2);
    }
    return h;
}

/* Which launch of the program this is, counted as launch=N counts: over
 * the program's devices when they share a counter, else this device's. */
static uint64_t launch_number(tracer *t, const ws_tool_launch *info)
{
    t->launches_seen++;
    if (!t->opt.launches) return t->launches_seen;
    const uint64_t n = ws_counter_next(t->opt.launches);
    if (!n)
        fprintf(stderr, "warpscope: trace: launch %llu (%s) runs untraced: the program's launch counter %s: %s\n",
                (unsigned long long)info->launch_id, info->kernel, t->opt.launches, strerror(errno));
    return n;
}

static ws_status run_launch(ws_device *dev, void *user, const ws_tool_launch *info, ws_tool_runner *run)
{
    tracer *t = user;
    ws_grid_run *L = info->device_launch;
    const uint64_t number = launch_number(t, info); /* (counted on every device: --launch is the program's) */
    if (!number || t->untraced || (t->opt.kernel && strcmp(t->opt.kernel, info->kernel)) || (t->opt.launch && t->opt.launch != number))
        return ws_tool_run(run);
    tr_twin *tw = twin_for(t, info->module);
    if (!tw || tw->error) {
        fprintf(stderr, "warpscope: trace: launch %llu (%s in %s) runs untraced: %s\n", (unsigned long long)info->launch_id,
                info->kernel, info->module && info->module->name ? info->module->name : "?", tw ? tw->error : "out of host memory");
        return ws_tool_run(run);
    }
    (void)dev;
    return tr_launch(t, tw, L, number, run);
}

static void module_unloading(ws_device *dev, void *user, const ws_module *m)
{
    tracer *t = user;
    for (size_t i = 0; i < t->ntwins; i++)
        if (t->twins[i].orig == m) { /* reports keep its name, lines and a copy of its code; the twins go */
            tr_twin *tw = &t->twins[i];
            const uint32_t lo = m->img.text_start, n = m->img.text_end - m->img.text_start;
            if (!tw->text && n && lo - m->link_base <= m->img.size && n <= m->img.size - (lo - m->link_base) &&
                (tw->text = malloc(n)) != NULL) {
                memcpy(tw->text, m->img.bytes + (lo - m->link_base), n);
                tw->text_lo = lo;
                tw->text_size = n;
            }
            ws_module_unload_twin(dev, t->twins[i].count);
            ws_module_unload_twin(dev, t->twins[i].record);
            ws_module_unload_twin(dev, t->twins[i].count_wide);
            t->twins[i].count = t->twins[i].record = t->twins[i].count_wide = NULL;
            t->twins[i].orig = NULL;
        }
}

/* How many of the program's devices closed before this one: the count in
 * the trace file they joined (before), or else the reports they appended
 * (each begins "warpscope trace ("). Without a device counter (devices=FILE)
 * devices are numbered by it, as the profiler numbers them, so launches of
 * two devices read apart. */
static uint32_t devices_before(const tracer *t, const ws_trace *before)
{
    if (before) return before->ndevices;
    FILE *f = t->opt.report ? fopen(t->opt.report, "r") : NULL;
    if (!f) return 0;
    char line[256];
    uint32_t n = 0;
    int at_start = 1;
    while (fgets(line, sizeof line, f)) {
        n += at_start && !strncmp(line, "warpscope trace (", 17);
        at_start = strchr(line, '\n') != NULL;
    }
    fclose(f);
    return n;
}

/* The launches an earlier device of the program wrote to the trace file,
 * to write after them (join; each device has its own tracer, and without
 * join the last device's file replaces the others'). NULL: none, or the
 * file cannot be read (err says why; *failed set). */
static ws_trace *joined_file(const tracer *t, int *failed, char *err, size_t errlen)
{
    ws_trace *before = NULL;
    struct stat sb; /* (a device such as /dev/null holds no earlier launches) */
    *failed = 0;
    if (!t->opt.out || !t->opt.join || stat(t->opt.out, &sb) || !S_ISREG(sb.st_mode)) return NULL;
    if (ws_trace_read(t->opt.out, &before, err, errlen) != WS_OK) *failed = 1;
    return before;
}

static int write_out(const tracer *t, const ws_trace *before, char *err, size_t errlen)
{
    if (!before) return wst_write(t->opt.out, &t->trace, err, errlen);
    ws_trace both = { before->nlaunches + t->trace.nlaunches, NULL, t->trace.ndevices };
    int rc = -1;
    if (!(both.launches = malloc((both.nlaunches ? both.nlaunches : 1) * sizeof *both.launches))) {
        snprintf(err, errlen, "%s: out of host memory", t->opt.out);
    } else { /* (shallow copies: each launch is freed by its owner; a side
                * without launches may have no array: NULL is not memcpy's) */
        if (before->nlaunches) memcpy(both.launches, before->launches, before->nlaunches * sizeof *both.launches);
        if (t->trace.nlaunches)
            memcpy(both.launches + before->nlaunches, t->trace.launches, t->trace.nlaunches * sizeof *both.launches);
        rc = wst_write(t->opt.out, &both, err, errlen);
    }
    free(both.launches);
    return rc;
}

static void device_close(ws_device *dev, void *user)
{
    tracer *t = user;
    char err[512];
    int failed = 0;
    (void)dev;
    ws_trace *before = joined_file(t, &failed, err, sizeof err);
    const uint32_t closed_before = devices_before(t, before);
    const uint32_t device = t->device_number ? t->device_number : closed_before + 1;
    /* numbered as they opened, a device may close after a higher number:
     * the program has as many devices as the highest number seen (the
     * file's count), or at least those that reported and this one, or as
     * many as it opened so far (so the first to close names its device
     * when there is another) */
    uint64_t known = before ? closed_before : closed_before + 1;
    const uint64_t opened = t->opt.devices ? ws_counter_value(t->opt.devices) : 0;
    if (opened > known && opened <= UINT32_MAX) known = opened;
    t->trace.ndevices = device > known ? device : (uint32_t)known;
    t->device_number = device; /* (the report's heading names it) */
    for (uint32_t i = 0; i < t->trace.nlaunches; i++) t->trace.launches[i].device = device;
    if (failed || (t->opt.out && write_out(t, before, err, sizeof err))) fprintf(stderr, "warpscope: trace: %s\n", err);
    ws_trace_free(before);
    if (t->opt.host_time) tr_report_host_time(t, stderr);
    if (t->opt.report) {
        FILE *f = fopen(t->opt.report, "a");
        if (!f) fprintf(stderr, "warpscope: trace: cannot write %s: %s\n", t->opt.report, strerror(errno));
        else {
            tr_report(t, f);
            fclose(f);
        }
    }
}

static void detach(ws_device *dev, void *user)
{
    tracer *t = user;
    for (size_t i = 0; i < t->ntwins; i++) twin_clear(dev, &t->twins[i]);
    free(t->twins);
    for (uint32_t i = 0; i < t->trace.nlaunches; i++) wst_launch_free(&t->trace.launches[i]);
    free(t->trace.launches);
    free(t->timing);
    free(t->custom_module);
    tr_options_free(&t->opt);
    free(t);
}

static const ws_tool tracer_tool = {
    .version = WS_TOOL_API_VERSION,
    .name = "tracer",
    .module_unloading = module_unloading,
    .run_launch = run_launch,
    .device_close = device_close,
    .detach = detach,
};

ws_status ws_trace_tool_attach(ws_device *dev, const ws_trace_tool *tool, void *user)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_trace_tool_attach"); /* (its error message, as every call's, is the device's) */
    const int known_version = tool && (tool->version == 1 || tool->version == WS_TRACE_TOOL_VERSION);
    if (!tool || !known_version || !tool->device_module || !tool->device_function ||
        !tool->records || !tool->where)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_trace_tool_attach: %s", !tool ? "tool is NULL"
                            : !known_version ? "tool built for another version of trace.h"
                            : "device_module, device_function, records and where (WS_TRACE_*) are required");
    if (tool->where & ~63u) /* named as what it is, not as a missing field */
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_trace_tool_attach: %s: where = 0x%x has bits no WS_TRACE_* "
                            "point defines (0x%x)", tool->name ? tool->name : "tool", tool->where, tool->where & ~63u);
    if (tool->record_size < 4 || tool->record_size > 56 || tool->record_size % 4)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_trace_tool_attach: %s: record_size %u must be 4..56, a "
                            "multiple of 4", tool->name ? tool->name : "tool", tool->record_size);
    tracer *t = calloc(1, sizeof *t);
    if (!t) return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "ws_trace_tool_attach: out of host memory");
    t->dev = dev;
    t->lanes_per_warp = dev->cfg.lanes_per_warp;
    t->opt.tool = TR_CUSTOM;
    /* (a version 1 tool's struct ends before `device`: not read) */
    memcpy(&t->custom_tool, tool, tool->version == 1 ? offsetof(ws_trace_tool, device) : sizeof *tool);
    t->device_number = t->custom_tool.device;
    t->custom_user = user;
    char err[512];
    size_t len = 0;
    ws_status st = ws_module_file_read(tool->device_module, &t->custom_module, &len, err, sizeof err);
    if (st == WS_OK && (!tool->kernel || (t->opt.kernel = strdup(tool->kernel)))) {
        if (wsi_custom_function(t->custom_module, len, tool->device_module, tool->device_function, &t->custom, err,
                                sizeof err))
            st = WS_ERR_BAD_MODULE;
    } else if (st == WS_OK) {
        st = WS_ERR_OUT_OF_MEMORY;
        snprintf(err, sizeof err, "out of host memory");
    }
    uint32_t slot = 8 + tool->record_size, shift = 3;
    while ((1u << shift) < slot) shift++;
    t->custom.slot_shift = shift;
    t->custom.where = tool->where;
    t->self = tracer_tool;
    t->self.name = tool->name ? tool->name : "trace tool";
    const char *other = st == WS_OK ? ws_tools_replayer(dev) : NULL;
    if (other) { /* (refused here, so the message names both tools once: it said "tracer runs launches
                    itself, and so does tracer", whichever tool the program's was) */
        st = WS_ERR_BUSY;
        snprintf(err, sizeof err, "a trace tool runs launches itself, and so does %s, already attached; only one "
                 "tool may replay launches", other);
    }
    if (st == WS_OK) st = ws_tool_attach(dev, &t->self, t); /* (its refusals say why themselves) */
    else ws_set_error(dev, st, "ws_trace_tool_attach: %s: %s", tool->name ? tool->name : "tool", err);
    if (st != WS_OK) {
        free(t->custom_module);
        tr_options_free(&t->opt);
        free(t);
    }
    return st;
}

ws_status ws_tracer_attach(ws_device *dev, const char *spec)
{
    tracer *t = calloc(1, sizeof *t);
    if (!t) return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "WARPSCOPE_TRACE: out of host memory");
    char err[512];
    if (tr_options_parse(spec, &t->opt, err, sizeof err)) {
        free(t);
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "%s", err);
    }
    t->dev = dev;
    t->lanes_per_warp = dev->cfg.lanes_per_warp;
    if (t->opt.devices && !(t->device_number = (uint32_t)ws_counter_next(t->opt.devices))) {
        ws_status st = ws_set_error(dev, WS_ERR_IO, "WARPSCOPE_TRACE: the program's device counter %s: %s",
                                    t->opt.devices, strerror(errno));
        tr_options_free(&t->opt);
        free(t);
        return st;
    }
    /* device=D: the program's other devices count their launches (launch=N
     * is the program's) and report that they traced none, nothing more */
    t->untraced = t->opt.device && t->opt.device != t->device_number;
    /* Trace buffers live in device memory: give the device the whole global
     * arena while nothing is allocated yet (the mapping is lazy, so unused
     * room costs nothing). docs/tracing.md, "Limits". */
    if (!t->untraced) (void)ws_runtime_grow_arena(dev, (uint64_t)WS_GLOBAL_MAX_END - WS_GLOBAL_BASE);
    t->self = tracer_tool;
    ws_status st = ws_tool_attach(dev, &t->self, t);
    if (st != WS_OK) {
        tr_options_free(&t->opt);
        free(t);
    }
    return st;
}
