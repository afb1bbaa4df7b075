/* Writing capture files (docs/capture-format.md). Sections stream through
 * one zstd frame into a temporary file beside the target, a zstd block
 * ending at each 128 KiB chunk of body, whose CRC goes into the table that
 * follows the frame; close fills in the header, fsyncs and renames, so the
 * target path holds the old file or the complete new one, never a part (a
 * crash leaves at most a stale temporary file, which no reader opens). */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>
#include "capture/capture_file.h"
#include "warpscope/capture.h"

struct ws_capture_writer {
    char *path, *tmp;
    int fd;
    ZSTD_CCtx *cctx;
    uint8_t *out;
    size_t outcap;
    uint64_t count, raw, packed;
    uint32_t crc;
    uint32_t chunk_crc;   /* of the chunk being filled, chunk_fill bytes */
    uint64_t chunk_fill;
    uint8_t *table;       /* the chunk CRCs so far, 4 bytes each         */
    size_t table_len, table_cap;
    ws_status failed;  /* sticky: the first failure, WS_OK while healthy */
    char *err;
    size_t errlen;
};

static ws_status wfail(ws_capture_writer *w, ws_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static ws_status wfail(ws_capture_writer *w, ws_status st, const char *fmt, ...)
{
    if (w->failed) return w->failed; /* keep the first, it is the cause */
    w->failed = st;
    va_list ap;
    va_start(ap, fmt);
    wscap_verror(w->err, w->errlen, w->path, fmt, ap);
    va_end(ap);
    return st;
}

static int write_all(int fd, const void *data, size_t n)
{
    const uint8_t *p = data;
    while (n) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

static void writer_free(ws_capture_writer *w)
{
    if (w->fd >= 0) close(w->fd);
    if (w->tmp) unlink(w->tmp);
    ZSTD_freeCCtx(w->cctx);
    free(w->table);
    free(w->out);
    free(w->tmp);
    free(w->path);
    free(w);
}

ws_status ws_capture_writer_open(const char *path, ws_capture_writer **out, char *err, size_t errlen)
{
    if (!out) {
        if (err && errlen) snprintf(err, errlen, "ws_capture_writer_open: out is NULL");
        return WS_ERR_INVALID_ARG;
    }
    *out = NULL;
    if (!path || !*path) {
        if (err && errlen) snprintf(err, errlen, "capture file: no path given");
        return WS_ERR_INVALID_ARG;
    }
    ws_capture_writer *w = calloc(1, sizeof *w);
    if (!w) {
        if (err && errlen) snprintf(err, errlen, "%s: out of host memory", path);
        return WS_ERR_OUT_OF_MEMORY;
    }
    w->fd = -1;
    w->err = err;
    w->errlen = errlen;
    size_t plen = strlen(path);
    w->path = malloc(plen + 1);
    w->tmp = malloc(plen + 16);
    w->outcap = ZSTD_CStreamOutSize();
    w->out = malloc(w->outcap);
    w->cctx = ZSTD_createCCtx();
    if (!w->path || !w->tmp || !w->out || !w->cctx) {
        if (err && errlen) snprintf(err, errlen, "%s: out of host memory", path);
        free(w->tmp);
        w->tmp = NULL;
        writer_free(w);
        return WS_ERR_OUT_OF_MEMORY;
    }
    memcpy(w->path, path, plen + 1);
    /* Same directory as the target, so the final rename cannot cross file
     * systems and is atomic. */
    snprintf(w->tmp, plen + 16, "%s.tmp-XXXXXX", path);
    w->fd = mkostemp(w->tmp, O_CLOEXEC);
    if (w->fd < 0) {
        int e = errno;
        free(w->tmp);
        w->tmp = NULL;
        wfail(w, WS_ERR_IO, "cannot create a temporary file beside it: %s", strerror(e));
        writer_free(w);
        return WS_ERR_IO;
    }
    /* mkostemp makes the file 0600; a capture is an ordinary document. */
    (void)fchmod(w->fd, 0644); /* not fatal: the file is still correct */
    size_t r1 = ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_compressionLevel, WSCAP_LEVEL);
    size_t r2 = ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_checksumFlag, 1);
    uint8_t zero[WSCAP_HEADER] = { 0 };
    if (ZSTD_isError(r1) || ZSTD_isError(r2)) {
        wfail(w, WS_ERR_INTERNAL, "zstd: %s", ZSTD_getErrorName(ZSTD_isError(r1) ? r1 : r2));
    } else if (write_all(w->fd, zero, sizeof zero)) { /* the header is filled in by close */
        wfail(w, WS_ERR_IO, "cannot write %s: %s", w->tmp, strerror(errno));
    }
    if (w->failed) {
        ws_status st = w->failed;
        writer_free(w);
        return st;
    }
    *out = w;
    return WS_OK;
}

