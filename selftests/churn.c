// SPDX-License-Identifier: GPL-2.0
/*
 * Many concurrent connections opening and closing (the load test).
 *
 *   churn -s PORT [-C CC]
 *       server (epoll): answers every request on every connection
 *   churn -c ADDR PORT [-C CC] [-n CONNS] [-t SECS] [-k ROUNDS]
 *         [-q REQ] [-R RESP] [-g GAP_MS] [-T STALL_S]
 *       client: keeps CONNS connections open (default 1000) for SECS
 *       (default 10); each makes ROUNDS (3) request/response exchanges of
 *       REQ (1000) / RESP (20000) bytes, GAP_MS (100) apart, closes, and
 *       a new connection takes its place.  After SECS no new connection
 *       starts and the running ones finish.  A connection that makes no
 *       progress for STALL_S (15) seconds counts as stalled.
 *
 * A request is an 8-byte header (request and response length, network
 * order) and the request bytes; the answer is RESP bytes.  The client
 * prints one line:
 *   opened=N completed=N failed=N stalled=N held_max=N held_min=N exchanges=N secs=S
 * held_min/max: connections established at once, sampled every 100 ms
 * after the first second.  Exit status 0 when nothing failed or stalled.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <linux/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define TOOL_NAME "churn"
#include "tool.h"

static char buf[1 << 16];

static void nofile(long n)
{
	struct rlimit r;

	getrlimit(RLIMIT_NOFILE, &r);
	if (r.rlim_cur >= (rlim_t)n)
		return;
	r.rlim_cur = (rlim_t)n;
	if (r.rlim_max < r.rlim_cur)
		r.rlim_max = r.rlim_cur;
	if (setrlimit(RLIMIT_NOFILE, &r))
		die("setrlimit(RLIMIT_NOFILE) (run as root)");
}

/* Report the first few errors only: a broken path fails thousands. */
static void complain(const char *fmt, const char *what, long n)
{
	static int said;

	if (said++ < 10)
		fprintf(stderr, fmt, what, n);
}

/* --- server ------------------------------------------------------------ */

struct sconn {
	unsigned char hdr[8];
	unsigned int hdr_got;
	uint32_t req_left;	/* request bytes still to read */
	uint32_t resp_left;	/* answer bytes still to write */
};

static int server(const char *port, const char *cc)
{
	struct addrinfo hints = { .ai_family = AF_INET6,
				  .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE }, *ai;
	struct epoll_event ev, evs[256];
	struct sconn **c;
	int one = 1, ls, ep, i, n;
	const int maxfd = 16384;

	signal(SIGPIPE, SIG_IGN);
	nofile(maxfd);
	c = calloc(maxfd, sizeof(*c));
	if (!c)
		die("calloc");
	if (getaddrinfo(NULL, port, &hints, &ai))
		die("getaddrinfo");
	ls = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (ls < 0)
		die("socket");
	setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	set_cc(ls, cc);
	if (bind(ls, ai->ai_addr, ai->ai_addrlen) || listen(ls, 4096))
		die("bind/listen");
	ep = epoll_create1(0);
	ev.events = EPOLLIN;
	ev.data.fd = ls;
	epoll_ctl(ep, EPOLL_CTL_ADD, ls, &ev);
	for (;;) {
		n = epoll_wait(ep, evs, 256, -1);
		for (i = 0; i < n; i++) {
			int fd = evs[i].data.fd, closeit = 0;
			struct sconn *s;

			if (fd == ls) {
				int a;

				while ((a = accept4(ls, NULL, NULL,
						    SOCK_NONBLOCK)) >= 0) {
					if (a >= maxfd) {
						close(a);
						continue;
					}
					c[a] = calloc(1, sizeof(**c));
					ev.events = EPOLLIN;
					ev.data.fd = a;
					epoll_ctl(ep, EPOLL_CTL_ADD, a, &ev);
				}
				continue;
			}
			s = c[fd];
			for (;;) {
				ssize_t r;

				if (s->resp_left) {
					size_t w = s->resp_left < sizeof(buf) ?
						   s->resp_left : sizeof(buf);

					r = write(fd, buf, w);
					if (r < 0 && errno == EAGAIN) {
						ev.events = EPOLLOUT;
						ev.data.fd = fd;
						epoll_ctl(ep, EPOLL_CTL_MOD, fd, &ev);
						break;
					}
					if (r <= 0) {
						closeit = 1;
						break;
					}
					s->resp_left -= (uint32_t)r;
					if (!s->resp_left) {
						ev.events = EPOLLIN;
						ev.data.fd = fd;
						epoll_ctl(ep, EPOLL_CTL_MOD, fd, &ev);
					}
					continue;
				}
				if (s->hdr_got < 8) {
					r = read(fd, s->hdr + s->hdr_got,
						 8 - s->hdr_got);
				} else {
					size_t w = s->req_left < sizeof(buf) ?
						   s->req_left : sizeof(buf);

					r = w ? read(fd, buf, w) : 0;
				}
				if (r < 0 && errno == EAGAIN)
					break;
				if (r <= 0) {
					closeit = 1;
					break;
				}
				if (s->hdr_got < 8) {
					s->hdr_got += (unsigned int)r;
					if (s->hdr_got < 8)
						continue;
					s->req_left = ntohl(*(uint32_t *)s->hdr);
					s->resp_left = 0;
				} else {
					s->req_left -= (uint32_t)r;
				}
				if (!s->req_left) {
					s->resp_left =
						ntohl(*(uint32_t *)(s->hdr + 4));
					s->hdr_got = 0;
				}
			}
			if (closeit) {
				epoll_ctl(ep, EPOLL_CTL_DEL, fd, NULL);
				close(fd);
				free(c[fd]);
				c[fd] = NULL;
			}
		}
	}
}

