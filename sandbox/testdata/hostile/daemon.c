#include "common.h"
#include <sys/wait.h>
int main(void) {
	pid_t pid = fork();
	if (pid == 0) {
		setsid();
		if (fork() == 0) {
			close(0); close(1); close(2);
			for (;;) pause();
		}
		_exit(0);
	}
	waitpid(pid, 0, 0);
	done();
}
