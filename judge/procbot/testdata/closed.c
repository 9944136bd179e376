/* A bot that closes its standard output (argument "out") or its standard
 * input ("in") in its first turn and then computes for ever: the judge
 * must end its seat at once, not wait for it. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
	const char *which = argc > 1 ? argv[1] : "out";
	fprintf(stderr, "closing my standard %s\n", which);
	if (strcmp(which, "out") == 0) {
		close(1);
	} else {
		close(0);
		printf("Board\n"); /* the answer can no longer be read */
		fflush(stdout);
	}
	for (volatile unsigned long i = 0;; i++)
		;
}
