/* Shared by the fuzz targets that run beside a launch (fuzz/jtag_dmi,
 * fuzz/gdb_device): the JTAG tests' gate kernel on a thread of its own,
 * 32 threads spinning until *go (or a million spins), and the way out a
 * probe or gdb would take: the gate opened through the system bus. */
#ifndef WS_FUZZ_GATE_LAUNCH_H
#define WS_FUZZ_GATE_LAUNCH_H
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include "device/debug/debug.h"
#include "warpscope/warpscope.h"

/* The small device both targets open: `cores` cores of 2 warps of 4
 * lanes, 1 MiB of global memory, one host thread (inputs replay alike),
 * and a watchdog for a lane an input sends into an endless loop. */
static inline void gate_small_config(ws_config *c, uint32_t cores)
{
    ws_config_default(c);
    c->cores = cores;
    c->warps_per_core = 2;
    c->lanes_per_warp = 4;
    c->max_threads_per_block = 8;
    c->global_mem_limit = 1u << 20;
    c->threads = 1;
    c->watchdog_ms = 2000;
}

typedef struct gate_launch {
    ws_device *dev;
    ws_kernel *k;
    ws_addr buf;                /* out[32], then go at +128, spins at +132 */
    ws_arg args[4];
    pthread_t thread;
} gate_launch;

static void *gate_launch_main(void *arg)
{
    gate_launch *g = arg;
    /* a fault the input caused is the program's result, not a finding */
    if (ws_launch(g->dev, g->k, WS_DIM3(4, 1, 1), WS_DIM3(8, 1, 1), 0, g->args, 4) == WS_OK)
        ws_synchronize(g->dev);
    return NULL;
}

/* Load elf's gate kernel on dev and start it; aborts if it cannot. */
static inline void gate_launch_start(gate_launch *g, ws_device *dev, const char *elf)
{
    ws_module *mod;
    g->dev = dev;
    if (ws_module_load_file(dev, elf, &mod) != WS_OK || ws_kernel_get(mod, "gate", &g->k) != WS_OK ||
        ws_malloc(dev, 256, &g->buf) != WS_OK || ws_memset(dev, g->buf, 0, 256) != WS_OK)
        abort();
    g->args[0] = (ws_arg)WS_ARG_PTR(g->buf);
    g->args[1] = (ws_arg)WS_ARG_PTR(g->buf + 128);
    g->args[2] = (ws_arg)WS_ARG_PTR(g->buf + 132);
    g->args[3] = (ws_arg)WS_ARG_I32(1000000);
    if (pthread_create(&g->thread, NULL, gate_launch_main, g)) abort();
}

/* Wait until hart 0's module sees a warp running (a halt sent before the
 * launch starts has nothing to stop); 0 after a second without one. */
static inline int gate_launch_running(ws_debug *dbg)
{
    for (int i = 0; i < 2000; i++) {
        uint32_t v = 0;
        ws_dmi_write(dbg, 0, WS_DM_DMCONTROL, 1); /* dmactive */
        if (ws_dmi_read(dbg, 0, WS_DM_DMSTATUS, &v) == WS_OK && (v >> 10 & 1)) return 1; /* anyrunning */
        nanosleep(&(struct timespec){ 0, 500000 }, NULL);
    }
    return 0;
}

/* Open the gate through the system bus, as a probe would (errors the
 * input left in sbcs cleared first); the threads leave their loop once
 * resumed. Then the caller lets the debugger go and calls gate_launch_join. */
static inline void gate_launch_open(ws_debug *dbg, const gate_launch *g)
{
    ws_dmi_write(dbg, 0, WS_DM_DMCONTROL, 1);
    ws_dmi_write(dbg, 0, WS_DM_SBCS, 7u << 12 | 1u << 22 | 2u << 17); /* clear errors; 32-bit accesses */
    ws_dmi_write(dbg, 0, WS_DM_SBADDRESS0, (uint32_t)(g->buf + 128));
    ws_dmi_write(dbg, 0, WS_DM_SBDATA0, 1);
}

static inline void gate_launch_join(gate_launch *g) { pthread_join(g->thread, NULL); }
#endif
