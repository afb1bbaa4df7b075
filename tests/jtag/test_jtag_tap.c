/* Bit-level tests of the JTAG TAP + RISC-V DTM (src/device/debug/jtag_tap.c)
 * and the remote_bitbang decoder (src/jtag/bitbang.c): the TAP state
 * machine against IEEE 1149.1's diagram, IR and DR scans bit by bit,
 * dtmcs fields and dmi busy / failed handling as spec 0.13.2 chapter 6
 * describes them, on a fake debug bus and on the device's debug module.
 *   test_jtag_tap tap|ir|bypass|dtmcs|dmi|busy|failed|bitbang|device|localharts|chain|options|secondprobe|stuckprobe
 *   test_jtag_tap runctl|runctl_barrier KERNELS.elf */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "device/debug/debug.h"
#include "device/debug/jtag_dtm.h"
#include "device/debug/jtag_tap.h"
#include "jtag/bitbang.h"
#include "jtag/jtag_server.h"
#include "net/spec.h"
#include "test.h"

/* ---- a fake debug bus: 128 registers, optionally failing ---- */
typedef struct fake_bus {
    uint32_t reg[128];
    int fail, reads, writes;
} fake_bus;

static ws_status fake_read(void *ctx, uint32_t addr, uint32_t *v, char *err, size_t errlen)
{
    fake_bus *b = ctx;
    b->reads++;
    if (b->fail) { snprintf(err, errlen, "fake bus refuses 0x%02x", addr); return WS_ERR_IO; }
    *v = b->reg[addr & 127];
    return WS_OK;
}

static ws_status fake_write(void *ctx, uint32_t addr, uint32_t v, char *err, size_t errlen)
{
    fake_bus *b = ctx;
    b->writes++;
    if (b->fail) { snprintf(err, errlen, "fake bus refuses 0x%02x", addr); return WS_ERR_IO; }
    b->reg[addr & 127] = v;
    return WS_OK;
}

static void fake_tap(ws_jtag_tap *t, fake_bus *b)
{
    memset(b, 0, sizeof *b);
    ws_jtag_dmi dmi = { fake_read, fake_write, b };
    ws_jtag_tap_init(t, &dmi, 1);
}

/* ---- probe helpers: every bit is one TCK edge, TDO sampled before it ---- */
static void clk(ws_jtag_tap *t, int tms) { ws_jtag_tap_clock(t, tms, 0); }

static void to_idle(ws_jtag_tap *t)
{
    for (int i = 0; i < 5; i++) clk(t, 1);
    clk(t, 0);
}

/* Shift len bits of v in (from Shift-xR), leave in Exit1-xR; returns TDO. */
static uint64_t shift(ws_jtag_tap *t, uint64_t v, unsigned len)
{
    uint64_t out = 0;
    for (unsigned i = 0; i < len; i++) {
        out |= (uint64_t)ws_jtag_tap_tdo(t) << i;
        ws_jtag_tap_clock(t, i == len - 1, (int)(v >> i & 1));
    }
    return out;
}

/* From Run-Test/Idle or Update-xR: scan the IR, end in Run-Test/Idle. */
static uint32_t scan_ir(ws_jtag_tap *t, uint32_t ir)
{
    clk(t, 1); clk(t, 1); clk(t, 0); clk(t, 0);  /* Select-DR, Select-IR, Capture-IR, Shift-IR */
    uint32_t out = (uint32_t)shift(t, ir, WS_JTAG_IR_LEN);
    clk(t, 1); clk(t, 0);                        /* Update-IR, Run-Test/Idle */
    return out;
}

/* From Run-Test/Idle or Update-DR: scan the DR; then `idle` Run-Test/Idle
 * cycles, or (idle < 0) stay in Update-DR. */
static uint64_t scan_dr(ws_jtag_tap *t, uint64_t v, unsigned len, int idle)
{
    clk(t, 1); clk(t, 0); clk(t, 0);             /* Select-DR, Capture-DR, Shift-DR */
    uint64_t out = shift(t, v, len);
    clk(t, 1);                                   /* Update-DR */
    if (idle >= 0) {
        clk(t, 0);                               /* Run-Test/Idle */
        for (int i = 0; i < idle; i++) clk(t, 0);
    }
    return out;
}

static uint64_t dmi_word(uint32_t addr, uint32_t data, uint32_t op)
{
    return (uint64_t)addr << 34 | (uint64_t)data << 2 | op;
}

/* ---- tests ---- */

static void test_tap(void)
{
    /* The full transition table, state by state, from the diagram. */
    static const ws_tap_state expect[16][2] = {
        { WS_TAP_IDLE, WS_TAP_RESET }, { WS_TAP_IDLE, WS_TAP_SELECT_DR },
        { WS_TAP_CAPTURE_DR, WS_TAP_SELECT_IR }, { WS_TAP_SHIFT_DR, WS_TAP_EXIT1_DR },
        { WS_TAP_SHIFT_DR, WS_TAP_EXIT1_DR }, { WS_TAP_PAUSE_DR, WS_TAP_UPDATE_DR },
        { WS_TAP_PAUSE_DR, WS_TAP_EXIT2_DR }, { WS_TAP_SHIFT_DR, WS_TAP_UPDATE_DR },
        { WS_TAP_IDLE, WS_TAP_SELECT_DR }, { WS_TAP_CAPTURE_IR, WS_TAP_RESET },
        { WS_TAP_SHIFT_IR, WS_TAP_EXIT1_IR }, { WS_TAP_SHIFT_IR, WS_TAP_EXIT1_IR },
        { WS_TAP_PAUSE_IR, WS_TAP_UPDATE_IR }, { WS_TAP_PAUSE_IR, WS_TAP_EXIT2_IR },
        { WS_TAP_SHIFT_IR, WS_TAP_UPDATE_IR }, { WS_TAP_IDLE, WS_TAP_SELECT_DR },
    };
    ws_jtag_tap t;
    fake_bus b;
    fake_tap(&t, &b);
    CHECK_EQ_U(t.state, WS_TAP_RESET);
    for (int s = 0; s < 16; s++)
        for (int tms = 0; tms < 2; tms++) {
            t.state = (ws_tap_state)s;
            clk(&t, tms);
            if (t.state != expect[s][tms])
                fprintf(stderr, "from %s with TMS=%d: %s\n", ws_tap_state_name((ws_tap_state)s), tms,
                        ws_tap_state_name(t.state));
            CHECK_EQ_U(t.state, expect[s][tms]);
        }
    /* Five TMS=1 edges reach Test-Logic-Reset from every state. */
    for (int s = 0; s < 16; s++) {
        t.state = (ws_tap_state)s;
        for (int i = 0; i < 5; i++) clk(&t, 1);
        CHECK_EQ_U(t.state, WS_TAP_RESET);
    }
    /* After reset the IR holds IDCODE: a 32-bit DR scan reads it. */
    t.ir = WS_JTAG_IR_DMI;
    to_idle(&t);
    CHECK_EQ_U(t.ir, WS_JTAG_IR_IDCODE);
    CHECK_EQ_U(scan_dr(&t, 0, 32, 0), WS_JTAG_IDCODE);
    CHECK_EQ_U(WS_JTAG_IDCODE & 1, 1);
    /* Pause-DR in the middle of a scan keeps the bits. */
    clk(&t, 1); clk(&t, 0); clk(&t, 0);
    uint64_t lo = shift(&t, 0, 16);              /* Exit1-DR */
    clk(&t, 0); clk(&t, 0); clk(&t, 1);          /* Pause-DR twice, Exit2-DR */
    clk(&t, 0);                                  /* Shift-DR */
    uint64_t hi = shift(&t, 0, 16);
    clk(&t, 1); clk(&t, 0);
    CHECK_EQ_U(lo | hi << 16, WS_JTAG_IDCODE);
}

