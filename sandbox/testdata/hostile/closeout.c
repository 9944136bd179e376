#include <unistd.h>
int main(void) { close(1); for (;;) pause(); }
