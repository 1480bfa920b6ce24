// SPDX-License-Identifier: GPL-2.0
/*
 * HPCC: window from in-band per-hop telemetry, over TCP.
 *
 * After "HPCC: High Precision Congestion Control", Li et al., SIGCOMM
 * 2019.  The algorithm lives in include/dcc_hpcc.h (no kernel
 * dependencies, unit tested in userspace); this file carries the
 * telemetry:
 *
 *  - every IPv6 packet of an hpcc socket carries a Hop-by-Hop header
 *    that the socket itself sets (its ipv6 txoptions, as IPV6_HOPOPTS
 *    would): an IOAM pre-allocated trace (RFC 9197) with room for hops=
 *    records of four fields, which each Linux router with ioam6_enabled
 *    fills (receive timestamp, namespace data: the egress line rate,
 *    egress queue depth, wide namespace data: left unset);
 *  - each router that has this module loaded writes its egress port's
 *    transmitted bytes into the record it just filled (a netfilter hook
 *    on forwarded IPv6 packets): IOAM has no such field;
 *  - the receiving hpcc socket copies the latest filled trace of a data
 *    segment into an echo option of the same header on its own packets
 *    (its ACKs);
 *  - the sender reads the echo on each ACK (a probe on the tcp_probe
 *    tracepoint, which sees the ACK's skb) and feeds it to the core in
 *    cong_control().
 *
 * Without echoed telemetry (IPv4, a path without IOAM routers, a peer not
 * running hpcc) the connection falls back to Reno.  See
 * Documentation/hpcc.rst for the wire format.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/inet_diag.h>
#include <linux/ipv6.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/netfilter.h>
#include <linux/netfilter_ipv6.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include <net/ipv6.h>
#include <net/tcp.h>
#include <uapi/linux/ioam6.h>
/* Declares the tcp_probe tracepoint: its prototype, checked below. */
#include <trace/events/tcp.h>

#include "include/dcc_compat.h"
#include "include/dcc_hpcc.h"
#include "include/dcc_pacing.h"
#include "include/dcc_param.h"
#include "include/dcc_stat.h"

#define CREATE_TRACE_POINTS
#include "trace/hpcc_trace.h"

DCC_PARAM_UINT(eta_permille, 950, 1, 1000, NULL, NULL,
	       "target utilization eta, in 1/1000");
DCC_PARAM_UINT(max_stage, 5, 0, 255, NULL, NULL,
	       "additive stages before a multiplicative step, in rounds");
DCC_PARAM_UINT(ai_flows, 8, 1, 65535, NULL, NULL,
	       "flows W_AI is sized for: W_AI = W_init * (1 - eta) / ai_flows, in flows");
DCC_PARAM_UINT(base_rtt_us, 0, 0, 1000000, NULL, NULL,
	       "base RTT T, in microseconds (0: the connection's minimum RTT)");
DCC_PARAM_UINT(hops, 2, 1, 8, NULL, NULL,
	       "telemetry records pre-allocated in each packet, in hops");
DCC_PARAM_UINT(ioam_ns, 1, 0, 65534, NULL, NULL,
	       "IOAM namespace of the trace, an id");

/*
 * The wire format (Documentation/hpcc.rst): a Hop-by-Hop header of
 *	2	next header, length
 *	2	PadN (the IOAM option starts 4n-aligned)
 *	4+8	IOAM option (type 0x31, pre-allocated trace), trace header
 *	12 * hops	node data, filled from the end
 *	[4 + 12 * hops	echo option (type 0x1e): count, 3 zero bytes,
 *			records in path order]
 *	pad to 8
 * A record: timestamp sub-seconds (us), namespace data (the egress line
 * rate in Mbit/s), queue depth (bytes), each big-endian 32 bits; wide
 * namespace data (64 bits): the egress port's transmitted bytes, which
 * our router hook writes (all ones, the namespace's unset wide data,
 * when no hook did).
 */
#define HPCC_IOAM_TYPE	(BIT(31 - 3) | BIT(31 - 5) | BIT(31 - 6) | \
			 BIT(31 - 10))
