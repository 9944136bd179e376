#include "common.h"
#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>
/* argv[1]: the name of an abstract unix socket another bot listens on. */
int main(int argc, char **argv) {
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	if (s < 0) { perror("socket"); done(); }
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	size_t n = strlen(argv[1]);
	memcpy(a.sun_path + 1, argv[1], n);
	if (connect(s, (struct sockaddr *)&a, offsetof(struct sockaddr_un, sun_path) + 1 + n) == 0) leak("abstract socket");
	done();
}
