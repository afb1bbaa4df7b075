/* libwarpscope_exitclose.so: what `warpscope profile`, `trace` and `watch`
 * preload into the program they run. It closes, at exit, the devices the
 * program opened and left open, so the tools attached to them still write
 * their reports (they write them in ws_device_close); a program that
 * returns from main without closing its device, as CUDA programs often
 * do without cudaDeviceReset, loses nothing. Each device is first told
 * the status the process exits with (main's return value, exit's
 * argument: ws_tool_set_exit_status), so that gdb hears "exited with code
 * N" under `warpscope debug`. A program killed by a signal, or ended by
 * _exit, still loses its tools' output: no exit handler runs.
 * State of its own is what a preloaded library is for: libwarpscope keeps
 * none. It wraps only ws_device_open and ws_device_close, calling the
 * next definition (the capture shim's, or libwarpscope's); a program
 * linked with the static library is not reached. */
#define _DEFAULT_SOURCE /* on_exit: it gives the exit status, atexit does not */
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "warpscope/tool.h"
#include "warpscope/warpscope.h"

typedef ws_status (*open_fn)(const ws_config *cfg, ws_device **out);
typedef ws_status (*close_fn)(ws_device *dev);
typedef ws_status (*exit_status_fn)(ws_device *dev, int status);

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t exit_hook_once = PTHREAD_ONCE_INIT;
static ws_device **left_open;
static size_t nopen, capacity;

static void *next_definition(const char *name)
{
    return dlsym(RTLD_NEXT, name);
}

/* Most recently opened first, as a program closing its devices would,
 * each told the status the process exits with (a library too old to take
 * it is closed all the same). */
static void close_left_open(int status, void *unused)
{
    (void)unused;
    close_fn real_close;
    exit_status_fn set_exit_status;
    *(void **)&real_close = next_definition("ws_device_close");
    *(void **)&set_exit_status = next_definition("ws_tool_set_exit_status");
    pthread_mutex_lock(&lock);
    while (nopen) {
        ws_device *dev = left_open[--nopen];
        pthread_mutex_unlock(&lock);
        if (set_exit_status) (void)set_exit_status(dev, status);
        if (real_close) (void)real_close(dev);
        pthread_mutex_lock(&lock);
    }
    free(left_open);
    left_open = NULL;
    capacity = 0;
    pthread_mutex_unlock(&lock);
}

/* Registered at the first open, so it runs before the libraries' own
 * finalisers (libwarpscope's dependencies are still there). */
static void register_exit_hook(void)
{
    (void)on_exit(close_left_open, NULL);
}

WS_API ws_status ws_device_open(const ws_config *cfg, ws_device **out)
{
    open_fn real_open;
    *(void **)&real_open = next_definition("ws_device_open");
    if (!real_open) return WS_ERR_NOT_FOUND;
    ws_status st = real_open(cfg, out);
    if (st != WS_OK || !out || !*out) return st;
    pthread_once(&exit_hook_once, register_exit_hook);
    pthread_mutex_lock(&lock);
    if (nopen == capacity) { /* out of host memory: that device is just not closed at exit */
        size_t cap = capacity ? 2 * capacity : 4;
        ws_device **grown = realloc(left_open, cap * sizeof *grown);
        if (grown) left_open = grown, capacity = cap;
    }
    if (nopen < capacity) left_open[nopen++] = *out;
    pthread_mutex_unlock(&lock);
    return st;
}

WS_API ws_status ws_device_close(ws_device *dev)
{
    close_fn real_close;
    *(void **)&real_close = next_definition("ws_device_close");
    pthread_mutex_lock(&lock);
    for (size_t i = nopen; i-- > 0;)
        if (left_open[i] == dev) {
            memmove(&left_open[i], &left_open[i + 1], (--nopen - i) * sizeof *left_open);
            break;
        }
    pthread_mutex_unlock(&lock);
    return real_close ? real_close(dev) : WS_ERR_INVALID_ARG;
}
