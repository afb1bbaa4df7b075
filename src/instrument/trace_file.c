/* The trace file (docs/tracing.md, "File format"): a 32-byte header, then
 * one zstd frame holding the launches. Written to a temporary file and
 * renamed, so a reader never sees half a trace; read with every count
 * checked against the bytes that remain. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>
#include "instrument/trace_file.h"

static const char magic[8] = { 'W', 'S', 'T', 'R', 'A', 'C', 'E', 0 };
enum { HEADER = 32, STAGE = 1 << 20, ZSTD_LEVEL = 3 };

/* Where put_launch's bytes go. First only counted (the payload's size goes
 * in the header and in zstd's frame), then staged and compressed straight
 * into the file: the payload is never held whole in host memory, so a
 * trace of any size that the host could record can be written. */
typedef struct wout {
    uint64_t n;                  /* payload bytes so far                      */
    ZSTD_CCtx *cx;               /* NULL: count only                          */
    FILE *f;
    uint8_t *stage, *zbuf;
    size_t staged, zcap;
    uint64_t z;                  /* compressed bytes written                  */
    const char *failed;          /* zstd's reason, or "write" (errno)         */
} wout;

/* Compress d[0..n) into the file (end: and close the frame). */
static void feed(wout *o, const void *d, size_t n, ZSTD_EndDirective end)
{
    ZSTD_inBuffer in = { d, n, 0 };
    for (;;) {
        ZSTD_outBuffer out = { o->zbuf, o->zcap, 0 };
        size_t left = ZSTD_compressStream2(o->cx, &out, &in, end);
        if (ZSTD_isError(left)) { o->failed = ZSTD_getErrorName(left); return; }
        if (out.pos && fwrite(o->zbuf, 1, out.pos, o->f) != out.pos) { o->failed = "write"; return; }
        o->z += out.pos;
        if (end == ZSTD_e_end ? left == 0 : in.pos == in.size) return;
    }
}

static void flush_stage(wout *o)
{
    if (o->staged && !o->failed) feed(o, o->stage, o->staged, ZSTD_e_continue);
    o->staged = 0;
}

static void w(wout *o, const void *d, size_t n)
{
    o->n += n;
    if (!o->cx || o->failed || !n) return;
    /* (what is staged goes first, also before a large array fed directly) */
    if (o->staged + n > STAGE || n >= STAGE / 2) flush_stage(o);
    if (n >= STAGE / 2) feed(o, d, n, ZSTD_e_continue); /* record arrays: no copy */
    else {
        memcpy(o->stage + o->staged, d, n);
        o->staged += n;
    }
}

static void w32(wout *o, uint32_t v) { w(o, &v, 4); }
static void w64(wout *o, uint64_t v) { w(o, &v, 8); }
/* Strings (kernel and module names, notes) up to WST_STRING_MAX bytes;
 * longer ones are cut there, so the reader, which refuses more, reads
 * every file written (a module named by ws_module_load_data with 5000
 * characters made a file the reader refused: "not plausible"). */
static void wstr(wout *o, const char *s)
{
    const size_t len = s ? strlen(s) : 0;
    uint32_t n = len > WST_STRING_MAX ? WST_STRING_MAX : (uint32_t)len;
    w32(o, n);
    w(o, s, n);
}

