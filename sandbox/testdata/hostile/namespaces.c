// namespaces: tries to make namespaces of its own, the way exploits of
// the kernel start: clone3 (whose flags a seccomp filter cannot see),
// plain and with CLONE_NEWUSER; clone with CLONE_NEWUSER; unshare. It
// prints what each returned: "ok" or the errno's name.
#define _GNU_SOURCE
#include <errno.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *result(long r) {
	if (r >= 0)
		return "ok";
	switch (errno) {
	case ENOSYS: return "ENOSYS";
	case EPERM: return "EPERM";
	case EINVAL: return "EINVAL";
	case ENOSPC: return "ENOSPC";
	default: return strerror(errno);
	}
}

// try runs clone3 or clone with flags; a child that is made exits at
// once.
static void try(const char *name, long r) {
	if (r == 0)
		_exit(0);
	if (r > 0)
		waitpid(r, NULL, 0);
	printf("%s %s\n", name, result(r));
}

int main(void) {
	struct clone_args a;
	memset(&a, 0, sizeof a);
	a.exit_signal = SIGCHLD;
	try("clone3", syscall(SYS_clone3, &a, sizeof a));
	a.flags = CLONE_NEWUSER;
	try("clone3-newuser", syscall(SYS_clone3, &a, sizeof a));
	try("clone-newuser", syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, NULL, NULL, NULL, 0));
	printf("unshare-newuser %s\n", result(unshare(CLONE_NEWUSER)));
	fflush(stdout);
	return 0;
}
