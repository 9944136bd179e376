#include "common.h"
#include <signal.h>
int main(void) {
	kill(getppid(), SIGKILL);
	kill(getppid(), SIGTERM);
	kill(1, SIGKILL);
	signal(SIGTERM, SIG_IGN);
	kill(-1, SIGKILL);
	kill(-1, SIGTERM);
	done();
}
