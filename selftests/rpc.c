// SPDX-License-Identifier: GPL-2.0
/*
 * Request-response over one TCP connection, with idle gaps: the on-off
 * traffic PLB prefers to repath between.
 *
 *   rpc -s PORT                            server: for each request of
 *                                          N bytes (4-byte length
 *                                          prefix), answer one byte
 *   rpc -c ADDR PORT COUNT BYTES GAP_US [CC [SECS]]
 *                                          client: COUNT requests of BYTES
 *                                          each, GAP_US of idle between
 *                                          them, on one connection (with
 *                                          congestion control CC if given,
 *                                          "-" for the default), stopping
 *                                          early after SECS seconds if given
 *
 * The client prints one line of key=value pairs, completion times in
 * microseconds from the first byte written to the answer read:
 *   rpcs=N bytes=B p50_us=... p90_us=... p99_us=... max_us=... total_ms=...
 *   unfinished=U
 * rpcs counts the completed requests.  With SECS, no request starts after
 * SECS seconds and one still waiting then is given up (unfinished=1); its
 * time so far (a lower bound) is counted in the percentiles.
 *
 * With RPC_EACH=FILE in the environment the client also writes every
 * request to FILE once done: a line "port=LOCAL_PORT", then one line a
 * request, "INDEX START_MONO_US START_REAL_US TIME_US" (its start on the
 * monotonic clock, ftrace's "mono", and on the real-time clock, a
 * capture's; the last one given up counted as above).
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
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TOOL_NAME "rpc"
#include "tool.h"

static char buf[1 << 16];

/* RPC_EACH (above): every request's start and time, and the local port. */
static void write_each(const char *path, int fd, long count,
		       const long long *mono, const long long *real,
		       const long long *t)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	unsigned int port = 0;
	FILE *f;
	long i;

	if (!getsockname(fd, (struct sockaddr *)&ss, &sl))
		port = ntohs(ss.ss_family == AF_INET6 ?
			     ((struct sockaddr_in6 *)&ss)->sin6_port :
			     ((struct sockaddr_in *)&ss)->sin_port);
	f = fopen(path, "w");
	if (!f)
		die("RPC_EACH");
	fprintf(f, "port=%u\n", port);
	for (i = 0; i < count; i++)
		fprintf(f, "%ld %lld %lld %lld\n", i, mono[i], real[i], t[i]);
	fclose(f);
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

/* Read exactly n bytes: 1, or 0 on EOF, -1 on a receive timeout. */
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
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return -1;
			die("read");
		}
		got += (size_t)r;
	}
	return 1;
}

static void serve(int fd)
{
	uint32_t len;

	while (read_full(fd, &len, sizeof(len)) > 0) {
		len = ntohl(len);
		while (len) {
			size_t n = len < sizeof(buf) ? len : sizeof(buf);

			if (read_full(fd, buf, n) <= 0)
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
		  long bytes, long gap_us, const char *cc, long secs)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai;
	long long *t, *mono, *real, start = now_us();
	long long end = start + secs * 1000000LL;
	const char *each = getenv("RPC_EACH");
	int one = 1, fd, unfinished = 0;
	long i;

	if (count < 1 || bytes < 1 || bytes > 0x7fffffffL || gap_us < 0 ||
	    secs < 0) {
		fprintf(stderr, "rpc: bad COUNT, BYTES or GAP_US\n");
		return 2;
	}
	t = calloc((size_t)count, sizeof(*t));
	mono = calloc((size_t)count, sizeof(*mono));
	real = calloc((size_t)count, sizeof(*real));
	if (!t || !mono || !real)
		die("calloc");
	if (getaddrinfo(addr, port, &hints, &ai))
		die("getaddrinfo");
	fd = socket(ai->ai_family, SOCK_STREAM, 0);
	if (fd < 0)
		die("socket");
	if (cc && strcmp(cc, "-"))	/* "-": the default */
		set_cc(fd, cc);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (connect(fd, ai->ai_addr, ai->ai_addrlen))
		die("connect");
	for (i = 0; i < count; i++) {
		uint32_t len = htonl((uint32_t)bytes);
		long left = bytes;
		long long t0 = now_us();
		char c;
		int r;

		mono[i] = t0;
		real[i] = clock_us(CLOCK_REALTIME);

		if (secs) {
			struct timeval tv;

			if (t0 >= end)
				break;
			tv.tv_sec = (end - t0) / 1000000;
			tv.tv_usec = (end - t0) % 1000000;
			setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
			setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
		}
		if (write(fd, &len, sizeof(len)) != sizeof(len))
			die("write");
		while (left) {
			size_t n = left < (long)sizeof(buf) ? (size_t)left :
							       sizeof(buf);
			ssize_t w = write(fd, buf, n);

			if (w < 0) {
				if (errno == EINTR)
					continue;
				if (errno == EAGAIN || errno == EWOULDBLOCK)
					break;
				die("write");
			}
			left -= w;
		}
		r = left ? -1 : read_full(fd, &c, 1);
		t[i] = now_us() - t0;
		if (r < 0) {
			unfinished = 1;
			i++;
			break;
		}
		if (!r) {
			fprintf(stderr, "rpc: server closed early\n");
			return 1;
		}
		if (gap_us)
			usleep((useconds_t)gap_us);
	}
	count = i;
	if (each && *each)
		write_each(each, fd, count, mono, real, t);
	close(fd);
	if (!count) {
		printf("rpcs=0 bytes=%ld unfinished=0\n", bytes);
		free(t);
		free(mono);
		free(real);
		return 1;
	}
	qsort(t, (size_t)count, sizeof(*t), cmp_ll);
	printf("rpcs=%ld bytes=%ld p50_us=%lld p90_us=%lld p99_us=%lld max_us=%lld total_ms=%lld unfinished=%d\n",
	       count - unfinished, bytes, t[(count - 1) / 2],
	       t[(count * 9 - 1) / 10], t[(count * 99 - 1) / 100],
	       t[count - 1], (now_us() - start) / 1000, unfinished);
	free(t);
	free(mono);
	free(real);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "-s"))
		return server(argv[2]);
	if (argc >= 7 && argc <= 9 && !strcmp(argv[1], "-c"))
		return client(argv[2], argv[3], atol(argv[4]), atol(argv[5]),
			      atol(argv[6]), argc >= 8 ? argv[7] : NULL,
			      argc == 9 ? atol(argv[8]) : 0);
	fprintf(stderr,
		"usage: rpc -s PORT | rpc -c ADDR PORT COUNT BYTES GAP_US [CC [SECS]]\n");
	return 2;
}
