#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(void) {
	static char buf[10 << 20];
	memset(buf, 'a', sizeof buf);
	buf[sizeof buf - 1] = '\n';
	fwrite(buf, 1, sizeof buf, stdout);
	fflush(stdout);
	for (;;) pause();
}
