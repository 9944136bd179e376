#include "common.h"
#include <fcntl.h>
#include <signal.h>
/* Fills its temporary directory, 1 MiB files one after the other (each
 * far below the file size limit), until a write fails or 256 MiB are
 * written; says how much it wrote and whether it was stopped. */
int main(void) {
	signal(SIGXFSZ, SIG_IGN);
	static char buf[1 << 20];
	memset(buf, 'x', sizeof buf);
	long total = 0;
	int stopped = 0;
	for (int f = 0; f < 256 && !stopped; f++) {
		char name[32];
		snprintf(name, sizeof name, "fill%d", f);
		int fd = open(tmp(name), O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0) {
			stopped = 1;
			break;
		}
		ssize_t n = write(fd, buf, sizeof buf);
		if (n > 0) total += n;
		if (n < (ssize_t)sizeof buf) stopped = 1;
		close(fd);
		usleep(5000);
	}
	printf("WROTE %ld %s\n", total, stopped ? "stopped" : "unstopped");
	done();
}
