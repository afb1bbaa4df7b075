/* A count that the devices of one program share through a file (the
 * tracer's launches= and devices=, the profiler's devices=): the devices
 * of a process have no common state in the library, so the command that
 * runs the program names a file in which they count. */
#ifndef WS_RUNTIME_COUNTER_FILE_H
#define WS_RUNTIME_COUNTER_FILE_H
#include <stdint.h>

/* Count one more in the file (created as needed), under an exclusive lock,
 * so devices are numbered in the order they get here. The new count, or 0
 * with errno set. */
uint64_t ws_counter_next(const char *path);

/* The count in the file now (0: none yet, or unreadable). */
uint64_t ws_counter_value(const char *path);

#endif
