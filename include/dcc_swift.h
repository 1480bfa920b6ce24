/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Swift congestion control core (Kumar et al., SIGCOMM 2020).
 *
 * Pure integer math, no kernel dependencies: tcp_swift.c feeds it samples
 * and applies the windows it returns; the unit tests and fuzzers drive it
 * directly.  Windows are fixed point (dcc_fixed.h) in packets and may fall
 * below one packet; the glue turns such a window into pacing.
 *
 * Two AIMD loops run side by side:
 *  - the fabric window (fcwnd) against the fabric delay and a target that
 *    grows with the hop count and shrinks as the window grows (flow scaling);
 *  - the endpoint window (ecwnd) against the EWMA of the endpoint delay.
 * The effective window is min(fcwnd, ecwnd).
 */
#ifndef _DCC_SWIFT_H
#define _DCC_SWIFT_H

#include "dcc_basedelay.h"
#include "dcc_fixed.h"

struct swift_params {
	u32 ai_fx;		/* additive increase per RTT, packets */
	u32 beta_fx;		/* multiplicative-decrease gain b */
	u32 max_mdf_fx;		/* largest single cut */
	u32 min_cwnd_fx;	/* window floor, packets (may be < 1) */
	u32 max_cwnd_fx;	/* window ceiling, packets */
	u32 base_target_us;	/* fabric target for one hop, few flows */
	u32 per_hop_ns;		/* target added per hop */
	u32 fs_range_us;	/* flow-scaling range */
	u32 fs_min_cwnd_fx;	/* flow scaling: window given the whole range */
	u32 fs_max_cwnd_fx;	/* flow scaling: window given nothing */
	u32 ep_target_us;	/* endpoint-delay target */
	u32 ep_ewma_keep_fx;	/* EWMA weight kept on the old endpoint delay */
	u32 retx_reset;		/* RTOs in a row that reset to the floor */
	u32 minrtt_win_us;	/* lifetime of a minimum-RTT estimate */
	u32 scale_rtt_us;	/* base RTT the queueing targets are for
				 * (0: never scaled)
				 */
	bool target_rel_minrtt;	/* target counts from the minimum RTT */
	/* Derived by swift_params_derive(). */
	u32 fs_isq_max_fx;	/* 1 / sqrt(fs_max_cwnd) */
	u32 fs_isq_span_fx;	/* 1 / sqrt(fs_min_cwnd) - 1 / sqrt(fs_max_cwnd) */
};

/* Flags in swift_state.flags. */
#define SWIFT_F_FDEC_VALID	0x01	/* t_fdec_us holds a decrease time */
#define SWIFT_F_EDEC_VALID	0x02	/* t_edec_us holds a decrease time */
#define SWIFT_F_MINRTT_VALID	0x04	/* min_rtt_us is an estimate */
#define SWIFT_F_EP_VALID	0x08	/* ep_delay_x8 holds an EWMA */
#define SWIFT_F_GLUE_NOISY	0x40	/* the glue's: noise reported */
#define SWIFT_F_GLUE_PACED	0x80	/* the glue's: window paced (below
					 * two packets); the core never
					 * reads or sets it
					 */

/* What swift_on_ack() did, for counters and tracepoints. */
#define SWIFT_ACT_FINC		0x01
#define SWIFT_ACT_FDEC		0x02
#define SWIFT_ACT_EINC		0x04
#define SWIFT_ACT_EDEC		0x08
#define SWIFT_ACT_NOISE		0x10	/* the delay noise outgrew the
					 * allowance: the target was lifted
					 */

/* Per-connection state; lives in the socket's congestion-control area. */
struct swift_state {
	u32 fcwnd_fx;		/* fabric window */
	u32 ecwnd_fx;		/* endpoint window */
	u32 prior_cwnd_fx;	/* fabric window before the last loss
				 * episode's first cut (undo)
				 */
	u16 fai_rem;		/* fabric increase carried over, 1/65536 fx */
	u16 eai_rem;		/* endpoint increase carried over, 1/65536 fx */
	u64 t_fdec_us;		/* time of the last fabric decrease */
	u64 t_edec_us;		/* time of the last endpoint decrease */
	u64 min_rtt_stamp_us;	/* when min_rtt_us was taken */
	u32 min_rtt_us;		/* windowed minimum fabric delay */
	u32 base_rtt_us;	/* base the relative target counts from */
	u32 ep_delay_x8;	/* EWMA of the endpoint delay, us << 3 */
	u32 last_delay_us;	/* latest fabric delay sample */
	u32 last_target_us;	/* fabric target used for it */
	u8 retx_cnt;		/* retransmit timeouts in a row: counted on
				 * each entry into TCP's Loss state, cleared
				 * when a timeout's retransmit is acknowledged
				 */
	u8 hops;		/* hop count of the path */
	u8 flags;
	u8 noise_4us;		/* the target's lift above base_rtt_us
				 * for delay noise, in 4 us
				 * (swift_set_base())
				 */
};

/* One ACK's worth of input. */
struct swift_ack {
	u64 now_us;		/* current time (TCP's tcp_mstamp) */
	u32 srtt_us;		/* smoothed RTT, when there is no delay sample */
	u32 num_acked;		/* packets newly acknowledged */
	u32 delay_us;		/* fabric delay sample, if has_delay */
	u32 ep_delay_us;	/* endpoint delay sample, if has_ep_delay */
	bool has_delay;
	bool has_ep_delay;
	bool app_limited;	/* not window limited: do not grow */
	bool timeouts_cleared;	/* no timeout outstanding: the oldest
				 * segment, which a timeout retransmits, is
				 * acknowledged (TCP's icsk_retransmits is 0)
				 */
	bool ack_delayed;	/* likely a delayed ACK: delay overstated */
	u32 delack_us;		/* most a delayed ACK adds to its sample
				 * (0: a delayed sample never cuts)
				 */
	u32 floor_us;		/* the destination's minimum RTT (0: none), see
				 * struct dcc_floor (dcc_basedelay.h)
				 */
	u32 noise_us;		/* delay noise, peak to peak (0: none), see
				 * include/dcc_basedelay.h
				 */
	bool floor_raised;	/* floor_us was raised when the noise
				 * stopped (dcc_floor_raise()): a
				 * connection's own lower minimum is the
				 * noise's low tail
				 */
	u32 share_fx;		/* the mean fabric window of the host's
				 * connections to the destination
				 * (swift_share_update(); 0: none)
				 */
	u32 share_delay_us;	/* their mean fabric delay, the same mean
				 * of the same ACKs (0: none; see
				 * swift_share_of())
				 */
};

