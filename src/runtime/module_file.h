/* Reading a module file into memory, with the limits and messages that
 * ws_module_load_file and `warpscope info/disasm` share. */
#ifndef WS_RUNTIME_MODULE_FILE_H
#define WS_RUNTIME_MODULE_FILE_H
#include <stddef.h>
#include <stdint.h>
#include "warpscope/warpscope.h"

#define WS_MODULE_FILE_MAX (512u << 20) /* no module comes near this */

/* Read all of path (a regular file, or a pipe/device that ends within
 * WS_MODULE_FILE_MAX bytes) into a malloc'd buffer. On failure returns the
 * status (WS_ERR_NOT_FOUND, WS_ERR_IO, WS_ERR_BAD_MODULE for a directory or
 * an oversized input, WS_ERR_OUT_OF_MEMORY) with a message naming path. */
ws_status ws_module_file_read(const char *path, uint8_t **data, size_t *len, char *err, size_t errlen);

#endif
