#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
/* What level basic shares with the host: tries the unix sockets of
 * others, abstract (argv[1]) and named (argv[2]); a datagram socket, which
 * could send to them; binding a name; socket pairs; truncating a file
 * it may write (argv[3]) by its path; signalling every process, and its
 * own group (signal 0: nothing is sent). Says, line by line, what it
 * could do. */
static void say(const char *what, int ok) {
	if (ok)
		printf("%s: allowed\n", what);
	else
		printf("%s: denied (%s)\n", what, strerror(errno));
}
int main(int argc, char **argv) {
	if (argc < 4) return 2;
	struct sockaddr_un a = {.sun_family = AF_UNIX}, b = {.sun_family = AF_UNIX};
	size_t n = strlen(argv[1]);
	if (n + 2 > sizeof a.sun_path || strlen(argv[2]) + 1 > sizeof b.sun_path) return 2;
	memcpy(a.sun_path + 1, argv[1], n);
	socklen_t alen = offsetof(struct sockaddr_un, sun_path) + 1 + n;
	strcpy(b.sun_path, argv[2]);
	int p[2];
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	say("abstract", s >= 0 && connect(s, (struct sockaddr *)&a, alen) == 0);
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	say("named", s >= 0 && connect(s, (struct sockaddr *)&b, sizeof b) == 0);
	say("datagram", socket(AF_UNIX, SOCK_DGRAM, 0) >= 0);
	say("datagram pair", socketpair(AF_UNIX, SOCK_DGRAM, 0, p) == 0);
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	a.sun_path[1] ^= 1; /* a name of its own */
	say("bind", s >= 0 && bind(s, (struct sockaddr *)&a, alen) == 0);
	say("pair", socketpair(AF_UNIX, SOCK_STREAM, 0, p) == 0);
	say("seqpacket pair", socketpair(AF_UNIX, SOCK_SEQPACKET, 0, p) == 0);
	say("truncate by a path", truncate(argv[3], 0) == 0);
	say("signal every process", kill(-1, 0) == 0);
	say("signal its group by number", kill(-getpgrp(), 0) == 0);
	say("signal its own group", kill(0, 0) == 0);
	return 0;
}
