/* Application thread and DMI helpers for the debug-hardware tests. */
#include <time.h>
#include <unistd.h>
#include "../test.h"
#include "dbg_harness.h"

static void *app_main(void *p)
{
    app *a = p;
    ws_kernel *k = NULL;
    a->st = ws_kernel_get(a->mod, a->kernel, &k);
    if (a->st == WS_OK) a->st = ws_launch(a->dev, k, a->grid, a->block, 0, a->args, a->nargs);
    if (a->st == WS_OK) a->st = ws_synchronize(a->dev);
    if (a->st != WS_OK) fprintf(stderr, "app: %s: %s\n", ws_status_name(a->st), ws_last_error(a->dev));
    atomic_store(&a->done, 1);
    return NULL;
}

void app_start(app *a)
{
    atomic_store(&a->done, 0);
    pthread_create(&a->th, NULL, app_main, a);
}

ws_status app_join(app *a)
{
    pthread_join(a->th, NULL);
    return a->st;
}

uint32_t hart_of(uint32_t core, uint32_t wpc, uint32_t slot, uint32_t lane)
{
    return (core * wpc + slot) * 32 + lane;
}

ws_debug *dbg_attach(ws_device *dev, ws_dbg_topology topo, uint32_t per_group)
{
    ws_debug_config cfg = { topo, per_group };
    ws_debug *d = NULL;
    CHECK(ws_debug_attach(dev, &cfg, &d) == WS_OK);
    uint32_t n = 0;
    ws_debug_module_count(d, &n);
    for (uint32_t m = 0; m < n; m++) dmw(d, m, WS_DM_DMCONTROL, 1);
    return d;
}

/* Runs the addrs kernel: out[0] = bp_target, out[1] = with_bar. */
static void locate_kernels(dbg_session *s)
{
    ws_kernel *k = NULL;
    ws_addr o = 0;
    unsigned v[2] = { 0, 0 };
    ws_malloc(s->dev, 8, &o);
    ws_arg a[] = { WS_ARG_PTR(o) };
    if (ws_kernel_get(s->mod, "addrs", &k) == WS_OK &&
        ws_launch(s->dev, k, WS_DIM3(1, 1, 1), WS_DIM3(1, 1, 1), 0, a, 1) == WS_OK)
        ws_memcpy_dtoh(s->dev, v, o, 8);
    s->bp = v[0];
    s->with_bar = v[1];
}

void session_config(ws_config *c, uint32_t cores, uint32_t wpc)
{
    ws_config_default(c);
    c->cores = cores;
    c->warps_per_core = wpc;
    c->max_threads_per_block = wpc * 32 < 256 ? wpc * 32 : 256;
}

int session_open_device(dbg_session *s, const char *elf, const ws_config *c)
{
    memset(s, 0, sizeof *s);
    if (ws_device_open(c, &s->dev) != WS_OK) {
        s->dev = NULL;
        return -1;
    }
    if (ws_module_load_file(s->dev, elf, &s->mod) != WS_OK) {
        ws_device_close(s->dev);
        s->dev = NULL;
        return -1;
    }
    locate_kernels(s);
    return 0;
}

int session_open(dbg_session *s, const char *elf, uint32_t cores, uint32_t wpc,
                 ws_dbg_topology topo, uint32_t per_group)
{
    ws_config c;
    session_config(&c, cores, wpc);
    if (session_open_device(s, elf, &c)) return -1;
    s->d = dbg_attach(s->dev, topo, per_group);
    return 0;
}

void session_close(dbg_session *s)
{
    ws_debug_detach(s->d);
    ws_device_close(s->dev);
}

void session_launch(dbg_session *s, const char *kernel, uint32_t blocks, uint32_t threads,
                    ws_addr p0, ws_addr p1)
{
    app *a = &s->a;
    memset(a, 0, sizeof *a);
    a->dev = s->dev;
    a->mod = s->mod;
    a->kernel = kernel;
    a->grid = WS_DIM3(blocks, 1, 1);
    a->block = WS_DIM3(threads, 1, 1);
    a->args[a->nargs++] = (ws_arg)WS_ARG_PTR(p0);
    if (p1) a->args[a->nargs++] = (ws_arg)WS_ARG_PTR(p1);
    app_start(a);
}

uint32_t dmr(ws_debug *d, uint32_t dm, uint32_t addr)
{
    uint32_t v = 0;
    CHECK(ws_dmi_read(d, dm, addr, &v) == WS_OK);
    return v;
}

void dmw(ws_debug *d, uint32_t dm, uint32_t addr, uint32_t v)
{
    CHECK(ws_dmi_write(d, dm, addr, v) == WS_OK);
}

uint32_t dmctl_sel(uint32_t hart) { return 1u | (hart & 0x3FF) << 16 | (hart >> 10 & 0x3FF) << 6; }
void select_hart(ws_debug *d, uint32_t dm, uint32_t hart) { dmw(d, dm, WS_DM_DMCONTROL, dmctl_sel(hart)); }

void halt_hart(ws_debug *d, uint32_t dm, uint32_t hart)
{
    dmw(d, dm, WS_DM_DMCONTROL, dmctl_sel(hart) | 1u << 31);
    dmw(d, dm, WS_DM_DMCONTROL, dmctl_sel(hart));
}

void resume_hart(ws_debug *d, uint32_t dm, uint32_t hart)
{
    dmw(d, dm, WS_DM_DMCONTROL, dmctl_sel(hart) | 1u << 30);
}

