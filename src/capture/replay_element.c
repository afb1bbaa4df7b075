/* Buffer-element history (replay_pixel.h): the frame run once, the
 * element's bytes read back after every call and compared with what they
 * were. A call that changed them is listed with both values; a call that
 * wrote the same bytes is not seen. Reading back after every call
 * synchronises the device each time, which changes no result. */
#include "capture/replay_pixel.h"
#include "capture/replay_tool.h"
#include <inttypes.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

ws_status ws_replay_parse_element(const char *text, ws_addr *addr, uint32_t *size, char *err, size_t errlen)
{
    unsigned long long a = 0, s = 4;
    int has_size = 0;
    const int bad = rt_parse_pair(text, &a, &s, &has_size);
    if (bad == 1 || a > UINT32_MAX)
        return rt_fail(err, errlen, WS_ERR_INVALID_ARG, "--element: expected ADDR[:SIZE] (a device address such as "
                    "0x10000040, size in bytes), got \"%s\"", text ? text : "");
    if (!has_size) s = 4;
    if (bad == 2 || s == 0 || s > WS_ELEMENT_MAX_SIZE)
        return rt_fail(err, errlen, WS_ERR_INVALID_ARG, "--element: the size must be 1..%u bytes, got \"%s\"",
                    WS_ELEMENT_MAX_SIZE, text);
    if (a + s > (unsigned long long)UINT32_MAX + 1)
        return rt_fail(err, errlen, WS_ERR_INVALID_ARG, "--element: %s runs past the end of the address space", text);
    *addr = (ws_addr)a;
    *size = (uint32_t)s;
    return WS_OK;
}

void ws_element_history_free(ws_element_history *h)
{
    if (!h) return;
    for (size_t i = 0; i < h->n; i++) {
        free(h->ch[i].before);
        free(h->ch[i].after);
        free(h->ch[i].held_before);
        free(h->ch[i].held_after);
    }
    free(h->ch);
    free(h->initial);
    free(h->held_initial);
    memset(h, 0, sizeof *h);
}

typedef struct el_run {
    ws_element_history *h;
    ws_device *dev;
    uint8_t *cur, *next;          /* size bytes each                        */
    uint8_t *cur_held, *next_held; /* per byte: an allocation holds it      */
    size_t cap;
    ws_status st;
    char *err;
    size_t errlen;
} el_run;

/* Read the element now into buf, held[i] = 1 for each byte an allocation
 * holds (the others read as 0): an element may run past the end of an
 * allocation, and the bytes inside it must still be watched. Returns 1
 * when some allocation holds a byte, 0 when none does, -1 when the work
 * before failed other than as the frame's own failure (*failed: the
 * frame's work failed; the element is read as that work left it). */
static int read_element(ws_replay *r, ws_device *dev, ws_addr addr, uint32_t size, uint8_t *buf, uint8_t *held,
                        int *failed)
{
    ws_status st = ws_replay_wait(r);
    *failed = st != WS_OK && ws_replay_frame_failure(st);
    if (st != WS_OK && !*failed) return -1;
    if (ws_memcpy_dtoh(dev, buf, addr, size) == WS_OK) {
        memset(held, 1, size);
        return 1;
    }
    int any = 0;
    for (uint32_t i = 0; i < size; i++) { /* partly held: byte by byte */
        held[i] = ws_memcpy_dtoh(dev, buf + i, addr + i, 1) == WS_OK;
        if (!held[i]) buf[i] = 0;
        any |= held[i];
    }
    return any;
}

/* A copy of n bytes, or NULL when out of host memory. */
static uint8_t *dup_bytes(const uint8_t *b, size_t n)
{
    uint8_t *c = malloc(n);
    if (c) memcpy(c, b, n);
    return c;
}

