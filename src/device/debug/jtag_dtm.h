/* The DTM's side of the debug bus: a ws_jtag_dmi that reaches one debug
 * module through ws_dmi_read / ws_dmi_write, the calls the gdb server
 * uses (they take the debug lock, so the TAP may run on any thread). */
#ifndef WS_DEBUG_JTAG_DTM_H
#define WS_DEBUG_JTAG_DTM_H
#include "device/debug/debug.h"
#include "device/debug/jtag_tap.h"

typedef struct ws_jtag_dtm {
    ws_debug *dbg;
    uint32_t dm;                /* the debug module this DTM reaches       */
} ws_jtag_dtm;

/* Fill *dmi with functions reaching module dm of dbg through *dtm (which
 * must outlive the TAP using it). */
void ws_jtag_dtm_bind(ws_jtag_dtm *dtm, ws_debug *dbg, uint32_t dm, ws_jtag_dmi *dmi);

#endif
