/* The capture shim (libwarpscope_capture.so): an LD_PRELOAD library that
 * defines every public function of warpscope.h and graphics.h, forwards
 * each to the real runtime, keeps a state model of the first device the
 * program opens, and records chosen frames into a capture file
 * (docs/capture.md; payloads in capture/capture_calls.h).
 *
 * Why process-wide state: an interposer sits between an unmodified program
 * and the runtime; the program gives it no handle to hang state on, so the
 * resolved functions and the state model live in one struct (shim_g), and
 * its mutex serialises every call that touches it (API calls may come from
 * several threads). Nothing else in the shim is mutable, except the
 * per-thread depth counter that tells the program's calls from the
 * runtime's calls to its own exported functions. */
#ifndef WS_CAPTURE_SHIM_H
#define WS_CAPTURE_SHIM_H
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include "capture/capture_calls.h"
#include "capture/shim/shim_spec.h"
#include "warpscope/graphics.h"
#include "warpscope/warpscope.h"

/* Every function the shim defines (X-macro): resolved once with
 * dlsym(RTLD_NEXT). */
#define SHIM_FUNCS(X)                                                                                             \
    X(ws_version) X(ws_status_name) X(ws_config_default) X(ws_config_parse) X(ws_config_validate)                \
    X(ws_device_open) X(ws_device_close) X(ws_last_error) X(ws_last_error_copy) X(ws_device_config)              \
    X(ws_set_printf_handler)                                                                                    \
    X(ws_malloc) X(ws_malloc_at) X(ws_free) X(ws_memcpy_htod) X(ws_memcpy_dtoh) X(ws_memcpy_dtod) X(ws_memset)    \
    X(ws_mem_info) X(ws_module_load_file) X(ws_module_load_data) X(ws_module_load_data_at) X(ws_module_unload)   \
    X(ws_module_base) X(ws_kernel_get) X(ws_kernel_name) X(ws_kernel_param) X(ws_kernel_param_count)             \
    X(ws_kernel_param_type) X(ws_launch) X(ws_synchronize) X(ws_fence) X(ws_fence_wait) X(ws_last_launch_stats)  \
    X(ws_last_launch_counters) X(ws_warp_state_label) X(ws_unit_label)                                          \
    X(ws_gfx_target_create) X(ws_gfx_target_destroy) X(ws_gfx_target_size) X(ws_gfx_target_read)               \
    X(ws_gfx_target_read_depth) X(ws_gfx_target_write) X(ws_gfx_target_write_depth) X(ws_gfx_texture_create)     \
    X(ws_gfx_texture_destroy) X(ws_gfx_texture_upload) X(ws_gfx_texture_read) X(ws_gfx_texture_levels)          \
    X(ws_gfx_texture_generate_mips) X(ws_gfx_pipeline_create) X(ws_gfx_pipeline_destroy) X(ws_gfx_set_target)    \
    X(ws_gfx_set_pipeline) X(ws_gfx_set_vertex_buffer) X(ws_gfx_set_index_buffer) X(ws_gfx_set_uniforms)         \
    X(ws_gfx_set_texture) X(ws_gfx_set_viewport) X(ws_gfx_set_scissor) X(ws_gfx_begin_frame) X(ws_gfx_clear)     \
    X(ws_gfx_draw) X(ws_gfx_draw_indexed) X(ws_gfx_present) X(ws_gfx_last_draw_stats) X(ws_gfx_write_png)

enum {
#define SHIM_ENUM(n) SHIM_FN_##n,
    SHIM_FUNCS(SHIM_ENUM)
#undef SHIM_ENUM
    SHIM_NFUNCS
};

/* The next definition of a function (the runtime's). */
#define REAL(n) ((__typeof__(&n))shim_real(SHIM_FN_##n, #n))
void *shim_real(int index, const char *name);

/* ---- the state model ---- */
typedef struct shim_module {
    ws_module *h;
    uint32_t id;
    char *name;
    uint8_t *image;     /* the bytes the program gave (or the file's) */
    size_t size;
    ws_addr base;
} shim_module;
typedef struct shim_kernel { ws_kernel *h; uint32_t id, module; char *name; } shim_kernel;
typedef struct shim_texture { ws_gfx_texture *h; uint32_t id, w, hgt, levels; } shim_texture;
typedef struct shim_target { ws_gfx_target *h; uint32_t id, w, hgt, depth; } shim_target;
typedef struct shim_pipeline { ws_gfx_pipeline *h; uint32_t id; wscap_pipeline p; } shim_pipeline;
typedef struct shim_alloc { ws_addr addr; uint64_t size; } shim_alloc;

#define SHIM_VEC(T) struct { T *v; size_t n, cap; }

typedef enum { CAP_WAITING, CAP_ACTIVE, CAP_DONE } shim_cap_state;

