/* The frame report (src/capture/replay_html.c) in a real browser: the page
 * for the test frame (pixel_scene.c, written as a capture file and opened
 * with the replayer) is rendered by headless Chromium
 * and the screenshot is checked where the page promises fixed pixels: the
 * marker (a solid block of a known colour) and, at a fixed offset from
 * it, the final render target at 1:1, which must equal the replay's own
 * read-back of the target (colour channels, within 1/255). Text is not
 * compared, so fonts do not matter. The page must also be self-contained
 * and carry the call list, state and pixel history.
 * usage: test_pixel_html gfx_shaders.elf WORKDIR (exit 77: no chromium) */
#include <errno.h>
#include <ftw.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../test.h"
#include "capture/replay_html.h"
#include "pixel_scene.h"

#define NPX (SCENE_W * SCENE_H)

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb; (void)flag; (void)ftw;
    return remove(p);
}

static void rm_tree(const char *dir) { nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS); }

/* The browser: $CHROMIUM, else chromium or chromium-browser on PATH. */
static const char *find_chromium(char *buf, size_t len)
{
    const char *env = getenv("CHROMIUM");
    if (env && *env) return env;
    const char *path = getenv("PATH");
    const char *names[] = { "chromium", "chromium-browser" };
    for (size_t n = 0; n < 2; n++)
        for (const char *p = path; p && *p;) {
            const char *end = strchr(p, ':');
            size_t l = end ? (size_t)(end - p) : strlen(p);
            snprintf(buf, len, "%.*s/%s", (int)l, p, names[n]);
            if (access(buf, X_OK) == 0) return buf;
            p = end ? end + 1 : NULL;
        }
    return NULL;
}

/* Run argv with output to log; its exit status or -1. */
static int run(char *const argv[], const char *log)
{
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        FILE *f = freopen(log, "w", stdout);
        if (f) dup2(fileno(f), 2);
        execvp(argv[0], argv);
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static uint8_t *read_png(const char *path, uint32_t *w, uint32_t *h)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&img, path)) return NULL;
    img.format = PNG_FORMAT_RGBA;
    uint8_t *px = malloc(PNG_IMAGE_SIZE(img));
    if (!px || !png_image_finish_read(&img, NULL, px, 0, NULL)) { free(px); png_image_free(&img); return NULL; }
    *w = img.width;
    *h = img.height;
    return px;
}

static int is_marker(const uint8_t *p)
{
    const uint32_t m = WS_REPLAY_HTML_MARKER_RGB;
    return p[0] == (m >> 16 & 255) && p[1] == (m >> 8 & 255) && p[2] == (m & 255);
}

/* Colour channels of the w x h block at (x0, y0) of the screenshot vs img: mismatching pixels. */
static long compare(const uint8_t *shot, uint32_t sw, uint32_t sh, uint32_t x0, uint32_t y0, const uint8_t *img)
{
    if (x0 + SCENE_W > sw || y0 + SCENE_H > sh) return -1;
    long bad = 0;
    for (uint32_t y = 0; y < SCENE_H; y++)
        for (uint32_t x = 0; x < SCENE_W; x++) {
            const uint8_t *a = shot + ((size_t)(y0 + y) * sw + x0 + x) * 4, *b = img + ((size_t)y * SCENE_W + x) * 4;
            for (int k = 0; k < 3; k++)
                if (abs(a[k] - b[k]) > 1) { bad++; break; }
        }
    return bad;
}

typedef struct frames { uint8_t (*rgba)[NPX * 4]; } frames;

/* The target after every call (left zero before it exists). */
static int grab(void *user, ws_replay *r, uint64_t index)
{
    frames *fr = user;
    ws_gfx_target *t = ws_replay_target_at(r, index);
    if (t) ws_gfx_target_read(ws_replay_device(r), t, fr->rgba[index], NPX * 4);
    return 0;
}

