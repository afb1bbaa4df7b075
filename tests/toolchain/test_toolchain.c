/* The kernel toolchain end to end: warpscope cc's error handling, and the
 * device math library and printf checked on the device itself. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "warpscope/warpscope.h"
#include "../test.h"

static int run_cmd(const char *cmd, char *out, size_t len)
{
    FILE *p = popen(cmd, "r");
    if (!p) return -1;
    size_t n = fread(out, 1, len - 1, p);
    out[n] = 0;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int ulps(float a, float b)
{
    int32_t x, y;
    memcpy(&x, &a, 4);
    memcpy(&y, &b, 4);
    if (x < 0) x = INT32_MIN - x;
    if (y < 0) y = INT32_MIN - y;
    return abs(x - y);
}

typedef struct capture { char text[1024]; size_t len; int records; } capture;

static void on_printf(void *user, uint64_t launch, ws_dim3 b, ws_dim3 t, const char *s, size_t n)
{
    (void)launch; (void)b; (void)t;
    capture *c = user;
    if (c->len + n < sizeof c->text) { memcpy(c->text + c->len, s, n); c->len += n; c->text[c->len] = 0; }
    c->records++;
}

/* trunc, floor, ceil, truncf and llround bit for bit against the host's,
 * on values whose fraction reaches the low word or lies past 2^52, where
 * picolibc 1.8's went wrong (trunc(1e300) was 9.99999999995523e299,
 * ceil(4294967295.5) was 4293918720), and on halves, zeros, inf and NaN. */
static void check_rounding(ws_device *dev, ws_module *mod)
{
    enum { N = 256 };
    static const double special[] = { 0.5, 1.5, 2.5, 0.49999999999999994, 1e300, 0x1p1023, 0x1p52 - 0.5,
                                      0x1p52 + 1, 0x1p32 - 0.5, 0x1p31 + 0.5, 1e15 + 0.5, 1e17, 4.7e18,
                                      5e-324, 0.0, INFINITY, NAN };
    double x[N], res[N * 4];
    long long rounded[N];
    int n = 0;
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++) x[n++] = special[i], x[n++] = -special[i];
    for (int e = -3; n < N; e += 5, n++) x[n] = ldexp(n & 1 ? -1.37 : 1.9999, e % 80) + (e & 2 ? 0.5 : 0.0);
    ws_kernel *k = NULL;
    ws_addr dx = 0, dres = 0, dr = 0;
    CHECK(ws_kernel_get(mod, "rounding", &k) == WS_OK);
    CHECK(ws_malloc(dev, sizeof x, &dx) == WS_OK && ws_malloc(dev, sizeof res, &dres) == WS_OK &&
          ws_malloc(dev, sizeof rounded, &dr) == WS_OK);
    CHECK(ws_memcpy_htod(dev, dx, x, sizeof x) == WS_OK);
    ws_arg args[] = { WS_ARG_PTR(dx), WS_ARG_PTR(dres), WS_ARG_PTR(dr), WS_ARG_I32(N) };
    CHECK(k && ws_launch(dev, k, WS_DIM3(N / 64, 1, 1), WS_DIM3(64, 1, 1), 0, args, 4) == WS_OK);
    CHECK(ws_memcpy_dtoh(dev, res, dres, sizeof res) == WS_OK && ws_memcpy_dtoh(dev, rounded, dr, sizeof rounded) == WS_OK);
    static const char *const names[4] = { "trunc", "floor", "ceil", "truncf" };
    int wrong = 0;
    for (int i = 0; i < N; i++) {
        double v = x[i], ref[4] = { trunc(v), floor(v), ceil(v), truncf((float)v) };
        for (int f = 0; f < 4; f++) {
            double got = res[i * 4 + f];
            if (memcmp(&got, &ref[f], sizeof got) && !(isnan(got) && isnan(ref[f])) && wrong++ < 8)
                fprintf(stderr, "%s(%a): device %a, host %a\n", names[f], v, got, ref[f]);
        }
        long long want = fabs(v) < 0x1p62 ? llround(v) : 0;
        if (rounded[i] != want && wrong++ < 8) fprintf(stderr, "llround(%a): device %lld, host %lld\n", v, rounded[i], want);
    }
    CHECK(wrong == 0);
}