/* Compute the derived fields of p from the others. */
static inline void swift_params_derive(struct swift_params *p)
{
	u32 isq_min = dcc_fx_inv_sqrt(p->fs_min_cwnd_fx);
	u32 isq_max = dcc_fx_inv_sqrt(p->fs_max_cwnd_fx);

	p->fs_isq_max_fx = isq_max;
	p->fs_isq_span_fx = isq_min > isq_max ? isq_min - isq_max : 0;
}

/*
 * Flow-scaling term fs(cwnd) = clamp(alpha / sqrt(cwnd) + beta, 0, range),
 * alpha = range / (1/sqrt(fs_min) - 1/sqrt(fs_max)), beta = -alpha/sqrt(fs_max);
 * i.e. range * (1/sqrt(cwnd) - 1/sqrt(fs_max)) / span, clamped.
 */
static inline u32 swift_flow_scaling_us(const struct swift_params *p,
					u32 cwnd_fx)
{
	u32 isq = dcc_fx_inv_sqrt(cwnd_fx);
	u64 v;

	if (!p->fs_isq_span_fx || isq <= p->fs_isq_max_fx)
		return 0;
	v = dcc_div_u64((u64)p->fs_range_us * (isq - p->fs_isq_max_fx),
			p->fs_isq_span_fx);
	return dcc_min_u32(dcc_sat_u32(v), p->fs_range_us);
}

/*
 * The queueing allowance (base target, hops, flow scaling) scaled to the
 * path: with a relative target, a base RTT above scale_rtt_us multiplies
 * it by base_rtt / scale_rtt_us.  The reference allowances are for a
 * fabric whose base RTT is tens of microseconds and whose packets take
 * well under a microsecond each on the wire; on a slower or longer path
 * the same queue in packets (the same share of the bandwidth-delay
 * product) takes proportionally longer, and an unscaled 25 + 100 us falls
 * within one packet's serialization (120 us at 100 Mbit/s): every flow
 * then sees the same samples above target whatever its window, flow
 * scaling cannot tell them apart, and they are not shared fairly.
 */
static inline u64 swift_scale(const struct swift_state *s,
			      const struct swift_params *p, u64 t)
{
	if (!p->target_rel_minrtt || !p->scale_rtt_us ||
	    s->base_rtt_us <= p->scale_rtt_us)
		return t;
	return dcc_div_u64(t * s->base_rtt_us, p->scale_rtt_us);
}

/*
 * The fabric window's floor: min_cwnd, scaled like the allowance.  A
 * window at the floor sends one packet every rtt / min_cwnd; the paper's
 * 0.001 packet is one packet every 1000 RTTs, 25-50 ms on the fabric it
 * was chosen for, but a second and more at the test bed's millisecond
 * RTTs: a flow cut there once sat out whole half-second intervals (8
 * flows on the VM dumbbell: 0.01 of a fair share).  Scaled, the floor's
 * gap stays what it is on the reference fabric relative to the base RTT.
 * Every cut (delay, loss, timeout) stops there or higher, see
 * swift_delay_floor_fx().
 */
static inline u32 swift_min_fcwnd_fx(const struct swift_state *s,
				     const struct swift_params *p)
{
	u32 m = dcc_sat_u32(swift_scale(s, p, p->min_cwnd_fx));

	return dcc_clamp_u32(m, p->min_cwnd_fx, p->max_cwnd_fx);
}

/*
 * Fabric target delay for the current window and path.  A relative target
 * counts from the base RTT, lifted for delay noise (swift_set_base()).
 */
static inline u32 swift_target_us(const struct swift_state *s,
				  const struct swift_params *p)
{
	u64 t = p->base_target_us;

	t += ((u64)s->hops * p->per_hop_ns) / 1000;
	t += swift_flow_scaling_us(p, s->fcwnd_fx);
	t = swift_scale(s, p, dcc_min_u64(t, DCC_U32_MAX));
	if (p->target_rel_minrtt)
		t += s->base_rtt_us + 4 * (u32)s->noise_4us;
	return dcc_sat_u32(t);
}

/*
 * The base RTT from the minimum min_us and the delay noise's width
 * noise_us (include/dcc_basedelay.h).  The minimum is the noise's low
 * tail: a sample of an idle path reads up to noise_us above it.  The
 * largest allowance counted from the minimum (base target, hops and the
 * whole flow-scaling range, scaled by the minimum) holds noise up to its
 * own size, and a quiet path's noise, or the queue's own moves that read
 * as noise, stay within it: nothing changes.  Noise wider than that, by
 * e, lifts the base by lift = min(e, noise_us / 2), at most to the
 * noise's centre (which also scales the allowance as the path's delay
 * does), and the target by lift more, towards the noise's top.
 * swift_noise_excess_us() is e (0: the noise fits), for the allowance
 * scaled by s->base_rtt_us (0 before the connection has a base: unscaled,
 * its allowance read 127 us against the bed's 690, and a quiet path's
 * noise ending at a new connection's first ACK raised the destination's
 * floor, see swift_floor_lift_us()); swift_set_base() sets the base from
 * min_us and returns e.
 */
