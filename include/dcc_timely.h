/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TIMELY rate computation engine (Mittal et al., SIGCOMM 2015), with the
 * patched variant of Zhu et al. ("ECN or Delay", CoNEXT 2016).
 *
 * Pure integer math, no kernel dependencies: the glue measures one RTT per
 * completion event, subtracts the serialization time of the segment and
 * feeds it here; it paces at the rate this returns.  The unit tests and
 * fuzzers drive it directly.
 *
 * Per completion, with rtt the instantaneous sample (not smoothed):
 *
 *	rtt_diff = (1 - a) * rtt_diff + a * (rtt - prev_rtt); prev_rtt = rtt
 *	g = rtt_diff / min_rtt
 *	rtt < T_low:	R += delta
 *	rtt > T_high:	R *= 1 - b * (1 - T_high / rtt)
 *	g <= 0:		R += N * delta	(N = hai_n after hai_thresh in a row)
 *	g > 0:		R *= 1 - b * g
 *
 * The patched variant replaces the last two lines (T_low <= rtt <= T_high)
 * with R = delta * (1 - w(g)) + R * (1 - b_p * w(g) * (rtt - T_low) / T_low),
 * w(g) = clamp(2 g + 1/2, 0, 1), which has a unique, fair fixed point.
 *
 * Every multiplicative factor is floored at 1 - max_dec, so one update never
 * takes more than max_dec of the rate, and the rate stays in
 * [min_rate, max_rate] and is never 0.
 *
 * Fixed point:
 *  - params *_fx are unsigned DCC_FX_SHIFT (16) fractional bits;
 *  - rtt_diff_fx is signed microseconds with 16 fractional bits; the EWMA
 *    is computed exactly and rounded once, toward zero, so a constant RTT
 *    decays it to exactly 0 from either side;
 *  - the gradient is dimensionless, signed, 16 fractional bits (grad_fx);
 *    its sign (g <= 0 or g > 0) is taken from rtt_diff_fx, not from the
 *    rounded quotient, so a tiny rise still counts as a rise;
 *  - cuts and the patched weight w(g) are computed with 32 fractional
 *    bits straight from rtt_diff_fx and applied with a 64-bit split
 *    multiply (exact floor), so the 0.008 gain of the patched variant keeps
 *    its precision; a cut is rounded down (never more than max_dec).
 * Bounds that keep every product below 2^63: rates and delta <= 2^40 B/s
 * (8.8 Tbit/s), RTT samples saturate at 2^30 us (~18 min), gains and
 * max_dec are used as at most 1.0, hai_n as at most 2^16.
 */
#ifndef _DCC_TIMELY_H
#define _DCC_TIMELY_H

#include "dcc_fixed.h"
#include "dcc_linerate.h"

#define TIMELY_VARIANT_PAPER	0	/* Mittal et al., Algorithm 1 */
#define TIMELY_VARIANT_PATCHED	1	/* Zhu et al., unique fixed point */

#define TIMELY_RATE_LIMIT	BIT_ULL(40)	/* ceiling on rates, B/s */
#define TIMELY_RTT_LIMIT_US	BIT(30)		/* RTT samples saturate here */
#define TIMELY_HAI_N_LIMIT	BIT(16)		/* largest HAI multiplier used */
#define TIMELY_FRAC32_ONE	BIT_ULL(32)	/* 1.0 with 32 fractional bits */
/* Largest |rtt_diff_fx|: a difference of TIMELY_RTT_LIMIT_US. */
#define TIMELY_DIFF_LIMIT_FX	((s64)TIMELY_RTT_LIMIT_US << DCC_FX_SHIFT)
#define TIMELY_NEG_COUNT_MAX	0xffff

struct timely_params {
	u32 variant;		/* TIMELY_VARIANT_* */
	u32 ewma_alpha_fx;	/* a: weight of the new RTT difference */
	u32 beta_fx;		/* b: decrease gain (paper) */
	u32 patched_beta_fx;	/* b_p: decrease gain (patched variant) */
	u32 max_dec_fx;		/* largest fraction one update may take */
	u32 t_low_us;		/* below: additive increase; patched rtt_ref */
	u32 t_high_us;		/* above: multiplicative decrease */
	u32 min_rtt_us;		/* fabric constant normalizing the gradient */
	u32 hai_thresh;		/* g <= 0 completions in a row before HAI */
	u32 hai_n;		/* HAI multiplier N */
	u64 delta_bytes_ps;	/* additive step, bytes per second */
	u64 min_rate_bytes_ps;	/* rate floor (the rate is never 0) */
	u64 max_rate_bytes_ps;	/* rate ceiling, usually the line rate */
	u64 line_rate_bytes_ps;	/* NIC rate, for the serialization delay */
	u32 noise_band_us;	/* gradient dead band (0: none, the paper) */
	u32 calibrate;		/* self-calibration, see timely_effective() */
	u32 base_win_us;	/* base RTT window (calibration) */
	u32 segment_bytes;	/* completion size (calibration: time base) */
	struct dcc_linerate_params lr;	/* line-rate estimator (calibration) */
};

/* What one completion did (timely_state.regime). */
enum timely_regime {
	TIMELY_FIRST,		/* first sample: only sets prev_rtt */
	TIMELY_AI_LOW,		/* rtt < T_low: R += delta */
	TIMELY_MD_HIGH,		/* rtt > T_high: R *= 1 - b (1 - T_high/rtt) */
	TIMELY_AI,		/* g <= 0: R += delta */
	TIMELY_HAI,		/* g <= 0, hai_thresh in a row: R += N delta */
	TIMELY_MD_GRAD,		/* g > 0: R *= 1 - b g */
	TIMELY_PATCHED,		/* patched variant's update in the band */
	TIMELY_LOSS_RTO,	/* retransmit timeout: cut by max_dec */
	TIMELY_LOSS_RECOVERY,	/* fast recovery: cut by max_dec */
	TIMELY_UNDO,		/* a loss cut taken back */
	TIMELY_REGIME_COUNT
};

/* Width of timely_state.regime (one bit of the old 7 went to on_line). */
#define TIMELY_REGIME_BITS	6

/* Flags in timely_state.flags. */
#define TIMELY_F_PREV_VALID	0x01	/* prev_rtt_us holds a sample */

