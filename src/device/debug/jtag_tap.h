/* A JTAG TAP controller carrying the RISC-V Debug Transport Module
 * (External Debug Support 0.13.2, chapter 6): IR of 5 bits with IDCODE,
 * DTMCS, DMI and BYPASS. The DTM drives a Debug Module Interface given as
 * two functions, so the same TAP serves the device's debug bus
 * (jtag_dtm.c binds it to ws_dmi_read/ws_dmi_write) and a test's fake bus.
 *
 * The caller owns the struct and feeds it TCK edges from one thread; it
 * holds no global state and never blocks. docs/jtag-openocd.md. */
#ifndef WS_DEBUG_JTAG_TAP_H
#define WS_DEBUG_JTAG_TAP_H
#include <stdint.h>
#include "warpscope/warpscope.h"

/* IDCODE: version 1, part 0x5753 ("WS"), manufacturer 0x7fe (JEP106 bank
 * 16, code 0x7e: unknown to OpenOCD 0.12, so no probe takes the device for
 * some vendor's chip). */
#define WS_JTAG_IDCODE     0x15753FFDu
#define WS_JTAG_IR_LEN     5
#define WS_JTAG_IR_IDCODE  0x01u
#define WS_JTAG_IR_DTMCS   0x10u
#define WS_JTAG_IR_DMI     0x11u
#define WS_JTAG_IR_BYPASS  0x1fu
#define WS_JTAG_ABITS      7u   /* DM registers live at 0x00..0x7f          */
#define WS_JTAG_DMI_LEN    (WS_JTAG_ABITS + 34u)

/* dmi.op as captured (and dtmcs.dmistat). */
#define WS_DMI_OK     0u
#define WS_DMI_FAILED 2u
#define WS_DMI_BUSY   3u

typedef enum ws_tap_state {
    WS_TAP_RESET, WS_TAP_IDLE,
    WS_TAP_SELECT_DR, WS_TAP_CAPTURE_DR, WS_TAP_SHIFT_DR, WS_TAP_EXIT1_DR,
    WS_TAP_PAUSE_DR, WS_TAP_EXIT2_DR, WS_TAP_UPDATE_DR,
    WS_TAP_SELECT_IR, WS_TAP_CAPTURE_IR, WS_TAP_SHIFT_IR, WS_TAP_EXIT1_IR,
    WS_TAP_PAUSE_IR, WS_TAP_EXIT2_IR, WS_TAP_UPDATE_IR
} ws_tap_state;

/* The Debug Module Interface the DTM drives. A failing call makes the
 * access fail (sticky op 2) and leaves its message in the TAP. */
typedef struct ws_jtag_dmi {
    ws_status (*read)(void *ctx, uint32_t addr, uint32_t *value, char *err, size_t errlen);
    ws_status (*write)(void *ctx, uint32_t addr, uint32_t value, char *err, size_t errlen);
    void *ctx;
} ws_jtag_dmi;

typedef struct ws_jtag_tap {
    ws_tap_state state;
    uint32_t ir;                /* current instruction                     */
    uint64_t sr;                /* the selected shift register             */
    unsigned sr_len;
    /* DTM */
    ws_jtag_dmi dmi;
    unsigned idle;              /* dtmcs.idle: Run-Test/Idle cycles an access needs */
    uint32_t dmi_addr, dmi_data;
    uint32_t dmistat;           /* sticky: 0, WS_DMI_FAILED or WS_DMI_BUSY  */
    unsigned wait;              /* Run-Test/Idle cycles until the access completes */
    uint64_t dmi_ops;           /* accesses performed (for measurements)   */
    char err[256];              /* why the last access failed              */
} ws_jtag_tap;

/* Power-on: Test-Logic-Reset, IR = IDCODE, DTM idle. idle_cycles is the
 * dtmcs.idle hint (0..7) the DTM also enforces: a dmi capture or update
 * sooner after an access sets the sticky busy status. */
void ws_jtag_tap_init(ws_jtag_tap *t, const ws_jtag_dmi *dmi, unsigned idle_cycles);
/* TRST: back to Test-Logic-Reset with IR = IDCODE (the DTM keeps its
 * sticky status, as TRST does not reach dmireset). */
void ws_jtag_tap_trst(ws_jtag_tap *t);
/* One rising TCK edge with these TMS and TDI levels. */
void ws_jtag_tap_clock(ws_jtag_tap *t, int tms, int tdi);
/* The TDO level now (what the probe samples while TCK is low). */
int ws_jtag_tap_tdo(const ws_jtag_tap *t);
/* "Shift-DR" etc., for messages. */
const char *ws_tap_state_name(ws_tap_state s);

#endif
