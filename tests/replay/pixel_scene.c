/* The pixel-history test frame (pixel_scene.h). */
#include "pixel_scene.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capture/capture_calls.h"

typedef struct vtx { float pos[4]; float color[4]; } vtx;

/* Pipelines: what each draw of the frame is drawn with. */
enum { P_OPAQUE, P_ALPHA, P_DISCARD, P_EQUAL, P_ADD };
static const struct {
    const char *fs, *text;
    int test, write;
    ws_gfx_compare cmp;
    ws_gfx_blend blend;
} pipes[SCENE_NPIPES] = {
    { "ref_fs", "fs=ref_fs depth=less write blend=opaque", 1, 1, WS_GFX_LESS, WS_GFX_BLEND_OPAQUE },
    { "ref_fs", "fs=ref_fs depth=less blend=alpha", 1, 0, WS_GFX_LESS, WS_GFX_BLEND_ALPHA },
    { "discard_fs", "fs=discard_fs depth=less write blend=opaque", 1, 1, WS_GFX_LESS, WS_GFX_BLEND_OPAQUE },
    { "ref_fs", "fs=ref_fs depth=equal write blend=opaque", 1, 1, WS_GFX_EQUAL, WS_GFX_BLEND_OPAQUE },
    { "ref_fs", "fs=ref_fs depth=off blend=additive", 0, 0, WS_GFX_ALWAYS, WS_GFX_BLEND_ADDITIVE },
};

/* Triangles (3 vertices each): a big one covers the whole target. */
#define BIG(z, r, g, b, a) { { -1, -1, z, 1 }, { r, g, b, a } }, { { 3, -1, z, 1 }, { r, g, b, a } }, \
                           { { -1, 3, z, 1 }, { r, g, b, a } }
static const vtx verts[] = {
    BIG(0.0f, 1.0f, 0.0f, 0.0f, 1.0f),       /* 0: red, depth 0.5             */
    BIG(0.6f, 0.0f, 1.0f, 0.0f, 1.0f),       /* 3: green behind it            */
    BIG(-0.2f, 0.0f, 0.2f, 1.0f, 0.5f),      /* 6: translucent blue in front   */
    /* 9: alpha 2 at the right vertex: discards (alpha < 1/2) left of x = 0 */
    { { -1, -1, -0.5f, 1 }, { 1, 1, 1, 0 } }, { { 3, -1, -0.5f, 1 }, { 1, 1, 1, 2 } },
    { { -1, 3, -0.5f, 1 }, { 1, 1, 1, 0 } },
    BIG(0.3f, 1.0f, 0.0f, 1.0f, 1.0f),       /* 12: depth EQUAL: fails late    */
    BIG(0.9f, 0.1f, 0.05f, 0.0f, 0.0f),      /* 15: additive, two primitives   */
    { { -1, -1, 0.9f, 1 }, { 0, 0.1f, 0.2f, 0 } }, { { 1, -1, 0.9f, 1 }, { 0, 0.1f, 0.2f, 0 } },
    { { -1, 1, 0.9f, 1 }, { 0, 0.1f, 0.2f, 0 } }, /* 18: the lower left half */
    { { -1, 1, 0, 1 }, { 1, 1, 1, 1 } }, { { -0.8f, 1, 0, 1 }, { 1, 1, 1, 1 } },
    { { -1, 0.8f, 0, 1 }, { 1, 1, 1, 1 } },  /* 21: the top-left corner only   */
};

typedef struct call {
    ws_replay_call_kind kind;
    const char *name;
    int pipe;                  /* set_pipeline: which; draws: first vertex */
    uint32_t count;            /* draws: vertices                          */
} call;

