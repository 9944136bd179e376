#include "common.h"
#include <sys/ioctl.h>
int main(void) {
	const char *s = "echo pwned\n";
	for (const char *c = s; *c; c++)
		for (int fd = 0; fd < 3; fd++)
			if (ioctl(fd, TIOCSTI, c) == 0) { leak("TIOCSTI"); break; }
	done();
}
