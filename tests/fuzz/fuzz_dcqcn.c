// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness of the DCQCN core (include/dcc_dcqcn.h): the reaction
 * point's rate machine with its lazy timers, and the notification point's
 * ECE edge coding with the sender's decoding of it.
 *
 * Half the inputs take their parameters as tcp_dcqcn.c builds them from
 * values inside its ranges (run-time writes in and out of range too), a
 * quarter any set dcqcn_params_valid() accepts (edges often), a quarter
 * any value in every field, where the header promises only safety.  The clock
 * (u64 us) starts anywhere, steps by ACK spacings, idles for up to hours,
 * jumps backwards and far ahead (where the lazy timers owe up to 2^64
 * periods).  Events: acked bytes (any count), notifications, losses,
 * plain timer catch-up, parameter changes, restarts; and at the receiver,
 * data packets (CE or not, a delayed ACK owed or not, SACK or not) whose
 * ACKs (with the separator ACK the glue sends when told to) feed the
 * sender's echo decoder.
 *
 * Invariants after every event:
 *  - alpha <= 1; R_C and R_T in [1, 2^40] and inside [min_rate, max_rate]
 *    once the machine clamped them under the current parameters; with
 *    valid parameters that never changed, R_C <= R_T;
 *  - the timers: alpha decays by (1 - g)^n over n whole periods (never
 *    more, and less only by rounding), never rises without a notification, the periods
 *    left over are shorter than one period; without a cut R_C does not
 *    fall; one call plays at most DCQCN_MAX_EVENTS events per source;
 *  - the byte counter keeps every byte: leftover < byte_counter_bytes and
 *    one event per byte_counter_bytes;
 *  - a delivery-rate sample is its bytes (at most 2^43) over the larger
 *    of its interval and the RTT, 0 without bytes or interval;
 *  - a notification cuts R_C by at most half (alpha / 2), sets R_T to the
 *    old R_C, raises alpha and restarts T, BC and the byte count; a loss
 *    halves R_C and leaves alpha alone;
 *  - receiver: a notification only when due (first, or cnp_interval after
 *    the last), a mark inside the interval is coalesced; with a clock that
 *    does not go backwards and a fixed interval, the sender sees exactly
 *    one rising ECE edge per notification.
 */
#include <math.h>

#include "fuzz.h"

#include "dcc_dcqcn.h"
#include "dcc_pacing.h"

/* Module parameters of tcp_dcqcn.c (name, range, default). */
enum {
	P_G, P_ALPHA_PERIOD, P_TIMER, P_BYTE_COUNTER, P_FR, P_AI, P_HAI,
	P_AI_PPM, P_HAI_PPM, P_CNP_INTERVAL, P_MIN_RATE, P_LINE, P_CWND_GAIN,
	P_LOSS_SHARE,
	P_NUM
};

static const struct fz_param dcqcn_tab[P_NUM] = {
	[P_G]		= { "g_q16", 1, 65536, 4096 },
	[P_ALPHA_PERIOD] = { "alpha_period_us", 1, 10000000, 55 },
	[P_TIMER]	= { "timer_us", 1, 10000000, 55 },
	[P_BYTE_COUNTER] = { "byte_counter_kb", 0, 4194303, 0 },
	[P_FR]		= { "fr_events", 1, 1000, 5 },
	[P_AI]		= { "ai_rate_kbps", 0, 1000000000, 0 },
	[P_HAI]		= { "hai_rate_kbps", 0, 1000000000, 0 },
	[P_AI_PPM]	= { "ai_rate_ppm", 1, 1000000, 1000 },
	[P_HAI_PPM]	= { "hai_rate_ppm", 1, 1000000, 10000 },
	[P_CNP_INTERVAL] = { "cnp_interval_us", 1, 10000000, 50 },
	[P_MIN_RATE]	= { "min_rate_kbps", 1, 1000000000, 1000 },
	[P_LINE]	= { "line_rate_mbps", 0, 1000000, 0 },
	[P_CWND_GAIN]	= { "cwnd_gain_pct", 100, 1000, 200 },
	[P_LOSS_SHARE]	= { "loss_share", 0, 1, 1 },
};

