/* Runtime API misuse with a module at hand: caller-chosen addresses
 * (ws_malloc_at, ws_module_load_data_at) and stale or NULL handles. Each
 * error is the documented status with a message about what was wrong.
 * usage: test_api_handles MODULE.elf */
#include <elf.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include "warpscope/warpscope.h"
#include "../test.h"

/* A bad address is a bad argument, not a full device: a replayer must tell
 * a broken capture from a small global_mem_limit. */
static void placement(const unsigned char *elf, size_t elf_size)
{
    ws_device *dev;
    ws_module *m;
    CHECK(ws_device_open(NULL, &dev) == WS_OK); /* 256 MiB: [0x01000000, 0x11000000) */
    CHECK(ws_malloc_at(dev, 0x01000001, 16) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "ws_malloc_at(0x01000001, 16): address 0x01000001 is not 256-byte aligned");
    CHECK(ws_malloc_at(dev, 0x20000000, 16) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "ws_malloc_at(0x20000000, 16): [0x20000000, 0x20000010) is outside "
                       "the global arena [0x01000000, 0x11000000)");
    CHECK(ws_malloc_at(dev, 0xFFFFFF00u, 0x1000) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "outside the global arena");
    CHECK(ws_malloc_at(dev, 0x10FFFF00u, 0x200) == WS_ERR_INVALID_ARG); /* runs past the end */
    CHECK_STR_CONTAINS(ws_last_error(dev), "ws_malloc_at(0x10ffff00, 512): size too large: from 0x10ffff00 the "
                       "global arena [0x01000000, 0x11000000) (global_mem_limit=268435456) has room for 256 bytes");
    /* a size whose end wraps: named as too large, not as the range
     * [0x01000000, 0x00ffffff) (until 2026-11-29) */
    CHECK(ws_malloc_at(dev, 0x01000000, SIZE_MAX) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "size too large: from 0x01000000 the global arena [0x01000000, "
                       "0x11000000) (global_mem_limit=268435456) has room for 268435456 bytes");
    CHECK(ws_malloc_at(dev, 0x100, 16) == WS_ERR_INVALID_ARG);
    /* a taken range is still "no room", and says what is in the way */
    CHECK(ws_malloc_at(dev, 0x01001000, 4096) == WS_OK);
    CHECK(ws_malloc_at(dev, 0x01000800, 4096) == WS_ERR_OUT_OF_MEMORY);
    CHECK_STR_CONTAINS(ws_last_error(dev), "the range is not free: it overlaps the 4096-byte allocation at 0x01001000");
    CHECK(ws_free(dev, 0x01001000) == WS_OK);

    CHECK(ws_module_load_data_at(dev, elf, elf_size, "api.elf", 0x02000001, &m) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "ws_module_load_data_at(api.elf): address 0x02000001 is not 256-byte aligned");
    CHECK(ws_module_load_data_at(dev, elf, elf_size, "api.elf", 0xFFFFF000u, &m) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "ws_module_load_data_at(api.elf): [0xfffff000, ");
    CHECK(ws_module_load_data_at(dev, elf, elf_size, "api.elf", 0x02000000, &m) == WS_OK);
    ws_addr base = 0;
    uint32_t size = 0;
    CHECK(ws_module_base(m, &base, &size) == WS_OK && base == 0x02000000);
    CHECK(ws_device_close(dev) == WS_OK);
}

/* After ws_module_unload, its kernels' handles are refused with a message
 * (docs/api.md, "Handles"), by the queries as by ws_launch. */
static void stale_kernel(const unsigned char *elf, size_t elf_size)
{
    ws_device *dev;
    ws_module *m;
    ws_kernel *k = NULL;
    const char *pn = NULL, *pt = NULL;
    ws_param_type t;
    CHECK(ws_device_open(NULL, &dev) == WS_OK);
    CHECK(ws_module_load_data(dev, elf, elf_size, "api.elf", &m) == WS_OK);
    CHECK(ws_kernel_get(m, "fill", &k) == WS_OK);
    CHECK(ws_kernel_param(k, 1, &pn, &pt) == WS_OK && !strcmp(pn, "n") && !strcmp(pt, "int"));
    CHECK(ws_kernel_param_type(k, 1, &t) == WS_OK && t.arg == WS_TYPE_I32);
    CHECK(ws_module_unload(dev, m) == WS_OK);
    CHECK(ws_kernel_param(k, 1, &pn, &pt) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "ws_kernel_param: kernel 'fill' belongs to module 'api.elf', which was unloaded");
    CHECK(ws_kernel_param_type(k, 1, &t) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "ws_kernel_param_type: kernel 'fill' belongs to module 'api.elf', which was unloaded");
    CHECK(!strcmp(ws_kernel_name(k), "fill")); /* no status to give: still answers */
    CHECK(ws_device_close(dev) == WS_OK);
}