/*
 * Noise is kept as a variance in us^2; the base RTT (at most 2^21 - 1 us, 2.1 s) and
 * its stamp (units of 2^20 us, ~1 s, wrapping every ~18 min) share a word.
 */
#define TIMELY_NOISE_SHIFT	3	/* the variance's EWMA gain, 1/8 */
#define TIMELY_NOISE_MAX	0xffff	/* us^2: a deviation of 255 us */
#define TIMELY_NOISE_CHG_MAX	32767	/* |RTT change| used, us */
#define TIMELY_BASE_MAX_US	(BIT(21) - 1)
#define TIMELY_STAMP_SHIFT	20
#define TIMELY_STAMP_MASK	(BIT(10) - 1)
#define TIMELY_SEG_MIN_MAX_US	(BIT(24) - 1)

/*
 * Per-connection state; lives in the socket's congestion-control area
 * (64 bytes with the line-rate estimator: the glue adds PLB's 32 and the
 * timestamp stash's 8 to fill the 104).  The gradient is not stored:
 * timely_grad_fx() recomputes it from rtt_diff_fx.
 */
struct timely_state {
	u64 rate_bytes_ps;	/* target rate, bytes per second */
	s64 rtt_diff_fx;	/* EWMA of RTT differences, us, signed fx */
	struct dcc_linerate lr;	/* learnt line rate (calibration) */
	u32 prev_rtt_us;	/* previous sample (if TIMELY_F_PREV_VALID) */
	u32 acked_bytes;	/* bytes acked towards the next completion */
	u32 seg_min_rtt_us:24;	/* smallest RTT in this completion (0: none) */
	u32 regime:TIMELY_REGIME_BITS;	/* enum timely_regime, last decision */
	u32 new_path:1;		/* repathed, no completion since */
	u32 on_line:1;		/* the clamp lowered the rate in recovery */
	u32 base_rtt_us:21;	/* windowed minimum engine RTT (0: none yet) */
	u32 base_stamp:10;	/* when base_rtt_us was set, 2^20 us units */
	u32 flags:1;		/* TIMELY_F_* */
	u16 noise_var;		/* RTT noise variance (lower bound), us^2 */
	u16 neg_count;		/* completions in a row with g <= 0 */
};

/*
 * Paper defaults, scaled to the line rate: delta is 1/1000 of it (10 Mbit/s
 * at 10 Gbit/s), the floor 1/10000 (at least 1 B/s), the ceiling the line
 * rate; a = 0.875, b = 0.8, b_p = 0.008, max_dec = 0.5, T_low = 50 us,
 * T_high = 500 us, min_rtt = 20 us, HAI after 5 with N = 5.
 */
static inline void timely_params_default(struct timely_params *p,
					 u64 line_rate_bytes_ps)
{
	u64 line = dcc_min_u64(line_rate_bytes_ps, TIMELY_RATE_LIMIT);

	*p = (struct timely_params){ 0 };
	p->variant = TIMELY_VARIANT_PAPER;
	p->ewma_alpha_fx = dcc_fx_from_milli(875);
	p->beta_fx = dcc_fx_from_milli(800);
	p->patched_beta_fx = dcc_fx_from_milli(8);
	p->max_dec_fx = dcc_fx_from_milli(500);
	p->t_low_us = 50;
	p->t_high_us = 500;
	p->min_rtt_us = 20;
	p->hai_thresh = 5;
	p->hai_n = 5;
	p->delta_bytes_ps = dcc_div_u64(line, 1000);
	p->min_rate_bytes_ps = dcc_div_u64(line, 10000);
	if (!p->min_rate_bytes_ps)
		p->min_rate_bytes_ps = 1;
	p->max_rate_bytes_ps = line;
	p->line_rate_bytes_ps = line_rate_bytes_ps;
	p->noise_band_us = 0;
	p->calibrate = 0;
	p->base_win_us = 10000000;
	p->segment_bytes = 16384;
	p->lr.cap_bytes_ps = line;
	p->lr.init_bytes_ps = line;
	p->lr.floor_bytes_ps = dcc_div_u64(line, 10000);
	p->lr.win_us = 10000000;
	p->lr.headroom_pct = 25;
}

/*
 * True when every field is in the range the algorithm is meant for.  The
 * engine stays safe (no overflow, rate in bounds, never 0) without this;
 * the glue uses it to refuse a bad combination.
 */
static inline bool timely_params_valid(const struct timely_params *p)
{
	return p->variant <= TIMELY_VARIANT_PATCHED &&
	       p->ewma_alpha_fx <= DCC_FX_ONE &&
	       p->beta_fx <= DCC_FX_ONE &&
	       p->patched_beta_fx <= DCC_FX_ONE &&
	       p->max_dec_fx <= DCC_FX_ONE &&
	       p->t_low_us <= p->t_high_us &&
	       p->t_high_us < TIMELY_RTT_LIMIT_US &&
	       p->min_rtt_us >= 1 &&
	       p->hai_n >= 1 && p->hai_n <= TIMELY_HAI_N_LIMIT &&
	       p->delta_bytes_ps <= TIMELY_RATE_LIMIT &&
	       p->min_rate_bytes_ps >= 1 &&
	       p->min_rate_bytes_ps <= p->max_rate_bytes_ps &&
	       p->max_rate_bytes_ps <= TIMELY_RATE_LIMIT;
}

/* Rate clamped to [min_rate, max_rate] (max wins if they cross), >= 1. */
static inline u64 timely_clamp_rate(const struct timely_params *p, u64 rate)
{
	u64 hi = dcc_min_u64(p->max_rate_bytes_ps, TIMELY_RATE_LIMIT);

	if (rate < p->min_rate_bytes_ps)
		rate = p->min_rate_bytes_ps;
	rate = dcc_min_u64(rate, hi);
	return rate ? rate : 1;
}

static inline void timely_state_init(struct timely_state *s,
				     const struct timely_params *p,
				     u64 start_rate_bytes_ps)
{
	*s = (struct timely_state){ 0 };
	s->rate_bytes_ps = timely_clamp_rate(p, start_rate_bytes_ps);
	s->regime = TIMELY_FIRST;
}