void resume_all(ws_debug *d)
{
    uint32_t n = 0;
    ws_debug_module_count(d, &n);
    for (uint32_t m = 0; m < n; m++) {
        dmw(d, m, WS_DM_DMCONTROL, 1);
        for (uint32_t w = 0; w < 64; w++) {
            dmw(d, m, WS_DM_HAWINDOWSEL, w);
            dmw(d, m, WS_DM_HAWINDOW, UINT32_MAX);
        }
        dmw(d, m, WS_DM_DMCONTROL, 1u | 1u << 26 | 1u << 30);
        dmw(d, m, WS_DM_DMCONTROL, 1);
    }
}

static uint32_t take_cmderr(ws_debug *d, uint32_t dm)
{
    uint32_t e = dmr(d, dm, WS_DM_ABSTRACTCS) >> 8 & 7;
    if (e) dmw(d, dm, WS_DM_ABSTRACTCS, 7u << 8);
    return e;
}

uint32_t reg_read(ws_debug *d, uint32_t dm, uint32_t hart, uint32_t regno, uint32_t *v)
{
    select_hart(d, dm, hart);
    dmw(d, dm, WS_DM_COMMAND, 2u << 20 | 1u << 17 | regno);
    uint32_t e = take_cmderr(d, dm);
    *v = dmr(d, dm, WS_DM_DATA0);
    return e;
}

uint32_t reg_write(ws_debug *d, uint32_t dm, uint32_t hart, uint32_t regno, uint32_t v)
{
    select_hart(d, dm, hart);
    dmw(d, dm, WS_DM_DATA0, v);
    dmw(d, dm, WS_DM_COMMAND, 2u << 20 | 1u << 17 | 1u << 16 | regno);
    return take_cmderr(d, dm);
}

static uint32_t sz_code(uint32_t size) { return size == 1 ? 0 : size == 2 ? 1 : 2; }

uint32_t mem_read(ws_debug *d, uint32_t dm, uint32_t hart, uint32_t addr, uint32_t size, uint32_t *v)
{
    select_hart(d, dm, hart);
    dmw(d, dm, WS_DM_DATA1, addr);
    dmw(d, dm, WS_DM_COMMAND, 2u << 24 | sz_code(size) << 20);
    uint32_t e = take_cmderr(d, dm);
    *v = dmr(d, dm, WS_DM_DATA0);
    return e;
}

uint32_t mem_write(ws_debug *d, uint32_t dm, uint32_t hart, uint32_t addr, uint32_t size, uint32_t v)
{
    select_hart(d, dm, hart);
    dmw(d, dm, WS_DM_DATA1, addr);
    dmw(d, dm, WS_DM_DATA0, v);
    dmw(d, dm, WS_DM_COMMAND, 2u << 24 | sz_code(size) << 20 | 1u << 16);
    return take_cmderr(d, dm);
}

static uint32_t take_sberror(ws_debug *d, uint32_t dm)
{
    uint32_t e = dmr(d, dm, WS_DM_SBCS) >> 12 & 7;
    if (e) dmw(d, dm, WS_DM_SBCS, 2u << 17 | 7u << 12);
    return e;
}

uint32_t sb_read32(ws_debug *d, uint32_t dm, uint32_t addr, uint32_t *v)
{
    dmw(d, dm, WS_DM_SBCS, 2u << 17 | 1u << 20); /* 32-bit, read on address */
    dmw(d, dm, WS_DM_SBADDRESS0, addr);
    *v = dmr(d, dm, WS_DM_SBDATA0);
    return take_sberror(d, dm);
}

uint32_t sb_write32(ws_debug *d, uint32_t dm, uint32_t addr, uint32_t v)
{
    dmw(d, dm, WS_DM_SBCS, 2u << 17);
    dmw(d, dm, WS_DM_SBADDRESS0, addr);
    dmw(d, dm, WS_DM_SBDATA0, v);
    return take_sberror(d, dm);
}

int wait_status(ws_debug *d, uint32_t dm, uint32_t hart, uint32_t bits)
{
    for (int i = 0; i < 10000; i++) {
        select_hart(d, dm, hart);
        if ((dmr(d, dm, WS_DM_DMSTATUS) & bits) == bits) return 0;
        usleep(1000);
    }
    return -1;
}

int wait_selected_status(ws_debug *d, uint32_t dm, uint32_t bits)
{
    for (int i = 0; i < 5000; i++) {
        if ((dmr(d, dm, WS_DM_DMSTATUS) & bits) == bits) return 0;
        usleep(1000);
    }
    return -1;
}

uint32_t csr_get(ws_debug *d, uint32_t dm, uint32_t hart, uint32_t csr)
{
    uint32_t v = 0;
    reg_read(d, dm, hart, WS_REGNO_CSR(csr), &v);
    return v;
}

uint32_t halt_cause(ws_debug *d, uint32_t dm, uint32_t hart)
{
    return csr_get(d, dm, hart, WS_CSR_DCSR) >> 6 & 7;
}

int wait_event(ws_debug *d, ws_dbg_event_kind kind, ws_dbg_event *ev)
{
    for (;;) {
        ws_status st = ws_debug_wait_event(d, 10000, ev);
        if (st != WS_OK) {
            fprintf(stderr, "wait_event(%d): %s\n", (int)kind, ws_debug_error(d));
            return -1;
        }
        if (ev->kind == kind) return 0;
    }
}

uint32_t set_trigger(ws_debug *d, uint32_t dm, uint32_t hart, uint32_t idx, uint32_t bits, uint32_t tdata2)
{
    uint32_t e = reg_write(d, dm, hart, WS_REGNO_CSR(WS_CSR_TSELECT), idx);
    e |= reg_write(d, dm, hart, WS_REGNO_CSR(WS_CSR_TDATA2), tdata2);
    e |= reg_write(d, dm, hart, WS_REGNO_CSR(WS_CSR_TDATA1), bits ? (2u << 28 | 1u << 12 | bits) : 0);
    return e;
}
