/* Tries every channel between two programs run one after the other in
 * one reused sandbox. "leave FILE" leaves what it can: a POSIX message
 * queue, an abstract unix socket and a lock on FILE held by a child that
 * stays, a host name, a key in the user's keyring, signals sent to the sandbox's init and each of its
 * threads; it runs with SECRET in its environment. "find FILE" looks for
 * each, printing one line per channel. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

static const char queue[] = "/judge-left", sock[] = "judge-left";

static socklen_t address(struct sockaddr_un *a) {
	memset(a, 0, sizeof *a);
	a->sun_family = AF_UNIX;
	memcpy(a->sun_path + 1, sock, strlen(sock));
	return offsetof(struct sockaddr_un, sun_path) + 1 + strlen(sock);
}

static void leave(const char *file) {
	mqd_t q = mq_open(queue, O_CREAT | O_RDWR, 0666, NULL);
	printf("mqueue: %s\n", q == (mqd_t)-1 ? strerror(errno) : "made");
	if (q != (mqd_t)-1)
		mq_send(q, "secret", 6, 0);
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un a;
	socklen_t n = address(&a);
	printf("abstract: %s\n", bind(s, (struct sockaddr *)&a, n) == 0 && listen(s, 1) == 0 ? "made" : strerror(errno));
	int fd = open(file, O_RDONLY);
	printf("lock: %s\n", fd >= 0 && flock(fd, LOCK_EX) == 0 ? "made" : strerror(errno));
	printf("hostname: %s\n", sethostname("leaked", 6) == 0 ? "made" : strerror(errno));
	long key = syscall(SYS_add_key, "user", "judge-left", "secret", 6, -4 /* the user's keyring */);
	printf("key: %s\n", key >= 0 ? "made" : strerror(errno));
	int sent = 0;
	for (int sig = 1; sig < 65; sig++) {
		sent += kill(1, sig) == 0;
		DIR *d = opendir("/proc/1/task");
		struct dirent *e;
		while (d && (e = readdir(d)) != NULL)
			if (atoi(e->d_name) > 0)
				sent += syscall(SYS_tgkill, 1, atoi(e->d_name), sig) == 0;
		if (d)
			closedir(d);
	}
	printf("signals: %d sent\n", sent);
	fflush(stdout);
	if (fork() == 0) {
		/* Holds the queue, the socket and the lock. */
		close(1);
		close(2);
		for (;;)
			pause();
	}
}

static void find(const char *file) {
	mqd_t q = mq_open(queue, O_RDONLY);
	printf("mqueue: %s\n", q == (mqd_t)-1 ? "none" : "FOUND");
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un a;
	socklen_t n = address(&a);
	printf("abstract: %s\n", connect(s, (struct sockaddr *)&a, n) == 0 ? "FOUND" : "none");
	int fd = open(file, O_RDONLY);
	printf("lock: %s\n", fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0 ? "none" : "FOUND");
	char host[64] = "";
	gethostname(host, sizeof host);
	printf("hostname: %s\n", host);
	long key = syscall(SYS_request_key, "user", "judge-left", NULL, 0);
	printf("key: %s\n", key >= 0 ? "FOUND" : "none");
	sigset_t pending;
	sigpending(&pending);
	int n2 = 0;
	for (int sig = 1; sig < 65; sig++)
		n2 += sigismember(&pending, sig) == 1;
	printf("signals: %d pending\n", n2);
	printf("environment: %s\n", getenv("SECRET") ? "FOUND" : "none");
}

int main(int argc, char **argv) {
	if (argc == 3 && strcmp(argv[1], "leave") == 0)
		leave(argv[2]);
	else if (argc == 3)
		find(argv[2]);
	return 0;
}
