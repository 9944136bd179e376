#include <pthread.h>
static void *spin(void *arg) { for (volatile unsigned long i = 0;; i++) {} return arg; }
int main(void) {
	pthread_t t;
	for (int i = 0; i < 16; i++) pthread_create(&t, 0, spin, 0);
	spin(0);
}
