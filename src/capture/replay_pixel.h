/* Pixel history and buffer-element history of a replayed frame
 * (docs/capture-replay-pixel.md).
 *
 * Pixel: the frame is restored and run with the graphics pipeline's
 * pixel-history probe (src/gfx/gfx_probe.h) armed at (x, y); after each
 * clear and draw the device is synchronised and the probe's new records
 * are given to that call. Only records of the chosen render target are
 * kept (a draw into another target at the same coordinates did not touch
 * this pixel).
 *
 * Element: the frame is restored and run, and after every call the bytes
 * [addr, addr + size) are read back; each call after which they differ
 * from before is listed with the old and new bytes. A call that writes the
 * value that was already there is not seen (read-back, not a write trap).
 *
 * Both leave the replay restorable (call ws_replay_restore before the
 * next run) and return ws_status with err saying why on failure. */
#ifndef WS_CAPTURE_REPLAY_PIXEL_H
#define WS_CAPTURE_REPLAY_PIXEL_H
#include <stdio.h>
#include "capture/replayer.h"
#include "gfx/gfx_probe.h"

/* Where the lines of a history's `passed` text go in call order: line i
 * (a failure the replay met and went past) before the entries of call k
 * when key[i] <= 2k: a failure call c returned has key 2c + 1 (after that
 * call's own entries), one a call the capture does not hold met just
 * before call c has 2c. Lines past n go at the end. */
#define WS_REPLAY_PASSED_MAX 64
typedef struct ws_replay_passed_order {
    uint64_t key[WS_REPLAY_PASSED_MAX];
    size_t n;
} ws_replay_passed_order;

/* One thing that happened to the pixel: a clear, or one fragment. */
typedef struct ws_pixel_event {
    uint64_t call;                /* the replay's call index                  */
    ws_gfx_target *target;        /* the target the call wrote                */
    uint32_t target_id;           /* its capture id (ws_replay_target_id_at)   */
    ws_gfx_probe_rec rec;         /* what the hardware saw (gfx_probe.h)       */
} ws_pixel_event;

typedef struct ws_pixel_history {
    uint32_t x, y;
    ws_gfx_target *target;        /* the replay's target the pixel belongs to
                                     (valid until the next restore; NULL when
                                     the frame destroyed it before its end)   */
    uint32_t target_id;           /* its capture id                            */
    uint32_t w, h;                /* its size                                  */
    int initial_known;            /* 0: the target did not exist at the start  */
    uint8_t initial[4];           /* the pixel at the frame's start            */
    float initial_depth;          /* (0 when the target has no depth image)    */
    int has_depth;
    int final_known;              /* 0: the target is gone at the frame end    */
    uint8_t final[4];             /* the pixel at the frame's end, read back:
                                     after the last event, a call that is not a
                                     clear or draw (ws_gfx_target_write) may
                                     have changed it                          */
    float final_depth;
    ws_pixel_event *ev;           /* in API order                              */
    size_t n;
    uint64_t ncalls;              /* distinct calls among ev                   */
    /* The frame's own work failed (a shader or kernel fault, an assert, a
     * deadlock, the watchdog), as it did when captured: the frame ends
     * there, and the history holds what happened to the pixel before.
     * Empty when the frame ran to its end. */
    char failure[640];
    /* Failures of the frame's work the replay met as recorded and went
     * past, as the program did (ws_replay_failures_text's lines). */
    char passed[4096];
    ws_replay_passed_order order; /* where each line goes among the events */
} ws_pixel_history;

/* Collect the history of pixel (x, y) (row 0 at the top) of the target
 * bound when call `target_call` runs, or, with WS_REPLAY_LAST_TARGET, of
 * the target the frame's last clear or draw writes. (A call index, not a
 * handle: a target created inside the frame gets a new handle at every
 * restore.) out->target is valid until the next restore. A frame whose
 * work fails ends there, as in the debugger: the history up to the fault,
 * with out->failure saying what failed. Free with ws_pixel_history_free. */
#define WS_REPLAY_LAST_TARGET UINT64_MAX
ws_status ws_replay_pixel_collect(ws_replay *r, uint32_t x, uint32_t y, uint64_t target_call,
                                  ws_pixel_history *out, char *err, size_t errlen);
void ws_pixel_history_free(ws_pixel_history *h);
/* A call for ws_replay_pixel_collect's target_call that names the render
 * target with capture id `id` (as --list names it, "target 12"): its first
 * clear or draw, else the first call at which it is bound. NOT_FOUND, with
 * err naming the targets the frame's clears and draws write, when no call
 * binds it. */
ws_status ws_replay_target_call(ws_replay *r, uint32_t id, uint64_t *call, char *err, size_t errlen);
/* One line per failure in `passed` (ws_pixel_history's), as --pixel and
 * --element print them, each in call order among the history's entries:
 * ws_replay_passed_collect fills `passed` and `order` after a run;
 * ws_replay_print_passed prints the lines not yet printed that belong
 * before call `call`'s entries (UINT64_MAX: all that are left), from *line
 * on (0 at first). */
void ws_replay_passed_collect(ws_replay *r, char *passed, size_t len, ws_replay_passed_order *order);
void ws_replay_print_passed(FILE *out, const char *passed, const ws_replay_passed_order *order, size_t *line,
                            uint64_t call);
/* Print it: per call that touched the pixel, the call's text and per
 * event the primitive, the shader's output, the depth test, the result and
 * the colour and depth before and after. */
