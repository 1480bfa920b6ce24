// SPDX-License-Identifier: GPL-2.0
/*
 * N-to-1 incast with synchronized starts.
 *
 *   incast -s PORT [MS]                 sink: accept, read to EOF, close;
 *                                       with MS, every MS milliseconds a
 *                                       line "T_US SPORT BYTES" for each
 *                                       connection that received data in
 *                                       the interval (T_US: its end,
 *                                       CLOCK_MONOTONIC; SPORT: the
 *                                       sender's port)
 *   incast -c ADDR PORT N BYTES [CC]    open N connections (with CC if
 *                                       given), then send BYTES on each
 *                                       at once
 *   incast -b ADDR PORT SECS [CC]       one bulk flow for SECS seconds, then
 *                                       an abortive close (RST: no send
 *                                       buffer left to drain), so that the
 *                                       flow ends when it is told to
 *
 * The client connects every flow first and only then starts sending on all
 * of them from one poll loop, so the flows really start together (a
 * process per flow would start them milliseconds apart in the emulator).
 * A flow is complete when the sink has read all of it and closed (the
 * client sees EOF).  The client prints one line of key=value pairs:
 *   flows=N bytes=B last_us=... median_us=... first_us=...
 * with completion times measured from the common start.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <linux/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define TOOL_NAME "incast"
#include "tool.h"

#define MAX_FLOWS 4096

static char buf[1 << 16];

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

static void report(long long t, int n, const int *sport, long long *bytes)
{
	int i;

	for (i = 1; i < n; i++) {
		if (!bytes[i])
			continue;
		printf("%lld %d %lld\n", t, sport[i], bytes[i]);
		bytes[i] = 0;
	}
	fflush(stdout);
}

static int sink(const char *port, long interval_ms)
{
	static int sport[MAX_FLOWS + 1];
	static long long bytes[MAX_FLOWS + 1];
	long long next = now_us() + interval_ms * 1000;
	struct addrinfo hints = { .ai_family = AF_INET6,
				  .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE }, *ai;
	static struct pollfd pfd[MAX_FLOWS + 1];
	int one = 1, zero = 0, n = 1, lfd, i;

	if (getaddrinfo(NULL, port, &hints, &ai))
		die("getaddrinfo");
	lfd = socket(AF_INET6, SOCK_STREAM, 0);
	if (lfd < 0)
		die("socket");
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	setsockopt(lfd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	if (bind(lfd, ai->ai_addr, ai->ai_addrlen) || listen(lfd, 4096))
		die("bind/listen");
	freeaddrinfo(ai);
	pfd[0] = (struct pollfd){ .fd = lfd, .events = POLLIN };
	for (;;) {
		int wait_ms = -1;

		if (interval_ms > 0) {
			long long now = now_us();

			if (now >= next) {
				report(next, n, sport, bytes);
				next += interval_ms * 1000;
				if (next <= now)	/* fell behind: skip */
					next = now + interval_ms * 1000;
			}
			wait_ms = (int)((next - now + 999) / 1000);
		}
		if (poll(pfd, n, wait_ms) < 0 && errno != EINTR)
			die("poll");
		if ((pfd[0].revents & POLLIN) && n <= MAX_FLOWS) {
			struct sockaddr_in6 peer;
			socklen_t len = sizeof(peer);
			int fd = accept(lfd, (struct sockaddr *)&peer, &len);

			if (fd >= 0) {
				sport[n] = ntohs(peer.sin6_port);
				bytes[n] = 0;
				pfd[n++] = (struct pollfd){ .fd = fd,
							    .events = POLLIN };
			}
		}
		for (i = 1; i < n; i++) {
			ssize_t r;

			if (!pfd[i].revents)
				continue;
			r = read(pfd[i].fd, buf, sizeof(buf));
			if (r > 0)
				bytes[i] += r;
			if (r > 0 || (r < 0 && errno == EINTR))
				continue;
			close(pfd[i].fd);
			/* The last interval's bytes of a closing flow. */
			if (bytes[i]) {
				printf("%lld %d %lld\n", now_us(), sport[i],
				       bytes[i]);
				fflush(stdout);
			}
			--n;
			pfd[i] = pfd[n];
			sport[i] = sport[n];
			bytes[i] = bytes[n];
			i--;
		}
	}
}

