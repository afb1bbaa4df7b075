/* Program of the real-capture seeds (make_seeds.sh).
 *   seed_program failure MODULE: its first frame's launch faults and
 *     ws_synchronize reports it, which a capture records in a
 *     WSCAP_FAILURE section; a second launch works and is read back.
 *   seed_program struct MODULE: one launch with a struct in registers and
 *     one passed by reference, recorded with their bytes after the
 *     arguments. */
#include <stdio.h>
#include <string.h>
#include <warpscope/warpscope.h>
#include "seed_types.h"

static int failure_frames(ws_device *d, ws_kernel *k, ws_addr buf)
{
    for (int f = 0; f < 2; f++) {
        ws_arg a[] = { WS_ARG_PTR(f == 0 ? 0x10 : buf), WS_ARG_I32(f) };
        if (ws_launch(d, k, WS_DIM3(1, 1, 1), WS_DIM3(4, 1, 1), 0, a, 2)) return 1;
        ws_status st = ws_synchronize(d);
        printf("frame %d: %s\n", f, ws_status_name(st));
    }
    return 0;
}

static int struct_frame(ws_device *d, ws_kernel *k, ws_addr buf)
{
    seed_pair p = { 2.5f, -17 };
    seed_big b = { { 1, 2, 3, 4, 5 }, 10.0f };
    ws_arg a[] = { WS_ARG_PTR(buf), WS_ARG_STRUCT(&p, sizeof p), WS_ARG_STRUCT(&b, sizeof b) };
    return ws_launch(d, k, WS_DIM3(1, 1, 1), WS_DIM3(4, 1, 1), 0, a, 3) != WS_OK;
}

int main(int argc, char **argv)
{
    ws_device *d;
    ws_module *m;
    ws_kernel *k;
    ws_addr buf;
    const int failure = argc == 3 && !strcmp(argv[1], "failure");
    if (argc != 3 || (!failure && strcmp(argv[1], "struct")) || ws_device_open(NULL, &d)) {
        fprintf(stderr, "usage: seed_program failure|struct MODULE\n");
        return 2;
    }
    if (ws_module_load_file(d, argv[2], &m) || ws_kernel_get(m, failure ? "seed_fill" : "seed_structs", &k) ||
        ws_malloc(d, 64, &buf) || (failure ? failure_frames(d, k, buf) : struct_frame(d, k, buf))) {
        fprintf(stderr, "seed_program: %s\n", ws_last_error(d));
        return 1;
    }
    int out[4];
    if (ws_memcpy_dtoh(d, out, buf, sizeof out)) return 1;
    printf("out %d %d %d %d\n", out[0], out[1], out[2], out[3]);
    return ws_device_close(d) != WS_OK;
}
