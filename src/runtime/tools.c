/* Attached tools and the order they are called in (tool.h). The device
 * knows no tool: it calls dev->launch_hook for each launch, which is
 * tools_launch below when a device is opened. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "runtime/api_lock.h"
#include "runtime/runtime.h"
#include "runtime/tools.h"

typedef struct tool_slot {
    const ws_tool *tool;
    void *user;
} tool_slot;

struct ws_tool_list {
    tool_slot *slots;
    size_t n, cap;
    int depth;            /* callbacks running now (the list must outlive them) */
    int closing;          /* ws_tools_close has begun: nothing new attaches */
};

int ws_tools_in_callback(const ws_device *dev) { return dev->tools && dev->tools->depth > 0; }

struct ws_tool_runner {
    ws_device *dev;
    ws_grid_run *launch;
    ws_launch_fn run;
    ws_grid_run queued;   /* the launch as queued: each run starts from it */
    unsigned runs;
};

ws_status ws_tool_error(ws_device *dev, ws_status st, const char *fmt, ...)
{
    if (!dev) return st;
    char msg[WS_ERRLEN];
    va_list ap;
    va_start(ap, fmt);
    if (!fmt || vsnprintf(msg, sizeof msg, fmt, ap) < 0) snprintf(msg, sizeof msg, "a tool failed");
    va_end(ap);
    return ws_set_error(dev, st, "%s", msg);
}

ws_status ws_tool_hand_back(ws_device *dev, ws_status st, const char *report)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_tool_hand_back"); /* before a refusal: it writes the device's message */
    if (st != WS_ERR_KERNEL_FAULT && st != WS_ERR_KERNEL_ASSERT && st != WS_ERR_DEADLOCK && st != WS_ERR_TIMEOUT &&
        st != WS_ERR_INTERRUPTED)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_tool_hand_back: %s is not a failure of queued work",
                            ws_status_name(st));
    /* The report is the failure's message, which the program's next wait
     * returns as its own (until 2026-11-29 a NULL one was accepted, and
     * that wait reported a failure whose whole message was the status's
     * name). */
    if (!report || !report[0])
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_tool_hand_back(%s): report is %s; pass the failure's "
                            "message (ws_last_error's, read when the tool's wait failed)", ws_status_name(st),
                            report ? "empty" : "NULL");
    dev->handed_back = st;
    snprintf(dev->handed_back_msg, sizeof dev->handed_back_msg, "%s", report);
    return WS_OK;
}

ws_status ws_tool_set_exit_status(ws_device *dev, int status)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_tool_set_exit_status");
    dev->exit_status = status;
    dev->exit_status_known = 1;
    return WS_OK;
}

/* A tool callback failed with st: its own message, or one that names it. */
static ws_status said(ws_device *dev, ws_status st, const char *tool, const char *callback)
{
    if (!dev->err[0])
        ws_set_error(dev, st, "%s: its %s callback returned %s without a message", tool, callback, ws_status_name(st));
    return st;
}

static ws_tool_launch describe(const ws_grid_run *L)
{
    return (ws_tool_launch){ .launch_id = L->id, .kernel = L->kernel_name, .module = L->kernel->mod,
                             .grid = L->grid, .block = L->block, .dynamic_shared = L->dyn_shared,
                             .device_launch = (void *)L };
}

/* Every launch: begin events in attach order, the run (by the tool that
 * replays launches, if one is attached), end events newest tool first. */
static ws_status tools_launch(ws_device *dev, ws_grid_run *L, ws_launch_fn run)
{
    struct ws_tool_list *tl = dev->tools;
    if (!tl || !tl->n) return run(dev, L);
    ws_tool_launch info = describe(L);
    const tool_slot *runner_slot = NULL;
    dev->tool_launch_depth++; /* the API refuses calls that would change the device now */
    dev->tool_launch_id = L->id;
    for (size_t i = 0; i < tl->n; i++) {
        if (tl->slots[i].tool->launch_begin) tl->slots[i].tool->launch_begin(dev, tl->slots[i].user, &info);
        if (tl->slots[i].tool->run_launch) runner_slot = &tl->slots[i];
    }
    ws_status st;
    if (runner_slot) {
        ws_tool_runner r = { dev, L, run, *L, 0 };
        dev->err[0] = 0;
        st = runner_slot->tool->run_launch(dev, runner_slot->user, &info, &r);
        const char *who = runner_slot->tool->name ? runner_slot->tool->name : "a tool";
        if (st != WS_OK) said(dev, st, who, "run_launch");
        /* the program's kernel never ran, yet the launch would succeed
         * (its results silently the buffers' old contents) */
        else if (!r.runs)
            st = ws_set_error(dev, WS_ERR_INVALID_ARG, "%s: its run_launch callback returned WS_OK without running "
                              "launch %llu of kernel '%s' (ws_tool_run): the kernel did not run", who,
                              (unsigned long long)L->id, L->kernel_name ? L->kernel_name : "?");
    } else {
        st = run(dev, L);
    }
    /* The launch's report, kept apart from dev->err: a tool's refused call
     * in launch_end overwrites dev->err, and neither the tools after it nor
     * the application may see that message instead of the launch's. */
    char report[WS_ERRLEN];
    if (st != WS_OK) memcpy(report, dev->err, sizeof report);
    info.status = st;
    info.error = st != WS_OK ? report : NULL;
    info.stats = &L->stats;
    for (size_t i = tl->n; i-- > 0;)
        if (tl->slots[i].tool->launch_end) tl->slots[i].tool->launch_end(dev, tl->slots[i].user, &info);
    if (st != WS_OK) memcpy(dev->err, report, sizeof report);
    dev->tool_launch_depth--;
    return st;
}

