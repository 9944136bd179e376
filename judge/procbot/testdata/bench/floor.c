/* The physical floor of the judge's per-query cost: a C parent that
 * arranges a child exactly as the judge arranges a bot (the child's stdin
 * is a pipe, its stdout a raw pty or a pipe), then answers each line the
 * child writes, as fast as C can, until "#END". Prints nanoseconds per
 * answered line.
 *
 *   floor [-cpu N] pty|pipe BOT ARGS...
 *
 * With -cpu N, parent and child run on CPU N only, as the judge runs a
 * two-player match's bots on the CPU of the thread that serves them.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc > 2 && strcmp(argv[1], "-cpu") == 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(atoi(argv[2]), &set);
        if (sched_setaffinity(0, sizeof set, &set) < 0) {
            perror("sched_setaffinity");
            return 1;
        }
        argv += 2;
        argc -= 2;
    }
    if (argc < 3) {
        fprintf(stderr, "usage: floor [-cpu N] pty|pipe BOT ARGS...\n");
        return 2;
    }
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) < 0) return 1;
    if (strcmp(argv[1], "pty") == 0) {
        int m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
        if (m < 0 || grantpt(m) < 0 || unlockpt(m) < 0) return 1;
        int s = open(ptsname(m), O_RDWR | O_NOCTTY | O_CLOEXEC);
        struct termios t;
        tcgetattr(s, &t);
        cfmakeraw(&t);
        tcsetattr(s, TCSANOW, &t);
        out[0] = m;
        out[1] = s;
    } else if (pipe2(out, O_CLOEXEC) < 0) {
        return 1;
    }
    pid_t pid = fork();
    if (pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        setpgid(0, 0);
        execvp(argv[2], argv + 2);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);

    static char buf[1 << 16];
    size_t have = 0;
    long lines = 0;
    struct timespec t0, t1;
    int started = 0;
    for (;;) {
        char *nl = memchr(buf, '\n', have);
        if (!nl) {
            ssize_t r = read(out[0], buf + have, sizeof buf - have);
            if (r <= 0) break;
            if (!started) {
                clock_gettime(CLOCK_MONOTONIC, &t0);
                started = 1;
            }
            have += r;
            continue;
        }
        size_t len = nl - buf + 1;
        if (len == 5 && memcmp(buf, "#END\n", 5) == 0) {
            clock_gettime(CLOCK_MONOTONIC, &t1);
            break;
        }
        if (write(in[1], "1\n", 2) != 2) break;
        lines++;
        memmove(buf, buf + len, have - len);
        have -= len;
    }
    close(in[1]);
    waitpid(pid, NULL, 0);
    if (lines == 0) return 1;
    double ns = (t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec);
    printf("%.1f\n", ns / lines);
    return 0;
}
