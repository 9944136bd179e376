/* Writes lines of 1 MiB, each with a single write(2) that it does not
   retry: a short write shows as a torn line and exit code 3. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int main(void) {
	size_t n = 1 << 20;
	char *buf = malloc(n);
	for (int round = 0; round < 8; round++) {
		memset(buf, 'a' + round, n - 1);
		buf[n - 1] = '\n';
		ssize_t w = write(1, buf, n);
		if (w != (ssize_t)n) {
			fprintf(stderr, "short write: %zd of %zu\n", w, n);
			return 3;
		}
	}
	return 0;
}