/*
 * Forget the RTT history but keep the rate (e.g. after an idle period): the
 * next sample is a first one again.
 */
static inline void timely_restart(struct timely_state *s)
{
	s->rtt_diff_fx = 0;
	s->neg_count = 0;
	s->acked_bytes = 0;
	s->seg_min_rtt_us = 0;
	s->flags &= ~TIMELY_F_PREV_VALID;
}

/* The RTT a start rate assumes where none is measured (BBR's), us. */
#define TIMELY_START_RTT_US	1000

/*
 * A new connection's rate: what its initial window of iw_bytes sends in
 * one RTT of rtt_us (TIMELY_START_RTT_US if 0: no sample), at most
 * permille of the ceiling max_rate (the engine's rate clamp follows).
 */
static inline u64 timely_start_rate(u64 iw_bytes, u32 rtt_us, u64 max_rate,
				    u32 permille)
{
	u64 iw = dcc_min_u64(iw_bytes, TIMELY_RATE_LIMIT);
	u64 cap = dcc_min_u64(max_rate, TIMELY_RATE_LIMIT) *
		  dcc_min_u32(permille, 1000);

	return dcc_min_u64(dcc_div_u64(iw * DCC_USEC_PER_SEC,
				       rtt_us ? rtt_us : TIMELY_START_RTT_US),
			   dcc_div_u64(cap, 1000));
}

/*
 * PLB moved the connection to another path (a new flow label): start
 * again as a new connection does, for everything the state learnt was
 * the path's.  The rate: the start rate of an initial window of iw_bytes
 * (timely_start_rate()), over TIMELY_START_RTT_US and not the smoothed
 * or minimum RTT, which are the path's left (on a congested path they
 * hold its queue: 36 ms in the bench's two-path scenario, a start at
 * 3 Mbit/s on a path of 0.3 ms); the ceiling of permille is taken of the
 * parameters' (the learnt line is forgotten).  Forgotten with it: the
 * RTT history (prev_rtt, the gradient's EWMA, the HAI count), the bytes
 * towards the next completion, the learnt line rate, the base RTT and
 * the noise.  What the destination's floor holds is the glue's, per
 * destination and not per path (Documentation/timely.rst, "A repath").
 * Until the first completion the safeguard window is at most the initial
 * window (timely_start_cwnd()), as for a new connection, and the
 * delivery-rate samples are lower bounds (timely_rate_sample()).
 */
static inline void timely_repath(struct timely_state *s,
				 const struct timely_params *p, u64 iw_bytes,
				 u32 permille)
{
	timely_state_init(s, p, timely_start_rate(iw_bytes, 0,
						  p->max_rate_bytes_ps,
						  permille));
	dcc_linerate_init(&s->lr);
	s->new_path = 1;
}

/* Time to put seg_bytes on the wire at the line rate, us, rounded down. */
static inline u32 timely_serialization_us(const struct timely_params *p,
					  u32 seg_bytes)
{
	return dcc_sat_u32(dcc_div_u64((u64)seg_bytes * DCC_USEC_PER_SEC,
				       p->line_rate_bytes_ps));
}

/*
 * RTT for the engine: the completion time minus the serialization of the
 * segment (so it does not depend on the segment size), at least 1 us.
 */
static inline u32 timely_rtt_for_engine(const struct timely_params *p,
					u32 raw_rtt_us, u32 seg_bytes)
{
	u32 ser = timely_serialization_us(p, seg_bytes);

	return raw_rtt_us > ser ? raw_rtt_us - ser : 1;
}

/*
 * One update per completion event: an ACK (or ACKs) covering at least
 * segment_bytes, or less when the flow has nothing more to send.
 */
static inline bool timely_completion_due(u32 bytes_acked, u32 segment_bytes,
					 bool no_more_data)
{
	if (!bytes_acked)
		return false;
	return bytes_acked >= segment_bytes || no_more_data;
}

/* Completions one ACK may complete; the bytes of any more are dropped. */
#define TIMELY_MAX_COMPLETIONS	16U

/*
 * Count newly acked bytes; returns the completion events they complete
 * (0: none yet), i.e. how many times the glue calls timely_on_completion()
 * with this ACK's sample.  A stretch ACK (GRO, ACK thinning, a lost ACK)
 * that covers several segments completes each of them, as that many ACKs
 * would have.  The bytes past the last whole segment start the next count
 * afresh, as before: carrying them made completions 8 % more frequent on
 * the test bed, and the patched variant's RTT p99 reached 10-12 ms in two
 * runs of four (2.4-2.9 ms in three runs without); kept until that is
 * understood.  At most TIMELY_MAX_COMPLETIONS per ACK: an ACK covering
 * more (a burst acknowledged after a stall) has one sample for all.
 */
static inline u32 timely_account_acked(struct timely_state *s,
				       u32 newly_acked, u32 segment_bytes,
				       bool no_more_data)
{
	u64 acked = (u64)s->acked_bytes + newly_acked;
	u32 n;

	s->acked_bytes = dcc_sat_u32(acked);
	if (!timely_completion_due(s->acked_bytes, segment_bytes,
				   no_more_data))
		return 0;
	if (!segment_bytes) {
		s->acked_bytes = 0;
		return 1;
	}
	n = s->acked_bytes / segment_bytes;
	if (no_more_data && s->acked_bytes > n * segment_bytes)
		n++;
	s->acked_bytes = 0;
	return dcc_min_u32(n, TIMELY_MAX_COMPLETIONS);
}

/* |v| as an unsigned value (also right for the most negative s64). */
static inline u64 timely_abs64(s64 v)
{
	return v < 0 ? 0 - (u64)v : (u64)v;
}

/* mag with the sign neg; mag < 2^63. */
static inline s64 timely_signed64(u64 mag, bool neg)
{
	return neg ? -(s64)mag : (s64)mag;
}

static inline s64 timely_clamp_diff(s64 v)
{
	return dcc_clamp_sym_s64(v, TIMELY_DIFF_LIMIT_FX);
}

/*
 * (1 - a) * old + a * new, both in us fx with |x| <= 2^46: each product and
 * their (convex) sum stay below 2^62.  Rounded once, toward zero.
 */
