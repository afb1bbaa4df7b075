/* A warp starts with zero in every register its launch does not set, even
 * in a slot whose previous warp started with more arguments: rows a
 * previous start set are cleared when no instruction of the module ever
 * writes them (dispatch.c remembers each slot's start rows; a start that
 * cleared only the rows instructions wrote would leave the first launch's
 * a1-a7 and fa0-fa7 here). Every slot is used by both launches.
 * usage: test_start_rows MODULE.elf */
#include <string.h>
#include "warpscope/warpscope.h"
#include "../device_config.h"
#include "../test.h"

enum { T = 2048 };

static uint32_t out[T * 16];

/* T threads in blocks of `block` */
static void run(const char *module, const char *config, uint32_t block)
{
    ws_device *dev = NULL;
    ws_module *m = NULL;
    ws_kernel *many = NULL, *one = NULL;
    ws_addr o = 0;
    const int ready = ws_test_open_with(config, module, &dev, &m) == WS_OK &&
                      ws_kernel_get(m, "many_args", &many) == WS_OK && ws_kernel_get(m, "one_arg", &one) == WS_OK &&
                      ws_malloc(dev, sizeof out, &o) == WS_OK;
    CHECK(ready);
    if (ready) {
        ws_arg args[16] = { WS_ARG_PTR(o) };
        for (int i = 1; i < 8; i++) args[i] = WS_ARG_I32(100 + i);
        for (int i = 0; i < 8; i++) args[8 + i] = WS_ARG_F32(0.5f + (float)i);
        CHECK(ws_launch(dev, many, WS_DIM3(T / block, 1, 1), WS_DIM3(block, 1, 1), 0, args, 16) == WS_OK);
        CHECK(ws_synchronize(dev) == WS_OK);
        CHECK(ws_memcpy_dtoh(dev, out, o, sizeof out) == WS_OK);
        unsigned bad = 0;
        for (int t = 0; t < T; t++)
            for (int r = 1; r < 8; r++) bad += out[t * 16 + r] != (uint32_t)(100 + r);
        float f;
        memcpy(&f, &out[5 * 16 + 8 + 3], 4);
        CHECK_EQ_U(bad, 0); /* the arguments arrived */
        CHECK(f == 3.5f);
        CHECK(ws_memset(dev, o, 0xEE, sizeof out) == WS_OK);
        CHECK(ws_launch(dev, one, WS_DIM3(T / block, 1, 1), WS_DIM3(block, 1, 1), 0, args, 1) == WS_OK);
        CHECK(ws_synchronize(dev) == WS_OK);
        CHECK(ws_memcpy_dtoh(dev, out, o, sizeof out) == WS_OK);
        bad = 0;
        for (int t = 0; t < T; t++)
            for (int r = 1; r < 16; r++)
                if (out[t * 16 + r] && bad++ < 4)
                    fprintf(stderr, "%s: thread %d starts with %s%d = 0x%08x\n", config, t, r < 8 ? "a" : "fa",
                            r < 8 ? r : r - 8, out[t * 16 + r]);
        CHECK_EQ_U(bad, 0);
    }
    ws_device_close(dev);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s MODULE.elf\n", argv[0]);
        return 2;
    }
    run(argv[1], "threads=1", 256);
    run(argv[1], "threads=2", 256);
    run(argv[1], "mode=timing,threads=1", 256);
    run(argv[1], "engine=interp,threads=1", 256);
    run(argv[1], "cores=1,warps_per_core=4,lanes_per_warp=8", 32);
    return TEST_SUMMARY();
}
