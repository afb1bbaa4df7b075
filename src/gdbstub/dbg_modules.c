/* Modules as gdb libraries: the qXfer:libraries list (solib-target), the
 * module files gdb reads with vFile (also for modules built in memory),
 * and the `monitor` commands. */
#include "gdbstub/target_dbg.h"
#include "warpscope/abi.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_MODULES 256
#define MAX_SEGMENTS 8 /* PT_LOADs listed per module (the linker script makes four) */

/* The exit stub at the kernels' return address, as an ELF with a symbol
 * and CFI (kernel/src/exit_stub.S, embedded by the build): gdb loads it
 * like a module, so a kernel's frame has a named, outermost caller. */
extern const unsigned char ws_exit_stub_elf[];
extern const unsigned long ws_exit_stub_elf_size;
#define EXIT_STUB_NAME "/warpscope/exit-stub.elf"

/* gdb's name for a module: its path if absolute, else a made-up path
 * that stays unique (modules loaded from memory have bare names). */
static void library_name(const ws_dbg_module *m, char *out, size_t cap)
{
    if (m->name[0] == '/') snprintf(out, cap, "%s", m->name);
    else snprintf(out, cap, "/warpscope-module/%u/%s", m->id, m->name[0] ? m->name : "module");
}

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The PT_LOAD segments' vaddrs of an ELF32 image, in program-header
 * order (at most `cap`); 0 if it has none or cannot be read. */
static size_t load_vaddrs(const ws_dbg_module *m, uint32_t *out, size_t cap)
{
    const uint8_t *e = m->image;
    size_t n = m->image_size, k = 0;
    if (!e || n < 52 || memcmp(e, "\177ELF", 4) || e[4] != 1) return 0;
    uint32_t phoff = rd32(e + 28);
    uint16_t phentsize = (uint16_t)(e[42] | e[43] << 8), phnum = (uint16_t)(e[44] | e[45] << 8);
    if (phentsize < 32) return 0;
    for (uint32_t i = 0; i < phnum && k < cap; i++) {
        uint64_t off = (uint64_t)phoff + (uint64_t)i * phentsize;
        if (off + 32 > n) break;
        if (rd32(e + off) == 1) out[k++] = rd32(e + off + 8);
    }
    return k;
}

/* Lowest PT_LOAD vaddr of an ELF32 image (link_base if unreadable). */
static uint32_t first_load_vaddr(const ws_dbg_module *m)
{
    uint32_t v[MAX_SEGMENTS], lo = UINT32_MAX;
    size_t k = load_vaddrs(m, v, MAX_SEGMENTS);
    for (size_t i = 0; i < k; i++) lo = v[i] < lo ? v[i] : lo;
    return lo == UINT32_MAX ? m->link_base : lo;
}

/* A module's <segment> elements, one per PT_LOAD in program-header order,
 * as solib-target maps them: code and data where the loader moved them,
 * and static shared memory where it stays, at its link address in every
 * block's shared window. (With one segment given, gdb moves them all by
 * the code's offset, and a shared variable of a module loaded away from
 * its link address read from the wrong place.) */
static void segment_elements(const ws_dbg_module *m, char *out, size_t cap)
{
    uint32_t v[MAX_SEGMENTS];
    size_t k = load_vaddrs(m, v, MAX_SEGMENTS), o = 0;
    if (!k) {
        snprintf(out, cap, "<segment address=\"0x%x\"/>", m->base);
        return;
    }
    for (size_t i = 0; i < k && o < cap; i++) {
        const int shared = v[i] - WS_SHARED_BASE < WS_SHARED_END - WS_SHARED_BASE;
        const uint32_t at = shared ? v[i] : m->base + (v[i] - m->link_base);
        o += (size_t)snprintf(out + o, cap - o, "<segment address=\"0x%x\"/>", at);
    }
}

/* Every resident module (the program may load more meanwhile: the list
 * is taken again until it fits). */
static ws_dbg_module *list_modules(ws_debug *dbg, size_t *n, char *err, size_t errlen)
{
    size_t cap = MAX_MODULES;
    for (;;) {
        ws_dbg_module *mods = malloc(cap * sizeof *mods);
        if (!mods) {
            snprintf(err, errlen, "listing modules: out of host memory");
            return NULL;
        }
        if (ws_debug_modules(dbg, mods, cap, n)) {
            snprintf(err, errlen, "listing modules: %s", ws_debug_error(dbg));
            free(mods);
            return NULL;
        }
        if (*n <= cap) return mods;
        free(mods);
        cap = *n + MAX_MODULES;
    }
}

