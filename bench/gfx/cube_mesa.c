/* Speed peer for the graphics benchmark: the demo cube (examples/cube/
 * cube_scene.h) drawn by Mesa's llvmpipe through OSMesa at 640x480, on one
 * rasteriser thread, with the same texture, mipmaps, filtering, lighting,
 * depth test and culling as Warpscope's pipeline draws it.
 *
 * Usage: cube_mesa [frames [out.ppm]]   (frames defaults to 60)
 *
 * Three passes over the same frames: a warm-up frame (llvmpipe compiles its
 * shaders on first use), the timed pass (glFinish per frame, no readback),
 * and a second timed pass that also reads colour and depth back every frame;
 * its depth images give the covered-pixel count behind fragments_per_s. */
#define GL_GLEXT_PROTOTYPES 1
#include "cube_scene.h"

#include <GL/osmesa.h>
#include <GL/glext.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WIDTH 640u
#define HEIGHT 480u

/* Per-vertex lighting, as the shading comment in cube_scene.h says. */
static const char *const vs_src =
    "#version 120\n"
    "uniform mat4 u_mvp;\n"
    "uniform mat4 u_model;\n"
    "uniform vec3 u_light;\n"
    "uniform float u_ambient;\n"
    "uniform float u_diffuse;\n"
    "attribute vec3 a_pos;\n"
    "attribute vec3 a_normal;\n"
    "attribute vec2 a_uv;\n"
    "varying vec2 v_uv;\n"
    "varying float v_light;\n"
    "void main() {\n"
    "    vec3 n = mat3(u_model) * a_normal;\n"
    "    v_light = u_ambient + u_diffuse * max(dot(n, u_light), 0.0);\n"
    "    v_uv = a_uv;\n"
    "    gl_Position = u_mvp * vec4(a_pos, 1.0);\n"
    "}\n";
static const char *const fs_src =
    "#version 120\n"
    "uniform sampler2D u_tex;\n"
    "varying vec2 v_uv;\n"
    "varying float v_light;\n"
    "void main() {\n"
    "    vec4 t = texture2D(u_tex, v_uv);\n"
    "    gl_FragColor = vec4(t.rgb * v_light, t.a);\n"
    "}\n";

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static GLuint compile(GLenum type, const char *src)
{
    GLuint sh = glCreateShader(type);
    GLint ok = 0;
    glShaderSource(sh, 1, &src, NULL);
    glCompileShader(sh);
    glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024];
        glGetShaderInfoLog(sh, sizeof log, NULL, log);
        fprintf(stderr, "cube_mesa: shader compile failed: %s\n", log);
        return 0;
    }
    return sh;
}

static GLuint make_program(void)
{
    GLuint vs = compile(GL_VERTEX_SHADER, vs_src), fs = compile(GL_FRAGMENT_SHADER, fs_src);
    if (!vs || !fs)
        return 0;
    GLuint p = glCreateProgram();
    glAttachShader(p, vs);
    glAttachShader(p, fs);
    glBindAttribLocation(p, 0, "a_pos");
    glBindAttribLocation(p, 1, "a_normal");
    glBindAttribLocation(p, 2, "a_uv");
    glLinkProgram(p);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[1024];
        glGetProgramInfoLog(p, sizeof log, NULL, log);
        fprintf(stderr, "cube_mesa: link failed: %s\n", log);
        return 0;
    }
    return p;
}

/* The texture and its mip chain, each level a 2x2 box filter of the one
 * above rounded to nearest, the same rule as ws_gfx_texture_generate_mips,
 * so both renderers sample identical texels. */
static int upload_texture(void)
{
    uint32_t size = CUBE_TEXTURE_SIZE;
    uint8_t *level = malloc((size_t)size * size * 4), *next = malloc((size_t)size * size);
    if (!level || !next) {
        free(level);
        free(next);
        return -1;
    }
    cube_texture(level, size);
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    for (GLint l = 0;; l++) {
        glTexImage2D(GL_TEXTURE_2D, l, GL_RGBA8, (GLsizei)size, (GLsizei)size, 0, GL_RGBA, GL_UNSIGNED_BYTE, level);
        if (size == 1)
            break;
        uint32_t half = size / 2;
        for (uint32_t y = 0; y < half; y++)
            for (uint32_t x = 0; x < half; x++)
                for (int c = 0; c < 4; c++) {
                    const uint8_t *p = level + ((size_t)(2 * y) * size + 2 * x) * 4 + c;
                    unsigned sum = p[0] + p[4] + p[size * 4] + p[size * 4 + 4];
                    next[((size_t)y * half + x) * 4 + c] = (uint8_t)((sum + 2) / 4);
                }
        memcpy(level, next, (size_t)half * half * 4);
        size = half;
    }
    free(level);
    free(next);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
    return 0;
}

static void upload_geometry(void)
{
    GLuint bufs[2];
    glGenBuffers(2, bufs);
    glBindBuffer(GL_ARRAY_BUFFER, bufs[0]);
    glBufferData(GL_ARRAY_BUFFER, sizeof cube_vertices, cube_vertices, GL_STATIC_DRAW);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, bufs[1]);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof cube_indices, cube_indices, GL_STATIC_DRAW);
    const GLsizei stride = sizeof(cube_vertex);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride, (const void *)offsetof(cube_vertex, pos));
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, stride, (const void *)offsetof(cube_vertex, normal));
    glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, stride, (const void *)offsetof(cube_vertex, uv));
    for (GLuint i = 0; i < 3; i++)
        glEnableVertexAttribArray(i);
}

