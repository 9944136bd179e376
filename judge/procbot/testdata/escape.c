/* A bot whose grandchild leaves its process group (setsid), keeps the
 * bot's stderr open and sleeps for ever; the bot itself plays tic-tac-toe
 * on the first empty cell. The judge must not wait for the grandchild's
 * stderr. The grandchild's pid goes to the file named by PIDFILE, if any,
 * so that a test can end it. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(void) {
	pid_t child = fork();
	if (child == 0) {
		if (fork() == 0) {
			setsid();
			const char *pf = getenv("PIDFILE");
			if (pf) {
				FILE *f = fopen(pf, "w");
				if (f) {
					fprintf(f, "%d", (int)getpid());
					fclose(f);
				}
			}
			fprintf(stderr, "grandchild holding stderr\n");
			for (;;)
				sleep(1000);
		}
		_exit(0);
	}
	char board[3][3][4];
	for (;;) {
		printf("Board\n");
		fflush(stdout);
		for (int y = 0; y < 3; y++)
			for (int x = 0; x < 3; x++)
				if (scanf("%3s", board[y][x]) != 1)
					return 0;
		for (int i = 0; i < 9; i++)
			if (board[i / 3][i % 3][0] == '-') {
				printf("PlaceSymbol %d %d\n#END\n", i % 3, i / 3);
				fflush(stdout);
				break;
			}
	}
}
