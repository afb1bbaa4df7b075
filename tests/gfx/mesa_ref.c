/* Reference renderer over OSMesa. One context per render: contexts are cheap
 * next to llvmpipe's shader compile, and it keeps calls independent. */
#include "mesa_ref.h"

#include <GL/osmesa.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* OSMesa picks its gallium driver from the environment when the context is
 * made; ask for llvmpipe unless the caller already chose (softpipe, ...).
 * Its shader cache goes to the working directory (the test's build
 * directory), not the user's home: every run of the suite left
 * ~/.cache/mesa_shader_cache behind, unless the caller chose a place or
 * turned the cache off. */
static void prefer_llvmpipe(void)
{
    setenv("GALLIUM_DRIVER", "llvmpipe", 0);
    if (!getenv("MESA_SHADER_CACHE_DIR") && !getenv("MESA_GLSL_CACHE_DIR") && !getenv("MESA_SHADER_CACHE_DISABLE"))
        setenv("MESA_SHADER_CACHE_DIR", "mesa_shader_cache", 0);
}

/* RGBA8 colour + 24-bit depth, no stencil/accum, compatibility profile so
 * glVertex4fv and fixed-function state work. */
static OSMesaContext make_context(void)
{
    static const int attribs[] = {
        OSMESA_FORMAT, OSMESA_RGBA, OSMESA_DEPTH_BITS, 24, OSMESA_STENCIL_BITS, 0,
        OSMESA_ACCUM_BITS, 0, OSMESA_PROFILE, OSMESA_COMPAT_PROFILE, 0,
    };
    prefer_llvmpipe();
    return OSMesaCreateContextAttribs(attribs, NULL);
}

/* The fixed state every scene shares: nothing between the clip-space input
 * and the rasteriser, plain per-vertex colour interpolation. */
static void base_state(const ref_scene *s)
{
    glViewport(0, 0, (GLsizei)s->width, (GLsizei)s->height);
    glDepthRange(0.0, 1.0);
    glMatrixMode(GL_PROJECTION);
    glLoadIdentity();
    glMatrixMode(GL_MODELVIEW);
    glLoadIdentity();
    glShadeModel(GL_SMOOTH);
    glDisable(GL_DITHER);
    glDisable(GL_MULTISAMPLE);
    glDisable(GL_LIGHTING);
    glDisable(GL_TEXTURE_2D);
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_STENCIL_TEST);
    glDisable(GL_ALPHA_TEST);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
}

static void scene_state(const ref_scene *s)
{
    if (s->depth_test) {
        glEnable(GL_DEPTH_TEST);
        glDepthFunc(GL_LESS);
        glDepthMask(GL_TRUE);
    } else {
        glDisable(GL_DEPTH_TEST);
    }
    if (s->blend == REF_BLEND_ALPHA) {
        glEnable(GL_BLEND);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    } else if (s->blend == REF_BLEND_ADD) {
        glEnable(GL_BLEND);
        glBlendFunc(GL_ONE, GL_ONE);
    } else {
        glDisable(GL_BLEND);
    }
    glFrontFace(GL_CCW);
    if (s->cull == REF_CULL_NONE) {
        glDisable(GL_CULL_FACE);
    } else {
        glEnable(GL_CULL_FACE);
        glCullFace(s->cull == REF_CULL_BACK ? GL_BACK : GL_FRONT);
    }
}

/* GL reads bottom-up; callers want row 0 at the top. */
static void flip_rows(uint8_t *rgba, uint32_t w, uint32_t h)
{
    size_t row = (size_t)w * 4;
    for (uint32_t y = 0; y < h / 2; y++) {
        uint8_t *a = rgba + row * y, *b = rgba + row * (h - 1 - y);
        for (size_t i = 0; i < row; i++) {
            uint8_t t = a[i];
            a[i] = b[i];
            b[i] = t;
        }
    }
}

int mesa_ref_render(const ref_scene *s, uint8_t *rgba, char *err, size_t errlen)
{
    if (!s || !rgba)
        return fail(err, errlen, "mesa_ref_render: null scene or image");
    if (s->width == 0 || s->height == 0 || s->width > 8192 || s->height > 8192)
        return fail(err, errlen, "mesa_ref_render: bad size %ux%u", s->width, s->height);
    if (s->ntris && !s->verts)
        return fail(err, errlen, "mesa_ref_render: %u triangles but no vertices", s->ntris);
    if (s->blend < REF_BLEND_OPAQUE || s->blend > REF_BLEND_ADD || s->cull < REF_CULL_NONE ||
        s->cull > REF_CULL_FRONT)
        return fail(err, errlen, "mesa_ref_render: bad blend %d or cull %d", s->blend, s->cull);

    size_t bytes = (size_t)s->width * s->height * 4;
    void *fb = malloc(bytes); /* OSMesa's own colour buffer; we read back with glReadPixels */
    if (!fb)
        return fail(err, errlen, "mesa_ref_render: out of memory");
    OSMesaContext ctx = make_context();
    if (!ctx) {
        free(fb);
        return fail(err, errlen, "OSMesaCreateContextAttribs failed");
    }
    int rc = 0;
    if (!OSMesaMakeCurrent(ctx, fb, GL_UNSIGNED_BYTE, (GLsizei)s->width, (GLsizei)s->height)) {
        rc = fail(err, errlen, "OSMesaMakeCurrent failed for %ux%u", s->width, s->height);
        goto out;
    }
    base_state(s);
    scene_state(s);
    glClearColor(s->clear[0], s->clear[1], s->clear[2], s->clear[3]);
    glClearDepth(s->clear_depth);
    glDepthMask(GL_TRUE); /* glClear honours the depth mask */
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);

    glBegin(GL_TRIANGLES);
    for (uint32_t i = 0; i < 3 * s->ntris; i++) {
        glColor4fv(s->verts[i].color);
        glVertex4fv(s->verts[i].pos);
    }
    glEnd();
    glFinish();
    glReadPixels(0, 0, (GLsizei)s->width, (GLsizei)s->height, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) {
        rc = fail(err, errlen, "GL error 0x%x while rendering", (unsigned)e);
        goto out;
    }
    flip_rows(rgba, s->width, s->height);
out:
    OSMesaMakeCurrent(NULL, NULL, GL_UNSIGNED_BYTE, 0, 0);
    OSMesaDestroyContext(ctx);
    free(fb);
    return rc;
}

int mesa_ref_renderer(char *buf, size_t len)
{
    if (!buf || !len)
        return -1;
    buf[0] = 0;
    uint8_t px[4 * 4 * 4];
    OSMesaContext ctx = make_context();
    if (!ctx)
        return -1;
    int rc = -1;
    if (OSMesaMakeCurrent(ctx, px, GL_UNSIGNED_BYTE, 4, 4)) {
        const GLubyte *r = glGetString(GL_RENDERER);
        if (r) {
            snprintf(buf, len, "%s", (const char *)r);
            rc = 0;
        }
    }
    OSMesaMakeCurrent(NULL, NULL, GL_UNSIGNED_BYTE, 0, 0);
    OSMesaDestroyContext(ctx);
    return rc;
}
