/* SPDX-License-Identifier: GPL-2.0 */
/*
 * HPCC (Li et al., "HPCC: High Precision Congestion Control", SIGCOMM
 * 2019): the sender's window from per-hop in-band telemetry.
 *
 * Pure integer math, no kernel dependencies: the glue feeds it the
 * telemetry an ACK echoes (one record per hop: the egress port's clock,
 * bytes it has transmitted, its queue length and its line rate) and
 * whether the ACK starts a new reference round; it returns the window in
 * bytes, which the glue turns into a congestion window and a pacing rate
 * of W / T.  The unit tests check it against a double-precision model of
 * the paper's Algorithm 1.
 *
 * Algorithm 1, with T the base RTT and L the previous ACK's records:
 *
 *	MeasureInflight(ack):
 *	    for each hop j with a previous record:
 *		txRate = (ack.tx_j - L.tx_j) / (ack.ts_j - L.ts_j)
 *		u'_j = min(ack.qlen_j, L.qlen_j) / (B_j * T) + txRate / B_j
 *		u = the largest u'_j, tau = its interval
 *	    then tau = min(tau, T);  U = (1 - tau / T) * U + tau / T * u
 *	ComputeWind(U, update_wc):
 *	    if U >= eta or inc_stage >= max_stage:
 *		W = W_c / (U / eta) + W_AI;  if update_wc: inc_stage = 0
 *	    else:
 *		W = W_c + W_AI;  if update_wc: inc_stage += 1
 *	    if update_wc: W_c = W
 *	NewAck(ack): update_wc when ack.seq is past last_update_seq (the
 *	    first ACK of a new round), which then becomes snd_nxt.
 *
 * The reference window W_c changes once per round, so that the several
 * ACKs reporting one queue cut the window once (per-RTT reaction) while
 * every ACK still sets W from the latest load (per-ACK reaction).
 *
 * Fixed point and units: U in DCC_FX_SHIFT (16) fractional bits, at most
 * HPCC_U_MAX (256.0); eta likewise, in (0, 1]; windows in bytes (u32);
 * rates in bytes per second; hop clocks in nanoseconds and byte counters,
 * both u32 and wrapping (the differences of two records are what counts,
 * so a hop may report the low 32 bits of wider counters); T in
 * microseconds.  A record whose clock did not advance, or advanced more
 * than HPCC_TS_MAX_NS, gives no rate (a rerouted path, a reset counter, a
 * forged record): the hop is taken from the new record on.
 */
#ifndef _DCC_HPCC_H
#define _DCC_HPCC_H

#include "dcc_fixed.h"

#define HPCC_MAX_HOPS		8
#define HPCC_U_MAX		(256U << DCC_FX_SHIFT)
#define HPCC_RATE_LIMIT		BIT_ULL(40)	/* B/s: 8.8 Tbit/s */
#define HPCC_T_MAX_US		1000000U	/* base RTT at most 1 s */
#define HPCC_TS_MAX_NS		BIT(31)		/* ~2.1 s between records */

struct hpcc_params {
	u32 eta_fx;		/* target utilization, (0, 1.0] */
	u32 max_stage;		/* additive stages before a multiplicative step */
	u32 w_ai_bytes;		/* additive increase per update, >= 1 */
	u32 w_min_bytes;	/* window floor, >= 1 */
	u32 w_max_bytes;	/* window ceiling, >= w_min_bytes */
};

/* One hop's telemetry, as a switch port stamps it. */
struct hpcc_hop {
	u32 ts_ns;		/* the port's clock when the packet left */
	u32 tx_bytes;		/* bytes the port has transmitted */
	u32 qlen_bytes;		/* its queue when the packet left */
	u64 rate_bytes_ps;	/* its line rate, B */
};

/* Per-connection state. */
struct hpcc_state {
	struct hpcc_hop last[HPCC_MAX_HOPS];	/* the previous ACK's records */
	u32 u_fx;		/* U, the smoothed normalized inflight */
	u32 w_bytes;		/* W, the window now */
	u32 wc_bytes;		/* W_c, the reference window */
	u32 last_update_seq;	/* the round ends when this is acked */
	u8 nhops;		/* records in last[]; 0: none yet */
	u8 inc_stage;		/* additive stages since the last step */
	u8 seq_valid;		/* last_update_seq holds a sequence */
};

