// SPDX-License-Identifier: GPL-2.0
/*
 * A checked bulk transfer for the robustness tests: the sender streams a
 * deterministic pseudo-random byte stream, the receiver writes what it
 * got to stdout (pipe it to sha256sum) and the expected stream comes from
 * "xfer -g", so a byte lost, duplicated, reordered or corrupted on the way
 * shows as a checksum mismatch.
 *
 *   xfer -g BYTES [-S SEED]            the stream itself, on stdout
 *   xfer -s PORT [opts]                receiver: accept one connection,
 *                                      copy it to stdout, exit at EOF
 *        -C CC      congestion control of the listener (the accepted
 *                   socket inherits it: both ends run CC)
 *        -r BYTES   SO_RCVBUF of the listener (a small window)
 *        -p AT:MS   stop reading for MS ms after AT bytes (zero window)
 *   xfer -c ADDR PORT BYTES [opts]     sender
 *        -C CC      congestion control (empty: the namespace's default)
 *        -S SEED    stream seed (default 1)
 *        -a CHUNK:GAP_US  application limited: CHUNK bytes, then GAP_US idle
 *        -i EVERY:MS      idle MS ms after every EVERY bytes (idle restart)
 *
 * The sender waits for the receiver to close (all data read), then prints
 *   cc=NAME bytes=N ms=T retrans=R rto=O
 * (TCP_CONGESTION and TCP_INFO of the connection).  The receiver prints
 * "cc=NAME bytes=N" on stderr.  Exit status 0 on success.
 */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <linux/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define TOOL_NAME "xfer"
#include "tool.h"

#define CA_NAME_MAX 16
#define BUF (1 << 16)

static unsigned char buf[BUF];

/* xorshift64*: the stream, a pure function of the seed and the offset. */
struct gen {
	uint64_t s;
	uint64_t word;
	unsigned int left;
};

static void gen_init(struct gen *g, unsigned long seed)
{
	g->s = seed * 0x9e3779b97f4a7c15ULL + 1;
	g->left = 0;
}

static void gen_fill(struct gen *g, unsigned char *p, size_t n)
{
	while (n--) {
		if (!g->left) {
			g->s ^= g->s >> 12;
			g->s ^= g->s << 25;
			g->s ^= g->s >> 27;
			g->word = g->s * 0x2545f4914f6cdd1dULL;
			g->left = 8;
		}
		*p++ = (unsigned char)g->word;
		g->word >>= 8;
		g->left--;
	}
}

static int write_all(int fd, const unsigned char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static void get_cc(int fd, char *name)
{
	socklen_t len = CA_NAME_MAX;

	memset(name, 0, CA_NAME_MAX + 1);
	if (getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, name, &len))
		strcpy(name, "?");
}

static int generate(long long bytes, unsigned long seed)
{
	struct gen g;

	gen_init(&g, seed);
	while (bytes > 0) {
		size_t n = bytes < BUF ? (size_t)bytes : BUF;

		gen_fill(&g, buf, n);
		if (write_all(1, buf, n))
			die("write");
		bytes -= (long long)n;
	}
	return 0;
}

static int receiver(const char *port, const char *cc, int rcvbuf,
		    long long pause_at, long pause_ms)
{
	struct addrinfo hints = { .ai_family = AF_INET6,
				  .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE }, *ai;
	char name[CA_NAME_MAX + 1];
	long long got = 0;
	int one = 1, ls, fd;

	if (getaddrinfo(NULL, port, &hints, &ai))
		die("getaddrinfo");
	ls = socket(ai->ai_family, SOCK_STREAM, 0);
	if (ls < 0)
		die("socket");
	setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (rcvbuf && setsockopt(ls, SOL_SOCKET, SO_RCVBUF, &rcvbuf,
				 sizeof(rcvbuf)))
		die("SO_RCVBUF");
	set_cc(ls, cc);
	if (bind(ls, ai->ai_addr, ai->ai_addrlen) || listen(ls, 4))
		die("bind/listen");
	do {
		fd = accept(ls, NULL, NULL);
	} while (fd < 0 && errno == EINTR);
	if (fd < 0)
		die("accept");
	close(ls);
	for (;;) {
		size_t want = BUF;
		ssize_t r;

		if (pause_at >= 0 && got < pause_at && pause_at - got < BUF)
			want = (size_t)(pause_at - got);
		r = read(fd, buf, want);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			die("read");
		}
		if (r == 0)
			break;
		if (write_all(1, buf, (size_t)r))
			die("write stdout");
		got += r;
		if (pause_at >= 0 && got >= pause_at) {
			usleep((useconds_t)pause_ms * 1000);
			pause_at = -1;
		}
	}
	get_cc(fd, name);
	fprintf(stderr, "cc=%s bytes=%lld\n", name, got);
	close(fd);
	return 0;
}

