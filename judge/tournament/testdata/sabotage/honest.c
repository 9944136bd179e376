/* Plays tic-tac-toe at random, and every turn uses what a bot may use:
 * half a megabyte of stack, a few open files, a child process. It crashes,
 * saying why, when it finds a resource limit lower than any sandbox gives
 * (what a saboteur sets), or cannot use what it should. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "play.h"

static void fail(const char *what) {
	fprintf(stderr, "harmed: %s\n", what);
	abort();
}

static int deep(int n) {
	volatile char frame[1024];
	memset((char *)frame, n, sizeof frame);
	return n == 0 ? frame[7] : deep(n - 1) + frame[3];
}

static void turn(void) {
	static const struct {
		int res;
		const char *name;
		rlim_t low; /* what the saboteur sets */
	} lims[] = {
		{RLIMIT_CPU, "CPU", 1}, {RLIMIT_FSIZE, "FSIZE", 1000}, {RLIMIT_DATA, "DATA", 1 << 20},
		{RLIMIT_STACK, "STACK", 16384}, {RLIMIT_NPROC, "NPROC", 2}, {RLIMIT_NOFILE, "NOFILE", 5},
		{RLIMIT_MEMLOCK, "MEMLOCK", 0}, {RLIMIT_AS, "AS", 8 << 20}, {RLIMIT_LOCKS, "LOCKS", 0},
		{RLIMIT_SIGPENDING, "SIGPENDING", 1}, {RLIMIT_MSGQUEUE, "MSGQUEUE", 0}, {RLIMIT_RTTIME, "RTTIME", 1},
	};
	for (size_t i = 0; i < sizeof lims / sizeof lims[0]; i++) {
		struct rlimit l;
		if (getrlimit(lims[i].res, &l) != 0 || l.rlim_cur <= lims[i].low)
			fail(lims[i].name);
	}
	if (getpriority(PRIO_PROCESS, 0) >= 19)
		fail("nice");
	deep(512);
	int fds[16];
	for (int i = 0; i < 16; i++)
		if ((fds[i] = open("/dev/null", O_RDONLY)) < 0)
			fail("open");
	for (int i = 0; i < 16; i++)
		close(fds[i]);
	pid_t pid = fork();
	if (pid < 0)
		fail("fork");
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
}

int main(void) { play(); }
