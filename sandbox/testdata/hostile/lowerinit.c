/* Lowers every resource limit, the nice value and the CPU affinity, and
 * raises the oom_score_adj, of the processes named by its arguments (1:
 * its sandbox's init), and of each of
 * their threads it can list, so that whatever runs after it inherits them:
 * a later program of a reused sandbox, or the judge. It prints what the
 * kernel allowed: "PID RESOURCE ok" or "PID RESOURCE denied (errno)".
 * A first argument --only=NAME,NAME lowers only the limits named (and
 * nothing else), so that the process changed goes on living. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static const struct {
	int res;
	const char *name;
	rlim_t value;
} lims[] = {
	{RLIMIT_CPU, "CPU", 2},
	{RLIMIT_FSIZE, "FSIZE", 1000},
	{RLIMIT_DATA, "DATA", 1 << 20},
	{RLIMIT_STACK, "STACK", 16384},
	{RLIMIT_NPROC, "NPROC", 2},
	{RLIMIT_NOFILE, "NOFILE", 5},
	{RLIMIT_MEMLOCK, "MEMLOCK", 0},
	{RLIMIT_AS, "AS", 8 << 20},
	{RLIMIT_LOCKS, "LOCKS", 0},
	{RLIMIT_SIGPENDING, "SIGPENDING", 1},
	{RLIMIT_MSGQUEUE, "MSGQUEUE", 0},
	{RLIMIT_RTTIME, "RTTIME", 1},
};

static void result(int pid, const char *what, int rc) {
	if (rc == 0)
		printf("%d %s ok\n", pid, what);
	else
		printf("%d %s denied (%s)\n", pid, what, strerror(errno));
}

/* thread changes what a process forked by thread tid inherits of it. */
static void thread(int pid, int tid) {
	char what[64];
	snprintf(what, sizeof what, "nice/%d", tid);
	result(pid, what, setpriority(PRIO_PROCESS, tid, 19));
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	snprintf(what, sizeof what, "affinity/%d", tid);
	result(pid, what, sched_setaffinity(tid, sizeof one, &one));
}

/* named says whether the limit called name is in the list only ("a,b"). */
static int named(const char *only, const char *name) {
	size_t n = strlen(name);
	for (const char *p = only; p && *p;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (len == n && strncmp(p, name, n) == 0)
			return 1;
		p = end ? end + 1 : NULL;
	}
	return 0;
}

int main(int argc, char **argv) {
	const char *only = NULL;
	int first = 1;
	if (argc > 1 && strncmp(argv[1], "--only=", 7) == 0) {
		only = argv[1] + 7;
		first = 2;
	}
	for (int i = first; i < argc; i++) {
		int pid = atoi(argv[i]);
		for (size_t j = 0; j < sizeof lims / sizeof lims[0]; j++) {
			if (only && !named(only, lims[j].name))
				continue;
			struct rlimit l = {lims[j].value, lims[j].value};
			result(pid, lims[j].name, prlimit(pid, lims[j].res, &l, NULL));
		}
		if (only)
			continue;
		char dir[64];
		snprintf(dir, sizeof dir, "/proc/%d/oom_score_adj", pid);
		FILE *adj = fopen(dir, "w");
		result(pid, "oom_score_adj", adj && fputs("1000", adj) >= 0 && fclose(adj) == 0 ? 0 : -1);
		snprintf(dir, sizeof dir, "/proc/%d/task", pid);
		DIR *d = opendir(dir);
		if (!d) {
			thread(pid, pid);
			continue;
		}
		struct dirent *e;
		while ((e = readdir(d)) != NULL)
			if (e->d_name[0] != '.')
				thread(pid, atoi(e->d_name));
		closedir(d);
	}
	printf("done\n");
	fflush(stdout);
	return 0;
}
