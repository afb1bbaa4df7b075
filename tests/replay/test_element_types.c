/* Element history of a buffer the frame's launches read as two types
 * (docs/capture-replay-pixel.md, "The element's type"): examples/gather's
 * kernel reads buffer X as its `const int *idx` (call 7), then writes it as
 * its `float *out` (call 8). The history names both types, and the
 * change call 8 made is printed as the float it wrote, not as the int the
 * first launch read.
 *   argv[1] = gather_kernel.elf, argv[2] = a scratch directory */
#include <stdint.h>
#include <sys/stat.h>
#include "../capture_builder.h"
#include "../test.h"
#include "capture/capture_calls.h"
#include "capture/replay_pixel.h"
#include "capture/replayer.h"
#include "warpscope/tool.h"

#define N 64
#define BASE (WS_GLOBAL_BASE + 0x200000u)
enum { X = BASE, TABLE = BASE + 0x1000, Y = BASE + 0x2000, ZEROS = BASE + 0x3000 };


/* gather(idx, table, out, N, 1): out[i] = table[idx[i]] */
static void put_gather(builder *b, uint32_t idx, uint32_t out)
{
    wscap_buf p = call(WSCAP_LAUNCH);
    wscap_put_u32(&p, 2);
    uint32_t shape[] = { 1, 1, 1, N, 1, 1, 0 };
    for (int i = 0; i < 7; i++) wscap_put_u32(&p, shape[i]);
    wscap_put_u32(&p, 5);
    uint32_t ptr[] = { idx, TABLE, out };
    for (int i = 0; i < 3; i++) { wscap_put_u32(&p, WS_TYPE_PTR); wscap_put_u64(&p, ptr[i]); }
    wscap_put_u32(&p, WS_TYPE_I32); wscap_put_u64(&p, N);
    wscap_put_u32(&p, WS_TYPE_I32); wscap_put_u64(&p, 1);
    add_call(b, &p);
}

static void write_frame(const char *path, const unsigned char *elf, size_t elf_size)
{
    builder b = { 0 };
    CHECK(ws_capture_writer_open(path, &b.w, b.err, sizeof b.err) == WS_OK);
    if (!b.w) return;
    ws_config cfg;
    ws_config_default(&cfg);
    wscap_buf p = { 0 };
    wscap_put_config(&p, &cfg);
    add(&b, WS_CAPTURE_DEVICE_CONFIG, 0, &p);
    wscap_put_u64(&p, 0);
    wscap_put_u32(&p, WSCAP_FRAME_SYNC);
    add(&b, WS_CAPTURE_FRAME_BEGIN, 0, &p);
    p = call(WSCAP_MODULE_LOAD); /* call 0 */
    wscap_put_u32(&p, 1);
    wscap_put_str(&p, "gather_kernel.elf");
    wscap_put_u32(&p, BASE + 0x20000);
    wscap_put_blob(&p, elf, elf_size);
    add_call(&b, &p);
    p = call(WSCAP_KERNEL_GET); /* call 1 */
    wscap_put_u32(&p, 2);
    wscap_put_u32(&p, 1);
    wscap_put_str(&p, "gather");
    add_call(&b, &p);
    for (uint32_t k = 0, at[] = { X, TABLE, Y, ZEROS }; k < 4; k++) { /* calls 2-5 */
        p = call(WSCAP_MALLOC);
        wscap_put_u64(&p, N * 4);
        wscap_put_u32(&p, at[k]);
        add_call(&b, &p);
    }
    float table[N];
    for (int i = 0; i < N; i++) table[i] = 1.5f + (float)i;
    p = call(WSCAP_HTOD); /* call 6 */
    wscap_put_u32(&p, TABLE);
    wscap_put_blob(&p, table, sizeof table);
    add_call(&b, &p);
    put_gather(&b, X, Y);     /* call 7: X read as int (all 0)          */
    put_gather(&b, ZEROS, X); /* call 8: X written as float: table[0] */
    CHECK(ws_capture_writer_close(b.w) == WS_OK);
}

int main(int argc, char **argv)
{
    if (argc != 3) { fprintf(stderr, "usage: test_element_types GATHER_KERNEL.elf DIR\n"); return 2; }
    mkdir(argv[2], 0777);
    size_t elf_size;
    unsigned char *elf = ws_test_read_file(argv[1], &elf_size);
    CHECK(elf != NULL);
    if (!elf) return TEST_SUMMARY();
    char path[1024], err[1024] = "";
    snprintf(path, sizeof path, "%s/two_types.wscap", argv[2]);
    write_frame(path, elf, elf_size);
    free(elf);
    ws_replay *r = NULL;
    CHECK(ws_replay_open(path, NULL, &r, err, sizeof err) == WS_OK);
    if (!r) { fprintf(stderr, "%s\n", err); return TEST_SUMMARY(); }
    ws_element_history h;
    CHECK(ws_replay_element_collect(r, X + 8, 4, &h, err, sizeof err) == WS_OK);
    /* the first launch that reads it says int32; the second, float */
    CHECK_STR_CONTAINS(h.type.name, "int32");
    CHECK_STR_CONTAINS(h.type.source, "launched by call 7");
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    CHECK(f && ws_replay_element_print(r, &h, f, err, sizeof err) == WS_OK);
    if (f) fclose(f);
    if (getenv("WS_TEST_VERBOSE")) printf("%s", text);
    CHECK_STR_CONTAINS(text, "read as int32 by parameter 0 'idx'");
    CHECK_STR_CONTAINS(text, "also read as float by parameter 2 'out' (float *) of gather, launched by call 8: element 2\n");
    /* the malloc (call 2) shows int32, as the history reads it; call 8's
     * change is the float 1.5 it wrote, in its own type */
    CHECK_STR_CONTAINS(text, "call 8 ws_launch(gather");
    CHECK_STR_CONTAINS(text, "    (as this call reads it: float)\n    old 00 00 00 00  = float (0)\n"
                             "    new 00 00 c0 3f  = float (1.5)\n");
    CHECK(!strstr(text, "= int32 (1069547520)"));
    free(text);
    ws_element_history_free(&h);
    ws_replay_close(r);
    return TEST_SUMMARY();
}
