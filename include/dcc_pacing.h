/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pacing and rate <-> window conversions shared by every module.
 *
 * The first part is pure integer math (unit tested in userspace).  The part
 * under __KERNEL__ applies a rate to a socket: it is the one place that
 * writes sk_pacing_rate for our modules.
 *
 * Units: rates in bytes per second (what sk_pacing_rate holds), windows in
 * fixed-point packets, times in microseconds.
 */
#ifndef _DCC_PACING_H
#define _DCC_PACING_H

#include "dcc_fixed.h"

/* Largest window * mss product kept exact (2^44 fx-bytes ~ 256 MB). */
#define DCC_PACING_MAX_FX_BYTES	BIT_ULL(44)

/*
 * Rate that sends cwnd packets of mss bytes per rtt, scaled by gain_pct.
 * A window below one packet gives one packet every rtt / cwnd.
 * Returns at least 1 byte per second; 0 rtt is treated as 1 us.
 */
static inline u64 dcc_rate_from_window(u32 cwnd_fx, u32 mss, u32 rtt_us,
				       u32 gain_pct)
{
	u64 fx_bytes = dcc_min_u64((u64)cwnd_fx * mss,
				   DCC_PACING_MAX_FX_BYTES);
	u64 rate;

	rate = dcc_div_u64(fx_bytes * DCC_USEC_PER_SEC, rtt_us ? rtt_us : 1);
	rate = (rate >> DCC_FX_SHIFT) * gain_pct / 100;
	return rate ? rate : 1;
}

/* Gap between packets of mss bytes at rate (ns); ~0 for a zero rate. */
static inline u64 dcc_gap_ns(u64 rate_bytes_ps, u32 mss)
{
	if (!rate_bytes_ps)
		return ~0ULL;
	return dcc_div_u64((u64)mss * 1000000000ULL, rate_bytes_ps);
}

/*
 * Safeguard window for a rate-based sender: the packets that rate can have
 * outstanding over rtt_us, scaled by gain_pct, at least min_pkts and at most
 * max_pkts.  It bounds outstanding data; the rate does the limiting.
 */
static inline u32 dcc_window_from_rate(u64 rate_bytes_ps, u32 rtt_us,
				       u32 mss, u32 gain_pct, u32 min_pkts,
				       u32 max_pkts)
{
	u64 bytes, mb_per_s, seg = mss ? mss : 1;

	/*
	 * rate <= 2^40 B/s (8.8 Tbit/s).  rate * rtt_us alone would wrap for
	 * rtt_us >= 2^24 (16.8 s), so multiply the whole MB/s and the rest
	 * separately: both products stay below 2^53 for any u32 rtt_us (and
	 * bytes * gain_pct below 2^64 for gain_pct < 2^11).
	 */
	rate_bytes_ps = dcc_min_u64(rate_bytes_ps, 1ULL << 40);
	mb_per_s = dcc_div_u64(rate_bytes_ps, DCC_USEC_PER_SEC);
	rate_bytes_ps -= mb_per_s * DCC_USEC_PER_SEC;
	bytes = mb_per_s * rtt_us +
		dcc_div_u64(rate_bytes_ps * rtt_us, DCC_USEC_PER_SEC);
	bytes = bytes * gain_pct / 100;
	/* mss 0 counts as 1 byte, in the rounding too (0 - 1 would wrap). */
	return dcc_clamp_u32(dcc_sat_u32(dcc_div_u64(bytes + seg - 1, seg)),
			     min_pkts, max_pkts);
}

/*
 * The safeguard window a rate-based module sets on its socket:
 * dcc_window_from_rate() at least min_pkts, and never above the socket's
 * clamp (tp->snd_cwnd_clamp: a route's "cwnd lock", a BPF clamp), which
 * wins over min_pkts; at least one packet (clamp 0 counts as 1).
 */
static inline u32 dcc_safeguard_cwnd(u64 rate_bytes_ps, u32 rtt_us, u32 mss,
				     u32 gain_pct, u32 min_pkts,
				     u32 clamp_pkts)
{
	u32 hi = dcc_max_u32(clamp_pkts, 1);

	return dcc_window_from_rate(rate_bytes_ps, rtt_us, mss, gain_pct,
				    dcc_min_u32(min_pkts, hi), hi);
}

