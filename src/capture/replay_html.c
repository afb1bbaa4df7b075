/* The frame report (replay_html.h): one run of the frame that reads the
 * bound target after every clear and draw, one run for the pixel history,
 * then the page, written to a temporary file and renamed into place. */
#include "capture/replay_html.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "capture/replay_image.h"
#include "capture/replay_pixel.h"
#include "capture/replay_tool.h"

/* The target after one clear or draw. */
typedef struct shot {
    uint64_t call;
    char *uri;                    /* thumbnail; NULL: no target bound        */
    uint32_t w, h;                /* the target                              */
    uint32_t dw, dh;              /* the thumbnail as shown (CSS pixels)     */
    char state[1024];
} shot;

/* A texture as the frame leaves it: its level 0. */
typedef struct tex_card {
    uint32_t id, w, h, levels;
    char *uri;
    uint32_t dw, dh;              /* the thumbnail as shown (CSS pixels)     */
} tex_card;

typedef struct report {
    ws_replay *r;
    ws_device *dev;
    uint32_t thumb;
    shot *shots;
    size_t n, cap;
    uint32_t last_target;         /* capture id of the last target drawn to */
    uint64_t last_call;           /* the call that wrote it last            */
    uint8_t *last_img;            /* that target's image after that call    */
    tex_card *tex;                /* the live textures at the frame's end   */
    size_t ntex;
    char failure[640];            /* the frame's work failed here: its end  */
    char passed[4096];            /* failures met as recorded, gone past    */
    ws_status st;
    char *err;
    size_t errlen;
} report;

static int take_shot(void *user, ws_replay *r, uint64_t index)
{
    report *rp = user;
    struct ws_replay_call_info ci;
    if (ws_replay_describe_call(r, index, &ci) != WS_OK) {
        rp->st = rt_fail(rp->err, rp->errlen, WS_ERR_INTERNAL, "report: %s", ws_replay_error(r));
        return 1;
    }
    if (ci.kind != WS_REPLAY_CALL_DRAW && ci.kind != WS_REPLAY_CALL_CLEAR) return 0;
    if (rp->n == rp->cap) {
        size_t cap = rp->cap ? rp->cap * 2 : 16;
        shot *s = realloc(rp->shots, cap * sizeof *s);
        if (!s) goto oom;
        rp->shots = s;
        rp->cap = cap;
    }
    shot *s = &rp->shots[rp->n++];
    memset(s, 0, sizeof *s);
    s->call = index;
    if (ws_replay_state_text(r, index, s->state, sizeof s->state) != WS_OK) s->state[0] = 0;
    ws_gfx_target *t = ws_replay_target_at(r, index);
    if (!t || ws_gfx_target_size(t, &s->w, &s->h) != WS_OK) return 0;
    uint8_t *img = malloc((size_t)s->w * s->h * 4), *small = NULL;
    uint32_t tw, th;
    if (!img) goto oom;
    /* run the call's queued work first (a failure met as recorded: the
     * frame goes on, as the program did) */
    ws_status rs = ws_replay_wait(r);
    if (rs == WS_OK) rs = ws_gfx_target_read(rp->dev, t, img, (size_t)s->w * s->h * 4);
    if (rs != WS_OK) {
        free(img);
        if (ws_replay_frame_failure(rs)) { /* the frame ends here, as it did when captured: no card for it */
            snprintf(rp->failure, sizeof rp->failure, "call %" PRIu64 " %s: %s", index, ci.name, ws_last_error(rp->dev));
            rp->n--;
            return 1;
        }
        rp->st = rt_fail(rp->err, rp->errlen, WS_ERR_INTERNAL, "report: call %" PRIu64 " %s: %s", index, ci.name,
                      ws_last_error(rp->dev));
        return 1;
    }
    rp->last_target = ws_replay_target_id_at(r, index);
    rp->last_call = index;
    ws_status st = ws_image_shrink(img, s->w, s->h, rp->thumb, &small, &tw, &th);
    free(rp->last_img); /* kept: the frame may destroy the target before its end */
    rp->last_img = img;
    if (st != WS_OK) goto oom;
    st = ws_image_png_uri(small, tw, th, 1, &s->uri, rp->err, rp->errlen);
    free(small);
    if (st != WS_OK) { rp->st = st; return 1; }
    /* small targets are shown enlarged by a whole factor, large ones as shrunk */
    uint32_t side = tw > th ? tw : th, k = side < rp->thumb ? rp->thumb / side : 1;
    s->dw = tw * k;
    s->dh = th * k;
    return 0;
oom:
    rp->st = rt_fail(rp->err, rp->errlen, WS_ERR_OUT_OF_MEMORY, "report: out of host memory at call %" PRIu64, index);
    return 1;
}

