/* warpscope replay --dump-after: what a captured frame holds after one of
 * its calls, written as files (docs/capture-replay.md): render targets and
 * textures as PNG, depth and buffers as raw bytes. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "replay_dump.h"

static int write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    int bad = !f || fwrite(data, 1, n, f) != n;
    if (f && fclose(f)) bad = 1; /* closed once, whether or not the write failed */
    if (bad) {
        fprintf(stderr, "warpscope replay: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* An RGBA8 image as a PNG, and a line that says so. */
static int write_png(const char *path, uint32_t w, uint32_t h, const uint8_t *px)
{
    char err[256];
    if (ws_gfx_write_png(path, w, h, px, err, sizeof err) != WS_OK) {
        fprintf(stderr, "warpscope replay: %s\n", err);
        return 1;
    }
    printf("wrote %s (%ux%u)\n", path, w, h);
    return 0;
}

/* A target's depth image as DIR/callN-targetID-depth.bin (the floats,
 * little-endian, row 0 the top row) and as a grey PNG to look at (depth
 * 0 black, 1 white). */
static int dump_depth(ws_device *dev, ws_gfx_target *t, uint32_t id, const char *dir, uint64_t call)
{
    uint32_t w, h;
    ws_gfx_target_size(t, &w, &h);
    size_t n = (size_t)w * h;
    float *z = malloc(n * sizeof *z);
    uint8_t *bytes = malloc(n * 4);
    int rc = 1;
    if (!z || !bytes || ws_gfx_target_read_depth(dev, t, z, n) != WS_OK) {
        fprintf(stderr, "warpscope replay: reading target %u's depth: %s\n", id, z && bytes ? ws_last_error(dev) : "out of memory");
    } else {
        char path[4096];
        for (size_t i = 0; i < n; i++) {
            uint32_t u;
            memcpy(&u, &z[i], 4);
            for (int k = 0; k < 4; k++) bytes[i * 4 + k] = (uint8_t)(u >> (8 * k));
        }
        snprintf(path, sizeof path, "%s/call%" PRIu64 "-target%u-depth.bin", dir, call, id);
        rc = write_file(path, bytes, n * 4);
        if (!rc) printf("wrote %s (%ux%u floats)\n", path, w, h);
        for (size_t i = 0; i < n && !rc; i++) { /* grey: the depth as unorm8 */
            float d = z[i] > 0 ? (z[i] < 1 ? z[i] : 1) : 0;
            uint8_t g = (uint8_t)(d * 255.0f + 0.5f);
            bytes[i * 4] = bytes[i * 4 + 1] = bytes[i * 4 + 2] = g;
            bytes[i * 4 + 3] = 255;
        }
        snprintf(path, sizeof path, "%s/call%" PRIu64 "-target%u-depth.png", dir, call, id);
        if (!rc) rc = write_png(path, w, h, bytes);
    }
    free(z);
    free(bytes);
    return rc;
}

/* Write each live render target as DIR/callN-targetID.png, ID its capture
 * id (the one --list shows in "target ID"). */
static int dump_targets(ws_replay *r, const char *dir, uint64_t call)
{
    ws_device *dev = ws_replay_device(r);
    size_t nt = 0;
    ws_replay_targets(r, NULL, NULL, 0, &nt);
    ws_gfx_target **t = calloc(nt + 1, sizeof *t);
    uint32_t *ids = calloc(nt + 1, sizeof *ids);
    int rc = t && ids ? 0 : 1;
    if (rc) fprintf(stderr, "warpscope replay: out of memory\n");
    else ws_replay_targets(r, t, ids, nt, &nt);
    char path[4096];
    for (size_t i = 0; i < nt && !rc; i++) {
        uint32_t w, h;
        ws_gfx_target_size(t[i], &w, &h);
        uint8_t *px = malloc((size_t)w * h * 4);
        if (!px || ws_gfx_target_read(dev, t[i], px, (size_t)w * h * 4) != WS_OK) {
            fprintf(stderr, "warpscope replay: reading target %u: %s\n", ids[i], px ? ws_last_error(dev) : "out of memory");
            rc = 1;
        } else {
            snprintf(path, sizeof path, "%s/call%" PRIu64 "-target%u.png", dir, call, ids[i]);
            rc = write_png(path, w, h, px);
        }
        free(px);
        if (!rc && ws_replay_target_has_depth(r, ids[i])) rc = dump_depth(dev, t[i], ids[i], dir, call);
    }
    free(t);
    free(ids);
    return rc;
}

/* Each live texture as DIR/callN-textureID.png (level 0) and, when it has
 * mipmaps, DIR/callN-textureID-levelL.png for the others: the texels the
 * shaders sample after the call. */
static int dump_textures(ws_replay *r, const char *dir, uint64_t call, size_t *count)
{
    ws_device *dev = ws_replay_device(r);
    size_t nt = 0;
    ws_replay_textures(r, NULL, NULL, 0, &nt);
    ws_gfx_texture **t = calloc(nt + 1, sizeof *t);
    uint32_t *ids = calloc(nt + 1, sizeof *ids);
    int rc = t && ids ? 0 : 1;
    if (rc) fprintf(stderr, "warpscope replay: out of memory\n");
    else ws_replay_textures(r, t, ids, nt, &nt);
    char path[4096];
    for (size_t i = 0; i < nt && !rc; i++) {
        uint32_t w, h, levels;
        ws_gfx_texture_levels(t[i], &w, &h, &levels);
        for (uint32_t l = 0; l < levels && !rc; l++) {
            uint32_t lw = w >> l ? w >> l : 1, lh = h >> l ? h >> l : 1;
            uint8_t *px = malloc((size_t)lw * lh * 4);
            if (!px || ws_gfx_texture_read(dev, t[i], l, px, (size_t)lw * lh * 4) != WS_OK) {
                fprintf(stderr, "warpscope replay: reading texture %u level %u: %s\n", ids[i], l,
                        px ? ws_last_error(dev) : "out of memory");
                rc = 1;
            } else {
                if (l == 0) snprintf(path, sizeof path, "%s/call%" PRIu64 "-texture%u.png", dir, call, ids[i]);
                else snprintf(path, sizeof path, "%s/call%" PRIu64 "-texture%u-level%u.png", dir, call, ids[i], l);
                rc = write_png(path, lw, lh, px);
            }
            free(px);
        }
    }
    free(t);
    free(ids);
    *count = nt;
    return rc;
}

int replay_dump(ws_replay *r, const char *dir, uint64_t call)
{
    ws_device *dev = ws_replay_device(r);
    size_t nb = 0;
    char path[4096];
    size_t ntex = 0;
    if (dump_targets(r, dir, call) || dump_textures(r, dir, call, &ntex)) return 1;
    ws_replay_buffers(r, NULL, NULL, 0, &nb);
    uint32_t *addr = calloc(nb + 1, sizeof *addr);
    uint64_t *size = calloc(nb + 1, sizeof *size);
    int rc = addr && size ? 0 : 1;
    if (!rc) ws_replay_buffers(r, addr, size, nb, &nb);
    for (size_t i = 0; i < nb && !rc; i++) {
        uint8_t *b = malloc(size[i] ? (size_t)size[i] : 1);
        if (!b || ws_memcpy_dtoh(dev, b, addr[i], (size_t)size[i]) != WS_OK) {
            fprintf(stderr, "warpscope replay: reading 0x%08x: %s\n", addr[i], b ? ws_last_error(dev) : "out of memory");
            rc = 1;
        } else {
            snprintf(path, sizeof path, "%s/call%" PRIu64 "-buffer-0x%08x.bin", dir, call, addr[i]);
            rc = write_file(path, b, (size_t)size[i]) ? 1 : 0;
            if (!rc) printf("wrote %s (%" PRIu64 " bytes)\n", path, size[i]);
        }
        free(b);
    }
    free(addr);
    free(size);
    size_t nt = 0;
    ws_replay_targets(r, NULL, NULL, 0, &nt);
    if (!rc && !nt && !nb && !ntex) /* say so rather than write nothing silently */
        printf("nothing to dump after call %" PRIu64 ": no render target, texture or buffer exists there\n", call);
    return rc;
}

