#include "common.h"
#include <arpa/inet.h>
#include <sys/socket.h>
/* argv[1]: a port on 127.0.0.1 where the test listens. */
int main(int argc, char **argv) {
	int s = socket(AF_INET, SOCK_DGRAM, 0);
	if (s >= 0) {
		struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(atoi(argv[1]))};
		inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
		for (int i = 0; i < 10; i++) sendto(s, "leak", 4, 0, (struct sockaddr *)&a, sizeof a);
	}
	done();
}
