/* Asks for memory without end, touching every page, in its first turn. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    for (size_t total = 0;; total += 1 << 20) {
        char *p = malloc(1 << 20);
        if (!p) {
            fprintf(stderr, "malloc failed after %zu MiB\n", total >> 20);
            return 1;
        }
        memset(p, 1, 1 << 20);
    }
}
