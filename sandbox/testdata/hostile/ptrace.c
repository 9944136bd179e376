#include "common.h"
#include <sys/ptrace.h>
int main(void) {
	if (ptrace(PTRACE_ATTACH, getppid(), 0, 0) == 0) leak("ptrace attach parent");
	if (ptrace(PTRACE_ATTACH, 1, 0, 0) == 0) leak("ptrace attach 1");
	pid_t pid = fork();
	if (pid == 0) { pause(); _exit(0); }
	if (ptrace(PTRACE_ATTACH, pid, 0, 0) == 0) leak("ptrace attach child");
	done();
}
