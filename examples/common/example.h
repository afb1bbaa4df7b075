/* Shared host-side helpers for the examples: open the device, find the
 * kernel module next to the executable, launch and accumulate statistics,
 * report PASS/FAIL. Each example stays a short, readable host program. */
#ifndef WS_EXAMPLE_H
#define WS_EXAMPLE_H
#include <stdint.h>
#include <stdio.h>
#include "warpscope/warpscope.h"

typedef struct example {
    const char *name;
    ws_device *dev;
    ws_module *mod;
    ws_launch_stats total;   /* summed over the example's launches */
    uint32_t launches;
} example;

/* Open a device with the default configuration (or WARPSCOPE_CONFIG text)
 * and load `module_file` from the executable's directory. */
int example_open(example *ex, const char *name, const char *argv0, const char *module_file);
/* Look a kernel up; NULL after printing the error. */
ws_kernel *example_kernel(example *ex, const char *kernel);
/* Launch and wait; adds the launch's statistics to the total. */
int example_launch(example *ex, ws_kernel *k, ws_dim3 grid, ws_dim3 block, uint32_t shared,
                   const ws_arg *args, size_t nargs);
/* Print the last error with context, close the device (attached tools
 * write their output then) and return 1. */
int example_fail(example *ex, const char *what);
/* ws_memcpy_dtoh of the result; a failure is reported as example_fail's
 * (a halted command processor holds the copy: docs/events.md). */
int example_copy_back(example *ex, void *dst, ws_addr src, size_t n);
/* Print the verdict and the statistics, close the device; returns the exit code. */
int example_finish(example *ex, int ok, const char *detail);

/* Deterministic pseudo-random numbers for inputs (xorshift32). */
static inline uint32_t example_rand(uint32_t *state)
{
    uint32_t x = *state;
    x ^= x << 13; x ^= x >> 17; x ^= x << 5;
    return *state = x;
}
#endif