#define HPCC_NODELEN	5		/* 4-byte words per record */
#define HPCC_TX_OFF	12		/* the tx counter in a record */
#define HPCC_REC_LEN	(HPCC_NODELEN * 4)
#define HPCC_ECHO_OPT	0x1e		/* RFC 4727 experimental, skip */
#define HPCC_TRACE_OFF	4		/* the IOAM option in the header */
#define HPCC_USEC_WRAP	1000000U
#define HPCC_NA		0xffffffffU	/* IOAM: field unavailable */

struct hpcc_rec {
	u32 usec;		/* the hop's clock, sub-seconds in us */
	u32 mbps;		/* its egress line rate */
	u32 qlen;		/* its egress queue, bytes */
	u64 tx;			/* its egress bytes sent, HPCC_TX_NA: none */
};

/* Per-connection state: too large for inet_csk_ca(), allocated in init. */
struct hpcc_conn {
	struct hpcc_state s;
	struct hpcc_params p;
	struct ipv6_txoptions *opt;	/* ours (a reference held) */
	u8 *echo;			/* our echo option, NULL: none */
	struct hpcc_rec ack[HPCC_MAX_HOPS];	/* this ACK's echo */
	struct hpcc_rec prev[HPCC_MAX_HOPS];	/* the previous echo */
	u32 clk_ns[HPCC_MAX_HOPS];	/* each hop's clock, unwrapped */
	u32 tx[HPCC_MAX_HOPS];		/* its bytes sent, derived */
	u64 own_rate;			/* delivery rate, bytes/s */
	u32 t_us;			/* T, fixed at the first record */
	u8 slots;			/* hops= when the header was built */
	u8 ack_n;			/* records in ack[]; 0: none */
	u8 prev_n;			/* records in prev[] */
	bool started;			/* the core is initialized */
};

struct hpcc_ca {
	struct hpcc_conn *c;	/* NULL: no memory, Reno only */
};

static struct tcp_congestion_ops hpcc_ops;

enum hpcc_mib_field {
	HPCC_MIB_OPT_SET,	/* sockets whose header carries the trace */
	HPCC_MIB_OPT_NONE,	/* sockets without it (IPv4, own options) */
	HPCC_MIB_TRACE_RX,	/* data segments with a filled trace */
	HPCC_MIB_OVERFLOW,	/* ... whose trace had no room left */
	HPCC_MIB_ECHO_RX,	/* ACKs carrying an echo */
	HPCC_MIB_UPDATE,	/* window updates from telemetry */
	HPCC_MIB_FALLBACK,	/* ACKs handled by Reno (no telemetry) */
	HPCC_MIB_MAX
};

static const char * const hpcc_mib_names[HPCC_MIB_MAX] = {
	[HPCC_MIB_OPT_SET]	= "HpccHeaderSet",
	[HPCC_MIB_OPT_NONE]	= "HpccHeaderNone",
	[HPCC_MIB_TRACE_RX]	= "HpccTraceReceived",
	[HPCC_MIB_OVERFLOW]	= "HpccTraceOverflow",
	[HPCC_MIB_ECHO_RX]	= "HpccEchoReceived",
	[HPCC_MIB_UPDATE]	= "HpccUpdate",
	[HPCC_MIB_FALLBACK]	= "HpccFallback",
};

DCC_STAT_DEFINE(hpcc_stat, "tcp_hpcc_stat", hpcc_mib_names);

static void hpcc_count(const struct sock *sk, enum hpcc_mib_field f)
{
	dcc_stat_inc(&hpcc_stat, sock_net(sk), f);
}

static u32 hpcc_trace_len(u32 slots)
{
	return 2 + 2 + 8 + slots * HPCC_REC_LEN;
}

static u32 hpcc_echo_len(u32 slots)
{
	return 2 + 2 + slots * HPCC_REC_LEN;
}

static u32 hpcc_hbh_len(u32 slots, bool echo)
{
	u32 len = 2 + 2 + hpcc_trace_len(slots) +
		  (echo ? hpcc_echo_len(slots) : 0);

	return ALIGN(len, 8);
}