static void test_ir(void)
{
    ws_jtag_tap t;
    fake_bus b;
    fake_tap(&t, &b);
    to_idle(&t);
    CHECK_EQ_U(scan_ir(&t, WS_JTAG_IR_DTMCS), 1);  /* Capture-IR loads 0b00001 */
    CHECK_EQ_U(t.ir, WS_JTAG_IR_DTMCS);
    CHECK_EQ_U(scan_ir(&t, WS_JTAG_IR_DMI), 1);
    CHECK_EQ_U(t.ir, WS_JTAG_IR_DMI);
    /* The IR changes only at Update-IR: leaving through Exit1 -> Update. */
    clk(&t, 1); clk(&t, 1); clk(&t, 0); clk(&t, 0);
    shift(&t, WS_JTAG_IR_BYPASS, 4);               /* four bits, the last into Exit1-IR */
    CHECK_EQ_U(t.state, WS_TAP_EXIT1_IR);
    CHECK_EQ_U(t.ir, WS_JTAG_IR_DMI);
    clk(&t, 1);                                    /* Update-IR: 0b00001 shifted right 4 times under 1s */
    CHECK_EQ_U(t.ir, 0x1e);
}

static void test_bypass(void)
{
    ws_jtag_tap t;
    fake_bus b;
    fake_tap(&t, &b);
    to_idle(&t);
    uint32_t irs[] = { WS_JTAG_IR_BYPASS, 0x00, 0x05, 0x1e };
    for (size_t i = 0; i < sizeof irs / sizeof *irs; i++) {
        scan_ir(&t, irs[i]);
        /* A one-bit register: what goes in comes out one bit later, after
         * the captured 0. */
        uint64_t out = scan_dr(&t, 0xA5, 8, 0);
        CHECK_EQ_U(out, (0xA5u << 1) & 0xFF);
    }
    CHECK_EQ_U(b.reads + b.writes, 0);
}

static void test_dtmcs(void)
{
    ws_jtag_tap t;
    fake_bus b;
    fake_tap(&t, &b);
    to_idle(&t);
    scan_ir(&t, WS_JTAG_IR_DTMCS);
    uint32_t v = (uint32_t)scan_dr(&t, 0, 32, 0);
    CHECK_EQ_U(v & 0xF, 1);                        /* version: 0.13 */
    CHECK_EQ_U(v >> 4 & 0x3F, WS_JTAG_ABITS);      /* abits */
    CHECK_EQ_U(v >> 10 & 3, 0);                    /* dmistat */
    CHECK_EQ_U(v >> 12 & 7, 1);                    /* idle */
    CHECK_EQ_U(v >> 15, 0);                        /* reserved, dmireset, dmihardreset read 0 */
    /* idle is what the TAP was built with */
    ws_jtag_dmi dmi = { fake_read, fake_write, &b };
    ws_jtag_tap_init(&t, &dmi, 5);
    to_idle(&t);
    scan_ir(&t, WS_JTAG_IR_DTMCS);
    CHECK_EQ_U(scan_dr(&t, 0, 32, 0) >> 12 & 7, 5);
}

static void test_dmi(void)
{
    ws_jtag_tap t;
    fake_bus b;
    fake_tap(&t, &b);
    to_idle(&t);
    scan_ir(&t, WS_JTAG_IR_DMI);
    scan_dr(&t, dmi_word(0x10, 0xCAFEF00D, 2), WS_JTAG_DMI_LEN, 1);  /* write */
    CHECK_EQ_U(b.writes, 1);
    CHECK_EQ_U(b.reg[0x10], 0xCAFEF00D);
    b.reg[0x11] = 0x00400382;
    scan_dr(&t, dmi_word(0x11, 0, 1), WS_JTAG_DMI_LEN, 1);            /* read */
    uint64_t r = scan_dr(&t, dmi_word(0, 0, 0), WS_JTAG_DMI_LEN, 1);  /* nop: collect */
    CHECK_EQ_U(r & 3, WS_DMI_OK);
    CHECK_EQ_U((uint32_t)(r >> 2), 0x00400382);
    CHECK_EQ_U(r >> 34, 0x11);
    CHECK_EQ_U(b.reads, 1);
    CHECK_EQ_U(t.dmi_ops, 2);
    /* The address field is abits wide: bits above it do not reach the bus. */
    scan_dr(&t, dmi_word(0x7f, 7, 2), WS_JTAG_DMI_LEN, 1);
    CHECK_EQ_U(b.reg[0x7f], 7);
}

static void test_busy(void)
{
    ws_jtag_tap t;
    fake_bus b;
    fake_tap(&t, &b);
    to_idle(&t);
    scan_ir(&t, WS_JTAG_IR_DMI);
    b.reg[0x04] = 0x1234;
    scan_dr(&t, dmi_word(0x04, 0, 1), WS_JTAG_DMI_LEN, -1);  /* read, no Run-Test/Idle after */
    uint64_t r = scan_dr(&t, dmi_word(0x05, 99, 2), WS_JTAG_DMI_LEN, -1);
    CHECK_EQ_U(r & 3, WS_DMI_BUSY);                           /* captured too soon */
    CHECK_EQ_U(b.writes, 0);                                  /* ... and the write was dropped */
    /* sticky: even after waiting, dmi reports busy and ignores ops */
    clk(&t, 0); clk(&t, 0); clk(&t, 0);
    r = scan_dr(&t, dmi_word(0x05, 99, 2), WS_JTAG_DMI_LEN, 2);
    CHECK_EQ_U(r & 3, WS_DMI_BUSY);
    CHECK_EQ_U(b.writes, 0);
    scan_ir(&t, WS_JTAG_IR_DTMCS);
    CHECK_EQ_U(scan_dr(&t, 0, 32, 1) >> 10 & 3, WS_DMI_BUSY); /* dtmcs.dmistat */
    scan_dr(&t, 1u << 16, 32, 1);                             /* dmireset */
    CHECK_EQ_U(scan_dr(&t, 0, 32, 1) >> 10 & 3, 0);
    scan_ir(&t, WS_JTAG_IR_DMI);
    scan_dr(&t, dmi_word(0x05, 99, 2), WS_JTAG_DMI_LEN, 1);
    CHECK_EQ_U(b.writes, 1);
    CHECK_EQ_U(b.reg[0x05], 99);
    /* dmihardreset also forgets an access in progress */
    scan_dr(&t, dmi_word(0x04, 0, 1), WS_JTAG_DMI_LEN, -1);
    CHECK(t.wait > 0);
    clk(&t, 1); clk(&t, 1); clk(&t, 0); clk(&t, 0);           /* IR scan straight from Update-DR */
    shift(&t, WS_JTAG_IR_DTMCS, WS_JTAG_IR_LEN);
    clk(&t, 1); clk(&t, 1);                                   /* Update-IR -> Select-DR */
    clk(&t, 0); clk(&t, 0);
    shift(&t, 1u << 17, 32);
    clk(&t, 1);
    CHECK_EQ_U(t.wait, 0);
    CHECK_EQ_U(t.dmistat, 0);
}

