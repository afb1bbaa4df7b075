/* The warpscope command: one entry point, one file per subcommand. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "warpscope/warpscope.h"
#include "attach/link_note.h"
#include "commands.h"

/* This program links libwarpscope statically, and every command closes
 * the devices it opens: the note tells `warpscope debug` (profile, trace,
 * watch) so, which otherwise warn that their exit closer cannot reach it
 * (tools/preload.c). Laid out as attach/device_open.c's note. */
static const struct {
    uint32_t namesz, descsz, type;
    char name[12];
    char desc[4];
} closes_note __attribute__((used, section(WS_LINK_NOTE_SECTION), aligned(4))) = {
    sizeof WS_LINK_NOTE_NAME, 4, WS_LINK_NOTE_TYPE_CLOSES, WS_LINK_NOTE_NAME, "cli"
};

int ws_cmd_profile(int argc, char **argv); /* tools/profile.c: sampling profiler */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: warpscope <command> [args]\n"
            "\n"
            "commands:\n"
            "  cc      compile C kernels into a device module (clang + lld)\n"
            "  run     load a module and launch one kernel with arguments\n"
            "  info    list the kernels (and shaders) of a module with their parameters\n"
            "  disasm  disassemble a module's code\n"
            "  debug   run a program with the gdb server listening (--record: debug it backwards too)\n"
            "  profile run a program and report where its kernels stall (PC sampling)\n"
            "  trace   run a program with its kernels instrumented (bbcount, memtrace, branch, racecheck, dump;\n          every report with the instruction mix)\n"
            "  instrument  write the instrumented copy of a module (what trace runs)\n"
            "  watch   run a program with the device's scheduling events traced\n"
            "  capture run a program and record chosen frames into a capture file\n"
            "  show    an image (a presented frame, PNG) in the terminal\n"
            "  replay  replay a captured frame: loop, list, dump, debug, pixel history, mesh, report\n"
            "  version print the version\n"
            "\n"
            "'warpscope <command> --help' describes each command.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "cc")) return ws_cmd_cc(argc - 1, argv + 1);
    if (!strcmp(cmd, "run")) return ws_cmd_run(argc - 1, argv + 1);
    if (!strcmp(cmd, "info")) return ws_cmd_info(argc - 1, argv + 1);
    if (!strcmp(cmd, "show")) return ws_cmd_show(argc - 1, argv + 1);
    if (!strcmp(cmd, "replay")) return ws_cmd_replay(argc - 1, argv + 1);
    if (!strcmp(cmd, "disasm")) return ws_cmd_disasm(argc - 1, argv + 1);
    if (!strcmp(cmd, "debug")) return ws_cmd_debug(argc - 1, argv + 1);
    if (!strcmp(cmd, "profile")) return ws_cmd_profile(argc - 1, argv + 1);
    if (!strcmp(cmd, "trace")) return ws_cmd_trace(argc - 1, argv + 1);
    if (!strcmp(cmd, "watch")) return ws_cmd_watch(argc - 1, argv + 1);
    if (!strcmp(cmd, "capture")) return ws_cmd_capture(argc - 1, argv + 1);
    if (!strcmp(cmd, "instrument")) return ws_cmd_instrument(argc - 1, argv + 1);
    if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
        printf("warpscope %s\n", ws_version());
        return 0;
    }
    fprintf(stderr, "warpscope: unknown command '%s'\n\n", cmd);
    usage(stderr);
    return 2;
}