/* Write the header: a blank trace, an empty echo if echo, padding. */
static void hpcc_hbh_build(u8 *h, u32 len, u32 slots, bool echo, u16 ns)
{
	struct ioam6_trace_hdr *t;
	u32 off = 4, end;

	memset(h, 0, len);
	h[1] = len / 8 - 1;
	h[2] = IPV6_TLV_PADN;		/* h[3] = 0: two bytes of padding */
	h[off] = IPV6_TLV_IOAM;
	h[off + 1] = hpcc_trace_len(slots) - 2;
	h[off + 3] = IOAM6_TYPE_PREALLOC;
	t = (struct ioam6_trace_hdr *)(h + off + 4);
	t->namespace_id = cpu_to_be16(ns);
	t->nodelen = HPCC_NODELEN;
	t->remlen = slots * HPCC_NODELEN;
	t->type_be32 = cpu_to_be32(HPCC_IOAM_TYPE);
	off += hpcc_trace_len(slots);
	if (echo) {
		h[off] = HPCC_ECHO_OPT;
		h[off + 1] = hpcc_echo_len(slots) - 2;
		off += hpcc_echo_len(slots);
	}
	end = len - off;
	if (end == 1) {
		h[off] = IPV6_TLV_PAD1;
	} else if (end) {
		h[off] = IPV6_TLV_PADN;
		h[off + 1] = end - 2;
	}
}

#if IS_ENABLED(CONFIG_IPV6)
/*
 * Install our header as the socket's IPv6 options, replacing ours (never
 * the user's: a socket with options of its own gets none).  Under the
 * socket lock.  Returns false if it could not.
 */
static bool hpcc_opt_install(struct sock *sk, struct hpcc_conn *c, bool echo)
{
	struct inet_connection_sock *icsk = inet_csk(sk);
	struct ipv6_pinfo *np = inet6_sk(sk);
	struct ipv6_txoptions *opt, *old;
	u32 slots = c->opt ? c->slots : READ_ONCE(hops);
	u32 len = hpcc_hbh_len(slots, echo);

	if (!np || rcu_access_pointer(np->opt) != c->opt)
		return false;
	opt = sock_kmalloc(sk, sizeof(*opt) + len, GFP_ATOMIC);
	if (!opt)
		return false;
	memset(opt, 0, sizeof(*opt));
	/* One reference for the socket, one for us. */
	refcount_set(&opt->refcnt, 2);
	opt->tot_len = sizeof(*opt) + len;
	opt->opt_nflen = len;
	opt->hopopt = (struct ipv6_opt_hdr *)(opt + 1);
	hpcc_hbh_build((u8 *)opt->hopopt, len, slots, echo,
		       (u16)READ_ONCE(ioam_ns));
	icsk->icsk_ext_hdr_len = len;
	icsk->icsk_sync_mss(sk, icsk->icsk_pmtu_cookie);
	old = xchg((__force struct ipv6_txoptions **)&np->opt, opt);
	if (old) {
		atomic_sub(old->tot_len, &sk->sk_omem_alloc);
		txopt_put(old);
		txopt_put(c->opt);
	}
	c->opt = opt;
	c->slots = slots;
	c->echo = echo ? (u8 *)opt->hopopt + 4 + hpcc_trace_len(slots) : NULL;
	return true;
}

/* Take our header off (the socket changes congestion control). */
static void hpcc_opt_remove(struct sock *sk, struct hpcc_conn *c)
{
	struct inet_connection_sock *icsk = inet_csk(sk);
	struct ipv6_pinfo *np = inet6_sk(sk);

	if (!c->opt)
		return;
	if (np && rcu_access_pointer(np->opt) == c->opt &&
	    sk->sk_state != TCP_CLOSE) {
		xchg((__force struct ipv6_txoptions **)&np->opt, NULL);
		atomic_sub(c->opt->tot_len, &sk->sk_omem_alloc);
		txopt_put(c->opt);
		icsk->icsk_ext_hdr_len = 0;
		icsk->icsk_sync_mss(sk, icsk->icsk_pmtu_cookie);
	}
	txopt_put(c->opt);
	c->opt = NULL;
	c->echo = NULL;
}

static bool hpcc_ipv6(const struct sock *sk)
{
	return sk->sk_family == AF_INET6 &&
	       !ipv6_addr_v4mapped(&sk->sk_v6_daddr);
}
#else
static bool hpcc_opt_install(struct sock *sk, struct hpcc_conn *c, bool echo)
{
	return false;
}

