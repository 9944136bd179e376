/* A bot for benchmarks: on its first turn it asks CurrentTurn N times
 * (argv[1]), reading each answer, then plays the first empty cell. With
 * argv[2] = "once" it ends after that first turn. Output is line-buffered,
 * so it works the same on a pty and on a pipe. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 100000;
    int once = argc > 2 && strcmp(argv[2], "once") == 0;
    char line[256];
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (int turn = 0;; turn++) {
        if (turn == 0) {
            for (long i = 0; i < n; i++) {
                fputs("CurrentTurn\n", stdout);
                if (!fgets(line, sizeof line, stdin))
                    return 0;
            }
        }
        if (once) {
            fputs("#END\n", stdout);
            return 0;
        }
        int size, k;
        fputs("Params\n", stdout);
        if (!fgets(line, sizeof line, stdin) || sscanf(line, "%d %d", &size, &k) != 2)
            return 0;
        int found = -1;
        for (int i = 0; i < size * size; i++) {
            printf("SymbolAt %d %d\n", i % size, i / size);
            if (!fgets(line, sizeof line, stdin))
                return 0;
            if (found < 0 && line[0] == '-')
                found = i;
        }
        printf("PlaceSymbol %d %d\n#END\n", found % size, found / size);
    }
}
