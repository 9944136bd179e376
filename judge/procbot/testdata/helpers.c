/* A bot that plays with helpers: as it starts it starts two threads that
 * spin for ever; at each turn it computes on its main thread until that thread
 * has used 800 ms of CPU time, and answers. Alone it would answer within
 * a 1 s turn; its helpers take their share of its CPU, and that time is
 * its own: the judge's clock must not count its threads' waits behind
 * each other as the machine's. */
#include <pthread.h>
#include <stdio.h>
#include <time.h>

static double threadCPU(void) {
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void *spin(void *arg) {
	for (volatile unsigned long i = 0;; i++)
		;
	return arg;
}

int main(void) {
	pthread_t t;
	for (int i = 0; i < 2; i++)
		pthread_create(&t, 0, spin, 0);
	char line[64];
	for (;;) {
		double start = threadCPU();
		while (threadCPU() - start < 0.8) {
		}
		printf("Board\n");
		fflush(stdout);
		char b[9];
		for (int i = 0; i < 3; i++) {
			if (!fgets(line, sizeof line, stdin))
				return 0;
			b[3 * i] = line[0], b[3 * i + 1] = line[2], b[3 * i + 2] = line[4];
		}
		for (int i = 0; i < 9; i++)
			if (b[i] == '-') {
				printf("PlaceSymbol %d %d\n#END\n", i % 3, i / 3);
				break;
			}
		fflush(stdout);
	}
}
