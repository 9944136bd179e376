/* A random tic-tac-toe player, shared by the bots of this directory: each
 * turn it calls turn(), then puts a symbol on a random empty cell. */
#include <stdio.h>
#include <stdlib.h>

static void turn(void);

static void play(void) {
	const char *seed = getenv("JUDGE_SEED");
	srand(seed ? (unsigned)strtoull(seed, NULL, 10) : 1u);
	static char board[100 * 100];
	for (;;) {
		int n, k;
		printf("Params\n");
		if (scanf("%d %d", &n, &k) != 2)
			exit(0);
		turn();
		printf("Board\n");
		int empty = 0;
		for (int i = 0; i < n * n; i++) {
			char c[2];
			if (scanf("%1s", c) != 1)
				exit(0);
			board[i] = c[0];
			if (c[0] == '-')
				empty++;
		}
		int r = rand() % empty;
		for (int i = 0; i < n * n; i++) {
			if (board[i] == '-' && r-- == 0) {
				printf("PlaceSymbol %d %d\n", i % n, i / n);
				break;
			}
		}
		printf("#END\n");
	}
}
