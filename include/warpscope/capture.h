/* Warpscope capture files: the container that frame capture and replay
 * (issue 12) store a captured frame in. A capture file is a header and a
 * sequence of typed sections {type, flags, id, payload}; the container
 * treats payloads as opaque bytes (what each type holds is the capture
 * shim's business). docs/capture-format.md gives the format byte by byte.
 *
 * There may be no device when a capture is read or written, so errors go
 * to a caller-provided buffer (err, errlen) and name the file and the
 * offset or section. Nothing here keeps global state. */
#ifndef WARPSCOPE_CAPTURE_H
#define WARPSCOPE_CAPTURE_H
#include "warpscope.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The version this library writes; it reads it and version 1 (2026-11-28:
 * version 2 adds a CRC per 128 KiB of body, docs/capture-format.md). */
#define WS_CAPTURE_FORMAT_VERSION 2

/* Limits both sides enforce, so a crafted header cannot make a reader
 * allocate more than the file really holds. */
#define WS_CAPTURE_MAX_BODY ((uint64_t)1 << 30)     /* uncompressed bytes of all sections */
#define WS_CAPTURE_MAX_SECTIONS ((uint64_t)1 << 24)

/* Section types. The numbers are part of the format: never renumber, only
 * append. Readers keep sections of types they do not know (opaque). */
typedef enum ws_capture_section_type {
    WS_CAPTURE_DEVICE_CONFIG = 1,  /* the ws_config the capture ran with       */
    WS_CAPTURE_MODULE_IMAGE = 2,   /* a loaded module's ELF image              */
    WS_CAPTURE_ALLOCATION = 3,     /* a device allocation's address, size, bytes */
    WS_CAPTURE_TEXTURE = 4,        /* a texture's shape and texels             */
    WS_CAPTURE_PIPELINE = 5,       /* a pipeline description                   */
    WS_CAPTURE_GFX_STATE = 6,      /* initial state of the graphics context    */
    WS_CAPTURE_API_CALL = 7,       /* one recorded API call                    */
    WS_CAPTURE_FRAME_BEGIN = 8,
    WS_CAPTURE_FRAME_END = 9
} ws_capture_section_type;

typedef struct ws_capture_section {
    uint32_t type;        /* ws_capture_section_type, or a newer one        */
    uint32_t flags;       /* the writer's per-section flags (opaque here)   */
    uint64_t id;          /* the writer's id (allocation, module, call ...) */
    const void *data;     /* payload, valid until ws_capture_reader_close   */
    uint64_t size;        /* payload bytes                                  */
    uint64_t index;       /* position in the file, from 0                   */
    uint64_t offset;      /* offset of the section in the uncompressed body */
} ws_capture_section;

typedef struct ws_capture_writer ws_capture_writer;
typedef struct ws_capture_reader ws_capture_reader;

/* ---- writing ----
 * The writer writes to a temporary file beside path and renames it over
 * path only in ws_capture_writer_close, after fsync: readers see the old
 * file or the whole new one, never a part. err/errlen receive every later
 * failure of this writer too, so they must stay valid until close/abort.
 * After a failed add the writer is spent: close reports the failure and
 * leaves path untouched. */
WS_API ws_status ws_capture_writer_open(const char *path, ws_capture_writer **out, char *err, size_t errlen);
/* Append a section (flags 0). type must be nonzero. */
WS_API ws_status ws_capture_writer_add(ws_capture_writer *w, uint32_t type, uint64_t id, const void *data, size_t len);
WS_API ws_status ws_capture_writer_add_flags(ws_capture_writer *w, uint32_t type, uint32_t flags, uint64_t id,
                                             const void *data, size_t len);
/* Finish, fsync and rename into place; frees w whatever happens. */
WS_API ws_status ws_capture_writer_close(ws_capture_writer *w);
/* Drop everything written; path is left as it was. Frees w. */
WS_API ws_status ws_capture_writer_abort(ws_capture_writer *w);

/* ---- reading ----
 * Open checks the whole file (header, checksums, every section's bounds)
 * before it succeeds, so iteration cannot fail on a bad file. */
WS_API ws_status ws_capture_reader_open(const char *path, ws_capture_reader **out, char *err, size_t errlen);
/* The same from bytes in memory; name stands for the file in messages. */
WS_API ws_status ws_capture_reader_open_memory(const void *data, size_t size, const char *name,
                                               ws_capture_reader **out, char *err, size_t errlen);
WS_API ws_status ws_capture_reader_count(const ws_capture_reader *r, uint64_t *count);
/* Section `index` (0 .. count-1); WS_ERR_NOT_FOUND past the end. */
WS_API ws_status ws_capture_reader_section(const ws_capture_reader *r, uint64_t index, ws_capture_section *out);
/* The next section in file order; WS_ERR_NOT_FOUND after the last. */
WS_API ws_status ws_capture_reader_next(ws_capture_reader *r, ws_capture_section *out);
WS_API ws_status ws_capture_reader_close(ws_capture_reader *r);

#ifdef __cplusplus
}
#endif
#endif