static inline u32 swift_noise_excess_us(const struct swift_state *s,
					const struct swift_params *p,
					u32 noise_us)
{
	u64 t = p->base_target_us + ((u64)s->hops * p->per_hop_ns) / 1000 +
		p->fs_range_us;

	/* No base yet (a connection's first sample): no allowance either. */
	if (!p->target_rel_minrtt || !noise_us || !s->base_rtt_us)
		return 0;
	t = swift_scale(s, p, dcc_min_u64(t, DCC_U32_MAX));
	return t < noise_us ? noise_us - (u32)t : 0;
}

/*
 * How far a destination's floor is raised when noise end_us wide stops
 * (dcc_floor_raise(), from dcc_bd_end()): to the noise's centre, half its
 * width above the floor, for noise that outgrew the allowance; not at all
 * for noise the allowance held (and for a queue's own moves that read as
 * noise: raising on those would ratchet the floor up with the queue).
 * Not by the base's lift (swift_set_base()): the lift counts the width's
 * excess over the allowance, while the floor sits in the noise's low tail,
 * up to half the width (and more where the width reads low: noise kept in
 * order) below the path; raised by the lift alone it stayed there and the
 * quiet path after the noise ran at 0.89 of the link in the paced model.
 */
static inline u32 swift_floor_lift_us(const struct swift_state *s,
				      const struct swift_params *p,
				      u32 end_us)
{
	return swift_noise_excess_us(s, p, end_us) ? end_us / 2 : 0;
}

/*
 * swift_floor_lift_us() for destination floor f and the quiet sample
 * delay_us the raise would go to at now_us, or 0 if a sample came down
 * near the floor recently (dcc_floor_low_near()): such a floor is no noise's low
 * tail, and the noise that stopped was the flows' own queue (32 flows on
 * the VM dumbbell: ends of 738-861 us wide every second or two, each
 * raise of the floor by 370-430 us undone by the next dip).
 */
static inline u32 swift_floor_end_lift_us(const struct swift_state *s,
					  const struct swift_params *p,
					  const struct dcc_floor *f,
					  u32 end_us, u32 delay_us, u64 now_us)
{
	u32 lift = swift_floor_lift_us(s, p, end_us);
	u32 to = dcc_min_u32(delay_us, dcc_sat_u32((u64)f->min_us + lift));

	if (lift && dcc_floor_low_near(f, to, now_us))
		return 0;
	return lift;
}

/*
 * The width the floor's repair is given (dcc_floor_watch()): the noise's
 * width noise_us, or that of an end (end_us) whose raise
 * swift_floor_end_lift_us() held back (lift_us 0) although it outgrew
 * the allowance: recorded as the floor's widest noise, it arms the
 * repair, which waits until no sample comes near the floor (the noise's
 * tail may still reach it: an end can fire during the noise, the VM
 * bed's missed end).
 */
static inline u32 swift_floor_width_us(const struct swift_state *s,
				       const struct swift_params *p,
				       u32 noise_us, u32 end_us, u32 lift_us)
{
	if (end_us && !lift_us && swift_floor_lift_us(s, p, end_us))
		return dcc_max_u32(noise_us, end_us);
	return noise_us;
}

static inline u32 swift_set_base(struct swift_state *s,
				 const struct swift_params *p,
				 u32 min_us, u32 noise_us)
{
	u32 e, lift;

	s->base_rtt_us = min_us;
	s->noise_4us = 0;
	e = swift_noise_excess_us(s, p, noise_us);
	if (!e)
		return 0;
	lift = dcc_min_u32(e, noise_us / 2);
	s->base_rtt_us = dcc_sat_u32((u64)min_us + lift);
	s->noise_4us = dcc_bd_4us(lift);
	return e;
}

/* Effective window: min(fabric, endpoint). */
static inline u32 swift_cwnd_fx(const struct swift_state *s)
{
	return dcc_min_u32(s->fcwnd_fx, s->ecwnd_fx);
}

/*
 * TCP's own window never goes below two packets: a window below that is
 * enforced by pacing alone.  A Linux receiver ACKs every second full
 * segment at once but holds the ACK of a lone segment for its delayed-ACK
 * timer (40 ms or more), which would turn every delay sample of a one-packet
 * window into ACK delay, cut the window further and never let it recover.
 */
#define SWIFT_MIN_TCP_CWND	2

/*
 * Was the sender held back by the application rather than by Swift's
 * window?  Growth waits while it is, so that an application-limited flow
 * does not build a window it has not used.
 *
 * From SWIFT_MIN_TCP_CWND packets up TCP's window is Swift's window, and
 * TCP's own judgement (tcp_is_cwnd_limited(), cwnd_limited here) applies.
 * Below, TCP's window stays at two packets and pacing alone enforces
 * Swift's window: a paced flow has at most one or two packets in flight
 * and TCP never finds it window limited, however much data waits.  There
 * the rate sample decides (rate_sample.is_app_limited, rs_app_limited
 * here: the application had left nothing queued when the acknowledged
 * packet was sent).  Judging a paced flow by TCP's window froze it: a bulk
 * flow cut to the floor (0.001 packet) beside flows at target never grew
 * again (4 flows on the VM dumbbell: 0.13 Mbit/s against 33).
 */
static inline bool swift_app_limited(const struct swift_state *s,
				     bool cwnd_limited, bool rs_app_limited)
{
	if (swift_cwnd_fx(s) < (SWIFT_MIN_TCP_CWND << DCC_FX_SHIFT))
		return rs_app_limited;
	return !cwnd_limited;
}

/*
 * The least a receiver's delayed-ACK timer holds an ACK, for a guard of
 * TCP_DELACK_MIN: the guard less a quarter (one tick of a HZ=100 clock),
 * see swift_ack_maybe_delayed().
 */
static inline u32 swift_delack_min_us(u32 guard_us)
{
	return guard_us - guard_us / 4;
}

