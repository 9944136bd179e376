#include "common.h"
#include <fcntl.h>
int main(void) {
	static char buf[1 << 20];
	int fd = open(tmp("huge"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) { perror("open"); return 1; }
	for (;;) if (write(fd, buf, sizeof buf) < 0) { perror("write"); return 1; }
}