/*
 * The window during loss recovery, as tcp_bbr.c keeps it, for a module
 * that sets TCP's window itself (cong_control: TCP's own PRR does not run):
 * "now" is TCP's window before this ACK, "target" the module's window.
 * The packets the ACK reports lost leave the window first.  In fast
 * recovery (in_loss false) packet conservation: at least what is in
 * flight plus what this ACK delivered may be outstanding.  After a
 * retransmit timeout (in_loss true) the window grows from the one TCP
 * set by what each ACK delivers (slow start), instead of the target
 * returning whole on the first ACK.  Never above target, at least 1.
 */
static inline u32 dcc_recovery_cwnd(bool in_loss, u32 now, u32 in_flight,
				    u32 acked, u32 losses, u32 target)
{
	now = now > losses ? now - losses : 1;
	if (in_loss)
		now = now + acked < now ? ~0U : now + acked;
	else
		now = dcc_max_u32(now, in_flight + acked < in_flight ?
				  ~0U : in_flight + acked);
	return dcc_max_u32(dcc_min_u32(now, target), 1);
}

/* Megabits per second to bytes per second. */
static inline u64 dcc_mbps_to_bytes_ps(u32 mbps)
{
	return (u64)mbps * 1000000ULL / 8;
}

#ifdef __KERNEL__
#include <net/sock.h>
#include <net/tcp.h>

/* Rates below this send single-segment TSO bursts (as BBR does). */
#define DCC_MIN_TSO_RATE_BYTES_PS	(1200000 / 8)

/* Ask the stack to pace this socket (fq qdisc or TCP's internal timer). */
static inline void dcc_pacing_request(struct sock *sk)
{
	cmpxchg(&sk->sk_pacing_status, SK_PACING_NONE, SK_PACING_NEEDED);
}

/* Apply a pacing rate, honouring SO_MAX_PACING_RATE. */
static inline void dcc_pacing_set_rate(struct sock *sk, u64 rate_bytes_ps)
{
	u64 max = READ_ONCE(sk->sk_max_pacing_rate);

	WRITE_ONCE(sk->sk_pacing_rate,
		   (unsigned long)dcc_min_u64(rate_bytes_ps, max));
}

/*
 * The safeguard window of a rate-based sender on sk: what rate can have
 * outstanding over rtt_us (the caller's RTT bound) times gain_pct, at
 * least min_cwnd packets, never above the socket's snd_cwnd_clamp.
 */
static inline u32 dcc_sk_safeguard_cwnd(const struct sock *sk,
					u64 rate_bytes_ps, u32 rtt_us,
					u32 gain_pct, u32 min_cwnd)
{
	const struct tcp_sock *tp = tcp_sk(sk);

	return dcc_safeguard_cwnd(rate_bytes_ps, rtt_us, tp->mss_cache,
				  gain_pct, min_cwnd, tp->snd_cwnd_clamp);
}

/*
 * dcc_recovery_cwnd() for sk and this ACK's rate sample: the window to
 * set while TCP is in fast recovery or Loss; target outside them.
 */
static inline u32 dcc_sk_recovery_cwnd(const struct sock *sk,
				       const struct rate_sample *rs,
				       u32 target)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	u8 state = inet_csk(sk)->icsk_ca_state;

	if (state < TCP_CA_Recovery)
		return target;
	return dcc_recovery_cwnd(state == TCP_CA_Loss, tcp_snd_cwnd(tp),
				 tcp_packets_in_flight(tp),
				 rs->acked_sacked > 0 ? rs->acked_sacked : 0,
				 rs->losses > 0 ? rs->losses : 0, target);
}

/* tcp_congestion_ops.min_tso_segs: single segments at low rates. */
static inline u32 dcc_min_tso_segs(struct sock *sk)
{
	return READ_ONCE(sk->sk_pacing_rate) < DCC_MIN_TSO_RATE_BYTES_PS ?
	       1 : 2;
}
#endif /* __KERNEL__ */

#endif /* _DCC_PACING_H */