static const call calls[] = {
    { WS_REPLAY_CALL_FRAME, "ws_gfx_begin_frame", 0, 0 },
    { WS_REPLAY_CALL_CLEAR, "ws_gfx_clear", 0, 0 },
    { WS_REPLAY_CALL_OTHER, "ws_gfx_set_pipeline", P_OPAQUE, 0 },
    { WS_REPLAY_CALL_DRAW, "ws_gfx_draw", 0, 3 },
    { WS_REPLAY_CALL_DRAW, "ws_gfx_draw", 3, 3 },
    { WS_REPLAY_CALL_OTHER, "ws_gfx_set_pipeline", P_ALPHA, 0 },
    { WS_REPLAY_CALL_DRAW, "ws_gfx_draw", 6, 3 },
    { WS_REPLAY_CALL_OTHER, "ws_gfx_set_pipeline", P_DISCARD, 0 },
    { WS_REPLAY_CALL_DRAW, "ws_gfx_draw", 9, 3 },
    { WS_REPLAY_CALL_OTHER, "ws_gfx_set_pipeline", P_EQUAL, 0 },
    { WS_REPLAY_CALL_DRAW, "ws_gfx_draw", 12, 3 },
    { WS_REPLAY_CALL_OTHER, "ws_gfx_set_pipeline", P_ADD, 0 },
    { WS_REPLAY_CALL_DRAW, "ws_gfx_draw", 15, 6 },
    { WS_REPLAY_CALL_DRAW, "ws_gfx_draw", 21, 3 },
    { WS_REPLAY_CALL_COPY, "ws_memcpy_htod", 0, 0 },   /* bytes 8..15 of the buffer */
    { WS_REPLAY_CALL_COPY, "ws_memset", 0, 0 },        /* bytes 32..47: not 8..15   */
    { WS_REPLAY_CALL_COPY, "ws_memcpy_dtod", 0, 0 },   /* 0..15 <- 32..47           */
    { WS_REPLAY_CALL_FRAME, "ws_gfx_present", 0, 0 },
};
#define NCALLS (sizeof calls / sizeof calls[0])

static const float clear_rgba[4] = { 0.1f, 0.2f, 0.3f, 1.0f };

int scene_open(scene *s, const char *shader_elf, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    ws_kernel *vs = NULL, *fs = NULL;
    if (ws_device_open(NULL, &s->dev) != WS_OK) { snprintf(err, errlen, "cannot open a device"); return -1; }
    ws_status st = ws_module_load_file(s->dev, shader_elf, &s->mod);
    if (st == WS_OK) st = ws_kernel_get(s->mod, "ref_vs", &vs);
    for (int i = 0; st == WS_OK && i < SCENE_NPIPES; i++) {
        st = ws_kernel_get(s->mod, pipes[i].fs, &fs);
        ws_gfx_pipeline_desc d = { .vertex_shader = vs, .fragment_shader = fs, .nattributes = 2, .nbindings = 1,
                                   .depth_test = pipes[i].test, .depth_write = pipes[i].write,
                                   .depth_compare = pipes[i].cmp, .blend = pipes[i].blend };
        d.attributes[0] = (ws_gfx_attribute){ 0, 0, WS_GFX_FLOAT4 };
        d.attributes[1] = (ws_gfx_attribute){ 0, 16, WS_GFX_FLOAT4 };
        d.bindings[0] = (ws_gfx_binding){ sizeof(vtx), 0 };
        if (st == WS_OK) st = ws_gfx_pipeline_create(s->dev, &d, &s->pipe[i]);
    }
    if (st == WS_OK) st = ws_gfx_target_create(s->dev, SCENE_W, SCENE_H, 1, &s->target);
    if (st == WS_OK) st = ws_malloc(s->dev, sizeof verts, &s->vb);
    if (st == WS_OK) st = ws_memcpy_htod(s->dev, s->vb, verts, sizeof verts);
    if (st == WS_OK) st = ws_malloc(s->dev, SCENE_BUF_BYTES, &s->buf);
    if (st == WS_OK) st = ws_gfx_set_target(s->dev, s->target);
    if (st == WS_OK) st = ws_gfx_set_vertex_buffer(s->dev, 0, s->vb, sizeof verts);
    if (st == WS_OK) st = scene_restore(s);
    if (st != WS_OK) {
        snprintf(err, errlen, "building the test frame: %s", ws_last_error(s->dev));
        scene_close(s);
        return -1;
    }
    return 0;
}

void scene_close(scene *s)
{
    if (s->dev) ws_device_close(s->dev);
    memset(s, 0, sizeof *s);
}

