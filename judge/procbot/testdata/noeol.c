/* Writes its move and flushes, but forgets the newline after #END, then
 * waits for an answer that never comes. */
#include <stdio.h>
int main(void) {
    printf("PlaceSymbol 1 1\n#END");
    fflush(stdout);
    char line[64];
    fgets(line, sizeof line, stdin);
    return 0;
}