static void test_failed(void)
{
    ws_jtag_tap t;
    fake_bus b;
    fake_tap(&t, &b);
    to_idle(&t);
    scan_ir(&t, WS_JTAG_IR_DMI);
    b.fail = 1;
    scan_dr(&t, dmi_word(0x16, 0, 1), WS_JTAG_DMI_LEN, 1);
    CHECK_STR_CONTAINS(t.err, "fake bus refuses 0x16");
    b.fail = 0;
    uint64_t r = scan_dr(&t, dmi_word(0x16, 0, 1), WS_JTAG_DMI_LEN, 1);
    CHECK_EQ_U(r & 3, WS_DMI_FAILED);
    CHECK_EQ_U(b.reads, 1);                                   /* sticky: the second read was ignored */
    scan_ir(&t, WS_JTAG_IR_DTMCS);
    CHECK_EQ_U(scan_dr(&t, 1u << 16, 32, 1) >> 10 & 3, WS_DMI_FAILED);
    CHECK_EQ_U(t.dmistat, 0);                                 /* the dmireset in that scan */
    scan_ir(&t, WS_JTAG_IR_DMI);
    scan_dr(&t, dmi_word(0x16, 0, 1), WS_JTAG_DMI_LEN, 1);
    CHECK_EQ_U(scan_dr(&t, 0, WS_JTAG_DMI_LEN, 1) & 3, WS_DMI_OK);
    CHECK_EQ_U(b.reads, 2);
}

/* Feed a string to the decoder; returns its status, replies in out. */
static ws_status feed(ws_bitbang *bb, const char *s, char *out, char *err)
{
    size_t nout = 0, used = 0;
    ws_status st = ws_bitbang_feed(bb, (const uint8_t *)s, strlen(s), out, &nout, &used, err, 256);
    out[nout] = 0;
    return st;
}

static void test_bitbang(void)
{
    ws_jtag_tap t;
    fake_bus b;
    fake_tap(&t, &b);
    ws_bitbang bb;
    ws_bitbang_init(&bb, &t);
    char out[256], err[256];
    /* TMS=1 with TCK low, then high: one edge each pair; five reach reset,
     * then Idle, Select-DR, Capture-DR, Shift-DR: read IDCODE's low bits. */
    CHECK_EQ_U(feed(&bb, "262626262604260404", out, err), WS_OK);
    CHECK_EQ_U(t.state, WS_TAP_SHIFT_DR);
    CHECK_EQ_U(bb.edges, 9);
    CHECK_EQ_U(feed(&bb, "R04R04R04R04", out, err), WS_OK);
    CHECK(!strcmp(out, "1011"));                              /* 0x...D = 1101, LSB first */
    CHECK(ws_bitbang_mid_scan(&bb));
    /* TCK held high: levels change, no new edge */
    CHECK_EQ_U(feed(&bb, "4567", out, err), WS_OK);
    CHECK_EQ_U(bb.edges, 13);
    /* TRST ('t', 'u') resets the TAP; SRST alone ('s') does not */
    CHECK_EQ_U(feed(&bb, "s", out, err), WS_OK);
    CHECK_EQ_U(t.state, WS_TAP_SHIFT_DR);
    CHECK_EQ_U(feed(&bb, "tr", out, err), WS_OK);
    CHECK_EQ_U(t.state, WS_TAP_RESET);
    CHECK(!ws_bitbang_mid_scan(&bb));
    CHECK_EQ_U(feed(&bb, "Bb", out, err), WS_OK);
    /* garbage: a clear error naming the byte and where it was in the
     * stream (39 bytes came before this call) */
    CHECK_EQ_U(feed(&bb, "0R1X", out, err), WS_ERR_INVALID_ARG);
    CHECK(!strcmp(out, "0"));
    CHECK_STR_CONTAINS(err, "0x58 ('X') at offset 42");
    CHECK_EQ_U(feed(&bb, "\x01", out, err), WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "byte 0x01 at offset 42 is not a remote_bitbang command");
    {   /* a fresh stream whose bad byte comes in its second read: the
         * offset counts both (it said "at offset 1": the server then
         * wrote "after 4 bytes: ... at offset 1") */
        ws_bitbang fresh;
        ws_bitbang_init(&fresh, &t);
        CHECK_EQ_U(feed(&fresh, "0R1", out, err), WS_OK);
        CHECK_EQ_U(feed(&fresh, "2X", out, err), WS_ERR_INVALID_ARG);
        CHECK_STR_CONTAINS(err, "0x58 ('X') at offset 4 is not");
    }
    /* Q stops decoding */
    size_t nout, used;
    CHECK_EQ_U(ws_bitbang_feed(&bb, (const uint8_t *)"RQR", 3, out, &nout, &used, err, sizeof err), WS_OK);
    CHECK(bb.quit);
    CHECK_EQ_U(nout, 1);
    CHECK_EQ_U(used, 2);
}

/* The DTM on the device's own debug module: what JTAG reads is what
 * ws_dmi_read reads; optional registers read 0; a closed device fails. */
static void test_device(void)
{
    ws_config c;
    ws_config_default(&c);
    ws_device *dev = NULL;
    ws_debug *dbg = NULL;
    ws_debug_config dc = { WS_DBG_TOPO_BROADCAST, 1 };
    CHECK_EQ_U(ws_device_open(&c, &dev), WS_OK);
    if (!dev) return;
    CHECK_EQ_U(ws_debug_attach(dev, &dc, &dbg), WS_OK);
    if (!dbg) return;
    ws_jtag_dtm dtm;
    ws_jtag_dmi dmi;
    ws_jtag_dtm_bind(&dtm, dbg, 0, &dmi);
    ws_jtag_tap t;
    ws_jtag_tap_init(&t, &dmi, 1);
    to_idle(&t);
    scan_ir(&t, WS_JTAG_IR_DMI);
    scan_dr(&t, dmi_word(WS_DM_DMCONTROL, 1, 2), WS_JTAG_DMI_LEN, 1);   /* dmactive */
    scan_dr(&t, dmi_word(WS_DM_DMSTATUS, 0, 1), WS_JTAG_DMI_LEN, 1);
    uint64_t r = scan_dr(&t, dmi_word(WS_DM_DMCONTROL, 0, 1), WS_JTAG_DMI_LEN, 1);
    uint32_t direct = 0;
    CHECK_EQ_U(ws_dmi_read(dbg, 0, WS_DM_DMSTATUS, &direct), WS_OK);
    CHECK_EQ_U(r & 3, WS_DMI_OK);
    CHECK_EQ_U((uint32_t)(r >> 2), direct);
    CHECK_EQ_U(direct & 0xF, 2);                                        /* version 0.13 */
    r = scan_dr(&t, dmi_word(0x32, 0, 1), WS_JTAG_DMI_LEN, 1);          /* dmcontrol result; read dmcs2 */
    CHECK_EQ_U((uint32_t)(r >> 2) & 1, 1);                              /* dmactive */
    r = scan_dr(&t, dmi_word(0, 0, 0), WS_JTAG_DMI_LEN, 1);
    CHECK_EQ_U(r & 3, WS_DMI_OK);                                       /* not implemented: reads 0 */
    CHECK_EQ_U((uint32_t)(r >> 2), 0);
    /* data0 through JTAG and directly */
    scan_dr(&t, dmi_word(WS_DM_DATA0, 0x5EED, 2), WS_JTAG_DMI_LEN, 1);
    CHECK_EQ_U(ws_dmi_read(dbg, 0, WS_DM_DATA0, &direct), WS_OK);
    CHECK_EQ_U(direct, 0x5EED);
    ws_device_close(dev);
    scan_dr(&t, dmi_word(WS_DM_DMSTATUS, 0, 1), WS_JTAG_DMI_LEN, 1);
    CHECK_EQ_U(scan_dr(&t, 0, WS_JTAG_DMI_LEN, 1) & 3, WS_DMI_FAILED);
    CHECK_STR_CONTAINS(t.err, "device was closed");
    ws_debug_detach(dbg);
}

