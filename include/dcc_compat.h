/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The only place that knows kernel versions.  Tested on 6.1 (Debian 12)
 * and 6.12 (Debian 13); every branch names the upstream commit that made
 * it necessary (Documentation/admin-guide.rst, "Kernel versions").
 * Where a stable series backported the change, the branch follows a probe
 * of the kernel's own headers (Kbuild: DCC_*) rather than the version.
 */
#ifndef _DCC_COMPAT_H
#define _DCC_COMPAT_H

#include <linux/version.h>
#include <net/tcp.h>

/*
 * cong_control() gained the ACK sequence and flags in 6.10: commit
 * 57bfc7605ca5 ("tcp: Add new args for cong_control in
 * tcp_congestion_ops").  Modules
 * declare their hook as
 *	static void foo_cong_control(DCC_CONG_CONTROL_ARGS)
 * and always have 'sk' and 'rs' in scope.
 */
#if KERNEL_VERSION(6, 10, 0) <= LINUX_VERSION_CODE
#define DCC_CONG_CONTROL_ARGS \
	struct sock *sk, u32 ack, int flag, const struct rate_sample *rs
#else
#define DCC_CONG_CONTROL_ARGS struct sock *sk, const struct rate_sample *rs
#endif

/*
 * Sysctl handlers take a const table from 6.11 (declare them with
 * "DCC_CTL_CONST struct ctl_table *"): commit 78eb4ea25cd5 ("sysctl:
 * treewide: constify the ctl_table argument of proc_handlers").  Tables
 * are registered with their size from 6.6 (register_net_sysctl_sz):
 * commit 95d4977876d6 ("sysctl: Add size to register_net_sysctl
 * function").  n counts the entries without the terminating empty one.
 */
#if KERNEL_VERSION(6, 11, 0) <= LINUX_VERSION_CODE
#define DCC_CTL_CONST const
#else
#define DCC_CTL_CONST
#endif

#if KERNEL_VERSION(6, 6, 0) <= LINUX_VERSION_CODE
#define dcc_register_net_sysctl(net, path, tbl, n) \
	register_net_sysctl_sz(net, path, tbl, n)
#else
#define dcc_register_net_sysctl(net, path, tbl, n) \
	register_net_sysctl(net, path, tbl)
#endif

/*
 * Is skb->tstamp a delivery time (a sender's departure stamp on another
 * clock) rather than a CLOCK_REALTIME receive stamp?  6.1 has a bit for
 * it; 6.11 replaced it with tstamp_type: commit 4d25ca2d6801 ("net:
 * Rename mono_delivery_time to tstamp_type for scalabilty"), since
 * backported to stable series, hence the probe (Kbuild).
 */
#ifdef DCC_SKB_TSTAMP_TYPE
#define dcc_skb_tstamp_is_delivery(skb) \
	((skb)->tstamp_type != SKB_CLOCK_REALTIME)
#else
#define dcc_skb_tstamp_is_delivery(skb) ((skb)->mono_delivery_time)
#endif

/*
 * __tcp_send_ack() takes TCP header flags to OR into the ACK from commit
 * 9866884ce8ef ("tcp: Pass flags to __tcp_send_ack", 6.15), which 6.12.y
 * backported (Debian 13's 6.12.117 has it), hence the probe (Kbuild).
 * dcc_send_ack() sends a plain ACK for rcv_nxt on either.
 */
#ifdef DCC_SEND_ACK_FLAGS
#define dcc_send_ack(sk, rcv_nxt) __tcp_send_ack(sk, rcv_nxt, 0)
#else
#define dcc_send_ack(sk, rcv_nxt) __tcp_send_ack(sk, rcv_nxt)
#endif

/* Smoothed RTT in microseconds (0 before the first sample). */
/*
 * The ACK's receive times in struct rate_sample, from a kernel carrying
 * patches/0001-tcp-pass-the-ACK-s-receive-timestamps-to-congestion-.patch
 * (Kbuild defines DCC_HAVE_RS_RX_TSTAMP when the kernel's net/tcp.h has
 * TCP_CONG_WANTS_RX_TSTAMP).  Without it: no such flag, no stamps, and
 * dcc_tstamp_link.h takes them from the tcp_probe tracepoint instead.
 */
#ifdef DCC_HAVE_RS_RX_TSTAMP
#define DCC_CONG_RX_TSTAMP	TCP_CONG_WANTS_RX_TSTAMP
static inline void dcc_rs_rx_stamps(const struct rate_sample *rs,
				    u64 *sw_ns, u64 *hw_ns)
{
	*sw_ns = ktime_to_ns(rs->rx_tstamp);
	*hw_ns = ktime_to_ns(rs->rx_hwtstamp);
}
#else
#define DCC_CONG_RX_TSTAMP	0
static inline void dcc_rs_rx_stamps(const struct rate_sample *rs,
				    u64 *sw_ns, u64 *hw_ns)
{
	*sw_ns = 0;
	*hw_ns = 0;
}
#endif

static inline u32 dcc_srtt_us(const struct tcp_sock *tp)
{
	return tp->srtt_us >> 3;
}

#endif /* _DCC_COMPAT_H */