/* Reference defaults: eta 0.95, maxStage 5; W_AI from W_init (below). */
static inline void hpcc_params_default(struct hpcc_params *p, u32 w_init_bytes,
				       u32 max_flows)
{
	u64 ai;

	p->eta_fx = (u32)dcc_div_u64(95ULL << DCC_FX_SHIFT, 100);
	p->max_stage = 5;
	/* The paper's W_AI = W_init * (1 - eta) / N, N concurrent flows. */
	ai = dcc_div_u64((u64)w_init_bytes *
			 (DCC_FX_ONE - p->eta_fx) >> DCC_FX_SHIFT,
			 max_flows ? max_flows : 1);
	p->w_ai_bytes = ai ? (u32)ai : 1;
	p->w_min_bytes = 1;
	p->w_max_bytes = w_init_bytes ? w_init_bytes : 1;
}

/* True when every field is in the range the core is meant for. */
static inline bool hpcc_params_valid(const struct hpcc_params *p)
{
	return p->eta_fx >= 1 && p->eta_fx <= DCC_FX_ONE &&
	       p->max_stage <= 255 && p->w_ai_bytes >= 1 &&
	       p->w_min_bytes >= 1 && p->w_min_bytes <= p->w_max_bytes;
}

static inline u32 hpcc_clamp_w(const struct hpcc_params *p, u64 w)
{
	u32 lo = p->w_min_bytes ? p->w_min_bytes : 1;
	u32 hi = p->w_max_bytes > lo ? p->w_max_bytes : lo;

	return dcc_clamp_u32(dcc_sat_u32(w), lo, hi);
}

/* Start at W_init (the line rate times the base RTT), U = 0. */
static inline void hpcc_init(struct hpcc_state *s, const struct hpcc_params *p,
			     u32 w_init_bytes)
{
	*s = (struct hpcc_state){ 0 };
	s->w_bytes = hpcc_clamp_w(p, w_init_bytes);
	s->wc_bytes = s->w_bytes;
}

/*
 * u'_j of one hop, from its previous record a and the new one b, over a
 * base RTT of t_us; DCC_FX_SHIFT fractional bits, at most HPCC_U_MAX.
 * *dt_ns is the interval between the two records.  Returns false when the
 * pair gives no rate (see above).
 */
static inline bool hpcc_hop_u(const struct hpcc_hop *a,
			      const struct hpcc_hop *b, u32 t_us, u32 *u_fx,
			      u32 *dt_ns)
{
	u64 rate = dcc_min_u64(b->rate_bytes_ps, HPCC_RATE_LIMIT);
	u32 dt = b->ts_ns - a->ts_ns;
	u64 bt, tx_rate, uq, ut;

	if (!rate || !dt || dt > HPCC_TS_MAX_NS)
		return false;
	t_us = dcc_clamp_u32(t_us, 1, HPCC_T_MAX_US);
	/* rate < 2^41, t_us < 2^20: B * T fits; at least one byte. */
	bt = dcc_div_u64(rate * t_us, DCC_USEC_PER_SEC);
	bt = bt ? bt : 1;
	/* qlen < 2^32: the shifted queue fits in 48 bits. */
	uq = dcc_div_u64((u64)dcc_min_u32(a->qlen_bytes, b->qlen_bytes) <<
			 DCC_FX_SHIFT, bt);
	/* bytes < 2^32 times 10^9 < 2^30: fits; then capped at 2^40. */
	tx_rate = dcc_div_u64((u64)(u32)(b->tx_bytes - a->tx_bytes) *
			      1000000000ULL, dt);
	tx_rate = dcc_min_u64(tx_rate, HPCC_RATE_LIMIT);
	ut = dcc_div_u64(tx_rate << DCC_FX_SHIFT, rate);
	*u_fx = (u32)dcc_min_u64(uq + ut, HPCC_U_MAX);
	*dt_ns = dt;
	return true;
}

/*
 * MeasureInflight: one ACK's records (n of them) update U.  A change in
 * the number of hops (a new path) restarts every hop from the new records.
 * Returns true when U was updated.
 */
