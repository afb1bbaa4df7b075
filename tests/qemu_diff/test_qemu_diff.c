/* Differential test: the same RV32 code on the Warpscope device (64 lanes,
 * which diverge on data-dependent branches; on the fast engine and on the
 * interpreter) and on qemu-riscv32 (the ISA
 * reference), comparing every register, fcsr and the scratch memory.
 * usage: test_qemu_diff QEMU MODULE_DIR NAME... (NAME.elf for the device,
 * NAME.qemu for qemu). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "warpscope/warpscope.h"
#include "diff_state.h"
#include "run_qemu.h"
#include "../test.h"

static uint32_t rng = 0x12345678u;
static uint32_t rnd(void) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }

static uint32_t special(void)
{
    static const uint32_t v[] = { 0, 1, 0xFFFFFFFFu, 0x80000000u, 0x7FFFFFFFu, 2, 3, 31, 32, 0xFFFF,
                                  0x3F800000u, 0xBF800000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u,
                                  0x7FA00000u, 0x00000001u, 0x807FFFFFu, 0x00800000u, 0x4B000000u,
                                  0x3F000000u, 0x3FC00000u, 0x4F000000u, 0xCF000001u, 0x80000000u };
    return rnd() % 3 ? rnd() : v[rnd() % (sizeof v / sizeof *v)];
}

static void make_states(uint32_t *s)
{
    for (int i = 0; i < DIFF_STATES * DIFF_WORDS; i++) s[i] = special();
    for (int t = 0; t < DIFF_STATES; t++) s[t * DIFF_WORDS + DIFF_FCSR] = (rnd() % 5) << 5; /* valid frm */
}

static const char *word_name(int w, char *buf, size_t len)
{
    if (w < DIFF_F) snprintf(buf, len, "x%d", w);
    else if (w < DIFF_FCSR) snprintf(buf, len, "f%d", w - DIFF_F);
    else if (w == DIFF_FCSR) snprintf(buf, len, "fcsr");
    else snprintf(buf, len, "mem[%d]", w - DIFF_MEM);
    return buf;
}

static int run_device(ws_device *dev, const char *path, const uint32_t *in, uint32_t *out, size_t bytes)
{
    ws_module *mod;
    ws_kernel *k;
    ws_addr d;
    if (ws_module_load_file(dev, path, &mod) || ws_kernel_get(mod, "diff_main", &k)) return -1;
    ws_arg a = WS_ARG_PTR(0);
    int r = -1;
    if (ws_malloc(dev, bytes, &d) == WS_OK) {
        a = WS_ARG_PTR(d);
        if (ws_memcpy_htod(dev, d, in, bytes) == WS_OK &&
            ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(DIFF_STATES, 1, 1), 0, &a, 1) == WS_OK &&
            ws_memcpy_dtoh(dev, out, d, bytes) == WS_OK)
            r = 0;
        ws_free(dev, d);
    }
    ws_module_unload(dev, mod);
    return r;
}

int main(int argc, char **argv)
{
    if (argc < 4) { fprintf(stderr, "usage: test_qemu_diff QEMU DIR NAME...\n"); return 2; }
    if (access(argv[1], X_OK)) { printf("qemu-riscv32 not found: skipped\n"); return 77; }
    static uint32_t in[DIFF_STATES * DIFF_WORDS], dev_out[DIFF_STATES * DIFF_WORDS], ref[DIFF_STATES * DIFF_WORDS];
    /* the fast engine (the default) and the interpreter, which the
     * debugger, the event watcher and timing mode's other steps use */
    static const char *const engines[] = { "engine=fast", "engine=interp" };
    unsigned long long words = 0;
    for (int e = 0; e < 2; e++) {
        ws_config cfg;
        char cerr[128];
        ws_device *dev;
        ws_config_default(&cfg);
        if (ws_config_parse(&cfg, engines[e], cerr, sizeof cerr) || ws_device_open(&cfg, &dev)) return 1;
        for (int p = 3; p < argc; p++) {
            char elf[4096], prog[4096];
            snprintf(elf, sizeof elf, "%s/%s.elf", argv[2], argv[p]);
            snprintf(prog, sizeof prog, "%s/%s.qemu", argv[2], argv[p]);
            for (int round = 0; round < 2; round++) {
                make_states(in);
                int q = run_qemu(argv[1], prog, in, sizeof in, ref, sizeof in);
                int d = run_device(dev, elf, in, dev_out, sizeof in);
                if (d) fprintf(stderr, "%s (%s): device: %s\n", argv[p], engines[e], ws_last_error(dev));
                CHECK(q == 0);
                CHECK(d == 0);
                if (q || d) continue;
                int mismatches = 0;
                for (int t = 0; t < DIFF_STATES; t++)
                    for (int w = 0; w < DIFF_WORDS; w++) {
                        uint32_t a = dev_out[t * DIFF_WORDS + w], b = ref[t * DIFF_WORDS + w];
                        words++;
                        if (a == b) continue;
                        char name[16];
                        if (mismatches++ < 5)
                            fprintf(stderr, "%s (%s) round %d thread %d %s: device 0x%08x, qemu 0x%08x "
                                    "(input 0x%08x)\n",
                                    argv[p], engines[e], round, t, word_name(w, name, sizeof name), a, b,
                                    in[t * DIFF_WORDS + w]);
                    }
                CHECK_EQ_U(mismatches, 0);
            }
        }
        ws_device_close(dev);
    }
    printf("compared %llu words over %d programs, on both engines\n", words, argc - 3);
    return TEST_SUMMARY();
}
