/* The frame report: `warpscope replay --html DIR CAPTURE` writes
 * DIR/index.html, one self-contained page (inline CSS, images as PNG
 * data: URIs, no script): the final render target at 1:1, the call list,
 * a thumbnail of the target after each clear and draw with the pipeline
 * state at that call, and the pixel history of a chosen pixel
 * (docs/capture-replay-pixel.md). Images show the colour channels
 * opaque; alpha is in the pixel history's numbers.
 *
 * The page's top-left corner has a fixed layout, so a browser screenshot
 * can be checked against the replay's own image (tests/replay): */
#ifndef WS_CAPTURE_REPLAY_HTML_H
#define WS_CAPTURE_REPLAY_HTML_H
#include <stddef.h>
#include "capture/replayer.h"

#define WS_REPLAY_HTML_MARKER_X 16       /* CSS pixels from the page's corner */
#define WS_REPLAY_HTML_MARKER_Y 16
#define WS_REPLAY_HTML_MARKER_W 48
#define WS_REPLAY_HTML_MARKER_H 8
#define WS_REPLAY_HTML_MARKER_RGB 0x17a589u  /* its solid colour, 0xRRGGBB   */
#define WS_REPLAY_HTML_FINAL_X 16        /* the final target's top-left pixel */
#define WS_REPLAY_HTML_FINAL_Y 48

typedef struct ws_replay_html_options {
    int pixel_set;                /* 0: the centre of the final target        */
    uint32_t pixel_x, pixel_y;    /* the pixel whose history the page shows  */
    int target_set;               /* 0: the pixel is of the final target      */
    uint64_t target_call;         /* else of the target bound at this call
                                     (ws_replay_target_call)                  */
    const char *title;            /* the page's heading; NULL: "Frame report" */
    uint32_t thumb_size;          /* thumbnails' longest side in CSS pixels;
                                     0: 160                                   */
} ws_replay_html_options;

/* Runs the frame twice (images, then the pixel history) and writes
 * DIR/index.html (made, with DIR, if missing; replaced atomically). opt
 * may be NULL. On failure err says why. */
ws_status ws_replay_html(ws_replay *r, const char *dir, const ws_replay_html_options *opt, char *err, size_t errlen);

#endif