static void put_launch(wout *b, const ws_trace_launch *L)
{
    wstr(b, L->kernel);
    wstr(b, L->module);
    wstr(b, L->note);
    w64(b, L->launch_id);
    w32(b, L->grid.x); w32(b, L->grid.y); w32(b, L->grid.z);
    w32(b, L->block.x); w32(b, L->block.y); w32(b, L->block.z);
    w32(b, L->flags);
    w32(b, L->lanes_per_warp);
    w32(b, L->device);
    w64(b, L->launch_number);
    w32(b, L->stage);
    w32(b, L->draw);
    w64(b, L->device_thread_instructions); w64(b, L->device_loads); w64(b, L->device_stores); w64(b, L->device_atomics);
    w64(b, L->results_checked);
    w32(b, L->nblocks);
    for (uint32_t i = 0; i < L->nblocks; i++) {
        const ws_trace_block *k = &L->blocks[i];
        w32(b, k->addr); w32(b, k->ninst); w32(b, k->nmem); w32(b, k->first_mem);
        w32(b, (uint32_t)k->taken); w32(b, (uint32_t)k->fall); w32(b, k->last);
    }
    w32(b, L->nmem_insts);
    for (uint32_t i = 0; i < L->nmem_insts; i++) {
        const ws_trace_mem_inst *m = &L->mem_insts[i];
        w32(b, m->addr); w32(b, m->block); w32(b, (uint32_t)m->kind | (uint32_t)m->size << 8);
    }
    for (uint32_t i = 0; i < L->nblocks; i++) w64(b, L->counts[i]);
    w32(b, L->nthreads);
    for (uint32_t i = 0; i < L->nthreads; i++) {
        w32(b, L->threads[i].gid); w32(b, L->threads[i].nblocks); w32(b, L->threads[i].nmem);
    }
    w64(b, L->nbb);
    w(b, L->bb, L->nbb * sizeof *L->bb);
    w64(b, L->nmem);
    w(b, L->mem, L->nmem * sizeof *L->mem);
    if (L->flags & WS_TRACE_VALUES) w(b, L->values, L->nmem * sizeof *L->values);
    if (L->flags & WS_TRACE_WARPS) {
        for (uint32_t i = 0; i < L->nblocks; i++) w64(b, L->warp_counts[i]);
        w64(b, L->nwarp);
        w(b, L->warps, L->nwarp * sizeof *L->warps);
    }
}

static void put_trace(wout *o, const ws_trace *t)
{
    w32(o, t->ndevices);
    w32(o, t->nlaunches);
    for (uint32_t i = 0; i < t->nlaunches; i++) put_launch(o, &t->launches[i]);
}

static int put_header(FILE *f, uint64_t raw, uint64_t zs)
{
    uint8_t h[HEADER];
    uint32_t version = WS_TRACE_FILE_VERSION, reserved = 0;
    memcpy(h, magic, 8);
    memcpy(h + 8, &version, 4);
    memcpy(h + 12, &reserved, 4);
    memcpy(h + 16, &raw, 8);
    memcpy(h + 24, &zs, 8);
    return fseek(f, 0, SEEK_SET) == 0 && fwrite(h, 1, HEADER, f) == HEADER ? 0 : -1;
}

/* Compress t into f after a header whose compressed size is filled in at
 * the end. Returns 0, or -1 with the reason in err. */
static int write_stream(FILE *f, const char *path, const ws_trace *t, char *err, size_t errlen)
{
    wout count = { 0 };
    put_trace(&count, t);
    wout o = { 0 };
    o.f = f;
    o.zcap = ZSTD_CStreamOutSize();
    o.cx = ZSTD_createCCtx();
    o.stage = malloc(STAGE);
    o.zbuf = malloc(o.zcap);
    int ok = o.cx && o.stage && o.zbuf;
    if (!ok) snprintf(err, errlen, "%s: out of host memory", path);
    if (ok && (ZSTD_isError(ZSTD_CCtx_setParameter(o.cx, ZSTD_c_compressionLevel, ZSTD_LEVEL)) ||
               ZSTD_isError(ZSTD_CCtx_setParameter(o.cx, ZSTD_c_checksumFlag, 1)) || /* the reader sees flipped bits */
               ZSTD_isError(ZSTD_CCtx_setPledgedSrcSize(o.cx, count.n)))) {
        snprintf(err, errlen, "%s: zstd refused its parameters", path);
        ok = 0;
    }
    if (ok && put_header(f, count.n, 0)) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        ok = 0;
    }
    if (ok) {
        put_trace(&o, t);
        flush_stage(&o);
        if (!o.failed) feed(&o, NULL, 0, ZSTD_e_end);
        if (!o.failed && o.n != count.n) o.failed = "the trace changed while it was written";
        if (!o.failed && put_header(f, count.n, o.z)) o.failed = "write";
        if (o.failed) {
            if (!strcmp(o.failed, "write")) snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
            else snprintf(err, errlen, "%s: zstd: %s (at payload byte %llu)", path, o.failed, (unsigned long long)o.n);
            ok = 0;
        }
    }
    ZSTD_freeCCtx(o.cx);
    free(o.stage);
    free(o.zbuf);
    return ok ? 0 : -1;
}