/* Per-core modules in module numbering (what topology=per-core gives
 * OpenOCD): hart 0 of module 1 is core 1's first hart, hartsel is WARL to
 * the bits the module's harts need, numbers past them are nonexistent,
 * and hasel reads 0. Lanes 4 x warps 2 x cores 3: 8 harts a module. */
static void test_localharts(void)
{
    ws_config c;
    ws_config_default(&c);
    c.cores = 3;
    c.warps_per_core = 2;
    c.lanes_per_warp = 4;
    c.max_threads_per_block = 8;
    ws_device *dev = NULL;
    ws_debug *dbg = NULL;
    ws_debug_config dc = { WS_DBG_TOPO_PER_CORE, 1 };
    CHECK_EQ_U(ws_device_open(&c, &dev), WS_OK);
    if (!dev) return;
    CHECK_EQ_U(ws_debug_attach(dev, &dc, &dbg), WS_OK);
    if (!dbg) return;
    CHECK_EQ_U(ws_debug_local_harts(dbg, 1), WS_OK);
    uint32_t v = 0, hi = 0x3FFu << 6, all = 0x3FFu << 16 | hi;
    /* every hartsel bit written: 3 of them read back, hasel reads 0 */
    CHECK_EQ_U(ws_dmi_write(dbg, 1, WS_DM_DMCONTROL, all | 1u << 26 | 1), WS_OK);
    CHECK_EQ_U(ws_dmi_read(dbg, 1, WS_DM_DMCONTROL, &v), WS_OK);
    CHECK_EQ_U(v, 7u << 16 | 1);
    CHECK_EQ_U(ws_dmi_read(dbg, 1, WS_DM_DMSTATUS, &v), WS_OK);
    CHECK_EQ_U(v >> 14 & 1, 0);                                  /* local hart 7 exists */
    /* hart 0 of module 2 is core 2's first hart: mhartid 16 is not
     * readable while no thread runs there, but it exists */
    CHECK_EQ_U(ws_dmi_write(dbg, 2, WS_DM_DMCONTROL, 1), WS_OK);
    CHECK_EQ_U(ws_dmi_read(dbg, 2, WS_DM_DMSTATUS, &v), WS_OK);
    CHECK_EQ_U(v >> 14 & 1, 0);
    CHECK_EQ_U(v >> 12 & 1, 1);                                  /* anyunavailable */
    /* global numbering again: hart 7 of module 1 is on core 0 */
    CHECK_EQ_U(ws_debug_local_harts(dbg, 0), WS_OK);
    CHECK_EQ_U(ws_dmi_write(dbg, 1, WS_DM_DMCONTROL, 7u << 16 | 1), WS_OK);
    CHECK_EQ_U(ws_dmi_read(dbg, 1, WS_DM_DMSTATUS, &v), WS_OK);
    CHECK_EQ_U(v >> 14 & 1, 1);                                  /* anynonexistent */
    ws_debug_detach(dbg);
    ws_device_close(dev);
}

/* Two TAPs in one chain: an IDCODE scan shifts both IDCODEs out, the one
 * nearest TDO (tap[0]) first. */
static void test_chain(void)
{
    ws_jtag_tap t[2];
    ws_jtag_tap_init(&t[0], NULL, 1);
    ws_jtag_tap_init(&t[1], NULL, 1);
    ws_bitbang b;
    ws_bitbang_init_chain(&b, t, 2);
    /* reset, Idle, Select-DR, Capture-DR, Shift-DR; then 64 reads */
    char in[600], out[600];
    size_t n = 0, nout = 0, used = 0;
    const char *pre = "262626262604260404";
    for (const char *p = pre; *p; p++) in[n++] = *p;
    for (int i = 0; i < 64; i++) { in[n++] = 'R'; in[n++] = '0'; in[n++] = '4'; }
    char err[128];
    CHECK_EQ_U(ws_bitbang_feed(&b, (const uint8_t *)in, n, out, &nout, &used, err, sizeof err), WS_OK);
    CHECK_EQ_U(nout, 64);
    uint64_t got = 0;
    for (int i = 0; i < 64 && i < (int)nout; i++) got |= (uint64_t)(out[i] == '1') << i;
    CHECK_EQ_U((uint32_t)got, WS_JTAG_IDCODE);
    CHECK_EQ_U((uint32_t)(got >> 32), WS_JTAG_IDCODE);
}

/* A device of the default configuration (NULL, a CHECK failed, if none). */
static ws_device *open_default_device(void)
{
    ws_config c;
    ws_config_default(&c);
    ws_device *dev = NULL;
    CHECK_EQ_U(ws_device_open(&c, &dev), WS_OK);
    return dev;
}

/* WARPSCOPE_JTAG's settings: a refused one is named with its value, a
 * port-file path or a whole spec too long to keep is refused, never cut
 * short (the port was written to a file of another name). */
static void test_options(void)
{
    ws_device *dev = open_default_device();
    if (!dev) return;
    const char *bad[][2] = {
        { "port=abc", "cannot use 'port=abc'" },
        { "port=99999", "cannot use 'port=99999'" },
        { "port= 5", "cannot use 'port= 5'" },
        { "port=+5", "cannot use 'port=+5'" },
        { "idle=8", "cannot use 'idle=8'" },
        { "topology=groups:0", "cannot use 'topology=groups:0'" },
        { "port-file=", "cannot use 'port-file='" },
        { "bogus", "cannot use 'bogus'" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        CHECK_EQ_U(ws_jtag_server_attach(dev, bad[i][0]), WS_ERR_INVALID_ARG);
        CHECK_STR_CONTAINS(ws_last_error(dev), bad[i][1]);
    }
    char spec[1200], path[700];
    memset(path, 'a', sizeof path - 1);
    path[sizeof path - 1] = 0;
    path[0] = '/';
    snprintf(spec, sizeof spec, "port=0,port-file=%s", path);
    CHECK_EQ_U(ws_jtag_server_attach(dev, spec), WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "cannot use 'port-file=/aaa");
    memset(spec, 'x', sizeof spec - 1);
    spec[sizeof spec - 1] = 0;
    memcpy(spec, "port-file=/", 11);
    CHECK_EQ_U(ws_jtag_server_attach(dev, spec), WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "WARPSCOPE_JTAG: the settings are 1199 bytes long, at most 1023 are read");
    long n = -1;
    CHECK_EQ_U(ws_spec_uint("65535", 65535, &n), 0);
    CHECK_EQ_U(n, 65535);
    CHECK(ws_spec_uint("-0", 65535, &n) < 0);
    CHECK(ws_spec_uint("99999999999999999999", 65535, &n) < 0);
    ws_device_close(dev);
    /* a chain longer than 16 TAPs is refused when the program opens the
     * device, with the group size that fits, not when a probe connects */
    ws_config c;
    ws_config_default(&c);
    c.cores = 40;
    dev = NULL;
    CHECK_EQ_U(ws_device_open(&c, &dev), WS_OK);
    if (!dev) return;
    CHECK_EQ_U(ws_jtag_server_attach(dev, "port=0,topology=per-core"), WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "topology=per-core on 40 cores gives 40 debug modules");
    CHECK_STR_CONTAINS(ws_last_error(dev), "use topology=groups:3 or more");
    CHECK_EQ_U(ws_jtag_server_attach(dev, "port=0,topology=groups:2"), WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "topology=groups on 40 cores gives 20 debug modules");
    /* the last topology given is the one (per-core here, not groups:2), and
     * N of groups:N is digits only, as port=N */
    CHECK_EQ_U(ws_jtag_server_attach(dev, "port=0,topology=groups:2,topology=per-core"), WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "topology=per-core on 40 cores gives 40 debug modules");
    CHECK_EQ_U(ws_jtag_server_attach(dev, "port=0,topology=groups:+3"), WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "cannot use 'topology=groups:+3'");
    CHECK_EQ_U(ws_jtag_server_attach(dev, "port=0,topology=groups:3"), WS_OK);
    ws_device_close(dev);
}

static int probe_connect(unsigned port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof a)) {
        close(fd);
        fd = -1;
    }
    return fd;
}