static void hpcc_opt_remove(struct sock *sk, struct hpcc_conn *c)
{
}

static bool hpcc_ipv6(const struct sock *sk)
{
	return false;
}
#endif

/* Read one record of the wire. */
static void hpcc_rec_read(struct hpcc_rec *r, const u8 *p)
{
	r->usec = get_unaligned_be32(p);
	r->mbps = get_unaligned_be32(p + 4);
	r->qlen = get_unaligned_be32(p + 8);
	r->tx = get_unaligned_be64(p + HPCC_TX_OFF);
}

/*
 * A data segment's trace: the records the routers filled, from *first on,
 * the last router's first (the first router's is last in the option).
 * Returns their number.
 */
static u32 hpcc_trace_parse(const struct sock *sk, const u8 *o, u32 olen,
			    const u8 **first, bool *overflow)
{
	const struct ioam6_trace_hdr *t;
	u32 data, filled;

	if (olen < 4 + sizeof(*t) || o[3] != IOAM6_TYPE_PREALLOC)
		return 0;
	t = (const struct ioam6_trace_hdr *)(o + 4);
	if (be16_to_cpu(t->namespace_id) != READ_ONCE(ioam_ns) ||
	    t->nodelen != HPCC_NODELEN ||
	    t->type_be32 != cpu_to_be32(HPCC_IOAM_TYPE))
		return 0;
	data = olen - 4 - sizeof(*t);
	if (t->remlen * 4U > data)
		return 0;
	filled = (data - t->remlen * 4U) / HPCC_REC_LEN;
	*overflow = t->overflow;
	*first = o + 4 + sizeof(*t) + t->remlen * 4U;
	return filled;
}

/*
 * The tcp_probe probe: for an hpcc socket, a data segment's trace is
 * copied into the echo our ACKs carry; an ACK's echo is kept for
 * cong_control().  Runs at the start of tcp_rcv_established(), under the
 * socket lock, which also serializes the echo's writes with the
 * transmissions that copy it.
 */
static void hpcc_probe(void *data, struct sock *sk, struct sk_buff *skb)
{
	struct hpcc_ca *ca = inet_csk_ca(sk);
	const u8 *h, *o, *rec;
	struct hpcc_conn *c;
	u32 hlen, off, olen, f, n, i;
	bool overflow = false;

	if (inet_csk(sk)->icsk_ca_ops != &hpcc_ops)
		return;
	c = ca->c;
	if (!c || !c->opt || skb->protocol != htons(ETH_P_IPV6) ||
	    ipv6_hdr(skb)->nexthdr != NEXTHDR_HOP)
		return;
	h = skb_network_header(skb) + sizeof(struct ipv6hdr);
	hlen = (h[1] + 1) << 3;
	if (h + hlen > skb_transport_header(skb))
		return;
	for (off = 2; off + 2 <= hlen; off += olen) {
		if (h[off] == IPV6_TLV_PAD1) {
			olen = 1;
			continue;
		}
		olen = h[off + 1] + 2;
		if (off + olen > hlen)
			return;
		o = h + off;
		if (o[0] == IPV6_TLV_IOAM &&
		    skb->len > tcp_hdrlen(skb)) {
			f = hpcc_trace_parse(sk, o, olen, &rec, &overflow);
			if (!f)
				continue;
			hpcc_count(sk, HPCC_MIB_TRACE_RX);
			if (overflow)
				hpcc_count(sk, HPCC_MIB_OVERFLOW);
			if (!c->echo && !hpcc_opt_install(sk, c, true))
				continue;
			/* The first routers' records, in path order. */
			n = dcc_min_u32(f, c->slots);
			c->echo[2] = n;
			for (i = 0; i < n; i++)
				memcpy(c->echo + 4 + i * HPCC_REC_LEN,
				       rec + (f - 1 - i) * HPCC_REC_LEN,
				       HPCC_REC_LEN);
		} else if (o[0] == HPCC_ECHO_OPT && olen >= 4) {
			n = dcc_min_u32(o[2], (olen - 4) / HPCC_REC_LEN);
			n = dcc_min_u32(n, HPCC_MAX_HOPS);
			if (!n)
				continue;
			for (i = 0; i < n; i++)
				hpcc_rec_read(&c->ack[i],
					      o + 4 + i * HPCC_REC_LEN);
			c->ack_n = n;
			hpcc_count(sk, HPCC_MIB_ECHO_RX);
		}
	}
}

