/* libFuzzer target for the gdb server's real target (src/gdbstub
 * target_dbg.c, dbg_access.c, dbg_breakpoints.c, dbg_modules.c) — what
 * fuzz/gdb_packet's fake target leaves out: the input is a byte stream
 * from "gdb" to a session over the device's debug hardware, beside a
 * launch of the JTAG tests' gate kernel whose warps were halted first
 * (all-stop), as gdb finds a program it attaches to. Afterwards the
 * harness frees the session without a detach (a connection lost: the
 * library detaches the target then), opens the gate through the system
 * bus and lets gdb go (as the server does when gdb leaves), so the launch
 * must end; gdb.session_free checks that it ends with its results. A crash, a
 * sanitizer report, a leak, a hang or a malformed reply is a finding.
 * Halting depends on thread timing: a finding may need a few runs. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../gate_launch.h"
#include "../gdb_reply_check.h"
#include "gdbstub/session.h"
#include "gdbstub/target_dbg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ws_config c;
    gate_small_config(&c, 2);
    ws_device *dev = NULL;
    ws_debug *dbg = NULL;
    ws_debug_config dc = { WS_DBG_TOPO_BROADCAST, 1 };
    if (ws_device_open(&c, &dev) != WS_OK || ws_debug_attach(dev, &dc, &dbg) != WS_OK) abort();
    ws_gdb_dbg *t = calloc(1, sizeof *t);
    if (!t || ws_gdb_dbg_init(t, dbg) != WS_OK) abort();
    t->gate_open = 1; /* the application is past device open */
    gate_launch g;
    gate_launch_start(&g, dev, WS_FUZZ_GATE_KERNEL);
    if (!gate_launch_running(dbg) || ws_gdb_dbg_halt_all(t) != WS_OK) abort();
    ws_gdb_session *s;
    if (ws_gdb_session_new(&ws_gdb_dbg_ops, t, fuzz_check_gdb_reply, NULL, &s) != WS_OK) abort();
    size_t half = size / 2; /* packets split across reads too */
    ws_gdb_session_input(s, data, half);
    ws_gdb_session_poll(s, 0);
    ws_gdb_session_input(s, data + half, size - half);
    ws_gdb_session_poll(s, 0);
    ws_gdb_session_free(s);
    /* gdb is gone: what the server does then, after opening the gate */
    gate_launch_open(dbg, &g);
    ws_gdb_dbg_open_gate(t);
    ws_debug_set_blocking_events(dbg, 0);
    ws_debug_release(dbg);
    ws_debug_detach(dbg);
    gate_launch_join(&g);
    ws_gdb_dbg_fini(t);
    free(t);
    ws_device_close(dev);
    return 0;
}
