// SPDX-License-Identifier: GPL-2.0
/*
 * Example: read a congestion control's per-socket state with
 * getsockopt(TCP_CC_INFO), the same data "ss -ti" prints.
 *
 *   cc_info NAME ADDR PORT BYTES
 *   cc_info -s [NAME]
 *
 * The first form opens a TCP socket, selects congestion control NAME with
 * setsockopt(TCP_CONGESTION), connects to ADDR:PORT, sends BYTES bytes
 * (anything listening and reading will do, e.g. "iperf3 -s"), then prints
 * one line "cc=NAME key=value ..." decoding TCP_CC_INFO for that module
 * while the connection is still open.
 *
 * The second form reads every established TCP socket of the network
 * namespace through inet_diag (NETLINK_SOCK_DIAG, what ss uses), IPv4 and
 * IPv6, and prints one line per socket, "src=ADDR:PORT dst=ADDR:PORT
 * cc=NAME key=value ...", decoded as below: ss prints our modules' state in
 * the BBR layout under BBR's names ("bbr:(bw:...)"), which means something
 * else for each of them; this prints what it means.  With NAME, only the
 * sockets running that congestion control.
 *
 * swift fills the BBR layout (Documentation/swift.rst, "Observing it"):
 *   bbr_cwnd_gain / 256   effective window, 1/1000 packet
 *   bbr_pacing_gain / 256 target delay, us
 *   bbr_min_rtt           base the target counts from, us
 *   bbr_bw / 125          latest delay sample, us
 * timely fills the BBR layout too (Documentation/timely.rst, "Observing it"):
 *   bbr_bw                target rate, bytes per second
 *   bbr_min_rtt           engine RTT of the latest completion, us
 *   bbr_pacing_gain / 256 last decision (1 ai_low, 2 md_high, 3 ai, 4 hai,
 *                         5 md_grad, 6 patched, 7 rto, 8 recovery, 9 undo)
 *   bbr_cwnd_gain / 256   1 + normalized RTT gradient (at least 1/256)
 * dcqcn fills the BBR layout too (Documentation/dcqcn.rst, "Observing it"):
 *   bbr_bw                current rate R_C, bytes per second
 *   bbr_min_rtt           newest RTT sample, us
 *   bbr_pacing_gain / 256 alpha
 *   bbr_cwnd_gain / 256   target rate over current rate, R_T / R_C
 * bbr, dctcp and vegas are decoded as the kernel defines them; any other
 * module's bytes are printed as 32-bit words.
 */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int fail(const char *what)
{
	fprintf(stderr, "cc_info: %s: %s\n", what, strerror(errno));
	return errno == ENOENT ? 2 : 1;
}

static void print_info(const char *cc, const union tcp_cc_info *info,
		       socklen_t len)
{
	unsigned int i;

	printf("cc=%s len=%u", cc, (unsigned int)len);
	if (!strcmp(cc, "swift") && len >= sizeof(info->bbr)) {
		const struct tcp_bbr_info *b = &info->bbr;
		unsigned long long bw = (unsigned long long)b->bbr_bw_hi << 32 |
					b->bbr_bw_lo;

		printf(" window_mpkt=%u target_us=%u base_rtt_us=%u delay_us=%llu",
		       b->bbr_cwnd_gain / 256, b->bbr_pacing_gain / 256,
		       b->bbr_min_rtt, bw / 125);
	} else if (!strcmp(cc, "timely") && len >= sizeof(info->bbr)) {
		static const char * const regime[] = {
			"none", "ai_low", "md_high", "ai", "hai", "md_grad",
			"patched", "rto", "recovery", "undo",
		};
		const struct tcp_bbr_info *b = &info->bbr;
		unsigned int r = b->bbr_pacing_gain / 256;

		printf(" rate_Bps=%llu rtt_us=%u regime=%s gradient=%.4f",
		       (unsigned long long)b->bbr_bw_hi << 32 | b->bbr_bw_lo,
		       b->bbr_min_rtt,
		       r < sizeof(regime) / sizeof(regime[0]) ? regime[r] : "?",
		       b->bbr_cwnd_gain / 256.0 - 1.0);
	} else if (!strcmp(cc, "dcqcn") && len >= sizeof(info->bbr)) {
		const struct tcp_bbr_info *b = &info->bbr;

		printf(" rate_Bps=%llu rtt_us=%u alpha=%.4f target_over_rate=%.3f",
		       (unsigned long long)b->bbr_bw_hi << 32 | b->bbr_bw_lo,
		       b->bbr_min_rtt, b->bbr_pacing_gain / 256.0,
		       b->bbr_cwnd_gain / 256.0);
	} else if (!strcmp(cc, "bbr") && len >= sizeof(info->bbr)) {
		const struct tcp_bbr_info *b = &info->bbr;

		printf(" bw_Bps=%llu min_rtt_us=%u pacing_gain=%.3f cwnd_gain=%.3f",
		       (unsigned long long)b->bbr_bw_hi << 32 | b->bbr_bw_lo,
		       b->bbr_min_rtt, b->bbr_pacing_gain / 256.0,
		       b->bbr_cwnd_gain / 256.0);
	} else if (!strcmp(cc, "dctcp") && len >= sizeof(info->dctcp)) {
		const struct tcp_dctcp_info *d = &info->dctcp;

		printf(" enabled=%u ce_state=%u alpha=%u ab_ecn=%u ab_tot=%u",
		       d->dctcp_enabled, d->dctcp_ce_state, d->dctcp_alpha,
		       d->dctcp_ab_ecn, d->dctcp_ab_tot);
	} else if (!strcmp(cc, "vegas") && len >= sizeof(info->vegas)) {
		const struct tcpvegas_info *v = &info->vegas;

		printf(" enabled=%u rttcnt=%u rtt_us=%u minrtt_us=%u",
		       v->tcpv_enabled, v->tcpv_rttcnt, v->tcpv_rtt,
		       v->tcpv_minrtt);
	} else {
		const unsigned char *p = (const unsigned char *)info;

		for (i = 0; i + 4 <= len; i += 4) {
			unsigned int w;

			memcpy(&w, p + i, sizeof(w));
			printf(" w%u=%u", i / 4, w);
		}
	}
	printf("\n");
}

