// SPDX-License-Identifier: GPL-2.0
/*
 * A bulk sender that can hold its socket's lock for a while, to put delay
 * on the host's receive path after the ACKs have arrived.
 *
 *   lockhold [-C CC] [-H HOLD_MS] [-i EVERY_MS] [-t SECS] ADDR PORT
 *
 * Sends to ADDR:PORT (a sink that reads to EOF, e.g. "incast -s PORT")
 * for SECS seconds (default 5).  With HOLD_MS > 0 a second thread holds
 * the socket's lock for HOLD_MS, then waits EVERY_MS (default 25), and
 * again: it attaches a socket filter (SO_ATTACH_FILTER, which needs
 * CAP_NET_ADMIN on a TCP socket) whose one instruction lies on a page
 * registered with userfaultfd and not yet populated.  The kernel copies
 * the program in with the socket lock held (sk_setsockopt()), the copy
 * faults, and a third thread resolves the fault only HOLD_MS later with
 * an accept-all instruction.  ACKs that arrive meanwhile are timestamped
 * on receipt but wait in the socket backlog until the lock is released:
 * endpoint delay, not network delay.
 *
 * The holds keep their clock whatever the flow does: a hold needs no room
 * in the send buffer (a send() that faulted on the page held the lock
 * only once the socket was writable again, a handful of times a phase
 * once the endpoint window was at its floor).  Prints one line:
 * "bytes=B holds=N held_ms=T".
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/tcp.h>
#include <linux/userfaultfd.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
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
static atomic_llong held_us;
static int sock_fd, every_ms = 25;
static atomic_int holds, stop;

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
	/* The program the held copy reads: accept every packet. */
	*(struct sock_filter *)fill =
		(struct sock_filter)BPF_STMT(BPF_RET | BPF_K, 0xffffffff);
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

/*
 * Wait EVERY_MS, hold the socket lock for HOLD_MS (the fault on the trap
 * page), and again until the sending ends.
 */
static void *holder(void *arg)
{
	struct sock_fprog prog = {
		.len = 1,
		.filter = (struct sock_filter *)trap,
	};
	struct timespec d = {
		.tv_sec = every_ms / 1000,
		.tv_nsec = (every_ms % 1000) * 1000000L,
	};

	(void)arg;
	while (!stop) {
		nanosleep(&d, NULL);
		/* Unpopulate the trap; the filter's copy faults on it. */
		if (madvise(trap, page, MADV_DONTNEED))
			die("madvise");
		if (setsockopt(sock_fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog,
			       sizeof(prog)))
			die("setsockopt(SO_ATTACH_FILTER)");
		holds++;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	static char buf[CHUNK];
	struct sockaddr_in sa = { .sin_family = AF_INET };
	const char *cc = NULL;
	int secs = 5, fd, opt;
	long long end, bytes = 0;
	pthread_t th;
	ssize_t n;

	while ((opt = getopt(argc, argv, "C:H:i:t:")) != -1) {
		switch (opt) {
		case 'C':
			cc = optarg;
			break;
		case 'H':
			hold_ms = atoi(optarg);
			break;
		case 'i':
			every_ms = atoi(optarg);
			break;
		case 't':
			secs = atoi(optarg);
			break;
		default:
			fprintf(stderr,
				"usage: %s [-C cc] [-H hold_ms] [-i every_ms] [-t secs] addr port\n",
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
	sock_fd = fd;
	if (hold_ms > 0 && pthread_create(&th, NULL, holder, NULL))
		die("pthread_create");
	while (now_us() < end) {
		n = send(fd, buf, sizeof(buf), 0);
		if (n < 0)
			die("send");
		bytes += n;
	}
	stop = 1;
	if (hold_ms > 0)
		pthread_join(th, NULL);
	shutdown(fd, SHUT_WR);
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
	printf("bytes=%lld holds=%d held_ms=%lld\n", bytes, holds,
	       held_us / 1000);
	return 0;
}
