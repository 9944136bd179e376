#include <time.h>
int main(void) {
	struct timespec ts;
	for (;;) clock_gettime(CLOCK_MONOTONIC, &ts);
}
