// SPDX-License-Identifier: GPL-2.0
/*
 * N-to-1 incast with synchronized starts.
 *
 *   incast -s PORT                      sink: accept, read to EOF, close
 *   incast -c ADDR PORT N BYTES [CC]    open N connections (with CC if
 *                                       given), then send BYTES on each
 *                                       at once
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
#include <time.h>
#include <unistd.h>

#define MAX_FLOWS 4096

static char buf[1 << 16];

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static void __attribute__((noreturn)) die(const char *what)
{
	fprintf(stderr, "incast: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

static int sink(const char *port)
{
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
		if (poll(pfd, n, -1) < 0 && errno != EINTR)
			die("poll");
		if ((pfd[0].revents & POLLIN) && n <= MAX_FLOWS) {
			int fd = accept(lfd, NULL, NULL);

			if (fd >= 0)
				pfd[n++] = (struct pollfd){ .fd = fd,
							    .events = POLLIN };
		}
		for (i = 1; i < n; i++) {
			ssize_t r;

			if (!pfd[i].revents)
				continue;
			r = read(pfd[i].fd, buf, sizeof(buf));
			if (r > 0 || (r < 0 && errno == EINTR))
				continue;
			close(pfd[i].fd);
			pfd[i--] = pfd[--n];
		}
	}
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
		if (cc && setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cc,
				     strlen(cc)))
			die("setsockopt(TCP_CONGESTION)");
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
	if (argc == 3 && !strcmp(argv[1], "-s"))
		return sink(argv[2]);
	if ((argc == 6 || argc == 7) && !strcmp(argv[1], "-c"))
		return client(argv[2], argv[3], atoi(argv[4]), atol(argv[5]),
			      argc == 7 ? argv[6] : NULL);
	fprintf(stderr, "usage: %s -s PORT | -c ADDR PORT N BYTES [CC]\n",
		argv[0]);
	return 1;
}