static int after_call(void *user, ws_replay *r, uint64_t index)
{
    el_run *p = user;
    ws_element_history *h = p->h;
    int failed;
    int now = read_element(r, p->dev, h->addr, h->size, p->next, p->next_held, &failed);
    if (failed) { /* the frame ends here, after this call's changes */
        struct ws_replay_call_info ci;
        const char *name = ws_replay_describe_call(r, index, &ci) == WS_OK ? ci.name : "?";
        snprintf(h->failure, sizeof h->failure, "call %" PRIu64 " %s: %s", index, name, ws_last_error(p->dev));
    }
    if (now < 0) {
        p->st = rt_fail(p->err, p->errlen, WS_ERR_INTERNAL, "element history: call %" PRIu64 ": %s", index,
                     ws_last_error(p->dev));
        return 1;
    }
    if (!memcmp(p->cur_held, p->next_held, h->size) && !memcmp(p->cur, p->next, h->size)) return failed;
    if (h->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 16;
        ws_element_change *ch = realloc(h->ch, cap * sizeof *ch);
        if (!ch) goto oom;
        h->ch = ch;
        p->cap = cap;
    }
    ws_element_change *c = &h->ch[h->n];
    *c = (ws_element_change){ .call = index };
    c->before = dup_bytes(p->cur, h->size);
    c->after = dup_bytes(p->next, h->size);
    c->held_before = dup_bytes(p->cur_held, h->size);
    c->held_after = dup_bytes(p->next_held, h->size);
    if (!c->before || !c->after || !c->held_before || !c->held_after) {
        free(c->before); free(c->after); free(c->held_before); free(c->held_after);
        goto oom;
    }
    h->n++;
    uint8_t *t = p->cur;
    p->cur = p->next;
    p->next = t;
    t = p->cur_held;
    p->cur_held = p->next_held;
    p->next_held = t;
    return failed;
oom:
    p->st = rt_fail(p->err, p->errlen, WS_ERR_OUT_OF_MEMORY, "element history: out of host memory");
    return 1;
}

/* The history's type (the first call's), the other types later calls read
 * the element as, and each change in the type its own call reads it as:
 * a buffer written as one type and read as another is shown each way. */
static void type_history(const ws_replay *r, ws_element_history *h)
{
    ws_element_type types[WS_ELEMENT_MAX_TYPES];
    size_t n = ws_replay_element_types(r, h->addr, types, WS_ELEMENT_MAX_TYPES);
    if (n) h->type = types[0];
    h->nalso = n ? n - 1 : 0;
    for (size_t i = 0; i < h->nalso; i++) h->also[i] = types[i + 1];
    for (size_t i = 0; i < h->n; i++) {
        ws_element_change *c = &h->ch[i];
        ws_replay_element_type_at(r, h->addr, c->call, &c->type);
        if (c->type.scalar == WS_ELEMENT_UNTYPED) c->type = h->type;
    }
}

ws_status ws_replay_element_collect(ws_replay *r, ws_addr addr, uint32_t size, ws_element_history *out, char *err,
                                    size_t errlen)
{
    if (!r || !out) return rt_fail(err, errlen, WS_ERR_INVALID_ARG, "element history: no replay or no output");
    memset(out, 0, sizeof *out);
    if (size == 0 || size > WS_ELEMENT_MAX_SIZE || (uint64_t)addr + size > (uint64_t)UINT32_MAX + 1)
        return rt_fail(err, errlen, WS_ERR_INVALID_ARG, "element history: size %u at 0x%08x (1..%u bytes inside the "
                    "address space)", size, addr, WS_ELEMENT_MAX_SIZE);
    out->addr = addr;
    out->size = size;
    ws_device *dev = ws_replay_device(r);
    el_run p = { .h = out, .dev = dev, .st = WS_OK, .err = err, .errlen = errlen };
    p.cur = calloc(1, size);
    p.next = calloc(1, size);
    p.cur_held = calloc(1, size);
    p.next_held = calloc(1, size);
    out->initial = calloc(1, size);
    out->held_initial = calloc(1, size);
    ws_status st = WS_OK;
    if (!p.cur || !p.next || !p.cur_held || !p.next_held || !out->initial || !out->held_initial) {
        st = rt_fail(err, errlen, WS_ERR_OUT_OF_MEMORY, "element history: out of host memory");
    } else if (ws_replay_restore(r) != WS_OK) {
        st = rt_fail(err, errlen, WS_ERR_INTERNAL, "element history: %s", ws_replay_error(r));
    } else {
        int failed;
        read_element(r, dev, addr, size, p.cur, p.cur_held, &failed);
        memcpy(out->initial, p.cur, size);
        memcpy(out->held_initial, p.cur_held, size);
        st = ws_replay_run(r, 0, UINT64_MAX, after_call, &p);
        /* work that failed where no call waited for it: seen at the frame's end */
        if (st != WS_OK && ws_replay_frame_failure(st) && !out->failure[0])
            snprintf(out->failure, sizeof out->failure, "%s", ws_replay_error(r));
        if (out->failure[0] && p.st == WS_OK) st = WS_OK;
        ws_replay_passed_collect(r, out->passed, sizeof out->passed, &out->order);
        type_history(r, out);
        if (p.st != WS_OK) st = p.st;
        else if (st != WS_OK) st = rt_fail(err, errlen, rt_replay_failed(st), "element history: %s", ws_replay_error(r));
    }
    free(p.cur);
    free(p.next);
    free(p.cur_held);
    free(p.next_held);
    if (st != WS_OK) ws_element_history_free(out);
    return st;
}

