#include <stdio.h>
#include <unistd.h>
/* Writes a whole line but through a full buffer it never flushes. */
int main(void) {
	char line[256];
	setvbuf(stdout, 0, _IOFBF, 1 << 16);
	printf("#END\n");
	while (fgets(line, sizeof line, stdin)) printf("#END\n");
	return 0;
}