/* The cross-parameter check of dcqcn_params_build() in tcp_dcqcn.c. */
static int dcqcn_check(const u32 *v, unsigned int idx, u32 val)
{
	u64 min = idx == P_MIN_RATE ? val : v[P_MIN_RATE];
	u64 line = idx == P_LINE ? val : v[P_LINE];

	if (idx != P_MIN_RATE && idx != P_LINE)
		return 0;
	return line && min > line * 1000;
}

/*
 * dcqcn_params_build() of tcp_dcqcn.c (the template), then
 * dcqcn_params_now(): the parameters of one connection with a learnt line
 * rate (at most line_rate_mbps when set, as dcc_linerate caps it), its
 * srtt and mss.
 */
static void dcqcn_build(const u32 *m, struct dcqcn_params *p, u64 learnt,
			u32 srtt_us, u32 mss)
{
	struct dcqcn_params t;
	u64 cap = dcc_mbps_to_bytes_ps(m[P_LINE]);

	dcqcn_params_default(&t, dcc_mbps_to_bytes_ps(m[P_LINE] ? m[P_LINE] :
						      10000));
	t.g_fx = m[P_G];
	t.alpha_period_us = m[P_ALPHA_PERIOD];
	t.timer_us = m[P_TIMER];
	t.byte_counter_bytes = m[P_BYTE_COUNTER] * 1024;
	t.fr_events = m[P_FR];
	t.cnp_interval_us = m[P_CNP_INTERVAL];
	t.ai_bytes_ps = (u64)m[P_AI] * 1000 / 8;
	t.hai_bytes_ps = (u64)m[P_HAI] * 1000 / 8;
	t.min_rate_bytes_ps = (u64)m[P_MIN_RATE] * 1000 / 8;
	t.ai_ppm = m[P_AI_PPM];
	t.hai_ppm = m[P_HAI_PPM];
	learnt = learnt ? dcc_min_u64(learnt, DCQCN_RATE_LIMIT) : 1;
	if (cap && learnt > cap)
		learnt = cap;
	dcqcn_params_for(p, &t, learnt, srtt_us, mss);
}

/* Any parameters inside the machine's documented ranges. */
static void params_valid(struct fz *f, struct dcqcn_params *p)
{
	u64 a = fz_range(f, 1, 1 << 30), b = fz_range(f, 1, 1 << 30);

	dcqcn_params_default(p, fz_u8(f) & 1 ? 1250000000ULL :
			     (u64)fz_u32_edge(f) << (fz_u8(f) % 9));
	if (fz_u8(f) & 1)
		return;
	p->g_fx = fz_in(f, 1, DCC_FX_ONE, DCC_FX_ONE / 16);
	p->alpha_period_us = fz_in(f, 1, 1000000, 55);
	p->timer_us = fz_in(f, 1, 1000000, 55);
	p->byte_counter_bytes = fz_in(f, 1, 1 << 30, 150 * 1024);
	p->fr_events = fz_in(f, 1, 1000, 5);
	p->cnp_interval_us = fz_in(f, 0, 1000000, 50);
	p->ai_bytes_ps = fz_in(f, 0, 1 << 30, 625000) * (u64)(fz_u8(f) % 4 + 1);
	p->hai_bytes_ps = fz_in(f, 0, 1 << 30, 6250000) << (fz_u8(f) % 11);
	a <<= fz_u8(f) % 11;
	b <<= fz_u8(f) % 11;
	p->min_rate_bytes_ps = dcc_min_u64(a, b);
	p->max_rate_bytes_ps = a > b ? a : b;
}

static void params_wild(struct fz *f, struct dcqcn_params *p)
{
	p->g_fx = fz_u32_edge(f);
	p->alpha_period_us = fz_u32_edge(f);
	p->timer_us = fz_u32_edge(f);
	p->byte_counter_bytes = fz_u32_edge(f);
	p->fr_events = fz_u32_edge(f);
	p->cnp_interval_us = fz_u32_edge(f);
	p->ai_bytes_ps = fz_u64_edge(f);
	p->hai_bytes_ps = fz_u64_edge(f);
	p->min_rate_bytes_ps = fz_u64_edge(f);
	p->max_rate_bytes_ps = fz_u64_edge(f);
}

