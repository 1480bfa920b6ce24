// SPDX-License-Identifier: GPL-2.0
/*
 * A bulk sender that can hold its socket's lock for a while, to put delay
 * on the host's receive path after the ACKs have arrived.
 *
 *   lockhold [-C CC] [-H HOLD_MS] [-i EVERY_MS] [-t SECS] ADDR PORT
 *
 * Sends to ADDR:PORT (a sink that reads to EOF, e.g. "incast -s PORT")
 * for SECS seconds (default 5).  With HOLD_MS > 0, every EVERY_MS
 * (default 25) one send() copies from a page registered with userfaultfd
 * and not yet populated: the copy faults inside tcp_sendmsg(), with the
 * socket lock held, and a second thread resolves the fault only HOLD_MS
 * later.  ACKs that arrive meanwhile are timestamped on receipt but wait
 * in the socket backlog until the lock is released: endpoint delay, not
 * network delay.  Prints one line: "bytes=B holds=N held_ms=T".
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/tcp.h>
#include <linux/userfaultfd.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define TOOL_NAME "lockhold"
#include "tool.h"

#define CHUNK	(64 * 1024)

static long page;
static char *trap;		/* one page, registered with userfaultfd */
static char *fill;		/* what the fault handler copies in */
static int uffd;
static int hold_ms;
static volatile long long held_us;

/* Resolve each fault on the trap page HOLD_MS after it happened. */
static void *handler(void *arg)
{
	struct pollfd pfd = { .fd = uffd, .events = POLLIN };
	struct uffd_msg msg;
	struct uffdio_copy cp;
	struct timespec d = {
		.tv_sec = hold_ms / 1000,
		.tv_nsec = (hold_ms % 1000) * 1000000L,
	};
	long long t0;

	(void)arg;
	for (;;) {
		if (poll(&pfd, 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			die("poll");
		}
		if (read(uffd, &msg, sizeof(msg)) != sizeof(msg))
			continue;
		if (msg.event != UFFD_EVENT_PAGEFAULT)
			continue;
		t0 = now_us();
		nanosleep(&d, NULL);
		cp.dst = (unsigned long)trap;
		cp.src = (unsigned long)fill;
		cp.len = page;
		cp.mode = 0;
		cp.copy = 0;
		if (ioctl(uffd, UFFDIO_COPY, &cp) && errno != EEXIST)
			die("UFFDIO_COPY");
		held_us += now_us() - t0;
	}
	return NULL;
}

static void setup_trap(void)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg;
	pthread_t th;

	page = sysconf(_SC_PAGESIZE);
	trap = mmap(NULL, page, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	fill = mmap(NULL, page, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (trap == MAP_FAILED || fill == MAP_FAILED)
		die("mmap");
	memset(fill, 'x', page);
	uffd = syscall(__NR_userfaultfd, O_CLOEXEC);
	if (uffd < 0)
		die("userfaultfd");
	if (ioctl(uffd, UFFDIO_API, &api))
		die("UFFDIO_API");
	reg.range.start = (unsigned long)trap;
	reg.range.len = page;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg))
		die("UFFDIO_REGISTER");
	if (pthread_create(&th, NULL, handler, NULL))
		die("pthread_create");
}

int main(int argc, char **argv)
{
	static char buf[CHUNK];
	struct sockaddr_in sa = { .sin_family = AF_INET };
	const char *cc = NULL;
	int every_ms = 25, secs = 5, fd, opt;
	long long end, next_hold, bytes = 0;
	int holds = 0;
	ssize_t n;

	while ((opt = getopt(argc, argv, "C:H:i:t:")) != -1) {
		switch (opt) {
		case 'C': cc = optarg; break;
		case 'H': hold_ms = atoi(optarg); break;
		case 'i': every_ms = atoi(optarg); break;
		case 't': secs = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: %s [-C cc] [-H hold_ms] [-i every_ms] [-t secs] addr port\n",
				argv[0]);
			return 2;
		}
	}
	if (argc - optind != 2)
		return 2;
	sa.sin_port = htons(atoi(argv[optind + 1]));
	if (inet_pton(AF_INET, argv[optind], &sa.sin_addr) != 1)
		return 2;
	memset(buf, 'y', sizeof(buf));
	if (hold_ms > 0)
		setup_trap();
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		die("socket");
	set_cc(fd, cc);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
		die("connect");
	end = now_us() + secs * 1000000LL;
	next_hold = now_us() + every_ms * 1000LL;
	while (now_us() < end) {
		if (hold_ms > 0 && now_us() >= next_hold) {
			/* Unpopulate the trap; this send faults on it. */
			if (madvise(trap, page, MADV_DONTNEED))
				die("madvise");
			n = send(fd, trap, page, 0);
			holds++;
			next_hold = now_us() + every_ms * 1000LL;
		} else {
			n = send(fd, buf, sizeof(buf), 0);
		}
		if (n < 0)
			die("send");
		bytes += n;
	}
	shutdown(fd, SHUT_WR);
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
	printf("bytes=%lld holds=%d held_ms=%lld\n", bytes, holds,
	       held_us / 1000);
	return 0;
}
