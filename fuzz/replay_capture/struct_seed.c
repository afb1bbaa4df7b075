/* Program of the struct seeds (make_seeds.sh): one launch with a struct in
 * registers and one passed by reference, which a capture records with
 * their bytes after the arguments.
 *   struct_seed MODULE */
#include <stdio.h>
#include <warpscope/warpscope.h>

typedef struct pair {
    float x;
    int n;
} pair;
typedef struct big {
    int v[5];
    float f;
} big;

int main(int argc, char **argv)
{
    ws_device *d;
    ws_module *m;
    ws_kernel *k;
    ws_addr buf;
    if (argc != 2 || ws_device_open(NULL, &d)) return 1;
    if (ws_module_load_file(d, argv[1], &m) || ws_kernel_get(m, "seed_structs", &k) || ws_malloc(d, 64, &buf)) {
        fprintf(stderr, "struct_seed: %s\n", ws_last_error(d));
        return 1;
    }
    pair p = { 2.5f, -17 };
    big b = { { 1, 2, 3, 4, 5 }, 10.0f };
    ws_arg a[] = { WS_ARG_PTR(buf), WS_ARG_STRUCT(&p, sizeof p), WS_ARG_STRUCT(&b, sizeof b) };
    int out[4];
    if (ws_launch(d, k, WS_DIM3(1, 1, 1), WS_DIM3(4, 1, 1), 0, a, 3) || ws_memcpy_dtoh(d, out, buf, sizeof out)) {
        fprintf(stderr, "struct_seed: %s\n", ws_last_error(d));
        return 1;
    }
    printf("out %d %d %d %d\n", out[0], out[1], out[2], out[3]);
    return ws_device_close(d) != WS_OK;
}