/* What fd receives within ms: a byte (0-255), -1 if the server closed
 * it, -2 if nothing came. */
static int probe_reply(int fd, int ms)
{
    struct pollfd p = { fd, POLLIN, 0 };
    if (poll(&p, 1, ms) <= 0) return -2;
    unsigned char c;
    return recv(fd, &c, 1, 0) == 1 ? c : -1;
}

/* One probe at a time: a second one is closed at once (it waited
 * unanswered until the first left, so a second OpenOCD hung), the first
 * is still served, and after it quits the next one is. */
/* Attach the JTAG server on a free port, its port file in a new directory
 * under the test's own (not /tmp, whatever TMPDIR says): dir receives
 * the directory's name, pf the file's; returns the port (0 on failure). */
static unsigned attach_on_free_port(ws_device *dev, char dir[15], char pf[64])
{
    char spec[128];
    strcpy(dir, "ws_jtag_XXXXXX");
    CHECK(mkdtemp(dir) != NULL);
    snprintf(pf, 64, "%s/port", dir);
    snprintf(spec, sizeof spec, "port=0,port-file=%s", pf);
    CHECK_EQ_U(ws_jtag_server_attach(dev, spec), WS_OK);
    unsigned port = 0;
    FILE *f = fopen(pf, "r");
    CHECK(f && fscanf(f, "%u", &port) == 1);
    if (f) fclose(f);
    return port;
}

static void test_secondprobe(void)
{
    ws_device *dev = open_default_device();
    if (!dev) return;
    char dir[15], pf[64];
    unsigned port = attach_on_free_port(dev, dir, pf);
    int a = probe_connect(port);
    CHECK(a >= 0);
    CHECK_EQ_U(send(a, "0R", 2, MSG_NOSIGNAL), 2);
    int r = probe_reply(a, 5000);
    CHECK(r == '0' || r == '1'); /* a is the probe being served */
    int b = probe_connect(port);
    CHECK(b >= 0);
    CHECK_EQ_U(send(b, "R", 1, MSG_NOSIGNAL), 1);
    CHECK(probe_reply(b, 5000) == -1); /* refused: closed, not left waiting */
    CHECK_EQ_U(send(a, "R", 1, MSG_NOSIGNAL), 1);
    r = probe_reply(a, 5000);
    CHECK(r == '0' || r == '1');
    CHECK_EQ_U(send(a, "Q", 1, MSG_NOSIGNAL), 1);
    CHECK(probe_reply(a, 5000) == -1); /* the server hangs up after Q */
    int n = probe_connect(port);
    CHECK(n >= 0);
    CHECK_EQ_U(send(n, "R", 1, MSG_NOSIGNAL), 1);
    r = probe_reply(n, 5000);
    CHECK(r == '0' || r == '1');
    close(a);
    close(b);
    close(n);
    ws_device_close(dev);
    unlink(pf);
    rmdir(dir);
}

/* A probe that stops reading its answers (a stuck or stopped OpenOCD)
 * fills the socket; closing the device must still return, within the
 * server's grace second, not wait for the probe forever (the program
 * used to hang at exit, after printing its results). */
typedef struct closer {
    ws_device *dev;
    atomic_int done;
} closer;

static void *close_main(void *arg)
{
    closer *c = arg;
    ws_device_close(c->dev);
    atomic_store(&c->done, 1);
    return NULL;
}

