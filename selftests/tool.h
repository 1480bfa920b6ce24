/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the test tools (xfer, churn, rpc, incast, lockhold) share: a fatal
 * error, the clocks and choosing a socket's congestion control.
 * Define TOOL_NAME (the prefix of error messages) before including.
 */
#ifndef _DCC_SELFTEST_TOOL_H
#define _DCC_SELFTEST_TOOL_H

#include <errno.h>
#include <netinet/in.h>
#include <linux/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

static void __attribute__((noreturn)) die(const char *what)
{
	fprintf(stderr, TOOL_NAME ": %s: %s\n", what, strerror(errno));
	exit(1);
}

/* Clock c in microseconds. */
static inline long long clock_us(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static inline long long now_us(void)
{
	return clock_us(CLOCK_MONOTONIC);
}

static inline long long now_ms(void)
{
	return now_us() / 1000;
}

/* setsockopt(TCP_CONGESTION) unless cc is NULL or empty; fatal if refused. */
static inline void set_cc(int fd, const char *cc)
{
	if (cc && *cc &&
	    setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cc, strlen(cc)))
		die("setsockopt(TCP_CONGESTION)");
}

#endif /* _DCC_SELFTEST_TOOL_H */