ws_status scene_restore(scene *s)
{
    static const float zero[4] = { 0, 0, 0, 0 };
    uint8_t init[SCENE_BUF_BYTES];
    for (int i = 0; i < SCENE_BUF_BYTES; i++) init[i] = (uint8_t)i;
    ws_status st = ws_gfx_clear(s->dev, zero, 1.0f);
    if (st == WS_OK) st = ws_memcpy_htod(s->dev, s->buf, init, sizeof init);
    if (st == WS_OK) st = ws_gfx_set_pipeline(s->dev, s->pipe[P_OPAQUE]);
    if (st == WS_OK) st = ws_synchronize(s->dev);
    return st;
}

size_t scene_call_count(void) { return NCALLS; }

size_t scene_vertex_count(void) { return sizeof verts / sizeof verts[0]; }

void scene_vertex(size_t i, float out[8])
{
    memcpy(out, verts[i].pos, 4 * sizeof(float));
    memcpy(out + 4, verts[i].color, 4 * sizeof(float));
}

void scene_call_info(size_t i, struct ws_replay_call_info *out)
{
    memset(out, 0, sizeof *out);
    if (i >= NCALLS) return;
    const call *c = &calls[i];
    out->index = i;
    out->kind = c->kind;
    out->name = c->name;
    uint32_t draw = 0;
    for (size_t k = 0; k < i; k++) draw += calls[k].kind == WS_REPLAY_CALL_DRAW;
    switch (c->kind) {
    case WS_REPLAY_CALL_DRAW:
        snprintf(out->text, sizeof out->text, "ws_gfx_draw(vertex_count=%u, instance_count=1, first_vertex=%d, "
                 "first_instance=0)", c->count, c->pipe);
        out->draw = draw;
        out->kernel = "ref_fs";
        break;
    case WS_REPLAY_CALL_OTHER:
        snprintf(out->text, sizeof out->text, "ws_gfx_set_pipeline(pipeline=%d)", c->pipe + 1);
        break;
    case WS_REPLAY_CALL_CLEAR:
        snprintf(out->text, sizeof out->text, "ws_gfx_clear(rgba={%g, %g, %g, %g}, depth=1)", clear_rgba[0],
                 clear_rgba[1], clear_rgba[2], clear_rgba[3]);
        break;
    default:
        snprintf(out->text, sizeof out->text, "%s(...)", c->name);
    }
}

ws_status scene_call(scene *s, size_t i)
{
    if (i >= NCALLS) return WS_ERR_INVALID_ARG;
    const call *c = &calls[i];
    if (!strcmp(c->name, "ws_gfx_begin_frame")) return ws_gfx_begin_frame(s->dev, NULL);
    if (!strcmp(c->name, "ws_gfx_present")) return ws_gfx_present(s->dev, s->target, NULL, 0);
    if (!strcmp(c->name, "ws_gfx_clear")) return ws_gfx_clear(s->dev, clear_rgba, 1.0f);
    if (!strcmp(c->name, "ws_gfx_set_pipeline")) return ws_gfx_set_pipeline(s->dev, s->pipe[c->pipe]);
    if (!strcmp(c->name, "ws_gfx_draw")) return ws_gfx_draw(s->dev, c->count, 1, (uint32_t)c->pipe, 0);
    if (!strcmp(c->name, "ws_memcpy_htod")) {
        const uint8_t bytes[8] = { 0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7 };
        return ws_memcpy_htod(s->dev, s->buf + 8, bytes, sizeof bytes);
    }
    if (!strcmp(c->name, "ws_memset")) return ws_memset(s->dev, s->buf + 32, 0x5e, 16);
    if (!strcmp(c->name, "ws_memcpy_dtod")) return ws_memcpy_dtod(s->dev, s->buf, s->buf + 32, 16);
    return WS_ERR_INVALID_ARG;
}

void scene_state_text(size_t i, char *buf, size_t len)
{
    int p = P_OPAQUE;
    for (size_t k = 0; k < i && k < NCALLS; k++)
        if (calls[k].kind == WS_REPLAY_CALL_OTHER) p = calls[k].pipe;
    snprintf(buf, len, "pipeline %d: vs=ref_vs %s\ntarget 1 %dx%d depth\nviewport 0 0 %d %d depth 0..1\n", p + 1,
             pipes[p].text, SCENE_W, SCENE_H, SCENE_W, SCENE_H);
}

