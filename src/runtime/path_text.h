/* File names as reports show them (the profiler's and the tracer's
 * reports, the tools' listings). */
#ifndef WS_RUNTIME_PATH_TEXT_H
#define WS_RUNTIME_PATH_TEXT_H

/* The last component of path ("dir/k.elf" -> "k.elf"); path itself when it
 * has no '/' or ends in one (a name, not an empty string); "?" for NULL. */
const char *ws_path_base(const char *path);

#endif