static inline s64 timely_ewma_fx(s64 old_fx, s64 new_fx, u32 a_fx)
{
	u32 a = dcc_min_u32(a_fx, DCC_FX_ONE);
	s64 sum = old_fx * (s64)(DCC_FX_ONE - a) + new_fx * (s64)a;

	return timely_signed64(timely_abs64(sum) >> DCC_FX_SHIFT, sum < 0);
}

/* Normalized gradient rtt_diff / min_rtt in signed fx, saturated to s32. */
static inline s32 timely_gradient_fx(const struct timely_params *p,
				     s64 rtt_diff_fx)
{
	u64 mag = dcc_div_u64(timely_abs64(rtt_diff_fx),
			      dcc_max_u32(p->min_rtt_us, 1));

	mag = dcc_min_u64(mag, 0x7fffffff);
	return (s32)timely_signed64(mag, rtt_diff_fx < 0);
}

/*
 * Patched variant's weight w(g) = 0 for g <= -1/4, 2 g + 1/2 between,
 * 1 for g >= 1/4, with 32 fractional bits (TIMELY_FRAC32_ONE is 1), from
 * rtt_diff_fx directly (g = rtt_diff / min_rtt is not rounded first).
 */
static inline u64 timely_patched_w32(const struct timely_params *p,
				     s64 rtt_diff_fx)
{
	u64 min_rtt = dcc_max_u32(p->min_rtt_us, 1);
	u64 mag = timely_abs64(rtt_diff_fx);
	u64 half = TIMELY_FRAC32_ONE / 2;
	u64 m;

	/* |g| >= 1/4: |rtt_diff_fx| >= min_rtt << 14. */
	if (mag >= min_rtt << (DCC_FX_SHIFT - 2))
		return rtt_diff_fx < 0 ? 0 : TIMELY_FRAC32_ONE;
	/* 2 |g| in 32 fractional bits; mag << 17 < min_rtt << 31. */
	m = dcc_div_u64(mag << (DCC_FX_SHIFT + 1), min_rtt);
	return rtt_diff_fx < 0 ? half - m : half + m;
}

/* x * f / 2^32 rounded down, exact for x <= 2^40 and f <= 2^32. */
static inline u64 timely_mul_frac32(u64 x, u64 f)
{
	u64 hi = x >> 16, lo = x & 0xffff;

	return (hi * f + ((lo * f) >> 16)) >> 16;
}

/*
 * Take the fraction cut32 (32 fractional bits) off the rate, at most
 * max_dec of it: the rate keeps at least (1 - max_dec) * rate.
 */
static inline u64 timely_cut(const struct timely_params *p, u64 rate,
			     u64 cut32)
{
	u64 cap = (u64)dcc_min_u32(p->max_dec_fx, DCC_FX_ONE) << DCC_FX_SHIFT;

	return rate - timely_mul_frac32(rate, dcc_min_u64(cut32, cap));
}

/* Gain as used: at most 1.0. */
static inline u64 timely_gain(u32 gain_fx)
{
	return dcc_min_u32(gain_fx, DCC_FX_ONE);
}

/*
 * Fraction b * (1 - T_high / rtt) = b * (rtt - T_high) / rtt, rtt > T_high;
 * with calibration b * (rtt - T_high) / max(rtt, min_rtt): the excess
 * queue taken out over the gradient's time base (timely_effective()),
 * which is the paper's cut where completions are less than an RTT apart.
 */
static inline u64 timely_high_cut32(const struct timely_params *p, u32 rtt_us)
{
	u32 base = rtt_us;

	if (p->calibrate)
		base = dcc_max_u32(base, p->min_rtt_us);
	return dcc_div_u64((timely_gain(p->beta_fx) << DCC_FX_SHIFT) *
			   (rtt_us - p->t_high_us), base);
}

/* Fraction b * g, from rtt_diff_fx > 0 directly (no rounding of g). */
static inline u64 timely_grad_cut32(const struct timely_params *p,
				    s64 rtt_diff_fx)
{
	return dcc_div_u64(timely_gain(p->beta_fx) * (u64)rtt_diff_fx,
			   dcc_max_u32(p->min_rtt_us, 1));
}

/*
 * Patched band update: R = delta (1 - w) + R (1 - b_p w err), with
 * err = (rtt - T_low) / T_low (>= 0 in the band).
 */
static inline u64 timely_patched_rate(const struct timely_params *p,
				      u64 rate, u32 rtt_us, s64 rtt_diff_fx)
{
	u64 delta = dcc_min_u64(p->delta_bytes_ps, TIMELY_RATE_LIMIT);
	u32 ref = dcc_max_u32(p->t_low_us, 1);
	u64 w = timely_patched_w32(p, rtt_diff_fx);
	u64 cut32 = 0;

	/* b_p w with 32 fractional bits (<= 2^32), times err < 2^30. */
	if (rtt_us > ref)
		cut32 = dcc_div_u64(((timely_gain(p->patched_beta_fx) * w) >>
				     DCC_FX_SHIFT) * (rtt_us - ref), ref);
	rate = timely_cut(p, rate, cut32);
	return rate + timely_mul_frac32(delta, TIMELY_FRAC32_ONE - w);
}

/*
 * The RTT difference the decisions use: rtt_diff_fx moved towards 0 by
 * noise_band_us (soft threshold), so a change within the measured noise
 * reads as no change.  With noise_band_us 0 it is rtt_diff_fx itself.
 */
static inline s64 timely_dead_band(const struct timely_params *p,
				   s64 rtt_diff_fx)
{
	s64 band = (s64)dcc_min_u32(p->noise_band_us, TIMELY_RTT_LIMIT_US) *
		   DCC_FX_ONE;

	if (rtt_diff_fx > band)
		return rtt_diff_fx - band;
	if (rtt_diff_fx < -band)
		return rtt_diff_fx + band;
	return 0;
}

/*
 * Process one completion event with the engine RTT rtt_us (see
 * timely_rtt_for_engine()).  Updates s->rate_bytes_ps; returns what it did.
 *
 * HAI: neg_count counts the completions in a row (after the first sample,
 * in every regime) whose smoothed gradient is <= 0; it is incremented
 * before the test, as in the paper's Algorithm 1, and any g > 0 resets it.
 * So with hai_thresh = 5 the 5th such completion in a row is the first to
 * add hai_n * delta (if its RTT is in the band); the 1st to 4th add delta.
 */
