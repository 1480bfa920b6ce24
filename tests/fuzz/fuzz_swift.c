// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness of the Swift core (include/dcc_swift.h) together with
 * the pacing conversion tcp_swift.c applies after every decision.
 *
 * Two connections share the parameters and the host-wide RTT floor, as in
 * the module.  Events: ACKs (delay samples including 0, huge and far
 * below or above the target, endpoint-delay samples, any ACK size, the
 * stack's delayed-ACK flag, app-limited), fast recovery, retransmit
 * timeouts, undo, idle periods and clock jumps (forward, backwards, across
 * 2^32 and, from a start near 2^64, across the 64-bit wrap), module
 * parameter writes (in and out of range; also a torn mix of the old and
 * the new set, which the module's RCU publication rules out) and connection
 * restarts.
 *
 * Invariants after every event, per connection:
 *  - both windows inside [min_cwnd, max_cwnd] of some parameter set the
 *    connection lived under (exactly the current one if no parameter
 *    changed), so never 0; TCP's window >= 2; pacing rate >= 1 B/s and the
 *    pacing RTT in (0, srtt];
 *  - a delay cut never raises a window, nor takes more than max_mdf of it
 *    (unless the floor lifts it); at most one delay cut per sample RTT
 *    (fabric plus endpoint delay);
 *    an increase never lowers it, and over a run of increases the window
 *    follows the exact sum of ai * n / cwnd within a fixed-point unit
 *    (small steps are not lost to rounding);
 *  - an ACK that clears TCP's timeouts clears the timeout count; after
 *    retx_reset timeouts in a row the window is at its floor;
 *  - undo never lowers a window;
 *  - the endpoint-delay EWMA stays within the samples' range; the minimum
 *    RTT is a sample seen, base_rtt <= min_rtt, the target >= the base
 *    target, the flow-scaling term <= its range, and neither grows with
 *    the window.
 */
#include <math.h>

#include "fuzz.h"

#include "dcc_pacing.h"
#include "dcc_swift.h"

/* Module parameters of tcp_swift.c (name, range, default). */
enum {
	P_AI, P_BETA, P_MAX_MDF, P_MIN_CWND, P_MAX_CWND, P_BASE_TARGET,
	P_REL_MINRTT, P_MINRTT_WIN, P_HOPS, P_PER_HOP, P_FS_RANGE, P_FS_MIN,
	P_FS_MAX, P_EP_TARGET, P_EP_KEEP, P_RETX_RESET, P_HEADROOM,
	P_DELACK_GUARD, P_SCALE_RTT, P_NUM
};

static const struct fz_param swift_tab[P_NUM] = {
	[P_AI]		= { "ai_mpkt", 1, 1000000, 250 },
	[P_BETA]	= { "md_beta_permille", 1, 1000, 800 },
	[P_MAX_MDF]	= { "max_mdf_permille", 1, 999, 500 },
	[P_MIN_CWND]	= { "min_cwnd_mpkt", 1, 1000000, 1 },
	[P_MAX_CWND]	= { "max_cwnd_pkts", 1, 65535, 256 },
	[P_BASE_TARGET]	= { "base_target_us", 0, 1000000, 25 },
	[P_REL_MINRTT]	= { "target_rel_minrtt", 0, 1, 1 },
	[P_MINRTT_WIN]	= { "minrtt_win_ms", 10, 600000, 10000 },
	[P_HOPS]	= { "hops", 0, 255, 2 },
	[P_PER_HOP]	= { "per_hop_ns", 0, 1000000, 1000 },
	[P_FS_RANGE]	= { "fs_range_us", 0, 1000000, 100 },
	[P_FS_MIN]	= { "fs_min_cwnd_mpkt", 1, 65535000, 100 },
	[P_FS_MAX]	= { "fs_max_cwnd_pkts", 1, 65535, 256 },
	[P_EP_TARGET]	= { "ep_target_us", 0, 1000000, 100 },
	[P_EP_KEEP]	= { "ep_ewma_keep_permille", 0, 999, 750 },
	[P_RETX_RESET]	= { "retx_reset_threshold", 1, 255, 3 },
	[P_HEADROOM]	= { "pacing_headroom_pct", 100, 1000, 120 },
	[P_DELACK_GUARD] = { "delack_guard_us", 0, 1000000, 40000 },
	[P_SCALE_RTT]	= { "scale_rtt_us", 0, 1000000, 50 },
};

/* The cross-parameter checks of swift_params_build() in tcp_swift.c. */
static int swift_check(const u32 *v, unsigned int idx, u32 val)
{
	u64 lo, hi;

	switch (idx) {
	case P_MIN_CWND:
	case P_MAX_CWND:
		lo = idx == P_MIN_CWND ? val : v[P_MIN_CWND];
		hi = idx == P_MAX_CWND ? val : v[P_MAX_CWND];
		return lo > hi * 1000;
	case P_FS_MIN:
	case P_FS_MAX:
		lo = idx == P_FS_MIN ? val : v[P_FS_MIN];
		hi = idx == P_FS_MAX ? val : v[P_FS_MAX];
		return lo >= hi * 1000;
	}
	return 0;
}

/* swift_params_build() of tcp_swift.c. */
static void swift_build(const u32 *m, struct swift_params *p)
{
	*p = (struct swift_params){
		.ai_fx = dcc_fx_from_milli(m[P_AI]),
		.beta_fx = dcc_fx_from_milli(m[P_BETA]),
		.max_mdf_fx = dcc_fx_from_milli(m[P_MAX_MDF]),
		.min_cwnd_fx = dcc_max_u32(dcc_fx_from_milli(m[P_MIN_CWND]), 1),
		.max_cwnd_fx = m[P_MAX_CWND] << DCC_FX_SHIFT,
		.base_target_us = m[P_BASE_TARGET],
		.per_hop_ns = m[P_PER_HOP],
		.fs_range_us = m[P_FS_RANGE],
		.fs_min_cwnd_fx = dcc_max_u32(dcc_fx_from_milli(m[P_FS_MIN]), 1),
		.fs_max_cwnd_fx = m[P_FS_MAX] << DCC_FX_SHIFT,
		.ep_target_us = m[P_EP_TARGET],
		.ep_ewma_keep_fx = dcc_fx_from_milli(m[P_EP_KEEP]),
		.retx_reset = m[P_RETX_RESET],
		.minrtt_win_us = m[P_MINRTT_WIN] * 1000,
		.scale_rtt_us = m[P_SCALE_RTT],
		.target_rel_minrtt = m[P_REL_MINRTT],
	};
	swift_params_derive(p);
}

#define NCONN	2

/*
 * The EWMA rounds down once per sample; the error settles below
 * 1 / (1 - keep) <= 1000 units (keep <= 0.999).
 */
#define EP_SLACK_X8	1024

/*
 * Additive increase is not lost to rounding: over a run of increases the
 * window stays within one fixed-point unit (plus the carry's 2^-16 unit
 * per ACK) of the exact sum of ai * n / cwnd.  Any other change of the
 * window (a cut, a clamp, undo) starts a new run.
 */
struct ai_run {
	u32 seen_fx;		/* window after the last increase tracked */
	u32 acks;
	double owed, got;	/* fixed-point units */
	double slack;		/* the sub-packet steps' integer error */
};

struct conn {
	struct swift_state s;
	struct ai_run fai, eai;
	u32 lo_fx, hi_fx;	/* window envelope over the params lived under */
	bool params_changed;	/* since init */
	u32 max_ep_x8;		/* largest endpoint sample seen, x8 */
	u32 min_ep_x8;		/* smallest */
	u32 max_delay;		/* largest fabric sample seen */
	struct dcc_bd bd;	/* delay noise, as the glue keeps it */
	u32 noise_us;		/* the last ACK's noise width */
};

struct sim {
	struct fz f;
	u32 m[P_NUM];
	struct swift_params p;
	struct dcc_floor floor;
	u32 floor_max;		/* largest sample fed to the floor */
	struct conn c[NCONN];
	u64 now;
	u32 srtt;
	u32 mss;
};

static void ai_restart(struct ai_run *r, u32 cwnd_fx)
{
	r->seen_fx = cwnd_fx;
	r->acks = 0;
	r->owed = 0;
	r->got = 0;
	r->slack = 0;
}

static void ai_track(struct sim *x, struct ai_run *r, u32 old, u32 now_fx,
		     u32 acked)
{
	struct fz *f = &x->f;
	double n = dcc_min_u32(acked, 1U << 16), step;

	if (r->seen_fx != old || now_fx >= x->p.max_cwnd_fx ||
	    old < x->p.min_cwnd_fx) {
		ai_restart(r, now_fx);
		return;
	}
	if (old >= DCC_FX_ONE) {
		step = x->p.ai_fx * n * DCC_FX_ONE / old;
	} else {
		/*
		 * swift_ai(): ai / sqrt(cwnd) per packet, at most one packet.
		 * Its integer inverse root (dcc_fx_inv_sqrt()) is within
		 * 1e-3 of the exact one, and the step is truncated to a unit.
		 */
		step = fmin(x->p.ai_fx * sqrt((double)DCC_FX_ONE / old),
			    DCC_FX_ONE) * n;
		r->slack += step * 1e-3 + n;
	}
	r->owed += step;
	r->got += (double)now_fx - old;
	r->acks++;
	r->seen_fx = now_fx;
	FZ_CHECK(f, r->got > r->owed - 1.0 - r->acks / 65536.0 - r->slack &&
		 r->got < r->owed + 1.0 + r->slack,
		 "additive increase off: grew %.3f units, exact %.3f, over %u ACKs (window %u, ai_fx %u)",
		 r->got, r->owed, r->acks, now_fx, x->p.ai_fx);
}

static void conn_init(struct sim *x, struct conn *c)
{
	u32 init_cwnd = fz_u8(&x->f) & 1 ? 10 : fz_u32_edge(&x->f);

	swift_state_init(&c->s, &x->p, init_cwnd, x->m[P_HOPS], x->now);
	c->lo_fx = x->p.min_cwnd_fx;
	c->hi_fx = x->p.max_cwnd_fx;
	c->params_changed = false;
	c->max_ep_x8 = 0;
	c->min_ep_x8 = DCC_U32_MAX;
	c->max_delay = 0;
	ai_restart(&c->fai, c->s.fcwnd_fx);
	ai_restart(&c->eai, c->s.ecwnd_fx);
	FZ_LOG(&x->f, "init cwnd=%u hops=%u now=%llu fcwnd_fx=%u", init_cwnd,
	       x->m[P_HOPS], (unsigned long long)x->now, c->s.fcwnd_fx);
}

/* What tcp_swift.c's swift_apply() computes, checked. */
static void check_apply(struct sim *x, struct conn *c)
{
	struct fz *f = &x->f;
	const struct swift_state *s = &c->s;
	u32 cwnd_fx = swift_cwnd_fx(s);
	bool paced = cwnd_fx < (SWIFT_MIN_TCP_CWND << DCC_FX_SHIFT);
	u32 gain = paced ? 100 : x->m[P_HEADROOM];
	u32 cwnd = dcc_max_u32(swift_cwnd_pkts(s), SWIFT_MIN_TCP_CWND);
	u32 rtt;
	u64 rate;

	FZ_CHECK(f, cwnd >= SWIFT_MIN_TCP_CWND && cwnd <= 65536, "cwnd %u",
		 cwnd);
	if (!x->srtt)
		return;
	rtt = swift_pacing_rtt_us(s, &x->p, x->srtt);
	FZ_CHECK(f, rtt && rtt <= x->srtt, "pacing rtt %u srtt %u", rtt,
		 x->srtt);
	rate = dcc_rate_from_window(cwnd_fx, x->mss, rtt, gain);
	FZ_CHECK(f, rate >= 1, "rate %llu", (unsigned long long)rate);
}

static void check_conn(struct sim *x, struct conn *c)
{
	struct fz *f = &x->f;
	const struct swift_state *s = &c->s;
	const struct swift_params *p = &x->p;

	FZ_CHECK(f, s->fcwnd_fx >= c->lo_fx && s->fcwnd_fx <= c->hi_fx,
		 "fcwnd_fx %u not in [%u, %u]", s->fcwnd_fx, c->lo_fx,
		 c->hi_fx);
	FZ_CHECK(f, s->ecwnd_fx >= c->lo_fx && s->ecwnd_fx <= c->hi_fx,
		 "ecwnd_fx %u not in [%u, %u]", s->ecwnd_fx, c->lo_fx,
		 c->hi_fx);
	FZ_CHECK(f, s->prior_cwnd_fx >= c->lo_fx &&
		 s->prior_cwnd_fx <= c->hi_fx, "prior_cwnd_fx %u",
		 s->prior_cwnd_fx);
	FZ_CHECK(f, swift_cwnd_fx(s) > 0, "zero window");
	FZ_CHECK(f, swift_cwnd_pkts(s) >= 1, "zero packets");
	if (s->flags & SWIFT_F_EP_VALID)
		FZ_CHECK(f, s->ep_delay_x8 <= c->max_ep_x8 &&
			 (u64)s->ep_delay_x8 + EP_SLACK_X8 >= c->min_ep_x8,
			 "ep EWMA x8 %u outside samples [%u, %u]",
			 s->ep_delay_x8, c->min_ep_x8, c->max_ep_x8);
	if (s->flags & SWIFT_F_MINRTT_VALID) {
		/* Its own samples, or the floor's when it was raised. */
		FZ_CHECK(f, s->min_rtt_us > 0 &&
			 s->min_rtt_us <= dcc_max_u32(c->max_delay,
						      x->floor_max),
			 "min_rtt %u, largest sample %u (floor's %u)",
			 s->min_rtt_us, c->max_delay, x->floor_max);
		/* The base: the minimum lifted by half the noise. */
		FZ_CHECK(f, s->base_rtt_us <= (u64)s->min_rtt_us +
			 c->noise_us / 2,
			 "base_rtt %u > min_rtt %u + noise %u / 2",
			 s->base_rtt_us, s->min_rtt_us, c->noise_us);
	}
	FZ_CHECK(f, swift_target_us(s, p) >= p->base_target_us, "target");
	FZ_CHECK(f, swift_flow_scaling_us(p, s->fcwnd_fx) <= p->fs_range_us,
		 "flow scaling");
	/* The target does not grow with the window (flow scaling). */
	{
		struct swift_state t = *s;
		u32 w2 = fz_u32_edge(f) | 1;

		t.fcwnd_fx = dcc_min_u32(s->fcwnd_fx, w2);
		FZ_CHECK(f, swift_target_us(&t, p) >= swift_target_us(s, p) &&
			 swift_flow_scaling_us(p, t.fcwnd_fx) >=
			 swift_flow_scaling_us(p, s->fcwnd_fx),
			 "target rises with the window: %u at %u, %u at %u",
			 swift_target_us(&t, p), t.fcwnd_fx,
			 swift_target_us(s, p), s->fcwnd_fx);
	}
	check_apply(x, c);
}

static void ev_ack(struct sim *x, struct conn *c)
{
	struct fz *f = &x->f;
	struct swift_ack a = {
		.now_us = x->now,
		.srtt_us = x->srtt,
	};
	u8 sel = fz_u8(f);
	bool stack_delayed = sel & 1, target_near = sel & 2;
	u32 prior_in_flight = sel & 4 ? 1 : fz_u32_edge(f);
	u32 old_f = c->s.fcwnd_fx, old_e = c->s.ecwnd_fx, act;
	bool old_fdec = c->s.flags & SWIFT_F_FDEC_VALID;
	u64 old_t_fdec = c->s.t_fdec_us;
	u32 target, d;
	bool above;

	a.num_acked = sel & 8 ? 1 : fz_u32_edge(f);
	a.timeouts_cleared = fz_u8(f) & 1;
	/* The glue's judgement: TCP's window limits, or the rate sample. */
	a.app_limited = swift_app_limited(&c->s, !(sel & 16), fz_u8(f) & 1);
	a.has_delay = !(sel & 32);
	a.has_ep_delay = sel & 64;
	if (target_near) {
		/* Around the current target, where the decisions flip. */
		target = swift_target_us(&c->s, &x->p);
		a.delay_us = dcc_sat_u32((u64)target + fz_u8(f)) -
			     dcc_min_u32(target, fz_u8(f));
	} else {
		a.delay_us = fz_u32_edge(f);
	}
	if (!a.has_delay)
		a.delay_us = 0;
	if (a.has_ep_delay)
		a.ep_delay_us = sel & 128 ? fz_u16(f) : fz_u32_edge(f);

	/* As swift_cong_control() does. */
	a.ack_delayed = swift_ack_maybe_delayed(stack_delayed, prior_in_flight,
						a.num_acked, a.delay_us,
						x->floor.min_us,
						x->m[P_DELACK_GUARD]);
	a.delack_us = x->m[P_DELACK_GUARD];
	/* The destination's share: none, or any. */
	a.share_fx = sel & 64 ? fz_u32_edge(f) : 0;
	a.share_delay_us = sel & 64 ? fz_u32_edge(f) : 0;
	if (a.has_delay)
		dcc_floor_update(&x->floor, x->p.minrtt_win_us, a.delay_us,
				 a.ack_delayed, a.now_us);
	/* As swift_noise_sample() and dcc_floor_sample(); now and then
	 * any width at all, and the noise's end now and then any width.
	 */
	if (a.has_delay && !a.ack_delayed) {
		u32 end_us, lift;

		dcc_floor_low_fold(&x->floor, a.delay_us, a.now_us);
		dcc_bd_sample(&c->bd, a.delay_us);
		end_us = dcc_bd_end(&c->bd);
		if (fz_u8(f) == 0)
			end_us = fz_u32_edge(f);
		lift = end_us ? swift_floor_end_lift_us(&c->s, &x->p, &x->floor,
							end_us, a.delay_us,
							a.now_us) : 0;
		if (!lift || !dcc_floor_raise(&x->floor, a.delay_us, lift,
					      a.now_us)) {
			struct dcc_floor was = x->floor;
			u32 w = swift_floor_width_us(&c->s, &x->p,
						     dcc_bd_noise_us(&c->bd),
						     end_us, lift);
			u32 still = dcc_bd_still_us(&c->bd);
			bool noisy = fz_u8(f) == 0 ||
				     swift_floor_noisy(&c->s, &x->p,
						       4 * (u32)was.wide_4us,
						       was.raised,
						       was.repaired);
			bool go = fz_u8(f) == 0 ||
				  swift_floor_starved(&c->s, &x->p,
						      was.quiet_us ?
						      dcc_min_u32(was.quiet_us,
								  a.delay_us) :
						      a.delay_us);
			bool rep;

			if (fz_u8(f) == 0)
				w = fz_u32_edge(f);
			if (fz_u8(f) == 0)
				still = fz_u32_edge(f);
			dcc_floor_watch(&x->floor, a.delay_us, w, still, noisy,
					go, a.now_us, &rep);
			/* A repair: to the stretch's lowest sample at most,
			 * at most the widest noise above the floor, never
			 * down.
			 */
			if (rep) {
				u32 lo = was.quiet_us ?
					 dcc_min_u32(was.quiet_us, a.delay_us) :
					 a.delay_us;
				u32 rl = dcc_floor_low(&was, a.now_us);

				FZ_CHECK(f, x->floor.min_us <= lo,
					 "repaired floor %u above the stretch's lowest sample %u",
					 x->floor.min_us, lo);
				FZ_CHECK(f, (u64)x->floor.min_us <=
					 (u64)was.min_us +
					 DCC_FLOOR_WIDE_MUL * 4 * 255,
					 "repaired floor %u more than the widest noise above %u",
					 x->floor.min_us, was.min_us);
				FZ_CHECK(f, x->floor.min_us > was.min_us,
					 "repair lowered the floor %u -> %u",
					 was.min_us, x->floor.min_us);
				FZ_CHECK(f, !rl || x->floor.min_us <= rl,
					 "repaired floor %u above a recent sample %u",
					 x->floor.min_us, rl);
			}
			/* The stretch's lowest sample is a sample's. */
			FZ_CHECK(f, !x->floor.quiet_n || x->floor.quiet_us,
				 "a quiet stretch of %u samples without its lowest",
				 x->floor.quiet_n);
		}
	}
	a.floor_us = x->floor.min_us;
	a.floor_raised = x->floor.raised;
	a.noise_us = fz_u8(f) == 0 ? fz_u32_edge(f) : dcc_bd_noise_us(&c->bd);
	if (a.has_delay && a.delay_us)
		c->noise_us = a.noise_us;

	if (a.has_delay && a.delay_us) {
		c->max_delay = dcc_max_u32(c->max_delay, a.delay_us);
		x->floor_max = dcc_max_u32(x->floor_max, a.delay_us);
	}
	if (a.has_ep_delay) {
		u32 x8 = dcc_min_u32(a.ep_delay_us, DCC_U32_MAX >> 3) << 3;

		c->max_ep_x8 = dcc_max_u32(c->max_ep_x8, x8);
		c->min_ep_x8 = dcc_min_u32(c->min_ep_x8, x8);
	}

	act = swift_on_ack(&c->s, &x->p, &a);
	FZ_LOG(f, "ack now=%llu delay=%u ep=%u/%d n=%u app=%d delayed=%d floor=%u -> act %#x fcwnd %u->%u ecwnd %u->%u target %u",
	       (unsigned long long)a.now_us, a.delay_us, a.ep_delay_us,
	       a.has_ep_delay, a.num_acked, a.app_limited, a.ack_delayed,
	       a.floor_us, act, old_f, c->s.fcwnd_fx, old_e, c->s.ecwnd_fx,
	       c->s.last_target_us);

	if (a.timeouts_cleared)
		FZ_CHECK(f, c->s.retx_cnt == 0, "retx_cnt %u after an ACK",
			 c->s.retx_cnt);
	d = swift_fabric_delay(&a);
	if (act & SWIFT_ACT_FDEC) {
		u32 floor_fx = DCC_FX_ONE - x->p.max_mdf_fx;

		FZ_CHECK(f, a.has_delay && d >= c->s.last_target_us,
			 "cut below the target: %u < %u", d,
			 c->s.last_target_us);
		FZ_CHECK(f, c->s.fcwnd_fx <= dcc_max_u32(old_f,
							 x->p.min_cwnd_fx),
			 "delay cut raised fcwnd %u -> %u", old_f,
			 c->s.fcwnd_fx);
		FZ_CHECK(f, c->s.fcwnd_fx >=
			 dcc_clamp_u32(dcc_fx_mul(old_f, floor_fx),
				       x->p.min_cwnd_fx, x->p.max_cwnd_fx),
			 "cut deeper than max_mdf: %u -> %u", old_f,
			 c->s.fcwnd_fx);
		/* At most one cut per RTT, the sample's whole round trip. */
		FZ_CHECK(f, !old_fdec ||
			 dcc_us_since64(x->now, old_t_fdec) >=
			 (u64)a.delay_us +
			 (a.has_ep_delay ? a.ep_delay_us : 0) ||
			 a.delay_us + (u64)a.ep_delay_us > DCC_U32_MAX,
			 "second cut %llu us after the last, rtt %u + %u",
			 (unsigned long long)(x->now - old_t_fdec),
			 a.delay_us, a.ep_delay_us);
	}
	if (act & SWIFT_ACT_FINC) {
		FZ_CHECK(f, a.num_acked && !a.app_limited && d < c->s.last_target_us,
			 "increase without cause");
		FZ_CHECK(f, c->s.fcwnd_fx >= dcc_min_u32(old_f,
							 x->p.max_cwnd_fx),
			 "increase lowered fcwnd %u -> %u", old_f,
			 c->s.fcwnd_fx);
		ai_track(x, &c->fai, old_f, c->s.fcwnd_fx, a.num_acked);
	}
	if (act & SWIFT_ACT_EDEC)
		FZ_CHECK(f, c->s.ecwnd_fx <= dcc_max_u32(old_e,
							 x->p.min_cwnd_fx),
			 "endpoint cut raised ecwnd %u -> %u", old_e,
			 c->s.ecwnd_fx);
	if (act & SWIFT_ACT_EINC) {
		FZ_CHECK(f, c->s.ecwnd_fx >= dcc_min_u32(old_e,
							 x->p.max_cwnd_fx),
			 "endpoint increase lowered ecwnd %u -> %u", old_e,
			 c->s.ecwnd_fx);
		ai_track(x, &c->eai, old_e, c->s.ecwnd_fx, a.num_acked);
	}
	if (!(act & (SWIFT_ACT_FDEC | SWIFT_ACT_FINC)))
		FZ_CHECK(f, c->s.fcwnd_fx == old_f, "fcwnd changed silently");
	if (!(act & (SWIFT_ACT_EDEC | SWIFT_ACT_EINC)))
		FZ_CHECK(f, c->s.ecwnd_fx == old_e, "ecwnd changed silently");
	if (swift_plb_sample(&c->s, &a, &above))
		FZ_CHECK(f, a.has_delay && a.delay_us, "PLB sample without one");
}

static void params_lived(struct sim *x)
{
	int i;

	for (i = 0; i < NCONN; i++) {
		struct conn *c = &x->c[i];

		c->lo_fx = dcc_min_u32(c->lo_fx, x->p.min_cwnd_fx);
		c->hi_fx = dcc_max_u32(c->hi_fx, x->p.max_cwnd_fx);
		c->params_changed = true;
	}
}

#define TORN(fld, bit)	(t.fld = mask & BIT(bit) ? nw->fld : old->fld)

/*
 * What a reader racing a plain-copy rebuild would see: each field from the
 * old or the new set.  The module publishes its parameters by RCU
 * (include/dcc_param.h), so no reader sees such a mix any more; the event
 * stays as a robustness check of the core.  Cross-field rules may not hold (min_cwnd above max_cwnd, flow-scaling
 * terms of two sets): the core must stay safe and keep the window in the
 * envelope and non-zero.
 */
static void ev_torn(struct sim *x, const struct swift_params *old,
		    const struct swift_params *nw)
{
	struct swift_params t;
	u32 mask = fz_u32(&x->f);

	TORN(ai_fx, 0); TORN(beta_fx, 1); TORN(max_mdf_fx, 2);
	TORN(min_cwnd_fx, 3); TORN(max_cwnd_fx, 4); TORN(base_target_us, 5);
	TORN(per_hop_ns, 6); TORN(fs_range_us, 7); TORN(fs_min_cwnd_fx, 8);
	TORN(fs_max_cwnd_fx, 9); TORN(ep_target_us, 10);
	TORN(ep_ewma_keep_fx, 11); TORN(retx_reset, 12);
	TORN(minrtt_win_us, 13); TORN(target_rel_minrtt, 14);
	TORN(fs_isq_max_fx, 15); TORN(fs_isq_span_fx, 16);
	TORN(scale_rtt_us, 17);
	x->p = t;
	params_lived(x);
	FZ_LOG(&x->f, "torn params, mask %#x", mask);
	ev_ack(x, &x->c[mask >> 31]);
	check_conn(x, &x->c[0]);
	check_conn(x, &x->c[1]);
	x->f.ev++;
}

static void ev_params(struct sim *x)
{
	struct swift_params old = x->p;
	u8 torn = fz_u8(&x->f) & 1;

	if (!fz_params_poke(&x->f, swift_tab, P_NUM, x->m, swift_check))
		return;
	swift_build(x->m, &x->p);
	if (torn) {
		struct swift_params nw = x->p;

		ev_torn(x, &old, &nw);
		x->p = nw;
	}
	params_lived(x);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sim x;
	struct fz *f = &x.f;
	int i;

	memset(&x, 0, sizeof(x));
	fz_init(f, data, size);
	fz_params_init(f, swift_tab, P_NUM, x.m, swift_check);
	swift_build(x.m, &x.p);
	x.now = fz_u64_edge(f);
	x.srtt = fz_u32_edge(f);
	x.mss = fz_range(f, 1, 65535);
	for (i = 0; i < NCONN; i++) {
		conn_init(&x, &x.c[i]);
		check_conn(&x, &x.c[i]);
	}

	while (fz_more(f) && f->ev < 4096) {
		u8 op = fz_u8(f);
		struct conn *c = &x.c[(op >> 7) & 1];
		bool r;

		f->ev++;
		switch (op & 15) {
		case 0: case 1: case 2: case 3: case 4: case 5:
			ev_ack(&x, c);
			break;
		case 6:
			x.now += (u64)fz_clock_step(f);
			FZ_LOG(f, "clock now=%llu", (unsigned long long)x.now);
			break;
		case 7:
			x.srtt = fz_u8(f) & 1 ? fz_u16(f) : fz_u32_edge(f);
			FZ_LOG(f, "srtt=%u", x.srtt);
			break;
		case 8:
			r = swift_on_fast_recovery(&c->s, &x.p, x.now, x.srtt,
						   x.m[P_DELACK_GUARD]);
			FZ_LOG(f, "recovery -> %d fcwnd %u", r, c->s.fcwnd_fx);
			break;
		case 9:
		case 10: {
			u32 old = c->s.fcwnd_fx;
			u32 mc = dcc_min_u32(x.p.min_cwnd_fx, x.p.max_cwnd_fx);
			/* The reset's floor, worked out on the state before. */
			u32 lo = mc >= SWIFT_MIN_TCP_CWND << DCC_FX_SHIFT ?
				 swift_min_fcwnd_fx(&c->s, &x.p) :
				 swift_delay_floor_fx(&c->s, &x.p,
						      x.m[P_DELACK_GUARD]);

			r = swift_on_rto(&c->s, &x.p, x.now, x.srtt,
					 op == 9, x.m[P_DELACK_GUARD]);
			FZ_LOG(f, "rto retx=%u -> %d fcwnd %u", c->s.retx_cnt,
			       r, c->s.fcwnd_fx);
			FZ_CHECK(f, c->s.retx_cnt >= 1, "retx_cnt 0 after RTO");
			if (c->s.retx_cnt >= x.p.retx_reset)
				FZ_CHECK(f, c->s.fcwnd_fx ==
					 dcc_max_u32(mc, dcc_min_u32(old, lo)),
					 "RTO reset to %u (old %u floor %u)",
					 c->s.fcwnd_fx, old, lo);
			else if (r)
				FZ_CHECK(f, c->s.fcwnd_fx <=
					 dcc_max_u32(old, x.p.min_cwnd_fx),
					 "RTO raised the window");
			break;
		}
		case 11: {
			u32 of = c->s.fcwnd_fx, oe = c->s.ecwnd_fx;

			swift_undo(&c->s, &x.p);
			FZ_CHECK(f, c->s.fcwnd_fx >= of && c->s.ecwnd_fx >= oe,
				 "undo lowered a window");
			FZ_LOG(f, "undo fcwnd %u ecwnd %u", c->s.fcwnd_fx,
			       c->s.ecwnd_fx);
			break;
		}
		case 12:
			ev_params(&x);
			break;
		case 13:
			conn_init(&x, c);
			break;
		case 14:
			x.mss = fz_range(f, 1, 65535);
			break;
		default:
			/* An idle period: long enough to expire min RTTs. */
			x.now += (u64)fz_range(f, 1, 3600) * 1000000;
			FZ_LOG(f, "idle now=%llu", (unsigned long long)x.now);
			break;
		}
		for (i = 0; i < NCONN; i++)
			check_conn(&x, &x.c[i]);
	}
	return 0;
}