/* A copy may read a loaded module's image: the host loaded those bytes,
 * and a tool reading a module's instructions (an opcode histogram) needs
 * them. Until 2026-11-29 the read was refused as "read-only", a write's
 * reason. Writes into it stay refused. */
static void module_reads(const unsigned char *elf, size_t elf_size)
{
    ws_device *dev;
    ws_module *m;
    ws_addr base = 0, buf = 0;
    uint32_t size = 0;
    char want[256];
    CHECK(ws_device_open(NULL, &dev) == WS_OK);
    CHECK(ws_module_load_data(dev, elf, elf_size, "api.elf", &m) == WS_OK);
    CHECK(ws_module_base(m, &base, &size) == WS_OK && size > 0);
    unsigned char *img = calloc(size, 1), *back = calloc(size, 1);
    CHECK(img && back);
    if (!img || !back) return;
    CHECK(ws_memcpy_dtoh(dev, img, base, size) == WS_OK);
    /* its code is the file's executable segment, as linked (it is loaded
     * at its link address, the arena's start) */
    const Elf32_Ehdr *eh = (const Elf32_Ehdr *)elf;
    int code_seen = 0;
    for (unsigned i = 0; i < eh->e_phnum; i++) {
        const Elf32_Phdr *ph = (const Elf32_Phdr *)(elf + eh->e_phoff + (size_t)i * eh->e_phentsize);
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X) || !ph->p_filesz) continue;
        code_seen = 1;
        CHECK(ph->p_vaddr >= base && ph->p_vaddr - base + ph->p_filesz <= size);
        CHECK(!memcmp(img + (ph->p_vaddr - base), elf + ph->p_offset, ph->p_filesz));
    }
    CHECK(code_seen);
    /* a device-to-device copy reads it too */
    CHECK(ws_malloc(dev, size, &buf) == WS_OK);
    CHECK(ws_memcpy_dtod(dev, buf, base, size) == WS_OK);
    CHECK(ws_memcpy_dtoh(dev, back, buf, size) == WS_OK);
    CHECK(!memcmp(img, back, size));
    /* past its end, and writes: refused, saying so */
    CHECK(ws_memcpy_dtoh(dev, back, base + size - 4, 8) == WS_ERR_BAD_ADDRESS);
    snprintf(want, sizeof want, "ws_memcpy_dtoh: read of 8 bytes at 0x%08x runs 4 bytes past the end of the %u-byte "
             "module image at 0x%08x", base + size - 4, size, base);
    CHECK(!strcmp(ws_last_error(dev), want));
    CHECK(ws_memcpy_htod(dev, base, img, 4) == WS_ERR_BAD_ADDRESS);
    snprintf(want, sizeof want, "ws_memcpy_htod: write of 4 bytes at 0x%08x: read-only: 0 bytes into the "
             "code/constant data of the module image at 0x%08x", base, base);
    CHECK(!strcmp(ws_last_error(dev), want));
    CHECK(ws_memcpy_dtod(dev, base, buf, 4) == WS_ERR_BAD_ADDRESS);
    CHECK_STR_CONTAINS(ws_last_error(dev), "ws_memcpy_dtod (destination): write of 4 bytes at");
    /* once unloaded, it is gone */
    CHECK(ws_module_unload(dev, m) == WS_OK);
    CHECK(ws_memcpy_dtoh(dev, back, base, 4) == WS_ERR_BAD_ADDRESS);
    CHECK_STR_CONTAINS(ws_last_error(dev), "use after free: 0 bytes into the freed");
    free(img);
    free(back);
    CHECK(ws_device_close(dev) == WS_OK);
}

int main(int argc, char **argv)
{
    if (argc != 2) { fprintf(stderr, "usage: %s MODULE.elf\n", argv[0]); return 2; }
    size_t elf_size = 0;
    unsigned char *elf = ws_test_read_file(argv[1], &elf_size);
    CHECK(elf != NULL);
    if (!elf) return TEST_SUMMARY();
    placement(elf, elf_size);
    stale_kernel(elf, elf_size);
    module_reads(elf, elf_size);
    free(elf);
    return TEST_SUMMARY();
}
