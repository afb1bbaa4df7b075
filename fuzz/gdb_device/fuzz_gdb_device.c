/* libFuzzer target for the gdb server's real target (src/gdbstub
 * target_dbg.c, dbg_access.c, dbg_breakpoints.c, dbg_modules.c) — what
 * fuzz/gdb_packet's fake target leaves out: the input is a byte stream
 * from "gdb" to a session over the device's debug hardware, beside a
 * launch of the JTAG tests' gate kernel whose warps were halted first
 * (all-stop), as gdb finds a program it attaches to. Afterwards the
 * harness opens the gate through the system bus and lets gdb go (as the
 * server does when gdb leaves), so the launch must end. A crash, a
 * sanitizer report, a leak, a hang or a malformed reply is a finding.
 * Halting depends on thread timing: a finding may need a few runs. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "device/debug/debug.h"
#include "gdbstub/rsp_packet.h"
#include "gdbstub/session.h"
#include "gdbstub/target_dbg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* '+', '-', or a whole framed packet with a matching checksum. */
static void check_sent(void *io, const char *b, size_t n)
{
    (void)io;
    if (n == 1 && (b[0] == '+' || b[0] == '-')) return;
    if (n < 4 || (b[0] != '$' && b[0] != '%') || b[n - 3] != '#') abort();
    uint8_t sum = 0;
    for (size_t i = 1; i < n - 3; i++) sum = (uint8_t)(sum + (uint8_t)b[i]);
    if ((ws_hex_val((uint8_t)b[n - 2]) << 4 | ws_hex_val((uint8_t)b[n - 1])) != sum) abort();
}

typedef struct launch_job {
    ws_device *dev;
    ws_kernel *k;
    ws_arg args[4];
} launch_job;

static void *run_launch(void *arg)
{
    launch_job *j = arg;
    if (ws_launch(j->dev, j->k, WS_DIM3(4, 1, 1), WS_DIM3(8, 1, 1), 0, j->args, 4) == WS_OK)
        ws_synchronize(j->dev); /* a fault gdb caused is the program's result, not a finding */
    return NULL;
}

/* Wait until a warp of the launch runs (a halt sent earlier has nothing
 * to stop); 0 after a second without one. */
static int wait_running(ws_debug *dbg)
{
    for (int i = 0; i < 2000; i++) {
        uint32_t v = 0;
        if (ws_dmi_read(dbg, 0, WS_DM_DMCONTROL, &v) == WS_OK && !(v & 1))
            ws_dmi_write(dbg, 0, WS_DM_DMCONTROL, 1);
        if (ws_dmi_read(dbg, 0, WS_DM_DMSTATUS, &v) == WS_OK && (v >> 10 & 1)) return 1;
        nanosleep(&(struct timespec){ 0, 500000 }, NULL);
    }
    return 0;
}

static void open_gate(ws_debug *dbg, ws_addr go)
{
    ws_dmi_write(dbg, 0, WS_DM_DMCONTROL, 1);
    ws_dmi_write(dbg, 0, WS_DM_SBCS, 7u << 12 | 1u << 22 | 2u << 17); /* clear errors; 32-bit accesses */
    ws_dmi_write(dbg, 0, WS_DM_SBADDRESS0, (uint32_t)go);
    ws_dmi_write(dbg, 0, WS_DM_SBDATA0, 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ws_config c;
    ws_config_default(&c);
    c.cores = 2;
    c.warps_per_core = 2;
    c.lanes_per_warp = 4;
    c.max_threads_per_block = 8;
    c.global_mem_limit = 1u << 20;
    c.threads = 1;
    c.watchdog_ms = 2000; /* a lane gdb sent into an endless loop */
    ws_device *dev = NULL;
    ws_debug *dbg = NULL;
    ws_debug_config dc = { WS_DBG_TOPO_BROADCAST, 1 };
    ws_module *mod;
    ws_addr buf;
    launch_job j;
    memset(&j, 0, sizeof j);
    if (ws_device_open(&c, &dev) != WS_OK || ws_debug_attach(dev, &dc, &dbg) != WS_OK ||
        ws_module_load_file(dev, WS_FUZZ_GDB_KERNEL, &mod) != WS_OK || ws_kernel_get(mod, "gate", &j.k) != WS_OK ||
        ws_malloc(dev, 256, &buf) != WS_OK || ws_memset(dev, buf, 0, 256) != WS_OK)
        abort();
    j.dev = dev;
    j.args[0] = (ws_arg)WS_ARG_PTR(buf);
    j.args[1] = (ws_arg)WS_ARG_PTR(buf + 128);
    j.args[2] = (ws_arg)WS_ARG_PTR(buf + 132);
    j.args[3] = (ws_arg)WS_ARG_I32(1000000);
    ws_gdb_dbg *t = calloc(1, sizeof *t);
    if (!t || ws_gdb_dbg_init(t, dbg) != WS_OK) abort();
    t->gate_open = 1; /* the application is past device open */
    pthread_t th;
    if (pthread_create(&th, NULL, run_launch, &j)) abort();
    if (!wait_running(dbg) || ws_gdb_dbg_halt_all(t) != WS_OK) abort();
    ws_gdb_session *s;
    if (ws_gdb_session_new(&ws_gdb_dbg_ops, t, check_sent, NULL, &s) != WS_OK) abort();
    size_t half = size / 2; /* packets split across reads too */
    ws_gdb_session_input(s, data, half);
    ws_gdb_session_poll(s, 0);
    ws_gdb_session_input(s, data + half, size - half);
    ws_gdb_session_poll(s, 0);
    ws_gdb_session_free(s);
    /* gdb is gone: what the server does then, after opening the gate */
    open_gate(dbg, buf + 128);
    ws_gdb_dbg_open_gate(t);
    ws_debug_set_blocking_events(dbg, 0);
    ws_debug_release(dbg);
    ws_debug_detach(dbg);
    pthread_join(th, NULL);
    ws_gdb_dbg_fini(t);
    free(t);
    ws_device_close(dev);
    return 0;
}