static void check_page(const char *path)
{
    size_t len;
    char *page = (char *)ws_test_read_file(path, &len);
    CHECK(page != NULL);
    if (!page) return;
    char *text = malloc(len + 1);
    memcpy(text, page, len);
    text[len] = 0;
    free(page);
    /* self-contained: every image inline, nothing fetched */
    int imgs = 0, inline_imgs = 0;
    for (const char *p = text; (p = strstr(p, "<img ")); p++) {
        imgs++;
        inline_imgs += strncmp(p, "<img src=\"data:image/png;base64,", 32) == 0;
    }
    CHECK(imgs == 9 && inline_imgs == imgs); /* the final target and 8 cards */
    CHECK(!strstr(text, "http:") && !strstr(text, "https:") && !strstr(text, "<script") && !strstr(text, "<link"));
    CHECK_STR_CONTAINS(text, "Pixel (10, 12) of target ");
    CHECK_STR_CONTAINS(text, "failed the early depth test");
    CHECK_STR_CONTAINS(text, "vs=ref_vs fs=discard_fs");
    CHECK_STR_CONTAINS(text, "<code>ws_gfx_draw(6 vertices, 1 instances, first 15, first instance 0) draw 5</code>");
    CHECK_STR_CONTAINS(text, "<td>copy</td><td><code>ws_memset(0x01201020, 94, 16)</code>");
    free(text);
}

