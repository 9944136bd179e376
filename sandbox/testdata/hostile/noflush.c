#include <stdio.h>
/* Never flushes: works only when stdout is a terminal. */
int main(void) {
	char line[256];
	printf("#END\n");
	while (fgets(line, sizeof line, stdin)) printf("#END\n");
	return 0;
}
