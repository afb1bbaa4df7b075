/* WARPSCOPE_CAPTURE="out=FILE,frames=SPEC": what the capture shim records.
 * Parsed by the shim and, to refuse a bad spec before running anything, by
 * `warpscope capture` (tools/capture.c). docs/capture.md. */
#ifndef WS_CAPTURE_SHIM_SPEC_H
#define WS_CAPTURE_SHIM_SPEC_H
#include <stddef.h>
#include <stdint.h>

typedef enum shim_frames_kind {
    SHIM_FRAMES_RANGE = 0,   /* frames first..last (N is N-N)                 */
    SHIM_FRAMES_ALL,         /* device open to device close                    */
    SHIM_FRAMES_KEY,         /* the frame after SIGUSR1                        */
    SHIM_FRAMES_LAUNCHES     /* launches first..last (ordinals from 0)         */
} shim_frames_kind;

typedef struct shim_spec {
    char out[4096];
    char status[4096];           /* status=FILE: why a capture was abandoned */
    shim_frames_kind kind;
    uint64_t first, last;
} shim_spec;

/* "3", "10-12", "all", "key", "launches=2-5" (or "launches=4"). */
int shim_spec_parse_frames(const char *text, shim_spec *s, char *err, size_t errlen);
/* The whole variable; frames defaults to 0, out is required, status=FILE
 * (optional) is where the shim appends the reason when it abandons a
 * capture (`warpscope capture` reads it). 0 on success. */
int shim_spec_parse(const char *text, shim_spec *s, char *err, size_t errlen);
#endif