ws_status ws_gdb_library_xml(const ws_dbg_module *mods, size_t n, char **xml, size_t *len, char *err, size_t errlen)
{
    size_t cap = 192 + n * (640 + MAX_SEGMENTS * 32), o = 0;
    char *x = malloc(cap);
    if (!x) {
        snprintf(err, errlen, "library list: out of host memory");
        return WS_ERR_OUT_OF_MEMORY;
    }
    o += (size_t)snprintf(x + o, cap - o, "<library-list>\n");
    for (size_t i = 0; i < n; i++) {
        char name[512], esc[600];
        size_t k = 0;
        library_name(&mods[i], name, sizeof name);
        for (const char *p = name; *p && k + 6 < sizeof esc; p++) { /* XML attribute */
            if (*p == '"' || *p == '&' || *p == '<') k += (size_t)snprintf(esc + k, sizeof esc - k, "&#%d;", *p);
            else esc[k++] = *p;
        }
        esc[k] = 0;
        char segs[MAX_SEGMENTS * 32];
        segment_elements(&mods[i], segs, sizeof segs);
        o += (size_t)snprintf(x + o, cap - o, "<library name=\"%s\">%s</library>\n", esc, segs);
    }
    ws_dbg_module stub = { .image = ws_exit_stub_elf, .image_size = ws_exit_stub_elf_size };
    o += (size_t)snprintf(x + o, cap - o, "<library name=\"" EXIT_STUB_NAME "\"><segment address=\"0x%x\"/></library>\n",
                          first_load_vaddr(&stub));
    o += (size_t)snprintf(x + o, cap - o, "</library-list>\n");
    *xml = x;
    *len = o;
    return WS_OK;
}

ws_status ws_gdb_library_list(ws_debug *dbg, char **xml, size_t *len, char *err, size_t errlen)
{
    size_t n;
    ws_dbg_module *mods = list_modules(dbg, &n, err, errlen);
    if (!mods) return WS_ERR_INTERNAL;
    ws_status st = ws_gdb_library_xml(mods, n, xml, len, err, errlen);
    free(mods);
    return st;
}

ws_status ws_gdb_module_file_in(const ws_dbg_module *mods, size_t n, const char *name, const uint8_t **data,
                                size_t *size, char *err, size_t errlen)
{
    if (!strcmp(name, EXIT_STUB_NAME)) {
        *data = ws_exit_stub_elf;
        *size = ws_exit_stub_elf_size;
        return WS_OK;
    }
    for (size_t i = 0; i < n; i++) {
        char lname[512];
        library_name(&mods[i], lname, sizeof lname);
        if (!strcmp(lname, name) && mods[i].image) {
            *data = mods[i].image;
            *size = mods[i].image_size;
            return WS_OK;
        }
    }
    snprintf(err, errlen, "no module named %s", name);
    return WS_ERR_NOT_FOUND;
}

ws_status ws_gdb_module_file(ws_debug *dbg, const char *name, const uint8_t **data, size_t *size, char *err,
                             size_t errlen)
{
    size_t n;
    ws_dbg_module *mods = list_modules(dbg, &n, err, errlen);
    if (!mods) return WS_ERR_INTERNAL;
    ws_status st = ws_gdb_module_file_in(mods, n, name, data, size, err, errlen); /* images live until unload */
    free(mods);
    return st;
}

ws_status ws_gdb_dbg_libraries(void *tp, char **xml, size_t *len)
{
    ws_gdb_dbg *t = tp;
    char err[256];
    ws_status st = ws_gdb_library_list(t->dbg, xml, len, err, sizeof err);
    return st ? ws_gdb_fail(t, st, "%s", err) : WS_OK;
}

ws_status ws_gdb_dbg_file(void *tp, const char *name, const uint8_t **data, size_t *size)
{
    ws_gdb_dbg *t = tp;
    char err[600];
    ws_status st = ws_gdb_module_file(t->dbg, name, data, size, err, sizeof err);
    return st ? ws_gdb_fail(t, st, "%s", err) : WS_OK;
}

/* Why warp w halted (cause c). A halt request is gdb's interrupt for the
 * warp that answered it, and in non-stop for every warp (nothing stops
 * with another there); in all-stop the others stopped with a warp. */