static void draw_frame(GLuint prog, uint32_t frame)
{
    float model[16], mvp[16];
    cube_frame_matrices(frame, WIDTH, HEIGHT, model, mvp);
    glUniformMatrix4fv(glGetUniformLocation(prog, "u_mvp"), 1, GL_FALSE, mvp);
    glUniformMatrix4fv(glGetUniformLocation(prog, "u_model"), 1, GL_FALSE, model);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glDrawElements(GL_TRIANGLES, CUBE_NINDICES, GL_UNSIGNED_SHORT, NULL);
    glFinish();
}

static int write_ppm(const char *path, const uint8_t *rgba)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    fprintf(f, "P6\n%u %u\n255\n", WIDTH, HEIGHT);
    for (uint32_t y = HEIGHT; y-- > 0;) /* GL rows are bottom-up */
        for (uint32_t x = 0; x < WIDTH; x++)
            fwrite(rgba + ((size_t)y * WIDTH + x) * 4, 1, 3, f);
    return fclose(f);
}

int main(int argc, char **argv)
{
    long frames = argc > 1 ? strtol(argv[1], NULL, 10) : 60;
    if (frames <= 0) {
        fprintf(stderr, "usage: cube_mesa [frames [out.ppm]]\n");
        return 2;
    }
    /* Both are read when the context is created: one rasteriser thread so
     * the number compares with a single-threaded simulator. */
    setenv("LP_NUM_THREADS", "1", 0);
    setenv("GALLIUM_DRIVER", "llvmpipe", 0);
    static const int attribs[] = {OSMESA_FORMAT, OSMESA_RGBA, OSMESA_DEPTH_BITS, 24, OSMESA_STENCIL_BITS, 0,
                                  OSMESA_PROFILE, OSMESA_COMPAT_PROFILE, 0};
    OSMesaContext ctx = OSMesaCreateContextAttribs(attribs, NULL);
    size_t npx = (size_t)WIDTH * HEIGHT;
    uint8_t *fb = malloc(npx * 4), *rgba = malloc(npx * 4);
    float *depth = malloc(npx * sizeof(float));
    if (!ctx || !fb || !rgba || !depth || !OSMesaMakeCurrent(ctx, fb, GL_UNSIGNED_BYTE, WIDTH, HEIGHT)) {
        fprintf(stderr, "cube_mesa: cannot create a %ux%u OSMesa context\n", WIDTH, HEIGHT);
        return 1;
    }
    GLuint prog = make_program();
    if (!prog || upload_texture() != 0)
        return 1;
    upload_geometry();
    glUseProgram(prog);
    glUniform1i(glGetUniformLocation(prog, "u_tex"), 0);
    glUniform3fv(glGetUniformLocation(prog, "u_light"), 1, cube_light_dir);
    glUniform1f(glGetUniformLocation(prog, "u_ambient"), CUBE_AMBIENT);
    glUniform1f(glGetUniformLocation(prog, "u_diffuse"), CUBE_DIFFUSE);
    glViewport(0, 0, WIDTH, HEIGHT);
    glClearColor(0.1f, 0.1f, 0.15f, 1.0f);
    glClearDepth(1.0);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glEnable(GL_CULL_FACE);
    glCullFace(GL_BACK);
    glFrontFace(GL_CCW);
    glDisable(GL_DITHER);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);

    draw_frame(prog, 0); /* warm-up: shader JIT, texture layout */

    double t0 = now();
    for (long f = 0; f < frames; f++)
        draw_frame(prog, (uint32_t)f);
    double seconds = now() - t0;

    /* Same frames again with readback. The cube is convex and back faces
     * are culled, so no pixel is drawn twice: covered pixels (depth below
     * the clear value) are exactly the fragments shaded and written. */
    unsigned long long covered = 0;
    t0 = now();
    for (long f = 0; f < frames; f++) {
        draw_frame(prog, (uint32_t)f);
        glReadPixels(0, 0, WIDTH, HEIGHT, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
        glReadPixels(0, 0, WIDTH, HEIGHT, GL_DEPTH_COMPONENT, GL_FLOAT, depth);
        for (size_t i = 0; i < npx; i++)
            covered += depth[i] < 1.0f;
    }
    double seconds_rb = now() - t0;

    GLenum err = glGetError();
    const char *renderer = (const char *)glGetString(GL_RENDERER);
    printf("mesa_cube frames=%ld seconds=%.4f fps=%.1f fragments_per_s=%.0f covered_px_per_frame=%.0f "
           "seconds_with_readback=%.4f lp_threads=%s renderer=\"%s\"\n",
           frames, seconds, (double)frames / seconds, (double)covered / seconds, (double)covered / (double)frames,
           seconds_rb, getenv("LP_NUM_THREADS"), renderer ? renderer : "?");
    int rc = 0;
    if (err != GL_NO_ERROR) {
        fprintf(stderr, "cube_mesa: GL error 0x%x\n", (unsigned)err);
        rc = 1;
    }
    if (argc > 2 && write_ppm(argv[2], rgba) != 0) {
        fprintf(stderr, "cube_mesa: cannot write %s\n", argv[2]);
        rc = 1;
    }
    OSMesaMakeCurrent(NULL, NULL, GL_UNSIGNED_BYTE, 0, 0);
    OSMesaDestroyContext(ctx);
    free(fb);
    free(rgba);
    free(depth);
    return rc;
}
