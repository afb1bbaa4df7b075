/* The demo scene the graphics pipeline and its reference renderers both
 * draw: a textured, lit, spinning unit cube. Header-only data and helpers so
 * host programs (Warpscope's, Mesa's bench peer) share one description.
 *
 * Conventions (OpenGL's): matrices are column-major float[16], element
 * (row r, column c) at m[c*4 + r], vectors are columns (v' = M v); clip z
 * lies in [-w, w]; front faces are counter-clockwise. Only sinf, cosf, tanf
 * and sqrtf are used, so results are the same wherever they are computed
 * with the same libm.
 *
 * Shading both renderers apply (per vertex):
 *   n     = mat3(model) * normal          (model is a pure rotation)
 *   light = CUBE_AMBIENT + CUBE_DIFFUSE * max(dot(n, cube_light_dir), 0)
 *   colour = texture(uv) * light, alpha = texture alpha
 * sampled with trilinear filtering (LINEAR within and between mip levels,
 * REPEAT wrap), mip levels made with a 2x2 box filter rounded to nearest. */
#ifndef WS_CUBE_SCENE_H
#define WS_CUBE_SCENE_H
#include <math.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cube_vertex {
    float pos[3];     /* object space, the cube spans -0.5..0.5          */
    float normal[3];  /* unit, outward                                   */
    float uv[2];      /* 0..1 per face; v = 0 is texel row 0             */
} cube_vertex;

#define CUBE_NVERTS 24
#define CUBE_NINDICES 36
#define CUBE_TEXTURE_SIZE 256u
#define CUBE_AMBIENT 0.2f
#define CUBE_DIFFUSE 0.8f
#define CUBE_FOVY_DEG 60.0f
#define CUBE_EYE_DISTANCE 3.0f
#define CUBE_NEAR 0.5f
#define CUBE_FAR 10.0f
#define CUBE_DEG_PER_FRAME 10u

/* World-space direction towards the light, unit length: (0.4, 0.7, 0.6)
 * normalised. */
static const float cube_light_dir[3] = {0.39801488f, 0.69652603f, 0.59702231f};

/* Four vertices per face, counter-clockwise seen from outside the cube. */
static const cube_vertex cube_vertices[CUBE_NVERTS] = {
    /* +X */
    {{ 0.5f, -0.5f,  0.5f}, { 1.0f,  0.0f,  0.0f}, {0.0f, 0.0f}},
    {{ 0.5f, -0.5f, -0.5f}, { 1.0f,  0.0f,  0.0f}, {1.0f, 0.0f}},
    {{ 0.5f,  0.5f, -0.5f}, { 1.0f,  0.0f,  0.0f}, {1.0f, 1.0f}},
    {{ 0.5f,  0.5f,  0.5f}, { 1.0f,  0.0f,  0.0f}, {0.0f, 1.0f}},
    /* -X */
    {{-0.5f, -0.5f, -0.5f}, {-1.0f,  0.0f,  0.0f}, {0.0f, 0.0f}},
    {{-0.5f, -0.5f,  0.5f}, {-1.0f,  0.0f,  0.0f}, {1.0f, 0.0f}},
    {{-0.5f,  0.5f,  0.5f}, {-1.0f,  0.0f,  0.0f}, {1.0f, 1.0f}},
    {{-0.5f,  0.5f, -0.5f}, {-1.0f,  0.0f,  0.0f}, {0.0f, 1.0f}},
    /* +Y */
    {{-0.5f,  0.5f,  0.5f}, { 0.0f,  1.0f,  0.0f}, {0.0f, 0.0f}},
    {{ 0.5f,  0.5f,  0.5f}, { 0.0f,  1.0f,  0.0f}, {1.0f, 0.0f}},
    {{ 0.5f,  0.5f, -0.5f}, { 0.0f,  1.0f,  0.0f}, {1.0f, 1.0f}},
    {{-0.5f,  0.5f, -0.5f}, { 0.0f,  1.0f,  0.0f}, {0.0f, 1.0f}},
    /* -Y */
    {{-0.5f, -0.5f, -0.5f}, { 0.0f, -1.0f,  0.0f}, {0.0f, 0.0f}},
    {{ 0.5f, -0.5f, -0.5f}, { 0.0f, -1.0f,  0.0f}, {1.0f, 0.0f}},
    {{ 0.5f, -0.5f,  0.5f}, { 0.0f, -1.0f,  0.0f}, {1.0f, 1.0f}},
    {{-0.5f, -0.5f,  0.5f}, { 0.0f, -1.0f,  0.0f}, {0.0f, 1.0f}},
    /* +Z */
    {{-0.5f, -0.5f,  0.5f}, { 0.0f,  0.0f,  1.0f}, {0.0f, 0.0f}},
    {{ 0.5f, -0.5f,  0.5f}, { 0.0f,  0.0f,  1.0f}, {1.0f, 0.0f}},
    {{ 0.5f,  0.5f,  0.5f}, { 0.0f,  0.0f,  1.0f}, {1.0f, 1.0f}},
    {{-0.5f,  0.5f,  0.5f}, { 0.0f,  0.0f,  1.0f}, {0.0f, 1.0f}},
    /* -Z */
    {{ 0.5f, -0.5f, -0.5f}, { 0.0f,  0.0f, -1.0f}, {0.0f, 0.0f}},
    {{-0.5f, -0.5f, -0.5f}, { 0.0f,  0.0f, -1.0f}, {1.0f, 0.0f}},
    {{-0.5f,  0.5f, -0.5f}, { 0.0f,  0.0f, -1.0f}, {1.0f, 1.0f}},
    {{ 0.5f,  0.5f, -0.5f}, { 0.0f,  0.0f, -1.0f}, {0.0f, 1.0f}},
};

