/* Target description: riscv:rv32 with the standard cpu/fpu/csr features
 * gdb knows, plus org.warpscope.simt whose registers gdb can use in
 * conditions ($thread_x == 5, $pixel_x == 100). Register numbers are explicit so the
 * remote numbering matches tdesc.h whatever order gdb parses in. */
#include "gdbstub/tdesc.h"
#include <stddef.h>

#define X(n) "<reg name=\"x" #n "\" bitsize=\"32\" regnum=\"" #n "\" type=\"int\"/>"
#define F(n, r) "<reg name=\"f" #n "\" bitsize=\"32\" regnum=\"" #r "\" type=\"ieee_single\" group=\"float\"/>"
#define S(name, r) "<reg name=\"" name "\" bitsize=\"32\" regnum=\"" #r "\" type=\"uint32\" group=\"simt\"/>"

static const char xml[] =
    "<?xml version=\"1.0\"?>\n<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n"
    "<target version=\"1.0\"><architecture>riscv:rv32</architecture>\n"
    /* no OS: gdb then uses solib-target (qXfer:libraries) for modules */
    "<osabi>none</osabi>\n"
    "<feature name=\"org.gnu.gdb.riscv.cpu\">"
    "<reg name=\"zero\" bitsize=\"32\" regnum=\"0\" type=\"int\"/>"
    X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15)
    X(16) X(17) X(18) X(19) X(20) X(21) X(22) X(23) X(24) X(25) X(26) X(27) X(28) X(29)
    X(30) X(31)
    "<reg name=\"pc\" bitsize=\"32\" regnum=\"32\" type=\"code_ptr\"/></feature>\n"
    "<feature name=\"org.gnu.gdb.riscv.fpu\">"
    F(0, 33) F(1, 34) F(2, 35) F(3, 36) F(4, 37) F(5, 38) F(6, 39) F(7, 40) F(8, 41) F(9, 42)
    F(10, 43) F(11, 44) F(12, 45) F(13, 46) F(14, 47) F(15, 48) F(16, 49) F(17, 50) F(18, 51)
    F(19, 52) F(20, 53) F(21, 54) F(22, 55) F(23, 56) F(24, 57) F(25, 58) F(26, 59) F(27, 60)
    F(28, 61) F(29, 62) F(30, 63) F(31, 64)
    "<reg name=\"fflags\" bitsize=\"32\" regnum=\"65\" type=\"int\" group=\"float\"/>"
    "<reg name=\"frm\" bitsize=\"32\" regnum=\"66\" type=\"int\" group=\"float\"/>"
    "<reg name=\"fcsr\" bitsize=\"32\" regnum=\"67\" type=\"int\" group=\"float\"/></feature>\n"
    "<feature name=\"org.gnu.gdb.riscv.csr\">"
    "<reg name=\"dcsr\" bitsize=\"32\" regnum=\"68\" type=\"int\" group=\"system\"/>"
    "<reg name=\"dpc\" bitsize=\"32\" regnum=\"69\" type=\"code_ptr\" group=\"system\"/></feature>\n"
    "<feature name=\"org.warpscope.simt\">"
    S("block_x", 70) S("block_y", 71) S("block_z", 72) S("thread_x", 73) S("thread_y", 74)
    S("thread_z", 75) S("core", 76) S("warp", 77) S("lane", 78) S("launch", 79)
    /* graphics system values, each read in the stage it belongs to and
     * 0xffffffff elsewhere (kernels too): fragment shaders' pixel, flags
     * and primitive, vertex shaders' vertex, both stages' draw and
     * instance (WS_REGNO_GFX_* in device/debug/debug.h) */
    S("pixel_x", 80) S("pixel_y", 81) S("gfx_flags", 82) S("primitive", 83) S("draw", 84)
    S("vertex_id", 85) S("instance_id", 86)
    "</feature>\n</target>\n";

const char *ws_tdesc_xml(void)
{
    return xml;
}