/*
 * Is this ACK's delay sample likely inflated by the receiver's delayed-ACK
 * timer?  Only when the ACK could have been held by it (the stack flags it
 * as possibly delayed, or it covers a single segment that was alone in
 * flight) and the sample exceeds the floor by at least
 * swift_delack_min_us(guard_us).  A Linux receiver that holds an ACK until
 * its timer fires arms it TCP_DELACK_MIN (40 ms) from the clock tick the
 * segment arrived in, so it holds the ACK 40 ms less up to one tick: 36 to
 * 40 ms at HZ=250, 30 to 40 ms at HZ=100.  No queue a Swift flow keeps
 * comes near that: a sample below floor + 3/4 guard_us was not held by the
 * timer (the receiver ACKed at once, when its application read the data, or
 * with its reply) and is as good as any other ACK's sample.  Requiring the
 * whole guard_us missed most timer-held ACKs (held 36-40 ms plus a
 * sub-millisecond path: under floor + 40 ms): a window at its floor, which
 * sends nothing but lone segments, took each for 38 ms of network delay,
 * was cut at its floor again and never climbed back (8 swift flows on the
 * VM dumbbell: a flow at 0.01 of a fair share for whole seconds; 32 flows:
 * Jain 0.66).  The stack's flag alone is set on every ACK of a lone sub-MSS
 * segment, i.e. on every ACK of a flow of small RPCs: taking all of those
 * for delayed ACKs judged each 40 ms lower, so such a flow never cut on
 * delay and PLB never saw its queue.
 * guard_us 0: the stack's flag alone (such ACKs then never cut).
 */
static inline bool swift_ack_maybe_delayed(bool stack_says, u32 prior_in_flight,
					   u32 acked, u32 delay_us,
					   u32 floor_us, u32 guard_us)
{
	if (!guard_us)
		return stack_says;
	if (!stack_says && (prior_in_flight > 1 || acked != 1))
		return false;
	return delay_us >= (u64)floor_us + swift_delack_min_us(guard_us);
}

/*
 * The fabric delay an ACK shows: its sample, less delack_us when it is
 * likely a delayed ACK.  The receiver held such an ACK for up to its
 * delayed-ACK timer, so the sample less that allowance is a lower bound of
 * the network's delay: when even that is at or above the target the path
 * is congested, when it is below there is room to grow.  A window below
 * two packets sends lone segments whose every ACK may be delayed; judging
 * them this way keeps such a window moving (down on a congested path, up
 * once off it) instead of freezing it.  Growing on an understated sample
 * corrects itself: at two packets or more the ACKs are no longer lone.
 */
static inline u32 swift_fabric_delay(const struct swift_ack *a)
{
	if (!a->ack_delayed)
		return a->delay_us;
	return a->delay_us > a->delack_us ? a->delay_us - a->delack_us : 0;
}

/*
 * PLB's delay signal for one ACK, after swift_on_ack(): whether it gave a
 * sample (delayed ACKs do only when an allowance is set) and, if so,
 * whether the fabric delay was at or above the target, as PLB's paper
 * has it for Swift.
 *
 * Swift holds its queue at the target in a cycle of cuts and increases
 * that spans rounds; flows that share a saturated link spend more than
 * half of it at or above the target, a flow alone at its link about a
 * third.  PLB pools the fraction over about four rounds
 * (dcc_plb_delay_ratio()), so that its threshold (cong_thresh, one half)
 * sees the cycle's share, not one phase of it: colliding flows are moved,
 * as PLB's paper has it (the ECMP collision PLB exists for: two flows on
 * one core link while another idles).  A threshold above the target
 * (twice it was tried) hid every collision on a fat-tree; thresholds
 * below it counted a flow alone at its link as congested every round
 * (Documentation/plb.rst, "The delay signal's pool").
 */
static inline bool swift_plb_sample(const struct swift_state *s,
				    const struct swift_ack *a, bool *above)
{
	if (!a->has_delay || !a->delay_us ||
	    (a->ack_delayed && !a->delack_us))
		return false;
	*above = s->last_delay_us >= s->last_target_us;
	return true;
}

/* Congestion window in whole packets: rounded to nearest, >= 1. */
static inline u32 swift_cwnd_pkts(const struct swift_state *s)
{
	u32 c = (swift_cwnd_fx(s) + DCC_FX_ONE / 2) >> DCC_FX_SHIFT;

	return c ? c : 1;
}

static inline void swift_state_init(struct swift_state *s,
				    const struct swift_params *p,
				    u32 init_cwnd_pkts, u32 hops, u64 now_us)
{
	u64 c = (u64)init_cwnd_pkts << DCC_FX_SHIFT;

	*s = (struct swift_state){ 0 };
	s->fcwnd_fx = dcc_clamp_u32(dcc_sat_u32(c), p->min_cwnd_fx,
				    p->max_cwnd_fx);
	/* No endpoint samples yet: the endpoint window does not limit. */
	s->ecwnd_fx = p->max_cwnd_fx;
	s->prior_cwnd_fx = s->fcwnd_fx;
	s->hops = hops > 255 ? 255 : (u8)hops;
	s->min_rtt_stamp_us = now_us;
}

/*
 * The RTT a decrease is gated on: the whole round trip of this ACK's
 * sample (fabric plus endpoint delay, the RTT the split came from), srtt
 * without a sample.  See swift_on_ack().
 */
static inline u32 swift_gate_rtt_us(const struct swift_ack *a)
{
	u64 rtt;

	if (!a->has_delay || !a->delay_us)
		return a->srtt_us;
	rtt = (u64)a->delay_us + (a->has_ep_delay ? a->ep_delay_us : 0);
	return dcc_sat_u32(rtt);
}

/* True when at least one RTT passed since the decrease stamped at t. */
static inline bool swift_can_decrease(const struct swift_state *s, u8 flag,
				      u64 t_us, u64 now_us, u32 srtt_us)
{
	return !(s->flags & flag) || dcc_us_since64(now_us, t_us) >= srtt_us;
}

