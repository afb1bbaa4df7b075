/* Shaders with calls that never return (test_gfx_noreturn.c). Nothing
 * follows such a call in the code: the bytes after it are the next
 * function's. The linker script puts the vertex shaders, in this order,
 * just before the fragment shaders, so the last vertex shader's call is
 * followed by pixel_fs, whose first instruction reads ws_pixel_x(). */
#include <warpscope/shader.h>

struct vin { float pos[4]; float color[4]; };
struct vout { ws_vec4 position; float color[4]; };

/* A vertex shader with an assert: clang puts the call to ws_assert_fail()
 * last, so it is followed by the next vertex shader's code. */
WS_VERTEX void checked_vs(const struct vin *in, struct vout *out)
{
    assert(in->pos[3] != 0.0f);
    out->position = ws_vec4_make(in->pos[0], in->pos[1], in->pos[2], in->pos[3]);
    for (int i = 0; i < 4; i++) out->color[i] = in->color[i];
}

/* A vertex shader that does read the pixel on every run, after a call that
 * returns: still refused. */
__attribute__((noinline)) static void copy_vertex(const struct vin *in, struct vout *out)
{
    out->position = ws_vec4_make(in->pos[0], in->pos[1], in->pos[2], in->pos[3]);
    for (int i = 0; i < 4; i++) out->color[i] = in->color[i];
}
WS_VERTEX void pixel_vs(const struct vin *in, struct vout *out)
{
    copy_vertex(in, out);
    out->color[0] = (float)ws_pixel_x();
}

/* A shader not written yet: it only stops the draw, in a helper that
 * never returns. Last of the vertex shaders. */
__attribute__((noinline, noreturn)) static void not_written(void) { __builtin_trap(); }
WS_VERTEX void unwritten_vs(const struct vin *in, struct vout *out)
{
    (void)in;
    (void)out;
    not_written();
}

WS_FRAGMENT ws_vec4 pixel_fs(const struct vout *in)
{
    return ws_vec4_make((float)ws_pixel_x() / 255.0f, in->color[1], in->color[2], 1);
}
