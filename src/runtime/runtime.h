/* Runtime-internal types: modules and kernels as handed out by the API. */
#ifndef WS_RUNTIME_RUNTIME_H
#define WS_RUNTIME_RUNTIME_H
#include "device/device.h"
#include "runtime/elf_image.h"

struct ws_kernel {
    struct ws_module *mod;
    const ws_elf_kernel *meta;   /* name, parameters (from DWARF)          */
    uint32_t entry;              /* device address after relocation       */
};

struct ws_module {
    ws_device *dev;
    char *name;                  /* file path or caller-given name        */
    ws_elf_image img;
    uint32_t base, size;         /* where the image lives on the device    */
    ws_kernel *kernels;
    void *elf;                   /* the ELF file as loaded (for debuggers) */
    uint32_t link_base;          /* address the image was linked at         */
    size_t elf_size;
};

#endif
