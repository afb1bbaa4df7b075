/* Running the program a tool command observes (warpscope profile, trace). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "child.h"

/* Start the program; exec failures come back through a close-on-exec pipe
 * so a missing program is a clear error, not a silent exit status 127. */
int ws_run_child(const char *who, char **argv, int *status)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC)) { fprintf(stderr, "%s: pipe: %s\n", who, strerror(errno)); return -1; }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) { fprintf(stderr, "%s: fork: %s\n", who, strerror(errno)); return -1; }
    if (pid == 0) {
        close(fds[0]);
        signal(SIGINT, SIG_DFL);
        signal(SIGQUIT, SIG_DFL);
        execvp(argv[0], argv);
        int e = errno;
        ssize_t w = write(fds[1], &e, sizeof e);
        (void)w;
        _exit(127);
    }
    close(fds[1]);
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
    if (waited < 0) { fprintf(stderr, "%s: waitpid: %s\n", who, strerror(errno)); return -1; }
    if (r == (ssize_t)sizeof e) {
        fprintf(stderr, "%s: cannot run '%s': %s\n", who, argv[0], strerror(e));
        return -1;
    }
    return 0;
}