struct sim {
	struct fz f;
	bool wild;
	bool module;		/* parameters as tcp_dcqcn.c builds them */
	u32 m[P_NUM];
	bool changed;		/* parameters changed since init */
	bool bc, bt;		/* R_C, R_T clamped under the current params */
	bool bcount;		/* byte count taken under the current params */
	struct dcqcn_params p;
	struct dcqcn_state s;
	u64 now;
	/* receiver */
	struct dcqcn_np np;
	struct dcqcn_rp_echo rp;
	u64 rnow;
	u64 last_notify;
	bool notified;
	bool np_strict;		/* clock monotonic, interval fixed */
	u64 notifies, edges;
	u64 ep;			/* a destination's loss episode */
	u32 ep_win;
};

/* The module's parameters: drawn in range, or one run-time write. */
static void module_params(struct sim *x, bool poke)
{
	if (poke)
		fz_params_poke(&x->f, dcqcn_tab, P_NUM, x->m, dcqcn_check);
	else
		fz_params_init(&x->f, dcqcn_tab, P_NUM, x->m, dcqcn_check);
	dcqcn_build(x->m, &x->p, fz_u64_edge(&x->f) >> (fz_u8(&x->f) % 24),
		    fz_u8(&x->f) & 1 ? fz_u32_edge(&x->f) :
				       fz_range(&x->f, 0, 100000),
		    fz_range(&x->f, 0, 65535));
	FZ_CHECK(&x->f, dcqcn_params_valid(&x->p),
		 "module parameters give invalid machine params");
}

static u64 lo_rate(const struct dcqcn_params *p)
{
	return dcqcn_clamp_rate(p, 0);
}

static u64 hi_rate(const struct dcqcn_params *p)
{
	return dcqcn_clamp_rate(p, ~0ULL);
}

static void check_state(struct sim *x)
{
	struct fz *f = &x->f;
	const struct dcqcn_state *s = &x->s;

	FZ_CHECK(f, s->alpha_fx <= DCC_FX_ONE, "alpha %u", s->alpha_fx);
	FZ_CHECK(f, s->rate_c_bytes_ps >= 1 &&
		 s->rate_c_bytes_ps <= DCQCN_RATE_LIMIT, "R_C %llu",
		 (unsigned long long)s->rate_c_bytes_ps);
	FZ_CHECK(f, s->rate_t_bytes_ps >= 1 &&
		 s->rate_t_bytes_ps <= DCQCN_RATE_LIMIT, "R_T %llu",
		 (unsigned long long)s->rate_t_bytes_ps);
	if (x->bc)
		FZ_CHECK(f, s->rate_c_bytes_ps ==
			 dcqcn_clamp_rate(&x->p, s->rate_c_bytes_ps),
			 "R_C %llu outside [%llu, %llu]",
			 (unsigned long long)s->rate_c_bytes_ps,
			 (unsigned long long)lo_rate(&x->p),
			 (unsigned long long)hi_rate(&x->p));
	if (x->bt)
		FZ_CHECK(f, s->rate_t_bytes_ps ==
			 dcqcn_clamp_rate(&x->p, s->rate_t_bytes_ps),
			 "R_T %llu outside [%llu, %llu]",
			 (unsigned long long)s->rate_t_bytes_ps,
			 (unsigned long long)lo_rate(&x->p),
			 (unsigned long long)hi_rate(&x->p));
	if (!x->wild && !x->changed)
		FZ_CHECK(f, s->rate_c_bytes_ps <= s->rate_t_bytes_ps,
			 "R_C %llu above R_T %llu",
			 (unsigned long long)s->rate_c_bytes_ps,
			 (unsigned long long)s->rate_t_bytes_ps);
	if (x->p.byte_counter_bytes && x->bcount)
		FZ_CHECK(f, s->bc_bytes < x->p.byte_counter_bytes,
			 "byte count %u, counter %u", s->bc_bytes,
			 x->p.byte_counter_bytes);
}

static u32 events_played(const struct dcqcn_events *e)
{
	return e->fr + e->ai + e->hai;
}