/* --- client ------------------------------------------------------------ */

enum { C_IDLE, C_CONNECTING, C_SEND, C_RECV, C_GAP };

struct cconn {
	int fd;
	int state;
	int rounds;
	uint32_t left;		/* bytes to send or receive in this state */
	long long progress;	/* last time something moved */
	long long wake;		/* end of the gap */
};

struct opts {
	const char *cc;
	long conns, secs, rounds, req, resp, gap_ms, stall_s;
};

static struct addrinfo *dst;
static const char *client_cc;	/* the clients' congestion control too */
static long opened, completed, failed, stalled, exchanges;

static void c_start(int ep, struct cconn *k, long long now)
{
	struct epoll_event ev;
	int fd;

	fd = socket(dst->ai_family, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (fd < 0)
		die("socket");
	set_cc(fd, client_cc);
	k->fd = fd;
	k->state = C_CONNECTING;
	k->rounds = 0;
	k->progress = now;
	opened++;
	ev.events = EPOLLOUT;
	ev.data.ptr = k;
	epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
	if (connect(fd, dst->ai_addr, dst->ai_addrlen) && errno != EINPROGRESS) {
		failed++;
		complain("churn: connect: %s%.0ld\n", strerror(errno), 0);
		epoll_ctl(ep, EPOLL_CTL_DEL, fd, NULL);
		close(fd);
		k->state = C_IDLE;
	}
}

static void c_end(int ep, struct cconn *k, int ok)
{
	epoll_ctl(ep, EPOLL_CTL_DEL, k->fd, NULL);
	close(k->fd);
	k->fd = -1;
	k->state = C_IDLE;
	if (ok)
		completed++;
	else
		failed++;
}

static void c_want(int ep, struct cconn *k, uint32_t events)
{
	struct epoll_event ev = { .events = events, .data.ptr = k };

	epoll_ctl(ep, EPOLL_CTL_MOD, k->fd, &ev);
}

/* Make what progress is possible without blocking. */
static void c_step(int ep, struct cconn *k, const struct opts *o,
		   long long now)
{
	for (;;) {
		ssize_t r;

		switch (k->state) {
		case C_CONNECTING: {
			int err = 0;
			socklen_t len = sizeof(err);

			getsockopt(k->fd, SOL_SOCKET, SO_ERROR, &err, &len);
			if (err) {
				complain("churn: connect: %s%.0ld\n",
					 strerror(err), 0);
				c_end(ep, k, 0);
				return;
			}
			k->state = C_SEND;
			k->left = 8 + (uint32_t)o->req;
			break;
		}
		case C_SEND: {
			uint32_t req = (uint32_t)o->req;

			if (k->left > req) {	/* the header first */
				uint32_t h[2] = { htonl(req),
						  htonl((uint32_t)o->resp) };
				unsigned char *p = (unsigned char *)h;

				r = write(k->fd, p + 8 - (k->left - req),
					  k->left - req);
			} else {
				r = write(k->fd, buf, k->left < sizeof(buf) ?
						     k->left : sizeof(buf));
			}
			if (r < 0 && errno == EAGAIN) {
				c_want(ep, k, EPOLLOUT);
				return;
			}
			if (r <= 0) {
				complain("churn: write: %s%.0ld\n",
					 r ? strerror(errno) : "nothing", 0);
				c_end(ep, k, 0);
				return;
			}
			k->progress = now;
			k->left -= (uint32_t)r;
			if (!k->left) {
				k->state = C_RECV;
				k->left = (uint32_t)o->resp;
				c_want(ep, k, EPOLLIN);
			}
			break;
		}
		case C_RECV: {
			size_t n = k->left < sizeof(buf) ? k->left : sizeof(buf);

			r = read(k->fd, buf, n);
			if (r < 0 && errno == EAGAIN)
				return;
			if (r <= 0) {
				complain("churn: read: %s%.0ld\n",
					 r ? strerror(errno) : "closed by the server", 0);
				c_end(ep, k, 0);
				return;
			}
			k->progress = now;
			k->left -= (uint32_t)r;
			if (k->left)
				break;
			exchanges++;
			if (++k->rounds >= o->rounds) {
				c_end(ep, k, 1);
				return;
			}
			k->state = C_GAP;
			k->wake = now + o->gap_ms;
			c_want(ep, k, 0);
			return;
		}
		default:
			return;
		}
	}
}

static int client(const char *addr, const char *port, const struct opts *o)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM };
	struct epoll_event evs[256];
	long long t0 = now_ms(), now, next_sample = t0 + 1000;
	long held_max = 0, held_min = -1, i;
	struct cconn *k;
	int ep, n, running;

	signal(SIGPIPE, SIG_IGN);
	nofile(o->conns + 64);
	client_cc = o->cc;
	if (getaddrinfo(addr, port, &hints, &dst))
		die("getaddrinfo");
	k = calloc((size_t)o->conns, sizeof(*k));
	if (!k)
		die("calloc");
	ep = epoll_create1(0);
	for (i = 0; i < o->conns; i++) {
		k[i].fd = -1;
		c_start(ep, &k[i], t0);
	}
	for (;;) {
		long held = 0;

		n = epoll_wait(ep, evs, 256, 10);
		now = now_ms();
		for (i = 0; i < n; i++)
			c_step(ep, evs[i].data.ptr, o, now);
		running = 0;
		for (i = 0; i < o->conns; i++) {
			struct cconn *c = &k[i];

			if (c->state == C_GAP && now >= c->wake) {
				c->state = C_SEND;
				c->left = 8 + (uint32_t)o->req;
				c->progress = now;
				c_want(ep, c, EPOLLOUT);
				c_step(ep, c, o, now);
			}
			if (c->state != C_IDLE &&
			    now - c->progress > o->stall_s * 1000) {
				complain("churn: a connection stalled (%s %ld)\n",
					 "state", c->state);
				stalled++;
				failed--;
				c_end(ep, c, 0);
			}
			if (c->state == C_IDLE && now - t0 < o->secs * 1000)
				c_start(ep, c, now);
			if (c->state != C_IDLE)
				running++;
			if (c->state > C_CONNECTING)
				held++;
		}
		if (now >= next_sample && now - t0 < o->secs * 1000) {
			next_sample += 100;
			if (held > held_max)
				held_max = held;
			if (held_min < 0 || held < held_min)
				held_min = held;
		}
		if (!running && now - t0 >= o->secs * 1000)
			break;
		if (failed > 1000) {	/* the path is broken: stop */
			fprintf(stderr, "churn: over 1000 failures, giving up\n");
			break;
		}
	}
	printf("opened=%ld completed=%ld failed=%ld stalled=%ld held_max=%ld held_min=%ld exchanges=%ld secs=%lld\n",
	       opened, completed, failed, stalled, held_max, held_min,
	       exchanges, (now_ms() - t0) / 1000);
	return failed || stalled || completed == 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: churn -s PORT [-C CC]\n"
		"       churn -c ADDR PORT [-C CC] [-n CONNS] [-t SECS] [-k ROUNDS] [-q REQ] [-R RESP] [-g GAP_MS] [-T STALL_S]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct opts o = { NULL, 1000, 10, 3, 1000, 20000, 100, 15 };
	int first, i;

	if (argc < 3)
		usage();
	first = !strcmp(argv[1], "-c") ? 4 : 3;
	if (argc < first)
		usage();
	for (i = first; i + 1 < argc; i += 2) {
		const char *f = argv[i], *v = argv[i + 1];

		if (!strcmp(f, "-C"))
			o.cc = v;
		else if (!strcmp(f, "-n"))
			o.conns = atol(v);
		else if (!strcmp(f, "-t"))
			o.secs = atol(v);
		else if (!strcmp(f, "-k"))
			o.rounds = atol(v);
		else if (!strcmp(f, "-q"))
			o.req = atol(v);
		else if (!strcmp(f, "-R"))
			o.resp = atol(v);
		else if (!strcmp(f, "-g"))
			o.gap_ms = atol(v);
		else if (!strcmp(f, "-T"))
			o.stall_s = atol(v);
		else
			usage();
	}
	if (i != argc || o.conns < 1 || o.rounds < 1 || o.req < 0 ||
	    o.resp < 0 || o.req > 1 << 30 || o.resp > 1 << 30)
		usage();
	if (!strcmp(argv[1], "-s"))
		return server(argv[2], o.cc);
	if (!strcmp(argv[1], "-c"))
		return client(argv[2], argv[3], &o);
	usage();
	return 2;
}
