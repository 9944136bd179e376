/* Plays one good turn, then dies of a segmentation fault on its second. */
#include <stdio.h>
int main(void) {
    char line[64];
    printf("Board\n");
    for (int i = 0; i < 3; i++) fgets(line, sizeof line, stdin);
    printf("PlaceSymbol 0 0\n#END\n");
    fprintf(stderr, "about to dereference NULL\n");
    printf("CurrentTurn\n");
    fgets(line, sizeof line, stdin);
    volatile int *p = 0;
    return *p;
}
