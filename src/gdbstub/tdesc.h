/* The target description gdb reads (qXfer:features:read:target.xml) and
 * the register numbering it fixes for g/G/p/P. */
#ifndef WS_GDBSTUB_TDESC_H
#define WS_GDBSTUB_TDESC_H
#include <stdint.h>

enum {
    WS_GDB_REG_X0 = 0,       /* x0..x31: 0..31                             */
    WS_GDB_REG_PC = 32,
    WS_GDB_REG_F0 = 33,      /* f0..f31: 33..64                            */
    WS_GDB_REG_FFLAGS = 65, WS_GDB_REG_FRM = 66, WS_GDB_REG_FCSR = 67,
    WS_GDB_REG_DCSR = 68, WS_GDB_REG_DPC = 69,
    /* org.warpscope.simt: read-only coordinates of the thread */
    WS_GDB_REG_BLOCK_X = 70, WS_GDB_REG_BLOCK_Y, WS_GDB_REG_BLOCK_Z,
    WS_GDB_REG_THREAD_X, WS_GDB_REG_THREAD_Y, WS_GDB_REG_THREAD_Z,
    WS_GDB_REG_CORE, WS_GDB_REG_WARP, WS_GDB_REG_LANE, WS_GDB_REG_LAUNCH,
    WS_GDB_REG_PIXEL_X = 80, WS_GDB_REG_PIXEL_Y, WS_GDB_REG_GFX_FLAGS, WS_GDB_REG_PRIMITIVE, WS_GDB_REG_DRAW,
    WS_GDB_REG_VERTEX_ID, WS_GDB_REG_INSTANCE_ID,
    WS_GDB_NUM_REGS,
    WS_GDB_G_REGS = 33       /* the 'g' packet carries x0..x31 and pc      */
};

/* The whole target.xml. */
const char *ws_tdesc_xml(void);
#endif
