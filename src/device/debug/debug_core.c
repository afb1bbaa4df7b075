/* Attaching the debug hardware, the event queue a tool waits on, and the
 * application-thread events (module load/unload, launch start/end, device
 * close) that may park the application until the tool releases it. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include "device/debug/debug_internal.h"

ws_status dbg_fail(ws_debug *d, ws_status s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->err, sizeof d->err, fmt, ap);
    va_end(ap);
    return s;
}

const char *ws_debug_error(const ws_debug *dbg) { return dbg ? dbg->err : "no debug handle"; }
ws_device *ws_debug_device(ws_debug *dbg) { return dbg ? dbg->dev : NULL; }

void dbg_wake_device_locked(ws_debug *d)
{
    atomic_store(&d->attention, 1);
    pthread_cond_broadcast(&d->dev_cv);
}

void dbg_requests_done_locked(ws_debug *d) { pthread_cond_broadcast(&d->req_cv); }

void dbg_invalidate_locked(ws_debug *d, uint32_t lo, uint32_t hi)
{
    if (d->ninval == DBG_INVAL_MAX) { /* full: widen the last range */
        uint32_t *r = d->inval[DBG_INVAL_MAX - 1];
        if (lo < r[0]) r[0] = lo;
        if (hi > r[1]) r[1] = hi;
    } else {
        d->inval[d->ninval][0] = lo;
        d->inval[d->ninval][1] = hi;
        d->ninval++;
    }
    dbg_wake_device_locked(d);
}

void dbg_push_event_locked(ws_debug *d, ws_dbg_event_kind kind, uint32_t hart, uint32_t module,
                           uint64_t launch_id, ws_status st)
{
    if (d->evlen == d->evcap) {
        size_t cap = d->evcap ? d->evcap * 2 : 64;
        ws_dbg_event *q = malloc(cap * sizeof *q);
        if (!q) return; /* out of host memory: the event is lost, state is not */
        for (size_t i = 0; i < d->evlen; i++) q[i] = d->evq[(d->evhead + i) % d->evcap];
        free(d->evq);
        d->evq = q;
        d->evcap = cap;
        d->evhead = 0;
    }
    ws_dbg_event *e = &d->evq[(d->evhead + d->evlen) % d->evcap];
    *e = (ws_dbg_event){ kind, hart, module, launch_id, st };
    d->evlen++;
    d->ev_pushed++;
    if (d->evfd >= 0) (void)!write(d->evfd, &(uint64_t){ 1 }, sizeof(uint64_t));
    pthread_cond_broadcast(&d->ev_cv);
}

/* Queue an application event and park the application thread if the tool
 * asked for it (locked). */
void dbg_app_event_locked(ws_debug *d, ws_dbg_event_kind kind, uint32_t module, uint64_t launch_id,
                          ws_status st)
{
    if (!atomic_load(&d->attached)) return;
    dbg_machines_publish_locked(d); /* (the application thread is the device's) */
    dbg_push_event_locked(d, kind, 0, module, launch_id, st);
    if (!(d->blocking & (1u << kind))) return;
    d->park_ev = d->ev_pushed; /* released only once the tool has taken it */
    d->parked = 1;
    while (d->parked && atomic_load(&d->attached)) pthread_cond_wait(&d->app_cv, &d->mu);
    d->parked = 0;
}

static void mod_add_locked(ws_debug *d, const ws_code_region *m)
{
    if (d->nmods == d->modcap) {
        size_t cap = d->modcap ? d->modcap * 2 : 8;
        dbg_mod *n = realloc(d->mods, cap * sizeof *n);
        if (!n) return;
        d->mods = n;
        d->modcap = cap;
    }
    dbg_mod *e = &d->mods[d->nmods++];
    memset(e, 0, sizeof *e);
    e->key = m->key;
    e->info.id = ++d->next_mod_id;
    snprintf(e->info.name, sizeof e->info.name, "%s", m->name);
    e->info.base = m->base;
    e->info.size = m->size;
    e->info.link_base = m->link_base;
    e->info.image = m->image;
    e->info.image_size = m->image_size;
}

static void state_reset(ws_debug *d)
{
    memset(d->w, 0, d->nwarps * sizeof *d->w);
    memset(d->core, 0, d->dev->cfg.cores * sizeof *d->core);
    d->haltreq_any = 0;
    d->all_stop = 1;
    d->step_before_fault = 0;
    d->hart_steps = 0;
    d->blocking = 0;
    d->parked = 0;
    d->evlen = d->evhead = 0;
    d->ev_taken = d->ev_pushed;
    uint64_t drained;
    if (d->evfd >= 0) (void)!read(d->evfd, &drained, sizeof drained);
    d->have_fault = 0;
    atomic_store(&d->observe_only, 0);
    d->nmods = 0;
    d->ninval = 0;
    d->err[0] = 0;
    dbg_dm_init(d);
    for (size_t i = 0; i < d->dev->ncode; i++) mod_add_locked(d, &d->dev->code[i]);
}