static int bulk(const char *addr, const char *port, double secs,
		const char *cc)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai;
	struct linger lg = { .l_onoff = 1, .l_linger = 0 };
	long long end;
	int fd;

	if (getaddrinfo(addr, port, &hints, &ai))
		die("getaddrinfo");
	fd = socket(ai->ai_family, SOCK_STREAM, 0);
	if (fd < 0)
		die("socket");
	set_cc(fd, cc);
	if (connect(fd, ai->ai_addr, ai->ai_addrlen))
		die("connect");
	freeaddrinfo(ai);
	end = now_us() + (long long)(secs * 1e6);
	{
		struct timeval tv = { .tv_sec = 0, .tv_usec = 100000 };

		/* Writes give up after 100 ms so the end is kept. */
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	}
	while (now_us() < end) {
		if (write(fd, buf, sizeof(buf)) < 0 && errno != EINTR &&
		    errno != EAGAIN && errno != EWOULDBLOCK)
			die("write");
	}
	setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	close(fd);
	return 0;
}

static int client(const char *addr, const char *port, int nflows,
		  long bytes, const char *cc)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai;
	static struct pollfd pfd[MAX_FLOWS];
	static long left[MAX_FLOWS];
	static long long done_us[MAX_FLOWS];
	int i, active = 0, finished = 0;
	long long t0;

	if (nflows < 1 || nflows > MAX_FLOWS || bytes < 1) {
		fprintf(stderr, "incast: 1..%d flows of >= 1 byte\n",
			MAX_FLOWS);
		return 1;
	}
	if (getaddrinfo(addr, port, &hints, &ai))
		die("getaddrinfo");
	for (i = 0; i < nflows; i++) {
		int fd = socket(ai->ai_family, SOCK_STREAM, 0);

		if (fd < 0)
			die("socket");
		set_cc(fd, cc);
		if (connect(fd, ai->ai_addr, ai->ai_addrlen))
			die("connect");
		fcntl(fd, F_SETFL, O_NONBLOCK);
		pfd[i] = (struct pollfd){ .fd = fd, .events = POLLOUT };
		left[i] = bytes;
	}
	freeaddrinfo(ai);
	active = nflows;
	t0 = now_us();
	while (finished < nflows) {
		if (poll(pfd, nflows, 30000) <= 0)
			die("poll (stalled for 30 s)");
		for (i = 0; i < nflows; i++) {
			ssize_t r;

			if (!pfd[i].revents || pfd[i].fd < 0)
				continue;
			if (left[i] > 0) {
				r = write(pfd[i].fd, buf,
					  left[i] < (long)sizeof(buf) ?
					  (size_t)left[i] : sizeof(buf));
				if (r < 0 && errno != EAGAIN)
					die("write");
				if (r > 0)
					left[i] -= r;
				if (!left[i]) {
					shutdown(pfd[i].fd, SHUT_WR);
					pfd[i].events = POLLIN;
					active--;
				}
				continue;
			}
			r = read(pfd[i].fd, buf, sizeof(buf));
			if (r == 0 || (r < 0 && errno != EAGAIN)) {
				done_us[i] = now_us() - t0;
				close(pfd[i].fd);
				pfd[i].fd = -1;
				finished++;
			}
		}
	}
	qsort(done_us, nflows, sizeof(done_us[0]), cmp_ll);
	printf("flows=%d bytes=%ld first_us=%lld median_us=%lld last_us=%lld\n",
	       nflows, bytes, done_us[0], done_us[nflows / 2],
	       done_us[nflows - 1]);
	return active ? 1 : 0;
}

int main(int argc, char **argv)
{
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "-s")) {
		setvbuf(stdout, NULL, _IOFBF, 1 << 16);
		return sink(argv[2], argc == 4 ? atol(argv[3]) : 0);
	}
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "-b"))
		return bulk(argv[2], argv[3], atof(argv[4]),
			    argc == 6 ? argv[5] : NULL);
	if ((argc == 6 || argc == 7) && !strcmp(argv[1], "-c"))
		return client(argv[2], argv[3], atoi(argv[4]), atol(argv[5]),
			      argc == 7 ? argv[6] : NULL);
	fprintf(stderr,
		"usage: %s -s PORT [MS] | -c ADDR PORT N BYTES [CC] | -b ADDR PORT SECS [CC]\n",
		argv[0]);
	return 1;
}
