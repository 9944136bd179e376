#include <string.h>
#include <unistd.h>
/* Floods stdout with short lines, never ending its turn. */
int main(void) {
	static char buf[1 << 16];
	memset(buf, 'x', sizeof buf);
	for (int i = 63; i < (int)sizeof buf; i += 64) buf[i] = '\n';
	for (;;) write(1, buf, sizeof buf);
}
