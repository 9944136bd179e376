#include "common.h"
int main(void) {
	static char buf[1 << 16];
	memset(buf, 'e', sizeof buf);
	buf[sizeof buf - 1] = '\n';
	for (int i = 0; i < 512; i++) write(2, buf, sizeof buf); /* 32 MiB */
	done();
}
