/* DMI accesses from the JTAG DTM to a debug module. Addresses the module
 * does not implement read 0 and ignore writes, as the spec asks of a DM
 * (a probe such as OpenOCD reads optional registers to find out what is
 * there); only a dead bus (device closed, no module) fails the access. */
#include "device/debug/jtag_dtm.h"
#include <stdio.h>

#define DMC_HALTREQ   (1u << 31)
#define DMC_RESUMEREQ (1u << 30)
/* longest a dmcontrol write waits for the device to act on it */
#define DTM_RUN_CONTROL_WAIT_MS 2000u

static ws_status dtm_read(void *ctx, uint32_t addr, uint32_t *value, char *err, size_t errlen)
{
    ws_jtag_dtm *d = ctx;
    *value = 0;
    if (!ws_dmi_implemented(addr)) return WS_OK;
    ws_status st = ws_dmi_read(d->dbg, d->dm, addr, value);
    if (st != WS_OK)
        snprintf(err, errlen, "DMI read of 0x%02x on debug module %u failed: %s", addr, d->dm, ws_debug_error(d->dbg));
    return st;
}

static ws_status dtm_write(void *ctx, uint32_t addr, uint32_t value, char *err, size_t errlen)
{
    ws_jtag_dtm *d = ctx;
    if (!ws_dmi_implemented(addr)) return WS_OK;
    ws_status st = ws_dmi_write(d->dbg, d->dm, addr, value);
    if (st != WS_OK) {
        snprintf(err, errlen, "DMI write of 0x%02x on debug module %u failed: %s", addr, d->dm,
                 ws_debug_error(d->dbg));
        return st;
    }
    /* Silicon halts or resumes a hart (or a core, by a mode-switch frame)
     * within cycles of the write; here the device thread acts at its next
     * safe point, which on a loaded host may be many milliseconds away. A
     * probe polls dmstatus only so many times (OpenOCD 0.12: 256) before
     * it gives up, so the access completes once the device has acted. On
     * a timeout the probe reads the state as it is and reports it. */
    if ((addr == WS_DM_DMCONTROL && (value & (DMC_HALTREQ | DMC_RESUMEREQ))) || addr == WS_DM_MODESWITCH)
        ws_dmi_wait_run_control(d->dbg, d->dm, DTM_RUN_CONTROL_WAIT_MS);
    return WS_OK;
}

void ws_jtag_dtm_bind(ws_jtag_dtm *dtm, ws_debug *dbg, uint32_t dm, ws_jtag_dmi *dmi)
{
    dtm->dbg = dbg;
    dtm->dm = dm;
    dmi->read = dtm_read;
    dmi->write = dtm_write;
    dmi->ctx = dtm;
}