static inline enum timely_regime
timely_on_completion(struct timely_state *s, const struct timely_params *p,
		     u32 rtt_us)
{
	u64 rate = timely_clamp_rate(p, s->rate_bytes_ps);
	u64 delta = dcc_min_u64(p->delta_bytes_ps, TIMELY_RATE_LIMIT);
	enum timely_regime r;
	s64 new_diff_fx, diff;

	rtt_us = dcc_min_u32(rtt_us, TIMELY_RTT_LIMIT_US);
	if (!(s->flags & TIMELY_F_PREV_VALID)) {
		s->prev_rtt_us = rtt_us;
		s->flags |= TIMELY_F_PREV_VALID;
		s->new_path = 0;
		s->rate_bytes_ps = rate;
		s->regime = TIMELY_FIRST;
		return TIMELY_FIRST;
	}

	new_diff_fx = ((s64)rtt_us -
		       (s64)dcc_min_u32(s->prev_rtt_us, TIMELY_RTT_LIMIT_US)) *
		      DCC_FX_ONE;
	s->prev_rtt_us = rtt_us;
	s->rtt_diff_fx = timely_ewma_fx(timely_clamp_diff(s->rtt_diff_fx),
					new_diff_fx, p->ewma_alpha_fx);
	diff = timely_dead_band(p, s->rtt_diff_fx);
	if (diff > 0)
		s->neg_count = 0;
	else if (s->neg_count < TIMELY_NEG_COUNT_MAX)
		s->neg_count++;

	if (rtt_us < p->t_low_us) {
		/*
		 * The queue drained: a rate the clamp lowered in recovery
		 * doubles towards the line, from an eighth of it at least
		 * (timely_follow_line()).
		 */
		if (s->on_line) {
			u64 hi = timely_clamp_rate(p, TIMELY_RATE_LIMIT);

			if (rate < hi / 2)
				rate = dcc_min_u64(2 * rate, hi / 2);
			if (rate < hi / 8)
				rate = hi / 8;
			if (rate >= hi / 2)
				s->on_line = 0;
		}
		if (p->calibrate && s->neg_count >= p->hai_thresh) {
			rate += delta * dcc_min_u32(p->hai_n,
						    TIMELY_HAI_N_LIMIT);
			r = TIMELY_HAI;
		} else {
			rate += delta;
			r = TIMELY_AI_LOW;
		}
	} else if (rtt_us > p->t_high_us) {
		rate = timely_cut(p, rate, timely_high_cut32(p, rtt_us));
		r = TIMELY_MD_HIGH;
	} else if (p->variant == TIMELY_VARIANT_PATCHED) {
		rate = timely_patched_rate(p, rate, rtt_us, diff);
		r = TIMELY_PATCHED;
	} else if (diff <= 0) {
		if (s->neg_count >= p->hai_thresh) {
			rate += delta * dcc_min_u32(p->hai_n,
						    TIMELY_HAI_N_LIMIT);
			r = TIMELY_HAI;
		} else {
			rate += delta;
			r = TIMELY_AI;
		}
	} else {
		rate = timely_cut(p, rate, timely_grad_cut32(p, diff));
		r = TIMELY_MD_GRAD;
	}

	s->rate_bytes_ps = timely_clamp_rate(p, rate);
	s->regime = r;
	return r;
}

/*
 * Self-calibration (p->calibrate != 0).
 *
 * The paper's constants assume a fabric: a 10 Gbit/s NIC, a base RTT of
 * about min_rtt_us (20 us), hardware timestamps.  Where the path differs,
 * the constants are wrong in a known direction, so the engine measures
 * the path and never uses a value below what the measurement allows:
 *
 *  - line rate: learnt from delivery-rate samples (dcc_linerate.h), the
 *    line_rate parameter its cap; the rate ceiling, the serialization
 *    delay and the additive step (the same fraction of the line rate
 *    the parameters give at line_rate) follow it;
 *  - base RTT b: windowed minimum of the engine RTTs (base_win_us; when
 *    it expires it rises by at most 1/8 at a time, so a standing queue
 *    cannot pull it up at once), lowered to the destination's floor
 *    (struct dcc_floor in dcc_basedelay.h: the lowest engine RTT of any
 *    connection to the same destination within base_win_us, which the
 *    glue keeps and passes in): a connection that starts on a standing
 *    queue (beside a loss-based flow, or on the congested one of two
 *    paths) would take the queue for its base, and its thresholds,
 *    counted from it, would never see the queue it sits in;
 *  - noise n: what moves the engine RTT from one completion to the
 *    next without a queue building or draining.  Independent noise e
 *    gives changes x(k) that undo each other, -x(k) x(k-1) = var(e) on
 *    average, while a queue that builds or drains over several
 *    completions gives changes of one sign (products >= 0).  So the
 *    variance is an EWMA (gain 1/8, floored at 0) of -x(k) times the
 *    gradient's EWMA of the changes before it, in us^2, and n is 7/6 of
 *    its square root: 2 J / 3 for noise uniform in +-J, the mean change
 *    such noise gives.  The mean |change| itself (used before) grew with
 *    the queue's own swings between completions 5 ms apart (200 us on
 *    the test bed): the dead band hid a 7 % excess of the link, and
 *    T_high rose to 2 ms;
 *  - floor f = b + 2 n, where a quiet path's RTTs lie; then
 *    T_low = max(t_low_us, 1.5 f), T_high = max(t_high_us, 3 f), and a
 *    gradient dead band of 2 n;
 *  - the gradient's time base: min_rtt = max(min_rtt_us, f, c) with
 *    c = segment_bytes / R, the time the flow takes to send one
 *    completion at its rate R.  rtt_diff is the change of the queueing
 *    delay over one completion, so rtt_diff / c is the queue's growth
 *    rate, (sum of the rates - capacity) / capacity, whatever the rate:
 *    the paper's g, whose completions at 10 Gbit/s are about min_rtt
 *    apart.  Normalized by min_rtt alone, a flow whose completions are
 *    many RTTs apart (16 KB at 25 Mbit/s: 5.2 ms, 19 base RTTs on the
 *    test bed) read a queue of one or two packets building over 5 ms as
 *    g = 0.5 and cut its rate by b g = 40 %; all flows see it at once,
 *    and the link idled while they grew back by delta;
 *  - the cut above T_high takes b (rtt - T_high) / max(rtt, min_rtt):
 *    the excess queue over the same time base (the paper's where
 *    completions are less than an RTT apart).  The paper's b (1 -
 *    T_high / rtt), taken at each of the flows' completions while the
 *    queue drained, left the total at 75-80 % of the link;
 *  - below T_low the increase is hyperactive too (N delta after
 *    hai_thresh completions in a row with g <= 0): there is no queue,
 *    and growing back by delta took 100-200 ms on the bed.
 *
 * On a fabric (b ~ 10 us, little noise, 16 KB in 13 us at 10 Gbit/s)
 * every max() picks the paper's value; on a slower or noisier path the
 * thresholds scale with it.
 */
