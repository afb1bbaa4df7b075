/* Decode every section of a capture file with the payload codec
 * (src/capture/capture_calls.h) and print one line per section, so the
 * shim tests can check names and fields with grep. Exits 1 when a payload
 * does not decode exactly (bad cursor or bytes left over), the call
 * indices are not 0, 1, 2 ..., or frames do not pair up. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "capture/capture_calls.h"
#include "warpscope/capture.h"

static void call_fields(wscap_cur *c, uint32_t call)
{
    char s[256];
    uint64_t n;
    switch (call) {
    case WSCAP_MALLOC: { uint64_t size = wscap_u64(c); printf(" size=%" PRIu64 " addr=0x%08x", size, wscap_u32(c)); break; }
    case WSCAP_FREE: case WSCAP_SET_UNIFORMS: printf(" addr=0x%08x", wscap_u32(c)); break;
    case WSCAP_HTOD: { uint32_t d = wscap_u32(c); wscap_blob(c, &n); printf(" dst=0x%08x bytes=%" PRIu64, d, n); break; }
    case WSCAP_DTOH: { uint32_t a = wscap_u32(c); printf(" src=0x%08x n=%" PRIu64, a, wscap_u64(c)); break; }
    case WSCAP_DTOD: { uint32_t d = wscap_u32(c), a = wscap_u32(c); printf(" dst=0x%08x src=0x%08x n=%" PRIu64, d, a, wscap_u64(c)); break; }
    case WSCAP_MEMSET: { uint32_t d = wscap_u32(c), v = wscap_u32(c); printf(" dst=0x%08x value=%u n=%" PRIu64, d, v, wscap_u64(c)); break; }
    case WSCAP_MODULE_LOAD: {
        uint32_t id = wscap_u32(c);
        wscap_str(c, s, sizeof s);
        uint32_t base = wscap_u32(c);
        const uint8_t *p = wscap_blob(c, &n);
        printf(" id=%u base=0x%08x bytes=%" PRIu64 " elf=%d", id, base, n, p && n > 4 && !memcmp(p, "\177ELF", 4));
        break;
    }
    case WSCAP_MODULE_UNLOAD: case WSCAP_TARGET_DESTROY: case WSCAP_TEXTURE_DESTROY: case WSCAP_TEXTURE_MIPS:
    case WSCAP_PIPELINE_DESTROY: case WSCAP_SET_TARGET: case WSCAP_SET_PIPELINE:
        printf(" id=%u", wscap_u32(c));
        break;
    case WSCAP_KERNEL_GET: { uint32_t id = wscap_u32(c), m = wscap_u32(c); wscap_str(c, s, sizeof s); printf(" id=%u module=%u name=%s", id, m, s); break; }
    case WSCAP_LAUNCH: {
        uint32_t v[9];
        for (int i = 0; i < 9; i++) v[i] = wscap_u32(c);
        printf(" kernel=%u grid=%u,%u,%u block=%u,%u,%u shared=%u nargs=%u", v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]);
        for (uint32_t i = 0; i < v[8] && !c->bad; i++) {
            uint32_t t = wscap_u32(c);
            printf(" arg%u=%u:0x%" PRIx64, i, t, wscap_u64(c));
        }
        break;
    }
    case WSCAP_TARGET_CREATE: case WSCAP_TEXTURE_CREATE: {
        uint32_t v[4];
        for (int i = 0; i < 4; i++) v[i] = wscap_u32(c);
        printf(" id=%u %ux%u %s=%u", v[0], v[1], v[2], call == WSCAP_TARGET_CREATE ? "depth" : "levels", v[3]);
        break;
    }
    case WSCAP_TARGET_READ: { uint32_t id = wscap_u32(c); printf(" id=%u depth=%u", id, wscap_u32(c)); break; }
    case WSCAP_TARGET_WRITE: case WSCAP_TEXTURE_UPLOAD: {
        uint32_t id = wscap_u32(c), k = wscap_u32(c);
        wscap_blob(c, &n);
        printf(" id=%u %s=%u bytes=%" PRIu64, id, call == WSCAP_TARGET_WRITE ? "depth" : "level", k, n);
        break;
    }
    case WSCAP_PIPELINE_CREATE: {
        uint32_t id = wscap_u32(c);
        wscap_pipeline p;
        wscap_get_pipeline(c, &p);
        printf(" id=%u vs=%u fs=%u attributes=%u cull=%u depth_test=%d", id, p.vs, p.fs, p.desc.nattributes, p.desc.cull,
               p.desc.depth_test);
        break;
    }
    case WSCAP_SET_VERTEX_BUFFER: { uint32_t b = wscap_u32(c), a = wscap_u32(c); printf(" binding=%u addr=0x%08x size=%u", b, a, wscap_u32(c)); break; }
    case WSCAP_SET_INDEX_BUFFER: { uint32_t a = wscap_u32(c), sz = wscap_u32(c); printf(" addr=0x%08x size=%u type=%u", a, sz, wscap_u32(c)); break; }
    case WSCAP_SET_TEXTURE: {
        uint32_t v[8];
        for (int i = 0; i < 8; i++) v[i] = wscap_u32(c);
        printf(" slot=%u id=%u sampler=%u filter=%u,%u mipmaps=%u wrap=%u,%u", v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
        break;
    }
    case WSCAP_SET_VIEWPORT: case WSCAP_CLEAR: {
        int k = call == WSCAP_CLEAR ? 5 : 6;
        for (int i = 0; i < k; i++) printf(" %g", wscap_f32(c));
        break;
    }
    case WSCAP_SET_SCISSOR: case WSCAP_DRAW: case WSCAP_DRAW_INDEXED: {
        int k = call == WSCAP_DRAW_INDEXED ? 5 : 4;
        for (int i = 0; i < k; i++) printf(" %d", (int32_t)wscap_u32(c));
        break;
    }
    case WSCAP_PRESENT: { uint32_t id = wscap_u32(c); printf(" target=%u read_back=%u", id, wscap_u32(c)); break; }
    default: break; /* synchronize, fence wait, begin_frame: no fields */
    }
}