typedef struct shim_global {
    pthread_mutex_t lock;
    pthread_once_t once;
    void *fn[SHIM_NFUNCS];
    shim_spec spec;          /* WARPSCOPE_CAPTURE */
    int enabled;             /* a valid spec was given */
    ws_device *dev;          /* the captured device (the first opened), NULL before/after */
    int dev_seen;            /* a device was captured once: later ones are only forwarded */
    ws_config cfg;
    uint32_t next_id;
    SHIM_VEC(shim_module) modules;
    SHIM_VEC(shim_kernel) kernels;
    SHIM_VEC(shim_texture) textures;
    SHIM_VEC(shim_target) targets;
    SHIM_VEC(shim_pipeline) pipelines;
    SHIM_VEC(shim_alloc) allocs;     /* ascending address */
    wscap_gfx_state gfx;
    int model_broken;        /* host memory ran out: the model cannot be trusted */
    /* frames */
    int gfx_mode;            /* ws_gfx_begin_frame was called */
    int in_frame;
    uint64_t frame, gfx_frames, sync_frames, launches;
    uint32_t reason;
    /* capture */
    shim_cap_state cap;
    int speculative;         /* capturing a sync frame that a begin_frame may still disown */
    ws_capture_writer *w;
    char werr[512];
    uint64_t calls;          /* API_CALL sections written */
    uint64_t frames_done;
    wscap_buf held;          /* once a frame has ended: the sections since the
                                last frame end (type u32, id u64, blob each),
                                written when the next one ends, so a frame the
                                program's exit cuts off can be dropped whole */
    volatile sig_atomic_t key_pending;
    ws_status close_status;  /* a failure the shim's wait at device close took
                                from the program's ws_device_close */
} shim_global;

extern shim_global shim_g;

/* One intercepted call: shim_enter .. shim_leave bracket the forward. */
typedef struct shim_call {
    int outer;               /* the program's own call (not the runtime's) */
    int rec;                 /* outer and on the captured device: lock held */
    uint32_t call;           /* wscap_call, or 0 for calls that are not recorded */
    wscap_buf buf;           /* payload when a capture is active */
    int has_payload;
    const char *name;        /* for calls without a wscap_call (0): its name */
} shim_call;

void shim_init(void);
void shim_enter(shim_call *c, const ws_device *dev, uint32_t call);
/* The same for calls that name a module instead of a device. */
void shim_enter_module(shim_call *c, const ws_module *mod, uint32_t call);
/* The payload buffer (call number already in it) when the call goes into
 * the capture, else NULL. */
wscap_buf *shim_payload(shim_call *c);
ws_status shim_leave(shim_call *c, ws_status st);
/* Does a call with status st count as issued (recorded, updates state)?
 * Synchronisations count when the work they waited for failed. */
int shim_counts(const shim_call *c, ws_status st);

/* state model (shim_state.c) */
uint32_t shim_new_id(void);
void shim_alloc_add(ws_addr addr, uint64_t size);
void shim_alloc_remove(ws_addr addr);
shim_module *shim_module_find(const ws_module *h);
shim_kernel *shim_kernel_find(const ws_kernel *h);
shim_texture *shim_texture_find(const ws_gfx_texture *h);
shim_target *shim_target_find(const ws_gfx_target *h);
shim_pipeline *shim_pipeline_find(const ws_gfx_pipeline *h);
uint32_t shim_kernel_id(const ws_kernel *h);
uint32_t shim_texture_id(const ws_gfx_texture *h);
uint32_t shim_target_id(const ws_gfx_target *h);
uint32_t shim_pipeline_id(const ws_gfx_pipeline *h);
shim_module *shim_module_add(ws_module *h, const char *name, const void *image, size_t size);
void shim_module_remove(const ws_module *h);
shim_kernel *shim_kernel_add(ws_kernel *h, uint32_t module, const char *name);
shim_texture *shim_texture_add(ws_gfx_texture *h);
void shim_texture_remove(const ws_gfx_texture *h);
shim_target *shim_target_add(ws_gfx_target *h, uint32_t w, uint32_t hgt, uint32_t depth);
void shim_target_remove(const ws_gfx_target *h);
shim_pipeline *shim_pipeline_add(ws_gfx_pipeline *h, const ws_gfx_pipeline_desc *d);
void shim_pipeline_remove(const ws_gfx_pipeline *h);
void shim_model_reset(void);

/* capture (shim_capture.c) */
void shim_device_opened(ws_device *dev);
void shim_device_closing(void);
void shim_abandon(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void shim_frame_pre(uint32_t call);
void shim_frame_post(uint32_t call);
void shim_write_call(wscap_buf *b);
/* The frame's work failed (shim_failure(st)) and `name` reported it: a
 * WSCAP_FAILURE section for call `id` (own: that call itself; else just
 * before it), with the device's report. */
void shim_write_failure(int own, uint64_t id, ws_status st, const char *name);
/* The same with the report given (NULL: the device's last error). */
void shim_write_failure_report(int own, uint64_t id, ws_status st, const char *name, const char *report);
/* The statuses that mean the frame's own work failed (as the replayer's
 * ws_replay_frame_failure). */
int shim_failure(ws_status st);

#endif