/* Compress n bytes and write what zstd emits; ZSTD_e_flush ends a block
 * there, ZSTD_e_end the frame. */
static ws_status feed(ws_capture_writer *w, const void *data, size_t n, ZSTD_EndDirective mode)
{
    ZSTD_inBuffer in = { data, n, 0 };
    const int end = mode != ZSTD_e_continue;
    for (;;) {
        ZSTD_outBuffer o = { w->out, w->outcap, 0 };
        size_t left = ZSTD_compressStream2(w->cctx, &o, &in, mode);
        if (ZSTD_isError(left)) return wfail(w, WS_ERR_INTERNAL, "zstd: %s", ZSTD_getErrorName(left));
        if (o.pos && write_all(w->fd, w->out, o.pos))
            return wfail(w, WS_ERR_IO, "cannot write %s at offset %llu: %s", w->tmp,
                         (unsigned long long)(WSCAP_HEADER + w->packed), strerror(errno));
        w->packed += o.pos;
        if (end ? left == 0 : in.pos == in.size) return WS_OK;
    }
}

/* Note the CRC of the chunk just filled (or, at close, the short last one). */
static ws_status chunk_done(ws_capture_writer *w)
{
    if (w->table_len + 4 > w->table_cap) {
        size_t ncap = w->table_cap ? w->table_cap * 2 : 256;
        uint8_t *t = realloc(w->table, ncap);
        if (!t) return wfail(w, WS_ERR_OUT_OF_MEMORY, "out of host memory");
        w->table = t;
        w->table_cap = ncap;
    }
    wscap_put32(w->table + w->table_len, w->chunk_crc);
    w->table_len += 4;
    w->chunk_crc = 0;
    w->chunk_fill = 0;
    return WS_OK;
}

/* Body bytes: compressed, and counted into their chunks' CRCs; a chunk's
 * end ends a zstd block. */
static ws_status feed_body(ws_capture_writer *w, const uint8_t *p, size_t n)
{
    while (n) {
        size_t k = WSCAP_CHUNK - w->chunk_fill < n ? (size_t)(WSCAP_CHUNK - w->chunk_fill) : n;
        ws_status st = feed(w, p, k, ZSTD_e_continue);
        if (st) return st;
        w->chunk_crc = wscap_crc32(w->chunk_crc, p, k);
        w->chunk_fill += k;
        p += k;
        n -= k;
        if (w->chunk_fill == WSCAP_CHUNK && ((st = chunk_done(w)) || (st = feed(w, NULL, 0, ZSTD_e_flush))))
            return st;
    }
    return WS_OK;
}

