/* PNG data: URIs and thumbnails for the frame report (replay_image.h). */
#include "capture/replay_image.h"
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ws_base64(const uint8_t *in, size_t n, char *out)
{
    static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0, i = 0;
    for (; i + 3 <= n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
        out[o++] = abc[v >> 18];
        out[o++] = abc[(v >> 12) & 63];
        out[o++] = abc[(v >> 6) & 63];
        out[o++] = abc[v & 63];
    }
    if (n - i == 1) {
        uint32_t v = (uint32_t)in[i] << 16;
        out[o++] = abc[v >> 18];
        out[o++] = abc[(v >> 12) & 63];
        out[o++] = '=';
        out[o++] = '=';
    } else if (n - i == 2) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8;
        out[o++] = abc[v >> 18];
        out[o++] = abc[(v >> 12) & 63];
        out[o++] = abc[(v >> 6) & 63];
        out[o++] = '=';
    }
    out[o] = 0;
}

ws_status ws_image_png_uri(const uint8_t *rgba, uint32_t w, uint32_t h, int opaque, char **out, char *err,
                           size_t errlen)
{
    static const char prefix[] = "data:image/png;base64,";
    *out = NULL;
    if (!rgba || !w || !h) {
        snprintf(err, errlen, "report image: empty %ux%u image", w, h);
        return WS_ERR_INVALID_ARG;
    }
    size_t n = (size_t)w * h * 4;
    uint8_t *px = malloc(n);
    if (!px) goto oom;
    memcpy(px, rgba, n);
    if (opaque)
        for (size_t i = 3; i < n; i += 4) px[i] = 255;
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    img.width = w;
    img.height = h;
    img.format = PNG_FORMAT_RGBA;
    png_alloc_size_t size = 0;
    /* first the size, then the bytes */
    if (!png_image_write_to_memory(&img, NULL, &size, 0, px, 0, NULL)) {
        snprintf(err, errlen, "report image: libpng: %s", img.message);
        png_image_free(&img);
        free(px);
        return WS_ERR_INTERNAL;
    }
    uint8_t *png = malloc(size);
    char *uri = malloc(sizeof prefix + 4 * ((size + 2) / 3) + 1);
    if (!png || !uri) { free(png); free(uri); free(px); goto oom; }
    if (!png_image_write_to_memory(&img, png, &size, 0, px, 0, NULL)) {
        snprintf(err, errlen, "report image: libpng: %s", img.message);
        png_image_free(&img);
        free(png);
        free(uri);
        free(px);
        return WS_ERR_INTERNAL;
    }
    memcpy(uri, prefix, sizeof prefix - 1);
    ws_base64(png, size, uri + sizeof prefix - 1);
    free(png);
    free(px);
    *out = uri;
    return WS_OK;
oom:
    snprintf(err, errlen, "report image: out of host memory for a %ux%u image", w, h);
    return WS_ERR_OUT_OF_MEMORY;
}

ws_status ws_image_shrink(const uint8_t *rgba, uint32_t w, uint32_t h, uint32_t max_side, uint8_t **out,
                          uint32_t *ow, uint32_t *oh)
{
    uint32_t side = w > h ? w : h, f = 1;
    if (max_side && side > max_side) f = (side + max_side - 1) / max_side;
    uint32_t dw = (w + f - 1) / f, dh = (h + f - 1) / f;
    uint8_t *d = malloc((size_t)dw * dh * 4);
    if (!d) return WS_ERR_OUT_OF_MEMORY;
    for (uint32_t y = 0; y < dh; y++)
        for (uint32_t x = 0; x < dw; x++) {
            uint32_t sum[4] = { 0 }, cnt = 0;
            for (uint32_t sy = y * f; sy < (y + 1) * f && sy < h; sy++)
                for (uint32_t sx = x * f; sx < (x + 1) * f && sx < w; sx++, cnt++)
                    for (int k = 0; k < 4; k++) sum[k] += rgba[((size_t)sy * w + sx) * 4 + k];
            for (int k = 0; k < 4; k++) d[((size_t)y * dw + x) * 4 + k] = (uint8_t)((sum[k] + cnt / 2) / cnt);
        }
    *out = d;
    *ow = dw;
    *oh = dh;
    return WS_OK;
}
