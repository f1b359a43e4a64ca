// SPDX-License-Identifier: GPL-2.0
/*
 * kwrite: write one value to a sysfs or procfs file with a single write(2)
 * and print how the kernel answered: "ok" or the errno name (EINVAL, EBUSY,
 * ...). Shell builtins differ in whether they report a failed write at
 * all, and the tests must tell EINVAL from EBUSY.
 */
#include <fcntl.h>
#include <unistd.h>
#include "wl.h"

static const char *errno_name(int e)
{
	switch (e) {
	case EINVAL: return "EINVAL";
	case EBUSY: return "EBUSY";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case ENOENT: return "ENOENT";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ENOMEM: return "ENOMEM";
	default: return "EOTHER";
	}
}

int main(int argc, char **argv)
{
	size_t len;
	ssize_t n;
	int fd;

	wl_prog = "kwrite";
	if (argc == 2 && !strcmp(argv[1], "--help")) {
		printf("usage: kwrite FILE VALUE\n"
		       "Writes VALUE and a newline to FILE in one write(2); prints ok or the\n"
		       "errno name. Exit: 0 written, 1 the kernel refused it, 2 usage.\n");
		return 0;
	}
	if (argc != 3)
		wl_die(2, "usage: kwrite FILE VALUE (see --help)");
	fd = open(argv[1], O_WRONLY);
	if (fd < 0) {
		printf("%s\n", errno_name(errno));
		return 1;
	}
	len = strlen(argv[2]);
	char *buf = malloc(len + 2);

	if (!buf)
		wl_die(1, "out of memory");
	memcpy(buf, argv[2], len);
	buf[len] = '\n';
	n = write(fd, buf, len + 1);
	if (n < 0) {
		printf("%s\n", errno_name(errno));
		return 1;
	}
	close(fd);
	printf("ok\n");
	return 0;
}
