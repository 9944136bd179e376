#include "common.h"
#include <fcntl.h>
#include <libgen.h>
/* targets: paths outside its directory; its own directory is dirname(argv[0]). */
int main(int argc, char **argv) {
	char own[4096];
	snprintf(own, sizeof own, "%s/written", dirname(strdup(argv[0])));
	if (open(own, O_WRONLY | O_CREAT, 0644) >= 0) leak(own);
	const char *fixed[] = {"/etc/judge-leak", "/usr/judge-leak", "/judge-leak", "/dev/judge-leak"};
	for (int i = 0; i < 4; i++)
		if (open(fixed[i], O_WRONLY | O_CREAT, 0644) >= 0) leak(fixed[i]);
	int n;
	char **t = targets(argc, argv, &n);
	for (int i = 0; i < n; i++)
		if (open(t[i], O_WRONLY | O_CREAT, 0644) >= 0) leak(t[i]);
	if (open(tmp("mine"), O_WRONLY | O_CREAT, 0644) < 0) leak("cannot write its own /tmp");
	done();
}