#define TIMELY_NOISE_BAND_K	2	/* dead band = K * noise */
#define TIMELY_FLOOR_NOISE_K	2	/* floor = base + K * noise */

/*
 * Measured noise in us: the mean |change| between two completions that
 * noise of the measured variance gives (7/6 of its deviation: 2 J / 3 for
 * noise uniform in +-J, as the mean |change| itself reads).
 */
static inline u32 timely_noise_us(const struct timely_state *s)
{
	return dcc_isqrt64(s->noise_var) * 7 / 6;
}

/*
 * How far a destination's floor floor_us is raised when its delay noise,
 * end_us wide, stops (dcc_floor_raise(), from dcc_bd_end() in the glue's
 * per-destination noise table): to the noise's centre, half its width
 * above the floor, as swift's floors are (swift_floor_lift_us()); not at
 * all for noise of at most half the floor, which the band below T_low
 * (1.5 times the floor on a quiet path) holds, so a queue's own moves that
 * read as noise do not ratchet the floor up.  The floor sits in the
 * noise's low tail for the rest of its window otherwise, and with it
 * T_low and T_high (3 times the floor): a quiet path read as queueing.
 *
 * The raise goes no higher than low_us, the lowest recent sample
 * (dcc_bd_low_us(): of the last 17-32, all taken after the noise stopped
 * when the end is the noise's own, which dcc_bd_end() sees 60-95 samples
 * after it), and not at all when that sample sits within half the floor
 * above it: the quiet path is then at most T_low, the band holds it (the
 * rule of the width's and the gate's, applied to the path itself), and a
 * floor the path still comes down to is no noise's low tail.  The flows'
 * own queue at J = 0 reads as noise that went on for 2048 samples on some
 * runs of the paper variant (the VM bed: runs of 1024-2047 in a row in
 * each traced 8 s cell), and its ends came with the queue drained: the
 * end's own sample 15-55 us above the 279 us path, or one of the next
 * burst (raises to 475-587 us), the lowest recent sample 0-15 us above
 * the path at 35 of 36 ends (Documentation/timely.rst, "When the noise
 * stops").
 */
static inline u32 timely_floor_lift_us(u32 floor_us, u32 end_us, u32 low_us)
{
	if (end_us <= floor_us / 2 || low_us <= floor_us ||
	    low_us - floor_us <= floor_us / 2)
		return 0;
	return dcc_min_u32(end_us / 2, low_us - floor_us);
}

/*
 * The width noise must keep (dcc_bd_end_held(), DCC_BD_HELD_MIN samples
 * in a row) for its end to raise a destination's floor floor_us (0: none
 * yet, nothing to raise): the floor itself.  Noise uniform in +-J takes
 * the floor J below the path and reads about 2 J wide, so noise as wide
 * as the floor is what leaves the quiet path above T_low (1.5 times the
 * floor) once it stops; narrower noise leaves it in the band below T_low.
 * Timely's own queue on a quiet path reads that wide only for a few
 * hundred samples at a time (the VM bed at J = 0, the patched variant:
 * 196 at most), and its ends raised the floor 93-115 times in a 6 s cell
 * without the gate.  The paper variant's queue cycles back to back and
 * reads that wide for longer (1024-2047 samples in a row in most cells,
 * 2048 or more on some runs): its ends are told apart by the samples
 * after them (timely_floor_lift_us()).
 */
static inline u32 timely_noise_gate_us(u32 floor_us)
{
	return floor_us ? floor_us : DCC_U32_MAX;
}

/* An RTT change clamped to +-TIMELY_NOISE_CHG_MAX us. */
static inline s64 timely_clamp_chg(s64 v)
{
	return dcc_clamp_sym_s64(v, TIMELY_NOISE_CHG_MAX);
}

/*
 * True when a delivery-rate sample is the sender's own rate, not the
 * path's: it delivered at least 7/8 of the rate the flow is paced at.  A
 * paced flow below the path's capacity delivers what it sends, so such a
 * sample is a lower bound of the line rate, as an app-limited one is;
 * only a path slower than the pacing delivers less.
 */
static inline bool timely_sample_self_limited(const struct timely_state *s,
					      u64 delivered_bytes,
					      u32 interval_us)
{
	u64 rate = dcc_linerate_sample_rate(delivered_bytes, interval_us);

	return rate >= s->rate_bytes_ps - s->rate_bytes_ps / 8;
}

/*
 * Feed one delivery-rate sample to the line-rate estimator; one the
 * application or the flow's own rate limited is a lower bound (it never
 * starts the estimate, and only raises it).  Taken as the line rate, a
 * flow paced low (a start rate from a slow handshake, a congested path
 * left) learnt its own rate as the line, and the additive step, 1/1000
 * of that, kept it there: about 0.1 % of its rate per completion.
 * After a repath (timely_repath()), until the first completion on the
 * new path, every sample is a lower bound: its packet went out on the
 * path left, or its interval began there (the last delivery before the
 * repath), and it read that path's rate.
 */
