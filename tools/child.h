/* Start PROGRAM ARGS (argv, NULL-terminated), wait for it, and put its wait
 * status in *status. Returns -1 (message on stderr, prefixed with who) if it
 * could not be started. Ctrl-C goes to the program; SIGTERM, SIGHUP,
 * SIGUSR1 and SIGUSR2 sent to the command are passed on to it, and the wait
 * goes on until it ends.
 * Once it has ended SIGPIPE is ignored: the command's report to a closed
 * pipe fails, and the command still removes its temporary files. */
#ifndef WS_TOOLS_CHILD_H
#define WS_TOOLS_CHILD_H
int ws_run_child(const char *who, char **argv, int *status);
/* Make the command's temporary directory, $TMPDIR/warpscope-NAME-XXXXXX
 * (/tmp when TMPDIR is unset, empty or holds a comma), in buf. 0, or -1
 * with a message on stderr, prefixed with who, that names the directory
 * it could not write and whether $TMPDIR chose it. */
#include <stddef.h>
int ws_tool_tmpdir(const char *who, const char *name, char *buf, size_t len);
/* The same for a temporary file, $TMPDIR/warpscope-NAME-XXXXXX, made
 * empty and closed. */
int ws_tool_tmpfile(const char *who, const char *name, char *buf, size_t len);
#endif