/* The lazy timers brought up to now, checked. */
static void advance(struct sim *x)
{
	struct fz *f = &x->f;
	struct dcqcn_state *s = &x->s;
	struct dcqcn_events ev = { 0 };
	u32 a0 = s->alpha_fx, per = x->p.alpha_period_us ? : 1;
	u32 tper = x->p.timer_us ? : 1;
	u64 rc0 = s->rate_c_bytes_ps, st0 = s->alpha_stamp_us, n = 0, nt = 0;
	u32 t0 = s->timer_cnt;
	long double exact;

	if (x->now >= st0)
		n = (x->now - st0) / per;
	if (x->now >= s->timer_stamp_us) {
		u64 since = x->now - s->timer_stamp_us;

		/* After a cut the first period lasts cut_hold_us. */
		if (s->stage == DCQCN_STAGE_CUT &&
		    x->p.cut_hold_us > x->p.timer_us)
			nt = since < x->p.cut_hold_us ? 0 :
			     1 + (since - x->p.cut_hold_us) / tper;
		else
			nt = since / tper;
	}
	dcqcn_advance(s, &x->p, x->now, &ev);
	FZ_LOG(f, "advance now=%llu n=%llu alpha %u -> %u R_C %llu -> %llu (%u events)",
	       (unsigned long long)x->now, (unsigned long long)n, a0,
	       s->alpha_fx, (unsigned long long)rc0,
	       (unsigned long long)s->rate_c_bytes_ps, events_played(&ev));
	FZ_CHECK(f, s->alpha_fx <= dcc_min_u32(a0, DCC_FX_ONE),
		 "alpha rose %u -> %u", a0, s->alpha_fx);
	exact = (long double)dcc_min_u32(a0, DCC_FX_ONE) *
		powl(1.0L - (long double)dcqcn_fx1(x->p.g_fx) / DCC_FX_ONE,
		     (long double)n);
	/*
	 * Never above the exact decay; below it by the final rounding and
	 * the squarings' truncations, which double with every squaring
	 * (relative error below (n + 64) 2^-29 at 31 fractional bits).
	 */
	FZ_CHECK(f, s->alpha_fx <= exact + 1e-6L &&
		 s->alpha_fx + 1.01L + exact * (n + 64.0L) / BIT_ULL(29) >=
		 exact,
		 "alpha %u after %llu periods, exact %.3Lf", s->alpha_fx,
		 (unsigned long long)n, exact);
	FZ_CHECK(f, s->alpha_stamp_us <= x->now &&
		 x->now - s->alpha_stamp_us < per, "alpha stamp %llu at %llu",
		 (unsigned long long)s->alpha_stamp_us,
		 (unsigned long long)x->now);
	/* A held cut's first period lasts cut_hold_us. */
	FZ_CHECK(f, s->timer_stamp_us <= x->now &&
		 x->now - s->timer_stamp_us <
		 (dcqcn_held(s, &x->p, x->now) ? x->p.cut_hold_us : tper),
		 "timer stamp %llu at %llu",
		 (unsigned long long)s->timer_stamp_us,
		 (unsigned long long)x->now);
	FZ_CHECK(f, events_played(&ev) <= DCQCN_MAX_EVENTS, "%u events",
		 events_played(&ev));
	/* Every timer period counts, played or not (the stage needs T). */
	FZ_CHECK(f, s->timer_cnt == (nt >= DCQCN_COUNT_MAX - t0 ?
				     DCQCN_COUNT_MAX : t0 + nt),
		 "T %u after %llu periods from %u", s->timer_cnt,
		 (unsigned long long)nt, t0);
	if (events_played(&ev))
		x->bc = x->bt = true;
	if (!x->wild && !x->changed)
		FZ_CHECK(f, s->rate_c_bytes_ps >= rc0, "R_C fell %llu -> %llu",
			 (unsigned long long)rc0,
			 (unsigned long long)s->rate_c_bytes_ps);
}

/* Loss recovery: alpha decays, the rates hold, the counters restart. */
static void ev_hold(struct sim *x)
{
	struct fz *f = &x->f;
	struct dcqcn_state *s = &x->s;
	u64 rc0 = s->rate_c_bytes_ps, rt0 = s->rate_t_bytes_ps;
	u32 a0 = s->alpha_fx, t0 = s->timer_cnt, b0 = s->byte_cnt;

	dcqcn_hold(s, &x->p, x->now, NULL);
	FZ_LOG(f, "hold now=%llu alpha %u -> %u", (unsigned long long)x->now,
	       a0, s->alpha_fx);
	FZ_CHECK(f, s->rate_c_bytes_ps == rc0 && s->rate_t_bytes_ps == rt0,
		 "hold moved a rate");
	FZ_CHECK(f, s->alpha_fx <= dcc_min_u32(a0, DCC_FX_ONE),
		 "alpha rose %u -> %u", a0, s->alpha_fx);
	FZ_CHECK(f, s->timer_cnt == t0 && s->byte_cnt == b0 &&
		 !s->bc_bytes && s->timer_stamp_us == x->now,
		 "hold counted events");
}

