// SPDX-License-Identifier: GPL-2.0
/*
 * Request-response over one TCP connection, with idle gaps: the on-off
 * traffic PLB prefers to repath between.
 *
 *   rpc -s PORT                            server: for each request of
 *                                          N bytes (4-byte length
 *                                          prefix), answer one byte
 *   rpc -c ADDR PORT COUNT BYTES GAP_US [CC]
 *                                          client: COUNT requests of BYTES
 *                                          each, GAP_US of idle between
 *                                          them, on one connection (with
 *                                          congestion control CC if given)
 *
 * The client prints one line of key=value pairs, completion times in
 * microseconds from the first byte written to the answer read:
 *   rpcs=N bytes=B p50_us=... p90_us=... p99_us=... max_us=... total_ms=...
 */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <linux/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char buf[1 << 16];

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static void __attribute__((noreturn)) die(const char *what)
{
	fprintf(stderr, "rpc: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

/* Read exactly n bytes (into buf, n <= sizeof(buf) if keep); 0 on EOF. */
static int read_full(int fd, void *dst, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, (char *)dst + got, n - got);

		if (r == 0)
			return 0;
		if (r < 0) {
			if (errno == EINTR)
				continue;
			die("read");
		}
		got += (size_t)r;
	}
	return 1;
}

static void serve(int fd)
{
	uint32_t len;

	while (read_full(fd, &len, sizeof(len))) {
		len = ntohl(len);
		while (len) {
			size_t n = len < sizeof(buf) ? len : sizeof(buf);

			if (!read_full(fd, buf, n))
				exit(0);
			len -= (uint32_t)n;
		}
		if (write(fd, "k", 1) != 1)
			die("write");
	}
	exit(0);
}

static int server(const char *port)
{
	struct addrinfo hints = { .ai_family = AF_INET6,
				  .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE }, *ai;
	int one = 1, ls, fd;

	signal(SIGCHLD, SIG_IGN);
	if (getaddrinfo(NULL, port, &hints, &ai))
		die("getaddrinfo");
	ls = socket(ai->ai_family, SOCK_STREAM, 0);
	if (ls < 0)
		die("socket");
	setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(ls, ai->ai_addr, ai->ai_addrlen) || listen(ls, 128))
		die("bind/listen");
	for (;;) {
		fd = accept(ls, NULL, NULL);
		if (fd < 0) {
			if (errno == EINTR)
				continue;
			die("accept");
		}
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		if (fork() == 0) {
			close(ls);
			serve(fd);
		}
		close(fd);
	}
}

static int client(const char *addr, const char *port, long count,
		  long bytes, long gap_us, const char *cc)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai;
	long long *t, start = now_us();
	int one = 1, fd;
	long i;

	if (count < 1 || bytes < 1 || bytes > 0x7fffffffL || gap_us < 0) {
		fprintf(stderr, "rpc: bad COUNT, BYTES or GAP_US\n");
		return 2;
	}
	t = calloc((size_t)count, sizeof(*t));
	if (!t)
		die("calloc");
	if (getaddrinfo(addr, port, &hints, &ai))
		die("getaddrinfo");
	fd = socket(ai->ai_family, SOCK_STREAM, 0);
	if (fd < 0)
		die("socket");
	if (cc && setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cc, strlen(cc)))
		die("TCP_CONGESTION");
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (connect(fd, ai->ai_addr, ai->ai_addrlen))
		die("connect");
	for (i = 0; i < count; i++) {
		uint32_t len = htonl((uint32_t)bytes);
		long left = bytes;
		long long t0 = now_us();
		char c;

		if (write(fd, &len, sizeof(len)) != sizeof(len))
			die("write");
		while (left) {
			size_t n = left < (long)sizeof(buf) ? (size_t)left :
							       sizeof(buf);
			ssize_t w = write(fd, buf, n);

			if (w < 0) {
				if (errno == EINTR)
					continue;
				die("write");
			}
			left -= w;
		}
		if (!read_full(fd, &c, 1)) {
			fprintf(stderr, "rpc: server closed early\n");
			return 1;
		}
		t[i] = now_us() - t0;
		if (gap_us)
			usleep((useconds_t)gap_us);
	}
	close(fd);
	qsort(t, (size_t)count, sizeof(*t), cmp_ll);
	printf("rpcs=%ld bytes=%ld p50_us=%lld p90_us=%lld p99_us=%lld max_us=%lld total_ms=%lld\n",
	       count, bytes, t[(count - 1) / 2], t[(count * 9 - 1) / 10],
	       t[(count * 99 - 1) / 100], t[count - 1],
	       (now_us() - start) / 1000);
	free(t);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "-s"))
		return server(argv[2]);
	if ((argc == 7 || argc == 8) && !strcmp(argv[1], "-c"))
		return client(argv[2], argv[3], atol(argv[4]), atol(argv[5]),
			      atol(argv[6]), argc == 8 ? argv[7] : NULL);
	fprintf(stderr,
		"usage: rpc -s PORT | rpc -c ADDR PORT COUNT BYTES GAP_US [CC]\n");
	return 2;
}
