/* A bot that closes one of its standard files in its first turn, as its
 * first argument says: "in" or "out"; then, as its second says, it exits
 * ("exit"), waits for ever without a word ("wait"), or asks for the board
 * and computes for ever ("query"). The judge must end its seat as a crash
 * at once, whatever the order in which it sees the bot's files close and
 * the bot end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
	const char *which = argc > 1 ? argv[1] : "in";
	const char *then = argc > 2 ? argv[2] : "exit";
	fprintf(stderr, "closing my standard %s, then %s\n", which, then);
	close(strcmp(which, "out") == 0 ? 1 : 0);
	if (strcmp(then, "exit") == 0)
		return 0;
	if (strcmp(then, "query") == 0) {
		printf("Board\n");
		fflush(stdout);
		for (volatile unsigned long i = 0;; i++)
			;
	}
	for (;;)
		pause();
}
