/* <warpscope/shader.h>: vertex and fragment shaders in C, compiled by
 * `warpscope cc` and run on the SIMT cores by the graphics pipeline
 * (<warpscope/graphics.h> on the host, docs/graphics.md).
 *
 *   struct vin  { float pos[3]; float uv[2]; };               // fetched attributes
 *   struct vout { ws_vec4 position; float uv[2]; };            // position + varyings
 *   struct uni  { ws_mat4 mvp; };
 *   WS_VERTEX void vs(const struct vin *in, struct vout *out, const struct uni *u) {
 *       out->position = ws_mat4_mul(&u->mvp, ws_vec4_make(in->pos[0], in->pos[1], in->pos[2], 1));
 *       out->uv[0] = in->uv[0]; out->uv[1] = in->uv[1];
 *   }
 *   WS_FRAGMENT ws_vec4 fs(const struct vout *in, const struct uni *u) {
 *       return ws_tex2d(0, in->uv[0], in->uv[1]);
 *   }
 *
 * The vertex output struct starts with the clip-space position; every
 * float after it is a varying, interpolated perspective-correctly for the
 * fragment shader, which takes the same struct (its position holds the
 * fragment's window x, y, depth and 1/w, like gl_FragCoord). The uniforms
 * parameter is optional; it receives the address given to
 * ws_gfx_set_uniforms. printf and assert work as in kernels. */
#ifndef WARPSCOPE_SHADER_H
#define WARPSCOPE_SHADER_H
#include <warpscope/kernel.h>

#define WS_VERTEX __attribute__((used, noinline, section(".ws_vertex"))) __attribute__((visibility("default")))
#define WS_FRAGMENT __attribute__((used, noinline, section(".ws_fragment"))) __attribute__((visibility("default")))

typedef struct ws_vec2 { float x, y; } ws_vec2;
typedef struct ws_vec3 { float x, y, z; } ws_vec3;
typedef struct ws_vec4 { float x, y, z, w; } ws_vec4;
/* Column-major 4x4 matrix, as OpenGL stores them: m[col * 4 + row]. */
typedef struct ws_mat4 { float m[16]; } ws_mat4;

/* ---- system values ---- */
/* Marks the module as reading them at this header's CSRs (WS_SYSVALS_SECTION
 * in abi.h): modules without the mark keep the meanings of before. */
__asm__(".pushsection .ws_sysvals,\"\",@progbits\n.byte 2\n.popsection");
/* Each belongs to a stage; ws_gfx_pipeline_create refuses a shader that
 * reads one of the other stage's on every run, and a read on some path
 * faults when it runs, as does any read in a kernel (docs/graphics.md).
 * Vertex shaders: the vertex's index (after base_vertex) and instance.
 * ws_instance_id() also works in fragment shaders: the instance of the
 * fragment's primitive (CSR 0xCDD; it read 0xCD9, the pixel's y, there). */
WS__HELPER unsigned ws_vertex_id(void) { return WS__CSR(0xCDE); }
WS__HELPER unsigned ws_instance_id(void) { return WS__CSR(0xCDD); }
/* Fragment shaders: the pixel, whether the primitive faces the viewer, and
 * whether this lane is a helper (it only feeds its quad's derivatives),
 * the primitive. Both stages: the draw. */
WS__HELPER unsigned ws_pixel_x(void) { return WS__CSR(0xCD8); }
WS__HELPER unsigned ws_pixel_y(void) { return WS__CSR(0xCD9); }
WS__HELPER int ws_front_facing(void) { return (WS__CSR(0xCDA) & 1u) != 0; }
WS__HELPER int ws_is_helper(void) { return (WS__CSR(0xCDA) & 2u) != 0; }
WS__HELPER unsigned ws_primitive_id(void) { return WS__CSR(0xCDB); }
WS__HELPER unsigned ws_draw_id(void) { return WS__CSR(0xCDC); }

/* ---- fragment operations ---- */
/* The fragment writes nothing; the lane runs on as a helper so that its
 * quad's derivatives stay defined (SPIR-V's demote-to-helper). */
WS__HELPER void ws_discard(void)
{
    register unsigned n __asm__("a7") = 0x5712;
    __asm__ volatile("ecall" : : "r"(n) : "memory");
}

/* Sample texture slot `slot` at (u, v) with the slot's sampler; the level
 * of detail comes from how u and v change across the 2x2 quad. */
WS__HELPER ws_vec4 ws_tex2d(unsigned slot, float u, float v)
{
    register unsigned s __asm__("a0") = slot;
    register unsigned n __asm__("a7") = 0x5710;
    register float r __asm__("fa0") = u;
    register float g __asm__("fa1") = v;
    register float b __asm__("fa2");
    register float a __asm__("fa3");
    __asm__ volatile("ecall" : "+f"(r), "+f"(g), "=f"(b), "=f"(a) : "r"(s), "r"(n) : "memory");
    return (ws_vec4){ r, g, b, a };
}
/* The same at an explicit level of detail. */
WS__HELPER ws_vec4 ws_tex2d_lod(unsigned slot, float u, float v, float lod)
{
    register unsigned s __asm__("a0") = slot;
    register unsigned n __asm__("a7") = 0x5711;
    register float r __asm__("fa0") = u;
    register float g __asm__("fa1") = v;
    register float b __asm__("fa2") = lod;
    register float a __asm__("fa3");
    __asm__ volatile("ecall" : "+f"(r), "+f"(g), "+f"(b), "=f"(a) : "r"(s), "r"(n) : "memory");
    return (ws_vec4){ r, g, b, a };
}

/* ---- vector helpers ---- */
WS__HELPER ws_vec4 ws_vec4_make(float x, float y, float z, float w) { return (ws_vec4){ x, y, z, w }; }
WS__HELPER ws_vec3 ws_vec3_make(float x, float y, float z) { return (ws_vec3){ x, y, z }; }
WS__HELPER float ws_dot3(ws_vec3 a, ws_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
WS__HELPER ws_vec3 ws_normalize3(ws_vec3 a)
{
    float len = sqrtf(ws_dot3(a, a));
    float k = len > 0.0f ? 1.0f / len : 0.0f;
    return (ws_vec3){ a.x * k, a.y * k, a.z * k };
}
WS__HELPER float ws_clampf(float x, float lo, float hi) { return x < lo ? lo : x > hi ? hi : x; }
WS__HELPER float ws_mixf(float a, float b, float t) { return a + (b - a) * t; }
/* m * v for a column vector v. */
WS__HELPER ws_vec4 ws_mat4_mul(const ws_mat4 *m, ws_vec4 v)
{
    const float *a = m->m;
    return (ws_vec4){ a[0] * v.x + a[4] * v.y + a[8] * v.z + a[12] * v.w,
                      a[1] * v.x + a[5] * v.y + a[9] * v.z + a[13] * v.w,
                      a[2] * v.x + a[6] * v.y + a[10] * v.z + a[14] * v.w,
                      a[3] * v.x + a[7] * v.y + a[11] * v.z + a[15] * v.w };
}
/* The upper-left 3x3 of m times (x, y, z): directions (normals). */
WS__HELPER ws_vec3 ws_mat4_mul_dir(const ws_mat4 *m, ws_vec3 v)
{
    const float *a = m->m;
    return (ws_vec3){ a[0] * v.x + a[4] * v.y + a[8] * v.z,
                      a[1] * v.x + a[5] * v.y + a[9] * v.z,
                      a[2] * v.x + a[6] * v.y + a[10] * v.z };
}

#endif
