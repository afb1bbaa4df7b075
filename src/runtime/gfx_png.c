/* Presented images to PNG files (libpng). libpng reports errors by
 * longjmp; the error callback copies its message for the caller. */
#include <errno.h>
#include <png.h>
#include <stdio.h>
#include <string.h>
#include "warpscope/graphics.h"

typedef struct png_err { char *buf; size_t len; } png_err;

static void on_error(png_structp png, png_const_charp msg)
{
    png_err *e = png_get_error_ptr(png);
    if (e && e->len) snprintf(e->buf, e->len, "libpng: %s", msg);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

/* 0, or -1 after libpng's error callback filled the message. */
static int write_image(png_structp png, png_infop info, FILE *f, uint32_t w, uint32_t h, const uint8_t *rgba)
{
    if (setjmp(png_jmpbuf(png))) return -1;
    png_init_io(png, f);
    png_set_IHDR(png, info, w, h, 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (uint32_t y = 0; y < h; y++) png_write_row(png, rgba + (size_t)y * w * 4);
    png_write_end(png, NULL);
    return 0;
}

ws_status ws_gfx_write_png(const char *path, uint32_t w, uint32_t h, const void *rgba, char *err, size_t errlen)
{
    char dummy[8];
    if (!err || !errlen) { err = dummy; errlen = sizeof dummy; }
    err[0] = 0;
    if (!path || !rgba || !w || !h || w > WS_GFX_MAX_SIZE || h > WS_GFX_MAX_SIZE) {
        snprintf(err, errlen, "ws_gfx_write_png: %s", !path ? "path is NULL" : !rgba ? "image is NULL"
                                                                              : "size must be 1..8192 each side");
        return WS_ERR_INVALID_ARG;
    }
    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(err, errlen, "ws_gfx_write_png: %s: %s", path, strerror(errno));
        return WS_ERR_IO;
    }
    png_err e = { err, errlen };
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &e, on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_write_struct(&png, &info);
        fclose(f);
        snprintf(err, errlen, "ws_gfx_write_png: out of memory");
        return WS_ERR_OUT_OF_MEMORY;
    }
    int r = write_image(png, info, f, w, h, rgba);
    png_destroy_write_struct(&png, &info);
    if (r) {
        fclose(f);
        return WS_ERR_IO;
    }
    if (fclose(f)) {
        snprintf(err, errlen, "ws_gfx_write_png: %s: %s", path, strerror(errno));
        return WS_ERR_IO;
    }
    return WS_OK;
}
