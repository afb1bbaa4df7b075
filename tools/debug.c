/* warpscope debug: run an unmodified host program with the gdb server
 * listening (or, with --jtag, the JTAG remote_bitbang port for OpenOCD).
 * The library does the work when it sees WARPSCOPE_DEBUG (WARPSCOPE_JTAG)
 * at device open; this command sets it for the child, preloads the exit
 * closer (preload.h), reports the port, and passes the child's exit
 * status on. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "capture/shim/shim_spec.h"
#include "gdbstub/exit_handoff.h"
#include "runtime/settings_text.h"
#include "child.h"
#include "commands.h"
#include "debug_record.h"
#include "preload.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: warpscope debug [options] -- PROGRAM [ARG...]\n"
            "  --port N          listen on 127.0.0.1:N (default: a free port, printed)\n"
            "  --stop-at-launch  stop before each kernel launch runs\n"
            "  --port-file PATH  also write the port number (with --socket: the path) to PATH\n"
            "  --socket PATH     listen on a Unix-domain socket at PATH instead of TCP\n"
            "                    (gdb: target remote PATH)\n"
            "  --threads lane|warp  what a gdb thread is: a lane (default) or a warp,\n"
            "                    shown through its focus lane (for large grids)\n"
            "  --jtag            serve the device's JTAG port (OpenOCD remote_bitbang)\n"
            "                    instead of gdb; the program runs without waiting\n"
            "  --record[=FRAMES] run the program to its end while recording it, then serve\n"
            "                    gdb on its replay, where reverse-step, reverse-next and\n"
            "                    reverse-continue work; FRAMES as capture's --frames\n"
            "                    (default: all, device open to close; launches=A-B)\n"
            "Then connect: gdb-multiarch -ex 'target remote 127.0.0.1:PORT' (or PATH)\n"
            "(docs/debugging.md walks through a session), or with --jtag:\n"
            "  openocd -c 'set WARPSCOPE_PORT PORT' -f share/openocd/warpscope.cfg\n"
            "(docs/jtag-openocd.md).\n");
}

/* The signal that asked us to stop (SIGTERM, SIGHUP), for the wait loop:
 * a tool's main may keep this one piece of process state. */
static volatile sig_atomic_t pending_signal;

static void note_signal(int sig) { pending_signal = sig; }

/* Read the port the child wrote; 0 while not there yet. */
static unsigned read_port(const char *path)
{
    unsigned port = 0;
    FILE *f = fopen(path, "r");
    if (f) {
        if (fscanf(f, "%u", &port) != 1) port = 0;
        fclose(f);
    }
    return port;
}

/* 1 once the child has written a whole line to path (--socket: the path). */
static unsigned file_has_line(const char *path)
{
    char line[512];
    FILE *f = fopen(path, "r");
    unsigned ok = f && fgets(line, sizeof line, f) && strchr(line, '\n');
    if (f) fclose(f);
    return ok;
}

/* Say where each server the program started listens, once, on stdout
 * (scripts read it there), and copy the list to --port-file: the child's
 * port file gets a line per device, in the order they opened
 * (docs/debugging.md). Returns how many have been said. */
static int report_servers(const char *pfile, int reported, int jtag, int socket, const char *user_port_file)
{
    char line[512], all[4096];
    size_t used = 0;
    int n = 0;
    FILE *f = fopen(pfile, "r");
    while (f && fgets(line, sizeof line, f) && strchr(line, '\n')) { /* whole lines: the written ones */
        size_t len = strlen(line);
        if (used + len >= sizeof all) break;
        memcpy(all + used, line, len + 1);
        used += len;
        if (n++ < reported) continue;
        line[len - 1] = 0;
        if (jtag) printf("JTAG remote_bitbang listening on 127.0.0.1:%s\n", line);
        else if (socket) printf("listening on %s\n", line);
        else printf("listening on 127.0.0.1:%s\n", line);
    }
    if (f) fclose(f);
    if (n <= reported) return reported;
    fflush(stdout);
    if (user_port_file) {
        FILE *u = fopen(user_port_file, "w");
        int bad = !u || fputs(all, u) < 0;
        if (u && fclose(u)) bad = 1;
        if (bad) fprintf(stderr, "warpscope debug: --port-file %s: cannot write: %s\n", user_port_file, strerror(errno));
    }
    return n;
}