/*
 * The router's part: IOAM has no transmitted-bytes field, so on each
 * forwarded IPv6 packet whose hpcc trace this router has just filled
 * (the newest record, whose wide namespace data Linux left all ones), the
 * egress device's transmitted bytes (what its qdisc has sent) go into
 * that field.  A record that a router without this hook filled keeps its
 * all ones: the sender derives the bytes instead.  Runs in every network
 * namespace; packets without a Hop-by-Hop header cost one test.
 */
static unsigned int hpcc_fwd_hook(void *priv, struct sk_buff *skb,
				  const struct nf_hook_state *state)
{
	u32 nh = skb_network_offset(skb), hlen, off, olen, data, rec;
	const struct ioam6_trace_hdr *t;
	struct rtnl_link_stats64 st;
	u8 *h;

	if (!state->out || ipv6_hdr(skb)->nexthdr != NEXTHDR_HOP ||
	    !pskb_may_pull(skb, nh + sizeof(struct ipv6hdr) + 2))
		return NF_ACCEPT;
	h = skb_network_header(skb) + sizeof(struct ipv6hdr);
	hlen = (h[1] + 1) << 3;
	/* IPv6 parsed (and pulled) the header when the router filled it. */
	if (!pskb_may_pull(skb, nh + sizeof(struct ipv6hdr) + hlen))
		return NF_ACCEPT;
	h = skb_network_header(skb) + sizeof(struct ipv6hdr);
	for (off = 2; off + 2 <= hlen; off += olen) {
		if (h[off] == IPV6_TLV_PAD1) {
			olen = 1;
			continue;
		}
		olen = h[off + 1] + 2;
		if (off + olen > hlen)
			return NF_ACCEPT;
		if (h[off] != IPV6_TLV_IOAM || olen < 4 + sizeof(*t) ||
		    h[off + 3] != IOAM6_TYPE_PREALLOC)
			continue;
		t = (const struct ioam6_trace_hdr *)(h + off + 4);
		if (be16_to_cpu(t->namespace_id) != READ_ONCE(ioam_ns) ||
		    t->nodelen != HPCC_NODELEN ||
		    t->type_be32 != cpu_to_be32(HPCC_IOAM_TYPE))
			return NF_ACCEPT;
		data = olen - 4 - sizeof(*t);
		/* The newest record starts where the free space ends. */
		rec = off + 4 + sizeof(*t) + t->remlen * 4U;
		if (t->remlen * 4U + HPCC_REC_LEN > data ||
		    get_unaligned_be64(h + rec + HPCC_TX_OFF) != HPCC_TX_NA)
			return NF_ACCEPT;
		if (skb_ensure_writable(skb, nh + sizeof(struct ipv6hdr) +
					rec + HPCC_TX_OFF + 8))
			return NF_ACCEPT;
		h = skb_network_header(skb) + sizeof(struct ipv6hdr);
		dev_get_stats(state->out, &st);
		put_unaligned_be64(st.tx_bytes == HPCC_TX_NA ? 0 : st.tx_bytes,
				   h + rec + HPCC_TX_OFF);
		return NF_ACCEPT;
	}
	return NF_ACCEPT;
}

static const struct nf_hook_ops hpcc_nf_ops = {
	.hook		= hpcc_fwd_hook,
	.pf		= NFPROTO_IPV6,
	.hooknum	= NF_INET_FORWARD,
	.priority	= NF_IP6_PRI_FIRST,
};

static int __net_init hpcc_nf_net_init(struct net *net)
{
	return nf_register_net_hook(net, &hpcc_nf_ops);
}

static void __net_exit hpcc_nf_net_exit(struct net *net)
{
	nf_unregister_net_hook(net, &hpcc_nf_ops);
}

static struct pernet_operations hpcc_nf_net_ops = {
	.init	= hpcc_nf_net_init,
	.exit	= hpcc_nf_net_exit,
};

/*
 * Never called: the compiler checks hpcc_probe() against the kernel's
 * declaration of the tcp_probe tracepoint.
 */
