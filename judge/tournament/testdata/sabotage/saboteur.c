/* Plays tic-tac-toe at random, after lowering every resource limit, the
 * nice value and the CPU affinity of its sandbox's init (pid 1) and of
 * each of the init's threads: what the next program of a reused sandbox
 * would inherit. */
#define _GNU_SOURCE
#include <dirent.h>
#include <sched.h>
#include <sys/resource.h>
#include "play.h"

static void turn(void) {}

int main(void) {
	static const struct {
		int res;
		rlim_t value;
	} lims[] = {
		{RLIMIT_CPU, 1}, {RLIMIT_FSIZE, 1000}, {RLIMIT_DATA, 1 << 20}, {RLIMIT_STACK, 16384},
		{RLIMIT_NPROC, 2}, {RLIMIT_NOFILE, 5}, {RLIMIT_MEMLOCK, 0}, {RLIMIT_AS, 8 << 20},
		{RLIMIT_LOCKS, 0}, {RLIMIT_SIGPENDING, 1}, {RLIMIT_MSGQUEUE, 0}, {RLIMIT_RTTIME, 1},
	};
	for (size_t i = 0; i < sizeof lims / sizeof lims[0]; i++) {
		struct rlimit l = {lims[i].value, lims[i].value};
		prlimit(1, lims[i].res, &l, NULL);
	}
	DIR *d = opendir("/proc/1/task");
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		int tid = atoi(e->d_name);
		if (tid <= 0)
			continue;
		setpriority(PRIO_PROCESS, tid, 19);
		cpu_set_t one;
		CPU_ZERO(&one);
		CPU_SET(0, &one);
		sched_setaffinity(tid, sizeof one, &one);
	}
	play();
}
