/* Shaders of the graphics tests: pass-through geometry with interpolated
 * colour (what the Mesa reference draws), texturing, discard, system
 * values and deliberate faults. */
#include <warpscope/shader.h>

struct vin { float pos[4]; float color[4]; };
struct vout { ws_vec4 position; float color[4]; };
struct uni { unsigned fault_x, fault_y; unsigned flags; };

WS_VERTEX void ref_vs(const struct vin *in, struct vout *out)
{
    out->position = ws_vec4_make(in->pos[0], in->pos[1], in->pos[2], in->pos[3]);
    for (int i = 0; i < 4; i++) out->color[i] = in->color[i];
}

WS_FRAGMENT ws_vec4 ref_fs(const struct vout *in)
{
    return ws_vec4_make(in->color[0], in->color[1], in->color[2], in->color[3]);
}

/* colour.xy are texture coordinates */
WS_FRAGMENT ws_vec4 tex_fs(const struct vout *in)
{
    return ws_tex2d(0, in->color[0], in->color[1]);
}

/* fragments whose alpha is below one half write nothing */
WS_FRAGMENT ws_vec4 discard_fs(const struct vout *in)
{
    if (in->color[3] < 0.5f) ws_discard();
    return ws_vec4_make(in->color[0], in->color[1], in->color[2], 1.0f);
}

/* the pixel coordinate and facing as a colour */
WS_FRAGMENT ws_vec4 sysval_fs(const struct vout *in)
{
    return ws_vec4_make((float)ws_pixel_x() / 255.0f, (float)ws_pixel_y() / 255.0f,
                        ws_front_facing() ? 1.0f : 0.0f, (float)ws_primitive_id() / 255.0f);
}

/* a load through a null pointer at one pixel */
WS_FRAGMENT ws_vec4 fault_fs(const struct vout *in, const struct uni *u)
{
    if (ws_pixel_x() == u->fault_x && ws_pixel_y() == u->fault_y && !ws_is_helper())
        return ws_vec4_make(*(volatile float *)0, 0, 0, 1);
    return ws_vec4_make(in->color[0], in->color[1], in->color[2], in->color[3]);
}

/* a load at address u->flags (past an allocation: out of bounds) by one vertex */
WS_VERTEX void fault_vs(const struct vin *in, struct vout *out, const struct uni *u)
{
    ref_vs(in, out);
    if (ws_vertex_id() == u->fault_x) out->color[0] = *(volatile const float *)(uintptr_t)u->flags;
}

/* the vertex index, instance and position offset by the instance */
WS_VERTEX void instance_vs(const struct vin *in, struct vout *out)
{
    float dx = (float)ws_instance_id() * 0.25f;
    out->position = ws_vec4_make(in->pos[0] + dx, in->pos[1], in->pos[2], in->pos[3]);
    out->color[0] = (float)ws_vertex_id() / 255.0f;
    out->color[1] = (float)ws_instance_id() / 255.0f;
    out->color[2] = in->color[2];
    out->color[3] = 1.0f;
}

/* wrong layouts for the pipeline checks */
struct small_in { float pos[3]; };
struct int_out { ws_vec4 position; int id; };
WS_VERTEX void small_vs(const struct small_in *in, struct vout *out)
{
    out->position = ws_vec4_make(in->pos[0], in->pos[1], in->pos[2], 1.0f);
}
WS_VERTEX void int_vs(const struct vin *in, struct int_out *out)
{
    out->position = ws_vec4_make(in->pos[0], in->pos[1], in->pos[2], 1.0f);
    out->id = 1;
}
WS_FRAGMENT ws_vec4 int_fs(const struct int_out *in)
{
    return ws_vec4_make((float)in->id, 0, 0, 1);
}
WS_KERNEL void not_a_shader(int *p) { *p = 1; }

/* printf and assert from a fragment shader */
WS_FRAGMENT ws_vec4 printf_fs(const struct vout *in)
{
    if (ws_pixel_x() == 3 && ws_pixel_y() == 4 && !ws_is_helper())
        printf("fragment (%u,%u) depth %.2f\n", ws_pixel_x(), ws_pixel_y(), (double)in->position.z);
    return ws_vec4_make(0, 1, 0, 1);
}
WS_FRAGMENT ws_vec4 assert_fs(const struct vout *in)
{
    assert(ws_is_helper() || ws_pixel_x() != 5 || ws_pixel_y() != 6);
    return ws_vec4_make(in->color[0], 0, 0, 1);
}

/* No vertex input (the layout fetches nothing): a full-screen triangle
 * from the vertex id. */
