/* A program whose middle frame faults and which goes on, as a program
 * checking its statuses does (for tests/capture/fault_frames.sh).
 *   fault_frames KERNELS.elf gfx    three graphics frames into a 32x32
 *       target; frame 1's fragment shader stores through a null pointer
 *       at pixel (5,7) in its first draw, and a second draw queued after
 *       it is discarded with the rest of the frame's work: its present
 *       reports the fault
 *   fault_frames KERNELS.elf free   three sync frames of a kernel filling
 *       a buffer; frame 1's launch faults, and a ws_free reports it before
 *       the frame's synchronize (and frees all the same)
 *   fault_frames KERNELS.elf between  as gfx, but no shader faults: a
 *       kernel launched between frames 0 and 1 (not waited for) does, and
 *       frame 1's present reports it (the frame's work is discarded)
 *   fault_frames KERNELS.elf close  one good frame, then a faulting
 *       launch left queued when the device is closed
 * Prints each frame's status and a value of its results. */
#include <stdio.h>
#include <string.h>
#include "warpscope/graphics.h"

typedef struct { uint32_t bad; float tint; } uniforms;

int main(int argc, char **argv)
{
    if (argc != 3) { fprintf(stderr, "usage: fault_frames KERNELS.elf gfx|free|close\n"); return 2; }
    ws_device *dev;
    ws_module *mod;
    ws_kernel *vs, *fs, *fill;
    if (ws_device_open(NULL, &dev)) return 1;
    if (ws_module_load_file(dev, argv[1], &mod) || ws_kernel_get(mod, "ff_vs", &vs) ||
        ws_kernel_get(mod, "ff_fs", &fs) || ws_kernel_get(mod, "ff_fill", &fill)) {
        fprintf(stderr, "fault_frames: %s\n", ws_last_error(dev));
        return 1;
    }
    ws_addr buf, tmp;
    if (ws_malloc(dev, 64 * 4, &buf)) return 1;
    int between = !strcmp(argv[2], "between");
    if (!strcmp(argv[2], "gfx") || between) {
        static const float quad[12] = { -1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1 };
        ws_addr vb, ub;
        ws_gfx_pipeline_desc d = { .nattributes = 1, .nbindings = 1 };
        d.attributes[0] = (ws_gfx_attribute){ 0, 0, WS_GFX_FLOAT2 };
        d.bindings[0] = (ws_gfx_binding){ 8, 0 };
        d.vertex_shader = vs;
        d.fragment_shader = fs;
        ws_gfx_pipeline *pipe;
        ws_gfx_target *t;
        if (ws_malloc(dev, sizeof quad, &vb) || ws_memcpy_htod(dev, vb, quad, sizeof quad) ||
            ws_malloc(dev, sizeof(uniforms), &ub) || ws_gfx_pipeline_create(dev, &d, &pipe) ||
            ws_gfx_target_create(dev, 32, 32, 0, &t) || ws_gfx_set_target(dev, t) || ws_gfx_set_pipeline(dev, pipe) ||
            ws_gfx_set_vertex_buffer(dev, 0, vb, sizeof quad) || ws_gfx_set_uniforms(dev, ub)) {
            fprintf(stderr, "fault_frames: %s\n", ws_last_error(dev));
            return 1;
        }
        static uint8_t px[32 * 32 * 4];
        for (int f = 0; f < 3; f++) {
            uniforms u = { f == 1 && !between ? 0x10 : 0, 0.25f * (float)(f + 1) };
            ws_arg a[] = { WS_ARG_PTR(buf), WS_ARG_I32(64), WS_ARG_I32(f), WS_ARG_PTR(0x10) };
            if (between && f == 1 && ws_launch(dev, fill, WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), 0, a, 4)) return 1;
            static const float clear[4] = { 0, 0, 0, 1 };
            if (ws_memcpy_htod(dev, ub, &u, sizeof u) || ws_gfx_begin_frame(dev, NULL) ||
                ws_gfx_clear(dev, clear, 1.0f) || ws_gfx_draw(dev, 6, 1, 0, 0) || ws_gfx_draw(dev, 3, 1, 0, 0)) {
                fprintf(stderr, "fault_frames: %s\n", ws_last_error(dev));
                return 1;
            }
            ws_status st = ws_gfx_present(dev, t, px, sizeof px);
            printf("frame %d: %s%s%s\n", f, ws_status_name(st), st ? ": " : "", st ? ws_last_error(dev) : "");
            const uint8_t *p = px + (7 * 32 + 5) * 4;
            if (st == WS_OK) printf("frame %d: pixel (5,7) (%3u %3u %3u %3u)\n", f, p[0], p[1], p[2], p[3]);
        }
    } else {
        int close_mode = !strcmp(argv[2], "close");
        for (int f = 0; f < (close_mode ? 2 : 3); f++) {
            int bad = close_mode ? f == 1 : f == 1;
            ws_arg a[] = { WS_ARG_PTR(buf), WS_ARG_I32(64), WS_ARG_I32(f * 100), WS_ARG_PTR(bad ? 0x10 : 0) };
            if (ws_malloc(dev, 16, &tmp) || ws_launch(dev, fill, WS_DIM3(2, 1, 1), WS_DIM3(32, 1, 1), 0, a, 4)) {
                fprintf(stderr, "fault_frames: %s\n", ws_last_error(dev));
                return 1;
            }
            if (close_mode && f == 1) break; /* left queued: the close runs it */
            ws_status freed = ws_free(dev, tmp); /* reports the launch's fault, and frees all the same */
            if (freed != WS_OK) printf("frame %d: ws_free: %s: %s\n", f, ws_status_name(freed), ws_last_error(dev));
            if (freed != WS_OK && ws_free(dev, tmp) != WS_ERR_BAD_ADDRESS) return 1; /* (a double free now) */
            ws_status st = ws_synchronize(dev);
            int out[64];
            if (ws_memcpy_dtoh(dev, out, buf, sizeof out)) return 1;
            printf("frame %d: %s, out[5] %d\n", f, ws_status_name(st), out[5]);
        }
    }
    ws_status st = ws_device_close(dev);
    printf("close: %s\n", ws_status_name(st));
    return 0;
}