ws_status ws_capture_writer_add_flags(ws_capture_writer *w, uint32_t type, uint32_t flags, uint64_t id,
                                      const void *data, size_t len)
{
    if (!w) return WS_ERR_INVALID_ARG;
    if (w->failed) return w->failed;
    if (!type) return wfail(w, WS_ERR_INVALID_ARG, "section %llu: type 0 is reserved", (unsigned long long)w->count);
    if (!data && len) return wfail(w, WS_ERR_INVALID_ARG, "section %llu: no data for %zu bytes", (unsigned long long)w->count, len);
    if (w->count >= WS_CAPTURE_MAX_SECTIONS)
        return wfail(w, WS_ERR_INVALID_ARG, "section %llu: more than %llu sections", (unsigned long long)w->count,
                     (unsigned long long)WS_CAPTURE_MAX_SECTIONS);
    if ((uint64_t)len > WS_CAPTURE_MAX_BODY - w->raw || WS_CAPTURE_MAX_BODY - w->raw - len < WSCAP_SECTION_HEADER)
        return wfail(w, WS_ERR_INVALID_ARG, "section %llu (%zu bytes): the body would exceed the limit of %llu bytes",
                     (unsigned long long)w->count, len, (unsigned long long)WS_CAPTURE_MAX_BODY);
    uint8_t h[WSCAP_SECTION_HEADER];
    wscap_put32(h, type);
    wscap_put32(h + 4, flags);
    wscap_put64(h + 8, id);
    wscap_put64(h + 16, len);
    ws_status st = feed_body(w, h, sizeof h);
    if (st == WS_OK && len) st = feed_body(w, data, len);
    if (st) return st;
    w->crc = wscap_crc32(wscap_crc32(w->crc, h, sizeof h), data, len);
    w->raw += sizeof h + len;
    w->count++;
    return WS_OK;
}

ws_status ws_capture_writer_add(ws_capture_writer *w, uint32_t type, uint64_t id, const void *data, size_t len)
{
    return ws_capture_writer_add_flags(w, type, 0, id, data, len);
}

/* Make the rename itself durable. Some file systems refuse fsync on a
 * directory; the file is complete and in place either way. */
static void sync_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    if (!dir) return;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
    free(dir);
}

ws_status ws_capture_writer_close(ws_capture_writer *w)
{
    if (!w) return WS_ERR_INVALID_ARG;
    if (!w->failed && feed(w, NULL, 0, ZSTD_e_end) == WS_OK && (!w->chunk_fill || chunk_done(w) == WS_OK)) {
        wscap_header h = { WS_CAPTURE_FORMAT_VERSION, 0, w->count, w->raw, w->packed, w->crc };
        uint8_t b[WSCAP_HEADER], table_crc[4];
        wscap_header_encode(b, &h);
        wscap_put32(table_crc, wscap_crc32(0, w->table, w->table_len));
        if ((w->table_len && write_all(w->fd, w->table, w->table_len)) || write_all(w->fd, table_crc, 4))
            wfail(w, WS_ERR_IO, "cannot write the chunk CRC table of %s: %s", w->tmp, strerror(errno));
        else if (pwrite(w->fd, b, sizeof b, 0) != (ssize_t)sizeof b)
            wfail(w, WS_ERR_IO, "cannot write the header of %s: %s", w->tmp, strerror(errno));
        else if (fsync(w->fd))
            wfail(w, WS_ERR_IO, "cannot fsync %s: %s", w->tmp, strerror(errno));
        else if (close(w->fd)) {
            w->fd = -1;
            wfail(w, WS_ERR_IO, "cannot close %s: %s", w->tmp, strerror(errno));
        } else {
            w->fd = -1;
            if (rename(w->tmp, w->path))
                wfail(w, WS_ERR_IO, "cannot rename %s into place: %s", w->tmp, strerror(errno));
            else {
                free(w->tmp);
                w->tmp = NULL; /* it is the target now: writer_free must not unlink it */
                sync_dir(w->path);
            }
        }
    }
    ws_status st = w->failed;
    writer_free(w);
    return st;
}

ws_status ws_capture_writer_abort(ws_capture_writer *w)
{
    if (!w) return WS_ERR_INVALID_ARG;
    writer_free(w); /* closes and unlinks the temporary file */
    return WS_OK;
}