static const char *cause_name(ws_gdb_dbg *t, uint32_t c, uint32_t w)
{
    int deadlock = 0;
    switch (c) {
    case WS_DCSR_CAUSE_EBREAK: return "breakpoint";
    case WS_DCSR_CAUSE_TRIGGER: return "trigger";
    case WS_DCSR_CAUSE_HALTREQ:
        return t->non_stop || t->interrupted_warp == w + 1 ? "interrupted by gdb" : "stopped with the others";
    case WS_DCSR_CAUSE_STEP: return "step";
    case WS_DCSR_CAUSE_FAULT: return "fault";
    case WS_DCSR_CAUSE_MACHINE:
        return ws_debug_deadlock_stop(t->dbg, &deadlock) == WS_OK && deadlock ? "deadlock" : "debug machine";
    default: return "halted";
    }
}

/* monitor kernels: the running launch (cuda-gdb's `info cuda kernels`). */
static char *kernels_text(ws_gdb_dbg *t)
{
    ws_dbg_launch L;
    char buf[400];
    if (ws_debug_launch(t->dbg, &L) != WS_OK) return strdup("no kernel running\n");
    snprintf(buf, sizeof buf,
             "launch %llu: kernel %s<<<(%u,%u,%u),(%u,%u,%u)>>> at 0x%08x; blocks: %llu done, %llu running or "
             "placed, %llu pending, %llu in all\n",
             (unsigned long long)L.id, L.kernel, L.grid.x, L.grid.y, L.grid.z, L.block.x, L.block.y, L.block.z,
             L.entry, (unsigned long long)L.blocks_done, (unsigned long long)(L.blocks_dispatched - L.blocks_done),
             (unsigned long long)(L.blocks_total - L.blocks_dispatched), (unsigned long long)L.blocks_total);
    return strdup(buf);
}

/* monitor blocks / warps: the resident blocks, or warps, from the lanes. */
static char *groups_text(ws_gdb_dbg *t, int warps)
{
    if (ws_gdb_lanes_refresh(t)) return NULL;
    size_t cap = 128 + t->nlanes * 160, o = 0;
    char *out = malloc(cap);
    if (!out) return NULL;
    out[0] = 0;
    size_t groups = 0;
    for (size_t i = 0; i < t->nlanes;) {
        const ws_dbg_lane *f = &t->lanes[i];
        uint32_t w = f->hart / t->cfg.lanes_per_warp, live = 0, halted = 0, pc_lo = UINT32_MAX;
        size_t j = i;
        for (; j < t->nlanes; j++) { /* lanes are in hart order: a warp's, then a block's, are adjacent */
            const ws_dbg_lane *l = &t->lanes[j];
            int same = warps ? l->hart / t->cfg.lanes_per_warp == w
                             : l->core == f->core && l->block.x == f->block.x && l->block.y == f->block.y &&
                               l->block.z == f->block.z;
            if (!same) break;
            live++;
            halted += l->halted != 0;
            if (l->pc < pc_lo) pc_lo = l->pc;
        }
        if (warps && t->warp_stops) /* threads=warp: the warp is gdb's Thread 2 + w */
            o += (size_t)snprintf(out + o, cap - o, "  Thread %u:", 2 + w);
        if (warps)
            o += (size_t)snprintf(out + o, cap - o,
                                  " %score %u warp %u: block (%u,%u,%u), %u live lanes, lowest pc 0x%08x, %s%s\n",
                                  t->warp_stops ? "" : " ", f->core, f->warp, f->block.x, f->block.y, f->block.z, live, pc_lo,
                                  halted ? "halted: " : "running", halted ? cause_name(t, f->cause, w) : "");
        else
            o += (size_t)snprintf(out + o, cap - o, "  block (%u,%u,%u) on core %u: %u live threads, %u halted\n",
                                  f->block.x, f->block.y, f->block.z, f->core, live, halted);
        groups++;
        i = j;
    }
    char head[96];
    snprintf(head, sizeof head, "%zu resident %s\n", groups, warps ? "warp(s)" : "block(s)");
    size_t hl = strlen(head);
    char *all = malloc(hl + o + 1);
    if (all) {
        memcpy(all, head, hl);
        memcpy(all + hl, out, o + 1);
    }
    free(out);
    return all;
}

/* monitor breakpoints: how each breakpoint is held, and how often warps
 * halted at one (a condition evaluated in hardware spares the rest). */
