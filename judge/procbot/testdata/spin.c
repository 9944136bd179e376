/* Plays its first turn at once; on every later turn it computes for
 * 300 ms of CPU time before it answers, well within the wall-clock limit. */
#include <stdio.h>
#include <time.h>

static double cpu(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(void) {
    char line[64];
    for (int turn = 0;; turn++) {
        if (turn > 0) {
            double start = cpu();
            while (cpu() - start < 0.3) {
            }
        }
        printf("Board\n");
        char b[9];
        for (int i = 0; i < 3; i++) {
            if (!fgets(line, sizeof line, stdin))
                return 0;
            b[3 * i] = line[0], b[3 * i + 1] = line[2], b[3 * i + 2] = line[4];
        }
        for (int i = 0; i < 9; i++)
            if (b[i] == '-') {
                printf("PlaceSymbol %d %d\n#END\n", i % 3, i / 3);
                break;
            }
    }
}
