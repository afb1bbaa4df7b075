/* Start PROGRAM ARGS (argv, NULL-terminated), wait for it, and put its wait
 * status in *status. Returns -1 (message on stderr, prefixed with who) if it
 * could not be started. Ctrl-C goes to the program. */
#ifndef WS_TOOLS_CHILD_H
#define WS_TOOLS_CHILD_H
int ws_run_child(const char *who, char **argv, int *status);
#endif
