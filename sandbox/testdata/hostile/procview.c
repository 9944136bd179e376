#include "common.h"
#include <dirent.h>
#include <fcntl.h>
/* Looks at other processes through /proc: their command lines, and the
 * judge's (its parent's parent) oom_score_adj, which it tries to change.
 * Its own /proc/self must stay readable. */
int main(void) {
	char path[64];
	DIR *d = opendir("/proc");
	if (d) {
		struct dirent *e;
		int n = 0;
		while ((e = readdir(d)) != NULL) {
			int pid = atoi(e->d_name);
			if (pid <= 0 || pid == getpid()) continue;
			snprintf(path, sizeof path, "/proc/%d/cmdline", pid);
			int fd = open(path, O_RDONLY);
			if (fd >= 0) {
				char buf[64];
				if (read(fd, buf, sizeof buf) > 0 && n++ == 0) leak(path);
				close(fd);
			}
		}
		closedir(d);
	}
	snprintf(path, sizeof path, "/proc/%d/oom_score_adj", getppid());
	int fd = open(path, O_WRONLY);
	if (fd >= 0 && write(fd, "1000", 4) == 4) leak(path);
	fd = open("/proc/1/environ", O_RDONLY);
	if (fd >= 0) leak("/proc/1/environ");
	fd = open("/proc/self/status", O_RDONLY);
	char buf[64];
	if (fd < 0 || read(fd, buf, sizeof buf) <= 0) printf("NOSELF\n");
	done();
}