static void dbg_free(ws_debug *d)
{
    if (!d) return;
    for (uint32_t i = 0; d->dm && i < d->ndm; i++) free(d->dm[i].hamask);
    free(d->dm);
    free(d->w);
    free(d->saved_fault);
    free(d->core);
    free(d->evq);
    free(d->mods);
    dbg_shadow_free(d);
    pthread_mutex_destroy(&d->mu);
    pthread_cond_destroy(&d->dev_cv);
    pthread_cond_destroy(&d->ev_cv);
    pthread_cond_destroy(&d->app_cv);
    pthread_cond_destroy(&d->req_cv);
    if (d->evfd >= 0) close(d->evfd);
    free(d);
}

ws_status ws_debug_attach(ws_device *dev, const ws_debug_config *cfg, ws_debug **out)
{
    if (!dev || !out) return WS_ERR_INVALID_ARG;
    *out = NULL;
    ws_debug_config c = cfg ? *cfg : (ws_debug_config){ WS_DBG_TOPO_BROADCAST, 1 };
    uint32_t cores = dev->cfg.cores, ndm;
    switch (c.topology) {
    case WS_DBG_TOPO_BROADCAST: ndm = 1; break;
    case WS_DBG_TOPO_PER_CORE: ndm = cores; break;
    case WS_DBG_TOPO_GROUPS:
        if (c.cores_per_group < 1)
            return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_debug_attach: cores_per_group must be >= 1");
        ndm = (cores + c.cores_per_group - 1) / c.cores_per_group;
        break;
    default:
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_debug_attach: unknown topology %d", (int)c.topology);
    }
    ws_debug *d = dev->debug;
    if (d && atomic_load(&d->attached))
        return ws_set_error(dev, WS_ERR_BUSY, "ws_debug_attach: a debugger is already attached to this device");
    if (d) { /* re-attach: the handle of an earlier detach is reused */
        for (uint32_t i = 0; i < d->ndm; i++) free(d->dm[i].hamask);
        free(d->dm);
        d->dm = NULL;
    } else {
        d = calloc(1, sizeof *d);
        if (!d) return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "ws_debug_attach: out of host memory");
        pthread_mutex_init(&d->mu, NULL);
        pthread_condattr_t ca;
        pthread_condattr_init(&ca);
        pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
        pthread_cond_init(&d->ev_cv, &ca);
        pthread_cond_init(&d->req_cv, &ca);
        pthread_condattr_destroy(&ca);
        pthread_cond_init(&d->dev_cv, NULL);
        pthread_cond_init(&d->app_cv, NULL);
        d->evfd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); /* -1: tools fall back to timed waits */
        d->dev = dev;
        d->wpc = dev->cfg.warps_per_core;
        d->lanes = dev->cfg.lanes_per_warp;
        d->nwarps = cores * d->wpc;
        d->nharts = d->nwarps * d->lanes;
        d->w = calloc(d->nwarps, sizeof *d->w);
        d->saved_fault = calloc(d->nwarps, sizeof *d->saved_fault);
        d->core = calloc(cores, sizeof *d->core);
        if (!d->w || !d->saved_fault || !d->core) {
            dbg_free(d);
            return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "ws_debug_attach: out of host memory");
        }
        uint32_t len = 1;
        while ((1u << len) < d->nharts) len++;
        d->hartsellen = len;
    }
    d->cfg = c;
    d->ndm = ndm;
    d->dm = calloc(ndm, sizeof *d->dm);
    int ok = d->dm != NULL;
    for (uint32_t i = 0; ok && i < ndm; i++) {
        d->dm[i].hamask = calloc((d->nharts + 31) / 32, sizeof(uint32_t));
        ok = d->dm[i].hamask != NULL;
        d->dm[i].first_core = c.topology == WS_DBG_TOPO_BROADCAST ? 0
                            : c.topology == WS_DBG_TOPO_PER_CORE ? i : i * c.cores_per_group;
        d->dm[i].ncores = c.topology == WS_DBG_TOPO_BROADCAST ? cores
                        : c.topology == WS_DBG_TOPO_PER_CORE ? 1 : c.cores_per_group;
        if (d->dm[i].first_core + d->dm[i].ncores > cores) d->dm[i].ncores = cores - d->dm[i].first_core;
    }
    if (!ok) {
        if (dev->debug != d) dbg_free(d);
        return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "ws_debug_attach: out of host memory");
    }
    pthread_mutex_lock(&d->mu);
    state_reset(d);
    atomic_store(&d->attached, 1);
    pthread_mutex_unlock(&d->mu);
    dev->debug = d;
    *out = d;
    return WS_OK;
}

