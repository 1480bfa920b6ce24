/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The connection's identity in every tracepoint of these modules, laid
 * out as the kernel's own socket tracepoints lay it out (the
 * tcp_event_sk class of include/trace/events/tcp.h, as in
 * tcp:tcp_destroy_sock): family, ports, IPv4 addresses, IPv6 addresses
 * (v4-mapped for an IPv4 socket) and the socket cookie (the one ss -e
 * prints and BPF's bpf_get_socket_cookie() returns), so one filter or
 * join key serves tcp:tcp_probe and tcp_swift:swift_update alike.
 *
 * Each event's payload differs, so the fields are shared as macros (as
 * upstream shares TP_STORE_ADDRS) rather than through one event class:
 *
 *	TP_STRUCT__entry(DCC_TP_SOCK_FIELDS ... own fields ...)
 *	TP_fast_assign(DCC_TP_SOCK_ASSIGN(__entry, sk); ...)
 *	TP_printk(DCC_TP_SOCK_FMT " own=%u", DCC_TP_SOCK_ARGS, ...)
 *
 * Included from inside the trace headers' multi-read section: guarded
 * once, and it defines no tracepoint itself.
 */
#ifndef _DCC_TRACE_SOCK_H
#define _DCC_TRACE_SOCK_H

#include <linux/sock_diag.h>
#include <linux/socket.h>
#include <net/inet_sock.h>
#include <net/ipv6.h>

/*
 * The socket's cookie, generated on first use as tcp:tcp_probe's
 * sock_gen_cookie() does (sock_diag_save_cookie() is the exported way
 * to it).  Runs only while the event is enabled.
 */
static inline u64 dcc_tp_sock_cookie(const struct sock *sk)
{
	__u32 c[2];

	sock_diag_save_cookie((struct sock *)sk, c);
	return ((u64)c[1] << 32) | c[0];
}

static inline void dcc_tp_sock_addrs(const struct sock *sk, u8 *saddr,
				     u8 *daddr, u8 *saddr_v6, u8 *daddr_v6)
{
	const struct inet_sock *inet = inet_sk(sk);

	memcpy(saddr, &inet->inet_saddr, 4);
	memcpy(daddr, &inet->inet_daddr, 4);
#if IS_ENABLED(CONFIG_IPV6)
	if (sk->sk_family == AF_INET6) {
		memcpy(saddr_v6, &sk->sk_v6_rcv_saddr, 16);
		memcpy(daddr_v6, &sk->sk_v6_daddr, 16);
		return;
	}
#endif
	ipv6_addr_set_v4mapped(inet->inet_saddr, (struct in6_addr *)saddr_v6);
	ipv6_addr_set_v4mapped(inet->inet_daddr, (struct in6_addr *)daddr_v6);
}

#define DCC_TP_SOCK_FIELDS					\
	__field(const void *, skaddr)				\
	__field(u64, sock_cookie)				\
	__field(u16, family)					\
	__field(u16, sport)					\
	__field(u16, dport)					\
	__array(u8, saddr, 4)					\
	__array(u8, daddr, 4)					\
	__array(u8, saddr_v6, 16)				\
	__array(u8, daddr_v6, 16)

#define DCC_TP_SOCK_ASSIGN(e, sk)					\
	do {								\
		(e)->skaddr = (sk);					\
		(e)->sock_cookie = dcc_tp_sock_cookie(sk);		\
		(e)->family = (sk)->sk_family;				\
		(e)->sport = ntohs(inet_sk(sk)->inet_sport);		\
		(e)->dport = ntohs(inet_sk(sk)->inet_dport);		\
		dcc_tp_sock_addrs((sk), (e)->saddr, (e)->daddr,		\
				  (e)->saddr_v6, (e)->daddr_v6);	\
	} while (0)

#define DCC_TP_SOCK_FMT							\
	"family=%s sport=%hu dport=%hu saddr=%pI4 daddr=%pI4 saddrv6=%pI6c daddrv6=%pI6c sock_cookie=%llx"

/*
 * Written with a bare __entry (no macro parameter): the trace core checks
 * at event registration that every dereferencing %p argument reads the
 * record as "REC->field", and a parenthesised "(REC)->field" fails that
 * check with a WARNING.
 */
#define DCC_TP_SOCK_ARGS						\
	__print_symbolic(__entry->family, { AF_INET, "AF_INET" },	\
			 { AF_INET6, "AF_INET6" }),			\
	__entry->sport, __entry->dport, __entry->saddr, __entry->daddr,	\
	__entry->saddr_v6, __entry->daddr_v6, __entry->sock_cookie

#endif /* _DCC_TRACE_SOCK_H */