int wst_write(const char *path, const ws_trace *t, char *err, size_t errlen)
{
    struct stat sb;
    if (!stat(path, &sb) && !S_ISREG(sb.st_mode)) { /* a device such as /dev/null: written, never replaced */
        FILE *f = fopen(path, "wb");
        int ok = f && write_stream(f, path, t, err, errlen) == 0;
        if (!f) snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        if (f && fclose(f) && ok) snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno)), ok = 0;
        return ok ? 0 : -1;
    }
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 24);
    if (!tmp) { snprintf(err, errlen, "%s: out of host memory", path); return -1; }
    snprintf(tmp, plen + 24, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        free(tmp);
        return -1;
    }
    int ok = write_stream(f, path, t, err, errlen) == 0;
    if (fclose(f) && ok) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        ok = 0;
    }
    if (ok && rename(tmp, path)) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        ok = 0;
    }
    if (!ok) unlink(tmp);
    free(tmp);
    return ok ? 0 : -1;
}

/* ---- reading ---- */

/* The payload, decompressed as it is parsed (never held whole): small
 * fields come through a staging buffer, record arrays straight from zstd
 * into their own memory. `left` counts the payload bytes not yet read, so
 * every count can still be checked against what remains. */
enum { RSTAGE = 1 << 16, RIN = 1 << 17 };
typedef struct rbuf {
    ZSTD_DCtx *dx;
    ZSTD_inBuffer in;
    /* A file: the compressed bytes come through ibuf (RIN bytes), zleft
     * of them not read yet; the file is never held whole (memory: NULL). */
    FILE *f;
    uint8_t *ibuf;
    uint64_t zleft;
    uint8_t *stage;
    size_t spos, slen;
    uint64_t left, read;
    int done;                    /* zstd said the frame ended              */
    const char *what;
    char *err;
    size_t errlen;
    int bad;
    uint32_t version;            /* the file's: 1 has no devices          */
} rbuf;