static inline void timely_rate_sample(struct timely_state *s,
				      const struct timely_params *p,
				      u32 now_us, u64 delivered_bytes,
				      u32 interval_us, bool app_limited)
{
	app_limited = app_limited || s->new_path ||
		      timely_sample_self_limited(s, delivered_bytes,
						 interval_us);
	dcc_linerate_sample(&s->lr, &p->lr, now_us, delivered_bytes,
			    interval_us, app_limited);
}

/*
 * The rate within the learnt ceiling (e: the effective parameters), at
 * every ACK: the ceiling lowers it at once (the start rate is set before
 * the path is known).  A rate the ceiling lowered in loss recovery
 * (in_loss: the socket in Recovery or Loss) is marked (on_line), and at
 * each completion below T_low (the queue drained) it restarts at an
 * eighth of the ceiling at least and doubles, up to half the ceiling
 * (timely_on_completion()); a loss cut unmarks it, the engine's cuts in
 * between do not (the clamp, not the engine, set the rate they cut).
 * A sample in recovery reads the holes' retransmissions, a segment
 * every few ms (0.9-2.8 Mbit/s in a 16-to-1 incast on 100 Mbit/s); the
 * ceiling learnt from it held the rate there after the estimate read the
 * line and the queue had drained (Documentation/timely.rst, "Incast: a
 * line rate learnt in recovery").  Tried and worse: following the
 * ceiling up at every ACK (256-to-1: last flow 2.5-2.7 x ideal against
 * 1.5 x), marking outside recovery too (the headroom rule's clamp: each
 * flow rode its own learnt line, Jain 0.61 in the ns-3 check), taking
 * the whole ceiling at once below T_low (the flows that did so together
 * overflowed the queue again: 16-to-1 2.7-3.0 x).  The rate before the
 * clamp is not kept (no room in the socket's congestion-control area).
 */
static inline void timely_follow_line(struct timely_state *s,
				      const struct timely_params *e,
				      bool in_loss)
{
	u64 rate = timely_clamp_rate(e, s->rate_bytes_ps);

	if (rate < s->rate_bytes_ps && in_loss)
		s->on_line = 1;
	s->rate_bytes_ps = rate;
}

/*
 * Update base RTT and noise with a completion's engine RTT; floor_us is
 * the destination's floor (0: none), which the base never stays above.
 */
static inline void timely_calibrate(struct timely_state *s,
				    const struct timely_params *p,
				    u32 rtt_us, u32 now_us, u32 floor_us)
{
	u32 stamp = (now_us >> TIMELY_STAMP_SHIFT) & TIMELY_STAMP_MASK;
	u32 win = p->base_win_us >> TIMELY_STAMP_SHIFT;
	u32 age = (stamp - s->base_stamp) & TIMELY_STAMP_MASK;

	rtt_us = dcc_clamp_u32(rtt_us, 1, TIMELY_RTT_LIMIT_US);
	if (s->flags & TIMELY_F_PREV_VALID) {
		u32 prev = dcc_min_u32(s->prev_rtt_us, TIMELY_RTT_LIMIT_US);
		u64 mag = timely_abs64(s->rtt_diff_fx) >> DCC_FX_SHIFT;
		s64 chg = timely_clamp_chg((s64)rtt_us - prev);
		/* The previous changes: the gradient's EWMA, in us. */
		s64 last = timely_clamp_chg(timely_signed64(mag,
							    s->rtt_diff_fx < 0));
		/* |chg * last| < 2^30. */
		s64 x = -chg * last, v = s->noise_var;

		if (x > TIMELY_NOISE_MAX)
			x = TIMELY_NOISE_MAX;
		/* Down rounded up: a quiet path decays it to 0. */
		if (x >= v)
			v += (x - v) >> TIMELY_NOISE_SHIFT;
		else
			v -= (v - x + BIT(TIMELY_NOISE_SHIFT) - 1) >>
			     TIMELY_NOISE_SHIFT;
		s->noise_var = (u16)(v < 0 ? 0 : v);
	}
	rtt_us = dcc_min_u32(rtt_us, TIMELY_BASE_MAX_US);
	if (!s->base_rtt_us || rtt_us <= s->base_rtt_us) {
		s->base_rtt_us = rtt_us;
		s->base_stamp = stamp;
	} else if (age > dcc_max_u32(win, 1)) {
		u32 up = s->base_rtt_us + s->base_rtt_us / 8 + 1;

		s->base_rtt_us = dcc_min_u32(rtt_us, up);
		s->base_stamp = stamp;
	}
	floor_us = dcc_min_u32(floor_us, TIMELY_BASE_MAX_US);
	if (floor_us && floor_us < s->base_rtt_us) {
		s->base_rtt_us = floor_us;
		s->base_stamp = stamp;
	}
}

/*
 * Time to send one completion (segment_bytes) at the flow's rate, us,
 * rounded down, at most TIMELY_RTT_LIMIT_US / 4 (0 without a segment).
 */
static inline u32 timely_completion_us(const struct timely_params *p,
				       const struct timely_state *s)
{
	u64 rate = s->rate_bytes_ps ? s->rate_bytes_ps : 1;

	/* segment_bytes < 2^32: the product stays below 2^52. */
	return (u32)dcc_min_u64(dcc_div_u64((u64)p->segment_bytes *
					    DCC_USEC_PER_SEC, rate),
				TIMELY_RTT_LIMIT_US / 4);
}

/*
 * The parameters in force for this connection: p itself without
 * calibration, else with the learnt line rate and the thresholds from
 * the measured base RTT and noise (see above).  e stays valid
 * (timely_params_valid()) when p is.
 */
static inline void timely_effective(const struct timely_params *p,
				    const struct timely_state *s,
				    struct timely_params *e)
{
	u64 line, lp, frac;
	u32 f, n;