static inline int __maybe_unused hpcc_probe_proto_check(void)
{
	return register_trace_tcp_probe(hpcc_probe, NULL);
}

static struct tracepoint *hpcc_tp;

static void hpcc_find_tp(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "tcp_probe"))
		hpcc_tp = tp;
}

/* Reno, the fallback without telemetry (see Documentation/hpcc.rst). */
static void hpcc_fallback(struct sock *sk, const struct rate_sample *rs)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u8 state = inet_csk(sk)->icsk_ca_state;
	u32 srtt = dcc_srtt_us(tp);
	u32 cwnd;

	hpcc_count(sk, HPCC_MIB_FALLBACK);
	if (state == TCP_CA_CWR)
		tcp_snd_cwnd_set(tp, max(min(tcp_snd_cwnd(tp),
					     tp->snd_ssthresh), 2U));
	else if (state >= TCP_CA_Recovery)
		/* Up to ssthresh: packet conservation, slow start after RTO. */
		tcp_snd_cwnd_set(tp, dcc_sk_recovery_cwnd(sk, rs,
							  max(tp->snd_ssthresh,
							      2U)));
	else
		tcp_reno_cong_avoid(sk, tp->snd_una, rs->acked_sacked);
	cwnd = tcp_snd_cwnd(tp);
	if (srtt)
		dcc_pacing_set_rate(sk, dcc_rate_from_window(cwnd << DCC_FX_SHIFT,
							     tp->mss_cache, srtt,
							     tcp_in_slow_start(tp) ?
							     200 : 120));
}

/* A record's queue depth, 0 when the router had none to give. */
static u32 hpcc_qlen(u32 qlen)
{
	return qlen == HPCC_NA ? 0 : qlen;
}

/*
 * The core's records from the echoed ones.  The hop's clock is unwrapped
 * from the microsecond sub-seconds; the bytes the hop sent come from its
 * counter (our router hook), or without it are derived from the queue
 * and this connection's delivery rate (hpcc_tx_bytes()).
 */
static void hpcc_hops_from_echo(struct hpcc_conn *c, struct hpcc_hop *h,
				u32 n)
{
	bool same = n == c->prev_n;
	u32 i, d_us;
	u64 b;

	for (i = 0; i < n; i++) {
		const struct hpcc_rec *e = &c->ack[i];

		b = dcc_mbps_to_bytes_ps(e->mbps == HPCC_NA ? 0 : e->mbps);
		if (!same) {
			c->clk_ns[i] = 0;
			c->tx[i] = 0;
		} else {
			/* An unavailable clock gives no interval. */
			d_us = e->usec < HPCC_USEC_WRAP &&
			       c->prev[i].usec < HPCC_USEC_WRAP ?
			       (e->usec + HPCC_USEC_WRAP - c->prev[i].usec) %
			       HPCC_USEC_WRAP : 0;
			c->clk_ns[i] += d_us * 1000;
			c->tx[i] += hpcc_tx_bytes(c->prev[i].tx, e->tx,
						  hpcc_qlen(c->prev[i].qlen),
						  hpcc_qlen(e->qlen), b,
						  c->own_rate, d_us);
		}
		h[i] = (struct hpcc_hop){
			.ts_ns = c->clk_ns[i],
			.tx_bytes = c->tx[i],
			.qlen_bytes = hpcc_qlen(e->qlen),
			.rate_bytes_ps = b,
		};
		c->prev[i] = *e;
	}
	c->prev_n = n;
}

/* The most loaded hop of this ACK (for the trace), -1 if none. */
static int hpcc_top_hop(const struct hpcc_conn *c, const struct hpcc_hop *h,
			u32 n)
{
	u32 i, u, dt, best = 0;
	int top = -1;

	if (n != c->s.nhops)
		return -1;
	for (i = 0; i < n; i++) {
		if (hpcc_hop_u(&c->s.last[i], &h[i], c->t_us, &u, &dt) &&
		    (top < 0 || u > best)) {
			best = u;
			top = i;
		}
	}
	return top;
}

