/* Running the program a tool command observes (warpscope profile, trace). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <stdlib.h>
#include <unistd.h>
#include "child.h"

/* The program being waited for, for the handler that passes signals on. */
static volatile sig_atomic_t running_child;

/* Signals sent to the command that are meant for the program: SIGTERM and
 * SIGHUP end it, SIGUSR1 is what `warpscope capture --frames key` waits for
 * (before 2026-11-27 the command died of SIGUSR1 and the capture was lost),
 * SIGUSR2 the program's own. */
static const int passed_on[] = { SIGTERM, SIGHUP, SIGUSR1, SIGUSR2 };
enum { NPASSED = sizeof passed_on / sizeof passed_on[0] };

static void restore_handlers(const struct sigaction *old)
{
    for (int k = 0; k < NPASSED; k++) sigaction(passed_on[k], &old[k], NULL);
}

/* Killed, the command passes the signal on to the program and stays to
 * report how it ended and remove its temporary files (before 2026-11-27
 * it died at once: the program ran on, orphaned, and the temporary
 * directory stayed). */
static void pass_on(int sig)
{
    if (running_child > 0) kill((pid_t)running_child, sig);
}

/* Start the program; exec failures come back through a close-on-exec pipe
 * so a missing program is a clear error, not a silent exit status 127. */
int ws_run_child(const char *who, char **argv, int *status)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC)) { fprintf(stderr, "%s: pipe: %s\n", who, strerror(errno)); return -1; }
    fflush(NULL);
    /* The passed-on signals are held back until the handler knows the
     * program: one that comes as it starts is passed on, not lost */
    sigset_t pass_sigs, old_mask;
    sigemptyset(&pass_sigs);
    for (int k = 0; k < NPASSED; k++) sigaddset(&pass_sigs, passed_on[k]);
    sigprocmask(SIG_BLOCK, &pass_sigs, &old_mask);
    struct sigaction sa = { .sa_handler = pass_on }, old_sa[NPASSED];
    sigemptyset(&sa.sa_mask);
    for (int k = 0; k < NPASSED; k++) {
        sigaction(passed_on[k], NULL, &old_sa[k]);
        if (old_sa[k].sa_handler != SIG_IGN) sigaction(passed_on[k], &sa, NULL); /* (an ignored one stays ignored) */
    }
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "%s: fork: %s\n", who, strerror(errno));
        restore_handlers(old_sa);
        sigprocmask(SIG_SETMASK, &old_mask, NULL);
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        signal(SIGINT, SIG_DFL);
        signal(SIGQUIT, SIG_DFL);
        restore_handlers(old_sa);
        sigprocmask(SIG_SETMASK, &old_mask, NULL); /* a signal passed on early reaches it here */
        execvp(argv[0], argv);
        int e = errno;
        ssize_t w = write(fds[1], &e, sizeof e);
        (void)w;
        _exit(127);
    }
    close(fds[1]);
    running_child = pid;
    sigprocmask(SIG_SETMASK, &old_mask, NULL);
    /* Ctrl-C goes to the program; we stay to report how it ended. */
    void (*old_int)(int) = signal(SIGINT, SIG_IGN), (*old_quit)(int) = signal(SIGQUIT, SIG_IGN);
    int e = 0;
    ssize_t r;
    while ((r = read(fds[0], &e, sizeof e)) < 0 && errno == EINTR) {}
    close(fds[0]);
    int waited;
    while ((waited = waitpid(pid, status, 0)) < 0 && errno == EINTR) {}
    signal(SIGINT, old_int);
    signal(SIGQUIT, old_quit);
    sigprocmask(SIG_BLOCK, &pass_sigs, NULL);
    running_child = 0;
    restore_handlers(old_sa);
    sigprocmask(SIG_SETMASK, &old_mask, NULL);
    /* The program has ended: the command only reports and removes its
     * temporary files now. A reader that stopped reading (`| grep -q`,
     * `| head`) makes a write fail instead of killing the command before
     * the removal (it left $TMPDIR/warpscope-watch-XXXXXX behind). */
    signal(SIGPIPE, SIG_IGN);
    if (waited < 0) { fprintf(stderr, "%s: waitpid: %s\n", who, strerror(errno)); return -1; }
    if (r == (ssize_t)sizeof e) {
        fprintf(stderr, "%s: cannot run '%s': %s\n", who, argv[0], strerror(e));
        return -1;
    }
    return 0;
}


static int tool_tmp(const char *who, const char *name, char *buf, size_t len, int dir)
{
    const char *t = getenv("TMPDIR");
    int from_env = 1;
    if (!t || !*t) t = "/tmp", from_env = 0; /* (a comma in it is quoted in the tools' settings: runtime/settings_text.h) */
    int made = -1;
    if ((size_t)snprintf(buf, len, "%s/warpscope-%s-XXXXXX", t, name) >= len) errno = ENAMETOOLONG;
    else if (dir) made = mkdtemp(buf) ? 0 : -1;
    else {
        int fd = mkstemp(buf);
        if (fd >= 0) close(fd), made = 0;
    }
    if (made)
        fprintf(stderr, "%s: cannot make a temporary %s in %s%s: %s%s\n", who, dir ? "directory" : "file", t,
                from_env ? " (from $TMPDIR)" : "", strerror(errno),
                from_env ? "; point TMPDIR at a directory you can write, or unset it for /tmp" : "");
    return made;
}

int ws_tool_tmpdir(const char *who, const char *name, char *buf, size_t len)
{
    return tool_tmp(who, name, buf, len, 1);
}

int ws_tool_tmpfile(const char *who, const char *name, char *buf, size_t len)
{
    return tool_tmp(who, name, buf, len, 0);
}
