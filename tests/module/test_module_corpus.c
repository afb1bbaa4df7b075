/* Replays every file of the fuzz corpus (fuzz/module/corpus) through the
 * module parser, so inputs that once crashed it are checked in every build,
 * not only when the fuzzer runs. Each must parse into a consistent image,
 * or fail with a message that starts with its name.
 *
 * usage: test_module_corpus CORPUS_DIR  */
#include <dirent.h>
#include "instrument/epilogue_cfi.h"
#include "instrument/rewrite.h"
#include "runtime/func_symbols.h"
#include "runtime/issue_order.h"
#include "module_check.h"
#include "module_util.h"
#include "runtime/elf_image.h"
#include "test.h"

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
        return 2;
    }
    DIR *dir = opendir(argv[1]);
    CHECK(dir != NULL);
    if (!dir) { perror(argv[1]); return TEST_SUMMARY(); }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(dir))) {
        if (e->d_name[0] == '.') continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **nn = realloc(names, cap * sizeof *nn);
            if (!nn) break;
            names = nn;
        }
        if (!(names[n] = strdup(e->d_name))) break;
        n++;
    }
    closedir(dir);
    if (n) qsort(names, n, sizeof *names, by_name);
    CHECK(n >= 5);
    unsigned ok = 0, rejected = 0;
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[1], names[i]);
        size_t len;
        uint8_t *data = mod_read_file(path, &len);
        CHECK(data != NULL);
        if (!data) continue;
        ws_elf_image img;
        char err[512];
        if (ws_elf_parse(data, len, path, &img, err, sizeof err) == 0) {
            ok++;
            CHECK_EQ_U(mod_check_image(&img, path, 1), 0);
            CHECK_EQ_U(mod_check_lines(data, len, &img, path, 1), 0);
            CHECK_EQ_U(mod_check_rewrite(data, len, path, 1), 0);
            CHECK_EQ_U(mod_check_order(data, len, &img, path, 1), 0);
            CHECK_EQ_U(mod_check_epilogue_cfi(data, len, &img, path, 1), 0);
            CHECK(ws_elf_relocate(&img, 0x02345800u, err, sizeof err) == 0 || err[0]);
            ws_elf_free(&img);
            printf("%-40s accepted\n", names[i]);
        } else {
            rejected++;
            CHECK(!strncmp(err, path, strlen(path)) && !strncmp(err + strlen(path), ": ", 2));
            printf("%-40s %s\n", names[i], err + strlen(path) + 2);
        }
        free(data);
    }
    for (size_t i = 0; i < n; i++) free(names[i]);
    free(names);
    printf("%u accepted, %u rejected\n", ok, rejected);
    CHECK(ok > 0);
    return TEST_SUMMARY();
}