/* The live textures' level 0 as thumbnails, as the shaders sample them at
 * the frame's end (RenderDoc's texture list; `replay --dump-after` writes
 * every level in full). */
static ws_status collect_textures(report *rp)
{
    size_t n = 0;
    ws_replay_textures(rp->r, NULL, NULL, 0, &n);
    if (!n) return WS_OK;
    ws_gfx_texture **t = calloc(n, sizeof *t);
    uint32_t *ids = calloc(n, sizeof *ids);
    rp->tex = calloc(n, sizeof *rp->tex);
    ws_status st = t && ids && rp->tex ? WS_OK : rt_fail(rp->err, rp->errlen, WS_ERR_OUT_OF_MEMORY, "report: out of host memory");
    if (st == WS_OK) ws_replay_textures(rp->r, t, ids, n, &n);
    for (size_t i = 0; i < n && st == WS_OK; i++) {
        tex_card *c = &rp->tex[rp->ntex];
        c->id = ids[i];
        ws_gfx_texture_levels(t[i], &c->w, &c->h, &c->levels);
        uint8_t *img = malloc((size_t)c->w * c->h * 4), *small = NULL;
        uint32_t tw = 0, th = 0;
        if (!img) st = rt_fail(rp->err, rp->errlen, WS_ERR_OUT_OF_MEMORY, "report: out of host memory");
        else if (ws_gfx_texture_read(rp->dev, t[i], 0, img, (size_t)c->w * c->h * 4) != WS_OK)
            st = rt_fail(rp->err, rp->errlen, WS_ERR_INTERNAL, "report: reading texture %u: %s", c->id, ws_last_error(rp->dev));
        else if ((st = ws_image_shrink(img, c->w, c->h, rp->thumb, &small, &tw, &th)) != WS_OK)
            rt_fail(rp->err, rp->errlen, st, "report: out of host memory");
        else if ((st = ws_image_png_uri(small, tw, th, 0, &c->uri, rp->err, rp->errlen)) == WS_OK) {
            uint32_t side = tw > th ? tw : th, k = side < rp->thumb ? rp->thumb / side : 1;
            c->dw = tw * k;
            c->dh = th * k;
            rp->ntex++;
        }
        free(small);
        free(img);
    }
    free(t);
    free(ids);
    return st;
}