static char *breakpoints_text(ws_gdb_dbg *t)
{
    static const char *kinds[] = { "breakpoint", "hw breakpoint", "write watchpoint", "read watchpoint",
                                   "access watchpoint" };
    size_t cap = 160 + WS_GDB_MAX_BP * 128, o = 0;
    char *out = malloc(cap);
    if (!out) return NULL;
    out[0] = 0;
    for (int i = 0; i < WS_GDB_MAX_BP; i++) {
        const ws_gdb_bp *b = &t->bps[i];
        if (!b->used) continue;
        const char *how = b->exit_stub ? "exit stub, execute trigger"
                        : b->cond_trig ? "execute trigger, condition in hardware"
                        : b->type == WS_GDB_BP_SW ? (b->nconds ? "ebreak, condition in the server" : "ebreak")
                                                  : "trigger";
        o += (size_t)snprintf(out + o, cap - o, "  0x%08x %s: %s", b->addr, kinds[b->type], how);
        if (ws_gdb_bp_uses_trigger(b)) o += (size_t)snprintf(out + o, cap - o, " %d", b->trig);
        if (ws_gdb_bp_uses_trigger(b) && b->chained) o += (size_t)snprintf(out + o, cap - o, "+%d", b->trig + 1);
        o += (size_t)snprintf(out + o, cap - o, "\n");
    }
    if (!o) o += (size_t)snprintf(out + o, cap - o, "no breakpoint inserted now (gdb inserts them as it resumes)\n");
    o += (size_t)snprintf(out + o, cap - o, "warp halts at breakpoints since gdb attached: %llu\n",
                          (unsigned long long)t->bp_halts);
    return out;
}

static char *lanes_text(ws_gdb_dbg *t)
{
    if (ws_gdb_lanes_refresh(t)) return NULL;
    size_t cap = 128 + t->nlanes * 160, o = 0;
    char *out = malloc(cap);
    if (!out) return NULL;
    o += (size_t)snprintf(out, cap, "%zu live lane(s)\n", t->nlanes);
    for (size_t i = 0; i < t->nlanes; i++) {
        const ws_dbg_lane *l = &t->lanes[i];
        /* gdb's Target Id of the lane, or (threads=warp) of its warp */
        uint32_t tid = t->warp_stops ? 2 + l->hart / t->cfg.lanes_per_warp : WS_GDB_TID(l->hart);
        o += (size_t)snprintf(out + o, cap - o,
                              "  Thread %u: block (%u,%u,%u) thread (%u,%u,%u) core %u warp %u lane %u pc 0x%08x %s\n",
                              tid, l->block.x, l->block.y, l->block.z, l->thread.x, l->thread.y,
                              l->thread.z, l->core, l->warp, l->lane, l->pc, l->halted ? "halted" : "running");
    }
    return out;
}

/* A machine program through the debug module's EV* registers (the way any
 * debug-bus client would load it). */
static ws_status load_machine(ws_gdb_dbg *t, const ws_machine_program *p)
{
    uint32_t words[128], n = ws_debug_machine_words(p, words, 128), ctl = 1;
    ws_status st = ws_dmi_write(t->dbg, 0, WS_DM_EVCTL, 4); /* clear the staging area */
    if (st == WS_OK) st = ws_dmi_write(t->dbg, 0, WS_DM_EVSEL, 0);
    for (uint32_t i = 0; st == WS_OK && i < n; i++) st = ws_dmi_write(t->dbg, 0, WS_DM_EVDATA, words[i]);
    if (st == WS_OK) st = ws_dmi_write(t->dbg, 0, WS_DM_EVCTL, 1);
    if (st == WS_OK) st = ws_dmi_read(t->dbg, 0, WS_DM_EVCTL, &ctl);
    return st == WS_OK && (ctl & 1) ? WS_ERR_BUSY : st;
}

/* A growing text (monitor answers of any length); NULL once out of memory. */
typedef struct grow_text {
    char *s;
    size_t len, cap;
} grow_text;

