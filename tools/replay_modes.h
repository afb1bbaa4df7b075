/* What `warpscope replay` was asked to do (tools/replay.c parses it), and
 * the modes that hand the replay to another part: the frame debugger,
 * pixel history and the HTML report (tools/replay_modes.c). */
#ifndef WS_TOOLS_REPLAY_MODES_H
#define WS_TOOLS_REPLAY_MODES_H
#include <stdint.h>
#include <stdio.h>
#include "capture/replayer.h"

typedef struct replay_request {
    const char *path;        /* the capture file                              */
    uint64_t passes;         /* --loop N (1 by default)                       */
    int restore;             /* 0 with --no-restore                           */
    int list;                /* --list                                        */
    int dump;                /* --dump-after given                            */
    uint64_t dump_after;
    const char *out;         /* --out DIR                                     */
    const char *config;      /* --config                                      */
    const char *debug;       /* --debug[=SPEC]: "" for the defaults           */
    const char *pixel;       /* --pixel X,Y                                   */
    uint32_t target;         /* --target ID: the pixel's render target (0:
                                the one the last clear or draw writes)       */
    const char *element;     /* --element ADDR[:SIZE]                         */
    const char *html;        /* --html DIR                                    */
    const char *mesh;        /* --mesh CALL[:ROWS]                            */
    const char *json;        /* --json FILE: the --pixel or --element history
                                as JSON ("-": on standard output, instead of
                                the text)                                    */
} replay_request;

/* A writer of something about the replay (a history, the call list) to a
 * stream, text or JSON. */
typedef ws_status (*replay_writer)(ws_replay *, const void *, FILE *, char *, size_t);
/* Write JSON with `json` into q->json (a file, or "-": standard output). */
ws_status replay_json_out(const replay_request *q, ws_replay *r, const void *what, replay_writer json, char *err,
                          size_t errlen);

/* Run the --debug, --pixel, --element, --mesh or --html mode; returns the
 * exit status. */
int replay_modes_run(ws_replay *r, const replay_request *q);

#endif
