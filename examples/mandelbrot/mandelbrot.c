/* Mandelbrot set: iteration counts computed on the device, checked against
 * the CPU, coloured and written as a PNG with libpng. */
#include <png.h>
#include <stdlib.h>
#include <string.h>
#include "../common/example.h"

enum { W = 640, H = 480, MAX_ITER = 256 };

/* Same arithmetic as the kernel (built with -ffp-contract=off), so the
 * counts match exactly. */
static int32_t iterations(float cx, float cy)
{
    float x = 0.0f, y = 0.0f;
    int32_t i = 0;
    while (i < MAX_ITER && x * x + y * y <= 4.0f) {
        float t = x * x - y * y + cx;
        y = 2.0f * x * y + cy;
        x = t;
        i++;
    }
    return i;
}

static int write_png(const char *path, const int32_t *iters)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    uint8_t *row = malloc(W * 3);
    if (!png || !info || !row || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(row);
        fclose(f);
        return -1;
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, W, H, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            int32_t n = iters[y * W + x];
            uint8_t *p = &row[x * 3];
            if (n >= MAX_ITER) { p[0] = p[1] = p[2] = 0; continue; }
            p[0] = (uint8_t)(9 * n % 256);
            p[1] = (uint8_t)(5 * n % 256);
            p[2] = (uint8_t)(255 - 3 * n % 256);
        }
        png_write_row(png, row);
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    free(row);
    return fclose(f);
}

int main(int argc, char **argv)
{
    const char *out = argc > 1 ? argv[1] : "mandelbrot.png";
    example ex;
    if (example_open(&ex, "mandelbrot", argv[0], "mandelbrot_kernel.elf")) return 1;
    ws_kernel *k = example_kernel(&ex, "mandelbrot");
    if (!k) return 1;

    const float x0 = -2.2f, y0 = -1.2f, dx = 3.2f / W, dy = 2.4f / H;
    int32_t *iters = malloc(W * H * 4);
    ws_addr d;
    if (ws_malloc(ex.dev, W * H * 4, &d)) return example_fail(&ex, "allocating the image");
    ws_arg args[] = { WS_ARG_PTR(d), WS_ARG_I32(W), WS_ARG_I32(H), WS_ARG_F32(x0), WS_ARG_F32(y0),
                      WS_ARG_F32(dx), WS_ARG_F32(dy), WS_ARG_I32(MAX_ITER) };
    if (example_launch(&ex, k, WS_DIM3(W / 16, H / 16, 1), WS_DIM3(16, 16, 1), 0, args, 8) ||
        example_copy_back(&ex, iters, d, W * H * 4))
        return 1;
    int bad = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            bad += iters[y * W + x] != iterations(x0 + (float)x * dx, y0 + (float)y * dy);
    int png_ok = write_png(out, iters) == 0;
    char detail[256];
    snprintf(detail, sizeof detail, "%dx%d, %d pixels differ from the CPU, image %s %s", W, H, bad,
             png_ok ? "written to" : "NOT written to", out);
    free(iters);
    return example_finish(&ex, bad == 0 && png_ok, detail);
}
