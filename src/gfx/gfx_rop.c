/* Raster output: the depth test, depth write and blending, applied to the
 * lanes in the order the rasteriser emitted them (primitive order per
 * pixel), never in the order warps happened to finish. The shader's
 * colour is clamped to [0, 1] (the target is unorm), blending reads the
 * 8-bit destination as value / 255 and computes in float, and the result
 * is converted to 8 bits by clamping to [0, 1] and rounding to nearest. An armed pixel-history probe (gfx_probe.c) hears the verdict on
 * each fragment of its pixel; disarmed it costs one test per lane. */
#include <string.h>
#include "gfx/gfx_int.h"

void gfx_rop(gfx_draw *d, const gfx_frags *f, const float *color)
{
    const ws_gfx_state *st = d->st;
    const ws_gfx_pipeline_desc *p = &st->pipe.desc;
    uint8_t *cbuf = ws_mem_global_ptr(&d->dev->mem, st->target.color);
    float *zbuf = st->target.depth ? (float *)(void *)ws_mem_global_ptr(&d->dev->mem, st->target.depth) : NULL;
    /* depth is written only by a draw that tests it, as in OpenGL, Vulkan
     * and Direct3D (a draw with the test off leaves the depth image alone
     * whatever depth_write says) */
    int test = p->depth_test && zbuf, write = test && p->depth_write;
    gfx_probe *probe = d->probe;
    for (uint32_t i = 0; i < f->n; i++) {
        const uint32_t *sys = f->sys + (size_t)i * WS_GFX_SYSVALS;
        const float *c = color + (size_t)i * 4;
        int watched = probe && gfx_probe_hit(probe, sys);
        if (sys[2] & WS_GFX_FLAG_HELPER) { /* a helper lane, or a fragment that discarded */
            if (sys[2] & GFX_FLAG_DISCARDED) {
                d->stats->fragments_discarded++;
                if (watched) gfx_probe_rop(d, WS_GFX_PROBE_DISCARDED, c);
            }
            continue;
        }
        size_t px = (size_t)sys[1] * st->target.w + sys[0];
        float z = f->depth[i];
        if (test && !gfx_depth_pass(p->depth_compare, z, zbuf[px])) {
            d->stats->fragments_late_z_killed++;
            if (watched) gfx_probe_rop(d, WS_GFX_PROBE_DEPTH_FAILED, c);
            continue;
        }
        if (write) zbuf[px] = z;
        uint8_t *dst = cbuf + px * 4;
        float src[4], out[4];
        /* An 8-bit (unorm) target clamps the source to [0, 1] before
         * blending, as OpenGL, Vulkan and Direct3D do: a shader's 1.5 does
         * not brighten an alpha blend past 1, nor a -0.5 darken an
         * additive one. */
        for (int k = 0; k < 4; k++) src[k] = gfx_clamp01(c[k]);
        switch (p->blend) {
        case WS_GFX_BLEND_ALPHA:
            for (int k = 0; k < 4; k++) out[k] = src[k] * src[3] + (float)dst[k] / 255.0f * (1.0f - src[3]);
            break;
        case WS_GFX_BLEND_ADDITIVE:
            for (int k = 0; k < 4; k++) out[k] = src[k] + (float)dst[k] / 255.0f;
            break;
        default:
            memcpy(out, src, sizeof out);
        }
        for (int k = 0; k < 4; k++) dst[k] = gfx_unorm8(out[k]);
        d->stats->pixels_written++;
        if (watched) gfx_probe_rop(d, WS_GFX_PROBE_WRITTEN, c);
    }
}
