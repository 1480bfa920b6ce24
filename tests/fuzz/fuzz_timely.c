// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness of the TIMELY engine (include/dcc_timely.h), both
 * variants, driven as tcp_timely.c drives it, plus the safeguard window
 * (dcc_window_from_rate) the glue sets after every decision.
 *
 * Three in four inputs take their parameters as the module builds them
 * from values inside its ranges (variant 0 or 1 among them); one in four
 * fills every engine field with any value, valid or not, where the header
 * promises only safety: no overflow, rate inside its clamp and never 0.
 *
 * Events: ACKs as timely_cong_control() sees them (any number of packets,
 * MSS, raw RTT samples including none, 0, 1, 2^31, 2^32 - 1; GSO or not;
 * the flow's last bytes), completions fed straight to the engine with any
 * RTT, repeated RTTs, retransmit timeouts (cut and forget), fast recovery
 * (cut), undo, idle restarts, PLB repaths, module parameter writes in and
 * out of range.
 *
 * Invariants after every event:
 *  - the rate is never 0, never above 2^40 B/s, and inside [min_rate,
 *    max_rate] once an update ran under the current parameters;
 *  - the regime matches the sample: below T_low additive increase, above
 *    T_high the high cut, between them the gradient rules or the patched
 *    update; HAI only after hai_thresh non-positive gradients in a row;
 *  - an increase adds at most hai_n * delta (a rate the clamp lowered in
 *    recovery: doubles, or restarts at an eighth of the ceiling, first),
 *    a cut takes at most max_dec of the rate (before the clamp); the
 *    patched update moves the rate by at most delta up and max_dec down;
 *  - a delivery-rate sample and the clamp that follows it only clamp the
 *    rate, and mark it only in recovery and when they lowered it;
 *  - |rtt_diff| <= the documented limit, the gradient has its sign, a
 *    repeated sample strictly shrinks a non-zero rtt_diff (it decays to 0);
 *  - bytes counted towards the next completion stay below a segment; the
 *    engine RTT is >= 1 and <= the raw sample; the safeguard window is in
 *    [4, max(clamp, 4)].
 */
#include "fuzz.h"

#include "dcc_pacing.h"
#include "dcc_timely.h"

/* Module parameters of tcp_timely.c (name, range, default). */
enum {
	P_VARIANT, P_ALPHA, P_BETA, P_PBETA, P_MAX_DEC, P_DELTA, P_T_LOW,
	P_T_HIGH, P_MIN_RTT, P_HAI_THRESH, P_HAI_N, P_LINE, P_MAX_RATE,
	P_MIN_RATE, P_START, P_SEGMENT, P_MIN_FILTER, P_CWND_GAIN, P_NUM
};

static const struct fz_param timely_tab[P_NUM] = {
	[P_VARIANT]	= { "variant", 0, 1, 0 },
	[P_ALPHA]	= { "ewma_alpha_permille", 1, 1000, 875 },
	[P_BETA]	= { "beta_permille", 1, 1000, 800 },
	[P_PBETA]	= { "patched_beta_ppm", 1, 1000000, 8000 },
	[P_MAX_DEC]	= { "max_dec_permille", 1, 999, 500 },
	[P_DELTA]	= { "delta_kbps", 1, 1000000000, 10000 },
	[P_T_LOW]	= { "t_low_us", 1, 1000000, 50 },
	[P_T_HIGH]	= { "t_high_us", 1, 1000000, 500 },
	[P_MIN_RTT]	= { "min_rtt_us", 1, 1000000, 20 },
	[P_HAI_THRESH]	= { "hai_thresh", 1, 65535, 5 },
	[P_HAI_N]	= { "hai_n", 1, 1000, 5 },
	[P_LINE]	= { "line_rate_mbps", 1, 1000000, 10000 },
	[P_MAX_RATE]	= { "max_rate_mbps", 0, 1000000, 0 },
	[P_MIN_RATE]	= { "min_rate_kbps", 1, 1000000000, 1000 },
	[P_START]	= { "start_rate_permille", 1, 1000, 100 },
	[P_SEGMENT]	= { "segment_bytes", 1, 16777216, 16384 },
	[P_MIN_FILTER]	= { "rtt_min_filter", 0, 1, 0 },
	[P_CWND_GAIN]	= { "cwnd_gain_pct", 100, 1000, 200 },
};

#define TIMELY_MIN_CWND	4U	/* tcp_timely.c */

static u32 ceiling_mbps(u32 line, u32 max)
{
	return max && max < line ? max : line;
}

/* The cross-parameter checks of timely_params_build() in tcp_timely.c. */
static int timely_check(const u32 *v, unsigned int idx, u32 val)
{
	u32 lo = v[P_T_LOW], hi = v[P_T_HIGH];
	u32 line = v[P_LINE], max = v[P_MAX_RATE], min = v[P_MIN_RATE];

	switch (idx) {
	case P_T_LOW:
	case P_T_HIGH:
		if (idx == P_T_LOW)
			lo = val;
		else
			hi = val;
		return lo >= hi;
	case P_LINE:
	case P_MAX_RATE:
	case P_MIN_RATE:
		if (idx == P_LINE)
			line = val;
		else if (idx == P_MAX_RATE)
			max = val;
		else
			min = val;
		if (max > line)
			return 1;
		return min > (u64)ceiling_mbps(line, max) * 1000;
	}
	return 0;
}

/* timely_params_build() of tcp_timely.c. */
static void timely_build(const u32 *m, struct timely_params *p)
{
	timely_params_default(p, dcc_mbps_to_bytes_ps(m[P_LINE]));
	p->variant = m[P_VARIANT];
	p->ewma_alpha_fx = dcc_fx_from_milli(m[P_ALPHA]);
	p->beta_fx = dcc_fx_from_milli(m[P_BETA]);
	p->patched_beta_fx = dcc_div_u64((u64)m[P_PBETA] * DCC_FX_ONE,
					 1000000);
	p->max_dec_fx = dcc_fx_from_milli(m[P_MAX_DEC]);
	p->t_low_us = m[P_T_LOW];
	p->t_high_us = m[P_T_HIGH];
	p->min_rtt_us = m[P_MIN_RTT];
	p->hai_thresh = m[P_HAI_THRESH];
	p->hai_n = m[P_HAI_N];
	p->delta_bytes_ps = (u64)m[P_DELTA] * 1000 / 8;
	p->max_rate_bytes_ps =
		dcc_mbps_to_bytes_ps(ceiling_mbps(m[P_LINE], m[P_MAX_RATE]));
	p->min_rate_bytes_ps = (u64)m[P_MIN_RATE] * 1000 / 8;
	p->segment_bytes = m[P_SEGMENT];
}

/* Any value in every field (the header claims safety regardless). */
static void timely_wild(struct fz *f, struct timely_params *p)
{
	p->variant = fz_u8(f) % 3;
	p->ewma_alpha_fx = fz_u32_edge(f);
	p->beta_fx = fz_u32_edge(f);
	p->patched_beta_fx = fz_u32_edge(f);
	p->max_dec_fx = fz_u32_edge(f);
	p->t_low_us = fz_u32_edge(f);
	p->t_high_us = fz_u32_edge(f);
	p->min_rtt_us = fz_u32_edge(f);
	p->hai_thresh = fz_u32_edge(f);
	p->hai_n = fz_u32_edge(f);
	p->delta_bytes_ps = fz_u64_edge(f);
	p->min_rate_bytes_ps = fz_u64_edge(f);
	p->max_rate_bytes_ps = fz_u64_edge(f);
	p->line_rate_bytes_ps = fz_u64_edge(f);
	p->segment_bytes = fz_u32_edge(f);
}

struct sim {
	struct fz f;
	bool wild;
	u32 m[P_NUM];
	struct timely_params p;
	struct timely_state s;
	/* struct timely of tcp_timely.c, less PLB */
	u64 undo_rate;
	u32 last_rtt_us;
	u32 seg_min_rtt_us;
	bool bounded;		/* an update ran under the current params */
	u32 srtt, mss, clamp;
	u32 now;		/* us clock of the calibrated events */
	bool calib_last;	/* the last update had a dead band */
};

static u64 rate_lo(const struct timely_params *p)
{
	return timely_clamp_rate(p, 0);
}

static u64 rate_hi(const struct timely_params *p)
{
	return timely_clamp_rate(p, ~0ULL);
}

/* timely_apply(): the safeguard window. */
static void check_apply(struct sim *x)
{
	struct fz *f = &x->f;
	u32 rtt = dcc_max_u32(dcc_max_u32(x->srtt, x->last_rtt_us),
			      x->p.t_high_us);
	u32 hi = dcc_max_u32(x->clamp, TIMELY_MIN_CWND);
	u32 cwnd = dcc_window_from_rate(x->s.rate_bytes_ps, rtt, x->mss,
					x->m[P_CWND_GAIN], TIMELY_MIN_CWND,
					hi);

	FZ_CHECK(f, cwnd >= TIMELY_MIN_CWND && cwnd <= hi,
		 "safeguard window %u not in [4, %u]", cwnd, hi);
}

static void check_state(struct sim *x)
{
	struct fz *f = &x->f;
	const struct timely_state *s = &x->s;
	u64 r = s->rate_bytes_ps;

	FZ_CHECK(f, r >= 1 && r <= TIMELY_RATE_LIMIT, "rate %llu",
		 (unsigned long long)r);
	if (x->bounded)
		FZ_CHECK(f, r == timely_clamp_rate(&x->p, r),
			 "rate %llu outside [%llu, %llu]",
			 (unsigned long long)r,
			 (unsigned long long)rate_lo(&x->p),
			 (unsigned long long)rate_hi(&x->p));
	FZ_CHECK(f, s->rtt_diff_fx <= TIMELY_DIFF_LIMIT_FX &&
		 s->rtt_diff_fx >= -TIMELY_DIFF_LIMIT_FX, "rtt_diff_fx %lld",
		 (long long)s->rtt_diff_fx);
	FZ_CHECK(f, s->rtt_diff_fx > 0 ? timely_grad_fx(s, &x->p) >= 0 :
		 s->rtt_diff_fx < 0 ? timely_grad_fx(s, &x->p) <= 0 :
		 timely_grad_fx(s, &x->p) == 0,
		 "gradient %d against rtt_diff %lld", timely_grad_fx(s, &x->p),
		 (long long)s->rtt_diff_fx);
	/* (With a dead band a small rise counts as g <= 0.) */
	if (s->rtt_diff_fx > 0 && (s->flags & TIMELY_F_PREV_VALID) &&
	    s->regime != TIMELY_FIRST && !x->calib_last)
		FZ_CHECK(f, s->neg_count == 0, "neg_count %u, g > 0",
			 s->neg_count);
	check_apply(x);
}

/* One engine update with the engine RTT rtt, checked. */
static void completion(struct sim *x, u32 rtt)
{
	struct fz *f = &x->f;
	const struct timely_params *p = &x->p;
	struct timely_state *s = &x->s;
	u64 old = timely_clamp_rate(p, s->rate_bytes_ps);
	u64 delta = dcc_min_u64(p->delta_bytes_ps, TIMELY_RATE_LIMIT);
	u32 r_eff = dcc_min_u32(rtt, TIMELY_RTT_LIMIT_US);
	bool had_prev = s->flags & TIMELY_F_PREV_VALID;
	bool repeat = had_prev && s->prev_rtt_us == r_eff;
	s64 old_diff = s->rtt_diff_fx;
	double keep = 1.0 - (double)dcc_min_u32(p->max_dec_fx, DCC_FX_ONE) /
			    DCC_FX_ONE;
	enum timely_regime g;
	/*
	 * A rate the clamp lowered in recovery doubles below T_low, from
	 * an eighth of the ceiling at least.
	 */
	u64 up = s->on_line && r_eff < p->t_low_us ? 2 : 1;
	u64 lo, hi, n;

	g = timely_on_completion(s, p, rtt);
	x->bounded = true;
	x->calib_last = false;
	FZ_LOG(f, "completion rtt=%u regime=%d rate %llu -> %llu diff %lld neg %u",
	       rtt, g, (unsigned long long)old,
	       (unsigned long long)s->rate_bytes_ps, (long long)s->rtt_diff_fx,
	       s->neg_count);
	FZ_CHECK(f, g == s->regime, "regime returned %d, stored %u", g,
		 s->regime);
	if (!had_prev) {
		FZ_CHECK(f, g == TIMELY_FIRST && s->rate_bytes_ps == old,
			 "first sample changed the rate");
		return;
	}
	FZ_CHECK(f, s->prev_rtt_us == r_eff, "prev_rtt %u", s->prev_rtt_us);
	if (repeat && !x->wild)
		FZ_CHECK(f, old_diff == 0 ? s->rtt_diff_fx == 0 :
			 timely_abs64(s->rtt_diff_fx) < timely_abs64(old_diff),
			 "repeated sample: rtt_diff %lld -> %lld",
			 (long long)old_diff, (long long)s->rtt_diff_fx);

	lo = rate_lo(p);
	hi = rate_hi(p);
	if (r_eff < p->t_low_us) {
		FZ_CHECK(f, g == TIMELY_AI_LOW, "regime %d below T_low", g);
	} else if (r_eff > p->t_high_us) {
		FZ_CHECK(f, g == TIMELY_MD_HIGH, "regime %d above T_high", g);
	} else if (p->variant == TIMELY_VARIANT_PATCHED) {
		FZ_CHECK(f, g == TIMELY_PATCHED, "regime %d in the band", g);
	} else {
		FZ_CHECK(f, s->rtt_diff_fx <= 0 ?
			 g == TIMELY_AI || g == TIMELY_HAI :
			 g == TIMELY_MD_GRAD, "regime %d, rtt_diff %lld", g,
			 (long long)s->rtt_diff_fx);
		if (g == TIMELY_HAI)
			FZ_CHECK(f, s->neg_count >= p->hai_thresh,
				 "HAI after %u", s->neg_count);
		if (g == TIMELY_AI)
			FZ_CHECK(f, s->neg_count < p->hai_thresh,
				 "AI after %u (HAI due)", s->neg_count);
	}

	n = dcc_min_u32(p->hai_n, TIMELY_HAI_N_LIMIT);
	switch (g) {
	case TIMELY_AI_LOW:
	case TIMELY_AI:
	case TIMELY_HAI:
		FZ_CHECK(f, s->rate_bytes_ps >= dcc_min_u64(old, hi) &&
			 s->rate_bytes_ps <= fz_max_u64(fz_max_u64(up * old,
							(up - 1) * hi / 8) +
							(g == TIMELY_HAI ?
							 n : 1) * delta, lo),
			 "increase %llu -> %llu (delta %llu)",
			 (unsigned long long)old,
			 (unsigned long long)s->rate_bytes_ps,
			 (unsigned long long)delta);
		break;
	case TIMELY_MD_HIGH:
	case TIMELY_MD_GRAD:
	case TIMELY_PATCHED:
		FZ_CHECK(f, (double)s->rate_bytes_ps >=
			 dcc_min_u64((u64)((double)old * keep) - 1, lo) &&
			 s->rate_bytes_ps <= fz_max_u64(old + (g ==
							      TIMELY_PATCHED ?
							      delta : 0), lo),
			 "update %d: %llu -> %llu (max_dec_fx %u)", g,
			 (unsigned long long)old,
			 (unsigned long long)s->rate_bytes_ps, p->max_dec_fx);
		break;
	default:
		FZ_CHECK(f, 0, "regime %d after the first sample", g);
	}
}

/* What timely_cong_control() does with one ACK. */
static void ev_ack(struct sim *x)
{
	struct fz *f = &x->f;
	u8 sel = fz_u8(f);
	u32 pkts = sel & 1 ? fz_range(f, 1, 64) : fz_u32_edge(f);
	u32 raw = sel & 2 ? fz_range(f, 1, 2000) : fz_u32_edge(f);
	bool has_rtt = !(sel & 4), gso = sel & 8, last = sel & 16;
	u32 seg = x->m[P_SEGMENT], acked, burst, ser, rtt, before;
	u32 due;

	if (!pkts)
		return;
	acked = dcc_sat_u32((u64)pkts * x->mss);
	if (!has_rtt) {
		x->s.acked_bytes = dcc_sat_u32((u64)x->s.acked_bytes + acked);
		return;
	}
	x->last_rtt_us = raw;
	burst = dcc_min_u32(acked, gso ? seg : x->mss);
	ser = timely_serialization_us(&x->p, burst);
	rtt = timely_rtt_for_engine(&x->p, raw, burst);
	FZ_CHECK(f, rtt >= 1 && rtt <= dcc_max_u32(raw, 1) &&
		 (raw <= ser || rtt == raw - ser),
		 "engine rtt %u from %u (serialization %u)", rtt, raw, ser);
	if (x->m[P_MIN_FILTER] && x->seg_min_rtt_us)
		rtt = dcc_min_u32(rtt, x->seg_min_rtt_us);
	x->seg_min_rtt_us = rtt;
	before = x->s.acked_bytes;
	due = timely_account_acked(&x->s, acked, seg, last);
	if (!due) {
		FZ_CHECK(f, x->s.acked_bytes < seg && !last,
			 "%u bytes counted (+%u from %u), segment %u, last %d",
			 x->s.acked_bytes, acked, before, seg, last);
		return;
	}
	FZ_CHECK(f, due <= TIMELY_MAX_COMPLETIONS && x->s.acked_bytes == 0,
		 "%u completions, %u bytes left, segment %u, last %d", due,
		 x->s.acked_bytes, seg, last);
	x->seg_min_rtt_us = 0;
	completion(x, rtt);
}

/* timely_loss_cut(): one cut by max_dec. */
static void loss_cut(struct sim *x)
{
	struct fz *f = &x->f;
	u64 old = x->s.rate_bytes_ps, lo = rate_lo(&x->p);
	double keep = 1.0 - (double)dcc_min_u32(x->p.max_dec_fx, DCC_FX_ONE) /
			    DCC_FX_ONE;

	x->undo_rate = old;
	x->s.rate_bytes_ps = timely_clamp_rate(&x->p,
					       timely_cut(&x->p, old,
							  TIMELY_FRAC32_ONE));
	x->bounded = true;
	FZ_CHECK(f, x->s.rate_bytes_ps <= fz_max_u64(old, lo) &&
		 (double)x->s.rate_bytes_ps >=
		 dcc_min_u64((u64)((double)dcc_min_u64(old, rate_hi(&x->p)) *
				   keep) - 1, lo),
		 "loss cut %llu -> %llu", (unsigned long long)old,
		 (unsigned long long)x->s.rate_bytes_ps);
}

static void ev_params(struct sim *x)
{
	if (x->wild) {
		timely_wild(&x->f, &x->p);
	} else {
		if (!fz_params_poke(&x->f, timely_tab, P_NUM, x->m,
				    timely_check))
			return;
		timely_build(x->m, &x->p);
		FZ_CHECK(&x->f, timely_params_valid(&x->p),
			 "module parameters give invalid engine params");
	}
	x->bounded = false;
}

static void sim_init_conn(struct sim *x)
{
	u64 start = dcc_div_u64(x->p.max_rate_bytes_ps * x->m[P_START],
				1000);

	if (x->wild)
		start = fz_u64_edge(&x->f);
	timely_state_init(&x->s, &x->p, start);
	x->undo_rate = x->s.rate_bytes_ps;
	x->last_rtt_us = 0;
	x->seg_min_rtt_us = 0;
	x->bounded = true;
}

/*
 * Self-calibration (calibrate = 1, as the module's default): a delivery
 * rate sample or a completion through timely_on_completion_at().  The
 * effective parameters stay valid, never below the parameters' thresholds
 * nor above their ceiling, and the rate stays within them.
 */
static void ev_calibrated(struct sim *x, bool sample)
{
	struct fz *f = &x->f;
	struct timely_params p = x->p, e;

	p.calibrate = 1;
	p.base_win_us = fz_u32_edge(f);
	p.lr.win_us = fz_u32_edge(f);
	p.lr.headroom_pct = fz_range(f, 0, 1000);
	x->now += fz_u32_edge(f) >> (fz_u8(f) & 31);
	if (sample) {
		bool in_loss = fz_bool(f), marked = x->s.on_line;
		u64 before;

		before = x->s.rate_bytes_ps;
		/* What the glue does at every ACK: sample, clamp, mark. */
		timely_ack_line(&x->s, &p, x->now, fz_u64_edge(f),
				fz_u32_edge(f), fz_bool(f), in_loss, &e);
		FZ_CHECK(f, x->s.rate_bytes_ps == timely_clamp_rate(&e, before),
			 "follow_line %llu -> %llu",
			 (unsigned long long)before,
			 (unsigned long long)x->s.rate_bytes_ps);
		FZ_CHECK(f, !x->s.on_line || marked ||
			 (in_loss && x->s.rate_bytes_ps < before),
			 "marked out of recovery or without a clamp");
		x->bounded = false;
	} else {
		u32 rtt = fz_u8(f) & 1 ? fz_range(f, 1, 5000) :
					 fz_u32_edge(f);
		/* The destination's floor: none, near the sample, or any. */
		u32 floor = fz_u8(f) & 1 ? 0 : fz_u8(f) & 1 ?
			    fz_range(f, 1, 5000) : fz_u32_edge(f);

		x->calib_last = true;
		timely_on_completion_at(&x->s, &p, rtt, x->now, true, floor);
		FZ_CHECK(f, !floor || x->s.base_rtt_us <=
			 dcc_min_u32(floor, TIMELY_BASE_MAX_US),
			 "base %u above the floor %u", x->s.base_rtt_us, floor);
		x->bounded = false;
	}
	timely_effective(&p, &x->s, &e);
	FZ_LOG(f, "calibrated: base %u noise %u t_low %u t_high %u band %u max %llu",
	       x->s.base_rtt_us, timely_noise_us(&x->s), e.t_low_us,
	       e.t_high_us, e.noise_band_us,
	       (unsigned long long)e.max_rate_bytes_ps);
	if (!x->wild)
		FZ_CHECK(f, timely_params_valid(&e), "effective params invalid");
	FZ_CHECK(f, e.t_low_us >= p.t_low_us && e.t_high_us >= p.t_high_us &&
		 e.min_rtt_us >= p.min_rtt_us &&
		 (x->wild || !x->s.base_rtt_us || e.t_high_us > e.t_low_us),
		 "thresholds below the parameters");
	FZ_CHECK(f, e.max_rate_bytes_ps <= p.max_rate_bytes_ps &&
		 (e.max_rate_bytes_ps >= 1 || !p.max_rate_bytes_ps) &&
		 (e.delta_bytes_ps >= 1 || !p.delta_bytes_ps),
		 "ceiling %llu above %llu",
		 (unsigned long long)e.max_rate_bytes_ps,
		 (unsigned long long)p.max_rate_bytes_ps);
	if (!sample)
		FZ_CHECK(f, x->s.rate_bytes_ps == timely_clamp_rate(&e,
						x->s.rate_bytes_ps),
			 "rate %llu outside the effective bounds",
			 (unsigned long long)x->s.rate_bytes_ps);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sim x;
	struct fz *f = &x.f;

	memset(&x, 0, sizeof(x));
	fz_init(f, data, size);
	x.wild = (fz_u8(f) & 3) == 3;
	fz_params_init(f, timely_tab, P_NUM, x.m, timely_check);
	timely_build(x.m, &x.p);
	if (x.wild)
		timely_wild(f, &x.p);
	else
		FZ_CHECK(f, timely_params_valid(&x.p),
			 "module parameters give invalid engine params");
	x.srtt = fz_u32_edge(f);
	x.mss = fz_range(f, 1, 65535);
	x.clamp = fz_u8(f) & 1 ? ~0U : fz_u32_edge(f);
	sim_init_conn(&x);
	check_state(&x);

	while (fz_more(f) && f->ev < 4096) {
		u8 op = fz_u8(f);
		u64 r;

		f->ev++;
		switch (op & 15) {
		case 0: case 1: case 2: case 3: case 4:
			ev_ack(&x);
			break;
		case 5: case 6:
			/* Straight to the engine, any RTT. */
			completion(&x, op & 16 ? fz_range(f, 1, 2000) :
					   fz_u32_edge(f));
			break;
		case 7:
			/* The previous sample again (constant RTT). */
			completion(&x, x.s.prev_rtt_us);
			break;
		case 8:
			/* Retransmit timeout: cut, forget the history. */
			loss_cut(&x);
			timely_restart(&x.s);
			FZ_CHECK(f, !(x.s.flags & TIMELY_F_PREV_VALID) &&
				 !x.s.rtt_diff_fx && !x.s.acked_bytes,
				 "restart kept history");
			break;
		case 9:
			loss_cut(&x);
			break;
		case 10:
			/* timely_undo_cwnd() */
			r = fz_max_u64(x.s.rate_bytes_ps, x.undo_rate);
			x.s.rate_bytes_ps = timely_clamp_rate(&x.p, r);
			x.bounded = true;
			break;
		case 11:
			if (!(op & 16)) {
				timely_restart(&x.s);
				break;
			}
			/* A PLB repath: a new connection's start. */
			timely_repath(&x.s, &x.p, (u64)fz_range(f, 0, 64) *
				      x.mss, x.m[P_START]);
			FZ_CHECK(f, !x.s.flags && !x.s.rtt_diff_fx &&
				 !x.s.base_rtt_us && !x.s.noise_var &&
				 !dcc_linerate_max(&x.s.lr) &&
				 x.s.rate_bytes_ps ==
				 timely_clamp_rate(&x.p, x.s.rate_bytes_ps),
				 "repath kept the path's state");
			x.undo_rate = x.s.rate_bytes_ps;
			x.bounded = true;
			break;
		case 12:
			ev_params(&x);
			break;
		case 13:
			sim_init_conn(&x);
			break;
		case 14:
			x.srtt = fz_u32_edge(f);
			x.mss = fz_range(f, 1, 65535);
			break;
		default:
			if (op & 16) {
				ev_calibrated(&x, op & 32);
				break;
			}
			/* Hand-made state: any rate (as after a param change). */
			r = dcc_min_u64(fz_u64_edge(f), TIMELY_RATE_LIMIT);
			x.s.rate_bytes_ps = r ? r : 1;
			x.bounded = false;
			break;
		}
		check_state(&x);
	}
	return 0;
}
