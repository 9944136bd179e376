/* A Splix bot for benchmarks: every turn it asks Position and View, reads
 * the answers (1 line, then 21), and moves N, E, S, W in turn: a 1×1 loop
 * inside its 5×5 starting land, which it never leaves, so it lives through
 * the whole game. Output is line-buffered: the same on a pty and a pipe. */
#include <stdio.h>

int main(void) {
    char line[256];
    const char *dirs = "NESW";
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (int turn = 0;; turn++) {
        fputs("Position\n", stdout);
        if (!fgets(line, sizeof line, stdin))
            return 0;
        fputs("View\n", stdout);
        for (int i = 0; i < 21; i++)
            if (!fgets(line, sizeof line, stdin))
                return 0;
        printf("Move %c\n#END\n", dirs[turn % 4]);
    }
}
