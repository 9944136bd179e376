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