/*
 * Additive increase of one window: ai per RTT in total, i.e. ai * n / cwnd
 * per ACK of n packets from one packet up.  That step can be a fraction of
 * one fixed-point unit (ai 0.001 packet at a window of 100 packets is
 * 0.65 unit): its fraction, in 1/65536 unit, is carried in *rem to the
 * next ACK, so small steps add up instead of rounding to 0 and freezing
 * the window.
 *
 * Below one packet, ai / sqrt(cwnd) per packet acknowledged, at most one
 * packet: ai * sqrt(cwnd) per RTT, equal to ai at one packet (no jump at
 * the boundary) and a larger share of a smaller window, so the windows
 * below one packet are pulled together.  The paper adds ai per packet
 * (ai * cwnd per RTT): increase and decrease are then both proportional
 * to the window, nothing pulls the windows together, and the shares
 * follow which flows' rare ACKs came in a dip of the queue
 * (Documentation/swift.rst, "Per-flow fairness").  A fully additive
 * step, ai / cwnd per packet, pulls harder but is as large as the
 * window is small (ai 1: ten packets per packet acknowledged at 0.1
 * packet): the queue overshoots by more than it converges.  With ai 1
 * this step is the paper's; hence ai's default of 0.25.
 */
static inline u32 swift_ai(const struct swift_params *p, u32 cwnd_fx,
			   u32 num_acked, u16 *rem)
{
	u64 num, inc, frac;

	num_acked = dcc_min_u32(num_acked, 1U << 16);
	if (cwnd_fx >= DCC_FX_ONE) {
		/* ai_fx < 2^26, so num < 2^58 and the remainder < 2^32. */
		num = (u64)p->ai_fx * num_acked << DCC_FX_SHIFT;
		inc = dcc_div_u64(num, cwnd_fx);
		frac = dcc_div_u64((num - inc * cwnd_fx) << DCC_FX_SHIFT,
				   cwnd_fx) + *rem;
		inc += frac >> DCC_FX_SHIFT;
		*rem = (u16)(frac & (DCC_FX_ONE - 1));
	} else {
		/* ai_fx < 2^26 and the root's inverse <= 2^24: < 2^50. */
		u64 step = ((u64)p->ai_fx * dcc_fx_inv_sqrt(cwnd_fx)) >>
			   DCC_FX_SHIFT;

		inc = dcc_min_u64(step, DCC_FX_ONE) * num_acked;
	}
	return dcc_clamp_u32(dcc_sat_u32(cwnd_fx + inc), p->min_cwnd_fx,
			     p->max_cwnd_fx);
}

/* Factor of a delay-driven cut: max(1 - b (d - t) / d, 1 - max_mdf). */
static inline u32 swift_md_factor_fx(const struct swift_params *p,
				     u32 delay_us, u32 target_us)
{
	u32 floor_fx = DCC_FX_ONE - dcc_min_u32(p->max_mdf_fx, DCC_FX_ONE);
	u64 cut;

	if (!delay_us || delay_us <= target_us)
		return DCC_FX_ONE;
	cut = dcc_div_u64((u64)dcc_min_u32(p->beta_fx, DCC_FX_ONE) *
			  (delay_us - target_us), delay_us);
	return dcc_max_u32(DCC_FX_ONE - (u32)cut, floor_fx);
}

static inline u32 swift_cut(const struct swift_params *p, u32 cwnd_fx,
			    u32 factor_fx)
{
	return dcc_clamp_u32(dcc_fx_mul(cwnd_fx, factor_fx), p->min_cwnd_fx,
			     p->max_cwnd_fx);
}

/* Track the windowed minimum of the fabric delay. */
static inline void swift_update_min_rtt(struct swift_state *s,
					const struct swift_params *p,
					u32 delay_us, u64 now_us)
{
	bool expired = dcc_us_since64(now_us, s->min_rtt_stamp_us) >
		       p->minrtt_win_us;

	if (!(s->flags & SWIFT_F_MINRTT_VALID) || expired ||
	    delay_us <= s->min_rtt_us) {
		s->min_rtt_us = delay_us;
		s->min_rtt_stamp_us = now_us;
		s->flags |= SWIFT_F_MINRTT_VALID;
	}
}

/* Fold an endpoint-delay sample into its EWMA; returns the EWMA in us. */
static inline u32 swift_update_ep_delay(struct swift_state *s,
					const struct swift_params *p,
					u32 sample_us)
{
	u64 keep = dcc_min_u32(p->ep_ewma_keep_fx, DCC_FX_ONE);
	u64 x8 = (u64)dcc_min_u32(sample_us, DCC_U32_MAX >> 3) << 3;

	if (!(s->flags & SWIFT_F_EP_VALID)) {
		s->ep_delay_x8 = (u32)x8;
		s->flags |= SWIFT_F_EP_VALID;
	} else {
		s->ep_delay_x8 = (u32)((s->ep_delay_x8 * keep +
					x8 * (DCC_FX_ONE - keep)) >>
				       DCC_FX_SHIFT);
	}
	return s->ep_delay_x8 >> 3;
}

/*
 * RTT to pace with: the smoothed RTT, but never more than the delay Swift
 * steers to (the target, or the minimum RTT if that is larger).  A burst
 * that queues for many base RTTs inflates srtt long after the queue has
 * drained, and a sub-packet window sends too rarely to refresh it: pacing
 * one packet every srtt / cwnd would then wait far longer than the
 * controller intends.  At the operating point srtt ~ target, so this is
 * the paper's rtt / cwnd.
 */
static inline u32 swift_pacing_rtt_us(const struct swift_state *s,
				      const struct swift_params *p,
				      u32 srtt_us)
{
	u32 cap = swift_target_us(s, p);

	if (s->flags & SWIFT_F_MINRTT_VALID)
		cap = dcc_max_u32(cap, s->min_rtt_us);
	if (!srtt_us)
		return cap;
	return cap ? dcc_min_u32(srtt_us, cap) : srtt_us;
}