static int sender(const char *addr, const char *port, long long bytes,
		  const char *cc, unsigned long seed, long chunk, long gap_us,
		  long long idle_every, long idle_ms)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai;
	char name[CA_NAME_MAX + 1];
	long long sent = 0, since_idle = 0, t0 = now_ms();
	struct tcp_info ti;
	socklen_t len = sizeof(ti);
	struct gen g;
	int fd;

	if (getaddrinfo(addr, port, &hints, &ai))
		die("getaddrinfo");
	fd = socket(ai->ai_family, SOCK_STREAM, 0);
	if (fd < 0)
		die("socket");
	set_cc(fd, cc);
	if (connect(fd, ai->ai_addr, ai->ai_addrlen))
		die("connect");
	gen_init(&g, seed);
	while (sent < bytes) {
		long long n = bytes - sent;

		if (n > BUF)
			n = BUF;
		if (chunk > 0 && n > chunk)
			n = chunk;
		if (idle_every > 0 && n > idle_every - since_idle)
			n = idle_every - since_idle;
		gen_fill(&g, buf, (size_t)n);
		if (write_all(fd, buf, (size_t)n))
			die("write");
		sent += n;
		since_idle += n;
		if (chunk > 0 && gap_us > 0)
			usleep((useconds_t)gap_us);
		if (idle_every > 0 && since_idle >= idle_every && sent < bytes) {
			usleep((useconds_t)idle_ms * 1000);
			since_idle = 0;
		}
	}
	if (shutdown(fd, SHUT_WR))
		die("shutdown");
	/* The receiver closes after reading everything: wait for its FIN. */
	for (;;) {
		ssize_t r = read(fd, buf, BUF);

		if (r == 0)
			break;
		if (r < 0 && errno != EINTR)
			die("read");
	}
	get_cc(fd, name);
	memset(&ti, 0, sizeof(ti));
	getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len);
	printf("cc=%s bytes=%lld ms=%lld retrans=%u rto=%u\n", name, sent,
	       now_ms() - t0, ti.tcpi_total_retrans, ti.tcpi_backoff);
	close(fd);
	return 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: xfer -g BYTES [-S SEED]\n"
		"       xfer -s PORT [-C CC] [-r RCVBUF] [-p AT:MS]\n"
		"       xfer -c ADDR PORT BYTES [-C CC] [-S SEED] [-a CHUNK:GAP_US] [-i EVERY:MS]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	long long pause_at = -1, idle_every = 0, bytes;
	long pause_ms = 0, chunk = 0, gap_us = 0, idle_ms = 0;
	const char *cc = NULL, *mode;
	unsigned long seed = 1;
	int rcvbuf = 0, first, i;

	if (argc < 3 || argv[1][0] != '-')
		usage();
	mode = argv[1];
	first = !strcmp(mode, "-c") ? 5 : 3;
	if (argc < first)
		usage();
	for (i = first; i < argc; i += 2) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!v)
			usage();
		if (!strcmp(o, "-C"))
			cc = v;
		else if (!strcmp(o, "-S"))
			seed = strtoul(v, NULL, 0);
		else if (!strcmp(o, "-r"))
			rcvbuf = atoi(v);
		else if (!strcmp(o, "-p") &&
			 sscanf(v, "%lld:%ld", &pause_at, &pause_ms) == 2)
			;
		else if (!strcmp(o, "-a") &&
			 sscanf(v, "%ld:%ld", &chunk, &gap_us) == 2)
			;
		else if (!strcmp(o, "-i") &&
			 sscanf(v, "%lld:%ld", &idle_every, &idle_ms) == 2)
			;
		else
			usage();
	}
	if (!strcmp(mode, "-g")) {
		bytes = atoll(argv[2]);
		return generate(bytes, seed);
	}
	if (!strcmp(mode, "-s"))
		return receiver(argv[2], cc, rcvbuf, pause_at, pause_ms);
	if (!strcmp(mode, "-c")) {
		bytes = atoll(argv[4]);
		if (bytes < 1)
			usage();
		return sender(argv[2], argv[3], bytes, cc, seed, chunk, gap_us,
			      idle_every, idle_ms);
	}
	usage();
	return 2;
}
