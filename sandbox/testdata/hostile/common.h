/* Shared by the hostile programs: report and wait like a bot. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* done ends the turn and waits for stdin to close, as a bot would. */
static void done(void) {
	printf("#END\n");
	fflush(stdout);
	char buf[256];
	while (read(0, buf, sizeof buf) > 0) {
	}
	exit(0);
}

/* leak reports a protection that failed. */
static void leak(const char *what) {
	printf("LEAK %s\n", what);
	fflush(stdout);
}

/* tmp is the private temporary directory. */
static const char *tmp(const char *name) {
	static char buf[4096];
	const char *d = getenv("TMPDIR");
	snprintf(buf, sizeof buf, "%s/%s", d && *d ? d : "/tmp", name);
	return buf;
}

/* targets returns the paths a program attacks: the words of the
 * environment variable TARGETS when it is set (a judge shows a bot the
 * directories of the files its command line names, so files to attack
 * come this way), else its arguments. */
static char **targets(int argc, char **argv, int *n) {
	const char *env = getenv("TARGETS");
	if (!env) {
		*n = argc - 1;
		return argv + 1;
	}
	static char *words[64];
	char *s = strdup(env);
	*n = 0;
	for (char *w = strtok(s, " "); w && *n < 64; w = strtok(NULL, " "))
		words[(*n)++] = w;
	return words;
}
