/* libFuzzer target for what a JTAG probe can send the debug hardware: a
 * remote_bitbang byte stream through a chain of TAPs and their DTMs, or
 * debug-module register accesses (ws_dmi_read / ws_dmi_write, what a DTM
 * performs), against the debug modules of a small real device with no
 * launch running, or (byte 0 bit 3, when the target was built with the
 * JTAG tests' kernel) beside a launch whose first warp was halted, as a
 * probe finds it (non-stop). Byte 0 bits 0-1 choose the topology
 * (broadcast, one module per core, groups of two cores), bit 2 the
 * bitbang stream; the rest is the stream, or 6-byte accesses (byte: bit 0
 * write, bits 1-2 the module, which may not exist; byte: register;
 * 4 bytes: value, little endian). A crash, a sanitizer report, a leak, a
 * hang, a refused access without a message, or a module that stops
 * answering dmstatus is a finding. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../gate_launch.h"
#include "device/debug/debug.h"
#include "device/debug/jtag_dtm.h"
#include "jtag/bitbang.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every byte is a command: mostly clock edges, some TDO reads and resets. */
static const char bitbang_cmds[] = "01234567012345670123R3Rrstu5B7bQ";

static void run_bitbang(ws_debug *dbg, uint32_t ndm, const uint8_t *in, size_t n)
{
    ws_jtag_dtm dtm[WS_BITBANG_MAX_TAPS];
    ws_jtag_tap tap[WS_BITBANG_MAX_TAPS];
    if (ndm > WS_BITBANG_MAX_TAPS) ndm = WS_BITBANG_MAX_TAPS;
    for (uint32_t k = 0; k < ndm; k++) {
        ws_jtag_dmi dmi;
        ws_jtag_dtm_bind(&dtm[k], dbg, k, &dmi);
        ws_jtag_tap_init(&tap[k], &dmi, 1);
    }
    ws_bitbang bb;
    ws_bitbang_init_chain(&bb, tap, ndm);
    uint8_t cmds[256];
    char out[256], err[160];
    for (size_t at = 0; at < n && !bb.quit;) {
        size_t len = n - at < sizeof cmds ? n - at : sizeof cmds, nout = 0, used = 0;
        for (size_t i = 0; i < len; i++) cmds[i] = (uint8_t)bitbang_cmds[in[at + i] % (sizeof bitbang_cmds - 1)];
        err[0] = 0;
        if (ws_bitbang_feed(&bb, cmds, len, out, &nout, &used, err, sizeof err) != WS_OK) abort(); /* all valid */
        for (size_t i = 0; i < nout; i++)
            if (out[i] != '0' && out[i] != '1') abort();
        at += used;
    }
}

static void run_accesses(ws_debug *dbg, const uint8_t *in, size_t n)
{
    for (size_t i = 0; i + 6 <= n; i += 6) {
        const uint32_t dm = in[i] >> 1 & 3, addr = in[i + 1] & 0x7f;
        uint32_t v = (uint32_t)in[i + 2] | (uint32_t)in[i + 3] << 8 | (uint32_t)in[i + 4] << 16 |
                     (uint32_t)in[i + 5] << 24;
        ws_status st = in[i] & 1 ? ws_dmi_write(dbg, dm, addr, v) : ws_dmi_read(dbg, dm, addr, &v);
        if (st != WS_OK && !ws_debug_error(dbg)[0]) abort();
    }
}

#ifdef WS_FUZZ_GATE_KERNEL
/* Halt hart 0 beside a running launch, run the accesses, let go. */
static void run_beside_launch(ws_device *dev, ws_debug *dbg, const uint8_t *in, size_t n)
{
    gate_launch g;
    ws_debug_set_all_stop(dbg, 0); /* the settings the JTAG server attaches with */
    ws_debug_set_step_before_fault(dbg, 1);
    ws_debug_set_hart_steps(dbg, 1);
    gate_launch_start(&g, dev, WS_FUZZ_GATE_KERNEL);
    if (!gate_launch_running(dbg)) abort();
    uint32_t v = 0;
    ws_dmi_write(dbg, 0, WS_DM_DMCONTROL, 1u << 31 | 1); /* haltreq hart 0 */
    for (int i = 0; i < 2000 && !(v >> 8 & 1); i++) { /* anyhalted */
        nanosleep(&(struct timespec){ 0, 500000 }, NULL);
        if (ws_dmi_read(dbg, 0, WS_DM_DMSTATUS, &v) != WS_OK) abort();
    }
    if (!(v >> 8 & 1)) abort();
    run_accesses(dbg, in, n);
    if (ws_dmi_read(dbg, 0, WS_DM_DMSTATUS, &v) != WS_OK) abort();
    gate_launch_open(dbg, &g);
    ws_debug_detach(dbg); /* every halted warp resumes */
    gate_launch_join(&g);
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    ws_config c;
    gate_small_config(&c, 3);
    ws_device *dev = NULL;
    ws_debug *dbg = NULL;
    const ws_dbg_topology topo[4] = { WS_DBG_TOPO_BROADCAST, WS_DBG_TOPO_PER_CORE, WS_DBG_TOPO_GROUPS,
                                      WS_DBG_TOPO_BROADCAST };
    ws_debug_config dc = { topo[data[0] & 3], 2 };
    if (ws_device_open(&c, &dev) != WS_OK) abort();
    if (ws_debug_attach(dev, &dc, &dbg) != WS_OK) abort();
    uint32_t ndm = 0;
    if (ws_debug_module_count(dbg, &ndm) != WS_OK || ndm < 1) abort();
#ifdef WS_FUZZ_GATE_KERNEL
    if (data[0] & 8) {
        run_beside_launch(dev, dbg, data + 1, size - 1);
        ws_device_close(dev);
        return 0;
    }
#endif
    if (data[0] & 4) run_bitbang(dbg, ndm, data + 1, size - 1);
    else run_accesses(dbg, data + 1, size - 1);
    for (uint32_t k = 0; k < ndm; k++) { /* every module still answers */
        uint32_t v;
        if (ws_dmi_read(dbg, k, WS_DM_DMSTATUS, &v) != WS_OK) abort();
    }
    ws_debug_detach(dbg);
    ws_device_close(dev);
    return 0;
}