static void test_stuckprobe(void)
{
    ws_device *dev = open_default_device();
    if (!dev) return;
    char dir[15], pf[64];
    unsigned port = attach_on_free_port(dev, dir, pf);
    int a = probe_connect(port);
    CHECK(a >= 0);
    int small = 4096;
    setsockopt(a, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    static char rs[65536];
    memset(rs, 'R', sizeof rs);
    /* send 'R's, never read the answers, until the server stops taking them */
    size_t sent = 0;
    for (int idle = 0; idle < 20 && sent < ((size_t)64 << 20);) {
        ssize_t w = send(a, rs, sizeof rs, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w > 0) { sent += (size_t)w; idle = 0; continue; }
        idle++;
        nanosleep(&(struct timespec){ 0, 20000000 }, NULL);
    }
    CHECK(sent > 0);
    closer c = { dev, 0 };
    pthread_t th;
    CHECK_EQ_U(pthread_create(&th, NULL, close_main, &c), 0);
    int ms = 0;
    while (!atomic_load(&c.done) && ms < 10000) {
        nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
        ms += 10;
    }
    if (!atomic_load(&c.done)) {
        fprintf(stderr, "FAIL: ws_device_close still waits for a probe that does not read, after %d ms\n", ms);
        exit(1); /* the close thread cannot be joined */
    }
    pthread_join(th, NULL);
    CHECK(ms < 5000);
    close(a);
    unlink(pf);
    rmdir(dir);
}

/* ---- run control through the DTM against a running launch ---- */

static uint32_t jt_read(ws_jtag_tap *t, uint32_t addr)
{
    scan_dr(t, dmi_word(addr, 0, 1), WS_JTAG_DMI_LEN, 1);
    return (uint32_t)(scan_dr(t, 0, WS_JTAG_DMI_LEN, 1) >> 2);
}

static void jt_write(ws_jtag_tap *t, uint32_t addr, uint32_t v)
{
    scan_dr(t, dmi_word(addr, v, 2), WS_JTAG_DMI_LEN, 1);
}

/* Access Register, 32 bits, transfer (and write) */
static void jt_reg_write(ws_jtag_tap *t, uint32_t regno, uint32_t v)
{
    jt_write(t, WS_DM_DATA0, v);
    jt_write(t, WS_DM_COMMAND, 2u << 20 | 1u << 17 | 1u << 16 | regno);
}

static uint32_t jt_reg_read(ws_jtag_tap *t, uint32_t regno)
{
    jt_write(t, WS_DM_COMMAND, 2u << 20 | 1u << 17 | regno);
    return jt_read(t, WS_DM_DATA0);
}

#define DMS_ALLHALTED    (1u << 9)
#define DMS_ALLRUNNING   (1u << 11)
#define DMS_ALLRESUMEACK (1u << 17)

/* A launch of one block of 8 threads on its own thread, and the 1-core
 * device it runs on, a debugger attached as the JTAG server attaches. */
typedef struct small_launch {
    ws_device *dev;
    ws_module *mod;
    ws_debug *dbg;
    ws_kernel *k;
    ws_addr buf;                 /* `bytes` of zeros */
    ws_arg args[4];
    uint32_t nargs;
    ws_status st;
    pthread_t th;
    ws_jtag_tap t;               /* bound to the debugger by small_start */
    ws_jtag_dtm dtm;
    ws_jtag_dmi dmi;
} small_launch;

static void *small_main(void *arg)
{
    small_launch *L = arg;
    L->st = ws_launch(L->dev, L->k, WS_DIM3(1, 1, 1), WS_DIM3(8, 1, 1), 0, L->args, L->nargs);
    if (L->st == WS_OK) L->st = ws_synchronize(L->dev);
    return NULL;
}

/* Open the device (warp quantum `quantum`, 0: the default; in `mode`), load
 * `kernel` and a zeroed buffer, attach. 0, or -1 (CHECKed, nothing left open). */
static int small_open_in(small_launch *L, const char *elf, const char *kernel, size_t bytes, uint32_t quantum,
                         ws_exec_mode mode)
{
    ws_config c;
    ws_config_default(&c);
    c.cores = 1;
    c.warps_per_core = 2;
    c.lanes_per_warp = 4;
    c.max_threads_per_block = 8;
    c.threads = 1;
    if (quantum) c.warp_quantum = quantum;
    c.mode = mode;
    memset(L, 0, sizeof *L);
    CHECK_EQ_U(ws_device_open(&c, &L->dev), WS_OK);
    if (!L->dev) return -1;
    CHECK_EQ_U(ws_module_load_file(L->dev, elf, &L->mod), WS_OK);
    if (!L->mod || ws_kernel_get(L->mod, kernel, &L->k) != WS_OK || ws_malloc(L->dev, bytes, &L->buf) != WS_OK ||
        ws_memset(L->dev, L->buf, 0, bytes) != WS_OK) {
        CHECK(!"the kernel loads and its buffer is made");
        ws_device_close(L->dev);
        return -1;
    }
    ws_debug_config dc = { WS_DBG_TOPO_BROADCAST, 1 };
    CHECK_EQ_U(ws_debug_attach(L->dev, &dc, &L->dbg), WS_OK);
    if (!L->dbg) {
        ws_device_close(L->dev);
        return -1;
    }
    ws_debug_set_all_stop(L->dbg, 0); /* as the JTAG server attaches */
    return 0;
}

static int small_open(small_launch *L, const char *elf, const char *kernel, size_t bytes, uint32_t quantum)
{
    return small_open_in(L, elf, kernel, bytes, quantum, WS_MODE_FUNCTIONAL);
}

/* Start the launch, bind L's TAP to the debugger in DMI mode, select hart
 * 0 and wait until it runs. Returns the TAP. */
static ws_jtag_tap *small_start(small_launch *L)
{
    ws_jtag_tap *t = &L->t;
    CHECK_EQ_U(pthread_create(&L->th, NULL, small_main, L), 0);
    ws_jtag_dtm_bind(&L->dtm, L->dbg, 0, &L->dmi);
    ws_jtag_tap_init(t, &L->dmi, 1);
    to_idle(t);
    scan_ir(t, WS_JTAG_IR_DMI);
    jt_write(t, WS_DM_DMCONTROL, 1); /* dmactive, hart 0 */
    int running = 0;
    for (int i = 0; i < 4000 && !running; i++) {
        running = (jt_read(t, WS_DM_DMSTATUS) & DMS_ALLRUNNING) != 0;
        if (!running) nanosleep(&(struct timespec){ 0, 500000 }, NULL);
    }
    CHECK(running);
    return t;
}

/* Detach, and the launch ends well. */
static void small_finish(small_launch *L)
{
    ws_debug_detach(L->dbg);
    pthread_join(L->th, NULL);
    CHECK_EQ_U(L->st, WS_OK);
}



/* Write 1 to the word at addr through the system bus (32-bit access), as
 * a probe opens a gate kernel's gate. */
static void sb_write_one(ws_jtag_tap *t, ws_addr addr)
{
    jt_write(t, WS_DM_SBCS, 2u << 17);
    jt_write(t, WS_DM_SBADDRESS0, (uint32_t)addr);
    jt_write(t, WS_DM_SBDATA0, 1);
}

/* dmstatus.allhalted within 2 s. */
static int wait_all_halted(ws_jtag_tap *t)
{
    for (int i = 0; i < 4000; i++) {
        if (jt_read(t, WS_DM_DMSTATUS) & DMS_ALLHALTED) return 1;
        nanosleep(&(struct timespec){ 0, 500000 }, NULL);
    }
    return 0;
}

/* The gate kernel's arguments: out, the go word at buf + 128, its spin
 * count at + 132, and no spin limit (it waits until the gate opens). */
static void gate_args(small_launch *L, ws_addr out)
{
    L->args[0] = (ws_arg)WS_ARG_PTR(out);
    L->args[1] = (ws_arg)WS_ARG_PTR(L->buf + 128);
    L->args[2] = (ws_arg)WS_ARG_PTR(L->buf + 132);
    L->args[3] = (ws_arg)WS_ARG_I32(0x7fffffff);
    L->nargs = 4;
}
/* A halt, a resume, a step and a mode-switch frame written through the
 * DTM have taken effect when the scan that writes them ends, as on
 * silicon, although the device thread acts only at its next safe point:
 * here a warp quantum of millions of instructions away (on a loaded host
 * a safe point can be that far away in time, and OpenOCD polls dmstatus
 * only 256 times). The read right after each write shows the result. */
static void test_runctl(const char *elf)
{
    small_launch L;
    if (small_open(&L, elf, "gate", 256, 1u << 21)) return;
    const ws_addr buf = L.buf;
    gate_args(&L, buf);
    ws_jtag_tap *t = small_start(&L);
    /* halt: one dmstatus read later the hart is halted */
    jt_write(t, WS_DM_DMCONTROL, 1u << 31 | 1);
    uint32_t st = jt_read(t, WS_DM_DMSTATUS);
    CHECK_EQ_U(st & (DMS_ALLHALTED | DMS_ALLRUNNING), DMS_ALLHALTED);
    jt_write(t, WS_DM_DMCONTROL, 1);
    /* resume: acknowledged and running */
    jt_write(t, WS_DM_DMCONTROL, 1u << 30 | 1);
    st = jt_read(t, WS_DM_DMSTATUS);
    CHECK_EQ_U(st & (DMS_ALLRESUMEACK | DMS_ALLRUNNING | DMS_ALLHALTED), DMS_ALLRESUMEACK | DMS_ALLRUNNING);
    jt_write(t, WS_DM_DMCONTROL, 1);
    /* step: halt, dcsr.step, resume; the step has ended at the next read */
    jt_write(t, WS_DM_DMCONTROL, 1u << 31 | 1);
    jt_write(t, WS_DM_DMCONTROL, 1);
    uint32_t dpc0 = jt_reg_read(t, 0x7b1);
    jt_reg_write(t, 0x7b0, jt_reg_read(t, 0x7b0) | 1u << 2);
    jt_write(t, WS_DM_DMCONTROL, 1u << 30 | 1);
    st = jt_read(t, WS_DM_DMSTATUS);
    CHECK_EQ_U(st & (DMS_ALLRESUMEACK | DMS_ALLRUNNING | DMS_ALLHALTED), DMS_ALLRESUMEACK | DMS_ALLHALTED);
    jt_write(t, WS_DM_DMCONTROL, 1);
    CHECK_EQ_U(jt_reg_read(t, 0x7b0) >> 6 & 7, 4); /* dcsr.cause: step */
    CHECK(jt_reg_read(t, 0x7b1) != dpc0);
    jt_reg_write(t, 0x7b0, jt_reg_read(t, 0x7b0) & ~(1u << 2));
    /* a mode-switch frame (broadcast) halts every warp of the core, and
     * runs them again */
    jt_write(t, WS_DM_MODESWITCH, 0xD5u << 24 | 1u << 16 | 1u);
    jt_write(t, WS_DM_MODESWITCH, 2); /* halt */
    CHECK_EQ_U(jt_read(t, WS_DM_HALTSUM0), 0xff);
    jt_write(t, WS_DM_MODESWITCH, 0xD5u << 24 | 1u << 16 | 1u);
    jt_write(t, WS_DM_MODESWITCH, 1); /* run */
    CHECK_EQ_U(jt_read(t, WS_DM_HALTSUM0), 0);
    /* open the gate through the system bus, let go, and the kernel ends */
    sb_write_one(t, buf + 128);
    small_finish(&L);
    int out[8] = { 0 };
    CHECK_EQ_U(ws_memcpy_dtoh(L.dev, out, buf, sizeof out), WS_OK);
    for (int i = 0; i < 8; i++) CHECK_EQ_U(out[i], i * 3 + 1);
    ws_device_close(L.dev);
}

/* A fault halts the faulting warp while a probe is attached; dcsr.cause
 * then reads 3 (a halt request), a cause the debug spec defines, not
 * Warpscope's own 7: OpenOCD 0.12 knows causes 1-6 only and took 7 for
 * an error ("Unknown DCSR cause field: 0x7", a stop with no reason,
 * "target needs reset"). Resuming ends the launch with the fault. */
static void test_faultcause(const char *elf)
{
    small_launch L;
    if (small_open(&L, elf, "gate", 256, 0)) return;
    const ws_addr buf = L.buf;
    gate_args(&L, 16); /* out: in the null guard page */
    ws_jtag_tap *t = small_start(&L);
    sb_write_one(t, buf + 128); /* open the gate: the stores fault */
    CHECK(wait_all_halted(t));
    const uint32_t dcsr = jt_reg_read(t, 0x7b0);
    printf("dcsr after the fault: 0x%08x (cause %u)\n", dcsr, dcsr >> 6 & 7);
    CHECK_EQ_U(dcsr >> 6 & 7, 3);
    CHECK_EQ_U(dcsr >> 28, 4); /* xdebugver: the spec's debug support */
    jt_write(t, WS_DM_DMCONTROL, 1u << 30 | 1); /* resume */
    pthread_join(L.th, NULL);
    CHECK_EQ_U(L.st, WS_ERR_KERNEL_FAULT);
    CHECK_STR_CONTAINS(ws_last_error(L.dev), "null pointer");
    ws_debug_detach(L.dbg);
    ws_device_close(L.dev);
}

/* One step of hart 0 through the DTM (dcsr.step set): the dmstatus read
 * right after the resume request. */
static uint32_t jt_step(ws_jtag_tap *t)
{
    jt_write(t, WS_DM_DMCONTROL, 1u << 30 | 1);
    const uint32_t st = jt_read(t, WS_DM_DMSTATUS);
    jt_write(t, WS_DM_DMCONTROL, 1);
    return st;
}

/* As the JTAG server attaches (step_before_fault): a step of a store that
 * faults ends as a step (cause 4) at the store, before the fault; the next
 * resume halts the hart on the fault (cause 3 to a probe) at the same pc,
 * and a resume after that ends the launch with the fault. OpenOCD steps
 * over a watchpoint before every resume without looking at how the step
 * ended: until 2026-11-28 the step ended on the fault, OpenOCD's resume
 * then ended the launch, and gdb never saw the stop. */
static void test_stepfault(const char *elf)
{
    small_launch L;
    if (small_open(&L, elf, "gate", 256, 0)) return;
    ws_debug_set_step_before_fault(L.dbg, 1);
    const ws_addr buf = L.buf;
    gate_args(&L, 16); /* out: in the null guard page */
    ws_jtag_tap *t = small_start(&L);
    jt_write(t, WS_DM_DMCONTROL, 1u << 31 | 1); /* halt hart 0 in the wait loop */
    jt_write(t, WS_DM_DMCONTROL, 1);
    CHECK(wait_all_halted(t));
    sb_write_one(t, buf + 128); /* open the gate: the next store faults */
    jt_reg_write(t, 0x7b0, jt_reg_read(t, 0x7b0) | 1u << 2);
    uint32_t before = 0, dpc = jt_reg_read(t, 0x7b1), cause = 4, steps = 0;
    while (steps < 400 && cause == 4) { /* step until a step does not move */
        before = dpc;
        CHECK_EQ_U(jt_step(t) & (DMS_ALLRESUMEACK | DMS_ALLHALTED), DMS_ALLRESUMEACK | DMS_ALLHALTED);
        cause = jt_reg_read(t, 0x7b0) >> 6 & 7;
        dpc = jt_reg_read(t, 0x7b1);
        steps++;
        if (dpc == before) break;
    }
    printf("after %u steps: dpc 0x%08x (was 0x%08x), cause %u\n", steps, dpc, before, cause);
    CHECK_EQ_U(cause, 4);   /* the step ended ... */
    CHECK_EQ_U(dpc, before); /* ... at the store, before its fault */
    jt_reg_write(t, 0x7b0, jt_reg_read(t, 0x7b0) & ~(1u << 2));
    /* resume: the hart takes the fault and halts on it, at the store */
    jt_write(t, WS_DM_DMCONTROL, 1u << 30 | 1);
    CHECK_EQ_U(jt_read(t, WS_DM_DMSTATUS) & (DMS_ALLRESUMEACK | DMS_ALLHALTED), DMS_ALLRESUMEACK | DMS_ALLHALTED);
    jt_write(t, WS_DM_DMCONTROL, 1);
    CHECK_EQ_U(jt_reg_read(t, 0x7b0) >> 6 & 7, 3);
    CHECK_EQ_U(jt_reg_read(t, 0x7b1), before);
    /* resume again: the launch ends with the fault */
    jt_write(t, WS_DM_DMCONTROL, 1u << 30 | 1);
    pthread_join(L.th, NULL);
    CHECK_EQ_U(L.st, WS_ERR_KERNEL_FAULT);
    CHECK_STR_CONTAINS(ws_last_error(L.dev), "null pointer");
    ws_debug_detach(L.dbg);
    ws_device_close(L.dev);
}

/* A step of hart h (dcsr.step set through h): the resume request with h
 * selected, then its dpc. */
static uint32_t jt_step_hart(ws_jtag_tap *t, uint32_t h)
{
    jt_write(t, WS_DM_DMCONTROL, 1u << 30 | h << 16 | 1);
    CHECK(jt_read(t, WS_DM_DMSTATUS) & DMS_ALLHALTED);
    jt_write(t, WS_DM_DMCONTROL, h << 16 | 1);
    return jt_reg_read(t, 0x7b1);
}

/* A step of a hart runs an instruction of that hart's lane, as a step of
 * a hart does on any RISC-V target, also when its warp has diverged and
 * the lane is not in the group the warp would run next (as the JTAG
 * server attaches: ws_debug_set_hart_steps). The other lanes at the same
 * pc step with it (SIMT); the warp's other lanes sit the step out. Until
 * 2026-11-28 the step ran the warp's lowest-pc group: a hart of the other
 * group ended its step where it was (OpenOCD: `stepi` did not move). */
static void test_stepdiverged(const char *elf, ws_exec_mode mode)
{
    small_launch L;
    if (small_open_in(&L, elf, "split_gate", 256, 0, mode)) return;
    ws_debug_set_hart_steps(L.dbg, 1);
    const ws_addr buf = L.buf;
    L.args[0] = (ws_arg)WS_ARG_PTR(buf + 128); /* go */
    L.args[1] = (ws_arg)WS_ARG_PTR(buf);       /* out */
    L.args[2] = (ws_arg)WS_ARG_I32(0x7fffffff);
    L.nargs = 3;
    ws_jtag_tap *t = small_start(&L);
    jt_write(t, WS_DM_DMCONTROL, 1u << 31 | 1); /* halt warp 0 in its loops */
    jt_write(t, WS_DM_DMCONTROL, 1);
    CHECK(wait_all_halted(t));
    for (uint32_t h = 0; h < 2; h++) { /* lane 0 waits in the even loop, lane 1 in the odd one */
        jt_write(t, WS_DM_DMCONTROL, h << 16 | 1);
        jt_reg_write(t, 0x7b0, jt_reg_read(t, 0x7b0) | 1u << 2);
        uint32_t dpc = jt_reg_read(t, 0x7b1), moved = 0;
        for (int i = 0; i < 12; i++) {
            const uint32_t next = jt_step_hart(t, h);
            CHECK_EQ_U(jt_reg_read(t, 0x7b0) >> 6 & 7, 4); /* dcsr.cause: step */
            moved += next != dpc;
            dpc = next;
        }
        printf("hart %u: 12 steps, its pc moved in %u\n", h, moved);
        CHECK_EQ_U(moved, 12);
        jt_reg_write(t, 0x7b0, jt_reg_read(t, 0x7b0) & ~(1u << 2));
    }
    jt_write(t, WS_DM_DMCONTROL, 1);
    sb_write_one(t, buf + 128); /* open the gate */
    jt_write(t, WS_DM_DMCONTROL, 1u << 30 | 1);
    small_finish(&L);
    int out[8] = { 0 };
    CHECK_EQ_U(ws_memcpy_dtoh(L.dev, out, buf, sizeof out), WS_OK);
    for (int i = 0; i < 8; i++) CHECK_EQ_U(out[i], 1);
    ws_device_close(L.dev);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A step of a warp whose every lane waits at a barrier: it runs nothing
 * until the barrier opens, so the resume that starts the step completes
 * at once (it held the probe for the whole 2 s wait), and the step ends
 * once the other warp reaches the barrier. */
static void test_runctl_barrier(const char *elf)
{
    small_launch L;
    if (small_open(&L, elf, "bar_gate", 4, 0)) return;
    L.args[0] = (ws_arg)WS_ARG_PTR(L.buf); /* go */
    L.args[1] = (ws_arg)WS_ARG_I32(0x7fffffff);
    L.args[2] = (ws_arg)WS_ARG_I32(4); /* warp 0 to the barrier, warp 1 spins */
    L.nargs = 3;
    ws_jtag_tap *t = small_start(&L);
    nanosleep(&(struct timespec){ 0, 100000000 }, NULL); /* warp 0 reaches the barrier */
    jt_write(t, WS_DM_DMCONTROL, 1u << 31 | 1);
    CHECK_EQ_U(jt_read(t, WS_DM_DMSTATUS) & DMS_ALLHALTED, DMS_ALLHALTED);
    jt_write(t, WS_DM_DMCONTROL, 1);
    jt_reg_write(t, 0x7b0, jt_reg_read(t, 0x7b0) | 1u << 2);
    double t0 = now_s();
    jt_write(t, WS_DM_DMCONTROL, 1u << 30 | 1);
    double dt = now_s() - t0;
    CHECK(dt < 1.0);
    if (dt >= 1.0) fprintf(stderr, "the resume into a barrier step took %.2f s\n", dt);
    uint32_t st = jt_read(t, WS_DM_DMSTATUS);
    CHECK_EQ_U(st & (DMS_ALLRESUMEACK | DMS_ALLHALTED), DMS_ALLRESUMEACK); /* the step waits */
    jt_write(t, WS_DM_DMCONTROL, 1);
    /* open the gate: warp 1 reaches the barrier, it opens, the step ends */
    sb_write_one(t, L.buf);
    CHECK(wait_all_halted(t));
    CHECK_EQ_U(jt_reg_read(t, 0x7b0) >> 6 & 7, 4); /* dcsr.cause: step */
    jt_reg_write(t, 0x7b0, jt_reg_read(t, 0x7b0) & ~(1u << 2));
    small_finish(&L);
    ws_device_close(L.dev);
}

int main(int argc, char **argv)
{
    const char *w = argc > 1 ? argv[1] : "";
    if (!strcmp(w, "tap")) test_tap();
    else if (!strcmp(w, "ir")) test_ir();
    else if (!strcmp(w, "bypass")) test_bypass();
    else if (!strcmp(w, "dtmcs")) test_dtmcs();
    else if (!strcmp(w, "dmi")) test_dmi();
    else if (!strcmp(w, "busy")) test_busy();
    else if (!strcmp(w, "failed")) test_failed();
    else if (!strcmp(w, "bitbang")) test_bitbang();
    else if (!strcmp(w, "device")) test_device();
    else if (!strcmp(w, "localharts")) test_localharts();
    else if (!strcmp(w, "chain")) test_chain();
    else if (!strcmp(w, "runctl") && argc > 2) test_runctl(argv[2]);
    else if (!strcmp(w, "runctl_barrier") && argc > 2) test_runctl_barrier(argv[2]);
    else if (!strcmp(w, "faultcause") && argc > 2) test_faultcause(argv[2]);
    else if (!strcmp(w, "stepfault") && argc > 2) test_stepfault(argv[2]);
    else if (!strcmp(w, "stepdiverged") && argc > 2) test_stepdiverged(argv[2], WS_MODE_FUNCTIONAL);
    else if (!strcmp(w, "stepdiverged_timing") && argc > 2) test_stepdiverged(argv[2], WS_MODE_TIMING);
    else if (!strcmp(w, "options")) test_options();
    else if (!strcmp(w, "secondprobe")) test_secondprobe();
    else if (!strcmp(w, "stuckprobe")) test_stuckprobe();
    else {
        fprintf(stderr, "usage: test_jtag_tap tap|ir|bypass|dtmcs|dmi|busy|failed|bitbang|device|localharts|chain|options|secondprobe|stuckprobe\n"
                        "       test_jtag_tap runctl|runctl_barrier|faultcause|stepfault|stepdiverged[_timing] KERNELS.elf\n");
        return 2;
    }
    return TEST_SUMMARY();
}
