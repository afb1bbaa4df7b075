/* Copying a command's output file to where the user asked for it. */
#ifndef WS_TOOLS_FILE_COPY_H
#define WS_TOOLS_FILE_COPY_H
#include <stddef.h>
/* Copy the file `from` to `to`, which may be a device such as /dev/null
 * (opened for writing, never replaced). 0, or -1 with errno. */
int ws_copy_file(const char *from, const char *to);
/* Write len bytes of data as the file path, whole or not at all: into a
 * temporary file beside it, renamed over it once complete, so a failed
 * write never leaves path truncated (path may be the file the data was read
 * from). A symbolic link's target is replaced; a device such as /dev/null
 * is written in place. An existing file that is not writable is left as it
 * is: refused, as writing it in place would be. 0, or -1 with a message in
 * why ("its directory ... does not exist", "read-only", ...). */
int ws_write_file_whole(const char *path, const void *data, size_t len, char *why, size_t whylen);
/* 1 if path exists and is not a regular file (a device, a FIFO). */
int ws_is_special_file(const char *path);
#endif
