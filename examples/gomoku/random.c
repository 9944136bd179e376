/*
 * A random gomoku / tic-tac-toe bot in C.
 *
 * It speaks the Wrocław protocol with plain printf and scanf and never
 * calls fflush: the judge makes the C library's stdout line-buffered (see
 * docs/sandbox.md), so every line is sent as soon as it ends with '\n'.
 *
 * Each turn: ask the board's size, ask the whole board, put a symbol on a
 * random empty cell, end the turn.
 */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    /* JUDGE_SEED makes games reproducible; any number would do. */
    const char *seed = getenv("JUDGE_SEED");
    srand(seed ? (unsigned)strtoull(seed, NULL, 10) : 1u);

    static char board[100 * 100];
    for (;;) {
        int n, k;
        printf("Params\n");
        if (scanf("%d %d", &n, &k) != 2)
            return 0; /* the game is over: stdin was closed */

        /* The answer to Board is n lines of n symbols separated by spaces. */
        printf("Board\n");
        int empty = 0;
        for (int i = 0; i < n * n; i++) {
            char c[2];
            if (scanf("%1s", c) != 1)
                return 0;
            board[i] = c[0];
            if (c[0] == '-')
                empty++;
        }

        /* Pick the r-th empty cell. Cells go row by row: index = y*n + x. */
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