WS_VERTEX void from_id_vs(const void *in, struct vout *out)
{
    (void)in;
    unsigned id = ws_vertex_id();
    out->position = ws_vec4_make(id == 1 ? 3.0f : -1.0f, id == 2 ? 3.0f : -1.0f, 0, 1);
    out->color[0] = 0.25f; out->color[1] = 0.5f; out->color[2] = 0.75f; out->color[3] = 1;
}

/* Leaves vertex 2's position unwritten: clip position (0, 0, 0, 0). */
WS_VERTEX void partial_vs(const void *in, struct vout *out)
{
    (void)in;
    unsigned id = ws_vertex_id();
    if (id != 2) out->position = ws_vec4_make(id == 1 ? 0.5f : -0.5f, -0.5f, 0, 1);
    out->color[0] = out->color[1] = out->color[2] = out->color[3] = 1;
}

/* The widest records: 64 input floats, 32 varyings. */
struct fat_in { float a[64]; };
struct fat_out { ws_vec4 position; float v[32]; };
WS_VERTEX void fat_vs(const struct fat_in *in, struct fat_out *out)
{
    out->position = ws_vec4_make(in->a[0], in->a[1], in->a[2], in->a[3]);
    for (int i = 0; i < 32; i++) out->v[i] = in->a[4 + i];
}
WS_VERTEX void wide_vs(const void *in, struct fat_out *out)
{
    (void)in;
    unsigned id = ws_vertex_id();
    out->position = ws_vec4_make(id == 1 ? 3.0f : -1.0f, id == 2 ? 3.0f : -1.0f, 0, 1);
    for (int i = 0; i < 32; i++) out->v[i] = (float)i / 32.0f;
}
WS_FRAGMENT ws_vec4 fat_fs(const struct fat_out *in)
{
    return ws_vec4_make(in->v[0], in->v[1], in->v[31], 1.0f);
}

/* the fragment's instance (of its primitive) in green */
WS_FRAGMENT ws_vec4 instance_fs(const struct vout *in)
{
    return ws_vec4_make(in->color[0], (float)ws_instance_id() / 255.0f, in->color[2], 1.0f);
}

/* spins forever at one pixel (or one vertex) while u->flags is 7: for
 * the watchdog's report */
WS_FRAGMENT ws_vec4 hang_fs(const struct vout *in, const struct uni *u)
{
    if (ws_pixel_x() == u->fault_x && ws_pixel_y() == u->fault_y && !ws_is_helper())
        while (*(volatile const unsigned *)&u->flags == 7) {}
    return ws_vec4_make(in->color[0], in->color[1], in->color[2], in->color[3]);
}
WS_VERTEX void hang_vs(const struct vin *in, struct vout *out, const struct uni *u)
{
    if (ws_vertex_id() == u->fault_x)
        while (*(volatile const unsigned *)&u->flags == 7) {}
    ref_vs(in, out);
}

/* colour.xy are texture coordinates, colour.z the level of detail */
WS_FRAGMENT ws_vec4 tex_lod_fs(const struct vout *in)
{
    return ws_tex2d_lod(0, in->color[0], in->color[1], in->color[2]);
}

/* Counts its fragments with an atomic and marks its pixel with a store;
 * discards where colour.w < 1/2. Helper lanes (and discarded fragments)
 * must do neither: their stores and atomics have no effect. */
struct marks { unsigned fragments; unsigned local_ok; unsigned pixel[64 * 64]; };
WS_FRAGMENT ws_vec4 mark_fs(const struct vout *in, struct marks *m)
{
    if (in->color[3] < 0.5f) ws_discard();
    volatile unsigned local[4]; /* a helper's own stack still works */
    local[ws_pixel_x() & 3] = ws_pixel_x() + 1;
    if (local[ws_pixel_x() & 3] != ws_pixel_x() + 1) m->local_ok = 0;
    atomicAdd(&m->fragments, 1u);
    if (ws_pixel_x() < 64 && ws_pixel_y() < 64) m->pixel[ws_pixel_y() * 64 + ws_pixel_x()] = 1;
    return ws_vec4_make(1, 1, 1, 1);
}

/* Specks for the big draws (gfx.draw_memory): no vertex input; triangle
 * t = id / 3 is a 0.3-pixel speck in pixel (t % 64, t / 64 % 64) of a
 * 64x64 target that covers no pixel centre, except every 1000th, which
 * covers its pixel's centre. So a draw of millions of triangles is cheap to
 * shade, yet every triangle goes through assembly, clipping and setup. */
