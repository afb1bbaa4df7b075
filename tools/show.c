/* warpscope show IMAGE.png [--width N]: an image in the terminal, two pixel
 * rows per character cell (the upper half block with 24-bit foreground and
 * background colours), scaled down by averaging. For a glance at a
 * presented frame without leaving the terminal. */
#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "commands.h"
#include "run_args.h"

typedef struct image { uint32_t w, h; uint8_t *rgba; } image;

static int load_png(const char *path, image *img)
{
    struct stat sb; /* libpng reads a directory as a "Read Error" of a truncated PNG */
    if (!stat(path, &sb) && S_ISDIR(sb.st_mode)) {
        fprintf(stderr, "warpscope show: %s: is a directory, not a PNG file\n", path);
        return -1;
    }
    png_image pi;
    memset(&pi, 0, sizeof pi);
    pi.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&pi, path)) {
        fprintf(stderr, "warpscope show: %s: %s%s\n", path, pi.message,
                !strcmp(pi.message, "Read Error") ? " (the PNG is truncated or not readable)" : "");
        return -1;
    }
    pi.format = PNG_FORMAT_RGBA;
    img->w = pi.width;
    img->h = pi.height;
    img->rgba = malloc(PNG_IMAGE_SIZE(pi));
    if (!img->rgba || !png_image_finish_read(&pi, NULL, img->rgba, 0, NULL)) {
        fprintf(stderr, "warpscope show: %s: %s%s\n", path, img->rgba ? pi.message : "out of memory",
                img->rgba && !strcmp(pi.message, "Read Error") ? " (the PNG is truncated or not readable)" : "");
        png_image_free(&pi);
        free(img->rgba);
        return -1;
    }
    return 0;
}

/* Mean colour of the source block behind output pixel (x, y). */
static void block_mean(const image *img, double sx, double sy, uint32_t x, uint32_t y, uint32_t out[3])
{
    uint32_t x0 = (uint32_t)(x * sx), x1 = (uint32_t)((x + 1) * sx), y0 = (uint32_t)(y * sy), y1 = (uint32_t)((y + 1) * sy);
    if (x1 <= x0) x1 = x0 + 1;
    if (y1 <= y0) y1 = y0 + 1;
    uint64_t sum[3] = { 0 }, n = 0;
    for (uint32_t j = y0; j < y1 && j < img->h; j++)
        for (uint32_t i = x0; i < x1 && i < img->w; i++, n++)
            for (int k = 0; k < 3; k++) sum[k] += img->rgba[((size_t)j * img->w + i) * 4 + k];
    for (int k = 0; k < 3; k++) out[k] = n ? (uint32_t)(sum[k] / n) : 0;
}

int ws_cmd_show(int argc, char **argv)
{
    const char *path = NULL;
    uint32_t width = 64;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            printf("usage: warpscope show IMAGE.png [--width COLUMNS (1..1000, default 64)]\n"
                   "Draws the image in the terminal (24-bit colour, two pixel rows per line).\n");
            return 0;
        }
        if (!strcmp(argv[i], "--width") && i + 1 < argc) {
            unsigned long long w;
            char err[160];
            if (ws_parse_u64(argv[++i], 1000, &w, err, sizeof err) || w < 1) { /* "5x" was 5, "4294967297" 1 */
                fprintf(stderr, "warpscope show: --width %s: give a whole number of columns from 1 to 1000\n",
                        argv[i]);
                return 2;
            }
            width = (uint32_t)w;
        } else if (argv[i][0] != '-' && !path) path = argv[i];
        else { fprintf(stderr, "warpscope show: unknown argument '%s'\n", argv[i]); return 2; }
    }
    if (!path || width < 1 || width > 1000) {
        fprintf(stderr, "usage: warpscope show IMAGE.png [--width COLUMNS (1..1000, default 64)]\n");
        return 2;
    }
    image img;
    if (load_png(path, &img)) return 1;
    if (width > img.w) width = img.w;
    double s = (double)img.w / width;
    uint32_t rows = (uint32_t)(img.h / s);
    if (rows < 1) rows = 1;
    for (uint32_t y = 0; y < rows; y += 2) {
        for (uint32_t x = 0; x < width; x++) {
            uint32_t top[3], bot[3];
            block_mean(&img, s, s, x, y, top);
            printf("\033[38;2;%u;%u;%um", top[0], top[1], top[2]);
            if (y + 1 < rows) { /* an odd last row has no lower half: the terminal's background */
                block_mean(&img, s, s, x, y + 1, bot);
                printf("\033[48;2;%u;%u;%um\u2580", bot[0], bot[1], bot[2]);
            } else {
                printf("\033[49m\u2580");
            }
        }
        printf("\033[0m\n");
    }
    printf("%s: %ux%u\n", path, img.w, img.h);
    free(img.rgba);
    return 0;
}