void ws_tools_init(ws_device *dev) { dev->launch_hook = tools_launch; }

ws_status ws_tool_run(ws_tool_runner *r)
{
    if (!r) return WS_ERR_INVALID_ARG;
    if (r->runs++) *r->launch = r->queued; /* device memory is the tool's to restore */
    return r->run(r->dev, r->launch);
}

ws_status ws_tool_run_entry(ws_tool_runner *r, uint32_t entry)
{
    if (!r) return WS_ERR_INVALID_ARG;
    if (r->runs++) *r->launch = r->queued;
    r->launch->entry = r->launch->body = entry;
    return r->run(r->dev, r->launch);
}

/* Can tool/user join the list as it is now? */
static ws_status may_attach(ws_device *dev, const struct ws_tool_list *tl, const ws_tool *tool, void *user,
                            const char *name)
{
    for (size_t i = 0; i < tl->n; i++) {
        if (tl->slots[i].tool == tool && tl->slots[i].user == user)
            return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_tool_attach: %s is already attached", name);
        if (tool->run_launch && tl->slots[i].tool->run_launch)
            return ws_set_error(dev, WS_ERR_BUSY, "ws_tool_attach: %s runs launches itself, and so does %s, "
                                "already attached; only one tool may replay launches", name,
                                tl->slots[i].tool->name ? tl->slots[i].tool->name : "another tool");
    }
    return WS_OK;
}

const char *ws_tools_replayer(const ws_device *dev)
{
    const struct ws_tool_list *tl = dev->tools;
    for (size_t i = 0; tl && i < tl->n; i++)
        if (tl->slots[i].tool->run_launch) return tl->slots[i].tool->name ? tl->slots[i].tool->name : "another tool";
    return NULL;
}

/* A free slot at the end of the list. */
static ws_status make_room(ws_device *dev, struct ws_tool_list *tl)
{
    if (tl->n < tl->cap) return WS_OK;
    size_t cap = tl->cap ? tl->cap * 2 : 4;
    tool_slot *s = realloc(tl->slots, cap * sizeof *s);
    if (!s) return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "ws_tool_attach: out of host memory");
    tl->slots = s;
    tl->cap = cap;
    return WS_OK;
}

ws_status ws_tool_attach(ws_device *dev, const ws_tool *tool, void *user)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_tool_attach");
    if (!tool) return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_tool_attach: tool is NULL");
    const char *name = tool->name ? tool->name : "tool";
    if (tool->version != WS_TOOL_API_VERSION && tool->version != 1)
        return ws_set_error(dev, WS_ERR_UNSUPPORTED, "ws_tool_attach: %s was built for tool API version %d; "
                            "this library has versions 1 and %d", name, tool->version, WS_TOOL_API_VERSION);
    if (!dev->tools && !(dev->tools = calloc(1, sizeof *dev->tools)))
        return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "ws_tool_attach: out of host memory");
    struct ws_tool_list *tl = dev->tools;
    if (tl->closing) /* (a detach that attached would be detached, and attach again, forever) */
        return ws_set_error(dev, WS_ERR_BUSY, "ws_tool_attach: %s: the device is closing", name);
    ws_status st = may_attach(dev, tl, tool, user, name);
    if (st == WS_OK) st = make_room(dev, tl);
    if (st != WS_OK) return st;
    if (tool->attach) {
        tl->depth++;
        dev->err[0] = 0; /* (an earlier call's message would explain nothing) */
        st = tool->attach(dev, user);
        tl->depth--;
        if (st != WS_OK) return said(dev, st, name, "attach");
        /* Its attach may have attached tools itself: the room made above
         * may be taken (the slot written below overflowed the list), and
         * the list may now hold this tool, or another that replays
         * launches. (Refused now, it gets no detach, as for any failed
         * attach.) */
        st = may_attach(dev, tl, tool, user, name);
        if (st == WS_OK) st = make_room(dev, tl);
        if (st != WS_OK) return st;
    }
    tl->slots[tl->n++] = (tool_slot){ tool, user };
    return WS_OK;
}