/* ---- the frame as a capture file ---- */

enum { ID_MODULE = 1, ID_VS, ID_FS, ID_DISCARD, ID_PIPE0, ID_TARGET = ID_PIPE0 + SCENE_NPIPES };
#define CAP_VB (WS_GLOBAL_BASE + 0x200000u)
#define CAP_MODULE (WS_GLOBAL_BASE + 0x300000u)

typedef struct capw { ws_capture_writer *w; uint64_t calls; int bad; } capw;

static void cap_add(capw *c, uint32_t type, uint64_t id, wscap_buf *p)
{
    if (p->failed || ws_capture_writer_add(c->w, type, id, p->data, p->len) != WS_OK) c->bad = 1;
    wscap_buf_free(p);
}

static wscap_buf cap_call(uint32_t which)
{
    wscap_buf p = { 0 };
    wscap_put_u32(&p, which);
    return p;
}

static void cap_end(capw *c, wscap_buf *p) { cap_add(c, WS_CAPTURE_API_CALL, c->calls++, p); }

static unsigned char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    long n = -1;
    if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)n)) && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (f) fclose(f);
    *len = buf ? (size_t)n : 0;
    return buf;
}

int scene_write_capture(const char *path, const char *shader_elf, char *err, size_t errlen)
{
    size_t elf_size;
    unsigned char *elf = read_all(shader_elf, &elf_size);
    if (!elf) { snprintf(err, errlen, "cannot read %s", shader_elf); return -1; }
    capw c = { 0 };
    if (ws_capture_writer_open(path, &c.w, err, errlen) != WS_OK) { free(elf); return -1; }
    ws_config cfg;
    ws_config_default(&cfg);
    wscap_buf p = { 0 };
    wscap_put_config(&p, &cfg);
    cap_add(&c, WS_CAPTURE_DEVICE_CONFIG, 0, &p);
    wscap_put_u64(&p, 0);
    wscap_put_u32(&p, WSCAP_FRAME_GRAPHICS);
    cap_add(&c, WS_CAPTURE_FRAME_BEGIN, 0, &p);

    /* the prefix: SCENE_CAPTURE_PREFIX calls that make the objects */
    p = cap_call(WSCAP_MODULE_LOAD);
    wscap_put_u32(&p, ID_MODULE);
    wscap_put_str(&p, "gfx_shaders.elf");
    wscap_put_u32(&p, CAP_MODULE);
    wscap_put_blob(&p, elf, elf_size);
    cap_end(&c, &p);
    free(elf);
    const char *names[] = { "ref_vs", "ref_fs", "discard_fs" };
    for (uint32_t k = 0; k < 3; k++) {
        p = cap_call(WSCAP_KERNEL_GET);
        wscap_put_u32(&p, ID_VS + k);
        wscap_put_u32(&p, ID_MODULE);
        wscap_put_str(&p, names[k]);
        cap_end(&c, &p);
    }
    for (uint32_t i = 0; i < SCENE_NPIPES; i++) {
        wscap_pipeline wp = { .vs = ID_VS, .fs = strcmp(pipes[i].fs, "ref_fs") ? ID_DISCARD : ID_FS };
        ws_gfx_pipeline_desc *d = &wp.desc;
        *d = (ws_gfx_pipeline_desc){ .nattributes = 2, .nbindings = 1, .depth_test = pipes[i].test,
                                     .depth_write = pipes[i].write, .depth_compare = pipes[i].cmp,
                                     .blend = pipes[i].blend };
        d->attributes[0] = (ws_gfx_attribute){ 0, 0, WS_GFX_FLOAT4 };
        d->attributes[1] = (ws_gfx_attribute){ 0, 16, WS_GFX_FLOAT4 };
        d->bindings[0] = (ws_gfx_binding){ sizeof(vtx), 0 };
        p = cap_call(WSCAP_PIPELINE_CREATE);
        wscap_put_u32(&p, ID_PIPE0 + i);
        wscap_put_pipeline(&p, &wp);
        cap_end(&c, &p);
    }
    p = cap_call(WSCAP_TARGET_CREATE);
    wscap_put_u32(&p, ID_TARGET);
    wscap_put_u32(&p, SCENE_W);
    wscap_put_u32(&p, SCENE_H);
    wscap_put_u32(&p, 1);
    cap_end(&c, &p);
    uint8_t init[SCENE_BUF_BYTES];
    for (int i = 0; i < SCENE_BUF_BYTES; i++) init[i] = (uint8_t)i;
    const struct { uint32_t addr; const void *bytes; uint64_t n; } allocs[2] = {
        { CAP_VB, verts, sizeof verts }, { SCENE_CAPTURE_BUF, init, sizeof init } };
    for (int k = 0; k < 2; k++) {
        p = cap_call(WSCAP_MALLOC);
        wscap_put_u64(&p, allocs[k].n);
        wscap_put_u32(&p, allocs[k].addr);
        cap_end(&c, &p);
        p = cap_call(WSCAP_HTOD);
        wscap_put_u32(&p, allocs[k].addr);
        wscap_put_blob(&p, allocs[k].bytes, allocs[k].n);
        cap_end(&c, &p);
    }
    p = cap_call(WSCAP_SET_TARGET);
    wscap_put_u32(&p, ID_TARGET);
    cap_end(&c, &p);
    p = cap_call(WSCAP_SET_VERTEX_BUFFER);
    wscap_put_u32(&p, 0);
    wscap_put_u32(&p, CAP_VB);
    wscap_put_u32(&p, sizeof verts);
    cap_end(&c, &p);
    if (c.calls != SCENE_CAPTURE_PREFIX) c.bad = 1;

    /* the frame's calls, as scene_call issues them */
    for (size_t i = 0; i < NCALLS; i++) {
        const call *k = &calls[i];
        const char *n = k->name;
        if (!strcmp(n, "ws_gfx_begin_frame")) p = cap_call(WSCAP_BEGIN_FRAME);
        else if (!strcmp(n, "ws_gfx_present")) {
            p = cap_call(WSCAP_PRESENT);
            wscap_put_u32(&p, ID_TARGET);
            wscap_put_u32(&p, 0);
        } else if (!strcmp(n, "ws_gfx_clear")) {
            p = cap_call(WSCAP_CLEAR);
            for (int j = 0; j < 4; j++) wscap_put_f32(&p, clear_rgba[j]);
            wscap_put_f32(&p, 1.0f);
        } else if (!strcmp(n, "ws_gfx_set_pipeline")) {
            p = cap_call(WSCAP_SET_PIPELINE);
            wscap_put_u32(&p, ID_PIPE0 + (uint32_t)k->pipe);
        } else if (!strcmp(n, "ws_gfx_draw")) {
            p = cap_call(WSCAP_DRAW);
            uint32_t v[4] = { k->count, 1, (uint32_t)k->pipe, 0 };
            for (int j = 0; j < 4; j++) wscap_put_u32(&p, v[j]);
        } else if (!strcmp(n, "ws_memcpy_htod")) {
            const uint8_t bytes[8] = { 0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7 };
            p = cap_call(WSCAP_HTOD);
            wscap_put_u32(&p, SCENE_CAPTURE_BUF + 8);
            wscap_put_blob(&p, bytes, sizeof bytes);
        } else if (!strcmp(n, "ws_memset")) {
            p = cap_call(WSCAP_MEMSET);
            wscap_put_u32(&p, SCENE_CAPTURE_BUF + 32);
            wscap_put_u32(&p, 0x5e);
            wscap_put_u64(&p, 16);
        } else { /* ws_memcpy_dtod */
            p = cap_call(WSCAP_DTOD);
            wscap_put_u32(&p, SCENE_CAPTURE_BUF);
            wscap_put_u32(&p, SCENE_CAPTURE_BUF + 32);
            wscap_put_u64(&p, 16);
        }
        cap_end(&c, &p);
    }
    wscap_put_u64(&p, 0);
    wscap_put_u64(&p, 0); /* the digest is not checked here */
    cap_add(&c, WS_CAPTURE_FRAME_END, 0, &p);
    if (c.bad) {
        ws_capture_writer_abort(c.w);
        snprintf(err, errlen, "writing the capture %s failed", path);
        return -1;
    }
    return ws_capture_writer_close(c.w) == WS_OK ? 0 : (snprintf(err, errlen, "closing %s failed", path), -1);
}
