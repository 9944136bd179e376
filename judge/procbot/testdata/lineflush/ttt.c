#include <stdio.h>
#include <string.h>

int main(void) {
    char row[3][64];
    for (;;) {
        printf("Board\n");
        for (int y = 0; y < 3; y++)
            if (!fgets(row[y], sizeof row[y], stdin))
                return 0;
        for (int i = 0; i < 9; i++) {
            if (row[i / 3][2 * (i % 3)] == '-') {
                printf("PlaceSymbol %d %d\n", i % 3, i / 3);
                break;
            }
        }
        printf("#END\n");
    }
}
