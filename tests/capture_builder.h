/* Writing a capture call by call in a test: a writer, the next call's
 * index, and sections added through the shim's own encoders
 * (capture/capture_calls.h). Shared by tests/capture and tests/replay. */
#ifndef WS_TESTS_CAPTURE_BUILDER_H
#define WS_TESTS_CAPTURE_BUILDER_H
#include "test.h"
#include "capture/capture_calls.h"

typedef struct builder { ws_capture_writer *w; char err[512]; uint64_t calls; } builder;

/* Add section p (freed) as type/id. */
static inline void add(builder *b, uint32_t type, uint64_t id, wscap_buf *p)
{
    CHECK(!p->failed);
    CHECK(ws_capture_writer_add(b->w, type, id, p->data, p->len) == WS_OK);
    wscap_buf_free(p);
}

/* An API call's payload, started with its call number. */
static inline wscap_buf call(uint32_t which)
{
    wscap_buf p = { 0 };
    wscap_put_u32(&p, which);
    return p;
}

static inline void add_call(builder *b, wscap_buf *p) { add(b, WS_CAPTURE_API_CALL, b->calls++, p); }
#endif