static void esc(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

/* Copy the line at p (without its newline, cut to cap - 1 bytes) into buf;
 * returns where the next line starts. */
static const char *take_line(const char *p, char *buf, size_t cap)
{
    const char *e = strchr(p, '\n');
    const size_t n = e ? (size_t)(e - p) : strlen(p);
    snprintf(buf, cap, "%.*s", (int)(n < cap ? n : cap - 1), p);
    return p + n + (e != NULL);
}

static void swatch(FILE *f, const uint8_t *c)
{
    fprintf(f, "<span class=\"sw\" style=\"background:rgb(%u,%u,%u)\"></span><code>%u %u %u %u</code>", c[0], c[1],
            c[2], c[0], c[1], c[2], c[3]);
}

static const char *kind_name(ws_replay_call_kind k)
{
    static const char *const names[] = { "state", "copy", "launch", "draw", "clear", "sync", "frame" };
    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

static const char *compare_op(ws_gfx_compare c)
{
    static const char *const names[] = { "never", "&lt;", "==", "&lt;=", "&gt;", "!=", "&gt;=", "always" };
    return (unsigned)c < 8 ? names[c] : "?";
}

static const char css[] =
    ":root{--bg:#f5f6f8;--card:#fff;--ink:#1c2230;--muted:#5d6779;--line:#dde1e8;--accent:#17a589}\n"
    "*{box-sizing:border-box}\n"
    "body{margin:0;background:var(--bg);color:var(--ink);font:14px/1.45 system-ui,-apple-system,'Segoe UI',"
    "Roboto,'DejaVu Sans',sans-serif}\n"
    "#top{position:relative}\n"
    "#marker{position:absolute;background:#17a589}\n"
    "#final{position:absolute;line-height:0}\n"
    "#final img,.card img{display:block;image-rendering:pixelated}\n"
    ".tick{position:absolute;background:#e0245e}\n"
    "#side{position:absolute;top:8px;right:16px}\n"
    "h1{margin:0 0 6px;font-size:22px;font-weight:650}\n"
    "h2{margin:28px 0 10px;font-size:17px;border-bottom:1px solid var(--line);padding-bottom:4px}\n"
    "main{padding:0 16px 40px}\n"
    "a{color:#0b6e99;text-decoration:none}a:hover{text-decoration:underline}\n"
    "table{border-collapse:collapse;background:var(--card);width:100%;border:1px solid var(--line)}\n"
    "th,td{border-bottom:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}\n"
    "th{background:#eceff4;font-weight:600;font-size:13px}\n"
    "tr.work{background:#fbfcfd}\n"
    "code,pre{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:12.5px}\n"
    "pre{margin:6px 0 0;white-space:pre-wrap;color:var(--muted)}\n"
    "td code{word-break:break-word}\n"
    ".grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(280px,1fr));gap:12px}\n"
    ".card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:10px}\n"
    ".card img{background:#000;border:1px solid var(--line)}\n"
    ".thumb{position:relative;display:inline-block;margin-bottom:8px;line-height:0}\n"
    ".pin{position:absolute;width:7px;height:7px;border:2px solid #fff;outline:1px solid #e0245e;border-radius:50%}\n"
    ".card h3{margin:0 0 4px;font-size:14px}\n"
    ".sw{display:inline-block;width:14px;height:14px;border:1px solid #0005;vertical-align:-3px;margin-right:5px}\n"
    ".badge{display:inline-block;padding:0 7px;border-radius:9px;font-size:12px;background:#e3f5ef;color:#0c6b53}\n"
    ".badge.no{background:#fdebef;color:#a3133e}.badge.none{background:#eef0f3;color:var(--muted)}\n"
    ".muted{color:var(--muted)}.facts{margin:2px 0}\n";

static int event_ok(ws_gfx_probe_event e) { return e == WS_GFX_PROBE_CLEAR || e == WS_GFX_PROBE_WRITTEN; }

static void write_history(FILE *f, ws_replay *r, const ws_pixel_history *h)
{
    fprintf(f, "<section id=\"pixel\"><h2>Pixel (%u, %u) of target %u: history</h2>\n", h->x, h->y, h->target_id);
    fprintf(f, "<p class=\"facts\">%zu event%s in %" PRIu64 " call%s. At the frame start: ", h->n, h->n == 1 ? "" : "s",
            h->ncalls, h->ncalls == 1 ? "" : "s");
    swatch(f, h->initial);
    if (h->has_depth) fprintf(f, " depth <code>%.9g</code>", h->initial_depth);
    fprintf(f, "</p>\n<table><tr><th>Call</th><th>Primitive</th><th>Shader output</th><th>Depth test</th>"
               "<th>Result</th><th>Before</th><th>After</th></tr>\n");
    const char *passed = h->passed; /* failures gone past: rows in call order among the events */
    size_t line = 0;
    for (size_t i = 0; i <= h->n; i++) {
        const uint64_t call = i < h->n ? h->ev[i].call : UINT64_MAX;
        while (*passed && (call == UINT64_MAX || (line < h->order.n && h->order.key[line] <= 2 * call))) {
            char text[1200];
            passed = take_line(passed, text, sizeof text);
            fprintf(f, "<tr class=\"failed\"><td colspan=\"7\">The frame's work failed, as when it was captured, "
                       "and the replay went on: <code>");
            esc(f, text);
            fprintf(f, "</code></td></tr>\n");
            line++;
        }
        if (i == h->n) break;
        const ws_gfx_probe_rec *e = &h->ev[i].rec;
        struct ws_replay_call_info ci;
        int have = ws_replay_describe_call(r, h->ev[i].call, &ci) == WS_OK;
        fprintf(f, "<tr><td><a href=\"#call-%" PRIu64 "\">%" PRIu64 "</a> <code>", h->ev[i].call, h->ev[i].call);
        esc(f, have ? ci.name : "?");
        fprintf(f, "</code></td>");
        if (e->event == WS_GFX_PROBE_CLEAR) {
            fprintf(f, "<td class=\"muted\">clear</td><td><code>%g %g %g %g</code></td><td class=\"muted\">"
                       "depth := %g</td>", e->color[0], e->color[1], e->color[2], e->color[3], e->depth);
        } else {
            fprintf(f, "<td>%u", e->prim);
            if (e->instances > 1 || e->instance) fprintf(f, " <span class=\"muted\">instance</span> %u", e->instance);
            fprintf(f, " <span class=\"muted\">(%s)</span></td>", e->front ? "front" : "back");
            if (e->event == WS_GFX_PROBE_DISCARDED) fprintf(f, "<td class=\"muted\">discarded</td>");
            else if (!e->shaded) fprintf(f, "<td class=\"muted\">not shaded</td>");
            else {
                uint8_t c[4];
                for (int k = 0; k < 4; k++) c[k] = (uint8_t)(e->color[k] <= 0 ? 0 : e->color[k] >= 1 ? 255 : e->color[k] * 255 + 0.5f);
                fprintf(f, "<td><span class=\"sw\" style=\"background:rgb(%u,%u,%u)\"></span><code>%.4g %.4g %.4g "
                           "%.4g</code></td>", c[0], c[1], c[2], e->color[0], e->color[1], e->color[2], e->color[3]);
            }
            if (e->depth_test)
                fprintf(f, "<td><code>%.6g %s %.6g</code></td>", e->depth, compare_op(e->depth_compare), e->depth_before);
            else
                fprintf(f, "<td class=\"muted\">off <code>(%.6g)</code></td>", e->depth);
        }
        fprintf(f, "<td><span class=\"badge%s\">%s</span></td><td>", event_ok(e->event) ? "" : " no",
                ws_gfx_probe_event_name(e->event));
        swatch(f, e->before);
        fprintf(f, "</td><td>");
        swatch(f, e->after);
        fprintf(f, "</td></tr>\n");
    }
    if (!h->n) fprintf(f, "<tr><td colspan=\"7\" class=\"muted\">No clear or draw touched this pixel.</td></tr>\n");
    fprintf(f, "</table></section>\n");
}

/* The pixel's outcome at call c, for the call's card. A call that writes
 * another target did not touch this pixel, which is not its to touch. */
static void card_badge(FILE *f, ws_replay *r, const ws_pixel_history *h, uint64_t c)
{
    const uint32_t t = ws_replay_target_id_at(r, c);
    if (t != h->target_id) {
        fprintf(f, "<span class=\"badge none\">another target: target %u (the pixel is of target %u)</span>", t,
                h->target_id);
        return;
    }
    int n = 0, ok = 0;
    for (size_t i = 0; i < h->n; i++)
        if (h->ev[i].call == c) { n++; ok += event_ok(h->ev[i].rec.event); }
    if (!n) fprintf(f, "<span class=\"badge none\">pixel not touched</span>");
    else fprintf(f, "<span class=\"badge%s\">pixel: %d fragment%s, %d written</span>", ok ? "" : " no", n,
                 n == 1 ? "" : "s", ok);
}

static ws_status write_page(FILE *f, report *rp, const ws_replay_html_options *o, const char *final_uri, uint32_t w,
                            uint32_t h, const uint8_t *final_px, const ws_pixel_history *hist)
{
    ws_replay *r = rp->r;
    uint64_t ncalls = ws_replay_call_count(r), count[7] = { 0 };
    for (uint64_t i = 0; i < ncalls; i++) {
        struct ws_replay_call_info ci;
        if (ws_replay_describe_call(r, i, &ci) == WS_OK && (unsigned)ci.kind < 7) count[ci.kind]++;
    }
    const char *title = o->title ? o->title : "Frame report";
    uint32_t top = WS_REPLAY_HTML_FINAL_Y + (h > 96 ? h : 96) + 8; /* room for the side text */
    /* a frame that draws nothing (compute) has no final image and no pixel */
    int drawn = final_uri && hist;
    /* the pixel may be of another target than the final image (--target) */
    int on_final = drawn && hist->target_id == rp->last_target;
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>");
    esc(f, title);
    fprintf(f, "</title>\n<style>\n%s</style></head>\n<body>\n<div id=\"top\" style=\"height:%upx\">\n", css, top);
    fprintf(f, "<div id=\"marker\" style=\"left:%dpx;top:%dpx;width:%dpx;height:%dpx\"></div>\n", WS_REPLAY_HTML_MARKER_X,
            WS_REPLAY_HTML_MARKER_Y, WS_REPLAY_HTML_MARKER_W, WS_REPLAY_HTML_MARKER_H);
    if (drawn)
        fprintf(f, "<div id=\"final\" style=\"left:%dpx;top:%dpx\"><img src=\"%s\" width=\"%u\" height=\"%u\" "
                   "alt=\"the render target at the end of the frame\"></div>\n",
                WS_REPLAY_HTML_FINAL_X, WS_REPLAY_HTML_FINAL_Y, final_uri, w, h);
    if (on_final) {
        /* the chosen pixel, pointed at from outside the image */
        fprintf(f, "<div class=\"tick\" style=\"left:%upx;top:%dpx;width:1px;height:6px\"></div>\n",
                WS_REPLAY_HTML_FINAL_X + hist->x, WS_REPLAY_HTML_FINAL_Y - 8);
        fprintf(f, "<div class=\"tick\" style=\"left:%dpx;top:%upx;width:6px;height:1px\"></div>\n",
                WS_REPLAY_HTML_FINAL_X - 8, WS_REPLAY_HTML_FINAL_Y + hist->y);
    }
    fprintf(f, "<div id=\"side\" style=\"left:%upx\"><h1>",
            WS_REPLAY_HTML_FINAL_X + (w > WS_REPLAY_HTML_MARKER_W ? w : WS_REPLAY_HTML_MARKER_W) + 32);
    esc(f, title);
    fprintf(f, "</h1>\n<p class=\"facts\">%" PRIu64 " call%s: %" PRIu64 " draw%s, %" PRIu64 " clear%s, %" PRIu64
               " launch%s, %" PRIu64 " cop%s.</p>\n",
            ncalls, ncalls == 1 ? "" : "s", count[WS_REPLAY_CALL_DRAW], count[WS_REPLAY_CALL_DRAW] == 1 ? "" : "s",
            count[WS_REPLAY_CALL_CLEAR], count[WS_REPLAY_CALL_CLEAR] == 1 ? "" : "s", count[WS_REPLAY_CALL_LAUNCH],
            count[WS_REPLAY_CALL_LAUNCH] == 1 ? "" : "es", count[WS_REPLAY_CALL_COPY],
            count[WS_REPLAY_CALL_COPY] == 1 ? "y" : "ies");
    if (drawn) {
        fprintf(f, "<p class=\"facts\">Render target %u at the end of the frame: %ux%u (left, 1:1; colour "
                   "channels).</p>\n", rp->last_target, w, h);
        if (on_final) fprintf(f, "<p class=\"facts\">Pixel (%u, %u), marked beside the image: ", hist->x, hist->y);
        else
            fprintf(f, "<p class=\"facts\">Pixel (%u, %u) of target %u (%ux%u, not the image shown): ", hist->x,
                    hist->y, hist->target_id, hist->w, hist->h);
        swatch(f, final_px);
        fprintf(f, " &mdash; <a href=\"#pixel\">history</a>, <a href=\"#draws\">draws</a>, ");
    } else {
        fprintf(f, "<p class=\"facts\">The frame draws into no render target.</p>\n<p class=\"facts\">");
    }
    if (rp->ntex) fprintf(f, "<a href=\"#textures\">textures</a>, ");
    fprintf(f, "<a href=\"#calls\">calls</a></p>\n");
    for (const char *l = rp->passed; *l;) {
        char line[1200];
        l = take_line(l, line, sizeof line);
        fprintf(f, "<p class=\"facts\">The frame's work failed, as when it was captured, and the replay went on: "
                   "<code>");
        esc(f, line);
        fprintf(f, "</code></p>\n");
    }
    if (rp->failure[0]) {
        fprintf(f, "<p class=\"facts\">The frame's work failed, as when it was captured, and the frame ends there: "
                   "<code>");
        esc(f, rp->failure);
        fprintf(f, "</code></p>\n");
    }
    fprintf(f, "</div></div>\n<main>\n");
    if (drawn) write_history(f, r, hist);

    fprintf(f, "<section id=\"draws\"><h2>The target after each clear and draw</h2>\n<div class=\"grid\">\n");
    for (size_t i = 0; i < rp->n; i++) {
        const shot *s = &rp->shots[i];
        struct ws_replay_call_info ci;
        if (ws_replay_describe_call(r, s->call, &ci) != WS_OK) continue;
        fprintf(f, "<div class=\"card\" id=\"call-%" PRIu64 "\">", s->call);
        if (s->uri) {
            fprintf(f, "<div class=\"thumb\"><img src=\"%s\" width=\"%u\" height=\"%u\" alt=\"the target after "
                       "call %" PRIu64 "\">", s->uri, s->dw, s->dh, s->call);
            if (hist && ws_replay_target_id_at(r, s->call) == hist->target_id) /* where the chosen pixel is */
                fprintf(f, "<span class=\"pin\" style=\"left:%dpx;top:%dpx\"></span>",
                        (int)((hist->x + 0.5) * s->dw / s->w) - 5, (int)((hist->y + 0.5) * s->dh / s->h) - 5);
            fprintf(f, "</div>");
        }
        else
            fprintf(f, "<p class=\"muted\">no render target bound</p>");
        if (ci.kind == WS_REPLAY_CALL_DRAW && ci.draw == WS_REPLAY_NO_DRAW)
            fprintf(f, "<h3>Call %" PRIu64 " &middot; empty draw</h3>", s->call);
        else if (ci.kind == WS_REPLAY_CALL_DRAW)
            fprintf(f, "<h3>Call %" PRIu64 " &middot; draw %u</h3>", s->call, ci.draw);
        else
            fprintf(f, "<h3>Call %" PRIu64 " &middot; clear</h3>", s->call);
        fprintf(f, "<code>");
        esc(f, ci.text);
        fprintf(f, "</code><div>");
        if (hist) card_badge(f, r, hist, s->call);
        fprintf(f, "</div><pre>");
        esc(f, s->state);
        fprintf(f, "</pre></div>\n");
    }
    if (!rp->n) fprintf(f, "<p class=\"muted\">The frame has no clears or draws.</p>\n");
    fprintf(f, "</div></section>\n");

    if (rp->ntex) {
        fprintf(f, "<section id=\"textures\"><h2>Textures at the end of the frame</h2>\n<div class=\"grid\">\n");
        for (size_t i = 0; i < rp->ntex; i++) {
            const tex_card *c = &rp->tex[i];
            fprintf(f, "<div class=\"card\" id=\"texture-%u\"><div class=\"thumb\"><img src=\"%s\" width=\"%u\" "
                       "height=\"%u\" alt=\"texture %u, level 0\"></div><h3>Texture %u</h3><p>%ux%u, %u level%s "
                       "(level 0 shown)</p></div>\n",
                    c->id, c->uri, c->dw, c->dh, c->id, c->id, c->w, c->h, c->levels, c->levels == 1 ? "" : "s");
        }
        fprintf(f, "</div></section>\n");
    }

    fprintf(f, "<section id=\"calls\"><h2>Calls</h2>\n<table><tr><th>#</th><th>Kind</th><th>Call</th></tr>\n");
    for (uint64_t i = 0; i < ncalls; i++) {
        struct ws_replay_call_info ci;
        if (ws_replay_describe_call(r, i, &ci) != WS_OK)
            return rt_fail(rp->err, rp->errlen, WS_ERR_INTERNAL, "report: %s", ws_replay_error(r));
        int work = ci.kind == WS_REPLAY_CALL_DRAW || ci.kind == WS_REPLAY_CALL_CLEAR;
        if (work)
            fprintf(f, "<tr class=\"work\"><td><a href=\"#call-%" PRIu64 "\">%" PRIu64 "</a></td>", i, i);
        else
            fprintf(f, "<tr><td>%" PRIu64 "</td>", i);
        fprintf(f, "<td>%s</td><td><code>", kind_name(ci.kind));
        esc(f, ci.text);
        fprintf(f, "</code></td></tr>\n");
    }
    fprintf(f, "</table></section>\n</main>\n</body></html>\n");
    return WS_OK;
}

static ws_status make_dir(const char *dir, char *err, size_t errlen)
{
    struct stat sb;
    if (stat(dir, &sb) == 0) {
        if (S_ISDIR(sb.st_mode)) return WS_OK;
        return rt_fail(err, errlen, WS_ERR_IO, "report: %s exists and is not a directory", dir);
    }
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return rt_fail(err, errlen, WS_ERR_IO, "report: cannot make directory %s: %s", dir, strerror(errno));
    return WS_OK;
}

ws_status ws_replay_html(ws_replay *r, const char *dir, const ws_replay_html_options *opt, char *err, size_t errlen)
{
    ws_replay_html_options o = { 0 };
    if (opt) o = *opt;
    if (!r || !dir || !*dir) return rt_fail(err, errlen, WS_ERR_INVALID_ARG, "report: no replay or no directory");
    report rp = { .r = r, .dev = ws_replay_device(r), .thumb = o.thumb_size ? o.thumb_size : 160, .st = WS_OK,
                  .err = err, .errlen = errlen };
    ws_pixel_history hist = { 0 };
    char *final_uri = NULL, *path = NULL, *tmp = NULL;
    uint8_t *img = NULL;
    FILE *f = NULL;
    uint32_t w = 0, h = 0;
    ws_status st = make_dir(dir, err, errlen);
    if (st != WS_OK) return st;
    if (ws_replay_restore(r) != WS_OK) return rt_fail(err, errlen, WS_ERR_INTERNAL, "report: %s", ws_replay_error(r));
    st = ws_replay_run(r, 0, UINT64_MAX, take_shot, &rp);
    if (rp.st != WS_OK) { st = rp.st; goto out; }
    if (st != WS_OK && ws_replay_frame_failure(st) && !rp.failure[0]) /* seen where no clear or draw waited */
        snprintf(rp.failure, sizeof rp.failure, "%s", ws_replay_error(r));
    if (rp.failure[0]) st = WS_OK;
    if (st != WS_OK) { st = rt_fail(err, errlen, rt_replay_failed(st), "report: %s", ws_replay_error(r)); goto out; }
    ws_replay_failures_text(r, rp.passed, sizeof rp.passed);
    if ((st = collect_textures(&rp)) != WS_OK) goto out;
    /* the final image: the last target drawn to, as the frame leaves it,
     * or as its last clear or draw left it when the frame destroyed it
     * (by capture id: a destroyed target's handle is freed) */
    ws_gfx_target *final = ws_replay_target_by_id(r, rp.last_target);
    if (rp.last_target) {
        w = rp.shots[rp.n - 1].w, h = rp.shots[rp.n - 1].h;
        for (size_t i = rp.n; i-- > 0;)
            if (rp.shots[i].call == rp.last_call) { w = rp.shots[i].w; h = rp.shots[i].h; break; }
        img = rp.last_img;
        rp.last_img = NULL;
    }
    /* (after a failure the frame ended at it: the last image is its end) */
    if (final && !rp.failure[0] && ws_gfx_target_read(rp.dev, final, img, (size_t)w * h * 4) != WS_OK) {
        st = rt_fail(err, errlen, WS_ERR_INTERNAL, "report: reading the final render target: %s", ws_last_error(rp.dev));
        goto out;
    }
    if (rp.last_target) {
        if ((st = ws_image_png_uri(img, w, h, 1, &final_uri, err, errlen)) != WS_OK) goto out;
        const uint64_t at = o.target_set ? o.target_call : rp.last_call;
        uint32_t tw = w, th = h; /* the centre of the pixel's target by default */
        if (o.target_set && ws_replay_target_size(r, ws_replay_target_id_at(r, at), &tw, &th) != WS_OK) tw = th = 0;
        if (!o.pixel_set) { o.pixel_x = tw / 2; o.pixel_y = th / 2; }
        st = ws_replay_pixel_collect(r, o.pixel_x, o.pixel_y, at, &hist, err, errlen);
        if (st != WS_OK) goto out;
    } else if (o.pixel_set) {
        st = rt_fail(err, errlen, WS_ERR_INVALID_ARG, "report: pixel (%u,%u) asked for, but the frame draws into no render "
                  "target", o.pixel_x, o.pixel_y);
        goto out;
    }
    size_t plen = strlen(dir) + 32;
    path = malloc(plen);
    tmp = malloc(plen);
    if (!path || !tmp) { st = rt_fail(err, errlen, WS_ERR_OUT_OF_MEMORY, "report: out of host memory"); goto out; }
    snprintf(path, plen, "%s/index.html", dir);
    snprintf(tmp, plen, "%s/.index.html.tmp", dir);
    if (!(f = fopen(tmp, "w"))) {
        st = rt_fail(err, errlen, WS_ERR_IO, "report: cannot write %s: %s", tmp, strerror(errno));
        goto out;
    }
    /* the pixel's final colour: from the final image when it is of that
     * target, else as its history leaves it */
    const uint8_t *final_px = !img ? NULL
                              : hist.target_id == rp.last_target ? img + ((size_t)hist.y * w + hist.x) * 4
                              : hist.final_known ? hist.final
                              : hist.n ? hist.ev[hist.n - 1].rec.after : hist.initial;
    st = write_page(f, &rp, &o, final_uri, w, h, final_px, img ? &hist : NULL);
    int bad = ferror(f);
    if (fclose(f) != 0) bad = 1;
    f = NULL;
    if (st == WS_OK && bad) st = rt_fail(err, errlen, WS_ERR_IO, "report: writing %s failed", tmp);
    if (st == WS_OK && rename(tmp, path) != 0)
        st = rt_fail(err, errlen, WS_ERR_IO, "report: cannot rename %s to %s: %s", tmp, path, strerror(errno));
    if (st != WS_OK) remove(tmp);
out:
    free(rp.last_img);
    for (size_t i = 0; i < rp.n; i++) free(rp.shots[i].uri);
    free(rp.shots);
    for (size_t i = 0; i < rp.ntex; i++) free(rp.tex[i].uri);
    free(rp.tex);
    ws_pixel_history_free(&hist);
    free(final_uri);
    free(img);
    free(path);
    free(tmp);
    return st;
}