static void grow_put(grow_text *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void grow_put(grow_text *g, const char *fmt, ...)
{
    if (!g->s) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if (g->len + (size_t)n + 1 > g->cap) {
        size_t cap = 2 * (g->len + (size_t)n + 1);
        char *b = realloc(g->s, cap);
        if (!b) {
            free(g->s);
            g->s = NULL;
            return;
        }
        g->s = b;
        g->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(g->s + g->len, g->cap - g->len, fmt, ap);
    va_end(ap);
    g->len += (size_t)n;
}

/* One machine's state, in words. */
static void machine_state(grow_text *g, const ws_dbg_machine *m)
{
    const ws_machine_status *st = &m->status;
    if (m->queued)
        grow_put(g, "queued: not in a machine yet (the device takes it at its next safe point, into a machine free "
                    "for the debugger; it waits while all eight are armed or the program's)");
    else if (st->enabled)
        grow_put(g, "armed, waiting on step %u of %u", st->step + 1, m->program.nwatch);
    else if (st->done)
        grow_put(g, "done");
    else
        grow_put(g, "disabled (a machine's enable=%u arms it)", m->index);
    if (!m->queued) grow_put(g, ", fired %llu time%s", (unsigned long long)st->fired, st->fired == 1 ? "" : "s");
    if (st->counter) grow_put(g, ", count %llu", (unsigned long long)st->counter);
}

/* Which unit halts the debugger's machines hold, as the device showed them
 * at its last stop (EVCTL bits 1 and 2), for a message; NULL: none. */
static const char *machine_halts_held(ws_gdb_dbg *t)
{
    uint32_t v = 0;
    if (ws_dmi_read(t->dbg, 0, WS_DM_EVCTL, &v) != WS_OK) return NULL;
    switch (v >> 1 & 3) {
    case 1: return "work distributor's";
    case 2: return "command processor's";
    case 3: return "work distributor's and command processor's";
    default: return NULL;
    }
}

/* `monitor watch`: the last halt's reason, then every machine on the bus,
 * whose it is, its program and its state, as the device last showed them;
 * then the debugger's programs still queued. */
static char *watch_list_text(ws_gdb_dbg *t)
{
    grow_text g = { .s = malloc(256), .cap = 256 };
    if (!g.s) return NULL;
    g.s[0] = 0;
    char reason[1024];
    if (ws_debug_stop_reason(t->dbg, reason, sizeof reason) == WS_OK) grow_put(&g, "%s\n", reason);
    else grow_put(&g, "no debug machine has halted the device; 'monitor help' shows the syntax\n");
    ws_dbg_machine ms[2 * WS_EV_MACHINES];
    size_t n = 0;
    if (ws_debug_machines(t->dbg, ms, sizeof ms / sizeof *ms, &n) != WS_OK) n = 0;
    if (n > sizeof ms / sizeof *ms) n = sizeof ms / sizeof *ms;
    if (!n) grow_put(&g, "no debug machine is loaded\n");
    else grow_put(&g, "debug machines (as the device showed them at its last stop):\n");
    for (size_t i = 0; i < n; i++) {
        size_t len = ws_events_machine_text(&ms[i].program, NULL, 0) + 1;
        char *text = malloc(len);
        if (!text) continue;
        ws_events_machine_text(&ms[i].program, text, len);
        grow_put(&g, "  %s %u, the %s's: '%s'\n    ", ms[i].queued ? "queued" : "machine", ms[i].index,
                 ms[i].debugger ? "debugger" : "program", text);
        machine_state(&g, &ms[i]);
        grow_put(&g, "\n");
        free(text);
    }
    return g.s;
}

ws_status ws_gdb_dbg_monitor(void *tp, const char *cmd, char **out)
{
    ws_gdb_dbg *t = tp;
    char buf[1400];
    if (!strcmp(cmd, "help")) {
        *out = strdup("monitor commands:\n"
                      "  kernels                           the running launch: kernel, grid, block, progress\n"
                      "  blocks                            resident blocks: core, live and halted threads\n"
                      "  warps                             resident warps: block, live lanes, pc, state\n"
                      "  focus block X [Y Z] thread X [Y Z]  which gdb thread runs these coordinates\n"
                      "                                    (threads=warp: that lane becomes its warp's focus)\n"
                      "  thread block X Y Z thread X Y Z   the same\n"
                      "  lanes                             every live lane (Thread N = gdb's Target Id: of\n"
                      "                                    the lane, or with threads=warp of its warp)\n"
                      "  breakpoints                       how each breakpoint is held; warp halts at them\n"
                      "  fault                             the device's report of the last fault\n"
                      "  modules                           resident modules and their addresses\n"
                      "  watch                             the last machine halt, and every debug machine:\n"
                      "                                    whose (program or debugger), program, state\n"
                      "  watch EVENT ... do ACTION[; ...]  load a debug machine (docs/events.md), e.g.\n"
                      "                                    watch wd.dispatch data=7 then sched.barrier_wait do halt\n"
                      "  watch resume                      release the wd/cp halts the debugger's machines\n"
                      "                                    caused; the machines stay loaded and armed\n"
                      "  watch clear                       unload the debugger's debug machines (and release\n"
                      "                                    the wd/cp halts they caused)\n");
    } else if (!strcmp(cmd, "lanes")) {
        *out = lanes_text(t);
    } else if (!strcmp(cmd, "breakpoints")) {
        *out = breakpoints_text(t);
    } else if (!strcmp(cmd, "kernels")) {
        *out = kernels_text(t);
    } else if (!strcmp(cmd, "blocks") || !strcmp(cmd, "warps")) {
        *out = groups_text(t, cmd[0] == 'w');
    } else if (!strcmp(cmd, "fault")) {
        ws_dbg_fault f;
        if (ws_debug_fault(t->dbg, &f) == WS_OK) snprintf(buf, sizeof buf, "%s\n", f.message);
        else snprintf(buf, sizeof buf, "no fault\n");
        *out = strdup(buf);
    } else if (!strncmp(cmd, "watch", 5) && (cmd[5] == ' ' || !cmd[5])) {
        const char *text = cmd + 5;
        while (*text == ' ') text++;
        ws_machine_program p;
        int print;
        char err[256];
        if (!*text) {
            *out = watch_list_text(t);
            return *out ? WS_OK : WS_ERR_OUT_OF_MEMORY;
        } else if (!strcmp(text, "resume")) {
            const char *held = machine_halts_held(t);
            ws_dmi_write(t->dbg, 0, WS_DM_EVCTL, 8);
            if (held)
                snprintf(buf, sizeof buf, "the %s halt that the debugger's debug machines caused will be released at "
                         "the device's next safe point; the machines stay loaded and armed (the program's halts "
                         "stay)\n", held);
            else
                snprintf(buf, sizeof buf, "the debugger's debug machines hold no halt of the work distributor or "
                         "command processor (as the device showed them at its last stop): nothing to release; the "
                         "machines stay loaded and armed\n");
        } else if (!strcmp(text, "clear")) {
            const char *held = machine_halts_held(t);
            ws_dmi_write(t->dbg, 0, WS_DM_EVCTL, 2);
            snprintf(buf, sizeof buf, "the debugger's debug machines will be unloaded at the device's next safe point%s%s%s "
                     "(the program's machines and halts stay)\n", held ? ", and the " : "", held ? held : "",
                     held ? " halt they caused released" : "; they held no halt at its last stop");
        } else if (ws_events_parse_machine(text, &p, &print, err, sizeof err) != WS_OK) {
            snprintf(buf, sizeof buf, "watch: %s\n", err);
        } else if (ws_debug_machine_program_only_action(&p)) {
            snprintf(buf, sizeof buf, "watch: '%s' acts on the program's event trace or callback, which a debugger's "
                     "machine does not touch (docs/events.md, \"Who holds the bus\")\n",
                     ws_debug_machine_program_only_action(&p));
        } else if (load_machine(t, &p) != WS_OK) {
            snprintf(buf, sizeof buf, "watch: the debug module refused the program (%d machines already queued?)\n",
                     WS_EV_MACHINES);
        } else {
            snprintf(buf, sizeof buf, "debug machine loaded at the device's next safe point: %s\n", text);
        }
        *out = strdup(buf);
    } else if (!strcmp(cmd, "modules")) {
        size_t n, o = 0;
        char err[256];
        ws_dbg_module *mods = list_modules(t->dbg, &n, err, sizeof err);
        if (!mods) return ws_gdb_fail(t, WS_ERR_INTERNAL, "%s", err);
        /* every module, however many and however long their paths */
        size_t cap = 32 + n * (sizeof mods->name + 48);
        char *text = n ? malloc(cap) : strdup("no modules\n");
        for (size_t i = 0; text && i < n; i++)
            o += (size_t)snprintf(text + o, cap - o, "%u %s at 0x%08x, %u bytes\n", mods[i].id, mods[i].name,
                                  mods[i].base, mods[i].size);
        free(mods);
        *out = text;
    } else {
        return WS_ERR_NOT_FOUND;
    }
    return *out ? WS_OK : WS_ERR_OUT_OF_MEMORY;
}