/* One inet_diag answer: addresses, then the congestion control's state. */
static void print_diag(const struct inet_diag_msg *m, int len, const char *want)
{
	const struct rtattr *a = (const struct rtattr *)(m + 1);
	char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN], cc[32] = "";
	union tcp_cc_info info;
	socklen_t ilen = 0;
	int n;

	memset(&info, 0, sizeof(info));
	for (len -= sizeof(*m); RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		n = RTA_PAYLOAD(a);
		switch (a->rta_type) {
		case INET_DIAG_CONG:
			snprintf(cc, sizeof(cc), "%.*s", n, (const char *)RTA_DATA(a));
			break;
		case INET_DIAG_BBRINFO:
		case INET_DIAG_DCTCPINFO:
		case INET_DIAG_VEGASINFO:
			ilen = n < (int)sizeof(info) ? (socklen_t)n : sizeof(info);
			memcpy(&info, RTA_DATA(a), ilen);
			break;
		}
	}
	cc[strcspn(cc, "\n")] = 0;
	if (want && strcmp(cc, want))
		return;
	inet_ntop(m->idiag_family, m->id.idiag_src, src, sizeof(src));
	inet_ntop(m->idiag_family, m->id.idiag_dst, dst, sizeof(dst));
	printf(m->idiag_family == AF_INET6 ? "src=[%s]:%u dst=[%s]:%u " :
	       "src=%s:%u dst=%s:%u ", src, ntohs(m->id.idiag_sport),
	       dst, ntohs(m->id.idiag_dport));
	print_info(cc[0] ? cc : "?", &info, ilen);
}

/* Every established TCP socket of one family, through inet_diag. */
static int dump_family(int fd, int family, const char *want)
{
	struct {
		struct nlmsghdr nlh;
		struct inet_diag_req_v2 r;
	} req = {
		.nlh = {
			.nlmsg_len = sizeof(req),
			.nlmsg_type = SOCK_DIAG_BY_FAMILY,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
		},
		.r = {
			.sdiag_family = family,
			.sdiag_protocol = IPPROTO_TCP,
			.idiag_states = 1 << 1,	/* TCP_ESTABLISHED */
			/* As ss -i asks: the extension bits are 8 wide, so
			 * the VEGASINFO bit stands for "the congestion
			 * control's info" (dctcp and bbr answer it too).
			 */
			.idiag_ext = 1 << (INET_DIAG_INFO - 1) |
				     1 << (INET_DIAG_VEGASINFO - 1) |
				     1 << (INET_DIAG_CONG - 1),
		},
	};
	static long buf[16384];
	const struct nlmsghdr *h;
	ssize_t n;

	if (send(fd, &req, sizeof(req), 0) < 0)
		return fail("send(inet_diag)");
	for (;;) {
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0)
			return fail("recv(inet_diag)");
		if (n == 0)
			return 0;
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_DONE)
				return 0;
			if (h->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(h);

				errno = -e->error;
				return fail("inet_diag");
			}
			print_diag(NLMSG_DATA(h), h->nlmsg_len - NLMSG_LENGTH(0), want);
		}
	}
}

static int dump_sockets(const char *want)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	int rc;

	if (fd < 0)
		return fail("socket(NETLINK_SOCK_DIAG)");
	rc = dump_family(fd, AF_INET, want);
	if (!rc)
		rc = dump_family(fd, AF_INET6, want);
	close(fd);
	return rc;
}

int main(int argc, char **argv)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai;
	static char buf[65536];
	union tcp_cc_info info;
	socklen_t len;
	long left;
	int fd;

	if (argc >= 2 && argc <= 3 && !strcmp(argv[1], "-s"))
		return dump_sockets(argc == 3 ? argv[2] : NULL);
	if (argc != 5) {
		fprintf(stderr, "usage: %s NAME ADDR PORT BYTES\n"
			"       %s -s [NAME]\n", argv[0], argv[0]);
		return 1;
	}
	if (getaddrinfo(argv[2], argv[3], &hints, &ai)) {
		fprintf(stderr, "cc_info: bad address %s\n", argv[2]);
		return 1;
	}
	fd = socket(ai->ai_family, SOCK_STREAM, 0);
	if (fd < 0)
		return fail("socket");
	if (setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, argv[1],
		       strlen(argv[1])))
		return fail("setsockopt(TCP_CONGESTION)");
	if (connect(fd, ai->ai_addr, ai->ai_addrlen))
		return fail("connect");
	freeaddrinfo(ai);
	for (left = atol(argv[4]); left > 0;) {
		ssize_t n = send(fd, buf, left < (long)sizeof(buf) ?
				 (size_t)left : sizeof(buf), 0);

		if (n < 0)
			return fail("send");
		left -= n;
	}
	memset(&info, 0, sizeof(info));
	len = sizeof(info);
	if (getsockopt(fd, IPPROTO_TCP, TCP_CC_INFO, &info, &len))
		return fail("getsockopt(TCP_CC_INFO)");
	print_info(argv[1], &info, len);
	close(fd);
	return 0;
}