/* The socket pair gdb's connection comes back on (exit_handoff.h). */
static int open_handoff(int fds[2])
{
    if (socketpair(AF_UNIX, SOCK_DGRAM, 0, fds)) return -1;
    if (fcntl(fds[0], F_SETFD, FD_CLOEXEC)) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    return 0;
}

static void close_handoff(int fds[2])
{
    for (int k = 0; k < 2; k++)
        if (fds[k] >= 0) close(fds[k]);
    fds[0] = fds[1] = -1;
}

/* gdb's connections a program passed back when it closed its devices
 * itself, held until it exits (a few: one per device it served). */
enum { MAX_HELD_GDB = 8 };
typedef struct held_gdb {
    int n;
    ws_gdb_handoff h[MAX_HELD_GDB];
    ws_rsp_reader *rd[MAX_HELD_GDB];
} held_gdb;

/* Take the connections passed so far. */
static void take_held_gdb(held_gdb *held, int handoff_fd)
{
    ws_gdb_handoff h;
    while (handoff_fd >= 0 && held->n < MAX_HELD_GDB && ws_gdb_handoff_take(handoff_fd, &h)) {
        ws_rsp_reader *rd = malloc(sizeof *rd);
        if (!rd) {
            close(h.cfd); /* gdb loses the connection, as without a handoff */
            continue;
        }
        ws_rsp_reader_init(rd);
        held->h[held->n] = h;
        held->rd[held->n++] = rd;
    }
}

/* Answer gdb on each connection while the program runs on (an interrupt
 * is told why nothing stops). */
static void serve_held_gdb(held_gdb *held, int handoff_fd, pid_t pid)
{
    take_held_gdb(held, handoff_fd);
    for (int k = 0; k < held->n; k++) ws_gdb_handoff_answer_running(&held->h[k], held->rd[k], (long)pid);
}

/* The program has exited: every gdb it passed back hears the status. */
static void tell_gdb_exit(held_gdb *held, int handoff_fd, int status)
{
    for (;;) {
        take_held_gdb(held, handoff_fd); /* (those passed since the last poll, too) */
        if (!held->n) return;
        for (int k = 0; k < held->n; k++) {
            ws_gdb_handoff_tell_exit(&held->h[k], held->rd[k], status);
            free(held->rd[k]);
        }
        held->n = 0;
    }
}

