//go:build ignore
// (The line above keeps the Go tool away from this C file; the tests of this
// directory are Go. The C compiler sees two comments.)

/*
 * A random Battleship bot in C.
 *
 * It speaks the Wrocław protocol with plain printf and scanf and never
 * calls fflush: the judge makes the C library's stdout line-buffered (see
 * docs/sandbox.md), so every line is sent as soon as it ends with '\n'.
 *
 * Turn 1 (Phase answers "place"): put every ship of the fleet at a random
 * place where it fits. Later turns ("fire"): shoot a random cell it has not
 * shot yet.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char used[100 * 100]; /* placement: cells taken by my ships */
static char shot[100 * 100]; /* firing: cells I have shot */

int main(void) {
    /* JUDGE_SEED makes games reproducible; any number would do. */
    const char *seed = getenv("JUDGE_SEED");
    srand(seed ? (unsigned)strtoull(seed, NULL, 10) : 1u);

    for (;;) {
        char phase[16];
        printf("Phase\n");
        if (scanf("%15s", phase) != 1)
            return 0; /* the game is over: stdin was closed */

        /* Params: width height, then how many ships of length 1..6. */
        int w, h, count[7];
        printf("Params\n");
        if (scanf("%d %d", &w, &h) != 2)
            return 0;
        for (int len = 1; len <= 6; len++)
            if (scanf("%d", &count[len]) != 1)
                return 0;

        if (strcmp(phase, "place") == 0) {
            for (int len = 6; len >= 1; len--) {
                for (int i = 0; i < count[len]; i++) {
                    /* Random tries until the ship fits on free water. */
                    for (;;) {
                        int down = rand() % 2, x = rand() % w, y = rand() % h;
                        int dx = down ? 0 : 1, dy = down ? 1 : 0, ok = 1;
                        if (x + dx * (len - 1) >= w || y + dy * (len - 1) >= h)
                            continue;
                        for (int j = 0; j < len; j++)
                            if (used[(y + dy * j) * w + x + dx * j])
                                ok = 0;
                        if (!ok)
                            continue;
                        for (int j = 0; j < len; j++)
                            used[(y + dy * j) * w + x + dx * j] = 1;
                        /* The two ends of the ship: x1,y1-x2,y2. */
                        printf("PlaceShip %d,%d-%d,%d\n", x, y, x + dx * (len - 1), y + dy * (len - 1));
                        break;
                    }
                }
            }
        } else {
            int c;
            do
                c = rand() % (w * h);
            while (shot[c]);
            shot[c] = 1;
            printf("Shoot %d %d\n", c % w, c / w);
        }
        printf("#END\n");
    }
}
