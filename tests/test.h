/* Minimal test harness: CHECK records a failure and goes on; a test binary
 * prints "N passed, N failed" and exits non-zero on any failure. */
#ifndef WS_TEST_H
#define WS_TEST_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ws_test_passed, ws_test_failed;

#define CHECK(cond) do { if (cond) ws_test_passed++; else { ws_test_failed++; \
    fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); } } while (0)
#define CHECK_EQ_U(a, b) do { unsigned long long _a = (unsigned long long)(a), _b = (unsigned long long)(b); \
    if (_a == _b) ws_test_passed++; else { ws_test_failed++; \
    fprintf(stderr, "%s:%d: CHECK_EQ failed: %s == 0x%llx, expected %s == 0x%llx\n", \
            __FILE__, __LINE__, #a, _a, #b, _b); } } while (0)
#define CHECK_STR_CONTAINS(hay, needle) do { const char *_h = (hay); \
    if (_h && strstr(_h, (needle))) ws_test_passed++; else { ws_test_failed++; \
    fprintf(stderr, "%s:%d: expected \"%s\" to contain \"%s\"\n", __FILE__, __LINE__, \
            _h ? _h : "(null)", (needle)); } } while (0)
/* The whole file in a malloc'd buffer (NULL if unreadable); *len = size. */
static inline unsigned char *ws_test_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    long n = -1;
    unsigned char *buf = NULL;
    *len = 0;
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)n)) && fread(buf, 1, (size_t)n, f) == (size_t)n)
        *len = (size_t)n;
    else {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    return buf;
}

#define TEST_SUMMARY() (printf("%d passed, %d failed\n", ws_test_passed, ws_test_failed), \
                        ws_test_failed ? 1 : 0)
#endif