static inline bool hpcc_measure(struct hpcc_state *s, const struct hpcc_hop *h,
				u32 n, u32 t_us)
{
	u32 u = 0, tau_ns = 0, i, uj, dt;
	bool any = false;
	u64 t_ns, tau;

	n = dcc_min_u32(n, HPCC_MAX_HOPS);
	if (!n)
		return false;
	if (n == s->nhops) {
		for (i = 0; i < n; i++) {
			if (!hpcc_hop_u(&s->last[i], &h[i], t_us, &uj, &dt))
				continue;
			if (!any || uj > u) {
				u = uj;
				tau_ns = dt;
			}
			any = true;
		}
	}
	for (i = 0; i < n; i++)
		s->last[i] = h[i];
	s->nhops = (u8)n;
	if (!any)
		return false;
	t_ns = (u64)dcc_clamp_u32(t_us, 1, HPCC_T_MAX_US) * 1000;
	tau = dcc_min_u64(tau_ns, t_ns);
	/* U, u <= 2^24, t_ns < 2^30: the products fit. */
	s->u_fx = (u32)dcc_div_u64((u64)s->u_fx * (t_ns - tau) + (u64)u * tau,
				   t_ns);
	return true;
}

/* ComputeWind: the window from U; W_c and the stage move if update_wc. */
static inline u32 hpcc_window(struct hpcc_state *s, const struct hpcc_params *p,
			      bool update_wc)
{
	u32 eta = dcc_clamp_u32(p->eta_fx, 1, DCC_FX_ONE);
	bool mult = s->u_fx >= eta || s->inc_stage >= p->max_stage;
	u64 w;

	if (mult) {
		/* W_c < 2^32, eta <= 2^16: fits; U >= 1 unit. */
		w = dcc_div_u64((u64)s->wc_bytes * eta,
				s->u_fx ? s->u_fx : 1) + p->w_ai_bytes;
	} else {
		w = (u64)s->wc_bytes + p->w_ai_bytes;
	}
	s->w_bytes = hpcc_clamp_w(p, w);
	if (update_wc) {
		s->inc_stage = mult ? 0 :
			(u8)dcc_min_u32(s->inc_stage + 1U, 255);
		s->wc_bytes = s->w_bytes;
	}
	return s->w_bytes;
}

/*
 * NewAck: an ACK acknowledging up to ack_seq, with n telemetry records,
 * while the sender's next sequence is snd_nxt.  Returns the window.
 * Without records (a path that does not stamp), the window stays.
 */
static inline u32 hpcc_on_ack(struct hpcc_state *s, const struct hpcc_params *p,
			      const struct hpcc_hop *h, u32 n, u32 t_us,
			      u32 ack_seq, u32 snd_nxt)
{
	bool round;

	if (!hpcc_measure(s, h, n, t_us))
		return s->w_bytes;
	round = !s->seq_valid || dcc_before32(s->last_update_seq, ack_seq);
	if (round) {
		s->last_update_seq = snd_nxt;
		s->seq_valid = 1;
	}
	return hpcc_window(s, p, round);
}

#define HPCC_TX_NA	(~0ULL)	/* a record without a tx counter */

/*
 * The bytes a port sent over the d_us microseconds between two of its
 * records, for the core's tx_bytes.  tx_prev and tx_now are the port's
 * transmitted-bytes counter in the two records (HPCC_TX_NA: none); when
 * both have it, their difference (the low 32 bits: the core counts
 * modulo 2^32) is what the port sent, whoever sent it.
 *
 * Otherwise (a router that fills the standard IOAM fields only) the
 * bytes are derived from the port's queue in both records (q_prev,
 * q_now), its line rate b and this connection's own delivery rate own
 * (bytes per second): a queue in both, the port was busy and sent at b;
 * otherwise at least this connection's own rate crossed it.  That is a
 * lower bound: N connections sharing an idle-queued port each read 1/N
 * of its load and size their windows to fill it alone.
 */
static inline u32 hpcc_tx_bytes(u64 tx_prev, u64 tx_now, u32 q_prev,
				u32 q_now, u64 b, u64 own, u32 d_us)
{
	u64 r = q_prev && q_now ? b : dcc_min_u64(own, b);

	if (tx_prev != HPCC_TX_NA && tx_now != HPCC_TX_NA)
		return (u32)(tx_now - tx_prev);
	/* r < 2^40 (capped), d_us < 2^22: fits. */
	r = dcc_min_u64(r, HPCC_RATE_LIMIT);
	return (u32)dcc_div_u64(r * dcc_min_u32(d_us, HPCC_TS_MAX_NS / 1000),
				DCC_USEC_PER_SEC);
}

/* Pacing rate of a window over the base RTT, bytes per second. */
static inline u64 hpcc_rate(u32 w_bytes, u32 t_us)
{
	return dcc_div_u64((u64)w_bytes * DCC_USEC_PER_SEC,
			   dcc_clamp_u32(t_us, 1, HPCC_T_MAX_US));
}

#endif /* _DCC_HPCC_H */
