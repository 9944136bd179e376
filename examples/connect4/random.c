//go:build ignore
// (The line above keeps the Go tool away from this C file; the tests of this
// directory are Go. The C compiler sees two comments.)

/*
 * A random Connect Four bot in C.
 *
 * It speaks the Wrocław protocol with plain printf and scanf and never
 * calls fflush: the judge makes the C library's stdout line-buffered (see
 * docs/sandbox.md), so every line is sent as soon as it ends with '\n'.
 *
 * Each turn: ask the board's size, ask how many discs each column holds,
 * drop a disc into a random column that is not full, end the turn.
 */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    /* JUDGE_SEED makes games reproducible; any number would do. */
    const char *seed = getenv("JUDGE_SEED");
    srand(seed ? (unsigned)strtoull(seed, NULL, 10) : 1u);

    for (;;) {
        int width, height, k;
        printf("Params\n");
        if (scanf("%d %d %d", &width, &height, &k) != 3)
            return 0; /* the game is over: stdin was closed */

        /* Heights: one number per column, the discs it holds. */
        printf("Heights\n");
        int open[64], n = 0;
        for (int x = 0; x < width; x++) {
            int filled;
            if (scanf("%d", &filled) != 1)
                return 0;
            if (filled < height)
                open[n++] = x;
        }

        printf("DropDisc %d\n", open[rand() % n]);
        printf("#END\n");
    }
}