static int rfail(rbuf *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int rfail(rbuf *r, const char *fmt, ...)
{
    if (r->bad) return -1;
    r->bad = 1;
    int n = snprintf(r->err, r->errlen, "%s: ", r->what);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < r->errlen) vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

/* Read the next compressed bytes of a file into the input buffer. */
static int refill(rbuf *r)
{
    if (!r->f || r->in.pos < r->in.size || !r->zleft) return 0;
    size_t want = r->zleft < RIN ? (size_t)r->zleft : RIN;
    size_t got = fread(r->ibuf, 1, want, r->f);
    r->in = (ZSTD_inBuffer){ r->ibuf, got, 0 };
    r->zleft -= got;
    if (got < want) {
        if (ferror(r->f)) return rfail(r, "cannot read: %s", strerror(errno));
        return rfail(r, "truncated: the file ends %llu bytes before the header's compressed size",
                     (unsigned long long)(r->zleft + (want - got)));
    }
    return 0;
}

/* Decompress exactly n payload bytes into d. */
static int inflate(rbuf *r, uint8_t *d, size_t n)
{
    ZSTD_outBuffer out = { d, n, 0 };
    while (out.pos < out.size) {
        if (refill(r)) return -1;
        size_t before_in = r->in.pos, before_out = out.pos;
        size_t rc = ZSTD_decompressStream(r->dx, &out, &r->in);
        if (ZSTD_isError(rc))
            return rfail(r, "corrupt compressed data: %s (payload byte %llu)", ZSTD_getErrorName(rc),
                         (unsigned long long)(r->read + out.pos));
        r->done = rc == 0;
        if (out.pos < out.size && (rc == 0 || (r->in.pos == before_in && out.pos == before_out)))
            return rfail(r, "corrupt compressed data: the frame ends at payload byte %llu",
                         (unsigned long long)(r->read + out.pos));
    }
    r->read += n;
    return 0;
}

static int rd(rbuf *r, void *d, size_t n, const char *field)
{
    if (r->bad) return -1;
    if (r->left < n) return rfail(r, "truncated: %s needs %zu bytes, %llu remain", field, n, (unsigned long long)r->left);
    r->left -= n;
    uint8_t *to = d;
    size_t have = r->slen - r->spos, take = have < n ? have : n;
    memcpy(to, r->stage + r->spos, take);
    r->spos += take;
    to += take;
    n -= take;
    if (!n) return 0;
    if (n >= RSTAGE / 2) return inflate(r, to, n); /* record arrays: no copy */
    size_t fill = r->left + n < RSTAGE ? (size_t)(r->left + n) : RSTAGE;
    if (inflate(r, r->stage, fill)) return -1;
    r->slen = fill;
    memcpy(to, r->stage, n);
    r->spos = n;
    return 0;
}

static uint32_t r32(rbuf *r, const char *f) { uint32_t v = 0; rd(r, &v, 4, f); return v; }
static uint64_t r64(rbuf *r, const char *f) { uint64_t v = 0; rd(r, &v, 8, f); return v; }

static char *rstr(rbuf *r, const char *f)
{
    uint32_t n = r32(r, f);
    if (r->bad) return NULL;
    if (n > WST_STRING_MAX || r->left < n) { rfail(r, "%s: length %u is not plausible", f, n); return NULL; }
    char *s = malloc(n + 1);
    if (!s) { rfail(r, "out of host memory"); return NULL; }
    rd(r, s, n, f);
    s[n] = 0;
    return s;
}

/* Allocate count elements of size each, refusing counts the remaining bytes
 * could not hold (each element takes at least `min` bytes in the file). */
static void *ralloc(rbuf *r, uint64_t count, size_t size, size_t min, const char *f)
{
    if (r->bad) return NULL;
    if (count > r->left / (min ? min : 1)) { rfail(r, "%s: count %llu exceeds the file", f, (unsigned long long)count); return NULL; }
    void *p = calloc(count ? count : 1, size);
    if (!p) rfail(r, "out of host memory");
    return p;
}

void wst_launch_free(ws_trace_launch *L)
{
    free(L->kernel); free(L->module); free(L->note); free(L->blocks); free(L->mem_insts); free(L->counts);
    free(L->threads); free(L->bb); free(L->mem); free(L->warp_counts); free(L->warps); free(L->values);
}

static int check_launch(rbuf *r, ws_trace_launch *L, uint32_t ndevices)
{
    if (L->device > ndevices)
        return rfail(r, "launch %llu: device %u of %u", (unsigned long long)L->launch_id, L->device, ndevices);
    for (uint32_t i = 0; i < L->nblocks; i++)
        if (L->blocks[i].first_mem > L->nmem_insts || L->blocks[i].nmem > L->nmem_insts - L->blocks[i].first_mem)
            return rfail(r, "launch %llu: block %u names memory instructions past the table",
                         (unsigned long long)L->launch_id, i);
    for (uint32_t i = 0; i < L->nblocks; i++)
        if (L->blocks[i].taken >= (int32_t)L->nblocks || L->blocks[i].fall >= (int32_t)L->nblocks ||
            L->blocks[i].taken < -1 || L->blocks[i].fall < -1)
            return rfail(r, "launch %llu: block %u branches to a block that does not exist", (unsigned long long)L->launch_id, i);
    for (uint64_t i = 0; i < L->nwarp; i++)
        if (L->warps[i].block >= L->nblocks)
            return rfail(r, "warp record %llu names block %u of %u", (unsigned long long)i, L->warps[i].block, L->nblocks);
    for (uint32_t i = 0; i < L->nmem_insts; i++)
        if (L->mem_insts[i].block >= L->nblocks)
            return rfail(r, "launch %llu: memory instruction %u names block %u of %u", (unsigned long long)L->launch_id,
                         i, L->mem_insts[i].block, L->nblocks);
    uint64_t nb = 0, nm = 0;
    for (uint32_t i = 0; i < L->nthreads; i++) {
        ws_trace_thread *t = &L->threads[i];
        t->first_block = nb;
        t->first_mem = nm;
        nb += t->nblocks;
        nm += t->nmem;
    }
    if (nb != L->nbb || nm != L->nmem)
        return rfail(r, "launch %llu: threads hold %llu block and %llu memory records, the file %llu and %llu",
                     (unsigned long long)L->launch_id, (unsigned long long)nb, (unsigned long long)nm,
                     (unsigned long long)L->nbb, (unsigned long long)L->nmem);
    for (uint64_t i = 0; i < L->nbb; i++)
        if (L->bb[i] >= L->nblocks) return rfail(r, "block record %llu names block %u of %u", (unsigned long long)i, L->bb[i], L->nblocks);
    for (uint64_t i = 0; i < L->nmem; i++)
        if (L->mem[i].inst >= L->nmem_insts)
            return rfail(r, "memory record %llu names instruction %u of %u", (unsigned long long)i, L->mem[i].inst, L->nmem_insts);
    return 0;
}

static int get_launch(rbuf *r, ws_trace_launch *L, uint32_t ndevices)
{
    L->kernel = rstr(r, "kernel name");
    L->module = rstr(r, "module name");
    L->note = rstr(r, "note");
    L->launch_id = r64(r, "launch id");
    L->grid.x = r32(r, "grid"); L->grid.y = r32(r, "grid"); L->grid.z = r32(r, "grid");
    L->block.x = r32(r, "block"); L->block.y = r32(r, "block"); L->block.z = r32(r, "block");
    L->flags = r32(r, "flags");
    L->lanes_per_warp = r32(r, "lanes per warp");
    if (r->version >= 2) L->device = r32(r, "device");
    if (r->version >= 3) L->launch_number = r64(r, "launch number");
    if (r->version >= 4) {
        L->stage = r32(r, "stage");
        L->draw = r32(r, "draw");
        if (!r->bad && L->stage > WS_TRACE_STAGE_FRAGMENT)
            return rfail(r, "launch %llu: stage %u (0 compute, 1 vertex, 2 fragment)", (unsigned long long)L->launch_id, L->stage);
    }
    L->device_thread_instructions = r64(r, "counters"); L->device_loads = r64(r, "counters");
    L->device_stores = r64(r, "counters"); L->device_atomics = r64(r, "counters");
    L->results_checked = r64(r, "counters");
    L->nblocks = r32(r, "block count");
    if (!(L->blocks = ralloc(r, L->nblocks, sizeof *L->blocks, 28, "blocks"))) return -1;
    for (uint32_t i = 0; i < L->nblocks; i++) {
        ws_trace_block *k = &L->blocks[i];
        k->addr = r32(r, "block"); k->ninst = r32(r, "block"); k->nmem = r32(r, "block"); k->first_mem = r32(r, "block");
        k->taken = (int32_t)r32(r, "block"); k->fall = (int32_t)r32(r, "block"); k->last = r32(r, "block");
    }
    L->nmem_insts = r32(r, "memory instruction count");
    if (!(L->mem_insts = ralloc(r, L->nmem_insts, sizeof *L->mem_insts, 12, "memory instructions"))) return -1;
    for (uint32_t i = 0; i < L->nmem_insts; i++) {
        ws_trace_mem_inst *m = &L->mem_insts[i];
        m->addr = r32(r, "memory instruction");
        m->block = r32(r, "memory instruction");
        uint32_t ks = r32(r, "memory instruction");
        m->kind = (uint8_t)ks;
        m->size = (uint8_t)(ks >> 8);
        const int size_ok = m->size == 1 || m->size == 2 || m->size == 4 || (m->size == 8 && m->kind == 3); /* amocas.d */
        if (!r->bad && (m->kind < 1 || m->kind > 3 || !size_ok))
            return rfail(r, "memory instruction %u: kind %u size %u", i, m->kind, m->size);
    }
    if (!(L->counts = ralloc(r, L->nblocks, sizeof *L->counts, 8, "block counts"))) return -1;
    for (uint32_t i = 0; i < L->nblocks; i++) L->counts[i] = r64(r, "block counts");
    L->nthreads = r32(r, "thread count");
    if (!(L->threads = ralloc(r, L->nthreads, sizeof *L->threads, 12, "threads"))) return -1;
    for (uint32_t i = 0; i < L->nthreads; i++) {
        L->threads[i].gid = r32(r, "thread"); L->threads[i].nblocks = r32(r, "thread"); L->threads[i].nmem = r32(r, "thread");
    }
    L->nbb = r64(r, "block record count");
    if (!(L->bb = ralloc(r, L->nbb, sizeof *L->bb, 4, "block records"))) return -1;
    rd(r, L->bb, L->nbb * sizeof *L->bb, "block records");
    L->nmem = r64(r, "memory record count");
    if (!(L->mem = ralloc(r, L->nmem, sizeof *L->mem, 8, "memory records"))) return -1;
    rd(r, L->mem, L->nmem * sizeof *L->mem, "memory records");
    if (L->flags & WS_TRACE_VALUES) {
        if (!(L->values = ralloc(r, L->nmem, sizeof *L->values, 4, "store values"))) return -1;
        rd(r, L->values, L->nmem * sizeof *L->values, "store values");
    }
    if (L->flags & WS_TRACE_WARPS) {
        if (!(L->warp_counts = ralloc(r, L->nblocks, sizeof *L->warp_counts, 8, "warp counts"))) return -1;
        for (uint32_t i = 0; i < L->nblocks; i++) L->warp_counts[i] = r64(r, "warp counts");
        L->nwarp = r64(r, "warp record count");
        if (!(L->warps = ralloc(r, L->nwarp, sizeof *L->warps, 12, "warp records"))) return -1;
        rd(r, L->warps, L->nwarp * sizeof *L->warps, "warp records");
    }
    return r->bad ? -1 : check_launch(r, L, ndevices);
}

void ws_trace_free(ws_trace *t)
{
    if (!t) return;
    for (uint32_t i = 0; i < t->nlaunches; i++) wst_launch_free(&t->launches[i]);
    free(t->launches);
    free(t);
}

/* Check the 32-byte header h of a file holding `size` bytes (or, with
 * size_known 0, an unknown number). */
static ws_status check_header(const uint8_t *h, size_t hlen, uint64_t size, int size_known, const char *what,
                              uint32_t *version_out, uint64_t *raw, uint64_t *zs, char *err, size_t errlen)
{
    uint32_t version = 0;
    /* a file cut inside its header (an interrupted copy) is said to be
     * truncated: it was "not a warpscope trace file (no WSTRACE header)" */
    if (!hlen) {
        snprintf(err, errlen, "%s: empty file (0 bytes): not a warpscope trace file", what);
        return WS_ERR_BAD_MODULE;
    }
    if (hlen < HEADER && !memcmp(h, magic, hlen < 8 ? hlen : 8)) {
        snprintf(err, errlen, "%s: truncated: the file ends at offset %zu, inside the %d-byte header", what, hlen,
                 HEADER);
        return WS_ERR_BAD_MODULE;
    }
    if (hlen < HEADER || memcmp(h, magic, 8)) {
        snprintf(err, errlen, "%s: not a warpscope trace file (no WSTRACE header)", what);
        return WS_ERR_BAD_MODULE;
    }
    memcpy(&version, h + 8, 4);
    memcpy(raw, h + 16, 8);
    memcpy(zs, h + 24, 8);
    if (version < 1 || version > WS_TRACE_FILE_VERSION) {
        snprintf(err, errlen, "%s: trace file version %u; this reader knows versions 1 to %u", what, version,
                 WS_TRACE_FILE_VERSION);
        return WS_ERR_UNSUPPORTED;
    }
    *version_out = version;
    if (size_known && *zs != size - HEADER) {
        snprintf(err, errlen, "%s: truncated or corrupt: header says %llu compressed bytes, the file has %llu",
                 what, (unsigned long long)*zs, (unsigned long long)(size - HEADER));
        return WS_ERR_BAD_MODULE;
    }
    return WS_OK;
}

/* The payload after a checked header: r->in holds the first compressed
 * bytes (with a file, r->zleft more follow through r->ibuf). */
static ws_status read_payload(rbuf *r, uint64_t raw, uint64_t zs, ws_trace **out)
{
    const char *what = r->what;
    char *err = r->err;
    size_t errlen = r->errlen;
    /* The payload size must be the zstd frame's own, and one that zs bytes
     * can hold (a block of at most 128 KiB costs at least 3 bytes), so a
     * corrupt header cannot make the reader allocate at will. */
    unsigned long long frame = ZSTD_getFrameContentSize(r->in.src, r->in.size);
    if (frame == ZSTD_CONTENTSIZE_ERROR || frame == ZSTD_CONTENTSIZE_UNKNOWN || frame != raw) {
        snprintf(err, errlen, "%s: corrupt: header says %llu payload bytes, the zstd frame at offset %d %s", what,
                 (unsigned long long)raw, HEADER, frame == ZSTD_CONTENTSIZE_ERROR ? "is not a zstd frame"
                 : frame == ZSTD_CONTENTSIZE_UNKNOWN ? "does not say its size" : "says another size");
        return WS_ERR_BAD_MODULE;
    }
    if (raw / ((uint64_t)1 << 17) > zs / 3 + 1 || raw > SIZE_MAX - 1) {
        snprintf(err, errlen, "%s: corrupt: %llu payload bytes cannot come from %llu compressed bytes", what,
                 (unsigned long long)raw, (unsigned long long)zs);
        return WS_ERR_BAD_MODULE;
    }
    r->dx = ZSTD_createDCtx();
    r->stage = malloc(RSTAGE);
    r->left = raw;
    ws_trace *t = r->dx && r->stage ? calloc(1, sizeof *t) : NULL;
    const int oom = !t;
    if (oom) rfail(r, "out of host memory");
    const uint32_t ndevices = r->version >= 2 ? r32(r, "device count") : 0;
    if (t) t->ndevices = ndevices;
    uint32_t n = r32(r, "launch count");
    if (t && !r->bad) t->launches = ralloc(r, n, sizeof *t->launches, 64, "launches");
    for (uint32_t i = 0; t && t->launches && i < n && !r->bad; i++) {
        t->nlaunches = i + 1;
        get_launch(r, &t->launches[i], ndevices);
    }
    if (!r->bad && r->left) rfail(r, "%llu bytes follow the last launch", (unsigned long long)r->left);
    if (!r->bad && !r->done) { /* the frame must end here ... */
        uint8_t extra;
        ZSTD_outBuffer o = { &extra, 1, 0 };
        size_t rc = 0;
        if (!refill(r)) rc = ZSTD_decompressStream(r->dx, &o, &r->in);
        if (!r->bad && (ZSTD_isError(rc) || rc || o.pos))
            rfail(r, "corrupt compressed data: %s after the payload",
                  ZSTD_isError(rc) ? ZSTD_getErrorName(rc) : "the frame goes on");
    }
    if (!r->bad && (r->in.pos != r->in.size || r->zleft)) /* ... with nothing after it */
        rfail(r, "%llu bytes follow the zstd frame", (unsigned long long)(r->in.size - r->in.pos + r->zleft));
    ZSTD_freeDCtx(r->dx);
    free(r->stage);
    if (r->bad) {
        ws_trace_free(t);
        return oom ? WS_ERR_OUT_OF_MEMORY : WS_ERR_BAD_MODULE;
    }
    *out = t;
    return WS_OK;
}

ws_status ws_trace_read_memory(const void *data, size_t size, const char *what, ws_trace **out, char *err, size_t errlen)
{
    char scratch[256]; /* err is optional: without it the message is dropped */
    if (!err || !errlen) { err = scratch; errlen = sizeof scratch; }
    if (!out) { snprintf(err, errlen, "ws_trace_read_memory: out is NULL"); return WS_ERR_INVALID_ARG; }
    *out = NULL;
    what = what ? what : "<memory>";
    const uint8_t *d = data;
    uint64_t raw = 0, zs = 0;
    uint32_t version = 0;
    ws_status st = check_header(d, data ? size : 0, size, 1, what, &version, &raw, &zs, err, errlen);
    if (st != WS_OK) return st;
    rbuf r = { .in = { d + HEADER, zs, 0 }, .what = what, .err = err, .errlen = errlen, .version = version };
    return read_payload(&r, raw, zs, out);
}

/* The file is read through a buffer of RIN bytes as it is decompressed:
 * a trace is read with the memory its records take and no more (until
 * 2026-11-27 the whole compressed file was read into memory first). */
ws_status ws_trace_read(const char *path, ws_trace **out, char *err, size_t errlen)
{
    char scratch[256]; /* err is optional: without it the message is dropped */
    if (!err || !errlen) { err = scratch; errlen = sizeof scratch; }
    if (!path || !out) { snprintf(err, errlen, "ws_trace_read: %s is NULL", !path ? "path" : "out"); return WS_ERR_INVALID_ARG; }
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) { snprintf(err, errlen, "%s: %s", path, strerror(errno)); return WS_ERR_NOT_FOUND; }
    /* a regular file's size is known before reading; anything else (a
     * pipe) is checked against the header as it is read */
    struct stat sb;
    int size_known = !fstat(fileno(f), &sb) && S_ISREG(sb.st_mode);
    uint8_t h[HEADER];
    size_t hn = fread(h, 1, HEADER, f);
    /* a read that fails (a directory: EISDIR) is not an empty file, which
     * the format check would call "not a warpscope trace file" */
    if (hn < HEADER && ferror(f)) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        fclose(f);
        return WS_ERR_IO;
    }
    uint64_t raw = 0, zs = 0;
    uint32_t version = 0;
    ws_status st = check_header(h, hn, size_known ? (uint64_t)sb.st_size : 0, size_known, path, &version, &raw, &zs,
                                err, errlen);
    if (st == WS_OK) {
        rbuf r = { .f = f, .ibuf = malloc(RIN), .zleft = zs, .what = path, .err = err, .errlen = errlen,
                   .version = version };
        if (!r.ibuf) {
            snprintf(err, errlen, "%s: out of host memory", path);
            st = WS_ERR_OUT_OF_MEMORY;
        } else if (refill(&r)) {
            st = WS_ERR_BAD_MODULE;
            if (strstr(err, "cannot read:")) st = WS_ERR_IO;
        } else {
            st = read_payload(&r, raw, zs, out);
            /* with the size not known first: nothing may follow the frame */
            uint8_t extra;
            if (st == WS_OK && !size_known && fread(&extra, 1, 1, f) == 1) {
                ws_trace_free(*out);
                *out = NULL;
                snprintf(err, errlen, "%s: bytes follow the %llu compressed bytes the header names", path,
                         (unsigned long long)zs);
                st = WS_ERR_BAD_MODULE;
            }
        }
        free(r.ibuf);
    }
    fclose(f);
    return st;
}
