// SPDX-License-Identifier: GPL-2.0
/*
 * Select a congestion control with setsockopt(TCP_CONGESTION) and check
 * that the connection really uses it.
 *
 *   cc_sockopt NAME                 set and read back on an unconnected socket
 *   cc_sockopt NAME ADDR PORT BYTES connect, send BYTES, then read back
 *                                   TCP_CONGESTION and TCP_INFO
 *
 * Prints "cc=<name> ..." and exits 0 when the name read back equals NAME.
 * A name the kernel does not know fails with exit status 2 (ENOENT), one
 * the caller may not choose with 3 (EPERM), anything else with 1.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <linux/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define TCP_CA_NAME_MAX 16

static int fail(const char *what)
{
	fprintf(stderr, "cc_sockopt: %s: %s\n", what, strerror(errno));
	return errno == ENOENT ? 2 : errno == EPERM ? 3 : 1;
}

int main(int argc, char **argv)
{
	char name[TCP_CA_NAME_MAX + 1] = "";
	socklen_t len = TCP_CA_NAME_MAX;
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai;
	struct tcp_info ti;
	int fd;

	if (argc != 2 && argc != 5) {
		fprintf(stderr, "usage: %s NAME [ADDR PORT BYTES]\n", argv[0]);
		return 1;
	}
	if (argc == 5 && getaddrinfo(argv[2], argv[3], &hints, &ai)) {
		fprintf(stderr, "cc_sockopt: bad address %s\n", argv[2]);
		return 1;
	}
	fd = socket(argc == 5 ? ai->ai_family : AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return fail("socket");
	if (setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, argv[1],
		       strlen(argv[1])))
		return fail("setsockopt(TCP_CONGESTION)");
	if (argc == 5) {
		long left = atol(argv[4]);
		static char buf[65536];

		if (connect(fd, ai->ai_addr, ai->ai_addrlen))
			return fail("connect");
		while (left > 0) {
			ssize_t n = send(fd, buf, left < (long)sizeof(buf) ?
					 (size_t)left : sizeof(buf), 0);
			if (n < 0)
				return fail("send");
			left -= n;
		}
		freeaddrinfo(ai);
	}
	if (getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, name, &len))
		return fail("getsockopt(TCP_CONGESTION)");
	name[len < TCP_CA_NAME_MAX ? len : TCP_CA_NAME_MAX] = '\0';
	len = sizeof(ti);
	memset(&ti, 0, sizeof(ti));
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len))
		return fail("getsockopt(TCP_INFO)");
	printf("cc=%s cwnd=%u rtt_us=%u pacing_rate=%llu\n", name,
	       ti.tcpi_snd_cwnd, ti.tcpi_rtt,
	       (unsigned long long)ti.tcpi_pacing_rate);
	close(fd);
	return strcmp(name, argv[1]) ? 1 : 0;
}
