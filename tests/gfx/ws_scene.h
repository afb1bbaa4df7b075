/* Draw a ref_scene (tests/gfx/ref_scene.h) on Warpscope's graphics pipeline
 * with pass-through shaders, as the Mesa reference draws it. */
#ifndef WS_GFX_WS_SCENE_H
#define WS_GFX_WS_SCENE_H
#include <stdint.h>
#include "ref_scene.h"
#include "warpscope/graphics.h"

typedef struct ws_scene_ctx {
    ws_device *dev;
    ws_module *mod;
    ws_kernel *vs, *fs;
} ws_scene_ctx;

/* Open a device (config text, "" for defaults) and load the test shaders. */
int ws_scene_open(ws_scene_ctx *c, const char *shaders_elf, const char *config);
void ws_scene_close(ws_scene_ctx *c);
/* Render s into rgba (width*height*4, row 0 at the top). 0, or -1 with the
 * device's error printed. */
int ws_scene_render(ws_scene_ctx *c, const ref_scene *s, uint8_t *rgba);

#endif