int ws_cmd_debug(int argc, char **argv)
{
    unsigned port = 0;
    int stop_at_launch = 0, jtag = 0, i = 1;
    const char *user_port_file = NULL, *socket_path = NULL, *threads = "lane", *record = NULL;
    for (; i < argc; i++) {
        if (!strcmp(argv[i], "--")) {
            i++;
            break;
        } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "--port") && i + 1 < argc) {
            char *end;
            long p = strtol(argv[++i], &end, 10);
            if (*end || p < 0 || p > 65535) {
                fprintf(stderr, "warpscope debug: bad port '%s'\n", argv[i]);
                return 2;
            }
            port = (unsigned)p;
        } else if (!strcmp(argv[i], "--stop-at-launch")) {
            stop_at_launch = 1;
        } else if (!strcmp(argv[i], "--jtag")) {
            jtag = 1;
        } else if (!strcmp(argv[i], "--record") || !strncmp(argv[i], "--record=", 9)) {
            record = argv[i][8] == '=' ? argv[i] + 9 : "all";
            if (!*record) {
                fprintf(stderr, "warpscope debug: --record= needs frames (all, N, A-B, launches=A-B)\n");
                return 2;
            }
            /* refused here, before the program runs: the recorder would
             * refuse it too, after which the command said the program
             * "left no recording" though it never ran */
            shim_spec fs;
            char err[256];
            if (shim_spec_parse_frames(record, &fs, err, sizeof err)) {
                fprintf(stderr, "warpscope debug: --record=%s: %s\n", record, err);
                return 2;
            }
        } else if (!strcmp(argv[i], "--port-file") && i + 1 < argc) {
            user_port_file = argv[++i];
        } else if (!strcmp(argv[i], "--socket") && i + 1 < argc) {
            socket_path = argv[++i];
        } else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
            threads = argv[++i];
            if (strcmp(threads, "lane") && strcmp(threads, "warp")) {
                fprintf(stderr, "warpscope debug: --threads '%s': lane or warp\n", threads);
                return 2;
            }
        } else if (argv[i][0] != '-') {
            break;
        } else {
            fprintf(stderr, "warpscope debug: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    if (i >= argc) {
        usage(stderr);
        return 2;
    }
    if (jtag && (stop_at_launch || strcmp(threads, "lane"))) { /* OpenOCD halts harts itself; nothing parks the program */
        fprintf(stderr, "warpscope debug: %s is for the gdb server, not --jtag\n",
                stop_at_launch ? "--stop-at-launch" : "--threads");
        return 2;
    }
    if (record && (jtag || socket_path || stop_at_launch || strcmp(threads, "lane"))) { /* the replay's server has none of them */
        fprintf(stderr, "warpscope debug: --record serves gdb on a TCP port with lane threads: not with %s\n",
                jtag ? "--jtag" : socket_path ? "--socket" : stop_at_launch ? "--stop-at-launch" : "--threads warp");
        return 2;
    }
    if (socket_path && (jtag || port)) {
        fprintf(stderr, "warpscope debug: --socket serves gdb instead of a TCP port: not with %s\n",
                jtag ? "--jtag" : "--port");
        return 2;
    }
    if (socket_path && !*socket_path) { /* the server checks the length */
        fprintf(stderr, "warpscope debug: --socket needs a path\n");
        return 2;
    }
    if (user_port_file) { /* an unwritable path fails now, not after gdb connected */
        FILE *f = fopen(user_port_file, "w");
        if (!f) {
            fprintf(stderr, "warpscope debug: --port-file %s: cannot write: %s\n", user_port_file, strerror(errno));
            return 2;
        }
        fclose(f);
    }
    if (record) return ws_debug_record(record, port, user_port_file, argc - i, argv + i);
    /* Killed, we pass the signal on and stay to clean up the port file and
     * the program. The handler is in place, and SIGTERM/SIGHUP held back,
     * before the temporary file and the child exist: a signal between the
     * fork and the handler used to end this command alone, leaving the
     * program serving gdb forever and its port file behind. */
    struct sigaction sa = { .sa_handler = note_signal };
    sigemptyset(&sa.sa_mask);
    sigset_t stop_sigs, old_mask;
    sigemptyset(&stop_sigs);
    sigaddset(&stop_sigs, SIGTERM);
    sigaddset(&stop_sigs, SIGHUP);
    sigprocmask(SIG_BLOCK, &stop_sigs, &old_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    char tmpl[512], pfile[512], spec[1200];
    if (ws_tool_tmpfile("warpscope debug", "debug", tmpl, sizeof tmpl)) {
        sigprocmask(SIG_SETMASK, &old_mask, NULL);
        return 1;
    }
    snprintf(pfile, sizeof pfile, "%s", tmpl);
    unlink(pfile); /* the child creates it once it listens */
    /* (paths with a comma go in double quotes: runtime/settings_text.h) */
    char num[16];
    size_t slen = 0;
    int too_long = 0;
    /* gdb's connection comes back here if the program closes its device
     * itself: its exit status is known only once we have reaped it */
    int handoff[2] = { -1, -1 }; /* [0] ours, close-on-exec; [1] the program's */
    if (!jtag && open_handoff(handoff)) {
        fprintf(stderr, "warpscope debug: socketpair: %s\n", strerror(errno));
        sigprocmask(SIG_SETMASK, &old_mask, NULL);
        return 1;
    }
    snprintf(num, sizeof num, "%u", port);
    if (socket_path) too_long |= ws_settings_add(spec, sizeof spec, &slen, "socket", socket_path);
    else too_long |= ws_settings_add(spec, sizeof spec, &slen, "port", num);
    if (!jtag) {
        too_long |= ws_settings_add(spec, sizeof spec, &slen, "stop-at-launch", stop_at_launch ? "1" : "0");
        too_long |= ws_settings_add(spec, sizeof spec, &slen, "threads", threads);
        snprintf(num, sizeof num, "%d", handoff[1]);
        too_long |= ws_settings_add(spec, sizeof spec, &slen, "handoff", num);
    }
    too_long |= ws_settings_add(spec, sizeof spec, &slen, "port-file", pfile);
    /* the command says where it listens, once, on stdout (scripts read it
     * there); the library's own line on stderr would be the same again */
    too_long |= ws_settings_add(spec, sizeof spec, &slen, "announce", "0");
    if (too_long) {
        fprintf(stderr, "warpscope debug: paths too long\n");
        close_handoff(handoff);
        unlink(pfile);
        sigprocmask(SIG_SETMASK, &old_mask, NULL);
        return 2;
    }
    (void)ws_preload_explain_static("warpscope debug", argv[i],
                           jtag ? "the JTAG port goes with the process in the middle of OpenOCD's session"
                                : "gdb loses the connection (\"Remote connection closed\") instead of hearing "
                                  "the program exit");
    /* an exec failure comes back through a close-on-exec pipe: the
     * program was not run, so it cannot be said to have opened no device */
    int efd[2];
    if (pipe2(efd, O_CLOEXEC)) {
        fprintf(stderr, "warpscope debug: pipe: %s\n", strerror(errno));
        close_handoff(handoff);
        unlink(pfile);
        sigprocmask(SIG_SETMASK, &old_mask, NULL);
        return 1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "warpscope debug: fork: %s\n", strerror(errno));
        close(efd[0]);
        close(efd[1]);
        close_handoff(handoff);
        unlink(pfile);
        sigprocmask(SIG_SETMASK, &old_mask, NULL);
        return 1;
    }
    if (pid == 0) { /* a signal held back for the child ends it here */
        signal(SIGTERM, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        sigprocmask(SIG_SETMASK, &old_mask, NULL);
        setenv(jtag ? "WARPSCOPE_JTAG" : "WARPSCOPE_DEBUG", spec, 1);
        /* a device the program leaves open (returning from main after a
         * failed check) is closed at exit: the server then ends the
         * session as after a close (gdb hears the exit, OpenOCD sees the
         * harts unavailable) instead of dying with the process */
        ws_preload_exit_close();
        close(efd[0]);
        if (handoff[0] >= 0) close(handoff[0]);
        execvp(argv[i], argv + i);
        int e = errno;
        fprintf(stderr, "warpscope debug: cannot run %s: %s\n", argv[i], strerror(e));
        ssize_t wr = write(efd[1], &e, sizeof e);
        (void)wr;
        _exit(127);
    }
    close(efd[1]);
    if (handoff[1] >= 0) close(handoff[1]);
    handoff[1] = -1;
    sigprocmask(SIG_SETMASK, &old_mask, NULL); /* a signal held back is noted now, and passed on below */
    int status = 0, reported = 0, forwarded = 0;
    held_gdb held = { 0 };
    for (;;) {
        if (pending_signal && !forwarded) {
            kill(pid, pending_signal);
            forwarded = 1;
        }
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid) break;
        if (r < 0 && errno != EINTR) break;
        serve_held_gdb(&held, handoff[0], pid);
        reported = report_servers(pfile, reported, jtag, socket_path != NULL, user_port_file);
        struct timespec ts = { 0, 20 * 1000 * 1000 };
        nanosleep(&ts, NULL);
    }
    /* A program that never opened a device (not linked with libwarpscope,
     * or it failed first) served nothing: say so rather than end silently
     * as if a session had been possible (before 2026-11-27 it did, where
     * profile, trace and watch say it). A server that came and went
     * between two polls left its port in the file. */
    int exec_err = 0;
    ssize_t er;
    while ((er = read(efd[0], &exec_err, sizeof exec_err)) < 0 && errno == EINTR) {}
    close(efd[0]);
    int not_run = er == (ssize_t)sizeof exec_err; /* (said so already; until 2026-11-27 also "opened no device") */
    if (!not_run && !reported && !(socket_path ? file_has_line(pfile) : read_port(pfile)))
        fprintf(stderr, "warpscope debug: %s opened no warpscope device: no %s was served\n", argv[i],
                jtag ? "JTAG port" : "gdb server");
    unlink(pfile);
    tell_gdb_exit(&held, handoff[0], status);
    close_handoff(handoff);
    if (WIFSIGNALED(status)) {
        fprintf(stderr, "warpscope debug: %s ended by signal %d\n", argv[i], WTERMSIG(status));
        return 128 + WTERMSIG(status);
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