int main(int argc, char **argv)
{
    if (argc != 4) { fprintf(stderr, "usage: test_toolchain WARPSCOPE MODULE BAD_SOURCE\n"); return 2; }
    char cmd[4096], out[8192];

    /* compiler errors come back as clang's diagnostic and a failure status */
    snprintf(cmd, sizeof cmd, "'%s' cc -o /tmp/ws-bad-%d.elf '%s' 2>&1", argv[1], (int)getpid(), argv[3]);
    CHECK(run_cmd(cmd, out, sizeof out) != 0);
    CHECK_STR_CONTAINS(out, "error: expected expression");
    snprintf(cmd, sizeof cmd, "'%s' cc -o /tmp/ws-missing.elf /nonexistent/kernel.c 2>&1", argv[1]);
    CHECK(run_cmd(cmd, out, sizeof out) != 0);
    CHECK_STR_CONTAINS(out, "/nonexistent/kernel.c");
    snprintf(cmd, sizeof cmd, "'%s' cc 2>&1", argv[1]);
    CHECK(run_cmd(cmd, out, sizeof out) == 2);
    CHECK_STR_CONTAINS(out, "usage: warpscope cc");

    ws_device *dev;
    ws_module *mod;
    ws_kernel *math, *fmt, *chk;
    CHECK(ws_device_open(NULL, &dev) == WS_OK);
    CHECK(ws_module_load_file(dev, argv[2], &mod) == WS_OK);
    CHECK(ws_kernel_get(mod, "math_funcs", &math) == WS_OK);
    CHECK(ws_kernel_get(mod, "formats", &fmt) == WS_OK);
    CHECK(ws_kernel_get(mod, "checks", &chk) == WS_OK);
    if (!math || !fmt || !chk) return TEST_SUMMARY();

    /* math against the host's libm: within a few ULP (picolibc and glibc
     * round differently in the last place), exact where IEEE requires it */
    enum { N = 512 };
    float x[N], res[N * 14];
    for (int i = 0; i < N; i++) x[i] = (float)(i - N / 2) * 0.0371f;
    ws_addr dx = 0, dres = 0;
    CHECK(ws_malloc(dev, sizeof x, &dx) == WS_OK && ws_malloc(dev, sizeof res, &dres) == WS_OK);
    CHECK(ws_memcpy_htod(dev, dx, x, sizeof x) == WS_OK);
    ws_arg margs[] = { WS_ARG_PTR(dx), WS_ARG_PTR(dres), WS_ARG_I32(N) };
    CHECK(ws_launch(dev, math, WS_DIM3(N / 128, 1, 1), WS_DIM3(128, 1, 1), 0, margs, 3) == WS_OK);
    CHECK(ws_memcpy_dtoh(dev, res, dres, sizeof res) == WS_OK);
    int worst[14] = { 0 };
    for (int i = 0; i < N; i++) {
        float v = x[i];
        float ref[14] = { sinf(v), cosf(v), tanf(v), expf(v * 0.1f), logf(fabsf(v) + 1.0f),
                          powf(fabsf(v) + 0.5f, 1.7f), floorf(v), ceilf(v), fabsf(v), fminf(v, 0.25f),
                          fmaxf(v, 0.25f), fmodf(v, 0.75f), sqrtf(fabsf(v)), atan2f(v, 2.0f) };
        for (int f = 0; f < 14; f++) {
            int u = ulps(res[i * 14 + f], ref[f]);
            if (u > worst[f]) worst[f] = u;
        }
    }
    static const char *const names[14] = { "sinf", "cosf", "tanf", "expf", "logf", "powf", "floorf", "ceilf",
                                           "fabsf", "fminf", "fmaxf", "fmodf", "sqrtf", "atan2f" };
    for (int f = 0; f < 14; f++) {
        int limit = (f >= 6 && f <= 12) ? 0 : 4; /* exact ops must match bit for bit */
        if (worst[f] > limit) fprintf(stderr, "%s: worst error %d ulp\n", names[f], worst[f]);
        CHECK(worst[f] <= limit);
    }

    check_rounding(dev, mod);

    /* printf and snprintf */
    capture cap = { "", 0, 0 };
    ws_set_printf_handler(dev, on_printf, &cap);
    ws_addr dbuf;
    char text[64] = "";
    CHECK(ws_malloc(dev, 64, &dbuf) == WS_OK);
    ws_arg fargs[] = { WS_ARG_PTR(dbuf), WS_ARG_I32(1234), WS_ARG_F32(3.14159f) };
    CHECK(ws_launch(dev, fmt, WS_DIM3(1, 1, 1), WS_DIM3(2, 1, 1), 0, fargs, 3) == WS_OK);
    CHECK(ws_memcpy_dtoh(dev, text, dbuf, sizeof text) == WS_OK);
    CHECK_STR_CONTAINS(cap.text, "int 1234 hex 4d2 float  3.14 str ok\n");
    CHECK_STR_CONTAINS(cap.text, "second thread 1\n");
    CHECK_EQ_U(cap.records, 2);
    CHECK(strcmp(text, "[1234|ab |3.142e+00]") == 0);

    /* A line longer than a record is cut to 256 bytes and keeps its
     * newline: before, the 255 bytes kept lost it and the next thread's
     * line ran on into it. */
    ws_kernel *ll = NULL;
    CHECK(ws_kernel_get(mod, "long_line", &ll) == WS_OK);
    cap.len = 0, cap.text[0] = 0, cap.records = 0;
    ws_arg largs[] = { WS_ARG_I32(300) };
    CHECK(ll && ws_launch(dev, ll, WS_DIM3(1, 1, 1), WS_DIM3(2, 1, 1), 0, largs, 1) == WS_OK);
    CHECK(ws_synchronize(dev) == WS_OK);
    CHECK_EQ_U(cap.records, 2);
    CHECK_EQ_U(cap.len, 512);
    char want[513];
    memset(want, 'a', 255), want[255] = '\n';
    memset(want + 256, 'b', 255), want[511] = '\n', want[512] = 0;
    CHECK(strcmp(cap.text, want) == 0);
    /* exactly 256 bytes fit whole */
    cap.len = 0, cap.text[0] = 0, cap.records = 0;
    largs[0] = WS_ARG_I32(255);
    CHECK(ws_launch(dev, ll, WS_DIM3(1, 1, 1), WS_DIM3(1, 1, 1), 0, largs, 1) == WS_OK);
    CHECK(ws_synchronize(dev) == WS_OK);
    CHECK_EQ_U(cap.len, 256);
    CHECK(cap.text[254] == 'a' && cap.text[255] == '\n');

    /* assert from the device library */
    ws_arg cargs[] = { WS_ARG_PTR(dbuf), WS_ARG_I32(0) };
    CHECK(ws_launch(dev, chk, WS_DIM3(1, 1, 1), WS_DIM3(1, 1, 1), 0, cargs, 2) == WS_OK);
    CHECK(ws_synchronize(dev) == WS_ERR_KERNEL_ASSERT);
    CHECK_STR_CONTAINS(ws_last_error(dev), "assertion 'n > 0' failed at");
    CHECK_STR_CONTAINS(ws_last_error(dev), "math_kernel.c:");
    ws_device_close(dev);
    return TEST_SUMMARY();
}
