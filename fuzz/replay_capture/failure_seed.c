/* Program of the failure seeds (make_failure_seeds.sh): its first frame's
 * launch faults and ws_synchronize reports it, which a capture records in
 * a WSCAP_FAILURE section; the program goes on with a second launch that
 * works and reads the result back.
 *   failure_seed MODULE */
#include <stdio.h>
#include <warpscope/warpscope.h>

int main(int argc, char **argv)
{
    ws_device *d;
    ws_module *m;
    ws_kernel *k;
    ws_addr buf;
    if (argc != 2 || ws_device_open(NULL, &d)) return 1;
    if (ws_module_load_file(d, argv[1], &m) || ws_kernel_get(m, "seed_fill", &k) || ws_malloc(d, 64, &buf)) {
        fprintf(stderr, "failure_seed: %s\n", ws_last_error(d));
        return 1;
    }
    for (int f = 0; f < 2; f++) {
        ws_arg a[] = { WS_ARG_PTR(f == 0 ? 0x10 : buf), WS_ARG_I32(f) };
        if (ws_launch(d, k, WS_DIM3(1, 1, 1), WS_DIM3(4, 1, 1), 0, a, 2)) return 1;
        ws_status st = ws_synchronize(d);
        printf("frame %d: %s\n", f, ws_status_name(st));
    }
    int out[4];
    if (ws_memcpy_dtoh(d, out, buf, sizeof out)) return 1;
    printf("out %d %d %d %d\n", out[0], out[1], out[2], out[3]);
    return ws_device_close(d) != WS_OK;
}