/* The digest (capture_calls.h) of the initial state's allocations and
 * targets, fed as the shim feeds the frame-end digest: a capture that
 * starts where another frame ended must give that frame's digest. */
static uint64_t initial_digest = WSCAP_DIGEST_INIT; /* allocations come before targets in the file too */
static int seen_frame;

static int section(const ws_capture_section *s, uint64_t *next_call, int *open_frame)
{
    wscap_cur c = wscap_cursor(s->data, s->size);
    char str[512];
    uint64_t n;
    switch (s->type) {
    case WS_CAPTURE_DEVICE_CONFIG: {
        ws_config cfg;
        wscap_get_config(&c, &cfg);
        printf("config cores=%u warps=%u lanes=%u mode=%u\n", cfg.cores, cfg.warps_per_core, cfg.lanes_per_warp, cfg.mode);
        break;
    }
    case WS_CAPTURE_MODULE_IMAGE: {
        wscap_str(&c, str, sizeof str);
        uint32_t base = wscap_u32(&c);
        wscap_blob(&c, &n);
        printf("module %" PRIu64 " base=0x%08x bytes=%" PRIu64 "\n", s->id, base, n);
        break;
    }
    case WSCAP_KERNEL: {
        uint32_t m = wscap_u32(&c);
        wscap_str(&c, str, sizeof str);
        printf("kernel %" PRIu64 " module=%u name=%s\n", s->id, m, str);
        break;
    }
    case WS_CAPTURE_ALLOCATION: {
        uint32_t addr = wscap_u32(&c);
        uint64_t size = wscap_u64(&c);
        const uint8_t *bytes = wscap_blob(&c, &n);
        if (!seen_frame)
            initial_digest = wscap_digest_alloc(initial_digest, addr, size, bytes);
        printf("allocation 0x%08x size=%" PRIu64 " bytes=%" PRIu64 "\n", addr, size, n);
        if (n != size || addr != s->id) { printf("  BAD: allocation id/size disagree\n"); return -1; }
        break;
    }
    case WS_CAPTURE_TEXTURE: {
        uint32_t w = wscap_u32(&c), h = wscap_u32(&c), levels = wscap_u32(&c);
        printf("texture %" PRIu64 " %ux%u levels=%u", s->id, w, h, levels);
        for (uint32_t l = 0; l < levels && !c.bad; l++) {
            wscap_blob(&c, &n);
            uint32_t lw = w >> l ? w >> l : 1, lh = h >> l ? h >> l : 1;
            if (n != (uint64_t)lw * lh * 4) { printf("\n  BAD: level %u has %" PRIu64 " bytes\n", l, n); return -1; }
        }
        printf("\n");
        break;
    }
    case WSCAP_TARGET: {
        uint32_t w = wscap_u32(&c), h = wscap_u32(&c), d = wscap_u32(&c);
        uint64_t nd;
        const uint8_t *rgba = wscap_blob(&c, &n), *depth = wscap_blob(&c, &nd);
        if (!seen_frame) {
            initial_digest = wscap_digest_target(initial_digest, (uint32_t)s->id, rgba, n, nd ? depth : NULL, nd);
        }
        printf("target %" PRIu64 " %ux%u depth=%u colour=%" PRIu64 " depth_bytes=%" PRIu64 "\n", s->id, w, h, d, n, nd);
        if (n != (uint64_t)w * h * 4 || nd != (d ? (uint64_t)w * h * 4 : 0)) { printf("  BAD: target sizes\n"); return -1; }
        break;
    }
    case WS_CAPTURE_PIPELINE: {
        wscap_pipeline p;
        wscap_get_pipeline(&c, &p);
        printf("pipeline %" PRIu64 " vs=%u fs=%u attributes=%u\n", s->id, p.vs, p.fs, p.desc.nattributes);
        break;
    }
    case WS_CAPTURE_GFX_STATE: {
        wscap_gfx_state g;
        wscap_get_gfx_state(&c, &g);
        printf("gfx_state target=%u pipeline=%u vb0=0x%08x ib=0x%08x uniforms=0x%08x texture0=%u viewport=%d\n", g.target,
               g.pipeline, g.vb_addr[0], g.ib_addr, g.uniforms, g.texture[0], g.has_viewport);
        break;
    }
    case WS_CAPTURE_FRAME_BEGIN: {
        uint64_t f = wscap_u64(&c);
        printf("frame_begin %" PRIu64 " reason=%u\n", f, wscap_u32(&c));
        seen_frame = 1;
        if (*open_frame) { printf("  BAD: frame inside a frame\n"); return -1; }
        *open_frame = 1;
        break;
    }
    case WS_CAPTURE_FRAME_END: {
        uint64_t f = wscap_u64(&c);
        printf("frame_end %" PRIu64 " digest=%016" PRIx64 "\n", f, wscap_u64(&c));
        if (!*open_frame) { printf("  BAD: frame end without a begin\n"); return -1; }
        *open_frame = 0;
        break;
    }
    case WS_CAPTURE_API_CALL: {
        uint32_t call = wscap_u32(&c);
        printf("call %" PRIu64 " %s", s->id, wscap_call_name(call));
        call_fields(&c, call);
        printf("\n");
        if (s->id != (*next_call)++) { printf("  BAD: call index %" PRIu64 "\n", s->id); return -1; }
        if (!strcmp(wscap_call_name(call), "?")) { printf("  BAD: unknown call %u\n", call); return -1; }
        break;
    }
    case WSCAP_FAILURE: {
        uint32_t own = wscap_u32(&c), st = wscap_u32(&c);
        char msg[1024];
        wscap_str(&c, str, sizeof str);
        wscap_str(&c, msg, sizeof msg);
        printf("failure %s call %" PRIu64 " %s status=%u: %s\n", own ? "of" : "before", s->id, str, st, msg);
        break;
    }
    default: printf("section type %u\n", s->type); return -1;
    }
    if (c.bad || c.at != c.len) {
        printf("  BAD: section %" PRIu64 " (type %u): payload of %" PRIu64 " bytes decoded %s\n", s->index, s->type, s->size,
               c.bad ? "past its end" : "with bytes left over");
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) { fprintf(stderr, "usage: capture_decode FILE.wscap\n"); return 2; }
    ws_capture_reader *r;
    char err[512];
    if (ws_capture_reader_open(argv[1], &r, err, sizeof err) != WS_OK) {
        fprintf(stderr, "capture_decode: %s\n", err);
        return 1;
    }
    ws_capture_section s;
    uint64_t next_call = 0;
    int open_frame = 0, bad = 0;
    while (ws_capture_reader_next(r, &s) == WS_OK) bad |= section(&s, &next_call, &open_frame) != 0;
    ws_capture_reader_close(r);
    if (open_frame) { printf("BAD: the last frame has no end\n"); bad = 1; }
    printf("initial_digest=%016" PRIx64 "\n", initial_digest);
    return bad;
}