/* Two triangles per face, keeping the faces' counter-clockwise order. */
static const uint16_t cube_indices[CUBE_NINDICES] = {
    0,  1,  2,  0,  2,  3,   4,  5,  6,  4,  6,  7,   8,  9,  10, 8,  10, 11,
    12, 13, 14, 12, 14, 15,  16, 17, 18, 16, 18, 19,  20, 21, 22, 20, 22, 23,
};

/* A size x size RGBA8 texture (size a power of two, at least 32): a 8x8
 * checkerboard of light grey and cells tinted by their position, inside an
 * orange border size/32 texels wide. The tinted cells and the border make
 * orientation and mip-level mistakes visible. */
static inline void cube_texture(uint8_t *rgba, uint32_t size)
{
    uint32_t cell = size / 8, border = size / 32;
    for (uint32_t y = 0; y < size; y++)
        for (uint32_t x = 0; x < size; x++) {
            uint8_t *p = rgba + ((size_t)y * size + x) * 4;
            uint32_t cx = x / cell, cy = y / cell;
            if (x < border || y < border || x >= size - border || y >= size - border) {
                p[0] = 255, p[1] = 128, p[2] = 0;
            } else if ((cx + cy) & 1) {
                p[0] = 230, p[1] = 230, p[2] = 230;
            } else {
                p[0] = (uint8_t)(40 + 28 * cx), p[1] = (uint8_t)(40 + 28 * cy), p[2] = 200;
            }
            p[3] = 255;
        }
}

/* ---- 4x4 matrices ---- */
static inline void cube_mat_identity(float m[16])
{
    for (int i = 0; i < 16; i++)
        m[i] = (i % 5 == 0) ? 1.0f : 0.0f;
}

/* out = a * b (apply b first); out may alias a or b. */
static inline void cube_mat_mul(float out[16], const float a[16], const float b[16])
{
    float t[16];
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) {
            float s = 0.0f;
            for (int k = 0; k < 4; k++)
                s += a[k * 4 + r] * b[c * 4 + k];
            t[c * 4 + r] = s;
        }
    for (int i = 0; i < 16; i++)
        out[i] = t[i];
}