ws_status ws_tool_detach(ws_device *dev, const ws_tool *tool, void *user)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_tool_detach");
    struct ws_tool_list *tl = dev->tools;
    for (size_t i = 0; tl && i < tl->n; i++)
        if (tl->slots[i].tool == tool && tl->slots[i].user == user) {
            memmove(&tl->slots[i], &tl->slots[i + 1], (tl->n - i - 1) * sizeof *tl->slots);
            tl->n--;
            tl->depth++;
            if (tool->detach) tool->detach(dev, user);
            tl->depth--;
            return WS_OK;
        }
    return ws_set_error(dev, WS_ERR_NOT_FOUND, "ws_tool_detach: %s is not attached to this device",
                        tool && tool->name ? tool->name : "the tool");
}

/* Outside a launch a callback may attach and detach tools, which moves
 * the slots under a walk by index (a tool that detached itself made the
 * next one miss the call; one that detached an earlier tool was called
 * twice). A walk goes over the tools attached when the event began, in
 * order, and calls each that is still attached. */
enum { EV_LOADED, EV_UNLOADING, EV_FRAME_BEGIN, EV_FRAME_PRESENT, EV_CLOSE };

static int still_attached(const struct ws_tool_list *tl, tool_slot s)
{
    for (size_t i = 0; i < tl->n; i++)
        if (tl->slots[i].tool == s.tool && tl->slots[i].user == s.user) return 1;
    return 0;
}

static void call_one(ws_device *dev, tool_slot s, int event, const ws_module *m, uint64_t frame)
{
    const ws_tool *t = s.tool;
    switch (event) {
    case EV_LOADED: if (t->module_loaded) t->module_loaded(dev, s.user, m); break;
    case EV_UNLOADING: if (t->module_unloading) t->module_unloading(dev, s.user, m); break;
    case EV_FRAME_BEGIN: if (t->version >= 2 && t->frame_begin) t->frame_begin(dev, s.user, frame); break;
    case EV_FRAME_PRESENT: if (t->version >= 2 && t->frame_present) t->frame_present(dev, s.user, frame); break;
    case EV_CLOSE: if (t->device_close) t->device_close(dev, s.user); break;
    }
}

static void walk(ws_device *dev, int event, int reverse, const ws_module *m, uint64_t frame)
{
    struct ws_tool_list *tl = dev->tools;
    if (!tl || !tl->n) return;
    tool_slot fixed[16], *order = tl->n <= 16 ? fixed : malloc(tl->n * sizeof *order);
    const size_t n = tl->n;
    tl->depth++;
    if (order) {
        memcpy(order, tl->slots, n * sizeof *order);
        for (size_t k = 0; k < n; k++) {
            tool_slot s = order[reverse ? n - 1 - k : k];
            if (still_attached(tl, s)) call_one(dev, s, event, m, frame);
        }
        if (order != fixed) free(order);
    } else { /* out of host memory: by index, as before */
        for (size_t k = 0; k < tl->n; k++) call_one(dev, tl->slots[reverse ? tl->n - 1 - k : k], event, m, frame);
    }
    tl->depth--;
}

void ws_tools_module_loaded(ws_device *dev, const ws_module *m) { walk(dev, EV_LOADED, 0, m, 0); }

void ws_tools_module_unloading(ws_device *dev, const ws_module *m) { walk(dev, EV_UNLOADING, 1, m, 0); }

void ws_tools_frame(ws_device *dev, uint64_t frame, int begin)
{
    walk(dev, begin ? EV_FRAME_BEGIN : EV_FRAME_PRESENT, 0, NULL, frame);
}

void ws_tools_close(ws_device *dev)
{
    struct ws_tool_list *tl = dev->tools;
    if (!tl) return;
    tl->closing = 1;
    tl->depth++; /* (ws_device_close from these callbacks is refused) */
    walk(dev, EV_CLOSE, 1, NULL, 0);
    while (tl->n) { /* newest first; a detach cannot attach anything new (closing) */
        tool_slot s = tl->slots[--tl->n];
        if (s.tool->detach) s.tool->detach(dev, s.user);
    }
    tl->depth--;
    free(tl->slots);
    free(tl);
    dev->tools = NULL;
}