ws_status ws_debug_detach(ws_debug *d)
{
    if (!d) return WS_ERR_INVALID_ARG;
    pthread_mutex_lock(&d->mu);
    if (!d->dev) { /* the device closed first: nothing refers to d any more */
        pthread_mutex_unlock(&d->mu);
        dbg_free(d);
        return WS_OK;
    }
    atomic_store(&d->attached, 0);
    dbg_trig_clear_all_locked(d);
    if (d->shadow) ws_debug_shadow_disarm_locked(d);
    for (uint32_t i = 0; i < d->nwarps; i++) {
        d->w[i].step = 0;
        d->w[i].haltreq = 0; /* nobody would resume what they halt */
        if (d->w[i].state == DW_HALTED || d->w[i].step_bar) d->w[i].req = REQ_RESUME;
    }
    d->haltreq_any = 0;
    d->parked = 0;
    /* the halts its machines caused go with it: nobody else may release
     * them, and a program waiting on them would wait for ever */
    d->machine_resume = 1;
    atomic_store(&d->attention, 1);
    pthread_cond_broadcast(&d->app_cv);
    pthread_cond_broadcast(&d->ev_cv);
    pthread_cond_broadcast(&d->req_cv);
    dbg_wake_device_locked(d);
    pthread_mutex_unlock(&d->mu);
    /* The device keeps the handle (its hooks may be mid-call) and frees it
     * at close; a later ws_debug_attach reuses it. */
    return WS_OK;
}

void ws_dbg_device_close(ws_device *dev)
{
    ws_debug *d = dev->debug;
    if (!d) return;
    pthread_mutex_lock(&d->mu);
    dbg_app_event_locked(d, WS_DBG_EV_DEVICE_CLOSE, 0, 0, WS_OK);
    int attached = atomic_load(&d->attached);
    d->dev = NULL;
    dev->debug = NULL;
    pthread_cond_broadcast(&d->ev_cv);
    pthread_cond_broadcast(&d->req_cv);
    pthread_mutex_unlock(&d->mu);
    if (!attached) dbg_free(d); /* else the tool frees it with ws_debug_detach */
}

ws_status ws_debug_module_count(const ws_debug *d, uint32_t *count)
{
    if (!d || !count) return WS_ERR_INVALID_ARG;
    *count = d->ndm;
    return WS_OK;
}

/* One of the tool's on/off settings, under the lock (the device reads
 * them from its own thread). */
static ws_status set_flag(ws_debug *d, int *flag, int on)
{
    pthread_mutex_lock(&d->mu);
    *flag = on != 0;
    pthread_mutex_unlock(&d->mu);
    return WS_OK;
}

ws_status ws_debug_local_harts(ws_debug *d, int on)
{
    return d ? set_flag(d, &d->local_harts, on) : WS_ERR_INVALID_ARG;
}

ws_status ws_debug_module_of_core(const ws_debug *d, uint32_t core, uint32_t *dm)
{
    if (!d || !dm) return WS_ERR_INVALID_ARG;
    for (uint32_t i = 0; i < d->ndm; i++)
        if (core >= d->dm[i].first_core && core < d->dm[i].first_core + d->dm[i].ncores) {
            *dm = i;
            return WS_OK;
        }
    return dbg_fail((ws_debug *)d, WS_ERR_NOT_FOUND, "core %u does not exist (the device has %u cores)",
                    core, d->ndm ? d->dm[d->ndm - 1].first_core + d->dm[d->ndm - 1].ncores : 0);
}

ws_status ws_debug_set_blocking_events(ws_debug *d, uint32_t kinds_mask)
{
    if (!d) return WS_ERR_INVALID_ARG;
    pthread_mutex_lock(&d->mu);
    d->blocking = kinds_mask;
    pthread_mutex_unlock(&d->mu);
    return WS_OK;
}

ws_status ws_debug_set_all_stop(ws_debug *d, int all_stop)
{
    return d ? set_flag(d, &d->all_stop, all_stop) : WS_ERR_INVALID_ARG;
}

ws_status ws_debug_set_step_before_fault(ws_debug *d, int on)
{
    return d ? set_flag(d, &d->step_before_fault, on) : WS_ERR_INVALID_ARG;
}