static void ev_bytes(struct sim *x)
{
	struct fz *f = &x->f;
	struct dcqcn_state *s = &x->s;
	struct dcqcn_events ev = { 0 };
	u32 bytes = fz_u8(f) & 1 ? fz_range(f, 1, 65536) : fz_u32_edge(f);
	u32 b = x->p.byte_counter_bytes ? : 1;
	u64 total, n, want;
	u64 rc0;
	u32 cnt0;

	if (fz_u8(f) & 1)
		advance(x);
	rc0 = s->rate_c_bytes_ps;
	cnt0 = s->byte_cnt;
	total = (u64)s->bc_bytes + bytes;
	/* The timers run first inside; with them due, only bounds hold. */
	dcqcn_on_bytes(s, &x->p, bytes, x->now, &ev);
	/* Bytes acked while a notification's cut is held count nothing. */
	if (dcqcn_held(s, &x->p, x->now)) {
		FZ_CHECK(f, s->bc_bytes == total - bytes && s->byte_cnt == cnt0,
			 "held: byte count %u, BC %u -> %u", s->bc_bytes, cnt0,
			 s->byte_cnt);
		return;
	}
	n = total / b;
	FZ_LOG(f, "bytes %u -> %llu events, BC %u -> %u", bytes,
	       (unsigned long long)n, cnt0, s->byte_cnt);
	FZ_CHECK(f, s->bc_bytes == total - n * b, "byte count %u, want %llu",
		 s->bc_bytes, (unsigned long long)(total - n * b));
	want = dcc_min_u64((u64)cnt0 + n, DCQCN_COUNT_MAX);
	FZ_CHECK(f, s->byte_cnt == want, "BC %u, want %llu", s->byte_cnt,
		 (unsigned long long)want);
	FZ_CHECK(f, events_played(&ev) <= 2 * DCQCN_MAX_EVENTS, "%u events",
		 events_played(&ev));
	if (events_played(&ev))
		x->bc = x->bt = true;
	x->bcount = true;
	if (!x->wild && !x->changed)
		FZ_CHECK(f, s->rate_c_bytes_ps >= rc0, "R_C fell %llu -> %llu",
			 (unsigned long long)rc0,
			 (unsigned long long)s->rate_c_bytes_ps);
}

/*
 * Fast recovery's window (Linux's PRR with its slow-start reduction
 * bound): under the bound, never below the flight nor above the bound,
 * and at most the flight plus the larger of this ACK's and the unsent
 * deliveries, plus one only for an ACK that advanced snd_una without a
 * new loss (one at least before the first retransmission); at or above
 * it, the flight (plus that first retransmission).
 */
static void fz_recovery_cwnd(struct fz *f, u32 acked, u32 bound)
{
	u32 in = fz_u32_edge(f), del = fz_u32_edge(f), out = fz_u32_edge(f);
	bool adv = fz_bool(f), lost = fz_bool(f);
	u32 w = dcqcn_recovery_cwnd(in, acked, del, out, adv, lost, bound);
	u32 b = dcc_max_u32(bound, 1);
	u64 credit = (u64)dcc_max_u32(acked, del > out ? del - out : 0) +
		     (adv && !lost);

	if (!out && !credit)
		credit = 1;
	FZ_CHECK(f, in < b ? w >= in && w <= b && (u64)w <= (u64)in + credit :
		 (u64)w == dcc_min_u64((u64)in + !out, DCC_U32_MAX),
		 "recovery window %u: flight %u acked %u prr %u/%u adv %d lost %d bound %u",
		 w, in, acked, del, out, adv, lost, bound);
}

/*
 * A loss that set bound w, into the destination's episode (and a
 * sibling's loss, sometimes): the count and the sum move together or not
 * at all, a stale episode restarts, the mean is the sum over the count
 * for two losses or more; a bound held to it is lowered to the mean
 * (>= 2), or raised towards it, for a loser only, to at most twice
 * itself (the rates, checked by check_state(), stay in bounds).
 */