static void hpcc_cong_control(DCC_CONG_CONTROL_ARGS)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct hpcc_ca *ca = inet_csk_ca(sk);
	struct hpcc_conn *c = ca->c;
	struct hpcc_hop h[HPCC_MAX_HOPS];
	u32 n, i, w, cwnd, t, qlen = 0;
	u64 b_min = 0, rate;
	bool round;
	int top;

	if (!c || !c->ack_n) {
		hpcc_fallback(sk, rs);
		return;
	}
	n = c->ack_n;
	c->ack_n = 0;
	if (rs->delivered > 0 && rs->interval_us > 0)
		c->own_rate = dcc_div_u64((u64)rs->delivered * tp->mss_cache *
					  DCC_USEC_PER_SEC, rs->interval_us);
	hpcc_hops_from_echo(c, h, n);
	if (!c->started) {
		t = READ_ONCE(base_rtt_us);
		if (!t)
			t = tcp_min_rtt(tp);
		if (!t || t == ~0U)
			t = dcc_srtt_us(tp);
		for (i = 0; i < n; i++)
			if (h[i].rate_bytes_ps &&
			    (!b_min || h[i].rate_bytes_ps < b_min))
				b_min = h[i].rate_bytes_ps;
		if (!t || !b_min) {
			hpcc_fallback(sk, rs);
			return;
		}
		c->t_us = dcc_clamp_u32(t, 1, HPCC_T_MAX_US);
		w = dcc_sat_u32(dcc_div_u64(b_min * c->t_us, DCC_USEC_PER_SEC));
		hpcc_params_default(&c->p, w, READ_ONCE(ai_flows));
		c->p.eta_fx = dcc_fx_from_milli(READ_ONCE(eta_permille));
		c->p.max_stage = READ_ONCE(max_stage);
		hpcc_init(&c->s, &c->p, w);
		c->started = true;
	}
	top = hpcc_top_hop(c, h, n);
	if (top >= 0)
		qlen = h[top].qlen_bytes;
	round = !c->s.seq_valid ||
		dcc_before32(c->s.last_update_seq, tp->snd_una);
	w = hpcc_on_ack(&c->s, &c->p, h, n, c->t_us, tp->snd_una, tp->snd_nxt);
	if (top >= 0) {
		hpcc_count(sk, HPCC_MIB_UPDATE);
		trace_hpcc_update(sk, n, top, qlen,
				  (u32)(((u64)c->s.u_fx * 1000) >> DCC_FX_SHIFT),
				  w, c->s.wc_bytes, round);
	}
	/*
	 * HPCC sends at W / T.  The window W itself would cap the flow
	 * below that wherever the RTT without a queue exceeds T (a delayed
	 * ACK, the receiver's stack): the congestion window is the same
	 * rate over the measured RTT, a safeguard the rate stays under.
	 */
	rate = hpcc_rate(w, c->t_us);
	dcc_pacing_set_rate(sk, rate);
	cwnd = dcc_sk_safeguard_cwnd(sk, rate, max(dcc_srtt_us(tp), c->t_us),
				     100, 2);
	tcp_snd_cwnd_set(tp, dcc_sk_recovery_cwnd(sk, rs, cwnd));
}

static void hpcc_init_sk(struct sock *sk)
{
	struct hpcc_ca *ca = inet_csk_ca(sk);

	ca->c = kzalloc(sizeof(*ca->c), GFP_ATOMIC);
	dcc_pacing_request(sk);
	if (ca->c && hpcc_ipv6(sk) && hpcc_opt_install(sk, ca->c, false))
		hpcc_count(sk, HPCC_MIB_OPT_SET);
	else
		hpcc_count(sk, HPCC_MIB_OPT_NONE);
}

static void hpcc_release(struct sock *sk)
{
	struct hpcc_ca *ca = inet_csk_ca(sk);

	if (!ca->c)
		return;
	hpcc_opt_remove(sk, ca->c);
	kfree(ca->c);
	ca->c = NULL;
}

/*
 * ss -ti and getsockopt(TCP_CC_INFO), in the BBR layout (the one ss
 * prints in full):
 *   bbr_bw_lo/hi     pacing rate W / T in bytes/s (ss prints bits/s)
 *   bbr_min_rtt      T in us (ss "mrtt": in ms)
 *   bbr_pacing_gain  U * 256 (ss prints U)
 *   bbr_cwnd_gain    hops of the last record * 256 (ss prints the count)
 */
