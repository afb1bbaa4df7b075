/* Subcommands of the warpscope command; each lives in its own file. */
#ifndef WS_TOOLS_COMMANDS_H
#define WS_TOOLS_COMMANDS_H
int ws_cmd_cc(int argc, char **argv);    /* tools/cc.c:   compile kernels     */
int ws_cmd_run(int argc, char **argv);   /* tools/run.c:  run a kernel module */
int ws_cmd_info(int argc, char **argv);  /* tools/info.c: describe a module   */
int ws_cmd_disasm(int argc, char **argv);/* tools/info.c: disassemble         */
int ws_cmd_debug(int argc, char **argv); /* tools/debug.c: run under the gdb server */
int ws_cmd_instrument(int argc, char **argv); /* tools/instrument.c: rewrite a module */
int ws_cmd_trace(int argc, char **argv); /* tools/trace.c: instrumentation tracer */
int ws_cmd_watch(int argc, char **argv); /* tools/watch.c: scheduling events */
int ws_cmd_show(int argc, char **argv);  /* tools/show.c: an image in the terminal */
int ws_cmd_replay(int argc, char **argv);/* tools/replay.c: replay a captured frame */
int ws_cmd_capture(int argc, char **argv); /* tools/capture.c: record frames of a program */

/* The value of the option at argv[i]: the next argument, or NULL when there
 * is none or it is "--", where the program's command line starts (an
 * option left without its value must not swallow it: `--json --` wrote
 * the profile to a file named "--"). */
static inline const char *ws_cli_option_value(int argc, char **argv, int i)
{
    const char *v = i + 1 < argc ? argv[i + 1] : 0;
    return v && !(v[0] == '-' && v[1] == '-' && !v[2]) ? v : 0;
}

#endif