int ws_element_readable(const uint8_t *held, uint32_t size)
{
    for (uint32_t i = 0; held && i < size; i++)
        if (held[i]) return 1;
    return 0;
}

/* One scalar of type t at b, as a number (json: a float that is not
 * finite as null, which JSON has no number for). */
void ws_element_print_scalar(FILE *f, const ws_element_type *t, const uint8_t *b, int json)
{
    uint64_t u = 0;
    for (uint32_t i = t->scalar_size; i-- > 0;) u = u << 8 | b[i];
    if (t->scalar == WS_ELEMENT_UNORM) {
        fprintf(f, "%.9g", b[0] / 255.0);
    } else if (t->scalar == WS_ELEMENT_FLOAT && t->scalar_size == 4) {
        float v;
        memcpy(&v, b, 4);
        if (json && !isfinite(v)) fputs("null", f);
        else fprintf(f, "%.9g", (double)v);
    } else if (t->scalar == WS_ELEMENT_FLOAT) {
        double v;
        memcpy(&v, b, 8);
        if (json && !isfinite(v)) fputs("null", f);
        else fprintf(f, "%.17g", v);
    } else if (t->scalar == WS_ELEMENT_UINT) {
        fprintf(f, "%" PRIu64, u);
    } else { /* sign-extend from the scalar's width */
        unsigned shift = 64 - 8 * t->scalar_size;
        fprintf(f, "%" PRId64, (int64_t)(u << shift) >> shift);
    }
}

/* The whole scalars of the element as type t: "float4 (0.5, 1, 0, 1)";
 * an element that starts inside a vector names its first component. */
static void print_typed(FILE *f, const ws_element_type *t, const uint8_t *b, uint32_t size)
{
    static const char comp[] = "xyzw";
    uint32_t n = size / t->scalar_size;
    fprintf(f, "  = %s ", t->name);
    if (t->first && t->first < 4) fprintf(f, "from .%c ", comp[t->first]);
    fputc('(', f);
    for (uint32_t i = 0; i < n; i++) {
        if (i) fputs(", ", f);
        ws_element_print_scalar(f, t, b + i * t->scalar_size, 0);
    }
    fputc(')', f);
}

/* The bytes in hex ("--" for a byte no allocation holds); when every byte
 * is held, as numbers: typed when the frame says what it reads them as,
 * else 1, 2, 4 and 8 bytes as the integers and floats they could be
 * (little endian). */
