/* The replayer's insides, shared by its files:
 *   replay_open.c      reading the capture into tables, opening the device
 *   replay_tables.c    errors, objects by id, live allocations, scratch
 *   replay_restore.c   putting the initial state back
 *   replay_exec.c      issuing recorded calls, the results digest
 *   replay_describe.c  call texts (--list) and the context at a call */
#ifndef WS_CAPTURE_REPLAY_INT_H
#define WS_CAPTURE_REPLAY_INT_H
#include "capture/capture_calls.h"
#include "capture/capture_file.h"
#include "capture/replayer.h"

typedef enum rp_kind { RP_NONE = 0, RP_MODULE, RP_KERNEL, RP_TEXTURE, RP_TARGET, RP_PIPELINE } rp_kind;

/* One object of the capture, by its capture id. `h` is the replay's live
 * handle (NULL while the object does not exist); `initial` says whether it
 * existed at the frame start, and the fields after it say what it was. */
typedef struct rp_obj {
    rp_kind kind;
    void *h;
    int initial;
    char name[256];               /* module: the load name; kernel: its name */
    uint32_t module;              /* kernel: its module's id                 */
    uint32_t base;                /* module: device address                  */
    const uint8_t *image;         /* module: ELF bytes (in the capture)      */
    uint64_t image_size;
    uint32_t w, h_px, levels;     /* texture / target size                   */
    int has_depth;                /* target                                  */
    const uint8_t *level[16];     /* texture: texels per level               */
    uint64_t level_size[16];
    const uint8_t *rgba, *depth;  /* target: initial images                  */
    wscap_pipeline pipe;          /* pipeline                                */
    uint64_t at;                  /* body offset of the section that defines
                                     it (initial state or creating call)   */
} rp_obj;

/* A data allocation: those live at the frame start keep their contents. */
typedef struct rp_alloc {
    uint32_t addr;
    uint64_t size;
    const uint8_t *bytes;         /* initial contents (NULL: not initial)    */
    uint64_t at;                  /* initial: body offset of its section     */
} rp_alloc;

typedef struct rp_call {
    uint32_t call;                /* wscap_call                              */
    const uint8_t *args;          /* fields after the call number            */
    uint64_t nargs;
    uint32_t draw, launch;        /* ordinals in the frame                   */
    uint64_t at;                  /* body offset of its section: errors name
                                     where in the capture the call is      */
} rp_call;

/* A WSCAP_FAILURE section: what the program met (capture_calls.h). */
typedef ws_replay_recorded_failure rp_failrec;

struct ws_replay {
    char name[256];
    char err[1024];           /* name + ": " + a message of up to 700 */
    ws_capture_reader *rd;
    ws_config cfg;
    ws_device *dev;
    uint64_t first_launch_id;     /* with same_launch_ids: what each replay
                                     numbers its first launch (0: not set)  */
    int same_launch_ids;
    rp_obj **obj;                 /* indexed by capture id; ids the capture
                                     does not define point at `none`: ids
                                     count every object the program ever
                                     made, so a slot costs a pointer, not an
                                     object (a frame of a long run names ids
                                     near the limit with a few objects)     */
    uint32_t nobj;
    rp_obj none;                  /* all zero: kind RP_NONE, never written  */
    rp_alloc *init;               /* allocations at the frame start, by address */
    size_t ninit;
    rp_alloc *live;               /* the replay's live allocations, by address */
    size_t nlive, livecap;
    wscap_gfx_state gfx;          /* the context at the frame start          */
    uint64_t gfx_at;              /* body offset of its section              */
    int uses_gfx;
    rp_call *calls;
    uint64_t ncalls;
    uint64_t digest;              /* the original's, from the last FRAME_END  */
    int have_digest;
    ws_replay_frame *frames;      /* every FRAME_END: where and its digest     */
    size_t nframes;
    rp_failrec *fails;            /* the recorded failures, in file order    */
    size_t nfails;
    /* the run under way: the next recorded failure, the failures met, and
     * whether one was met early (by ws_replay_wait) and not yet matched to
     * the call that reported it in the original */
    size_t next_fail;
    ws_replay_failure *met;
    size_t nmet, metcap;
    int early;
    uint64_t cur;                 /* the call last issued (UINT64_MAX: none)  */
    uint8_t *scratch;             /* read-back buffer for DTOH / present     */
    size_t scratch_size;
};

/* Set r->err ("NAME: ...") and return st. */
ws_status rp_fail(ws_replay *r, ws_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The body offset of the field a payload cursor failed to read: the
 * payload starts `payload_at` bytes into the body. */
static inline uint64_t rp_field_at(uint64_t payload_at, const wscap_cur *c)
{
    return payload_at + c->bad_at;
}
/* The body offset of a call's arguments (after its header and number). */
static inline uint64_t rp_args_at(const rp_call *rc)
{
    return rc->at + WSCAP_SECTION_HEADER + 4;
}
/* The object with capture id `id` of `kind`, or NULL (with r->err set)
 * when there is none: `what` names the use in the message. */
rp_obj *rp_object(ws_replay *r, uint32_t id, rp_kind kind, const char *what);
/* Live-allocation bookkeeping. */
int rp_live_add(ws_replay *r, uint32_t addr, uint64_t size);
void rp_live_remove(ws_replay *r, uint32_t addr);
/* A scratch buffer of at least n bytes, or NULL. */
uint8_t *rp_scratch(ws_replay *r, size_t n);
/* Create object o in the replay device from its initial description. */
ws_status rp_create(ws_replay *r, uint32_t id);
/* Destroy object o's live handle: the runtime's status (its message in
 * ws_last_error; r->err is not set). */
ws_status rp_destroy(ws_replay *r, uint32_t id);
/* Apply a recorded call's effect on a context model (for state_text). */
void rp_track_gfx(const rp_call *c, wscap_gfx_state *s);

#endif