static void fz_episode(struct sim *x, u32 w)
{
	struct fz *f = &x->f;
	u64 ep0 = x->ep;
	u32 n0 = dcqcn_ep_count(ep0), sum0 = dcqcn_ep_sum(ep0), m, b, old, nw;
	bool cur, lost;

	if (fz_u8(f) & 1)
		x->ep_win = fz_u8(f) & 1 ? fz_u32_edge(f) : fz_range(f, 0, 400000);
	if (fz_u8(f) & 1)	/* a sibling's bound */
		w = fz_u32_edge(f);
	cur = dcqcn_ep_current(ep0, x->now, x->ep_win);
	x->ep = dcqcn_ep_loss(ep0, x->now, x->ep_win, w);
	b = dcc_min_u32(w, DCQCN_EP_SUM_MAX);
	if (!cur)
		FZ_CHECK(f, dcqcn_ep_count(x->ep) == 1 &&
			 dcqcn_ep_sum(x->ep) == b &&
			 dcqcn_ep_start(x->ep) == (u32)x->now,
			 "new episode %llx from %u at %llu",
			 (unsigned long long)x->ep, w,
			 (unsigned long long)x->now);
	else
		FZ_CHECK(f, x->ep == ep0 ||
			 (dcqcn_ep_count(x->ep) == n0 + 1 &&
			  dcqcn_ep_sum(x->ep) == sum0 + b &&
			  dcqcn_ep_start(x->ep) == dcqcn_ep_start(ep0)),
			 "episode %llx + %u -> %llx", (unsigned long long)ep0,
			 w, (unsigned long long)x->ep);
	m = dcqcn_ep_mean(x->ep, x->now, x->ep_win);
	FZ_CHECK(f, !m || (dcqcn_ep_count(x->ep) >= 2 &&
			   m == dcqcn_ep_sum(x->ep) / dcqcn_ep_count(x->ep)),
		 "episode mean %u of %llx", m, (unsigned long long)x->ep);
	old = x->s.loss_cwnd_fx;
	lost = fz_bool(f);
	dcqcn_share(&x->s, &x->p, m, lost);
	nw = x->s.loss_cwnd_fx;
	FZ_CHECK(f, nw == old ||
		 (m && old &&
		  (nw < old ? nw == (u32)dcc_max_u32(m, 2) << DCQCN_LW_SHIFT :
		   lost && nw <= (u64)old * 2 &&
		   nw <= (u64)dcc_max_u32(m, 2) << DCQCN_LW_SHIFT)),
		 "bound %u held to mean %u (lost %d): %u", old, m, lost, nw);
}

