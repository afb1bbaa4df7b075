/* Warpscope's side of the graphics benchmark: the demo cube (examples/cube/
 * cube_scene.h, drawn as examples/cube/cube_gfx.h draws it) at 640x480 for
 * N frames on the simulated GPU, functional mode, default device config,
 * the peer of cube_mesa.c.
 *
 * Usage: cube_ws [frames [out.ppm]]   (default 60; out.ppm: the last frame,
 *        for tests/gfx's comparison with cube_mesa's)
 *
 * One untimed warm-up frame, then N timed frames, each presented without
 * readback (as cube_mesa's timed pass does glFinish). The draw statistics
 * of each frame give the split of the time between the fixed-function
 * stages and the two shader launches, and the fragments shaded. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cube_gfx.h"

#define WIDTH 640u
#define HEIGHT 480u

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Draw frame f again, read it back and write it as a binary PPM. */
static int save_last(cube_gfx *c, uint32_t f, const char *path)
{
    uint8_t *rgba = malloc((size_t)WIDTH * HEIGHT * 4);
    FILE *out = rgba ? fopen(path, "wb") : NULL;
    int ok = out && cube_gfx_frame(c, f, rgba) == 0 && fprintf(out, "P6\n%u %u\n255\n", WIDTH, HEIGHT) > 0;
    for (size_t i = 0; ok && i < (size_t)WIDTH * HEIGHT; i++) ok = fwrite(rgba + 4 * i, 3, 1, out) == 1;
    if (out && fclose(out)) ok = 0;
    free(rgba);
    if (!ok) fprintf(stderr, "cube_ws: cannot write %s\n", path);
    return ok ? 0 : -1;
}

int main(int argc, char **argv)
{
    long frames = argc > 1 ? strtol(argv[1], NULL, 10) : 60;
    if (frames <= 0) {
        fprintf(stderr, "usage: cube_ws [frames]\n");
        return 2;
    }
    /* The shaders are built next to this program. */
    char path[4096];
    const char *slash = strrchr(argv[0], '/');
    snprintf(path, sizeof path, "%.*s%s", slash ? (int)(slash - argv[0] + 1) : 0, argv[0], "cube_ws_kernel.elf");
    ws_config cfg;
    ws_config_default(&cfg);
    cfg.mode = WS_MODE_FUNCTIONAL;
    ws_device *dev;
    ws_module *mod;
    cube_gfx c;
    if (ws_device_open(&cfg, &dev) != WS_OK) {
        fprintf(stderr, "cube_ws: cannot open the device\n");
        return 1;
    }
    if (ws_module_load_file(dev, path, &mod) != WS_OK) {
        fprintf(stderr, "cube_ws: %s: %s\n", path, ws_last_error(dev));
        return 1;
    }
    if (cube_gfx_init(&c, dev, mod, WIDTH, HEIGHT) || cube_gfx_frame(&c, 0, NULL)) return 1;

    double ff = 0, vs = 0, fs = 0, fragments = 0;
    double t0 = now();
    for (long f = 0; f < frames; f++) {
        ws_gfx_draw_stats st;
        if (cube_gfx_frame(&c, (uint32_t)f, NULL) || ws_gfx_last_draw_stats(dev, &st) != WS_OK) return 1;
        ff += st.fixed_function_seconds;
        vs += st.vertex_seconds;
        fs += st.fragment_seconds;
        fragments += (double)st.fragments_shaded;
    }
    double seconds = now() - t0;
    if (argc > 2 && save_last(&c, (uint32_t)frames - 1, argv[2])) return 1;
    printf("ws_cube frames=%ld seconds=%.4f fps=%.1f fragments_per_s=%.0f fixed_function_s=%.4f vertex_s=%.4f "
           "fragment_s=%.4f\n", frames, seconds, (double)frames / seconds, fragments / seconds, ff, vs, fs);
    cube_gfx_free(&c);
    ws_device_close(dev);
    return 0;
}