ws_status ws_replay_pixel_print(ws_replay *r, const ws_pixel_history *h, FILE *out, char *err, size_t errlen);
/* `warpscope replay --pixel X,Y CAPTURE`: collect and print. */
ws_status ws_replay_pixel_history(ws_replay *r, uint32_t x, uint32_t y, FILE *out, char *err, size_t errlen);
/* Does no fragment shader run at pixel (x, y) in draw `draw` (its ordinal
 * in the frame, as --list prints it; UINT32_MAX: in any draw)? From the
 * pixel history of each target the draws write: *unshaded 1 with the
 * reason in buf ("... in draw 2: its fragment (primitive 0) failed the
 * early depth test ..." or "no primitive of it covers the pixel"), 0 when
 * one runs (buf empty). Restores the replay and runs the frame. */
ws_status ws_replay_pixel_unshaded(ws_replay *r, uint32_t x, uint32_t y, uint32_t draw, int *unshaded, char *buf,
                                   size_t cap, char *err, size_t errlen);
/* "10,12" -> x, y; WS_ERR_INVALID_ARG with err for anything else. */
ws_status ws_replay_parse_pixel(const char *text, uint32_t *x, uint32_t *y, char *err, size_t errlen);

/* What the frame's calls read the element's bytes as: the scalars of a
 * launch's pointer parameter (the pointee type from the kernel's DWARF)
 * or of a vertex attribute (the pipeline's format). */
typedef enum ws_element_scalar {
    WS_ELEMENT_UNTYPED = 0,               /* no call says                    */
    WS_ELEMENT_FLOAT, WS_ELEMENT_UINT, WS_ELEMENT_SINT,
    WS_ELEMENT_UNORM                      /* bytes / 255 (rgba8 unorm)       */
} ws_element_scalar;

typedef struct ws_element_type {
    ws_element_scalar scalar;
    uint32_t scalar_size;                 /* bytes: 1, 2, 4 or 8             */
    uint32_t count;                       /* scalars an element: float4: 4   */
    uint32_t first;                       /* the scalar the address is at    */
    char name[32];                        /* "float4", "rgba8 unorm", "int32" */
    char source[256];                     /* which call reads it, and how    */
} ws_element_type;

/* The first call of the frame, in call order, that reads bytes at addr
 * with a known type: a launch whose pointer argument points at or below
 * addr into the same allocation (addr a whole number of elements after
 * it), a draw whose vertex attribute reads at addr, or an indexed draw
 * whose index buffer holds it. Kernels are looked
 * up on the replay's device: call it after a run (collect does). Sets
 * scalar WS_ELEMENT_UNTYPED when no call says. */
void ws_replay_element_type(const ws_replay *r, ws_addr addr, ws_element_type *out);
/* Every distinct type (name and first scalar) the frame's calls read addr
 * as, the first call of each in call order, at most max: returns how many. */
size_t ws_replay_element_types(const ws_replay *r, ws_addr addr, ws_element_type *out, size_t max);
/* The type call `call` itself reads addr with (UNTYPED when it does not). */
void ws_replay_element_type_at(const ws_replay *r, ws_addr addr, uint64_t call, ws_element_type *out);

/* One call after which the element's bytes had changed. */
typedef struct ws_element_change {
    uint64_t call;
    uint8_t *before, *after;              /* size bytes each                 */
    uint8_t *held_before, *held_after;    /* per byte: 1 if an allocation
                                             held it (an element may run
                                             past an allocation's end)       */
    ws_element_type type;                 /* as the call itself reads the
                                             element, else the history's     */
} ws_element_change;

/* Types an element history names: the first and up to 7 others. */
#define WS_ELEMENT_MAX_TYPES 8

typedef struct ws_element_history {
    ws_addr addr;
    uint32_t size;
    ws_element_type type;                 /* what the frame reads it as: the
                                             first call that reads it typed  */
    ws_element_type also[WS_ELEMENT_MAX_TYPES - 1]; /* other types later
                                             calls read it as, first each    */
    size_t nalso;
    uint8_t *initial;                     /* at the frame's start            */
    uint8_t *held_initial;                /* as held_before                  */
    ws_element_change *ch;
    size_t n;
    char failure[512];                    /* as ws_pixel_history's           */
    char passed[4096];                    /* as ws_pixel_history's           */
    ws_replay_passed_order order;         /* as ws_pixel_history's           */
} ws_element_history;


#define WS_ELEMENT_MAX_SIZE 4096u

/* Whether an allocation held any of the element's bytes, from a held
 * array (held_initial, held_before, held_after): the history keeps no
 * separate flag that could disagree with it. */
int ws_element_readable(const uint8_t *held, uint32_t size);

ws_status ws_replay_element_collect(ws_replay *r, ws_addr addr, uint32_t size, ws_element_history *out, char *err,
                                    size_t errlen);
void ws_element_history_free(ws_element_history *h);
ws_status ws_replay_element_print(ws_replay *r, const ws_element_history *h, FILE *out, char *err, size_t errlen);
/* One scalar of type t at b as a number; json: a float that is not
 * finite is written as null. */
void ws_element_print_scalar(FILE *f, const ws_element_type *t, const uint8_t *b, int json);


/* `warpscope replay --element ADDR[:SIZE] CAPTURE`: collect and print. */
ws_status ws_replay_element_history(ws_replay *r, ws_addr addr, uint32_t size, FILE *out, char *err, size_t errlen);
/* "0x10000040" or "0x10000040:16" (size default 4, at most
 * WS_ELEMENT_MAX_SIZE) -> addr, size. */
ws_status ws_replay_parse_element(const char *text, ws_addr *addr, uint32_t *size, char *err, size_t errlen);

#endif
