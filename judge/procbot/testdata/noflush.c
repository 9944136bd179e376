/* Forgets the newline after #END and does not flush: on a terminal the C
 * library keeps the unfinished line to itself, and the bot waits for an
 * answer that never comes. */
#include <stdio.h>
int main(void) {
    printf("PlaceSymbol 1 1\n#END");
    char line[64];
    fgets(line, sizeof line, stdin);
    return 0;
}
