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
    int unloaded;                /* handle kept after ws_module_unload so
                                    later use gets an error, not a crash */
    int unnamed;                 /* loaded from memory without a name: named
                                    "<memory>", "<memory 2>", ... */
};

/* Is mod / k a live handle of dev? Sets dev's error naming fn and returns
 * WS_ERR_INVALID_ARG when it belongs to another device or its module was
 * unloaded. */
ws_status ws_module_check(ws_device *dev, const struct ws_module *mod, const char *fn);
ws_status ws_kernel_check(ws_device *dev, const struct ws_kernel *k, const char *fn);
/* A caller-chosen place in the global arena (ws_malloc_at,
 * ws_module_load_data_at): WS_ERR_INVALID_ARG with a message starting with
 * `what` unless [addr, addr + size) is inside the arena and addr is 256-byte
 * aligned. A bad address is the caller's mistake, not a full device. */
ws_status ws_check_placement(ws_device *dev, const char *what, ws_addr addr, uint64_t size);
/* Device close: unload every module and free the handles kept by
 * ws_module_unload. */
void ws_modules_release_all(ws_device *dev);

/* A module placed by a tool (the tracer's instrumented copies): resident,
 * relocated and in the device's code table (fault reports and the
 * debugger see its lines), but not in the program's module list and
 * announced to no tool. `orig`: where its original instructions lie
 * ([lo, hi) link-address pairs, norig of them, wsi_module_info), its
 * other code inserted (left out of warp quanta); NULL, 0: none. No API lock and no queue drain: for use inside a
 * tool callback. Unload before the device closes. */
ws_status ws_module_load_twin(ws_device *dev, const void *image, size_t size, const char *name,
                              const uint32_t *orig, uint32_t norig, struct ws_module **out);
void ws_module_unload_twin(ws_device *dev, struct ws_module *m);

/* The checks of ws_config_validate (config.c, beside ws_config_parse,
 * which applies the same limits as it reads each setting): 0, or -1 with
 * a message naming the setting and its value. */
int ws_config_check(const ws_config *c, char *err, size_t len);
/* $WARPSCOPE_THREADS read as a `threads=` value of configuration text
 * (one reader for both: decimal or 0x hex, 0 to 256); 0 when it is unset
 * or holds what the text would refuse (the default then applies). */
uint32_t ws_config_threads_from_env(void);

/* Open a device with no tool attached: the public ws_device_open
 * (src/attach) adds the tools the environment asks for. */
ws_status ws_runtime_device_open(const ws_config *cfg, ws_device **out);
/* Grow the global arena to `limit` bytes (capped at the whole global
 * range) while nothing is allocated or decoded yet: tools whose buffers
 * live in device memory (the tracer, the event watcher, the profiler)
 * make room for them at its top (ws_mem_alloc_tool) instead of taking the
 * program's. The program's own allocations still end at its
 * global_mem_limit (ws_memory.user_limit, what ws_mem_info reports). 0 if
 * grown or already that big, -1 if it could not be (memory in use, or no
 * host memory). */
int ws_runtime_grow_arena(ws_device *dev, uint64_t limit);

/* The event bus for a tool built into the library (the event watcher):
 * from the first ws_events_owner_begin on, the bus is the tool's, named
 * `owner` in the program's refusals (its ws_events_* calls return
 * WS_ERR_BUSY: neither reads nor replaces the other's configuration).
 * The tool's own ws_events_* calls go between begin and end. */
void ws_events_owner_begin(ws_device *dev, const char *owner);
void ws_events_owner_end(ws_device *dev);

#endif
