/* The TAP controller state machine (IEEE 1149.1) and the DTM registers
 * behind it (RISC-V debug spec 0.13.2, 6.1). Capture and shift act on the
 * rising edge in their state; update acts on entering the Update state. */
#include "device/debug/jtag_tap.h"
#include <stdio.h>
#include <string.h>

static const uint8_t next_state[16][2] = { /* [state][tms] */
    [WS_TAP_RESET]      = { WS_TAP_IDLE, WS_TAP_RESET },
    [WS_TAP_IDLE]       = { WS_TAP_IDLE, WS_TAP_SELECT_DR },
    [WS_TAP_SELECT_DR]  = { WS_TAP_CAPTURE_DR, WS_TAP_SELECT_IR },
    [WS_TAP_CAPTURE_DR] = { WS_TAP_SHIFT_DR, WS_TAP_EXIT1_DR },
    [WS_TAP_SHIFT_DR]   = { WS_TAP_SHIFT_DR, WS_TAP_EXIT1_DR },
    [WS_TAP_EXIT1_DR]   = { WS_TAP_PAUSE_DR, WS_TAP_UPDATE_DR },
    [WS_TAP_PAUSE_DR]   = { WS_TAP_PAUSE_DR, WS_TAP_EXIT2_DR },
    [WS_TAP_EXIT2_DR]   = { WS_TAP_SHIFT_DR, WS_TAP_UPDATE_DR },
    [WS_TAP_UPDATE_DR]  = { WS_TAP_IDLE, WS_TAP_SELECT_DR },
    [WS_TAP_SELECT_IR]  = { WS_TAP_CAPTURE_IR, WS_TAP_RESET },
    [WS_TAP_CAPTURE_IR] = { WS_TAP_SHIFT_IR, WS_TAP_EXIT1_IR },
    [WS_TAP_SHIFT_IR]   = { WS_TAP_SHIFT_IR, WS_TAP_EXIT1_IR },
    [WS_TAP_EXIT1_IR]   = { WS_TAP_PAUSE_IR, WS_TAP_UPDATE_IR },
    [WS_TAP_PAUSE_IR]   = { WS_TAP_PAUSE_IR, WS_TAP_EXIT2_IR },
    [WS_TAP_EXIT2_IR]   = { WS_TAP_SHIFT_IR, WS_TAP_UPDATE_IR },
    [WS_TAP_UPDATE_IR]  = { WS_TAP_IDLE, WS_TAP_SELECT_DR },
};

const char *ws_tap_state_name(ws_tap_state s)
{
    static const char *const names[16] = {
        "Test-Logic-Reset", "Run-Test/Idle", "Select-DR-Scan", "Capture-DR", "Shift-DR", "Exit1-DR",
        "Pause-DR", "Exit2-DR", "Update-DR", "Select-IR-Scan", "Capture-IR", "Shift-IR", "Exit1-IR",
        "Pause-IR", "Exit2-IR", "Update-IR",
    };
    return (unsigned)s < 16 ? names[s] : "?";
}

void ws_jtag_tap_trst(ws_jtag_tap *t)
{
    t->state = WS_TAP_RESET;
    t->ir = WS_JTAG_IR_IDCODE;
}

void ws_jtag_tap_init(ws_jtag_tap *t, const ws_jtag_dmi *dmi, unsigned idle_cycles)
{
    memset(t, 0, sizeof *t);
    if (dmi) t->dmi = *dmi;
    t->idle = idle_cycles > 7 ? 7 : idle_cycles;
    ws_jtag_tap_trst(t);
}

static unsigned dr_len(uint32_t ir)
{
    switch (ir) {
    case WS_JTAG_IR_IDCODE: return 32;
    case WS_JTAG_IR_DTMCS: return 32;
    case WS_JTAG_IR_DMI: return WS_JTAG_DMI_LEN;
    default: return 1; /* BYPASS, and every unassigned instruction */
    }
}

/* A dmi capture or update while an access is still in progress makes the
 * status busy until dmireset (spec 6.1.5). */