static void ev_cut(struct sim *x, bool loss)
{
	struct fz *f = &x->f;
	struct dcqcn_state *s = &x->s;
	u64 rc, lo, hi, floor_rc;
	u32 a0;
	bool bc0;

	advance(x);	/* then the cut's own catch-up is empty */
	if (fz_u8(f) & 1) {
		u64 r0 = s->rate_c_bytes_ps, ach = fz_u64_edge(f);

		if (fz_bool(f)) {
			/* The glue's achieved rate from a delivery sample. */
			u32 iv = fz_u32_edge(f), rtt = fz_u32_edge(f);
			u32 t = dcc_max_u32(iv, rtt);
			u64 del = ach;

			ach = dcqcn_delivery_rate(del, iv, rtt);
			FZ_CHECK(f, ach == (!iv || !del ? 0 :
				 dcc_min_u64(del, 1ULL << 43) * 1000000ULL / t),
				 "delivery rate %llu: %llu bytes over %u / %u us",
				 (unsigned long long)ach,
				 (unsigned long long)del, iv, rtt);
		}
		dcqcn_settle(s, &x->p, ach);
		FZ_CHECK(f, s->rate_c_bytes_ps ==
			 (ach ? dcc_min_u64(r0, dcqcn_clamp_rate(&x->p,
					dcqcn_lead_cap(&x->p, ach))) :
			  r0),
			 "settle %llu at %llu -> %llu", (unsigned long long)r0,
			 (unsigned long long)ach,
			 (unsigned long long)s->rate_c_bytes_ps);
	}
	if (loss) {
		u32 fl = fz_u32_edge(f), acked = fz_u32_edge(f), w;

		dcqcn_lw_cut(s, fl);
		w = dcqcn_lw_pkts(s);
		FZ_CHECK(f, w >= 2 && w <= dcc_max_u32(fl / 2, 2),
			 "loss window %u from flight %u", w, fl);
		dcqcn_lw_ack(s, acked);
		FZ_CHECK(f, dcqcn_lw_pkts(s) >= w &&
			 s->loss_cwnd_fx <= DCQCN_LW_MAX,
			 "loss window %u -> %u", w, dcqcn_lw_pkts(s));
		fz_recovery_cwnd(f, acked, w);
		fz_episode(x, w);
		/* The flight a loss starts from: never above it, >= 1. */
		w = dcqcn_loss_flight(fl, (u64)acked << 9, acked, w);
		FZ_CHECK(f, w <= fl && (w >= 1 || !fl) &&
			 (acked || w == fl),
			 "loss flight %u from flight %u", w, fl);
	} else {
		u32 fl = fz_u32_edge(f), old = s->loss_cwnd_fx;

		/* A notification's window: the flight, cut by alpha / 2 at most. */
		dcqcn_lw_notify(s, fl, s->alpha_fx);
		FZ_CHECK(f, dcqcn_lw_pkts(s) >= 2 &&
			 s->loss_cwnd_fx <= DCQCN_LW_MAX &&
			 (!old || (s->loss_cwnd_fx <= old &&
				   s->loss_cwnd_fx >= old / 2)),
			 "notification window %u -> %u from flight %u", old,
			 s->loss_cwnd_fx, fl);
	}
	rc = s->rate_c_bytes_ps;
	a0 = s->alpha_fx;
	bc0 = x->bc;
	if (loss)
		dcqcn_loss_cut(s, &x->p, x->now, NULL);
	else
		dcqcn_on_cnp(s, &x->p, x->now, NULL);
	lo = lo_rate(&x->p);
	hi = hi_rate(&x->p);
	FZ_LOG(f, "%s R_C %llu -> %llu alpha %u -> %u", loss ? "loss" : "cnp",
	       (unsigned long long)rc, (unsigned long long)s->rate_c_bytes_ps,
	       a0, s->alpha_fx);
	x->bt = bc0;
	x->bc = true;
	x->bcount = true;
	FZ_CHECK(f, s->rate_t_bytes_ps == rc, "R_T %llu, old R_C %llu",
		 (unsigned long long)s->rate_t_bytes_ps,
		 (unsigned long long)rc);
	floor_rc = dcc_min_u64(hi, fz_max_u64(lo, rc - rc / 2));
	FZ_CHECK(f, s->rate_c_bytes_ps >= floor_rc &&
		 s->rate_c_bytes_ps <= fz_max_u64(rc, lo),
		 "cut %llu -> %llu", (unsigned long long)rc,
		 (unsigned long long)s->rate_c_bytes_ps);
	if (loss) {
		FZ_CHECK(f, s->alpha_fx == a0, "loss moved alpha");
		FZ_CHECK(f, s->stage == DCQCN_STAGE_LOSS, "stage %u", s->stage);
	} else {
		FZ_CHECK(f, s->alpha_fx >= a0 &&
			 (a0 < DCC_FX_ONE || s->alpha_fx == DCC_FX_ONE),
			 "alpha %u -> %u on a notification", a0, s->alpha_fx);
		FZ_CHECK(f, s->alpha_stamp_us == x->now, "alpha period kept");
		FZ_CHECK(f, s->stage == DCQCN_STAGE_CUT, "stage %u", s->stage);
	}
	FZ_CHECK(f, !s->timer_cnt && !s->byte_cnt && !s->bc_bytes &&
		 s->timer_stamp_us == x->now, "increase not restarted");
}

