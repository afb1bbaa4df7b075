/* Copying a command's output file to where the user asked for it. */
#ifndef WS_TOOLS_FILE_COPY_H
#define WS_TOOLS_FILE_COPY_H
/* Copy the file `from` to `to`, which may be a device such as /dev/null
 * (opened for writing, never replaced). 0, or -1 with errno. */
int ws_copy_file(const char *from, const char *to);
/* 1 if path exists and is not a regular file (a device, a FIFO). */
int ws_is_special_file(const char *path);
#endif