/* gluPerspective: fovy in radians, eye looks down -z, clip z in [-w, w]. */
static inline void cube_mat_perspective(float m[16], float fovy, float aspect, float znear, float zfar)
{
    float f = 1.0f / tanf(fovy * 0.5f);
    for (int i = 0; i < 16; i++)
        m[i] = 0.0f;
    m[0] = f / aspect;
    m[5] = f;
    m[10] = (zfar + znear) / (znear - zfar);
    m[11] = -1.0f;
    m[14] = 2.0f * zfar * znear / (znear - zfar);
}

static inline void cube_vec_normalize(float v[3])
{
    float l = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    v[0] /= l, v[1] /= l, v[2] /= l;
}

static inline void cube_vec_cross(float out[3], const float a[3], const float b[3])
{
    float t[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    out[0] = t[0], out[1] = t[1], out[2] = t[2];
}

/* gluLookAt: the camera at eye looking at centre, up roughly up. */
static inline void cube_mat_look_at(float m[16], const float eye[3], const float centre[3], const float up[3])
{
    float f[3] = {centre[0] - eye[0], centre[1] - eye[1], centre[2] - eye[2]}, s[3], u[3];
    cube_vec_normalize(f);
    cube_vec_cross(s, f, up);
    cube_vec_normalize(s);
    cube_vec_cross(u, s, f);
    cube_mat_identity(m);
    for (int i = 0; i < 3; i++) {
        m[i * 4 + 0] = s[i];
        m[i * 4 + 1] = u[i];
        m[i * 4 + 2] = -f[i];
    }
    m[12] = -(s[0] * eye[0] + s[1] * eye[1] + s[2] * eye[2]);
    m[13] = -(u[0] * eye[0] + u[1] * eye[1] + u[2] * eye[2]);
    m[14] = f[0] * eye[0] + f[1] * eye[1] + f[2] * eye[2];
}

/* glRotate: angle in radians, counter-clockwise about the axis (x, y, z),
 * which need not be unit length. */
static inline void cube_mat_rotate(float m[16], float angle, float x, float y, float z)
{
    float a[3] = {x, y, z};
    cube_vec_normalize(a);
    float c = cosf(angle), s = sinf(angle), k = 1.0f - c;
    cube_mat_identity(m);
    m[0] = a[0] * a[0] * k + c;
    m[1] = a[1] * a[0] * k + a[2] * s;
    m[2] = a[2] * a[0] * k - a[1] * s;
    m[4] = a[0] * a[1] * k - a[2] * s;
    m[5] = a[1] * a[1] * k + c;
    m[6] = a[2] * a[1] * k + a[0] * s;
    m[8] = a[0] * a[2] * k + a[1] * s;
    m[9] = a[1] * a[2] * k - a[0] * s;
    m[10] = a[2] * a[2] * k + c;
}

/* Frame `frame` of the animation for a w x h target: the cube turned
 * CUBE_DEG_PER_FRAME degrees per frame about the tilted axis (2, 2, 1),
 * seen from (0, 0, CUBE_EYE_DISTANCE) looking at the origin with a
 * CUBE_FOVY_DEG vertical field of view. The angle repeats every 36 frames
 * (taken modulo 360 degrees so the sine's argument stays small). */
static inline void cube_frame_matrices(uint32_t frame, uint32_t w, uint32_t h, float model[16], float mvp[16])
{
    const float deg = 3.14159265358979f / 180.0f;
    static const float eye[3] = {0.0f, 0.0f, CUBE_EYE_DISTANCE}, centre[3] = {0, 0, 0}, up[3] = {0, 1, 0};
    float view[16], proj[16];
    cube_mat_rotate(model, (float)((frame * CUBE_DEG_PER_FRAME) % 360u) * deg, 2.0f, 2.0f, 1.0f);
    cube_mat_look_at(view, eye, centre, up);
    cube_mat_perspective(proj, CUBE_FOVY_DEG * deg, (float)w / (float)h, CUBE_NEAR, CUBE_FAR);
    cube_mat_mul(mvp, view, model);
    cube_mat_mul(mvp, proj, mvp);
}

#endif