/*
 * Where delay cuts of the fabric window stop: swift_min_fcwnd_fx(), and
 * with a delayed-ACK allowance (delack_us, the glue's delack_guard_us) no
 * lower than the window that paces a packet at least every
 * swift_delack_min_us(delack_us), the least a receiver's delayed-ACK
 * timer holds a lone segment's ACK.  Paced at rtt_p / cwnd (rtt_p at most
 * swift_pacing_rtt_us()'s cap), such a window's next segment reaches the
 * receiver while it still holds the previous one's ACK, and a receiver
 * ACKs two segments at once: every ACK is prompt, and its sample is the
 * path's.  Below it every segment is alone: each ACK is held 40 ms or
 * longer (the timer's ato grows to twice the segments' spacing when they
 * come 20 ms or more apart, and a busy receiver fires it late), so its
 * sample, even less delack_us, tells nothing of the path, and a window
 * cut there sat out whole seconds at the floor beside flows at their
 * target (8 flows on the VM dumbbell: 0.01 of a fair share; 32 flows:
 * Jain 0.66).  On the VM dumbbell (target about 1 ms at the floor) this
 * is 0.03 packet; on a fabric with a 0.15 ms target, 0.005.  At most two
 * packets (RTTs of 60 ms or more): from there TCP's window spaces the
 * segments.  Loss cuts and timeout resets stop there too (swift_on_rto()).
 */
static inline u32 swift_delay_floor_fx(const struct swift_state *s,
				       const struct swift_params *p,
				       u32 delack_us)
{
	u32 m = swift_min_fcwnd_fx(s, p), d = swift_delack_min_us(delack_us);
	u64 w;

	if (!d)
		return m;
	/* Rounded up: the gap at most d. */
	w = dcc_div_u64(((u64)swift_pacing_rtt_us(s, p, 0) << DCC_FX_SHIFT) +
			d - 1, d);
	/* From two packets up TCP's window, not pacing, spaces segments. */
	w = dcc_min_u64(w, SWIFT_MIN_TCP_CWND << DCC_FX_SHIFT);
	return dcc_clamp_u32((u32)w, m, dcc_max_u32(m, p->max_cwnd_fx));
}

/*
 * The core's two answers to dcc_floor_watch(), the repair of a floor left
 * in the noise's low tail.  swift_floor_noisy(): the floor was raised at
 * a noise's end within its window and not repaired since (raised and not
 * repaired, dcc_floor_raise(): the end may have fired during the noise,
 * its tail then lowering the floor again; a new minimum clears repaired),
 * or the widest noise it was taken under, wide_us, outgrew the
 * allowance; a floor from a quiet path, whose queue's moves read as
 * noise the allowance holds and fire no end, is never touched.  The
 * width alone is not enough: the VM bed's in-order jitter of 500 us read
 * about 130 us wide, against an allowance of 127 us counted from a 23 us
 * base.  swift_floor_starved(): the lowest sample of the
 * stretch since the noise shrank, lowest_us, sits above the target, so
 * every quiet sample reads as queueing (the VM bed with the floor at the
 * noise's low tail: samples of 275-283 us against a target of 150 us, the
 * flows at their delay floor, 1.5 Mbit/s).  Both count from the base the
 * floor gave, but a base too low only shrinks the allowance and the
 * target: the lower the floor, the sooner they pass.  What says the noise
 * is gone (the stretch) does not count from the base at all.  The first
 * rule (a sample above the target, while the noise fits the allowance)
 * waited for a width below an allowance scaled by the wrong base, and
 * raised to the lowest sample since the end's raise, which after a false
 * end was the noise's low tail.
 */
static inline bool swift_floor_noisy(const struct swift_state *s,
				     const struct swift_params *p,
				     u32 wide_us, bool raised, bool repaired)
{
	return (raised && !repaired) || swift_noise_excess_us(s, p, wide_us);
}

static inline bool swift_floor_starved(const struct swift_state *s,
				       const struct swift_params *p,
				       u32 lowest_us)
{
	return s->base_rtt_us && lowest_us > swift_target_us(s, p);
}

/*
 * The fabric window c that a cut (delay, loss or timeout) would leave,
 * not below the delay floor (a window already under it is never raised
 * by it).  The floor, whose pacing cap costs a flow-scaling target, is
 * only worked out for a cut that ends below two packets.
 */
static inline u32 swift_floored(const struct swift_state *s,
				const struct swift_params *p, u32 c,
				u32 delack_us)
{
	u32 lo = (c >= SWIFT_MIN_TCP_CWND << DCC_FX_SHIFT) ?
		 swift_min_fcwnd_fx(s, p) :
		 swift_delay_floor_fx(s, p, delack_us);

	return dcc_max_u32(c, dcc_min_u32(s->fcwnd_fx, lo));
}

/*
 * The share of a host's connections to one destination.  Below two
 * packets a window is paced and a receiver ACKs its segments in pairs,
 * so an ACK below the target adds a packet or two at once (swift_ai())
 * and one above takes at most half a window: the flows refill the
 * queue's dips faster than they drain it, and it stands above their
 * targets most of the time (32 flows on the VM dumbbell: delay 1.2-1.5
 * ms on average against targets of 0.53-0.96 ms, 70 % of the samples
 * above).  A flow cut to its delay floor then sends a packet every 30 ms
 * and gets an ACK every 60 ms, eight in half a second, and it climbs
 * only when one of them falls in a dip: traced on the bed, nine ACKs in
 * a row at 1.3-2.5 ms against its 0.96 ms target, 0.13 of a fair share
 * for the half second, while flows with more packets in flight catch
 * the dips and grow (Jain 0.972-0.985 over 4 s, the slowest flow at
 * 0.14-0.21 of a fair share in its worst 0.5 s, in every run).  Flows of
 * one host to one destination share the path and its queue: a delay
 * cut that ends below two packets stops at half their mean fabric window
 * (a window already under it is not raised), so no flow is cut far below
 * the others for the samples it happened to take.  The mean is an
 * exponentially weighted mean over the connections' ACKs (gain 1/64,
 * swift_share_update(); ACKs of larger windows count more, as they come
 * more often), kept by the glue per destination beside its floor.  A
 * lone connection's share is its own window's mean: its cuts below two
 * packets halve it at most per 1/64 of its mean's fall.  In the paced
 * model (test_psim_fair_issue), 32 flows: Jain 0.989-0.992 -> 0.998-
 * 0.999, the worst 0.5 s share 0.15-0.23 -> 0.61-0.76, the link 0.933-
 * 0.942 -> 0.954-0.957, the mean delay 2.0 -> 3.0 ms; 4 and 8 flows as
 * before (their cuts seldom end below two packets).
 */
