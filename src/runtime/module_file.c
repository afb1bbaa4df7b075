/* Module files: one reader with one set of limits (module_file.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "runtime/module_file.h"

ws_status ws_module_file_read(const char *path, uint8_t **data, size_t *len, char *err, size_t errlen)
{
    *data = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return errno == ENOENT ? WS_ERR_NOT_FOUND : WS_ERR_IO;
    }
    struct stat sb;
    if (fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode)) {
        fclose(f);
        snprintf(err, errlen, "%s: is a directory, not a module file", path);
        return WS_ERR_BAD_MODULE;
    }
    /* Read in growing chunks, so a device or pipe without a size (/dev/zero)
     * stops at the limit instead of filling the host's memory. */
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0;
    ws_status st = WS_OK;
    for (;;) {
        if (n == cap) {
            if (cap >= WS_MODULE_FILE_MAX) {
                snprintf(err, errlen, "%s: larger than %u MiB; not a kernel module", path, WS_MODULE_FILE_MAX >> 20);
                st = WS_ERR_BAD_MODULE;
                break;
            }
            size_t ncap = cap ? cap * 2 : 1 << 16;
            uint8_t *nb = realloc(buf, ncap);
            if (!nb) {
                snprintf(err, errlen, "%s: out of host memory after %zu bytes", path, n);
                st = WS_ERR_OUT_OF_MEMORY;
                break;
            }
            buf = nb;
            cap = ncap;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (n >= 4 && n == r && memcmp(buf, "\177ELF", 4) != 0) { /* first chunk: no need to read on */
            snprintf(err, errlen, "%s: not an ELF file (bad magic)", path);
            st = WS_ERR_BAD_MODULE;
            break;
        }
        if (r == 0) {
            if (ferror(f)) {
                snprintf(err, errlen, "%s: read error after %zu bytes: %s", path, n, strerror(errno));
                st = WS_ERR_IO;
            }
            break;
        }
    }
    fclose(f);
    if (st != WS_OK) {
        free(buf);
        return st;
    }
    *data = buf;
    *len = n;
    return WS_OK;
}