int main(int argc, char **argv)
{
    if (argc != 3) { fprintf(stderr, "usage: test_pixel_html gfx_shaders.elf WORKDIR\n"); return 2; }
    char chrome_buf[4096];
    const char *chrome = find_chromium(chrome_buf, sizeof chrome_buf);
    if (!chrome) {
        printf("SKIP: chromium is not installed (scripts/bootstrap.sh installs Debian's chromium)\n");
        return 77;
    }
    const char *work = argv[2];
    char dir[4096], page[4200], shot_path[4200], profile[4200], log[4200], url[4300], cap[4200];
    mkdir(work, 0777);
    snprintf(cap, sizeof cap, "%s/scene.wscap", work);
    snprintf(dir, sizeof dir, "%s/report", work);
    snprintf(page, sizeof page, "%s/index.html", dir);
    snprintf(shot_path, sizeof shot_path, "%s/shot.png", work);
    snprintf(log, sizeof log, "%s/chromium.log", work);
    remove(shot_path);

    ws_replay *r;
    char err[512];
    if (scene_write_capture(cap, argv[1], err, sizeof err) ||
        ws_replay_open(cap, NULL, &r, err, sizeof err) != WS_OK) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    ws_replay_html_options o = { .pixel_set = 1, .pixel_x = SCENE_PX, .pixel_y = SCENE_PY, .title = "Pixel test frame" };
    CHECK(ws_replay_html(r, dir, &o, err, sizeof err) == WS_OK);
    check_page(page);
    /* the replay's own images: after every call, and the final one */
    uint64_t ncalls = ws_replay_call_count(r);
    frames fr = { calloc(ncalls, sizeof *fr.rgba) };
    CHECK(fr.rgba && ws_replay_restore(r) == WS_OK && ws_replay_run(r, 0, UINT64_MAX, grab, &fr) == WS_OK);
    if (!fr.rgba) return 1;
    uint8_t *final = fr.rgba[ncalls - 1];

    /* bad input: a pixel outside the target, a directory that is a file */
    o.pixel_x = 99;
    CHECK(ws_replay_html(r, dir, &o, err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "outside the 32x32");
    CHECK(ws_replay_html(r, page, NULL, err, sizeof err) == WS_ERR_IO);
    CHECK_STR_CONTAINS(err, "is not a directory");

    snprintf(profile, sizeof profile, "%s/profile-XXXXXX", work);
    if (!mkdtemp(profile)) { perror("mkdtemp"); return 1; }
    char user_dir[4300], shot_arg[4300], size_arg[64];
    snprintf(user_dir, sizeof user_dir, "--user-data-dir=%s", profile);
    snprintf(shot_arg, sizeof shot_arg, "--screenshot=%s", shot_path);
    snprintf(size_arg, sizeof size_arg, "--window-size=%d,%d", 900, WS_REPLAY_HTML_FINAL_Y + SCENE_H + 200);
    char abs_page[4096];
    if (!realpath(page, abs_page)) { perror(page); return 1; }
    snprintf(url, sizeof url, "file://%s", abs_page);
    char *args[] = { "timeout", "60", (char *)chrome, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                     "--no-first-run", "--disable-background-networking", "--disable-component-update",
                     "--disable-sync", "--hide-scrollbars", "--force-device-scale-factor=1", user_dir, shot_arg,
                     size_arg, url, NULL };
    /* the browser's crash-report settings and dconf cache go to the
     * profile, which is removed, not into the user's home (~/.config/chromium,
     * ~/.cache/dconf were left behind by every run) */
    setenv("HOME", profile, 1);
    setenv("XDG_CONFIG_HOME", profile, 1);
    setenv("XDG_CACHE_HOME", profile, 1);
    int rc = run(args, log);
    rm_tree(profile);
    CHECK_EQ_U(rc, 0);
    uint32_t sw = 0, sh = 0;
    uint8_t *shot = read_png(shot_path, &sw, &sh);
    CHECK(shot != NULL);
    if (!shot) { fprintf(stderr, "no screenshot; see %s\n", log); return TEST_SUMMARY(); }

    /* the marker: the first pixel of its colour, then the whole block */
    long mx = -1, my = -1;
    for (uint32_t y = 0; y < sh && mx < 0; y++)
        for (uint32_t x = 0; x < sw; x++)
            if (is_marker(shot + ((size_t)y * sw + x) * 4)) { mx = x; my = y; break; }
    CHECK(mx == WS_REPLAY_HTML_MARKER_X && my == WS_REPLAY_HTML_MARKER_Y);
    int block = mx >= 0;
    for (long y = my; block && y < my + WS_REPLAY_HTML_MARKER_H; y++)
        for (long x = mx; x < mx + WS_REPLAY_HTML_MARKER_W; x++)
            if ((uint32_t)x >= sw || (uint32_t)y >= sh || !is_marker(shot + ((size_t)y * sw + x) * 4)) block = 0;
    CHECK(block);
    if (mx >= 0) { /* just outside the block is not marker-coloured */
        CHECK(!is_marker(shot + ((size_t)my * sw + mx + WS_REPLAY_HTML_MARKER_W) * 4));
        CHECK(!is_marker(shot + ((size_t)(my + WS_REPLAY_HTML_MARKER_H) * sw + mx) * 4));
    }
    /* the final target at its fixed offset from the marker, 1:1 */
    uint32_t fx = (uint32_t)(mx + WS_REPLAY_HTML_FINAL_X - WS_REPLAY_HTML_MARKER_X);
    uint32_t fy = (uint32_t)(my + WS_REPLAY_HTML_FINAL_Y - WS_REPLAY_HTML_MARKER_Y);
    long bad = compare(shot, sw, sh, fx, fy, final);
    if (bad) fprintf(stderr, "final target: %ld of %d pixels differ in the screenshot (%s)\n", bad, NPX, shot_path);
    CHECK_EQ_U(bad, 0);
    /* the comparison can fail: the target after the first draw (all red) differs */
    CHECK(compare(shot, sw, sh, fx, fy, fr.rgba[SCENE_CAPTURE_PREFIX + 3]) > NPX / 2);
    /* and the image is where it is, not one pixel off */
    CHECK(compare(shot, sw, sh, fx + 1, fy, final) != 0 || compare(shot, sw, sh, fx, fy + 1, final) != 0);
    free(shot);
    free(fr.rgba);
    ws_replay_close(r);
    return TEST_SUMMARY();
}