/* Receiver: one data packet, its ACK(s) to the sender's decoder. */
static void ev_packet(struct sim *x)
{
	struct fz *f = &x->f;
	u8 sel = fz_u8(f);
	bool ce = sel & 1, pending = sel & 2, sack = sel & 4;
	u32 ival = x->p.cnp_interval_us;
	u8 ece0 = x->np.ece;
	u64 r0 = x->rnow;
	bool due;
	u32 r;

	if (sel & 8)
		x->rnow += fz_range(f, 0, 2 * ival + 1);
	if (x->rnow < r0)
		x->np_strict = false;	/* wrapped past 2^64 */
	due = !x->notified || x->rnow - x->last_notify >= ival;
	r = dcqcn_np_packet(&x->np, ival, ce, x->rnow, pending, sack);
	FZ_LOG(f, "packet ce=%d pending=%d sack=%d now=%llu -> %#x ece %u",
	       ce, pending, sack, (unsigned long long)x->rnow, r, x->np.ece);
	if (!ce) {
		FZ_CHECK(f, !r, "result %#x for an unmarked packet", r);
	} else {
		FZ_CHECK(f, x->np.ece == 1, "ECE down after a mark");
		if (x->np_strict) {
			FZ_CHECK(f, !!(r & DCQCN_NP_NOTIFY) ==
				 (due && (pending || !ece0 || sack)),
				 "result %#x, due %d", r, due);
			FZ_CHECK(f, !!(r & DCQCN_NP_COALESCED) == !due,
				 "result %#x, due %d", r, due);
		}
	}
	if (r & DCQCN_NP_NOTIFY) {
		x->notifies++;
		x->notified = true;
		x->last_notify = x->rnow;
	}
	/* The ACKs: a separator with ECE down first if asked. */
	if (r & DCQCN_NP_SEPARATE)
		x->edges += dcqcn_rp_echo(&x->rp, false);
	x->edges += dcqcn_rp_echo(&x->rp, x->np.ece);
	if (x->np_strict)
		FZ_CHECK(f, x->edges == x->notifies,
			 "%llu ECE edges for %llu notifications",
			 (unsigned long long)x->edges,
			 (unsigned long long)x->notifies);
}

static void conn_init(struct sim *x)
{
	u64 start = fz_u8(&x->f) & 1 ? x->p.max_rate_bytes_ps :
				       fz_u64_edge(&x->f);

	dcqcn_state_init(&x->s, &x->p, start, x->now);
	x->bc = x->bt = x->bcount = true;
	x->changed = false;
	FZ_CHECK(&x->f, x->s.alpha_fx == DCC_FX_ONE, "alpha at start");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sim x;
	struct fz *f = &x.f;
	u8 mode;

	memset(&x, 0, sizeof(x));
	fz_init(f, data, size);
	mode = fz_u8(f) & 3;
	x.wild = mode == 3;
	x.module = mode < 2;
	if (x.wild)
		params_wild(f, &x.p);
	else if (x.module)
		module_params(&x, false);
	else
		params_valid(f, &x.p);
	if (!x.wild)
		FZ_CHECK(f, dcqcn_params_valid(&x.p), "valid params refused");
	x.now = fz_u64_edge(f) >> (fz_u8(f) % 2);
	x.rnow = fz_u64_edge(f) >> 1;
	x.np_strict = true;
	conn_init(&x);
	dcqcn_np_init(&x.np);
	check_state(&x);

	while (fz_more(f) && f->ev < 4096) {
		u8 op = fz_u8(f);
		u64 r0;

		f->ev++;
		switch (op & 15) {
		case 0: case 1: case 2: case 3:
			ev_bytes(&x);
			break;
		case 4:
			ev_cut(&x, false);
			break;
		case 5:
			ev_cut(&x, true);
			break;
		case 6:
			if (fz_u8(f) & 1)
				advance(&x);
			else
				ev_hold(&x);
			break;
		case 7:
			x.now += (u64)fz_clock_step(f);
			break;
		case 8:
			x.now += fz_range(f, 0, 200);
			break;
		case 9: case 10: case 11:
			ev_packet(&x);
			break;
		case 12:
			/* Receiver clock: any step, backwards too. */
			r0 = x.rnow;
			x.rnow += (u64)fz_clock_step(f);
			if (x.rnow < r0)
				x.np_strict = false;
			break;
		case 13:
			if (x.wild)
				params_wild(f, &x.p);
			else if (x.module)
				module_params(&x, true);
			else
				params_valid(f, &x.p);
			x.changed = true;
			x.bc = x.bt = x.bcount = false;
			x.np_strict = false;	/* the interval changed */
			break;
		case 14:
			conn_init(&x);
			break;
		default:
			dcqcn_np_init(&x.np);
			x.rp.ece = 0;
			x.notified = false;
			x.notifies = x.edges = 0;
			break;
		}
		check_state(&x);
	}
	return 0;
}
