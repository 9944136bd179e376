#include "common.h"
#include <fcntl.h>
/* targets: files that belong to others (another bot, the judge). */
int main(int argc, char **argv) {
	int n;
	char **t = targets(argc, argv, &n);
	for (int i = 0; i < n; i++) {
		int fd = open(t[i], O_RDONLY);
		if (fd >= 0) leak(t[i]);
	}
	if (open("/etc/shadow", O_RDONLY) >= 0) leak("/etc/shadow");
	if (open("/proc/1/environ", O_RDONLY) >= 0) leak("/proc/1/environ");
	if (open("/root", O_RDONLY) >= 0 && access("/root/.bashrc", R_OK) == 0) leak("/root");
	done();
}
