#include "common.h"
#include <fcntl.h>
/* terminal opens each path of its arguments after the first (its
 * controlling terminal, /dev/tty, and the terminal's own device) and, where
 * it can, writes to it a line naming the sandbox level its first argument
 * gives and reads from it what a person would type. */
int main(int argc, char **argv) {
	for (int i = 2; i < argc; i++) {
		int fd = open(argv[i], O_RDWR | O_NOCTTY | O_NONBLOCK);
		if (fd < 0)
			continue;
		char line[256];
		int n = snprintf(line, sizeof line, "PWNED %s %s\n", argv[1], argv[i]);
		if (write(fd, line, n) == n)
			leak(argv[i]);
		close(fd);
	}
	done();
}
