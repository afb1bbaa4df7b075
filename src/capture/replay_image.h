/* Images for the frame report (replay_html.c): RGBA8 pictures shrunk to
 * thumbnails and turned into PNG data: URIs (libpng, written to memory,
 * base64), so the page needs no other file. */
#ifndef WS_CAPTURE_REPLAY_IMAGE_H
#define WS_CAPTURE_REPLAY_IMAGE_H
#include <stddef.h>
#include <stdint.h>
#include "warpscope/warpscope.h"

/* "data:image/png;base64,..." of a w x h RGBA8 image (rows top to
 * bottom), malloc'd; with opaque set, alpha is written as 255 (the colour
 * channels as they are, which a page shows without blending). */
ws_status ws_image_png_uri(const uint8_t *rgba, uint32_t w, uint32_t h, int opaque, char **out, char *err,
                           size_t errlen);
/* Shrink by an integer factor (box filter, rounded to nearest) so the
 * longest side is at most max_side: a malloc'd image in *out, its size in
 * *ow, *oh (a copy when it already fits). */
ws_status ws_image_shrink(const uint8_t *rgba, uint32_t w, uint32_t h, uint32_t max_side, uint8_t **out,
                          uint32_t *ow, uint32_t *oh);
/* base64 (RFC 4648, with padding) of n bytes into out (4 * ((n + 2) / 3) + 1 bytes). */
void ws_base64(const uint8_t *in, size_t n, char *out);

#endif
