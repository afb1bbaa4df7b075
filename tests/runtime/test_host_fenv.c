/* A launch leaves the calling thread's floating-point state as it was: its
 * rounding mode and its sticky exception flags (isa/fpu.h: the FPU keeps
 * the host's control bits but not its flags, so the command processor
 * saves and restores them around each command). Float kernels raising
 * inexact and divide-by-zero run with the host in round-upward mode,
 * with the host's flags clear and with some set, on one and two host
 * threads and in timing mode; the results are those of round-to-nearest.
 * usage: test_host_fenv MODULE.elf */
#include <fenv.h>
#include <string.h>
#include "warpscope/warpscope.h"
#include "../device_config.h"
#include "../test.h"

enum { N = 4096 };

static float x[N], want_third[N], want_inv[N], third[N], inv[N];

static void run(const char *module, const char *config, int preset)
{
    ws_device *dev = NULL;
    ws_module *m = NULL;
    ws_kernel *k = NULL;
    ws_addr dx = 0, dt = 0, di = 0;
    const int ready = ws_test_open_with(config, module, &dev, &m) == WS_OK && ws_kernel_get(m, "thirds", &k) == WS_OK &&
                      ws_malloc(dev, sizeof x, &dx) == WS_OK && ws_malloc(dev, sizeof x, &dt) == WS_OK &&
                      ws_malloc(dev, sizeof x, &di) == WS_OK && ws_memcpy_htod(dev, dx, x, sizeof x) == WS_OK;
    CHECK(ready);
    if (ready) {
        ws_arg a[] = { WS_ARG_PTR(dx), WS_ARG_PTR(dt), WS_ARG_PTR(di), WS_ARG_I32(N) };
        feclearexcept(FE_ALL_EXCEPT);
        if (preset) feraiseexcept(preset);
        fesetround(FE_UPWARD);
        const ws_status launched = ws_launch(dev, k, WS_DIM3(N / 128, 1, 1), WS_DIM3(128, 1, 1), 0, a, 4);
        const ws_status synced = ws_synchronize(dev);
        const int round = fegetround(), flags = fetestexcept(FE_ALL_EXCEPT);
        fesetround(FE_TONEAREST);
        CHECK(launched == WS_OK && synced == WS_OK);
        if (round != FE_UPWARD || flags != preset)
            fprintf(stderr, "%s, host flags 0x%x before: after the launch rounding 0x%x, flags 0x%x\n", config,
                    (unsigned)preset, (unsigned)round, (unsigned)flags);
        CHECK(round == FE_UPWARD);
        CHECK_EQ_U(flags, preset);
        CHECK(ws_memcpy_dtoh(dev, third, dt, sizeof third) == WS_OK);
        CHECK(ws_memcpy_dtoh(dev, inv, di, sizeof inv) == WS_OK);
        CHECK(memcmp(third, want_third, sizeof third) == 0);
        CHECK(memcmp(inv, want_inv, sizeof inv) == 0);
    }
    ws_device_close(dev);
    feclearexcept(FE_ALL_EXCEPT);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s MODULE.elf\n", argv[0]);
        return 2;
    }
    int differ = 0;
    for (int i = 0; i < N; i++) {
        x[i] = (float)i * 0.37f;
        want_third[i] = x[i] / 3.0f; /* round to nearest, as the device */
        want_inv[i] = 1.0f / x[i];   /* x[0] = 0: divide by zero, +inf */
        volatile float up;
        fesetround(FE_UPWARD);
        up = x[i] / 3.0f;
        fesetround(FE_TONEAREST);
        differ += up != want_third[i];
    }
    CHECK(differ > N / 4); /* the host's mode would show in the results */
    const char *configs[] = { "threads=1", "threads=2", "mode=timing,threads=1", "mode=timing,threads=2" };
    for (int c = 0; c < 4; c++) {
        run(argv[1], configs[c], 0);
        run(argv[1], configs[c], FE_INEXACT | FE_OVERFLOW);
        run(argv[1], configs[c], FE_ALL_EXCEPT);
    }
    return TEST_SUMMARY();
}
