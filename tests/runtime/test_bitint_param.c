/* A _BitInt(N) parameter takes N bits, not its storage's: a value that
 * fits the bytes but not N bits is refused, with N and the range in the
 * message. clang 14 names the type "_BitInt" with only a byte size in
 * DWARF, so N comes from the declaration in the kernel's source (a
 * typedef's, for a typedef). Before 2026-11-27 _BitInt(12) took 3000 (it
 * fits 16 bits) and the kernel saw -1096.
 * usage: test_bitint_param MODULE.elf */
#include <string.h>
#include "warpscope/warpscope.h"
#include "../test.h"

enum { NARGS = 6 };

static ws_status launch(ws_device *dev, ws_kernel *k, const ws_arg *a)
{
    ws_status st = ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(1, 1, 1), 0, a, NARGS);
    return st == WS_OK ? ws_synchronize(dev) : st;
}

/* The launch with argument i replaced by v is refused, saying `why`. */
static void check_refused(ws_device *dev, ws_kernel *k, const ws_arg *good, unsigned i, ws_arg v, const char *why)
{
    ws_arg a[NARGS];
    memcpy(a, good, sizeof a);
    a[i] = v;
    CHECK_EQ_U(launch(dev, k, a), WS_ERR_BAD_LAUNCH);
    CHECK_STR_CONTAINS(ws_last_error(dev), why);
}

int main(int argc, char **argv)
{
    if (argc != 2) return 2;
    ws_device *dev;
    ws_module *m;
    ws_kernel *k;
    ws_addr out;
    int r[NARGS] = { 0 };
    CHECK(ws_device_open(NULL, &dev) == WS_OK);
    CHECK(ws_module_load_file(dev, argv[1], &m) == WS_OK);
    CHECK(ws_kernel_get(m, "bitints", &k) == WS_OK);
    CHECK(ws_malloc(dev, sizeof r, &out) == WS_OK);
    /* the ends of every range are taken, and reach the kernel as they are */
    ws_arg lo[NARGS] = { WS_ARG_I32(-2048), WS_ARG_U32(0), WS_ARG_U32(0), WS_ARG_U64(0), WS_ARG_I32(-32768),
                         WS_ARG_PTR(out) };
    CHECK_EQ_U(launch(dev, k, lo), WS_OK);
    CHECK(ws_memcpy_dtoh(dev, r, out, sizeof r) == WS_OK);
    CHECK(r[0] == -2048 && r[1] == 0 && r[2] == 0 && r[3] == 0 && r[4] == 0 && r[5] == -32768);
    ws_arg hi[NARGS] = { WS_ARG_I32(2047), WS_ARG_U32(127), WS_ARG_U32(31), WS_ARG_U64((1ull << 33) - 1),
                         WS_ARG_I32(32767), WS_ARG_PTR(out) };
    CHECK_EQ_U(launch(dev, k, hi), WS_OK);
    CHECK(ws_memcpy_dtoh(dev, r, out, sizeof r) == WS_OK);
    CHECK(r[0] == 2047 && r[1] == 127 && r[2] == 31 && r[3] == 1 && r[4] == -1 && r[5] == 32767);
    /* one past each end, in N bits but inside the storage's bytes */
    check_refused(dev, k, hi, 0, WS_ARG_I32(3000), "launch of 'bitints': parameter 0 's' has type '_BitInt': "
                  "value 3000 is out of range -2048..2047 (its 12 bits)");
    check_refused(dev, k, hi, 0, WS_ARG_I32(-2049), "value -2049 is out of range -2048..2047 (its 12 bits)");
    check_refused(dev, k, hi, 1, WS_ARG_U32(128), "parameter 1 'u' has type 'unsigned _BitInt': value 128 is out "
                  "of range 0..127 (its 7 bits)");
    check_refused(dev, k, hi, 1, WS_ARG_I32(-1), "value -1 is out of range 0..127 (its 7 bits)");
    check_refused(dev, k, hi, 2, WS_ARG_U32(32), "parameter 2 't' has type 'five_bits': value 32 is out of range "
                  "0..31 (its 5 bits)");
    check_refused(dev, k, hi, 3, WS_ARG_U64(1ull << 33), "value 8589934592 is out of range 0..8589934591 "
                  "(its 33 bits)");
    /* _BitInt(16) fills its storage: the 16-bit range, as before */
    check_refused(dev, k, hi, 4, WS_ARG_I32(32768), "parameter 4 'whole' has type '_BitInt': value 32768 is out of "
                  "range -32768..32767");
    /* declared "in /dev/zero" (#line): no width from a file that is no
     * source, so the 16-bit storage's range (the load used to hang
     * reading it) */
    ws_kernel *nowhere;
    CHECK(ws_kernel_get(m, "bitint_nowhere", &nowhere) == WS_OK);
    ws_arg two[2] = { WS_ARG_I32(3000), WS_ARG_PTR(out) };
    CHECK_EQ_U(ws_launch(dev, nowhere, WS_DIM3(1, 1, 1), WS_DIM3(1, 1, 1), 0, two, 2), WS_OK);
    CHECK(ws_synchronize(dev) == WS_OK && ws_memcpy_dtoh(dev, r, out, sizeof r) == WS_OK);
    CHECK(r[0] == 3000);
    CHECK(ws_device_close(dev) == WS_OK);
    return TEST_SUMMARY();
}