	*e = *p;
	if (!p->calibrate)
		return;
	line = dcc_min_u64(dcc_linerate_bytes_ps(&s->lr, &p->lr),
			   TIMELY_RATE_LIMIT);
	lp = dcc_min_u64(p->line_rate_bytes_ps, TIMELY_RATE_LIMIT);
	e->line_rate_bytes_ps = line;
	e->max_rate_bytes_ps = dcc_min_u64(p->max_rate_bytes_ps, line);
	if (e->min_rate_bytes_ps > e->max_rate_bytes_ps)
		e->min_rate_bytes_ps = e->max_rate_bytes_ps;
	if (lp && line < lp) {
		/* delta / line_rate with 23 fractional bits (<= 1). */
		frac = dcc_div_u64(dcc_min_u64(p->delta_bytes_ps, lp) << 23,
				   lp);
		e->delta_bytes_ps = (line * frac) >> 23;
		if (!e->delta_bytes_ps)
			e->delta_bytes_ps = 1;
	}
	if (!s->base_rtt_us)
		return;
	n = timely_noise_us(s);
	f = dcc_min_u32(s->base_rtt_us + TIMELY_FLOOR_NOISE_K * n,
			TIMELY_RTT_LIMIT_US / 4);
	e->min_rtt_us = dcc_max_u32(dcc_max_u32(p->min_rtt_us, f),
				    timely_completion_us(p, s));
	e->t_low_us = dcc_max_u32(p->t_low_us, f + f / 2);
	e->t_high_us = dcc_max_u32(dcc_max_u32(p->t_high_us, 3 * f),
				   e->t_low_us + 1);
	e->noise_band_us = dcc_max_u32(p->noise_band_us,
				       TIMELY_NOISE_BAND_K * n);
}

/*
 * What every ACK does to the rate before the engine sees it, in one
 * place for the kernel glue, the ns-3 model and the fuzz harness: feed
 * the ACK's delivery-rate sample (delivered_bytes or interval_us 0: none)
 * to the line-rate estimator, take the effective parameters into e (the
 * caller uses them for the rest of the ACK), and let the rate follow the
 * learnt ceiling (timely_follow_line(); in_loss: the socket in Recovery
 * or Loss).  No decision of the engine: no trace event, no counter.
 */
static inline void timely_ack_line(struct timely_state *s,
				   const struct timely_params *p,
				   u32 now_us, u64 delivered_bytes,
				   u32 interval_us, bool app_limited,
				   bool in_loss, struct timely_params *e)
{
	if (delivered_bytes && interval_us)
		timely_rate_sample(s, p, now_us, delivered_bytes, interval_us,
				   app_limited);
	timely_effective(p, s, e);
	timely_follow_line(s, e, in_loss);
}

/*
 * The RTT the safeguard window covers (times the rate and cwnd_gain_pct):
 * the base RTT, or before the first completion measures one the
 * connection's smallest RTT sample (the handshake's; 0 if none), and at
 * least T_high.  Never srtt: it holds the queue, and a window over it
 * lets in more, the more there is.
 */
static inline u32 timely_window_rtt_us(u32 base_rtt_us, u32 min_rtt_us,
				       u32 t_high_us)
{
	u32 base = base_rtt_us ? base_rtt_us : min_rtt_us;

	return dcc_max_u32(base, t_high_us);
}

/*
 * The safeguard window cwnd while the engine holds no RTT sample (a new
 * connection before its first completion; after a timeout or an idle
 * restart, timely_restart()): at most the initial window init_cwnd
 * (TCP's, at least 1), as TCP restarts after idle (RFC 5681).  The rate
 * then is the start rate (or the one before the restart), which no
 * measurement has judged: a window that follows it lets in what the
 * path has not shown it holds.  Traced in the bench's 100-flow scenario
 * (Documentation/timely.rst, "Many flows"): 100 initial windows are the
 * 1000-packet FIFO, and the first ACK's window of 37 packets (twice the
 * start rate, 400 Mbit/s, over T_high) offered 3700 before the first
 * completion came back from behind the queue: 3600-3900 drops, 5-14
 * timeouts a run.
 */
static inline u32 timely_start_cwnd(const struct timely_state *s, u32 cwnd,
				    u32 init_cwnd)
{
	if (s->flags & TIMELY_F_PREV_VALID)
		return cwnd;
	return dcc_min_u32(cwnd, dcc_max_u32(init_cwnd, 1));
}

/*
 * The normalized gradient the last decision used (after the dead band),
 * signed fx; e is the connection's effective parameters.
 */
static inline s32 timely_grad_fx(const struct timely_state *s,
				 const struct timely_params *e)
{
	return timely_gradient_fx(e, timely_dead_band(e, s->rtt_diff_fx));
}

/*
 * Calibrate with rtt_us and the destination's floor floor_us (0: none),
 * then the completion update with the result.  The further completions
 * of a stretch ACK (timely_account_acked()) pass calibrate false: they
 * carry the same sample, which would otherwise count as that many changes
 * of 0 in the noise estimate.
 */
static inline enum timely_regime
timely_on_completion_at(struct timely_state *s, const struct timely_params *p,
			u32 rtt_us, u32 now_us, bool calibrate, u32 floor_us)
{
	struct timely_params e;

	if (p->calibrate && calibrate)
		timely_calibrate(s, p, rtt_us, now_us, floor_us);
	timely_effective(p, s, &e);
	return timely_on_completion(s, &e, rtt_us);
}

/*
 * A loss: cut the rate by max_dec (regime TIMELY_LOSS_RTO or
 * TIMELY_LOSS_RECOVERY); e is the connection's effective parameters.
 */
static inline void timely_loss_cut_rate(struct timely_state *s,
					const struct timely_params *e,
					enum timely_regime why)
{
	u64 rate = timely_clamp_rate(e, s->rate_bytes_ps);

	s->rate_bytes_ps = timely_clamp_rate(e, timely_cut(e, rate,
							   TIMELY_FRAC32_ONE));
	s->on_line = 0;
	s->regime = why;
}

/*
 * The last loss cut was spurious: take it back, i.e. divide the rate by
 * 1 - max_dec (the state keeps no copy of the old rate: it would not fit
 * the socket's congestion-control area).
 */
static inline void timely_undo(struct timely_state *s,
			       const struct timely_params *e)
{
	u64 keep = DCC_FX_ONE - dcc_min_u32(e->max_dec_fx, DCC_FX_ONE - 1);
	u64 rate = dcc_min_u64(s->rate_bytes_ps, TIMELY_RATE_LIMIT);

	s->rate_bytes_ps = timely_clamp_rate(e, dcc_div_u64(rate << DCC_FX_SHIFT,
							    keep));
	s->regime = TIMELY_UNDO;
}

#endif /* _DCC_TIMELY_H */
