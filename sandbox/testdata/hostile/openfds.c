/* Prints the file descriptors it was started with, from 3 up, one a line:
 * what it could read or write without opening anything. */
#include <stdio.h>
#include <sys/stat.h>

int main(void) {
	struct stat st;
	for (int fd = 3; fd < 65536; fd++)
		if (fstat(fd, &st) == 0)
			printf("%d\n", fd);
	return 0;
}
