/* Reference renderer: draws a ref_scene with Mesa's software OpenGL (OSMesa,
 * gallium llvmpipe), so Warpscope's rasteriser can be checked against an
 * implementation nobody here wrote.
 *
 * Each call creates and destroys its own OSMesa context, so calls are
 * independent and the library keeps no state of its own. The only process
 * state touched is the environment: GALLIUM_DRIVER=llvmpipe is set (without
 * overwriting a caller's choice) before the first context, because OSMesa
 * reads it at context creation. Not thread-safe (OSMesa's current context
 * is per thread, setenv is process-wide); the tests are single-threaded.
 *
 * Tie rule, measured with Mesa 22.3 llvmpipe (mesa_ref_selftest checks it
 * on every run, and prints the evidence): a pixel whose centre lies exactly
 * on an edge is drawn when the edge is a LEFT edge or a BOTTOM edge of the
 * triangle, in GL window coordinates (y up). So on a shared vertical edge
 * the pixel goes to the triangle on the right, on a shared horizontal edge
 * to the triangle ABOVE the edge, and a diagonal edge's pixels go to the
 * triangle on its right. This is the "bottom-left" rule in the picture as
 * seen (row 0 at the top, as returned here), NOT Direct3D's top-left rule;
 * it equals top-left only in a y-down space whose row 0 is GL's bottom row.
 * Pixel centres are at (x + 0.5, y + 0.5). (llvmpipe snaps vertices to
 * 1/256 pixel; the selftest only uses vertices on a 1/16 grid.)
 */
#ifndef WS_GFX_MESA_REF_H
#define WS_GFX_MESA_REF_H
#include <stddef.h>
#include <stdint.h>
#include "ref_scene.h"

/* Render s into rgba (width*height*4 bytes, row 0 = top of the image).
 * 0 on success; -1 with a message in err. */
int mesa_ref_render(const ref_scene *s, uint8_t *rgba, char *err, size_t errlen);

/* Copy glGetString(GL_RENDERER) into buf, e.g. "llvmpipe (LLVM 15.0.6, 256
 * bits)". 0 on success, -1 when no context could be made. */
int mesa_ref_renderer(char *buf, size_t len);

#endif