#define SWIFT_SHARE_SHIFT	6

static inline u32 swift_share_update(u32 share_fx, u32 cwnd_fx)
{
	if (!share_fx)
		return cwnd_fx;
	if (cwnd_fx >= share_fx)
		return share_fx + ((cwnd_fx - share_fx) >> SWIFT_SHARE_SHIFT);
	/* Down rounded up: it follows a window that stays below. */
	return share_fx - ((share_fx - cwnd_fx + (1U << SWIFT_SHARE_SHIFT) -
			    1) >> SWIFT_SHARE_SHIFT);
}

/* Where a delay cut of the fabric window to c stops for share share_fx. */
static inline u32 swift_share_floor_fx(const struct swift_state *s, u32 c,
				       u32 share_fx)
{
	u32 lo = share_fx / 2;

	if (c >= SWIFT_MIN_TCP_CWND << DCC_FX_SHIFT || c >= lo)
		return c;
	return dcc_max_u32(c, dcc_min_u32(s->fcwnd_fx, lo));
}

/*
 * The share a delay cut on this ACK (fabric delay d_us) stops at: none
 * while the sample is more than SWIFT_SHARE_FAR times the mean delay of
 * the destination's ACKs (share_delay_us).  The share is for flows on
 * one path and its queue; a destination's connections may take
 * different paths (ECMP, PLB's flow labels), and one whose path holds a
 * queue the others do not see is not short of their share for the
 * samples it happened to take: its delay is far above theirs, and its
 * cuts go down to its delay floor as without a share.  Held at half the
 * share of flows on a free path, it kept two packets in flight on a
 * congested one (plb_twopath.sh: 32 KB requests at 20 Mbit/s behind a
 * 60 ms queue took 0.6-0.8 s, and PLB, which repaths a connection when
 * nothing is in flight, found no such moment: it moved the connection
 * only by its long rule; with the condition, between requests again).
 * Flows that share a queue see it alike: in the paced model's 32 flows
 * (test_psim_fair_issue, test_psim_bed_fair) 0.5-1.4 % of the samples
 * are above twice the mean, none above 4.72 times it, and the figures at
 * 4, 8 and 32 flows are those without the condition.  The mean counts
 * ACKs, so a flow on the congested path, whose ACKs are few, moves it
 * little; a lone connection's mean is its own, and a queue that appears
 * under it lifts the mean within some 64 ACKs.
 */
#define SWIFT_SHARE_FAR		4

static inline u32 swift_share_of(const struct swift_ack *a, u32 d_us)
{
	if (a->share_delay_us && d_us / SWIFT_SHARE_FAR > a->share_delay_us)
		return 0;
	return a->share_fx;
}

/*
 * A delay cut of the fabric window by factor_fx, not below the floor
 * nor, ending below two packets, below half the share (share_fx, see
 * swift_share_floor_fx() and swift_share_of()).
 */
static inline u32 swift_delay_cut(const struct swift_state *s,
				  const struct swift_params *p, u32 factor_fx,
				  u32 delack_us, u32 share_fx)
{
	return swift_share_floor_fx(s, swift_floored(s, p,
						     swift_cut(p, s->fcwnd_fx,
							       factor_fx),
						     delack_us),
				    share_fx);
}

/*
 * Remember the fabric window before a loss episode's first cut, for undo.
 * Delay cuts are not undone: the delay that caused them was real.
 */
static inline void swift_save_prior(struct swift_state *s)
{
	s->prior_cwnd_fx = s->fcwnd_fx;
}

/*
 * Process one ACK. Returns a mask of SWIFT_ACT_* describing the reaction.
 *
 * "At most one decrease per RTT" is judged with the RTT of the sample
 * itself, the whole round trip (the paper's can_decrease: now -
 * t_last_decrease >= rtt): a cut is allowed when the acknowledged packet
 * left after the previous cut (now - rtt >= t_last_decrease), so the
 * controller never reacts twice to the congestion one cut already
 * answered.  Both windows are gated on it: the fabric delay alone is only
 * part of the round trip, and with a large endpoint delay it let the
 * endpoint window be cut many times per RTT.  srtt would lag a queue that
 * builds within a few RTTs (an incast), allowing a cut for every few
 * packets of the same burst; after a long queue it would hold cuts back
 * for as long as it stays inflated.  Without a delay sample, srtt stands
 * in.
 */
