#include "common.h"
#include <fcntl.h>
/* argv: files that belong to others (another bot, the judge). */
int main(int argc, char **argv) {
	for (int i = 1; i < argc; i++) {
		int fd = open(argv[i], O_RDONLY);
		if (fd >= 0) leak(argv[i]);
	}
	if (open("/etc/shadow", O_RDONLY) >= 0) leak("/etc/shadow");
	if (open("/proc/1/environ", O_RDONLY) >= 0) leak("/proc/1/environ");
	if (open("/root", O_RDONLY) >= 0 && access("/root/.bashrc", R_OK) == 0) leak("/root");
	done();
}
