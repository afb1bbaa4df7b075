/* The graphics fixed-function hardware beside the command processor: what
 * the rest of the device calls. The stages themselves are in gfx_*.c:
 *   gfx_cmd.c       command processor part: clear, upload, mips, frames, draws
 *   gfx_launch.c    shader launches and the scratch memory of their records
 *   gfx_vertex.c    vertex fetch and the vertex-shading launch
 *   gfx_clip.c      primitive assembly, clipping, divide, viewport
 *   gfx_raster.c    fixed-point setup, top-left rule, binning, 2x2 quads
 *   gfx_fragment.c  interpolation and the fragment-shading launch
 *   gfx_rop.c       depth test and blending in primitive order
 *   gfx_probe.c     the pixel-history probe (debug hardware, gfx_probe.h)
 *   gfx_mesh.c      the vertex probe (debug hardware, gfx_mesh.h)
 *   gfx_texture.c   the texture unit (ws_tex2d) */
#ifndef WS_GFX_GFX_DEVICE_H
#define WS_GFX_GFX_DEVICE_H
#include "device/device.h"
#include "gfx/gfx.h"

/* The fragment lanes of one batch, 4 per quad, in the order the raster-output
 * stage applies them. The buffers stay with the device between draws. */
typedef struct gfx_frags {
    uint32_t n, cap;                 /* lanes                                 */
    uint32_t per;                    /* floats of shader input per lane       */
    float *in;                       /* n * per floats: shader input           */
    uint32_t *sys;                   /* n * WS_GFX_SYSVALS: x, y, flags,
                                        primitive, instance                   */
    float *depth;                    /* n: window depth                        */
} gfx_frags;

/* Per-device graphics hardware state (dev->gfx). */
typedef struct ws_gfx_device {
    uint32_t scratch, scratch_size;   /* device memory for shader inputs/outputs */
    ws_gfx_draw_stats last;           /* the most recent draw                  */
    int have_last;
    uint64_t frame;                   /* frames presented                      */
    float unorm[256];                 /* value / 255: the texture unit's decode */
    gfx_frags frags;                  /* the rasteriser's output buffers        */
    struct gfx_probe *probe;          /* pixel-history probe (gfx_probe.c), NULL: disarmed */
    struct ws_gfx_mesh *mesh;         /* vertex probe (gfx_mesh.c), NULL: disarmed */
} ws_gfx_device;

/* Per shader launch state the texture unit and discard need (L->gfx). */
typedef struct ws_gfx_run {
    const ws_gfx_state *st;
    uint32_t *sysval;                 /* WS_GFX_SYSVALS words per grid thread
                                         (writable)                           */
    int fragment;                     /* 1 for a fragment-shading launch       */
    int instanced;                    /* the draw has instances other than 0   */
} ws_gfx_run;

/* Execute a graphics command; `launch` runs a shader launch the way the
 * command processor runs kernels (tools see it). */
ws_status ws_gfx_execute(ws_device *dev, ws_gfx_cmd *c, ws_launch_fn launch);
void ws_gfx_cmd_free(ws_gfx_cmd *c);
/* Device close: free the graphics hardware state. */
void ws_gfx_device_free(ws_device *dev);
/* ecall WS_ECALL_TEX / _TEX_LOD / _DISCARD for the lanes of group g.
 * Returns -1 with dev->fault set on a fault. */
int ws_gfx_ecall(ws_device *dev, ws_warp *w, uint32_t g, uint32_t pc);
/* Fault reports: ", draw D vertex V instance I" or ", draw D primitive P
 * pixel (x,y)" for grid thread t of a shader launch. */
void ws_gfx_describe_thread(const ws_grid_run *L, uint64_t t, char *buf, size_t len);

#endif