static inline u32 swift_on_ack(struct swift_state *s,
			       const struct swift_params *p,
			       const struct swift_ack *a)
{
	u32 rtt_us = swift_gate_rtt_us(a);
	u32 act = 0;

	if (a->timeouts_cleared)
		s->retx_cnt = 0;

	if (a->has_delay && a->delay_us) {
		u32 target, d = swift_fabric_delay(a);

		/* A delayed ACK overstates the delay: it may only lower the
		 * minimum, never raise it.
		 */
		if (!a->ack_delayed || a->delay_us < s->min_rtt_us)
			swift_update_min_rtt(s, p, a->delay_us, a->now_us);
		/* The destination's floor was renewed when the noise stopped:
		 * a lower minimum of the connection's own is the noise's low
		 * tail (dcc_floor_raise()).
		 */
		if (a->floor_raised && a->floor_us > s->min_rtt_us) {
			s->min_rtt_us = a->floor_us;
			s->min_rtt_stamp_us = a->now_us;
		}
		if (swift_set_base(s, p, a->floor_us ?
				   dcc_min_u32(a->floor_us, s->min_rtt_us) :
				   s->min_rtt_us, a->noise_us))
			act |= SWIFT_ACT_NOISE;
		target = swift_target_us(s, p);
		s->last_delay_us = d;
		s->last_target_us = target;
		if (d < target) {
			if (a->num_acked && !a->app_limited) {
				s->fcwnd_fx = swift_ai(p, s->fcwnd_fx,
						       a->num_acked,
						       &s->fai_rem);
				act |= SWIFT_ACT_FINC;
			}
		} else if ((!a->ack_delayed || a->delack_us) &&
			   swift_can_decrease(s, SWIFT_F_FDEC_VALID,
					      s->t_fdec_us, a->now_us,
					      rtt_us)) {
			s->fcwnd_fx = swift_delay_cut(s, p,
						      swift_md_factor_fx(p, d,
									 target),
						      a->delack_us,
						      swift_share_of(a, d));
			s->t_fdec_us = a->now_us;
			s->flags |= SWIFT_F_FDEC_VALID;
			act |= SWIFT_ACT_FDEC;
		}
	}

	if (a->has_ep_delay) {
		u32 ep = swift_update_ep_delay(s, p, a->ep_delay_us);

		if (ep < p->ep_target_us) {
			if (a->num_acked && !a->app_limited) {
				s->ecwnd_fx = swift_ai(p, s->ecwnd_fx,
						       a->num_acked,
						       &s->eai_rem);
				act |= SWIFT_ACT_EINC;
			}
		} else if (swift_can_decrease(s, SWIFT_F_EDEC_VALID,
					      s->t_edec_us, a->now_us,
					      rtt_us)) {
			s->ecwnd_fx = swift_cut(p, s->ecwnd_fx,
						swift_md_factor_fx(p, ep,
								   p->ep_target_us));
			s->t_edec_us = a->now_us;
			s->flags |= SWIFT_F_EDEC_VALID;
			act |= SWIFT_ACT_EDEC;
		}
	}
	return act;
}

/*
 * A loss-driven cut of the fabric window by max_mdf, once per RTT, not
 * below the delay floor (swift_floored(), delack_us as for swift_ack).
 */
static inline bool swift_loss_cut(struct swift_state *s,
				  const struct swift_params *p,
				  u64 now_us, u32 srtt_us, u32 delack_us)
{
	if (!swift_can_decrease(s, SWIFT_F_FDEC_VALID, s->t_fdec_us, now_us,
				srtt_us))
		return false;
	s->fcwnd_fx = swift_floored(s, p,
				    swift_cut(p, s->fcwnd_fx,
					      DCC_FX_ONE -
					      dcc_min_u32(p->max_mdf_fx,
							  DCC_FX_ONE)),
				    delack_us);
	s->t_fdec_us = now_us;
	s->flags |= SWIFT_F_FDEC_VALID;
	return true;
}

/*
 * Entering fast recovery (a loss detected by ACKs): a new loss episode,
 * whose undo goes back to the fabric window it starts with.
 */
static inline bool swift_on_fast_recovery(struct swift_state *s,
					  const struct swift_params *p,
					  u64 now_us, u32 srtt_us,
					  u32 delack_us)
{
	swift_save_prior(s);
	return swift_loss_cut(s, p, now_us, srtt_us, delack_us);
}

/*
 * A retransmit timeout (the glue calls it on every entry into TCP's Loss
 * state, the backed-off timeouts of one episode included): after
 * retx_reset timeouts in a row the fabric window drops to its floor,
 * otherwise it is cut by max_mdf (once per RTT).  new_episode: the first
 * timeout after the connection left Loss and fast recovery, whose undo
 * goes back to the fabric window it starts with (a timeout during fast
 * recovery, or a later one, keeps the episode's window).  Returns true if
 * the window was reduced.
 *
 * The floor is the delay cuts' (swift_floored(), delack_us as for
 * swift_ack): swift_min_fcwnd_fx() only without a delayed-ACK allowance.
 * A window reset to min_cwnd (0.001 packet) sends one packet every 1000
 * pacing RTTs, and TCP's pacing spaces the packet after each one by the
 * rate it was sent at, whatever the window becomes meanwhile.  After a
 * timeout every ACK is of retransmitted data and gives no delay sample
 * (Karn's rule), so such a window cannot grow until the flow's lost
 * packets are all sent again: in a 256-to-1 incast through a 100-packet
 * FIFO the flows reset there (pacing RTT 9 ms, the queue their minimum
 * RTT came from) sent a packet every 9 s and finished 30 s after the rest.
 */
static inline bool swift_on_rto(struct swift_state *s,
				const struct swift_params *p,
				u64 now_us, u32 srtt_us, bool new_episode,
				u32 delack_us)
{
	if (new_episode)
		swift_save_prior(s);
	if (s->retx_cnt < 255)
		s->retx_cnt++;
	if (s->retx_cnt >= p->retx_reset) {
		s->fcwnd_fx = swift_floored(s, p,
					    dcc_clamp_u32(p->min_cwnd_fx,
							  p->min_cwnd_fx,
							  p->max_cwnd_fx),
					    delack_us);
		s->t_fdec_us = now_us;
		s->flags |= SWIFT_F_FDEC_VALID;
		return true;
	}
	return swift_loss_cut(s, p, now_us, srtt_us, delack_us);
}

/*
 * A loss episode turned out spurious: give back its loss and timeout cuts,
 * i.e. the fabric window it started with (never lowering a window that
 * grew past it), as tcp_cubic and tcp_bbr restore their pre-loss window.
 * The endpoint window and any delay cut before the episode stay: the
 * delay that caused them was real.
 */
static inline void swift_undo(struct swift_state *s,
			      const struct swift_params *p)
{
	u32 c = dcc_clamp_u32(s->prior_cwnd_fx, p->min_cwnd_fx,
			      p->max_cwnd_fx);

	s->fcwnd_fx = dcc_max_u32(s->fcwnd_fx, c);
}

#endif /* _DCC_SWIFT_H */