static size_t hpcc_get_info(struct sock *sk, u32 ext, int *attr,
			    union tcp_cc_info *info)
{
	const struct hpcc_ca *ca = inet_csk_ca(sk);
	const struct hpcc_conn *c = ca->c;
	u64 bw;

	if (!(ext & (1 << (INET_DIAG_BBRINFO - 1))) &&
	    !(ext & (1 << (INET_DIAG_VEGASINFO - 1))))
		return 0;
	memset(&info->bbr, 0, sizeof(info->bbr));
	if (c && c->started) {
		bw = hpcc_rate(c->s.w_bytes, c->t_us);
		info->bbr.bbr_bw_lo = (u32)bw;
		info->bbr.bbr_bw_hi = (u32)(bw >> 32);
		info->bbr.bbr_min_rtt = c->t_us;
		info->bbr.bbr_pacing_gain = c->s.u_fx >> (DCC_FX_SHIFT - 8);
		info->bbr.bbr_cwnd_gain = (u32)c->s.nhops << 8;
	}
	*attr = INET_DIAG_BBRINFO;
	return sizeof(info->bbr);
}

static struct tcp_congestion_ops hpcc_ops __read_mostly = {
	.name		= "hpcc",
	.owner		= THIS_MODULE,
	.init		= hpcc_init_sk,
	.release	= hpcc_release,
	.cong_control	= hpcc_cong_control,
	.ssthresh	= tcp_reno_ssthresh,
	.undo_cwnd	= tcp_reno_undo_cwnd,
	.min_tso_segs	= dcc_min_tso_segs,
	.get_info	= hpcc_get_info,
};

static int __init hpcc_register(void)
{
	int err;

	BUILD_BUG_ON(sizeof(struct hpcc_ca) > ICSK_CA_PRIV_SIZE);
	BUILD_BUG_ON(ARRAY_SIZE(hpcc_mib_names) != HPCC_MIB_MAX);
	BUILD_BUG_ON(HPCC_MAX_HOPS != 8);	/* hops= range */
	/* The largest header: both options, HPCC_MAX_HOPS slots each. */
	BUILD_BUG_ON(2 + 2 + 2 + 2 + 8 + HPCC_MAX_HOPS * HPCC_REC_LEN > 255);
	BUILD_BUG_ON(HPCC_NODELEN * 4 != HPCC_REC_LEN ||
		     HPCC_TX_OFF + 8 != HPCC_REC_LEN);
	for_each_kernel_tracepoint(hpcc_find_tp, NULL);
	if (!hpcc_tp) {
		pr_warn("no tcp_probe tracepoint: telemetry cannot be read\n");
		return -ENOENT;
	}
	err = register_pernet_subsys(&hpcc_stat_net_ops);
	if (err)
		return err;
	err = register_pernet_subsys(&hpcc_nf_net_ops);
	if (err)
		goto out_stat;
	err = tracepoint_probe_register(hpcc_tp, hpcc_probe, NULL);
	if (err)
		goto out_nf;
	err = tcp_register_congestion_control(&hpcc_ops);
	if (err)
		goto out_probe;
	return 0;
out_probe:
	tracepoint_probe_unregister(hpcc_tp, hpcc_probe, NULL);
	tracepoint_synchronize_unregister();
out_nf:
	unregister_pernet_subsys(&hpcc_nf_net_ops);
out_stat:
	unregister_pernet_subsys(&hpcc_stat_net_ops);
	return err;
}

static void __exit hpcc_unregister(void)
{
	tcp_unregister_congestion_control(&hpcc_ops);
	tracepoint_probe_unregister(hpcc_tp, hpcc_probe, NULL);
	tracepoint_synchronize_unregister();
	unregister_pernet_subsys(&hpcc_nf_net_ops);
	unregister_pernet_subsys(&hpcc_stat_net_ops);
}

module_init(hpcc_register);
module_exit(hpcc_unregister);

MODULE_AUTHOR("Datacenter congestion control authors");
MODULE_LICENSE("GPL");
MODULE_VERSION(DCC_VERSION);
MODULE_DESCRIPTION("TCP HPCC (window from in-band per-hop telemetry: IOAM traces echoed by the receiver)");
