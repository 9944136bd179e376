/* Threads that make threads as fast as they can, as a bot does that
 * starts its helpers as it starts: the main thread makes the first, each
 * makes the next, 40 in all, then each waits. A thread takes its CPU
 * affinity from the thread that makes it. */
#include <pthread.h>
#include <stdint.h>
#include <unistd.h>

static void *next(void *arg) {
	intptr_t left = (intptr_t)arg;
	pthread_t t;
	if (left > 0)
		pthread_create(&t, 0, next, (void *)(left - 1));
	for (;;)
		pause();
	return 0;
}

int main(void) {
	next((void *)40);
}