struct pos_out { ws_vec4 position; };
WS_VERTEX void speck_vs(const void *in, struct pos_out *out)
{
    (void)in;
    unsigned id = ws_vertex_id(), t = id / 3, c = id % 3;
    /* pixel-relative corners: 0.05..0.35 misses the centre (0.5, 0.5),
     * 0.2..0.9 holds it */
    float lo = t % 1000 ? 0.05f : 0.2f, side = t % 1000 ? 0.3f : 0.7f;
    float x = (float)(t % 64) + lo + (c == 1 ? side : 0.0f), y = (float)(t / 64 % 64) + lo + (c == 2 ? side : 0.0f);
    out->position = ws_vec4_make(x / 32.0f - 1.0f, 1.0f - y / 32.0f, 0, 1);
}
WS_FRAGMENT ws_vec4 speck_fs(const struct pos_out *in)
{
    (void)in;
    return ws_vec4_make(1.0f / 64.0f, 0, 0, 1);
}

/* System values of the other stage (ws_gfx_pipeline_create refuses these
 * shaders: a vertex shader's ws_pixel_x() read its vertex index, its
 * ws_primitive_id() its draw, a fragment shader's ws_vertex_id() its
 * pixel's x). The primitive is read in a function the shader calls. */
__attribute__((noinline)) static unsigned primitive_of_vertex(void) { return ws_primitive_id(); }
WS_VERTEX void primitive_in_vs(const struct vin *in, struct vout *out)
{
    ref_vs(in, out);
    out->color[0] = (float)primitive_of_vertex();
}
WS_VERTEX void pixel_in_vs(const struct vin *in, struct vout *out)
{
    ref_vs(in, out);
    out->color[0] = (float)ws_pixel_x();
}
WS_FRAGMENT ws_vec4 vertex_in_fs(const struct vout *in)
{
    return ws_vec4_make((float)ws_vertex_id(), in->color[1], in->color[2], 1);
}
/* ... and through a pointer, which the check cannot follow: the value is
 * WS_GFX_WRONG_STAGE (colour 1 if it is, else 0.5) */
static unsigned read_pixel_x(void) { return ws_pixel_x(); }
static unsigned read_vertex_id(void) { return ws_vertex_id(); }
static unsigned (*volatile pixel_x_reader)(void) = read_pixel_x;
static unsigned (*volatile vertex_id_reader)(void) = read_vertex_id;
WS_VERTEX void pointer_pixel_vs(const struct vin *in, struct vout *out)
{
    ref_vs(in, out);
    out->color[0] = pixel_x_reader() == 0xFFFFFFFFu ? 1.0f : 0.5f;
}
WS_FRAGMENT ws_vec4 pointer_vertex_fs(const struct vout *in)
{
    return ws_vec4_make(in->color[0], vertex_id_reader() == 0xFFFFFFFFu ? 1.0f : 0.5f, 0, 1);
}

/* A helper both stages call: only its fragment path reads the pixel. The
 * vertex shader takes that path only for vertices whose alpha is above 1.5
 * (then the read faults); pipelines accept it (it was refused: the check
 * looked at every path, not at what every run does). */
__attribute__((noinline)) static float pixel_or(int in_fragment, float base)
{
    if (in_fragment) return (float)ws_pixel_x() / 255.0f;
    return base;
}
WS_VERTEX void shared_helper_vs(const struct vin *in, struct vout *out)
{
    ref_vs(in, out);
    out->color[0] = pixel_or(in->color[3] > 1.5f, in->color[0]);
}
WS_FRAGMENT ws_vec4 shared_helper_fs(const struct vout *in)
{
    return ws_vec4_make(pixel_or(1, 0.0f), in->color[1], in->color[2], 1);
}

/* ws_discard() in a vertex shader on every run (pipelines refuse it) and
 * for vertices whose alpha is above 1.5 only (a fault if one does) */
WS_VERTEX void discard_vs(const struct vin *in, struct vout *out)
{
    ref_vs(in, out);
    ws_discard();
}
WS_VERTEX void maybe_discard_vs(const struct vin *in, struct vout *out)
{
    ref_vs(in, out);
    if (in->color[3] > 1.5f) ws_discard();
}

/* A kernel that reads a shader's system value (it read 0, silently) */
WS_KERNEL void pixel_in_kernel(unsigned *out) { out[threadIdx_x()] = ws_pixel_x(); }

/* A vertex shader as the header before 2026-11-28 compiled ws_vertex_id():
 * a read of CSR 0xCD8 (SYS0). In a module with the header's mark that is
 * ws_pixel_x() and refused; in a module without it (built before), the
 * vertex index: vertex v gets red v / 255. */
WS_VERTEX void old_vertex_vs(const struct vin *in, struct vout *out)
{
    unsigned id;
    __asm__ volatile("csrr %0, 0xCD8" : "=r"(id));
    ref_vs(in, out);
    out->color[0] = (float)id / 255.0f;
}
