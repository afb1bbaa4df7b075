/* Per frame: launches replay_ids_kernel.c's ids_tag, which stores its
 * launch id, and draws two full-screen triangles whose colour is their draw
 * id, so each frame's results depend on ids that keep counting across
 * frames; prints where its buffers are in how much memory, then per frame the stored launch
 * id and pixel 0's red channel, then where a buffer allocated last is.
 *   usage: replay_ids KERNEL.elf FRAMES */
#include <stdio.h>
#include <stdlib.h>
#include <warpscope/graphics.h>
#include <warpscope/warpscope.h>

#define SIDE 16

static int fail(ws_device *dev, const char *what)
{
    fprintf(stderr, "replay_ids: %s: %s\n", what, ws_last_error(dev));
    ws_device_close(dev);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: replay_ids KERNEL.elf FRAMES\n");
        return 2;
    }
    ws_config cfg;
    ws_config_default(&cfg);
    ws_device *dev = NULL;
    if (ws_device_open(&cfg, &dev) != WS_OK) return 1;
    ws_module *m;
    ws_kernel *vs, *fs, *tag;
    if (ws_module_load_file(dev, argv[1], &m) || ws_kernel_get(m, "ids_vs", &vs) || ws_kernel_get(m, "ids_fs", &fs) ||
        ws_kernel_get(m, "ids_tag", &tag))
        return fail(dev, "loading the shaders");
    ws_gfx_pipeline_desc d = {.vertex_shader = vs, .fragment_shader = fs, .nattributes = 1, .nbindings = 1,
                              .cull = WS_GFX_CULL_NONE};
    d.attributes[0] = (ws_gfx_attribute){0, 0, WS_GFX_FLOAT3};
    d.bindings[0] = (ws_gfx_binding){3 * sizeof(float), 0};
    static const float tri[9] = {-1, -1, 0, 3, -1, 0, -1, 3, 0};
    ws_gfx_pipeline *p;
    ws_gfx_target *t;
    ws_addr vb, tags;
    if (ws_malloc(dev, 32 * sizeof(unsigned), &tags) || ws_gfx_pipeline_create(dev, &d, &p) || ws_gfx_target_create(dev, SIDE, SIDE, 0, &t) ||
        ws_malloc(dev, sizeof tri, &vb) || ws_memcpy_htod(dev, vb, tri, sizeof tri) || ws_gfx_set_target(dev, t) ||
        ws_gfx_set_vertex_buffer(dev, 0, vb, sizeof tri) || ws_gfx_set_pipeline(dev, p))
        return fail(dev, "setting up");
    uint64_t limit = 0;
    if (ws_mem_info(dev, NULL, &limit)) return fail(dev, "ws_mem_info");
    printf("buffers at 0x%08llx and 0x%08llx of %llu bytes\n", (unsigned long long)tags, (unsigned long long)vb,
           (unsigned long long)limit);
    unsigned char px[SIDE * SIDE * 4];
    for (int i = 0; i < atoi(argv[2]); i++) {
        static const float black[4] = {0, 0, 0, 1};
        const ws_arg arg = WS_ARG_PTR(tags);
        unsigned tag0;
        if (ws_gfx_begin_frame(dev, NULL) ||
            ws_launch(dev, tag, (ws_dim3){1, 1, 1}, (ws_dim3){32, 1, 1}, 0, &arg, 1) ||
            ws_gfx_clear(dev, black, 1) || ws_gfx_draw(dev, 3, 1, 0, 0) || ws_gfx_draw(dev, 3, 1, 0, 0) ||
            ws_gfx_present(dev, t, px, sizeof px) || ws_memcpy_dtoh(dev, &tag0, tags, sizeof tag0))
            return fail(dev, "drawing");
        printf("frame %d: launch %u, red %u\n", i, tag0, px[0]);
    }
    ws_addr late; /* after launches: where a tool that loads code or buffers at its first launch would show */
    if (ws_malloc(dev, 64, &late)) return fail(dev, "allocating");
    printf("later buffer at 0x%08llx\n", (unsigned long long)late);
    return ws_device_close(dev) == WS_OK ? 0 : 1;
}