ws_status ws_debug_set_hart_steps(ws_debug *d, int on)
{
    return d ? set_flag(d, &d->hart_steps, on) : WS_ERR_INVALID_ARG;
}

ws_status ws_debug_release(ws_debug *d)
{
    if (!d) return WS_ERR_INVALID_ARG;
    pthread_mutex_lock(&d->mu);
    /* A park whose event the tool has not taken yet is not the one it
     * means to end: the application parked after the tool decided to
     * release (it resumed warps, the launch ended, the program went on
     * to its next load or unload), and the tool has yet to see why. */
    if (d->ev_taken >= d->park_ev) {
        d->parked = 0;
        pthread_cond_broadcast(&d->app_cv);
    }
    pthread_mutex_unlock(&d->mu);
    return WS_OK;
}

ws_status ws_debug_wait_event(ws_debug *d, int timeout_ms, ws_dbg_event *ev)
{
    if (!d || !ev) return WS_ERR_INVALID_ARG;
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    if (timeout_ms > 0) {
        until.tv_sec += timeout_ms / 1000;
        until.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
        if (until.tv_nsec >= 1000000000L) { until.tv_sec++; until.tv_nsec -= 1000000000L; }
    }
    pthread_mutex_lock(&d->mu);
    int rc = 0;
    while (!d->evlen && d->dev && atomic_load(&d->attached) && rc != ETIMEDOUT) {
        if (timeout_ms < 0) pthread_cond_wait(&d->ev_cv, &d->mu);
        else if (timeout_ms == 0) rc = ETIMEDOUT;
        else rc = pthread_cond_timedwait(&d->ev_cv, &d->mu, &until);
    }
    ws_status st = WS_OK;
    if (d->evlen) {
        *ev = d->evq[d->evhead];
        d->evhead = (d->evhead + 1) % d->evcap;
        d->evlen--;
        d->ev_taken++;
        uint64_t drained;
        if (!d->evlen && d->evfd >= 0) (void)!read(d->evfd, &drained, sizeof drained);
    } else {
        memset(ev, 0, sizeof *ev);
        st = !d->dev ? dbg_fail(d, WS_ERR_INVALID_ARG, "the device was closed")
           : !atomic_load(&d->attached) ? dbg_fail(d, WS_ERR_INVALID_ARG, "the debugger is detached")
           : dbg_fail(d, WS_ERR_TIMEOUT, "no debug event within %d ms", timeout_ms);
    }
    pthread_mutex_unlock(&d->mu);
    return st;
}

int ws_debug_event_fd(const ws_debug *d)
{
    return d ? d->evfd : -1;
}

/* ---- application-thread hooks ---- */

void ws_dbg_module_loaded(ws_device *dev, const ws_code_region *m)
{
    ws_debug *d = dev->debug;
    if (!d || !atomic_load(&d->attached)) return;
    pthread_mutex_lock(&d->mu);
    mod_add_locked(d, m);
    dbg_app_event_locked(d, WS_DBG_EV_MODULE_LOAD, d->next_mod_id, 0, WS_OK);
    pthread_mutex_unlock(&d->mu);
}

void ws_dbg_module_unloading(ws_device *dev, const void *m)
{
    ws_debug *d = dev->debug;
    if (!d) return;
    pthread_mutex_lock(&d->mu);
    for (size_t i = 0; i < d->nmods; i++)
        if (d->mods[i].key == m) {
            uint32_t id = d->mods[i].info.id;
            /* Listed no more from its event on: a tool that looks at the
             * list for the event (parked there, or later) sees it gone,
             * not a module loaded after it with the same name. */
            d->mods[i].gone = 1;
            dbg_app_event_locked(d, WS_DBG_EV_MODULE_UNLOAD, id, 0, WS_OK);
            /* look it up again: the table may have changed while parked */
            for (size_t j = 0; j < d->nmods; j++)
                if (d->mods[j].key == m) {
                    memmove(&d->mods[j], &d->mods[j + 1], (d->nmods - j - 1) * sizeof *d->mods);
                    d->nmods--;
                    break;
                }
            break;
        }
    pthread_mutex_unlock(&d->mu);
}

ws_status ws_debug_modules(ws_debug *d, ws_dbg_module *out, size_t max, size_t *n)
{
    if (!d || !n || (max && !out)) return WS_ERR_INVALID_ARG;
    pthread_mutex_lock(&d->mu);
    size_t k = 0;
    for (size_t i = 0; i < d->nmods; i++) {
        if (d->mods[i].gone) continue;
        if (k < max) out[k] = d->mods[i].info;
        k++;
    }
    *n = k;
    pthread_mutex_unlock(&d->mu);
    return WS_OK;
}