static int dmi_in_progress(ws_jtag_tap *t)
{
    if (t->wait && !t->dmistat) t->dmistat = WS_DMI_BUSY;
    return t->wait != 0;
}

static void capture_dr(ws_jtag_tap *t)
{
    t->sr_len = dr_len(t->ir);
    switch (t->ir) {
    case WS_JTAG_IR_IDCODE: t->sr = WS_JTAG_IDCODE; break;
    case WS_JTAG_IR_DTMCS:
        t->sr = 1u /* version 0.13 */ | WS_JTAG_ABITS << 4 | t->dmistat << 10 | t->idle << 12;
        break;
    case WS_JTAG_IR_DMI:
        dmi_in_progress(t);
        t->sr = (uint64_t)t->dmi_addr << 34 | (uint64_t)t->dmi_data << 2 | t->dmistat;
        break;
    default: t->sr = 0; break;
    }
}

static void dmi_access(ws_jtag_tap *t, uint32_t op, uint32_t addr, uint32_t data)
{
    ws_status st = WS_OK;
    t->err[0] = 0;
    if (op == 1) st = t->dmi.read ? t->dmi.read(t->dmi.ctx, addr, &data, t->err, sizeof t->err) : WS_ERR_INTERNAL;
    else st = t->dmi.write ? t->dmi.write(t->dmi.ctx, addr, data, t->err, sizeof t->err) : WS_ERR_INTERNAL;
    t->dmi_ops++;
    t->dmi_addr = addr;
    if (op == 1 && st == WS_OK) t->dmi_data = data;
    if (st != WS_OK) {
        t->dmistat = WS_DMI_FAILED;
        if (!t->err[0]) snprintf(t->err, sizeof t->err, "DMI %s of 0x%02x failed (%s)", op == 1 ? "read" : "write",
                                 addr, ws_status_name(st));
    }
    t->wait = t->idle;
}

static void update_dr(ws_jtag_tap *t)
{
    if (t->ir == WS_JTAG_IR_DTMCS) {
        if (t->sr >> 17 & 1) { t->dmistat = 0; t->wait = 0; } /* dmihardreset: forget the access */
        if (t->sr >> 16 & 1) t->dmistat = 0;                   /* dmireset */
        return;
    }
    if (t->ir != WS_JTAG_IR_DMI) return;
    uint32_t op = t->sr & 3, data = (uint32_t)(t->sr >> 2);
    uint32_t addr = (uint32_t)(t->sr >> 34) & ((1u << WS_JTAG_ABITS) - 1);
    if (dmi_in_progress(t) || t->dmistat) return; /* ignored while busy or failed */
    if (op == 1 || op == 2) dmi_access(t, op, addr, data);
}

void ws_jtag_tap_clock(ws_jtag_tap *t, int tms, int tdi)
{
    switch (t->state) {
    case WS_TAP_IDLE:
        if (t->wait) t->wait--;
        break;
    case WS_TAP_CAPTURE_DR: capture_dr(t); break;
    case WS_TAP_CAPTURE_IR: t->sr = 1; t->sr_len = WS_JTAG_IR_LEN; break; /* spec: captures 0b00001 */
    case WS_TAP_SHIFT_DR:
    case WS_TAP_SHIFT_IR:
        t->sr = t->sr >> 1 | (uint64_t)(tdi != 0) << (t->sr_len - 1);
        break;
    default: break;
    }
    t->state = (ws_tap_state)next_state[t->state][tms != 0];
    if (t->state == WS_TAP_RESET) t->ir = WS_JTAG_IR_IDCODE;
    else if (t->state == WS_TAP_UPDATE_IR) t->ir = (uint32_t)t->sr & ((1u << WS_JTAG_IR_LEN) - 1);
    else if (t->state == WS_TAP_UPDATE_DR) update_dr(t);
}

int ws_jtag_tap_tdo(const ws_jtag_tap *t)
{
    if (t->state != WS_TAP_SHIFT_DR && t->state != WS_TAP_SHIFT_IR) return 0;
    return (int)(t->sr & 1);
}
