/* accumulate: five frames that each build on the last: a compute launch
 * updates a buffer in place, and a draw adds a colour onto the target with
 * additive blending and no clear. Frame f begins at ws_gfx_begin_frame and
 * ends at ws_gfx_present. A capture of frame 2 must replay to frame 2's
 * results in every pass only because the replayer restores the start
 * (capture.restore_does_work). argv[1]: accumulate_kernel.elf. */
#include <stdio.h>
#include <string.h>
#include "warpscope/graphics.h"

enum { N = 4096, W = 64, H = 64, FRAMES = 5 };

static int fail(ws_device *dev, const char *what)
{
    fprintf(stderr, "accumulate: %s: %s\n", what, ws_last_error(dev));
    ws_device_close(dev);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 2) { fprintf(stderr, "usage: accumulate KERNEL.elf\n"); return 2; }
    ws_device *dev;
    if (ws_device_open(NULL, &dev)) return 1;
    ws_module *mod;
    ws_kernel *k, *vs, *fs;
    if (ws_module_load_file(dev, argv[1], &mod) || ws_kernel_get(mod, "accumulate", &k) ||
        ws_kernel_get(mod, "acc_vs", &vs) || ws_kernel_get(mod, "acc_fs", &fs))
        return fail(dev, "loading the kernels");
    ws_addr acc, vb;
    const float tri[6] = { -0.9f, -0.9f, 0.9f, -0.9f, 0.0f, 0.9f };
    ws_gfx_pipeline_desc d = { .vertex_shader = vs, .fragment_shader = fs, .nattributes = 1, .nbindings = 1,
                               .blend = WS_GFX_BLEND_ADDITIVE };
    d.attributes[0] = (ws_gfx_attribute){ 0, 0, WS_GFX_FLOAT2 };
    d.bindings[0] = (ws_gfx_binding){ 8, 0 };
    ws_gfx_pipeline *pipe;
    ws_gfx_target *target;
    if (ws_malloc(dev, N * 4, &acc) || ws_memset(dev, acc, 0, N * 4) || ws_malloc(dev, sizeof tri, &vb) ||
        ws_memcpy_htod(dev, vb, tri, sizeof tri) || ws_gfx_pipeline_create(dev, &d, &pipe) ||
        ws_gfx_target_create(dev, W, H, 0, &target) || ws_gfx_set_target(dev, target) ||
        ws_gfx_set_pipeline(dev, pipe) || ws_gfx_set_vertex_buffer(dev, 0, vb, sizeof tri))
        return fail(dev, "setting up");
    static const float black[4] = { 0, 0, 0, 1 };
    if (ws_gfx_clear(dev, black, 1.0f)) return fail(dev, "clearing");
    static uint8_t image[W * H * 4];
    for (uint32_t f = 0; f < FRAMES; f++) {
        ws_arg args[3] = { WS_ARG_PTR(acc), WS_ARG_U32(f), WS_ARG_I32(N) };
        if (ws_gfx_begin_frame(dev, NULL) || ws_launch(dev, k, WS_DIM3(N / 128, 1, 1), WS_DIM3(128, 1, 1), 0, args, 3) ||
            ws_gfx_draw(dev, 3, 1, 0, 0) || ws_gfx_present(dev, target, image, sizeof image))
            return fail(dev, "drawing a frame");
    }
    unsigned out[N];
    if (ws_memcpy_dtoh(dev, out, acc, sizeof out)) return fail(dev, "reading back");
    /* the host's own count of the same recurrence */
    int bad = 0;
    for (unsigned i = 0; i < N; i++) {
        unsigned v = 0;
        for (unsigned f = 0; f < FRAMES; f++) v = v * 3u + i + f;
        bad += out[i] != v;
    }
    const uint8_t *centre = image + ((H / 2) * W + W / 2) * 4;
    printf("accumulate: %d wrong elements; centre pixel %u %u %u\n", bad, centre[0], centre[1], centre[2]);
    ws_device_close(dev);
    return bad ? 1 : 0;
}
