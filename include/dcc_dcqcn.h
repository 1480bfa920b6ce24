/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DCQCN (Zhu et al., "Congestion Control for Large-Scale RDMA
 * Deployments", SIGCOMM 2015): the reaction point's rate machine and the
 * notification point's pacing of notifications, for TCP.
 *
 * Pure integer math, no kernel dependencies: the glue (tcp_dcqcn.c) feeds
 * it notifications, acked bytes and the time, and paces the socket at the
 * current rate R_C it returns.  The unit tests and fuzzers drive it
 * directly.
 *
 * Reaction point (sender), with R_C the current and R_T the target rate:
 *
 *	on a notification:	R_T = R_C;  R_C = R_C * (1 - alpha / 2);
 *				alpha = (1 - g) * alpha + g;
 *				reset the timer, the byte counter and both
 *				event counts (T = BC = 0)
 *	every alpha period without a notification:  alpha = (1 - g) * alpha
 *	increase events: the timer (every timer_us) counts T += 1, the byte
 *	counter (every byte_counter_bytes acked) counts BC += 1; then
 *		max(T, BC) <= F:	fast recovery	R_C = (R_T + R_C) / 2
 *		min(T, BC) > F:		hyper increase	R_T += i * R_HAI,
 *					i = min(T, BC) - F;  R_C = (R_T + R_C) / 2
 *		otherwise:		additive	R_T += R_AI;
 *					R_C = (R_T + R_C) / 2
 *	R_C and R_T stay in [min_rate, max_rate] (max wins if they cross).
 *
 * Timers are lazy: nothing runs between calls.  Every entry point takes
 * "now" and first plays the alpha decays and timer events that fell due
 * since the last call, in time order, then handles its own input; so the
 * glue needs no per-socket hrtimer, only calls on ACKs and transmissions.
 * A call plays at most DCQCN_MAX_EVENTS increase events (it stops early
 * once both rates sit at max_rate, where more events change nothing); the
 * periods beyond that are consumed without effect.  A clock that goes
 * backwards replays nothing and restarts the periods at the new "now".
 *
 * Notification point (receiver): a CE-marked packet at least cnp_interval
 * after the previous notification (or the first) is a notification; CE
 * marks in between are folded into it.  See dcqcn_np_packet() for how the
 * glue signals one on TCP ACKs so that the sender tells a fresh
 * notification from a repeated echo (dcqcn_rp_echo()).
 *
 * Fixed point:
 *  - alpha_fx and g_fx are unsigned, DCC_FX_SHIFT (16) fractional bits,
 *    at most 1.0 (DCC_FX_ONE); the raise is rounded down (alpha = 1 stays
 *    exactly 1), the decay over n periods is alpha * (1 - g)^n with the
 *    power taken with 31 fractional bits and the product rounded down;
 *  - rates are bytes per second, u64, at most DCQCN_RATE_LIMIT (2^40,
 *    8.8 Tbit/s); a cut is R_C - floor(R_C * alpha / 2) (never below the
 *    floor); the average (R_T + R_C) / 2 is rounded up, so that R_C
 *    reaches R_T instead of stopping one byte per second short.
 */
#ifndef _DCC_DCQCN_H
#define _DCC_DCQCN_H

#include "dcc_fixed.h"

#define DCQCN_RATE_LIMIT	BIT_ULL(40)	/* ceiling on rates, B/s */
#define DCQCN_MAX_EVENTS	1024U		/* increase events per call */
#define DCQCN_HAI_I_LIMIT	BIT(20)		/* largest hyper multiplier */
#define DCQCN_COUNT_MAX		0xffffffffU	/* T and BC saturate here */
#define DCQCN_FRAC31_ONE	BIT_ULL(31)	/* 1.0 with 31 fractional bits */
#define DCQCN_AI_PPM		1000U		/* relative R_AI: line / 1000 */
#define DCQCN_HAI_PPM		10000U		/* relative R_HAI: line / 100 */

struct dcqcn_params {
	u32 g_fx;		/* alpha gain g, <= 1.0 */
	u32 alpha_period_us;	/* alpha decays once per period, >= 1 */
	u32 timer_us;		/* rate-increase timer period, >= 1 */
	u32 byte_counter_bytes;	/* bytes per byte-counter event, >= 1 */
	u32 fr_events;		/* F: fast-recovery events, >= 1 */
	u32 cnp_interval_us;	/* NP: least time between notifications */
	u64 ai_bytes_ps;	/* R_AI, additive increase step */
	u64 hai_bytes_ps;	/* R_HAI, hyper increase step */
	u64 min_rate_bytes_ps;	/* rate floor, >= 1 */
	u64 max_rate_bytes_ps;	/* rate ceiling (the line rate) */
	/*
	 * How far R_C may lie above the rate the connection achieves (TCP
	 * only, dcqcn_settle() and dcqcn_validate()): one mss per RTT, set
	 * by dcqcn_params_for() once the RTT is known; 0: a quarter of the
	 * achieved rate (DCQCN_VALID_PCT).
	 */
	u64 lead_bytes_ps;
	/*
	 * After a notification's cut, the first increase event (timer or
	 * byte counter) comes no sooner than this: the cut stays in force
	 * while its effect travels the loop.  dcqcn_params_for() makes it at
	 * least half an RTT; at most timer_us: none beyond the timer (the
	 * paper's, whose 55 us timer is itself several fabric RTTs).
	 */
	u64 cut_hold_us;
	/*
	 * Relative settings, used by dcqcn_params_for() only: the steps as
	 * parts per million of the line rate when ai_bytes_ps / hai_bytes_ps
	 * are 0 there.
	 */
	u32 ai_ppm;		/* R_AI / line rate, 1e-6 */
	u32 hai_ppm;		/* R_HAI / line rate, 1e-6 */
};

/* What an increase event or a cut did (dcqcn_state.stage). */
enum dcqcn_stage {
	DCQCN_STAGE_NONE,	/* nothing yet */
	DCQCN_STAGE_CUT,	/* notification: cut */
	DCQCN_STAGE_FR,		/* fast recovery */
	DCQCN_STAGE_AI,		/* additive increase */
	DCQCN_STAGE_HAI,	/* hyper increase */
	DCQCN_STAGE_LOSS,	/* loss cut (dcqcn_loss_cut) */
};

/* Reaction-point echo decoding: the ECE level of the previous ACK. */
struct dcqcn_rp_echo {
	u8 ece;
};

/* The loss window: 10 fractional bits (1/1024 packet). */
#define DCQCN_LW_SHIFT		10
#define DCQCN_LW_MAX		(DCC_U32_MAX >> 1)

/* Per-connection reaction-point state (the socket's private area). */
struct dcqcn_state {
	u64 rate_c_bytes_ps;	/* current rate R_C: what the socket paces at */
	u64 rate_t_bytes_ps;	/* target rate R_T */
	u64 alpha_stamp_us;	/* start of the current alpha period */
	u64 timer_stamp_us;	/* start of the current timer period */
	u32 alpha_fx;		/* alpha, <= 1.0 */
	u32 bc_bytes;		/* bytes towards the next byte-counter event */
	u32 timer_cnt;		/* T: timer events since the last cut */
	u32 byte_cnt;		/* BC: byte-counter events since the last cut */
	u8 stage;		/* enum dcqcn_stage of the last change */
	struct dcqcn_rp_echo echo;	/* ECE level of the previous ACK */
	/*
	 * The glue's: the low 16 bits of snd_una at the previous ACK, to
	 * tell an ACK that advanced it (dcqcn_recovery_cwnd()).
	 */
	u16 una_lo;
	/*
	 * The window bound after a loss (Reno's) or a notification
	 * (dcqcn_lw_*()), packets with DCQCN_LW_SHIFT fractional bits; 0:
	 * neither yet, no bound.
	 */
	u32 loss_cwnd_fx;
};

/* Increase events one call played, by stage (for counters). */
struct dcqcn_events {
	u32 fr;
	u32 ai;
	u32 hai;
	u32 alpha_decays;	/* alpha periods elapsed without notification */
};

/*
 * Reference defaults (the paper's absolute values) for a line rate:
 * g = 1/16, alpha period and timer 55 us, byte counter 150 KB, F = 5,
 * R_AI 5 Mbit/s, R_HAI 50 Mbit/s, notifications at most every 50 us,
 * floor 1 Mbit/s (at most the line).  The relative steps (for
 * dcqcn_params_for()) are R_AI = line / 1000, R_HAI = line / 100.
 */
static inline void dcqcn_params_default(struct dcqcn_params *p,
					u64 line_rate_bytes_ps)
{
	u64 line = dcc_min_u64(line_rate_bytes_ps, DCQCN_RATE_LIMIT);

	*p = (struct dcqcn_params){ 0 };
	p->g_fx = DCC_FX_ONE / 16;
	p->alpha_period_us = 55;
	p->timer_us = 55;
	p->byte_counter_bytes = 150 * 1024;
	p->fr_events = 5;
	p->cnp_interval_us = 50;
	p->ai_bytes_ps = 5000000 / 8;
	p->hai_bytes_ps = 50000000 / 8;
	p->max_rate_bytes_ps = line ? line : 1;
	p->min_rate_bytes_ps = dcc_min_u64(1000000 / 8, p->max_rate_bytes_ps);
	p->ai_ppm = DCQCN_AI_PPM;
	p->hai_ppm = DCQCN_HAI_PPM;
}

/*
 * The parameters one connection runs with, from the template t (the
 * module's settings) and what the connection knows:
 *  - line_bytes_ps, the line rate it learnt: the rate ceiling; the floor
 *    is lowered to it if it lies above;
 *  - rtt_us (0: not known yet), its smoothed RTT: the alpha period lasts
 *    at least one RTT (a decay step shorter than the feedback loop acts
 *    on stale news), a cut is held rtt / 2 (cut_hold_us, see
 *    dcqcn_on_cnp()) and the timer lasts at least rtt / 2(F + 1), so
 *    that fast recovery completes in the second half of the RTT, between
 *    two notifications one RTT apart (a queue that marks above a step
 *    notifies every RTT; with a timer of one RTT the sender would stay
 *    in fast recovery, each cut lowering R_T, and the rate could only
 *    fall); at the paper's 40 Gbit/s with RTTs below 55 us nothing
 *    changes;
 *  - a step of 0 in t is relative: with rtt_us and mss known, R_AI is
 *    Reno's additive increase, one mss per RTT per RTT, spread over the
 *    timer events of an RTT, what TCP flows sharing the queue add (the
 *    paper's 0.1 % of the line per event is 40 times less at 100 Mbit/s
 *    and 2.7 ms), and a relative R_HAI is
 *    hai_ppm / ai_ppm times that; before an RTT is known R_AI = line *
 *    ai_ppm / 1e6, R_HAI = line * hai_ppm / 1e6 (1000 and 10000 ppm: 40
 *    and 400 Mbit/s at 40 Gbit/s);
 *  - a byte counter of 0 in t is relative: the bytes the line carries in
 *    one (effective) timer period, at least one mss;
 *  - Reno bound: with rtt_us and mss known, an absolute R_AI is at most
 *    one mss per RTT, and R_HAI shrinks by the same factor, so that a
 *    path that only drops (no ECN marks) sees no more overshoot than
 *    Reno's;
 *  - the lead (lead_bytes_ps): with rtt_us and mss known, one mss per
 *    RTT, else 0 (see dcqcn_validate()).
 * Every result is >= 1 and inside the ranges dcqcn_params_valid() wants
 * when t is valid apart from its zero steps and byte counter.
 */
static inline void dcqcn_params_for(struct dcqcn_params *eff,
				    const struct dcqcn_params *t,
				    u64 line_bytes_ps, u32 rtt_us, u32 mss)
{
	u64 line = dcc_min_u64(line_bytes_ps, DCQCN_RATE_LIMIT);
	u64 ai, hai, reno, bc;

	*eff = *t;
	eff->max_rate_bytes_ps = line ? line : 1;
	eff->min_rate_bytes_ps = dcc_min_u64(t->min_rate_bytes_ps ?
					     t->min_rate_bytes_ps : 1,
					     eff->max_rate_bytes_ps);
	eff->timer_us = dcc_max_u32(t->timer_us ? t->timer_us : 1,
				    rtt_us / (2 * dcc_min_u32(dcc_max_u32(t->fr_events, 1),
						      1U << 30) + 2));
	eff->alpha_period_us = dcc_max_u32(t->alpha_period_us ?
					   t->alpha_period_us : 1, rtt_us);
	/* line <= 2^40 and ppm < 2^32: the products fit in 64 bits. */
	ai = dcc_min_u64(t->ai_bytes_ps, DCQCN_RATE_LIMIT);
	if (!ai)
		ai = dcc_div_u64(eff->max_rate_bytes_ps *
				 dcc_min_u32(t->ai_ppm, 1000000), 1000000);
	hai = dcc_min_u64(t->hai_bytes_ps, DCQCN_RATE_LIMIT);
	if (!hai)
		hai = dcc_div_u64(eff->max_rate_bytes_ps *
				  dcc_min_u32(t->hai_ppm, 1000000), 1000000);
	ai = ai ? ai : 1;
	hai = hai ? hai : 1;
	eff->lead_bytes_ps = 0;
	eff->cut_hold_us = t->cut_hold_us > rtt_us / 2 ? t->cut_hold_us :
			   rtt_us / 2;
	if (rtt_us && mss) {
		reno = dcc_div_u64((u64)mss * DCC_USEC_PER_SEC, rtt_us);
		reno = dcc_min_u64(reno ? reno : 1, DCQCN_RATE_LIMIT);
		eff->lead_bytes_ps = reno;
		if (!t->ai_bytes_ps) {
			/*
			 * Relative R_AI: Reno's pace, one mss per RTT per
			 * RTT, spread over the timer events of an RTT
			 * (reno * rtt <= mss * 1e6 < 2^52, timer < rtt:
			 * the product fits); ai <= 2^40 and ppm <= 2^20.
			 */
			ai = reno;
			if (eff->timer_us < rtt_us)
				ai = dcc_div_u64(reno * eff->timer_us, rtt_us);
			ai = ai ? ai : 1;
			if (!t->hai_bytes_ps)
				hai = dcc_div_u64(ai *
						  dcc_min_u32(t->hai_ppm, 1000000),
						  dcc_max_u32(dcc_min_u32(t->ai_ppm,
									  1000000), 1));
			hai = dcc_min_u64(hai ? hai : 1, DCQCN_RATE_LIMIT);
		} else if (ai > reno) {
			/* hai < 2^41, reno < 2^42: scale through 2^20ths. */
			hai = dcc_div_u64(hai * dcc_div_u64(reno << 20, ai),
					  1ULL << 20);
			hai = hai ? hai : 1;
			ai = reno;
		}
	}
	eff->ai_bytes_ps = ai;
	eff->hai_bytes_ps = hai;
	bc = t->byte_counter_bytes;
	if (!bc) {
		/* line < 2^41, timer < 2^32: divide first, then multiply. */
		bc = dcc_div_u64(eff->max_rate_bytes_ps, 1000) *
		     eff->timer_us / 1000;
		bc = bc > mss ? bc : (mss ? mss : 1);
	}
	eff->byte_counter_bytes = dcc_sat_u32(bc);
}

/*
 * True when every field is in the range the machine is meant for.  The
 * machine stays safe without it (no overflow, no division by zero, rates
 * in bounds and never 0); the glue uses it to refuse a bad combination.
 */
static inline bool dcqcn_params_valid(const struct dcqcn_params *p)
{
	return p->g_fx >= 1 && p->g_fx <= DCC_FX_ONE &&
	       p->alpha_period_us >= 1 && p->timer_us >= 1 &&
	       p->byte_counter_bytes >= 1 && p->fr_events >= 1 &&
	       p->ai_bytes_ps <= DCQCN_RATE_LIMIT &&
	       p->hai_bytes_ps <= DCQCN_RATE_LIMIT &&
	       p->min_rate_bytes_ps >= 1 &&
	       p->min_rate_bytes_ps <= p->max_rate_bytes_ps &&
	       p->max_rate_bytes_ps <= DCQCN_RATE_LIMIT;
}

/* Rate clamped to [min_rate, max_rate] (max wins if they cross), >= 1. */
static inline u64 dcqcn_clamp_rate(const struct dcqcn_params *p, u64 rate)
{
	u64 hi = dcc_min_u64(p->max_rate_bytes_ps, DCQCN_RATE_LIMIT);

	if (rate < p->min_rate_bytes_ps)
		rate = p->min_rate_bytes_ps;
	rate = dcc_min_u64(rate, hi);
	return rate ? rate : 1;
}

/* Start at start_rate (DCQCN starts at the line rate), alpha = 1. */
static inline void dcqcn_state_init(struct dcqcn_state *s,
				    const struct dcqcn_params *p,
				    u64 start_rate_bytes_ps, u64 now_us)
{
	*s = (struct dcqcn_state){ 0 };
	s->rate_c_bytes_ps = dcqcn_clamp_rate(p, start_rate_bytes_ps);
	s->rate_t_bytes_ps = s->rate_c_bytes_ps;
	s->alpha_fx = DCC_FX_ONE;
	s->alpha_stamp_us = now_us;
	s->timer_stamp_us = now_us;
	s->stage = DCQCN_STAGE_NONE;
}

/* g or alpha as stored, bounded to 1.0 (parameters may be torn). */
static inline u32 dcqcn_fx1(u32 v)
{
	return dcc_min_u32(v, DCC_FX_ONE);
}

/* (b / 2^31)^n with 31 fractional bits, b <= 2^31: square and multiply. */
static inline u64 dcqcn_pow31(u64 b, u64 n)
{
	u64 r = DCQCN_FRAC31_ONE;

	while (n) {
		if (n & 1)
			r = (r * b) >> 31;
		n >>= 1;
		if (!n || !r)
			break;
		b = (b * b) >> 31;
	}
	return r;
}

/* alpha after n periods without a notification: alpha * (1 - g)^n. */
static inline u32 dcqcn_alpha_decayed(const struct dcqcn_params *p,
				      u32 alpha_fx, u64 n)
{
	u64 keep = (u64)(DCC_FX_ONE - dcqcn_fx1(p->g_fx)) << (31 - DCC_FX_SHIFT);

	return (u32)(((u64)dcqcn_fx1(alpha_fx) * dcqcn_pow31(keep, n)) >> 31);
}

/* alpha after a notification: (1 - g) * alpha + g, rounded down. */
static inline u32 dcqcn_alpha_raised(const struct dcqcn_params *p,
				     u32 alpha_fx)
{
	u64 g = dcqcn_fx1(p->g_fx), a = dcqcn_fx1(alpha_fx);

	return (u32)(((DCC_FX_ONE - g) * a + g * DCC_FX_ONE) >> DCC_FX_SHIFT);
}

/* Whole periods of period_us in [*stamp, now]; advances *stamp by them.
 * A stamp in the future (clock went backwards) is moved to now.
 */
static inline u64 dcqcn_periods(u64 *stamp_us, u64 now_us, u32 period_us)
{
	u64 n;

	if (now_us < *stamp_us) {
		*stamp_us = now_us;
		return 0;
	}
	n = dcc_div_u64(now_us - *stamp_us, period_us ? period_us : 1);
	*stamp_us += n * (period_us ? period_us : 1);
	return n;
}

static inline u32 dcqcn_sat_inc(u32 v)
{
	return v < DCQCN_COUNT_MAX ? v + 1 : v;
}

/* R_C = (R_T + R_C) / 2 rounded up (so R_C reaches R_T), R_T clamped. */
static inline void dcqcn_toward_target(struct dcqcn_state *s,
				       const struct dcqcn_params *p)
{
	s->rate_t_bytes_ps = dcqcn_clamp_rate(p, s->rate_t_bytes_ps);
	s->rate_c_bytes_ps = dcqcn_clamp_rate(p, (s->rate_t_bytes_ps +
						  s->rate_c_bytes_ps + 1) / 2);
}

/*
 * One increase event, after T or BC was counted: the stage from the two
 * counts, then the rate update.  Returns the stage.
 */
static inline enum dcqcn_stage dcqcn_increase(struct dcqcn_state *s,
					      const struct dcqcn_params *p)
{
	u32 f = p->fr_events;
	u32 hi = dcc_max_u32(s->timer_cnt, s->byte_cnt);
	u32 lo = dcc_min_u32(s->timer_cnt, s->byte_cnt);
	u64 step;

	if (hi <= f) {
		s->stage = DCQCN_STAGE_FR;
	} else if (lo > f) {
		/* i grows with the time spent in hyper increase. */
		step = dcc_min_u64(p->hai_bytes_ps, DCQCN_RATE_LIMIT) *
		       dcc_min_u32(lo - f, DCQCN_HAI_I_LIMIT);
		s->rate_t_bytes_ps += dcc_min_u64(step, DCQCN_RATE_LIMIT);
		s->stage = DCQCN_STAGE_HAI;
	} else {
		s->rate_t_bytes_ps += dcc_min_u64(p->ai_bytes_ps,
						  DCQCN_RATE_LIMIT);
		s->stage = DCQCN_STAGE_AI;
	}
	dcqcn_toward_target(s, p);
	return (enum dcqcn_stage)s->stage;
}

static inline void dcqcn_count_stage(struct dcqcn_events *ev,
				     enum dcqcn_stage st, u32 n)
{
	if (!ev)
		return;
	if (st == DCQCN_STAGE_FR)
		ev->fr += n;
	else if (st == DCQCN_STAGE_AI)
		ev->ai += n;
	else if (st == DCQCN_STAGE_HAI)
		ev->hai += n;
}

/* True when more increase events cannot change either rate. */
static inline bool dcqcn_at_ceiling(const struct dcqcn_state *s,
				    const struct dcqcn_params *p)
{
	u64 hi = dcqcn_clamp_rate(p, DCQCN_RATE_LIMIT);

	return s->rate_c_bytes_ps >= hi && s->rate_t_bytes_ps >= hi;
}

/*
 * Play n increase events of one source (timer if from_timer, else byte
 * counter), at most DCQCN_MAX_EVENTS; the counts keep advancing (they
 * decide the stage) even when the rates sit at the ceiling.
 */
static inline void dcqcn_play(struct dcqcn_state *s,
			      const struct dcqcn_params *p, u64 n,
			      bool from_timer, struct dcqcn_events *ev)
{
	u64 played = 0;
	u32 *cnt = from_timer ? &s->timer_cnt : &s->byte_cnt;

	while (played < n && played < DCQCN_MAX_EVENTS) {
		if (dcqcn_at_ceiling(s, p))
			break;
		*cnt = dcqcn_sat_inc(*cnt);
		dcqcn_count_stage(ev, dcqcn_increase(s, p), 1);
		played++;
	}
	/* The rest changes nothing but the count. */
	n -= played;
	*cnt = n >= DCQCN_COUNT_MAX - *cnt ? DCQCN_COUNT_MAX : *cnt + (u32)n;
}

/* Alpha decays for every whole alpha period since the last one. */
static inline void dcqcn_decay_alpha(struct dcqcn_state *s,
				     const struct dcqcn_params *p, u64 now_us,
				     struct dcqcn_events *ev)
{
	u64 n = dcqcn_periods(&s->alpha_stamp_us, now_us, p->alpha_period_us);

	if (n) {
		s->alpha_fx = dcqcn_alpha_decayed(p, s->alpha_fx, n);
		if (ev)
			ev->alpha_decays += (u32)dcc_min_u64(n, DCC_U32_MAX);
	}
}

/*
 * True while a notification's cut is held (p->cut_hold_us): no increase
 * event since the cut (stage still DCQCN_STAGE_CUT) and less than
 * cut_hold_us since it (the timer's period started at the cut).  A clock
 * that went backwards restarts the hold at now.
 */
static inline bool dcqcn_held(struct dcqcn_state *s,
			      const struct dcqcn_params *p, u64 now_us)
{
	if (s->stage != DCQCN_STAGE_CUT || p->cut_hold_us <= p->timer_us)
		return false;
	if (now_us < s->timer_stamp_us)
		s->timer_stamp_us = now_us;
	return now_us - s->timer_stamp_us < p->cut_hold_us;
}

/*
 * Bring the lazy timers up to now: alpha decays, then the timer's
 * increase events.  After a cut the first timer period lasts cut_hold_us
 * (if longer than timer_us), the next ones timer_us.
 */
static inline void dcqcn_advance(struct dcqcn_state *s,
				 const struct dcqcn_params *p, u64 now_us,
				 struct dcqcn_events *ev)
{
	u64 n;

	dcqcn_decay_alpha(s, p, now_us, ev);
	if (dcqcn_held(s, p, now_us))
		return;
	if (s->stage == DCQCN_STAGE_CUT && p->cut_hold_us > p->timer_us)
		s->timer_stamp_us += p->cut_hold_us - p->timer_us;
	n = dcqcn_periods(&s->timer_stamp_us, now_us, p->timer_us);
	if (n)
		dcqcn_play(s, p, n, true, ev);
}

/*
 * Bytes acked (or sent) towards the byte counter, at time now: first the
 * timers, then one byte-counter event per byte_counter_bytes.
 */
static inline void dcqcn_on_bytes(struct dcqcn_state *s,
				  const struct dcqcn_params *p, u32 bytes,
				  u64 now_us, struct dcqcn_events *ev)
{
	u32 b = p->byte_counter_bytes ? p->byte_counter_bytes : 1;
	u64 total, n;

	dcqcn_advance(s, p, now_us, ev);
	if (dcqcn_held(s, p, now_us))
		return;		/* bytes acked in the hold count nothing */
	total = (u64)s->bc_bytes + bytes;
	n = total / b;
	s->bc_bytes = (u32)(total - n * b);
	if (n)
		dcqcn_play(s, p, n, false, ev);
}

/* Reset the increase machinery after a cut: T = BC = 0, periods restart. */
static inline void dcqcn_reset_increase(struct dcqcn_state *s, u64 now_us)
{
	s->timer_cnt = 0;
	s->byte_cnt = 0;
	s->bc_bytes = 0;
	s->timer_stamp_us = now_us;
}

/*
 * While TCP recovers from a loss the rate does not grow (Reno's window
 * does not grow in recovery either): alpha keeps decaying, the timer and
 * the byte counter restart at now and count nothing.
 */
static inline void dcqcn_hold(struct dcqcn_state *s,
			      const struct dcqcn_params *p, u64 now_us,
			      struct dcqcn_events *ev)
{
	dcqcn_decay_alpha(s, p, now_us, ev);
	s->timer_stamp_us = now_us;
	s->bc_bytes = 0;
}

/*
 * The highest rate a TCP sender may run at, given the rate it achieves
 * (achieved_bytes_ps, > 0): achieved plus the lead, one mss per RTT
 * (p->lead_bytes_ps), or plus DCQCN_VALID_PCT - 100 percent of it before
 * the RTT is known.
 *
 * A DCQCN NIC sends at R_C, so each increase shows in the queue within an
 * RTT; a TCP sender's rate is also bounded by its window and its
 * application, and increases that do not raise what it sends pile up
 * unseen: hyper increase ran R_C to 4 times the line rate within 10 ms on
 * the test bed (4 flows, 100 Mbit/s).  So the rate may lead what it
 * delivers by a probe's margin, not more.  The margin is additive, Reno's
 * one packet per RTT: once the bottleneck is full, what a flow delivers
 * stops growing, and a rate that leads it by a fraction of itself (BBR's
 * 5/4) makes the queue grow by that fraction of the flow's whole window
 * every RTT, queue included, i.e. exponentially (4 flows on the bed's RED
 * queue overshot to 150 % of the link and 10 ms of queue every 100 ms);
 * a lead of one packet per RTT makes it grow by one packet per RTT per
 * flow, as Reno's and DCTCP's windows do.  The achieved rate of a paced
 * flow carrying less than a few packets per RTT is known to about a
 * packet per RTT only (its flight size, in whole packets, over the RTT),
 * which the same lead covers.
 */
#define DCQCN_VALID_PCT		125U

/*
 * The rate a delivery-rate sample shows (TCP only): delivered_bytes over
 * interval_us, but over no less than rtt_us, the connection's smoothed
 * RTT; 0 when either is unknown (0).  The packets a sample counts are
 * those delivered between the sending of one packet and its ACK, i.e.
 * (about) what the flow had in flight ahead of it; over one RTT that is
 * the flow's rate (Little's law).  Over a shorter interval it measures
 * how the ACKs bunch, not the path: a receiver that holds its ACKs
 * (delayed ACKs, an application reading late) releases them in bursts,
 * and a bottleneck with a token bucket passes a burst at the speed of the
 * link behind it.  On the test bed 4 flows paced at 14-50 Mbit/s each
 * through a 100 Mbit/s link read samples of 200-300 Mbit/s (11 packets
 * acked 414 us after the packet was sent, srtt 3-7 ms); every increase
 * validated against them (dcqcn_validate()) passed, hyper increase took
 * the four from 100 to 250-350 Mbit/s within 5 ms, and the RED-ECN queue
 * stood at 12 ms every 70 ms.  Over at least srtt the samples follow the
 * rates (a sum of 200 Mbit/s at the peak, p99 15.1 -> 11.3 ms).
 */
static inline u64 dcqcn_delivery_rate(u64 delivered_bytes, u32 interval_us,
				      u32 rtt_us)
{
	u32 t = dcc_max_u32(interval_us, rtt_us);

	if (!interval_us || !delivered_bytes)
		return 0;
	/* At most 2^43 bytes: the product with 10^6 < 2^63. */
	return dcc_div_u64(dcc_min_u64(delivered_bytes, 1ULL << 43) *
			   DCC_USEC_PER_SEC, t);
}

static inline u64 dcqcn_lead_cap(const struct dcqcn_params *p,
				 u64 achieved_bytes_ps)
{
	/* achieved is clamped to 2^40 first: the products fit. */
	u64 a = dcqcn_clamp_rate(p, achieved_bytes_ps);
	u64 lead = dcc_min_u64(p->lead_bytes_ps, DCQCN_RATE_LIMIT);

	if (!lead)
		lead = dcc_div_u64(a * (DCQCN_VALID_PCT - 100), 100);
	return a + lead;
}

/*
 * Before a cut: R_C is brought down to the highest rate the achieved one
 * allows (dcqcn_lead_cap(); achieved_bytes_ps 0 if unknown: no change),
 * if that is lower.  A TCP sender's pacing rate can lie far above what it
 * delivers (the window or the application limits it, or the line rate
 * was never reached); a DCQCN NIC sends at R_C, and a cut must start from
 * the rate that caused the congestion, as Reno's ssthresh starts from the
 * flight size.  Not from the achieved rate itself: for a flow of one or
 * two packets per RTT that estimate is up to a packet per RTT low, and
 * every cut started from it would lower R_T by that much (next to a
 * DCTCP flow, dcqcn fell to 5 % of the link that way).
 */
static inline void dcqcn_settle(struct dcqcn_state *s,
				const struct dcqcn_params *p,
				u64 achieved_bytes_ps)
{
	u64 r;

	if (!achieved_bytes_ps)
		return;
	r = dcqcn_clamp_rate(p, dcqcn_lead_cap(p, achieved_bytes_ps));
	if (r < s->rate_c_bytes_ps)
		s->rate_c_bytes_ps = r;
}

/*
 * Rate validation, after increase events (TCP only): an increase may take
 * R_T no higher than dcqcn_lead_cap() of the rate the connection achieves
 * (achieved_bytes_ps, 0 if unknown: no bound), and R_C no higher than
 * that or the target before the events, whichever is higher; it never
 * lowers them (before_c / before_t: the rates before the events).  As
 * RFC 7661 validates a window.  Fast recovery returns R_C to a target
 * that was validated when it was set (a cut's R_T is its settled rate):
 * bounding that return by the rate achieved just after the cut, which
 * the cut itself lowered, would make every cut stick (the ratchet of
 * dcqcn_settle(), by another way).  Returns true when it bounded either
 * rate.
 */
static inline bool dcqcn_validate(struct dcqcn_state *s,
				  const struct dcqcn_params *p,
				  u64 before_c, u64 before_t,
				  u64 achieved_bytes_ps)
{
	u64 cap, cap_c, cap_t;
	bool bounded = false;

	if (!achieved_bytes_ps)
		return false;
	cap = dcqcn_lead_cap(p, achieved_bytes_ps);
	cap_t = cap > before_t ? cap : before_t;
	cap_c = cap_t > before_c ? cap_t : before_c;
	if (s->rate_c_bytes_ps > cap_c) {
		s->rate_c_bytes_ps = dcqcn_clamp_rate(p, cap_c);
		bounded = true;
	}
	if (s->rate_t_bytes_ps > cap_t) {
		s->rate_t_bytes_ps = dcqcn_clamp_rate(p, cap_t);
		bounded = true;
	}
	return bounded;
}

/*
 * A congestion notification at now: the due timers first, then
 * R_T = R_C, R_C *= 1 - alpha / 2 with the alpha before this notification,
 * then alpha is raised and its period restarts; the first increase event
 * comes cut_hold_us later (dcqcn_params_for(): at least half an RTT).
 *
 * Why the hold: a TCP receiver notifies at most once per RTT, and a
 * queue held above the marking threshold notifies every RTT.  With the
 * timer at RTT / (F + 1), fast recovery brought R_C back to R_T within
 * the RTT, before the cut could show in the queue, and each cut set R_T
 * to the rate just restored: the target hardly fell and the queue stood
 * (RED-ECN at 100 Mbit/s: RTT p50 7 ms, dctcp's 2.75 ms, and RED dropped
 * the non-ECT packets arriving above its threshold).  Held half an RTT,
 * with fast recovery and one additive step in the second half (timer
 * RTT / 2(F + 1)), the cut is in force while its news travels, and a
 * notification every RTT still finds R_T restored and the rate growing
 * (held a whole RTT, a flow notified every RTT, next to DCTCP on a step,
 * would only fall).
 */
static inline void dcqcn_on_cnp(struct dcqcn_state *s,
				const struct dcqcn_params *p, u64 now_us,
				struct dcqcn_events *ev)
{
	u64 rc, cut;

	dcqcn_advance(s, p, now_us, ev);
	rc = s->rate_c_bytes_ps;
	/* rc <= 2^40 and alpha <= 2^16: the product fits easily. */
	cut = (rc * dcqcn_fx1(s->alpha_fx)) >> (DCC_FX_SHIFT + 1);
	s->rate_t_bytes_ps = rc;
	s->rate_c_bytes_ps = dcqcn_clamp_rate(p, rc - cut);
	s->alpha_fx = dcqcn_alpha_raised(p, s->alpha_fx);
	s->alpha_stamp_us = now_us;
	dcqcn_reset_increase(s, now_us);
	s->stage = DCQCN_STAGE_CUT;
}

/*
 * Loss (retransmit timeout or fast recovery): the timers first, then a cut
 * as by a notification with alpha = 1 (R_C halves, R_T = the old R_C), the
 * increase machinery restarts; alpha is left alone (a loss is not an ECN
 * mark).
 */
static inline void dcqcn_loss_cut(struct dcqcn_state *s,
				  const struct dcqcn_params *p, u64 now_us,
				  struct dcqcn_events *ev)
{
	u64 rc;

	dcqcn_advance(s, p, now_us, ev);
	rc = s->rate_c_bytes_ps;
	s->rate_t_bytes_ps = rc;
	s->rate_c_bytes_ps = dcqcn_clamp_rate(p, rc - rc / 2);
	dcqcn_reset_increase(s, now_us);
	s->stage = DCQCN_STAGE_LOSS;
}

/* ---- the loss window ----------------------------------------------------
 *
 * DCQCN was built for a lossless fabric.  On a path that drops without
 * marking, a rate-based sender has no self-clocking: while its rate lies
 * above the bottleneck's the queue grows by the difference, every RTT,
 * until it overflows, and many packets are lost in the RTT before the loss
 * is seen.  So a loss also sets a window bound as Reno's: half the packets
 * in flight at the loss (RFC 5681's ssthresh), then one packet more per
 * window acked (congestion avoidance).
 *
 * A notification sets the same bound (dcqcn_lw_notify()): the packets in
 * flight when it came, the window that filled the queue to the marking
 * threshold, cut as the rate is, by alpha / 2, on the next notifications.
 * Without it a rate climbs with nothing to stop it until the queue
 * shows it: on the bed's RED-ECN queue (4 flows, marking from 30 KB,
 * behind a token bucket with a 30 KB burst) the four rates' sum ran from
 * 60 to 200 Mbit/s in 10 ms with the queue empty, and the first mark came
 * 13 ms after the sum crossed the link: a queue of 12 ms every 60 ms.  A
 * window stops a flow at what the path carried when it was last told
 * to stop, plus a packet per RTT, as DCTCP's does; the rate machine keeps
 * pacing and cutting below it.  Before the first loss or notification
 * there is no bound.
 */

/* A loss with flight_pkts in flight: the bound is half of it, >= 2. */
static inline void dcqcn_lw_cut(struct dcqcn_state *s, u32 flight_pkts)
{
	u64 w = dcc_max_u32(flight_pkts >> 1, 2);

	s->loss_cwnd_fx = (u32)dcc_min_u64(w << DCQCN_LW_SHIFT, DCQCN_LW_MAX);
}

/*
 * The packets a loss's bound starts from: the flight (flight_pkts), but
 * no more than the path delivers in an RTT, the achieved rate
 * (achieved_bytes_ps, dcqcn_delivery_rate() or the flight's) times rtt_us
 * in packets of mss bytes (either 0: unknown, the flight).  In congestion
 * avoidance the two agree (Little's law); when slow start overshoots, the
 * flight at the first loss is about twice what the path holds (the
 * packets sent in the last RTT beyond it are lost but not yet known),
 * and half of it is the path itself.  On the bench's 1000-packet FIFO
 * (100 Mbit/s, path and queue about 1030 packets) the bound after the
 * overshoot came out at 993-1000 packets: the flow, paced above the
 * link and grown back to the bound after recovery, held the queue full
 * (RTT 120 ms) for seconds without another loss, or lost once more at
 * once, as a few packets of the exit decided; a flow joining the full
 * queue lost its initial window, settled at the 1 Mbit/s floor with a
 * bound of 2 packets, and grew a packet per RTT for the rest of its run
 * (3-10 Mbit/s beside 85-90, Jain 0.52-0.55 in 3 of 8 runs of one boot).
 * Reno's Linux flows come down to half the path the same way, by the
 * second loss their window's burst after recovery brings at once.
 */
static inline u32 dcqcn_loss_flight(u32 flight_pkts, u64 achieved_bytes_ps,
				    u32 rtt_us, u32 mss)
{
	u64 path;

	if (!achieved_bytes_ps || !rtt_us || !mss)
		return flight_pkts;
	/* Bytes per RTT: achieved / 1000 < 2^31 times rtt < 2^32 fits. */
	path = dcc_div_u64(dcc_min_u64(achieved_bytes_ps, DCQCN_RATE_LIMIT),
			   1000) * rtt_us;
	path = dcc_div_u64(path, (u64)mss * 1000);
	return (u32)dcc_min_u64(flight_pkts, path ? path : 1);
}

/*
 * A notification with flight_pkts in flight, alpha_fx the alpha its rate
 * cut used: the bound becomes the flight (>= 2), but no lower than the
 * bound before it cut by alpha / 2 (the rate's cut), and never higher
 * than that bound.  The flight alone ratchets: after a cut the flow is
 * paced below its window, so the next notification finds a flight
 * smaller than the window by the rate's cut and more, and the window
 * fell faster than DCTCP's, which cuts by its fraction of marked packets
 * (next to a DCTCP flow on the bed's queue, dcqcn kept 20 % of the
 * link).
 */
static inline void dcqcn_lw_notify(struct dcqcn_state *s, u32 flight_pkts,
				   u32 alpha_fx)
{
	u64 w = (u64)dcc_max_u32(flight_pkts, 2) << DCQCN_LW_SHIFT;
	u64 old = s->loss_cwnd_fx, keep;

	if (old) {
		/* old < 2^31, alpha <= 2^16: the product fits. */
		keep = old - ((old * dcqcn_fx1(alpha_fx)) >> (DCC_FX_SHIFT + 1));
		w = dcc_min_u64(w > keep ? w : keep, old);
	}
	s->loss_cwnd_fx = (u32)dcc_min_u64(w, DCQCN_LW_MAX);
}

/*
 * acked packets in congestion avoidance: + acked / window.  The glue
 * calls it only while the window limits the flow (tcp_is_cwnd_limited(),
 * as Linux grows Reno's).
 */
static inline void dcqcn_lw_ack(struct dcqcn_state *s, u32 acked)
{
	u64 w = s->loss_cwnd_fx;

	if (!w || !acked)
		return;
	/* w >= 1 << DCQCN_LW_SHIFT; acked << 20 < 2^52. */
	w += dcc_div_u64((u64)acked << (2 * DCQCN_LW_SHIFT), w);
	s->loss_cwnd_fx = (u32)dcc_min_u64(w, DCQCN_LW_MAX);
}

/* The bound in whole packets (>= 2), or DCC_U32_MAX without one. */
static inline u32 dcqcn_lw_pkts(const struct dcqcn_state *s)
{
	if (!s->loss_cwnd_fx)
		return DCC_U32_MAX;
	return dcc_max_u32(s->loss_cwnd_fx >> DCQCN_LW_SHIFT, 2);
}

/* The loss was spurious (undo): the bound goes back to twice itself. */
static inline void dcqcn_lw_undo(struct dcqcn_state *s)
{
	s->loss_cwnd_fx = (u32)dcc_min_u64((u64)s->loss_cwnd_fx << 1,
					   DCQCN_LW_MAX);
}

/* ---- the loss episode of a destination ----------------------------------
 *
 * One loss sets each flow's bound for a long time on a deep drop-tail
 * FIFO: the bound grows a packet per RTT, and an RTT is the queue's
 * (60-120 ms on the bench's 1000-packet FIFO), so the split one overflow
 * makes stays for seconds.  And that split is not fair: a flow joining N
 * others slow-starts into the part of the FIFO their last halving left
 * free, about half of it, and at the overflow holds about as much as all
 * of them together; halved, its bound is N times each of theirs (beside
 * two: 235 packets against 128 and 132, Jain's index 0.91).  No rule of
 * one flow's window can tell, from its own loss, whether it shares the
 * FIFO with one flow or with ten.  The flows of one host to one
 * destination can: those that lose within one episode (win_us from the
 * first loss, two RTTs in the glue) lost in the same overflow, and each
 * takes the mean of the bounds the episode's losses set (dcqcn_share()),
 * as RFC 9040's ensemble sharing divides one destination's window among
 * its connections: together they cut as much as their losses alone
 * would, split evenly.  A flow of the destination that did not lose in
 * the episode but has a bound is held to no more than the mean (which
 * flows lose at an overflow is chance).  A single loss is no episode (a
 * flow alone, or a path of its own).
 *
 * The episode is one u64, so that it is read and updated whole (the
 * glue's table is shared by the host's connections, without a lock):
 * the start (the low 32 bits of the microsecond clock; wraps every 71
 * minutes, compared modulo 2^32), the count of losses (8 bits) and the
 * sum of their bounds in packets (24 bits); both saturate together (a
 * loss that would overflow either is not counted).
 */
#define DCQCN_EP_COUNT_MAX	0xffU
#define DCQCN_EP_SUM_MAX	0xffffffU

static inline u32 dcqcn_ep_start(u64 ep)
{
	return (u32)(ep >> 32);
}

static inline u32 dcqcn_ep_count(u64 ep)
{
	return (u32)(ep >> 24) & DCQCN_EP_COUNT_MAX;
}

static inline u32 dcqcn_ep_sum(u64 ep)
{
	return (u32)ep & DCQCN_EP_SUM_MAX;
}

/* True when ep holds an episode that started at most win_us before now. */
static inline bool dcqcn_ep_current(u64 ep, u64 now_us, u32 win_us)
{
	return dcqcn_ep_count(ep) &&
	       (u32)now_us - dcqcn_ep_start(ep) < win_us;
}

/*
 * A loss at now_us that set a bound of bound_pkts: the episode ep (0:
 * none) with it, or a new episode of it alone if ep is not current.
 */
static inline u64 dcqcn_ep_loss(u64 ep, u64 now_us, u32 win_us,
				u32 bound_pkts)
{
	u32 b = dcc_min_u32(bound_pkts, DCQCN_EP_SUM_MAX);
	u32 n, sum;

	if (!dcqcn_ep_current(ep, now_us, win_us))
		return ((u64)(u32)now_us << 32) | (1U << 24) | b;
	n = dcqcn_ep_count(ep);
	sum = dcqcn_ep_sum(ep);
	if (n >= DCQCN_EP_COUNT_MAX || b > DCQCN_EP_SUM_MAX - sum)
		return ep;
	return (ep & ~(u64)DCC_U32_MAX) | ((n + 1) << 24) | (sum + b);
}

/*
 * The mean bound of a current episode of at least two losses, in packets;
 * 0 for none.
 */
static inline u32 dcqcn_ep_mean(u64 ep, u64 now_us, u32 win_us)
{
	if (!dcqcn_ep_current(ep, now_us, win_us) || dcqcn_ep_count(ep) < 2)
		return 0;
	return dcqcn_ep_sum(ep) / dcqcn_ep_count(ep);
}

/*
 * Hold a flow to its destination's episode mean (mean_pkts, 0: none; p
 * the flow's parameters): a window bound above it is lowered to it (at
 * least 2 packets); one below it is raised to it only for a flow that
 * lost in the episode (lost: the glue's "in recovery"), and to no more
 * than twice itself, the flight it had when it lost (a loss's bound is
 * at most half of it).  So the episode's losers share what their losses
 * left together, and no flow sends more than it had in flight at its
 * loss.  The rates move with the bound (R_C and R_T times new / old):
 * after a loss R_T is the rate before it, which fast recovery returns
 * R_C to, and the rate that slow start's split gave a flow would
 * otherwise outlast its bound (a flow held at its rate while the bound
 * of another grows).  No bound (no loss or notification yet): none.
 * Returns true when it changed the bound.
 */
static inline bool dcqcn_share(struct dcqcn_state *s,
			       const struct dcqcn_params *p, u32 mean_pkts,
			       bool lost)
{
	u64 old = s->loss_cwnd_fx, m, w, f, rc, rt;

	if (!mean_pkts || !old)
		return false;
	m = (u64)dcc_max_u32(mean_pkts, 2) << DCQCN_LW_SHIFT;
	if (m < old)
		w = m;
	else if (lost)
		w = dcc_min_u64(dcc_min_u64(m, old << 1), DCQCN_LW_MAX);
	else
		return false;
	if (w == old)
		return false;
	s->loss_cwnd_fx = (u32)w;
	/* w / old <= 2 in 16 fractional bits; rates <= 2^40: fits. */
	f = dcc_div_u64(w << DCC_FX_SHIFT, old);
	rc = dcc_min_u64(s->rate_c_bytes_ps, DCQCN_RATE_LIMIT);
	rt = dcc_min_u64(s->rate_t_bytes_ps, DCQCN_RATE_LIMIT);
	s->rate_c_bytes_ps = dcqcn_clamp_rate(p, (rc * f) >> DCC_FX_SHIFT);
	s->rate_t_bytes_ps = dcqcn_clamp_rate(p, (rt * f) >> DCC_FX_SHIFT);
	return true;
}

/*
 * The window in fast recovery, in packets: Linux's proportional rate
 * reduction (RFC 6937, tcp_cwnd_reduction()) with its slow-start
 * reduction bound, where the bound is what the connection may have
 * outstanding (the safeguard and the loss window, bound >= 1).  in_flight
 * is the flight after the ACK, acked the packets it delivered (acked or
 * SACKed), prr_delivered and prr_out the packets delivered and sent since
 * recovery began, una_advanced whether the ACK moved snd_una, newly_lost
 * whether it marked packets lost.  The packets it may send:
 *  - with the flight at or above the bound: none (PRR sends a share of
 *    the deliveries there, bound / prior window; none is never more);
 *  - below it: the deliveries not yet sent again (at least this ACK's),
 *    plus one if the ACK advanced snd_una and reported no new loss, up
 *    to the bound;
 *  - at least one while nothing was sent since recovery began (the fast
 *    retransmission).
 * So the flight that a heavy loss emptied grows back towards the bound
 * as Reno's does in Linux (doubling per RTT while every ACK fills a
 * hole), and never faster: SACKs that report more holes (no snd_una
 * advance, or new losses) send only what they delivered.  Packet
 * conservation alone (one out per one delivered) kept such a flight at
 * one packet: a flow joining a 1000-packet drop-tail FIFO that another
 * kept full slow-started to 906 packets in flight, entered recovery with
 * a loss window of 484 and none left in flight, and sent one packet per
 * RTT for the remaining 4 s of its run (traced on the bench's join-leave
 * bed, 0.2-3 Mbit/s beside 94).  One more per ACK that delivered
 * anything (SACKs included) grows the flight faster than Reno's where
 * SACKs report many holes (a shallow FIFO: 724 drops against Reno's 458
 * on one boot).
 */
static inline u32 dcqcn_recovery_cwnd(u32 in_flight, u32 acked,
				      u32 prr_delivered, u32 prr_out,
				      bool una_advanced, bool newly_lost,
				      u32 bound)
{
	u64 snd = 0;

	bound = dcc_max_u32(bound, 1);
	if (in_flight < bound) {
		snd = acked;
		if (prr_delivered > prr_out && prr_delivered - prr_out > snd)
			snd = prr_delivered - prr_out;
		if (una_advanced && !newly_lost)
			snd++;
		snd = dcc_min_u64(snd, bound - in_flight);
	}
	if (!prr_out && !snd)
		snd = 1;
	return (u32)dcc_min_u64((u64)in_flight + snd, DCC_U32_MAX);
}

/* ---- notification point (receiver) and the echo on ACKs ---------------
 *
 * TCP gives the receiver one bit per ACK, ECE, and the kernel forces it on
 * the ACK of every CE-marked packet; the glue controls it otherwise (the
 * TCP_ECN_DEMAND_CWR flag).  A notification is therefore coded as a rising
 * edge of ECE on the ACK stream:
 *  - a due CE mark (first, or >= cnp_interval after the last notification)
 *    is a notification: ECE goes up, the ACK leaves at once;
 *  - while a notification is younger than cnp_interval, ECE stays up on
 *    every ACK (CE or not), so no second edge can appear in the interval;
 *  - after it, the first unmarked packet brings ECE down;
 *  - if the last ACK sent was already up when a notification is due, the
 *    glue first sends one ACK with ECE down for the data before this packet
 *    (a separator): the delayed ACK it owes, or, if none is owed and SACK
 *    is in use, a duplicate of the last ACK (harmless with SACK).  With
 *    neither, the mark is folded into the ongoing echo (DCQCN_NP_MERGED)
 *    and the next CE-marked packet tries again.
 * The sender counts a notification on each rising edge (dcqcn_rp_echo());
 * ECE on later ACKs is the repeated echo of the same notification.
 */

/* Notification-point state. */
struct dcqcn_np {
	u64 cnp_stamp_us;	/* time of the last notification */
	u8 ece;			/* ECE level on the ACKs now */
	u8 valid;		/* cnp_stamp_us holds a notification */
	u16 folded;		/* CE marks folded since the last one */
	u16 folded_last;	/* those folded into the previous one, at
				 * the latest notification (for tracing)
				 */
};

/* dcqcn_np_packet() results (bits). */
#define DCQCN_NP_NOTIFY		0x01	/* a notification: ECE up, ACK now */
#define DCQCN_NP_SEPARATE	0x02	/* first an ACK with ECE down */
#define DCQCN_NP_COALESCED	0x04	/* CE mark inside the interval */
#define DCQCN_NP_MERGED		0x08	/* due, but no separator possible */

static inline void dcqcn_np_init(struct dcqcn_np *np)
{
	*np = (struct dcqcn_np){ 0 };
}

/* True when a notification may be sent at now. */
static inline bool dcqcn_np_due(struct dcqcn_np *np, u32 interval_us,
				u64 now_us)
{
	if (!np->valid)
		return true;
	if (now_us < np->cnp_stamp_us)	/* clock went backwards */
		np->cnp_stamp_us = now_us;
	return now_us - np->cnp_stamp_us >= interval_us;
}

/*
 * One ECN-capable data packet at the receiver: ce if it was CE-marked;
 * ack_pending if an ACK is owed for data before it (a delayed ACK);
 * sack_ok if the connection uses SACK.  Updates np->ece (the level for the
 * ACK of this packet) and returns DCQCN_NP_* bits.
 */
static inline u32 dcqcn_np_packet(struct dcqcn_np *np, u32 interval_us,
				  bool ce, u64 now_us, bool ack_pending,
				  bool sack_ok)
{
	bool due = dcqcn_np_due(np, interval_us, now_us);
	u32 ret;

	if (!ce) {
		if (due)
			np->ece = 0;	/* held up only inside the interval */
		return 0;
	}
	if (!due) {
		np->ece = 1;
		if (np->folded < 0xffff)
			np->folded++;
		return DCQCN_NP_COALESCED;
	}
	if (ack_pending)
		ret = DCQCN_NP_NOTIFY | DCQCN_NP_SEPARATE;
	else if (!np->ece)
		ret = DCQCN_NP_NOTIFY;
	else if (sack_ok)
		ret = DCQCN_NP_NOTIFY | DCQCN_NP_SEPARATE;
	else
		ret = DCQCN_NP_MERGED;
	np->ece = 1;
	if (ret & DCQCN_NP_NOTIFY) {
		np->cnp_stamp_us = now_us;
		np->valid = 1;
		np->folded_last = np->folded;
		np->folded = 0;
	} else if (np->folded < 0xffff) {
		np->folded++;
	}
	return ret;
}

/* One ACK with ECE (or not): true on a rising edge, a fresh notification. */
static inline bool dcqcn_rp_echo(struct dcqcn_rp_echo *e, bool ece)
{
	bool fresh = ece && !e->ece;

	e->ece = ece;
	return fresh;
}

#endif /* _DCC_DCQCN_H */