static void print_value(FILE *f, const ws_element_type *t, const uint8_t *b, const uint8_t *held, uint32_t size)
{
    if (!ws_element_readable(held, size)) { fprintf(f, "(no allocation)"); return; }
    int all = 1;
    for (uint32_t i = 0; i < size; i++) {
        fputs(i && i % 16 == 0 ? "\n        " : i ? " " : "", f);
        if (held[i]) fprintf(f, "%02x", b[i]);
        else { fputs("--", f); all = 0; }
    }
    if (!all) return;
    if (t->scalar != WS_ELEMENT_UNTYPED && size >= t->scalar_size) {
        print_typed(f, t, b, size);
    } else if (size == 4) {
        uint32_t u;
        float fl;
        memcpy(&u, b, 4);
        memcpy(&fl, b, 4);
        fprintf(f, "  = %" PRIu32 " = %" PRId32 " = %.9g", u, (int32_t)u, fl);
    } else if (size == 8) {
        uint64_t u;
        double d;
        memcpy(&u, b, 8);
        memcpy(&d, b, 8);
        fprintf(f, "  = %" PRIu64 " = %.17g", u, d);
    } else if (size <= 2) {
        uint32_t u = size == 1 ? b[0] : (uint32_t)b[0] | (uint32_t)b[1] << 8;
        fprintf(f, "  = %" PRIu32, u);
    }
}

ws_status ws_replay_element_print(ws_replay *r, const ws_element_history *h, FILE *out, char *err, size_t errlen)
{
    if (!r || !h || !out) return rt_fail(err, errlen, WS_ERR_INVALID_ARG, "element history: nothing to print");
    fprintf(out, "element 0x%08x, %u byte%s: changed by %zu call%s\n", h->addr, h->size, h->size == 1 ? "" : "s", h->n,
            h->n == 1 ? "" : "s");
    if (h->type.scalar != WS_ELEMENT_UNTYPED)
        fprintf(out, "read as %s by %s\n", h->type.name, h->type.source);
    for (size_t i = 0; i < h->nalso; i++)
        fprintf(out, "also read as %s by %s\n", h->also[i].name, h->also[i].source);
    if (h->type.scalar == WS_ELEMENT_UNTYPED)
        fprintf(out, "read as: no launch argument or vertex attribute of the frame says (numbers below: what the bytes could be)\n");
    fprintf(out, "frame start: ");
    print_value(out, &h->type, h->initial, h->held_initial, h->size);
    fprintf(out, "\n");
    size_t passed_line = 0;
    for (size_t i = 0; i < h->n; i++) {
        const ws_element_change *c = &h->ch[i];
        struct ws_replay_call_info ci;
        ws_replay_print_passed(out, h->passed, &h->order, &passed_line, c->call);
        if (ws_replay_describe_call(r, c->call, &ci) != WS_OK)
            return rt_fail(err, errlen, WS_ERR_INTERNAL, "element history: %s", ws_replay_error(r));
        /* a change without a type of its own (a history made by hand) is
         * shown in the history's */
        const ws_element_type *t = c->type.scalar != WS_ELEMENT_UNTYPED ? &c->type : &h->type;
        fprintf(out, "call %" PRIu64 " %s\n", c->call, ci.text);
        if (strcmp(t->name, h->type.name) || t->first != h->type.first)
            fprintf(out, "    (as this call reads it: %s)\n", t->name);
        fprintf(out, "    old ");
        print_value(out, t, c->before, c->held_before, h->size);
        fprintf(out, "\n    new ");
        print_value(out, t, c->after, c->held_after, h->size);
        fprintf(out, "\n");
    }
    ws_replay_print_passed(out, h->passed, &h->order, &passed_line, UINT64_MAX);
    if (h->failure[0])
        fprintf(out, "the frame's work failed, as when it was captured; the frame ends there: %s\n", h->failure);
    if (ferror(out)) return rt_fail(err, errlen, WS_ERR_IO, "element history: writing the output failed");
    return WS_OK;
}

ws_status ws_replay_element_history(ws_replay *r, ws_addr addr, uint32_t size, FILE *out, char *err, size_t errlen)
{
    ws_element_history h;
    ws_status st = ws_replay_element_collect(r, addr, size, &h, err, errlen);
    if (st != WS_OK) return st;
    st = ws_replay_element_print(r, &h, out, err, errlen);
    ws_element_history_free(&h);
    return st;
}
