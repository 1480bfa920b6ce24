// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of include/dcc_dcqcn.h (DCQCN reaction and notification
 * points).
 *
 * Expectations come from a double-precision model of the published rate
 * machine written here (struct ref, ref_*()), from closed forms (alpha
 * after k notifications or n decays) or from counting, never from the
 * helpers under test.  The fixed-point machine rounds down at every step,
 * so comparisons allow a few units in the last place per step.
 */
#include "dcc_test.h"

#include "dcc_dcqcn.h"

#define ONE_D		65536.0
#define LINE_10G	1250000000ULL	/* 10 Gbit/s in bytes per second */
#define LINE_100M	12500000ULL	/* 100 Mbit/s */

_Static_assert(sizeof(struct dcqcn_state) <= 56,
	       "dcqcn_state must leave room in the congestion-control area");

/* Reference defaults at 10 Gbit/s, written out. */
static struct dcqcn_params ref_params(void)
{
	struct dcqcn_params p = {
		.g_fx = 4096,			/* 1/16 */
		.alpha_period_us = 55,
		.timer_us = 55,
		.byte_counter_bytes = 153600,	/* 150 KB */
		.fr_events = 5,
		.cnp_interval_us = 50,
		.ai_bytes_ps = 625000,		/* 5 Mbit/s */
		.hai_bytes_ps = 6250000,	/* 50 Mbit/s */
		.min_rate_bytes_ps = 125000,	/* 1 Mbit/s */
		.max_rate_bytes_ps = LINE_10G,
		.ai_ppm = 1000,			/* relative: line / 1000 */
		.hai_ppm = 10000,		/* line / 100 */
	};

	return p;
}

/* ---- double-precision model -------------------------------------------- */

struct ref {
	double rc, rt, alpha;
	double bc_bytes;
	unsigned long T, BC;
	double t_alpha, t_timer;	/* period starts, us */
	int stage;
};

static double ref_clamp(const struct dcqcn_params *p, double r)
{
	return fmin(fmax(r, (double)p->min_rate_bytes_ps),
		    (double)p->max_rate_bytes_ps);
}

static void ref_init(struct ref *r, const struct dcqcn_params *p,
		     double rate, double now)
{
	memset(r, 0, sizeof(*r));
	r->rc = r->rt = ref_clamp(p, rate);
	r->alpha = 1.0;
	r->t_alpha = r->t_timer = now;
}

static void ref_event(struct ref *r, const struct dcqcn_params *p)
{
	unsigned long hi = r->T > r->BC ? r->T : r->BC;
	unsigned long lo = r->T < r->BC ? r->T : r->BC;

	if (hi <= p->fr_events) {
		r->stage = DCQCN_STAGE_FR;
	} else if (lo > p->fr_events) {
		r->rt += (double)(lo - p->fr_events) * p->hai_bytes_ps;
		r->stage = DCQCN_STAGE_HAI;
	} else {
		r->rt += p->ai_bytes_ps;
		r->stage = DCQCN_STAGE_AI;
	}
	r->rt = ref_clamp(p, r->rt);
	r->rc = ref_clamp(p, (r->rt + r->rc) / 2);
}

static void ref_advance(struct ref *r, const struct dcqcn_params *p,
			double now)
{
	double g = p->g_fx / ONE_D;

	while (now - r->t_alpha >= p->alpha_period_us) {
		r->alpha *= 1 - g;
		r->t_alpha += p->alpha_period_us;
	}
	while (now - r->t_timer >= p->timer_us) {
		r->T++;
		ref_event(r, p);
		r->t_timer += p->timer_us;
	}
}

static void ref_bytes(struct ref *r, const struct dcqcn_params *p,
		      double bytes, double now)
{
	ref_advance(r, p, now);
	r->bc_bytes += bytes;
	while (r->bc_bytes >= p->byte_counter_bytes) {
		r->bc_bytes -= p->byte_counter_bytes;
		r->BC++;
		ref_event(r, p);
	}
}

static void ref_cnp(struct ref *r, const struct dcqcn_params *p, double now)
{
	double g = p->g_fx / ONE_D;

	ref_advance(r, p, now);
	r->rt = r->rc;
	r->rc = ref_clamp(p, r->rc * (1 - r->alpha / 2));
	r->alpha = (1 - g) * r->alpha + g;
	r->t_alpha = r->t_timer = now;
	r->T = r->BC = 0;
	r->bc_bytes = 0;
	r->stage = DCQCN_STAGE_CUT;
}

/* The fixed-point state is within tol_rate bytes/s and tol_alpha of r. */
static void assert_matches(const struct dcqcn_state *s, const struct ref *r,
			   double tol_rate, double tol_alpha)
{
	assert_near(s->rate_c_bytes_ps, r->rc, tol_rate);
	assert_near(s->rate_t_bytes_ps, r->rt, tol_rate);
	assert_near(s->alpha_fx / ONE_D, r->alpha, tol_alpha);
	assert_int_equal(s->timer_cnt, r->T);
	assert_int_equal(s->byte_cnt, r->BC);
}

/* ---- tests -------------------------------------------------------------- */

static void test_params_default(void **state)
{
	struct dcqcn_params p, want = ref_params();

	(void)state;
	dcqcn_params_default(&p, LINE_10G);
	assert_memory_equal(&p, &want, sizeof(p));
	assert_true(dcqcn_params_valid(&p));

	p = want;
	p.g_fx = 0;
	assert_false(dcqcn_params_valid(&p));
	p = want;
	p.g_fx = 65537;
	assert_false(dcqcn_params_valid(&p));
	p = want;
	p.timer_us = 0;
	assert_false(dcqcn_params_valid(&p));
	p = want;
	p.byte_counter_bytes = 0;
	assert_false(dcqcn_params_valid(&p));
	p = want;
	p.min_rate_bytes_ps = LINE_10G + 1;
	assert_false(dcqcn_params_valid(&p));
	p = want;
	p.max_rate_bytes_ps = DCQCN_RATE_LIMIT + 1;
	assert_false(dcqcn_params_valid(&p));

	/* A tiny line rate keeps floor <= ceiling. */
	dcqcn_params_default(&p, 1000);
	assert_true(dcqcn_params_valid(&p));
	assert_int_equal(p.min_rate_bytes_ps, 1000);
}

static void test_init(void **state)
{
	struct dcqcn_params p = ref_params();
	struct dcqcn_state s;

	(void)state;
	dcqcn_state_init(&s, &p, LINE_10G, 1000);
	assert_int_equal(s.rate_c_bytes_ps, LINE_10G);
	assert_int_equal(s.rate_t_bytes_ps, LINE_10G);
	assert_int_equal(s.alpha_fx, DCC_FX_ONE);
	dcqcn_state_init(&s, &p, 0, 0);
	assert_int_equal(s.rate_c_bytes_ps, p.min_rate_bytes_ps);
	dcqcn_state_init(&s, &p, ~0ULL, 0);
	assert_int_equal(s.rate_c_bytes_ps, LINE_10G);
}

/* alpha after k notifications at one instant: 1 - (1 - g)^k (1 - a0). */
static void test_alpha_notifications(void **state)
{
	static const u32 gs[] = { 4096, 256, 1, 65536, 30000 };
	unsigned int i, k;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(gs); i++) {
		struct dcqcn_params p = ref_params();
		struct dcqcn_state s;
		double g = gs[i] / ONE_D, a0 = 0.25, want;

		p.g_fx = gs[i];
		dcqcn_state_init(&s, &p, LINE_10G, 0);
		s.alpha_fx = (u32)(a0 * ONE_D);
		for (k = 1; k <= 200; k++) {
			dcqcn_on_cnp(&s, &p, 0, NULL);
			want = 1 - pow(1 - g, k) * (1 - a0);
			/* One unit in the last place lost per step at most. */
			assert_near(s.alpha_fx / ONE_D, want, k / ONE_D + 1e-12);
			assert_true(s.alpha_fx <= DCC_FX_ONE);
		}
	}
}

/* alpha after n decay periods: a * (1 - g)^n, lazily and in one go. */
static void test_alpha_decay(void **state)
{
	static const u32 gs[] = { 4096, 256, 65535, 1 };
	static const u64 ns[] = { 0, 1, 2, 7, 55, 100, 1000, 100000 };
	unsigned int i, j;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(gs); i++) {
		for (j = 0; j < ARRAY_SIZE(ns); j++) {
			struct dcqcn_params p = ref_params();
			struct dcqcn_state s;
			double g = gs[i] / ONE_D, want;
			u64 now;

			p.g_fx = gs[i];
			dcqcn_state_init(&s, &p, LINE_10G, 100);
			/* Half a period short of n + 1: exactly n decays. */
			now = 100 + ns[j] * p.alpha_period_us +
			      p.alpha_period_us / 2;
			dcqcn_advance(&s, &p, now, NULL);
			want = pow(1 - g, (double)ns[j]);
			assert_near(s.alpha_fx / ONE_D, want, 2 / ONE_D);
			assert_int_equal(s.alpha_stamp_us,
					 100 + ns[j] * p.alpha_period_us);
		}
	}
}

/* Decays step by step match decays in one call (the lazy evaluation). */
static void test_alpha_decay_lazy(void **state)
{
	struct dcqcn_params p = ref_params();
	struct dcqcn_state a, b;
	struct dcqcn_events ev = { 0 };
	u64 t;

	(void)state;
	dcqcn_state_init(&a, &p, LINE_10G, 0);
	dcqcn_state_init(&b, &p, LINE_10G, 0);
	for (t = 0; t < 30 * 55 + 7; t += 7)
		dcqcn_advance(&a, &p, t, &ev);
	dcqcn_advance(&b, &p, t - 7, NULL);
	assert_int_equal(ev.alpha_decays, 30);
	/* Per-step floors may lose a few units against one power. */
	assert_near(a.alpha_fx, b.alpha_fx, 30);
	assert_near(b.alpha_fx / ONE_D, pow(15.0 / 16, 30), 2 / ONE_D);
}

/* Rate after a cut: R_T = R_C, R_C = R_C (1 - alpha / 2), old alpha. */
static void test_cut(void **state)
{
	struct dcqcn_params p = ref_params();
	struct dcqcn_state s;
	struct ref r;
	int k;

	(void)state;
	dcqcn_state_init(&s, &p, LINE_10G, 0);
	ref_init(&r, &p, LINE_10G, 0);
	/* First cut with alpha = 1: half. */
	dcqcn_on_cnp(&s, &p, 10, NULL);
	ref_cnp(&r, &p, 10);
	assert_int_equal(s.rate_c_bytes_ps, LINE_10G / 2);
	assert_int_equal(s.rate_t_bytes_ps, LINE_10G);
	assert_int_equal(s.stage, DCQCN_STAGE_CUT);
	/* Then cuts spaced by a few alpha periods, so alpha varies. */
	for (k = 1; k < 40; k++) {
		u64 now = 10 + k * 170;

		dcqcn_on_cnp(&s, &p, now, NULL);
		ref_cnp(&r, &p, now);
		/*
		 * alpha is kept to 2^-16: each cut may be off by that much
		 * of the rate, relative.
		 */
		assert_matches(&s, &r, r.rc * k * 2 / ONE_D + 8 * k,
			       2 * k / ONE_D);
	}
	/* Down to the floor and not below. */
	for (k = 0; k < 200; k++)
		dcqcn_on_cnp(&s, &p, 10000, NULL);
	assert_int_equal(s.rate_c_bytes_ps, p.min_rate_bytes_ps);
	assert_true(s.rate_t_bytes_ps >= p.min_rate_bytes_ps);
}

/* Timer only: F fast-recovery events, then additive increase, never HAI. */
static void test_stages_timer(void **state)
{
	struct dcqcn_params p = ref_params();
	struct dcqcn_state s;
	struct dcqcn_events ev = { 0 };
	struct ref r;
	unsigned int k;

	(void)state;
	dcqcn_state_init(&s, &p, LINE_10G, 0);
	ref_init(&r, &p, LINE_10G, 0);
	for (k = 0; k < 4; k++) {
		dcqcn_on_cnp(&s, &p, 0, NULL);
		ref_cnp(&r, &p, 0);
	}
	for (k = 1; k <= 40; k++) {
		u64 now = k * p.timer_us;

		dcqcn_advance(&s, &p, now, &ev);
		ref_advance(&r, &p, now);
		assert_int_equal(s.stage, k <= 5 ? DCQCN_STAGE_FR :
						   DCQCN_STAGE_AI);
		assert_int_equal(r.stage, s.stage);
		assert_matches(&s, &r, 4.0 * k + 1e-9 * r.rc, 2 * k / ONE_D);
	}
	assert_int_equal(ev.fr, 5);
	assert_int_equal(ev.ai, 35);
	assert_int_equal(ev.hai, 0);
	/* Fast recovery halves the distance to the target each event. */
}

/*
 * Both sources, interleaved: fast recovery while both counts are <= F,
 * additive while one is past F, hyper once both are, with the step
 * growing (i = min(T, BC) - F).
 */
static void test_stages_both(void **state)
{
	struct dcqcn_params p = ref_params();
	struct dcqcn_state s;
	struct dcqcn_events ev = { 0 };
	struct ref r;
	u64 now = 0, prev_gain = 0;
	unsigned int k;
	bool seen_ai = false, seen_hai = false;

	(void)state;
	p.max_rate_bytes_ps = DCQCN_RATE_LIMIT;	/* no clamp in the way */
	dcqcn_state_init(&s, &p, LINE_10G, 0);
	ref_init(&r, &p, LINE_10G, 0);
	dcqcn_on_cnp(&s, &p, 0, NULL);
	ref_cnp(&r, &p, 0);
	for (k = 0; k < 30; k++) {
		u64 rt_before = s.rate_t_bytes_ps;

		/* One byte-counter event, then one timer event. */
		dcqcn_on_bytes(&s, &p, p.byte_counter_bytes, now, &ev);
		ref_bytes(&r, &p, p.byte_counter_bytes, now);
		assert_int_equal(s.stage, r.stage);
		now += p.timer_us;
		dcqcn_advance(&s, &p, now, &ev);
		ref_advance(&r, &p, now);
		assert_int_equal(s.stage, r.stage);
		assert_matches(&s, &r, r.rc * 4 / ONE_D + 8.0 * (k + 1),
			       2.0 * (k + 1) / ONE_D);
		if (s.stage == DCQCN_STAGE_AI) {
			assert_false(seen_hai);
			seen_ai = true;
		}
		if (s.stage == DCQCN_STAGE_HAI) {
			u64 gain = s.rate_t_bytes_ps - rt_before;

			seen_hai = true;
			assert_true(gain > prev_gain);	/* i grows */
			prev_gain = gain;
		}
	}
	/* Interleaved counts: both pass F together (BC leads by one). */
	assert_int_equal(ev.fr, 10);
	assert_true(seen_hai);
	assert_int_equal(ev.ai + ev.hai, 50);
	(void)seen_ai;
}

/* Byte counter: one event per byte_counter_bytes, remainder kept. */
static void test_byte_counter(void **state)
{
	struct dcqcn_params p = ref_params();
	struct dcqcn_state s;
	struct dcqcn_events ev = { 0 };
	struct ref r;
	u64 total = 0;
	unsigned int k;
	struct test_rng rng = { 0x9e3779b97f4a7c15ULL };

	(void)state;
	p.timer_us = 1000000000;	/* timer out of the way */
	dcqcn_state_init(&s, &p, LINE_10G, 0);
	ref_init(&r, &p, LINE_10G, 0);
	dcqcn_on_cnp(&s, &p, 0, NULL);
	ref_cnp(&r, &p, 0);
	for (k = 0; k < 500; k++) {
		u32 b = (u32)rng_range(&rng, 1, 3 * p.byte_counter_bytes);

		total += b;
		dcqcn_on_bytes(&s, &p, b, 0, &ev);
		ref_bytes(&r, &p, b, 0);
		assert_int_equal(s.byte_cnt, total / p.byte_counter_bytes);
		assert_int_equal(s.bc_bytes, total % p.byte_counter_bytes);
		assert_matches(&s, &r, 1e-9 * r.rc + 4.0 * s.byte_cnt,
			       1.0 / ONE_D);
	}
	assert_int_equal(s.timer_cnt, 0);
	assert_int_equal(ev.fr, 5);
	assert_int_equal(ev.hai, 0);
	/* A notification resets the counter and its remainder. */
	dcqcn_on_cnp(&s, &p, 0, NULL);
	assert_int_equal(s.byte_cnt, 0);
	assert_int_equal(s.bc_bytes, 0);
}

/* Timer events lazily: k periods and a fraction are k events. */
static void test_timer_lazy(void **state)
{
	struct dcqcn_params p = ref_params();
	struct dcqcn_state a, b;
	u64 t;

	(void)state;
	dcqcn_state_init(&a, &p, LINE_10G, 0);
	dcqcn_state_init(&b, &p, LINE_10G, 0);
	dcqcn_on_cnp(&a, &p, 0, NULL);
	dcqcn_on_cnp(&b, &p, 0, NULL);
	for (t = 0; t <= 23 * 55 + 30; t += 13)
		dcqcn_advance(&a, &p, t, NULL);
	dcqcn_advance(&b, &p, t - 13, NULL);
	assert_int_equal(a.timer_cnt, 23);
	assert_int_equal(b.timer_cnt, 23);
	/* Same events in the same order: identical state. */
	assert_int_equal(a.rate_c_bytes_ps, b.rate_c_bytes_ps);
	assert_int_equal(a.rate_t_bytes_ps, b.rate_t_bytes_ps);
	assert_int_equal(a.timer_stamp_us, 23 * 55);
}

/* Clamps: never above the line, never below the floor, never 0. */
static void test_clamps(void **state)
{
	struct dcqcn_params p = ref_params();
	struct dcqcn_state s;
	struct dcqcn_events ev = { 0 };

	(void)state;
	p.max_rate_bytes_ps = LINE_100M;
	dcqcn_state_init(&s, &p, LINE_100M, 0);
	dcqcn_on_cnp(&s, &p, 0, NULL);
	/* A long idle gap: capped work, back at the line rate. */
	dcqcn_advance(&s, &p, 1000000000ULL, &ev);
	assert_int_equal(s.rate_c_bytes_ps, LINE_100M);
	assert_int_equal(s.rate_t_bytes_ps, LINE_100M);
	assert_true(ev.fr + ev.ai + ev.hai <= DCQCN_MAX_EVENTS);
	assert_true(s.timer_cnt > DCQCN_MAX_EVENTS);	/* counts go on */
	/* A huge byte count in one go: bounded, still at the line. */
	dcqcn_on_bytes(&s, &p, DCC_U32_MAX, 1000000000ULL, NULL);
	assert_int_equal(s.rate_c_bytes_ps, LINE_100M);
	/* Floor. */
	p.min_rate_bytes_ps = 1000;
	dcqcn_state_init(&s, &p, 0, 0);
	assert_int_equal(s.rate_c_bytes_ps, 1000);
	/* Crossed bounds: the ceiling wins. */
	p.min_rate_bytes_ps = 2 * LINE_100M;
	assert_int_equal(dcqcn_clamp_rate(&p, 5), LINE_100M);
	/* Zero ceiling: still never 0. */
	p.min_rate_bytes_ps = 0;
	p.max_rate_bytes_ps = 0;
	assert_int_equal(dcqcn_clamp_rate(&p, 0), 1);
	/* Extreme steps and counts do not overflow. */
	p = ref_params();
	p.hai_bytes_ps = DCQCN_RATE_LIMIT;
	p.ai_bytes_ps = DCQCN_RATE_LIMIT;
	p.max_rate_bytes_ps = DCQCN_RATE_LIMIT;
	dcqcn_state_init(&s, &p, 1, 0);
	s.timer_cnt = DCQCN_COUNT_MAX - 1;
	s.byte_cnt = DCQCN_COUNT_MAX - 1;
	dcqcn_on_bytes(&s, &p, DCC_U32_MAX, ~0ULL, NULL);
	assert_int_equal(s.rate_t_bytes_ps, DCQCN_RATE_LIMIT);
	assert_int_equal(s.timer_cnt, DCQCN_COUNT_MAX);
}

/* Time going backwards: nothing replayed, periods restart at the new now. */
static void test_time_backwards(void **state)
{
	struct dcqcn_params p = ref_params();
	struct dcqcn_state s, before;
	struct dcqcn_np np;

	(void)state;
	dcqcn_state_init(&s, &p, LINE_10G, 100000);
	dcqcn_on_cnp(&s, &p, 100000, NULL);
	before = s;
	dcqcn_advance(&s, &p, 50, NULL);
	assert_int_equal(s.rate_c_bytes_ps, before.rate_c_bytes_ps);
	assert_int_equal(s.alpha_fx, before.alpha_fx);
	assert_int_equal(s.timer_cnt, 0);
	assert_int_equal(s.alpha_stamp_us, 50);
	assert_int_equal(s.timer_stamp_us, 50);
	/* Forward again from there: one period later, one event. */
	dcqcn_advance(&s, &p, 50 + p.timer_us, NULL);
	assert_int_equal(s.timer_cnt, 1);
	/* A cut with a stale time still cuts. */
	dcqcn_on_cnp(&s, &p, 0, NULL);
	assert_int_equal(s.stage, DCQCN_STAGE_CUT);

	/* Notification point: a notification, then the clock goes back. */
	dcqcn_np_init(&np);
	assert_true(dcqcn_np_packet(&np, 50, true, 1000, false, true) &
		    DCQCN_NP_NOTIFY);
	assert_int_equal(dcqcn_np_packet(&np, 50, true, 10, false, true),
			 DCQCN_NP_COALESCED);
	/* The interval now runs from the new time, not from the future. */
	assert_true(dcqcn_np_packet(&np, 50, true, 60, false, true) &
		    DCQCN_NP_NOTIFY);
}

static void test_loss_cut(void **state)
{
	struct dcqcn_params p = ref_params();
	struct dcqcn_state s;

	(void)state;
	dcqcn_state_init(&s, &p, LINE_10G, 0);
	s.alpha_fx = 1000;
	dcqcn_loss_cut(&s, &p, 0, NULL);
	assert_int_equal(s.rate_c_bytes_ps, LINE_10G / 2);
	assert_int_equal(s.rate_t_bytes_ps, LINE_10G);
	assert_int_equal(s.alpha_fx, 1000);
	assert_int_equal(s.stage, DCQCN_STAGE_LOSS);
	/* Recovery afterwards as after a notification. */
	dcqcn_advance(&s, &p, p.timer_us, NULL);
	assert_int_equal(s.stage, DCQCN_STAGE_FR);
	assert_int_equal(s.rate_c_bytes_ps, (LINE_10G + LINE_10G / 2) / 2);
}

/*
 * A connection's parameters: absolute values pass through; timers last at
 * least one RTT; relative steps and byte counter follow the line rate; the
 * Reno bound caps R_AI at one mss per RTT and scales R_HAI with it.
 */
static void test_params_for(void **state)
{
	struct dcqcn_params t = ref_params(), e;

	(void)state;
	/* The paper's setting: 10 Gbit/s, RTT below the timer: unchanged. */
	dcqcn_params_for(&e, &t, LINE_10G, 20, 1448);
	assert_int_equal(e.timer_us, 55);
	assert_int_equal(e.alpha_period_us, 55);
	assert_int_equal(e.ai_bytes_ps, 625000);
	assert_int_equal(e.hai_bytes_ps, 6250000);
	assert_int_equal(e.byte_counter_bytes, 153600);
	assert_int_equal(e.max_rate_bytes_ps, LINE_10G);
	assert_true(dcqcn_params_valid(&e));

	/*
	 * Relative steps and byte counter at 40 Gbit/s: before an RTT is
	 * known, 0.1 and 1 % of the line; with one, R_AI is Reno's step,
	 * one mss per RTT, and R_HAI keeps the ratio hai_ppm / ai_ppm.
	 */
	t.ai_bytes_ps = 0;
	t.hai_bytes_ps = 0;
	t.byte_counter_bytes = 0;
	dcqcn_params_for(&e, &t, 4 * LINE_10G, 0, 1448);
	assert_int_equal(e.ai_bytes_ps, 5000000);	/* 40 Mbit/s */
	assert_int_equal(e.hai_bytes_ps, 50000000);	/* 400 Mbit/s */
	dcqcn_params_for(&e, &t, 4 * LINE_10G, 20, 1448);
	assert_int_equal(e.ai_bytes_ps, 1448 * 1000000 / 20);
	assert_int_equal(e.hai_bytes_ps, 10ULL * 1448 * 1000000 / 20);
	assert_int_equal(e.byte_counter_bytes, 5000000ULL * 55 / 1000 * 1000 / 1000);
	assert_true(dcqcn_params_valid(&e));

	/*
	 * 100 Mbit/s, RTT 300 us: alpha period of one RTT, timer of
	 * max(55 us, RTT / (F + 1)), R_AI Reno's pace spread over the timer
	 * events of an RTT; the byte counter at least one mss.
	 */
	dcqcn_params_for(&e, &t, LINE_100M, 300, 1448);
	assert_int_equal(e.timer_us, 55);
	assert_int_equal(e.alpha_period_us, 300);
	assert_int_equal(e.ai_bytes_ps, 1448 * 1000000 / 300 * 55 / 300);
	assert_int_equal(e.hai_bytes_ps,
			 10ULL * (1448 * 1000000 / 300 * 55 / 300));
	assert_int_equal(e.byte_counter_bytes, 1448);
	assert_int_equal(e.max_rate_bytes_ps, LINE_100M);

	/* 10 Gbit/s over 10 ms: one mss per RTT per RTT. */
	dcqcn_params_for(&e, &t, LINE_10G, 10000, 1448);
	assert_int_equal(e.timer_us, 10000 / 12);
	assert_int_equal(e.alpha_period_us, 10000);
	assert_int_equal(e.ai_bytes_ps, 144800 * (10000 / 12) / 10000);
	assert_int_equal(e.hai_bytes_ps, 10 * (144800 * (10000 / 12) / 10000));

	/*
	 * The Reno bound on absolute steps: 5 Mbit/s over 10 ms is more
	 * than one mss per RTT; R_HAI shrinks by the same factor.
	 */
	t.ai_bytes_ps = 625000;
	t.hai_bytes_ps = 6250000;
	dcqcn_params_for(&e, &t, LINE_10G, 10000, 1448);
	assert_int_equal(e.ai_bytes_ps, 144800);
	assert_in_range(e.hai_bytes_ps, 1447990, 1448000);
	/* Below the bound an absolute step is kept as it is. */
	dcqcn_params_for(&e, &t, LINE_10G, 100, 1448);
	assert_int_equal(e.ai_bytes_ps, 625000);
	assert_int_equal(e.hai_bytes_ps, 6250000);
	t.ai_bytes_ps = 0;
	t.hai_bytes_ps = 0;

	/* Floors: a line rate below min_rate lowers the floor; never 0. */
	dcqcn_params_for(&e, &t, 1000, 0, 0);
	assert_int_equal(e.max_rate_bytes_ps, 1000);
	assert_int_equal(e.min_rate_bytes_ps, 1000);
	assert_true(e.ai_bytes_ps >= 1 && e.hai_bytes_ps >= 1);
	assert_true(e.byte_counter_bytes >= 1);
	assert_true(dcqcn_params_valid(&e));
	dcqcn_params_for(&e, &t, 0, DCC_U32_MAX, DCC_U32_MAX);
	assert_true(dcqcn_params_valid(&e));
}

/*
 * The loss path's helpers: hold keeps the rate and decays alpha; settle
 * brings R_C down to the achieved rate only; the loss window halves the
 * flight, grows by one packet per window acked, doubles back on undo.
 */
static void test_loss_helpers(void **state)
{
	struct dcqcn_params p = ref_params();
	struct dcqcn_state s;
	u32 a0;
	int i;

	(void)state;
	dcqcn_state_init(&s, &p, LINE_100M, 0);
	dcqcn_loss_cut(&s, &p, 0, NULL);
	a0 = s.alpha_fx;
	dcqcn_hold(&s, &p, 100 * p.timer_us, NULL);
	assert_int_equal(s.rate_c_bytes_ps, LINE_100M / 2);
	assert_int_equal(s.timer_cnt, 0);
	assert_true(s.alpha_fx < a0);
	assert_int_equal(s.timer_stamp_us, 100 * p.timer_us);
	/* The first timer event after the hold comes one period later. */
	dcqcn_advance(&s, &p, 101 * p.timer_us - 1, NULL);
	assert_int_equal(s.timer_cnt, 0);
	dcqcn_advance(&s, &p, 101 * p.timer_us, NULL);
	assert_int_equal(s.timer_cnt, 1);

	/* No RTT known (no lead): to 5/4 of the achieved rate. */
	dcqcn_state_init(&s, &p, LINE_10G, 0);
	dcqcn_settle(&s, &p, LINE_100M);
	assert_int_equal(s.rate_c_bytes_ps, LINE_100M * 5 / 4);
	dcqcn_settle(&s, &p, LINE_10G);		/* never up */
	assert_int_equal(s.rate_c_bytes_ps, LINE_100M * 5 / 4);
	dcqcn_settle(&s, &p, 0);		/* unknown: unchanged */
	assert_int_equal(s.rate_c_bytes_ps, LINE_100M * 5 / 4);
	dcqcn_settle(&s, &p, 1);		/* from at least the floor */
	assert_int_equal(s.rate_c_bytes_ps, p.min_rate_bytes_ps * 5 / 4);

	assert_int_equal(dcqcn_lw_pkts(&s), DCC_U32_MAX);
	dcqcn_lw_cut(&s, 100);
	assert_int_equal(dcqcn_lw_pkts(&s), 50);
	for (i = 0; i < 50; i++)
		dcqcn_lw_ack(&s, 1);
	assert_int_equal(dcqcn_lw_pkts(&s), 50);	/* 50.99 */
	dcqcn_lw_ack(&s, 2);
	assert_int_equal(dcqcn_lw_pkts(&s), 51);
	dcqcn_lw_cut(&s, 1);
	assert_int_equal(dcqcn_lw_pkts(&s), 2);
	dcqcn_lw_undo(&s);
	assert_int_equal(dcqcn_lw_pkts(&s), 4);
	dcqcn_lw_cut(&s, DCC_U32_MAX);
	dcqcn_lw_ack(&s, DCC_U32_MAX);
	dcqcn_lw_undo(&s);
	assert_true(dcqcn_lw_pkts(&s) <= DCQCN_LW_MAX >> DCQCN_LW_SHIFT);
}

/*
 * Notification point: at most one notification per interval, ECE held up
 * inside it, down after it on an unmarked packet, separators when needed.
 */
static void test_np_rate_limit(void **state)
{
	struct dcqcn_np np;
	u32 r;
	u64 t;
	unsigned int notes = 0, ce = 0;

	(void)state;
	dcqcn_np_init(&np);
	/* An unmarked packet: nothing, ECE down. */
	assert_int_equal(dcqcn_np_packet(&np, 50, false, 0, false, true), 0);
	assert_int_equal(np.ece, 0);
	/* First mark: a notification without separator (ECE was down). */
	r = dcqcn_np_packet(&np, 50, true, 10, false, true);
	assert_int_equal(r, DCQCN_NP_NOTIFY);
	assert_int_equal(np.ece, 1);
	/* Unmarked inside the interval: held up. */
	assert_int_equal(dcqcn_np_packet(&np, 50, false, 30, false, true), 0);
	assert_int_equal(np.ece, 1);
	/* Marked inside: coalesced. */
	assert_int_equal(dcqcn_np_packet(&np, 50, true, 59, true, true),
			 DCQCN_NP_COALESCED);
	/* Marked at the interval's end with ECE still up: separator first. */
	r = dcqcn_np_packet(&np, 50, true, 60, false, true);
	assert_int_equal(r, DCQCN_NP_NOTIFY | DCQCN_NP_SEPARATE);
	/* Without SACK and no ACK owed: merged, retried on the next mark. */
	r = dcqcn_np_packet(&np, 50, true, 200, false, false);
	assert_int_equal(r, DCQCN_NP_MERGED);
	r = dcqcn_np_packet(&np, 50, true, 201, true, false);
	assert_int_equal(r, DCQCN_NP_NOTIFY | DCQCN_NP_SEPARATE);
	/* After the interval an unmarked packet brings ECE down. */
	assert_int_equal(dcqcn_np_packet(&np, 50, false, 260, false, true), 0);
	assert_int_equal(np.ece, 0);

	/* Every packet marked, one every 3 us for 10 ms: one per interval. */
	dcqcn_np_init(&np);
	for (t = 0; t < 10000; t += 3) {
		r = dcqcn_np_packet(&np, 50, true, t, (t / 3) & 1, true);
		ce++;
		notes += !!(r & DCQCN_NP_NOTIFY);
	}
	assert_true(notes <= 10000 / 50 + 1);
	assert_true(notes >= 10000 / 51 - 1);
	assert_true(ce > 10 * notes);
}

/*
 * Receiver and sender end to end: the sender's rising edges count exactly
 * the receiver's notifications, whatever the marks and the delayed ACKs.
 */
static void test_np_rp_edges(void **state)
{
	struct test_rng rng = { 12345 };
	struct dcqcn_np np;
	struct dcqcn_rp_echo e = { 0 };
	unsigned int notes = 0, fresh = 0, i;
	bool pending = false;
	u64 t = 0;

	(void)state;
	dcqcn_np_init(&np);
	for (i = 0; i < 100000; i++) {
		bool ce = rng_unit(&rng) < (i / 5000 % 2 ? 0.9 : 0.05);
		u32 r;

		t += rng_range(&rng, 0, 20);
		r = dcqcn_np_packet(&np, 50, ce, t, pending, true);
		if (r & DCQCN_NP_SEPARATE)	/* an ACK with ECE down */
			fresh += dcqcn_rp_echo(&e, false);
		if (r & DCQCN_NP_NOTIFY)
			notes++;
		/* Delayed ACK: every other packet, or at once on notify. */
		if (pending || (r & DCQCN_NP_NOTIFY)) {
			fresh += dcqcn_rp_echo(&e, np.ece);
			pending = false;
		} else {
			pending = true;
		}
	}
	assert_true(notes > 100);
	assert_int_equal(fresh, notes);
}

/* Random operations: rates within bounds, alpha <= 1, never 0. */
static void test_random_invariants(void **state)
{
	struct test_rng rng = { 0xdeadbeefcafeULL };
	unsigned int i, j;

	(void)state;
	for (i = 0; i < 200; i++) {
		struct dcqcn_params p;
		struct dcqcn_state s;
		u64 now = rng_next(&rng) >> 8;

		dcqcn_params_default(&p, rng_range(&rng, 1, 1ULL << 42));
		p.g_fx = (u32)rng_range(&rng, 0, 70000);
		p.alpha_period_us = (u32)rng_range(&rng, 0, 2000);
		p.timer_us = (u32)rng_range(&rng, 0, 2000);
		p.byte_counter_bytes = (u32)rng_range(&rng, 0, 1 << 24);
		p.fr_events = (u32)rng_range(&rng, 0, 20);
		p.ai_bytes_ps = rng_range(&rng, 0, 1ULL << 41);
		p.hai_bytes_ps = rng_range(&rng, 0, 1ULL << 41);
		p.min_rate_bytes_ps = rng_range(&rng, 0, 1ULL << 41);
		dcqcn_state_init(&s, &p, rng_next(&rng), now);
		for (j = 0; j < 300; j++) {
			u64 lo = dcqcn_clamp_rate(&p, 0);
			u64 hi = dcqcn_clamp_rate(&p, ~0ULL);

			now += rng_range(&rng, 0, 1000) -
			       (rng_unit(&rng) < 0.02 ? 5000 : 0);
			switch (rng_next(&rng) % 4) {
			case 0:
				dcqcn_on_cnp(&s, &p, now, NULL);
				break;
			case 1:
				dcqcn_loss_cut(&s, &p, now, NULL);
				break;
			default:
				dcqcn_on_bytes(&s, &p,
					       (u32)rng_range(&rng, 0, 1 << 22),
					       now, NULL);
				break;
			}
			assert_true(s.rate_c_bytes_ps >= lo);
			assert_true(s.rate_c_bytes_ps <= hi);
			assert_true(s.rate_t_bytes_ps <= hi);
			assert_true(s.rate_c_bytes_ps >= 1);
			assert_true(s.rate_t_bytes_ps >= s.rate_c_bytes_ps);
			assert_true(s.alpha_fx <= DCC_FX_ONE);
		}
	}
}

/*
 * Rate validation: increases stop at 5/4 of the achieved rate, never lower
 * a rate, and do nothing without an achieved rate.  Without it, the same
 * events (a flow that delivers 25 Mbit/s while its timer and byte counter
 * run) take R_C to the 10 Gbit/s ceiling.
 */
static void test_validate(void **state)
{
	struct dcqcn_params p = ref_params();
	struct dcqcn_state s, free_run;
	u64 achieved = 25000000 / 8, now = 0, bc, tc;
	int k;

	(void)state;
	dcqcn_state_init(&s, &p, LINE_10G, 0);
	dcqcn_settle(&s, &p, achieved);
	dcqcn_on_cnp(&s, &p, 1, NULL);
	free_run = s;
	for (k = 0; k < 2000; k++) {
		now += p.timer_us;
		bc = s.rate_c_bytes_ps;
		tc = s.rate_t_bytes_ps;
		dcqcn_on_bytes(&s, &p, p.byte_counter_bytes, now, NULL);
		dcqcn_validate(&s, &p, bc, tc, achieved);
		dcqcn_on_bytes(&free_run, &p, p.byte_counter_bytes, now, NULL);
		assert_true(s.rate_c_bytes_ps <= achieved * 5 / 4);
		assert_true(s.rate_t_bytes_ps <= achieved * 5 / 4);
	}
	assert_true(s.rate_c_bytes_ps >= achieved);
	assert_int_equal(free_run.rate_c_bytes_ps, LINE_10G);
	/* Never lowers: rates above the bound stay where they are. */
	s.rate_c_bytes_ps = achieved * 3;
	s.rate_t_bytes_ps = achieved * 4;
	assert_false(dcqcn_validate(&s, &p, achieved * 3, achieved * 4,
				    achieved));
	assert_int_equal(s.rate_c_bytes_ps, achieved * 3);
	assert_int_equal(s.rate_t_bytes_ps, achieved * 4);
	/* R_C may return towards the target (fast recovery)... */
	s.rate_c_bytes_ps = achieved * 3 + 1000;
	assert_false(dcqcn_validate(&s, &p, achieved * 3, achieved * 4,
				    achieved));
	assert_int_equal(s.rate_c_bytes_ps, achieved * 3 + 1000);
	/* ...but an increase beyond it is taken back to where it started. */
	s.rate_c_bytes_ps = achieved * 4 + 1000;
	s.rate_t_bytes_ps = achieved * 4 + 2000;
	assert_true(dcqcn_validate(&s, &p, achieved * 3, achieved * 4,
				   achieved));
	assert_int_equal(s.rate_c_bytes_ps, achieved * 4);
	assert_int_equal(s.rate_t_bytes_ps, achieved * 4);
	/* Unknown achieved rate: no bound. */
	s.rate_c_bytes_ps = LINE_10G;
	assert_false(dcqcn_validate(&s, &p, 1, 1, 0));
	assert_int_equal(s.rate_c_bytes_ps, LINE_10G);
	/* Huge achieved rates: no overflow, the ceiling holds. */
	assert_false(dcqcn_validate(&s, &p, 1, 1, ~0ULL));
	assert_true(s.rate_c_bytes_ps <= p.max_rate_bytes_ps);
}

/*
 * A flow notified once per RTT (a queue that marks every packet above a
 * step: every interval has marks), at 100 Mbit/s with an RTT of 2.7 ms;
 * the flow acks what it sends.  Returns R_C after 2000 RTTs, from
 * 25 Mbit/s; timer_rtt: the increase timer lasts a whole RTT.
 */
static u64 persistent_marking(bool timer_rtt)
{
	struct dcqcn_params t = ref_params(), p;
	struct dcqcn_state s;
	u64 now = 0, start = 25000000 / 8;
	const u32 rtt = 2700;
	int k;

	t.ai_bytes_ps = 0;
	t.hai_bytes_ps = 0;
	t.byte_counter_bytes = 0;
	dcqcn_params_for(&p, &t, LINE_100M, rtt, 1448);
	if (timer_rtt)
		p.timer_us = rtt;
	dcqcn_state_init(&s, &p, start, 0);
	for (k = 0; k < 2000; k++) {
		now += rtt;
		dcqcn_on_bytes(&s, &p, (u32)(s.rate_c_bytes_ps * rtt / 1000000),
			       now, NULL);
		dcqcn_on_cnp(&s, &p, now, NULL);
	}
	return s.rate_c_bytes_ps;
}

/*
 * The increase timer lasts an RTT / (F + 1): fast recovery completes
 * between two notifications one RTT apart and the rate does not collapse
 * under persistent marking.  With a timer of one RTT the sender stays in
 * fast recovery, which only returns towards R_T, every cut sets R_T to
 * the rate already cut, and the rate falls to the floor.
 */
static void test_persistent_marking(void **state)
{
	struct dcqcn_params p = ref_params();

	(void)state;
	assert_true(persistent_marking(false) >= 25000000 / 8 / 4);
	assert_true(persistent_marking(true) <= 2 * p.min_rate_bytes_ps);
}

/*
 * The lead: with the RTT known, R_C may lie at most one mss per RTT above
 * the achieved rate (a full bottleneck's queue grows by a packet per RTT
 * per flow, as Reno's), not a quarter of the achieved rate (which lets
 * the queue grow by a quarter of the flow's window every RTT).
 */
static void test_lead_additive(void **state)
{
	struct dcqcn_params t = ref_params(), p;
	struct dcqcn_state s;
	const u32 rtt = 2700, mss = 1448;
	u64 achieved = 80000000 / 8, now = 0, bc, tc, lead;
	int k;

	(void)state;
	dcqcn_params_for(&p, &t, LINE_100M, rtt, mss);
	lead = (u64)mss * 1000000 / rtt;
	assert_int_equal(p.lead_bytes_ps, lead);
	dcqcn_state_init(&s, &p, achieved, 0);
	for (k = 0; k < 2000; k++) {
		now += p.timer_us;
		bc = s.rate_c_bytes_ps;
		tc = s.rate_t_bytes_ps;
		dcqcn_on_bytes(&s, &p, p.byte_counter_bytes, now, NULL);
		dcqcn_validate(&s, &p, bc, tc, achieved);
		assert_true(s.rate_c_bytes_ps <= achieved + lead);
		assert_true(s.rate_t_bytes_ps <= achieved + lead);
	}
	/* It gets there: the bound is a ceiling, not a brake. */
	assert_int_equal(s.rate_c_bytes_ps, achieved + lead);
	/* The queue it builds: at most one mss per RTT. */
	assert_true((s.rate_c_bytes_ps - achieved) * rtt / 1000000 <= mss);
	/* Before an RTT is known: a quarter of the achieved rate. */
	dcqcn_params_for(&p, &t, LINE_100M, 0, mss);
	assert_int_equal(p.lead_bytes_ps, 0);
	s.rate_c_bytes_ps = LINE_100M;
	dcqcn_settle(&s, &p, achieved);
	assert_int_equal(s.rate_c_bytes_ps, achieved * 5 / 4);
}

/*
 * A cut starts from at most the achieved rate plus the lead, not from the
 * achieved rate: a paced flow of one or two packets per RTT knows its
 * achieved rate to a whole packet per RTT only.
 */
static void test_settle_lead(void **state)
{
	struct dcqcn_params t = ref_params(), p;
	struct dcqcn_state s;
	const u32 rtt = 2700, mss = 1448;
	u64 lead, rc = 5800000 / 8, achieved = 4300000 / 8;

	(void)state;
	dcqcn_params_for(&p, &t, LINE_100M, rtt, mss);
	lead = p.lead_bytes_ps;
	dcqcn_state_init(&s, &p, rc, 0);
	dcqcn_settle(&s, &p, achieved);
	assert_int_equal(s.rate_c_bytes_ps, rc);
	s.rate_c_bytes_ps = 20000000 / 8;
	dcqcn_settle(&s, &p, achieved);
	assert_int_equal(s.rate_c_bytes_ps, achieved + lead);
	/* Unknown achieved rate: no change. */
	s.rate_c_bytes_ps = LINE_100M;
	dcqcn_settle(&s, &p, 0);
	assert_int_equal(s.rate_c_bytes_ps, LINE_100M);
}

/*
 * Next to a DCTCP flow that holds a step-marking queue at its threshold:
 * the dcqcn flow is notified every RTT (2.7 ms) and its achieved rate, as
 * the glue measures it, is its flight in whole packets over the RTT
 * (rounded down, at least one packet).  Each RTT: a notification (settle,
 * cut), then the timer's increase events, each validated.  The rate must
 * not ratchet down to the one-packet-per-RTT floor (4.3 Mbit/s): it kept
 * 5 % of the link when each cut started from that floor.
 */
static void test_quantized_achieved(void **state)
{
	struct dcqcn_params t = ref_params(), p;
	struct dcqcn_state s;
	const u32 rtt = 2700, mss = 1448;
	u64 now = 0, start = 25000000 / 8, ach, bc, tc, pkts;
	int k, e;

	(void)state;
	t.ai_bytes_ps = 0;
	t.hai_bytes_ps = 0;
	t.byte_counter_bytes = 0;
	dcqcn_params_for(&p, &t, LINE_100M, rtt, mss);
	dcqcn_state_init(&s, &p, start, 0);
	for (k = 0; k < 2000; k++) {
		for (e = 0; e < 6; e++) {
			now += rtt / 6;
			pkts = s.rate_c_bytes_ps * rtt / 1000000 / mss;
			ach = (pkts ? pkts : 1) * mss * 1000000 / rtt;
			bc = s.rate_c_bytes_ps;
			tc = s.rate_t_bytes_ps;
			dcqcn_on_bytes(&s, &p, (u32)(s.rate_c_bytes_ps * rtt /
						     6 / 1000000), now, NULL);
			dcqcn_validate(&s, &p, bc, tc, ach);
		}
		pkts = s.rate_c_bytes_ps * rtt / 1000000 / mss;
		ach = (pkts ? pkts : 1) * mss * 1000000 / rtt;
		dcqcn_settle(&s, &p, ach);
		dcqcn_on_cnp(&s, &p, now, NULL);
	}
	/* At least 3 packets per RTT (16 Mbit/s). */
	assert_true(s.rate_c_bytes_ps >= 3ULL * mss * 1000000 / rtt);
}

/*
 * A notification's cut stays in force half an RTT (cut_hold_us from
 * dcqcn_params_for()), timer and byte counter alike; then fast recovery
 * and one additive step run in the second half (timer RTT / 2(F + 1)),
 * so a notification every RTT still finds R_T restored.  Without the
 * hold, fast recovery at RTT / (F + 1) undid the cut within a third of
 * the RTT, and a queue marking every RTT stood (RED-ECN).
 */
static void test_cut_held(void **state)
{
	struct dcqcn_params t = ref_params(), p;
	struct dcqcn_state s;
	u64 cut_rate, t0 = 1000000;
	const u32 rtt = 2400;

	(void)state;
	t.ai_bytes_ps = 0;
	t.hai_bytes_ps = 0;
	t.byte_counter_bytes = 0;
	dcqcn_params_for(&p, &t, LINE_100M, rtt, 1500);
	assert_int_equal(p.timer_us, rtt / 12);
	dcqcn_state_init(&s, &p, LINE_100M, t0);
	dcqcn_on_cnp(&s, &p, t0, NULL);
	cut_rate = s.rate_c_bytes_ps;
	assert_int_equal(cut_rate, LINE_100M / 2);
	/* Through half the RTT, timer and byte counter alike: nothing. */
	dcqcn_advance(&s, &p, t0 + rtt / 4, NULL);
	assert_int_equal(s.rate_c_bytes_ps, cut_rate);
	dcqcn_on_bytes(&s, &p, 1000000, t0 + rtt / 2 - 1, NULL);
	assert_int_equal(s.rate_c_bytes_ps, cut_rate);
	assert_int_equal(s.stage, DCQCN_STAGE_CUT);
	assert_int_equal(s.timer_cnt + s.byte_cnt, 0);
	/* The first fast-recovery event half an RTT after the cut. */
	dcqcn_advance(&s, &p, t0 + rtt / 2, NULL);
	assert_int_equal(s.stage, DCQCN_STAGE_FR);
	assert_int_equal(s.timer_cnt, 1);
	assert_true(s.rate_c_bytes_ps > cut_rate);
	/* Then one per timer period: F + 1 by the next RTT, R_T restored. */
	dcqcn_advance(&s, &p, t0 + rtt, NULL);
	assert_int_equal(s.timer_cnt, 7);
	assert_int_equal(s.stage, DCQCN_STAGE_AI);
	assert_true(s.rate_t_bytes_ps > LINE_100M - 1 || s.rate_c_bytes_ps >
		    LINE_100M - LINE_100M / 64);
	/* A loss cut is not held (TCP's recovery holds the rate). */
	dcqcn_loss_cut(&s, &p, t0 + 2 * rtt, NULL);
	dcqcn_advance(&s, &p, t0 + 2 * rtt + p.timer_us, NULL);
	assert_int_equal(s.timer_cnt, 1);
}

/*
 * A delivery-rate sample is a rate over at least the smoothed RTT.  The
 * bed's trace: a flow paced at 14 Mbit/s through a 100 Mbit/s link, its
 * receiver releasing held ACKs in a bunch, read 11 packets delivered
 * 414 us after one packet's send (307 Mbit/s) with srtt 3 ms; over the
 * RTT those 11 packets are 42 Mbit/s, the flight it had ahead of the
 * packet.  A sample over more than the RTT is kept as it is.
 */
static void test_delivery_rate(void **state)
{
	const u64 mss = 1448;
	u64 r;

	(void)state;
	r = dcqcn_delivery_rate(11 * mss, 414, 3000);
	assert_int_equal(r, 11 * mss * 1000000 / 3000);
	assert_true(r < LINE_100M / 2);
	/* Longer than the RTT: the sample's own interval. */
	assert_int_equal(dcqcn_delivery_rate(40 * mss, 5000, 3000),
			 40 * mss * 1000000 / 5000);
	/* RTT unknown: the sample as it is. */
	assert_int_equal(dcqcn_delivery_rate(11 * mss, 414, 0),
			 11 * mss * 1000000 / 414);
	/* Unknown sample: 0; huge ones do not overflow. */
	assert_int_equal(dcqcn_delivery_rate(0, 414, 3000), 0);
	assert_int_equal(dcqcn_delivery_rate(11 * mss, 0, 3000), 0);
	assert_int_equal(dcqcn_delivery_rate(~0ULL, 1, 0),
			 (1ULL << 43) * 1000000);
	assert_true(dcqcn_delivery_rate(~0ULL, DCC_U32_MAX, DCC_U32_MAX) > 0);
}

/*
 * One RTT of fast recovery, each packet in flight acked by its own ACK
 * (in order, or SACKed if sack): returns the flight after it; *del and
 * *out are PRR's counts, updated as the glue and TCP keep them.
 */
static u32 recovery_round(u32 f, u32 bound, bool sack, u32 *del, u32 *out)
{
	u32 n = f, i, w;

	for (i = 0; i < n; i++) {
		f--;
		(*del)++;
		w = dcqcn_recovery_cwnd(f, 1, *del, *out, !sack, false, bound);
		if (w > f) {
			*out += w - f;
			f = w;
		}
	}
	return f;
}

/*
 * Fast recovery's window (Linux's PRR with its slow-start reduction
 * bound).  Traced on the bench's join-leave bed (1000-packet drop-tail
 * FIFO kept full by another flow): the joiner slow-started to 906
 * packets in flight, entered recovery with a loss window of 484 and no
 * packet left in flight, and with packet conservation (one out per one
 * delivered) sent one packet per RTT for its remaining 4 s.  The flight
 * must grow back to the bound when ACKs fill holes, as Linux's Reno does
 * (doubling per RTT), never beyond the bound, and not faster than Reno:
 * SACKs that advance nothing, or report new losses, send only what they
 * delivered (one more per SACK lost more than Reno to a shallow FIFO).
 */
static void test_recovery_cwnd(void **state)
{
	const u32 bound = 484;
	u32 f = 1, round, del = 0, out = 1, prev;

	(void)state;
	/* ACKs that advance snd_una: the flight doubles every RTT. */
	for (round = 0; round < 12 && f < bound; round++) {
		prev = f;
		f = recovery_round(f, bound, false, &del, &out);
		assert_true(f <= bound);
		if (f < bound)
			assert_int_equal(f, 2 * prev);
	}
	assert_int_equal(f, bound);
	assert_true(round <= 9);
	/* SACKs only: conservation, the flight stays where it is. */
	f = 1;
	del = 0;
	out = 1;
	for (round = 0; round < 10; round++)
		f = recovery_round(f, bound, true, &del, &out);
	assert_int_equal(f, 1);
	/* The advance does not count with a new loss. */
	assert_int_equal(dcqcn_recovery_cwnd(10, 1, 5, 5, true, true, bound),
			 11);
	assert_int_equal(dcqcn_recovery_cwnd(10, 1, 5, 5, true, false, bound),
			 12);
	/* Deliveries not yet sent again may go (PRR's credit). */
	assert_int_equal(dcqcn_recovery_cwnd(10, 1, 30, 5, false, false,
					     bound), 35);
	/* At or above the bound nothing is sent... */
	assert_int_equal(dcqcn_recovery_cwnd(bound, 1, 9, 1, true, false,
					     bound), bound);
	assert_int_equal(dcqcn_recovery_cwnd(600, 3, 900, 1, true, false,
					     bound), 600);
	assert_int_equal(dcqcn_recovery_cwnd(bound - 1, 3, 900, 1, true,
					     false, bound), bound);
	/* ...but the fast retransmission, once. */
	assert_int_equal(dcqcn_recovery_cwnd(600, 1, 1, 0, false, false,
					     bound), 601);
	/* An ACK that delivered nothing sends nothing new. */
	assert_int_equal(dcqcn_recovery_cwnd(10, 0, 0, 1, false, false,
					     bound), 10);
	/* Extremes stay in range. */
	assert_int_equal(dcqcn_recovery_cwnd(DCC_U32_MAX, DCC_U32_MAX, 0, 0,
					     true, false, 5), DCC_U32_MAX);
	assert_int_equal(dcqcn_recovery_cwnd(0, DCC_U32_MAX, DCC_U32_MAX, 0,
					     true, false, DCC_U32_MAX),
			 DCC_U32_MAX);
	assert_int_equal(dcqcn_recovery_cwnd(0, 0, 0, 1, false, false, 0), 0);
	assert_int_equal(dcqcn_recovery_cwnd(0, 5, 0, 1, true, false, 0), 1);
}

/*
 * A notification bounds the window (dcqcn_lw_notify()): at the flight it
 * found, then one packet more per window acked whatever the rate does;
 * the next notification cuts it as the rate (by alpha / 2), or takes it
 * to the flight if that is higher, never above the bound before.
 */
static void test_notify_window(void **state)
{
	struct dcqcn_params p = ref_params();
	struct dcqcn_state s;
	u32 w, i;

	(void)state;
	p.max_rate_bytes_ps = LINE_100M;
	dcqcn_state_init(&s, &p, LINE_100M, 0);
	assert_int_equal(dcqcn_lw_pkts(&s), DCC_U32_MAX);	/* no bound */
	/* The first notification: the flight, whatever alpha is. */
	dcqcn_lw_notify(&s, 20, DCC_FX_ONE);
	dcqcn_on_cnp(&s, &p, 0, NULL);
	assert_int_equal(dcqcn_lw_pkts(&s), 20);
	/* The rate climbs to the line (hyper increase); the window does not. */
	dcqcn_advance(&s, &p, 100000, NULL);
	assert_int_equal(s.rate_c_bytes_ps, LINE_100M);
	assert_int_equal(dcqcn_lw_pkts(&s), 20);
	/* One packet per window acked. */
	for (i = 0; i < 21; i++)
		dcqcn_lw_ack(&s, 1);
	assert_int_equal(dcqcn_lw_pkts(&s), 21);
	/* A smaller flight (paced below the window): cut by alpha / 2 only. */
	w = s.loss_cwnd_fx;
	dcqcn_lw_notify(&s, 8, DCC_FX_ONE / 2);
	assert_int_equal(s.loss_cwnd_fx, w - w / 4);
	assert_int_equal(dcqcn_lw_pkts(&s), 15);
	/* A flight between: the flight. */
	dcqcn_lw_notify(&s, 14, DCC_FX_ONE / 2);
	assert_int_equal(dcqcn_lw_pkts(&s), 14);
	/* Never raised (a flight above the bound after a loss's cut). */
	dcqcn_lw_cut(&s, 10);
	dcqcn_lw_notify(&s, 10, 0);
	assert_int_equal(dcqcn_lw_pkts(&s), 5);
	/* alpha 0 keeps the bound, alpha 1 halves it; never below 2. */
	dcqcn_lw_notify(&s, 0, DCC_FX_ONE);
	assert_int_equal(s.loss_cwnd_fx, 5 << DCQCN_LW_SHIFT >> 1);
	dcqcn_lw_notify(&s, 0, DCC_FX_ONE);
	dcqcn_lw_notify(&s, 0, DCC_FX_ONE);
	assert_int_equal(dcqcn_lw_pkts(&s), 2);
	dcqcn_state_init(&s, &p, LINE_100M, 0);
	dcqcn_lw_notify(&s, 0, 0);
	assert_int_equal(dcqcn_lw_pkts(&s), 2);
	/* Extremes stay in range. */
	dcqcn_state_init(&s, &p, LINE_100M, 0);
	dcqcn_lw_notify(&s, DCC_U32_MAX, DCC_U32_MAX);
	assert_int_equal(s.loss_cwnd_fx, DCQCN_LW_MAX);
	dcqcn_lw_notify(&s, DCC_U32_MAX, DCC_U32_MAX);
	assert_int_equal(s.loss_cwnd_fx, DCQCN_LW_MAX);
}

/*
 * A loss's bound starts from what the path carries in an RTT when the
 * flight is larger: slow start's overshoot into the bench's 1000-packet
 * FIFO (100 Mbit/s, 120 ms RTT with the queue full, 1986 packets in
 * flight at the first loss, half of them beyond the path) gives a bound
 * of half the path, ~518 packets, not 993, which held that queue full
 * (see dcqcn_loss_flight()).
 */
static void test_loss_flight(void **state)
{
	struct dcqcn_params p = ref_params();
	struct dcqcn_state s;
	u32 path = (u32)(LINE_100M / 1000 * 120000 / (1448 * 1000));

	(void)state;
	dcqcn_state_init(&s, &p, LINE_100M, 0);
	dcqcn_lw_cut(&s, dcqcn_loss_flight(1986, LINE_100M, 120000, 1448));
	assert_int_equal(dcqcn_lw_pkts(&s), path / 2);
	assert_true(dcqcn_lw_pkts(&s) >= 500 && dcqcn_lw_pkts(&s) <= 520);
	/* Congestion avoidance: flight and path agree (to a packet). */
	assert_true(dcqcn_loss_flight(500, 500ULL * 1448 * 1000000 / 60000,
				      60000, 1448) >= 499);
	assert_int_equal(dcqcn_loss_flight(40, LINE_100M, 120000, 1448), 40);
	/* Unknown rate, RTT or mss: the flight. */
	assert_int_equal(dcqcn_loss_flight(1986, 0, 120000, 1448), 1986);
	assert_int_equal(dcqcn_loss_flight(1986, LINE_100M, 0, 1448), 1986);
	assert_int_equal(dcqcn_loss_flight(1986, LINE_100M, 120000, 0), 1986);
	/* Extremes: no overflow, at least one packet, at most the flight. */
	assert_int_equal(dcqcn_loss_flight(DCC_U32_MAX, ~0ULL, DCC_U32_MAX, 1),
			 DCC_U32_MAX);
	assert_int_equal(dcqcn_loss_flight(7, 1, 1, DCC_U32_MAX), 1);
	assert_int_equal(dcqcn_loss_flight(0, LINE_100M, 120000, 1448), 0);
}

/* Jain's index of n window bounds, in double. */
static double jain_pkts(const u32 *w, int n)
{
	double sum = 0, sq = 0;
	int i;

	for (i = 0; i < n; i++) {
		sum += w[i];
		sq += (double)w[i] * w[i];
	}
	return sum * sum / (n * sq);
}

/*
 * The bounds one overflow of the bench's join-leave FIFO sets, traced
 * (Documentation/dcqcn.rst, "Half of what the path carries"): the third
 * flow slow-starts into the half of the 1000-packet FIFO the two
 * incumbents leave free, and at the overflow has 968 packets in flight,
 * of which the path delivered 470 in the RTT (120 ms); the incumbents
 * have 256 and 264.  Each bound alone: 235 beside 128 and 132, Jain's
 * index 0.91.  Flows of one host to one destination that lose in the
 * same episode take the mean of their bounds (dcqcn_ep_loss(),
 * dcqcn_ep_mean(), dcqcn_share()): 165 each, the rates moving with the
 * bounds; a loser's bound is raised to no more than twice itself, and a
 * flow of the destination that did not lose is only lowered.
 */
static void test_loss_share(void **state)
{
	struct dcqcn_params p = ref_params();
	u32 win = 240000, flights[3] = { 968, 256, 264 }, w[3], mean, b0;
	u64 rate = 470ULL * 1448 * 1000000 / 120000;	/* 470 pkts / RTT */
	u64 ep = 0, t = 5000000, rc, rt;
	struct dcqcn_state s[3], other;
	int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		dcqcn_state_init(&s[i], &p, LINE_100M, 0);
		dcqcn_lw_cut(&s[i], dcqcn_loss_flight(flights[i],
						      i ? 0 : rate, 120000,
						      1448));
		w[i] = dcqcn_lw_pkts(&s[i]);
		s[i].rate_c_bytes_ps = LINE_100M / 4;
		s[i].rate_t_bytes_ps = LINE_100M / 2;
	}
	assert_true(w[0] >= 234 && w[0] <= 236);
	assert_int_equal(w[1], 128);
	assert_int_equal(w[2], 132);
	assert_true(jain_pkts(w, 3) < 0.92);	/* each alone: unfair */

	/* One loss alone is no episode: nothing to share. */
	ep = dcqcn_ep_loss(ep, t, win, w[0]);
	assert_int_equal(dcqcn_ep_mean(ep, t, win), 0);
	assert_false(dcqcn_share(&s[0], &p, dcqcn_ep_mean(ep, t, win), true));
	/* The incumbents lose in the same RTT (within the window). */
	ep = dcqcn_ep_loss(ep, t + 30000, win, w[1]);
	ep = dcqcn_ep_loss(ep, t + 90000, win, w[2]);
	mean = dcqcn_ep_mean(ep, t + 100000, win);
	assert_int_equal(mean, (w[0] + w[1] + w[2]) / 3);
	for (i = 0; i < 3; i++) {
		b0 = s[i].loss_cwnd_fx;
		assert_true(dcqcn_share(&s[i], &p, mean, true));
		w[i] = dcqcn_lw_pkts(&s[i]);
		assert_int_equal(w[i], mean);
		/* The rates moved with the bound (to 1 in 2^16). */
		rt = (LINE_100M / 2) * ((u64)mean << DCQCN_LW_SHIFT) / b0;
		assert_true(s[i].rate_t_bytes_ps <= rt &&
			    s[i].rate_t_bytes_ps + rt / 65536 + 1 >= rt);
		assert_true(s[i].rate_c_bytes_ps * 2 <= s[i].rate_t_bytes_ps + 1 &&
			    s[i].rate_c_bytes_ps * 2 + 2 >= s[i].rate_t_bytes_ps);
	}
	assert_true(jain_pkts(w, 3) >= 0.999);
	/* Held there: a second look changes nothing. */
	assert_false(dcqcn_share(&s[1], &p, mean, true));

	/* A flow of the destination that did not lose: lowered, not raised. */
	dcqcn_state_init(&other, &p, LINE_100M, 0);
	dcqcn_lw_cut(&other, 500);
	rc = other.rate_c_bytes_ps;
	assert_true(dcqcn_share(&other, &p, mean, false));
	assert_int_equal(dcqcn_lw_pkts(&other), mean);
	assert_true(other.rate_c_bytes_ps < rc);
	dcqcn_lw_cut(&other, 100);
	assert_false(dcqcn_share(&other, &p, mean, false));
	assert_int_equal(dcqcn_lw_pkts(&other), 50);
	/* A loser far below: to twice its bound at most. */
	rc = other.rate_c_bytes_ps;
	assert_true(dcqcn_share(&other, &p, mean, true));
	assert_int_equal(dcqcn_lw_pkts(&other), 100);
	assert_int_equal(other.rate_c_bytes_ps, dcqcn_clamp_rate(&p, 2 * rc));
	/* A flow without a bound (no loss yet) keeps none. */
	dcqcn_state_init(&other, &p, LINE_100M, 0);
	assert_false(dcqcn_share(&other, &p, mean, true));
	assert_int_equal(dcqcn_lw_pkts(&other), DCC_U32_MAX);
	/* Mean 0 (no episode) changes nothing; a mean of 1 holds 2. */
	dcqcn_lw_cut(&other, 500);
	assert_false(dcqcn_share(&other, &p, 0, true));
	assert_int_equal(dcqcn_lw_pkts(&other), 250);
	assert_true(dcqcn_share(&other, &p, 1, false));
	assert_int_equal(dcqcn_lw_pkts(&other), 2);
	/* Rates stay in [floor, line]. */
	other.rate_c_bytes_ps = LINE_100M;
	other.rate_t_bytes_ps = LINE_100M;
	assert_true(dcqcn_share(&other, &p, 4, true));
	assert_true(other.rate_c_bytes_ps <= p.max_rate_bytes_ps);
	dcqcn_lw_cut(&other, DCC_U32_MAX);
	assert_true(dcqcn_share(&other, &p, 2, false));
	assert_int_equal(other.rate_c_bytes_ps, p.min_rate_bytes_ps);

	/* The episode ends win_us after its first loss. */
	assert_int_equal(dcqcn_ep_mean(ep, t + win - 1, win), mean);
	assert_int_equal(dcqcn_ep_mean(ep, t + win, win), 0);
	/* A loss after it starts a new one. */
	ep = dcqcn_ep_loss(ep, t + win, win, 10);
	assert_int_equal(dcqcn_ep_mean(ep, t + win, win), 0);
	ep = dcqcn_ep_loss(ep, t + win + 1, win, 30);
	assert_int_equal(dcqcn_ep_mean(ep, t + win + 1, win), 20);
	/* A clock before the start (another CPU's): no episode read. */
	assert_int_equal(dcqcn_ep_mean(ep, t, win), 0);
	/* Across the 32-bit wrap of the microsecond clock. */
	t = (1ULL << 32) - 1000;
	ep = dcqcn_ep_loss(0, t, win, 100);
	ep = dcqcn_ep_loss(ep, t + 2000, win, 50);
	assert_int_equal(dcqcn_ep_mean(ep, t + 3000, win), 75);
	/* Saturation: the count and the sum stay consistent. */
	ep = 0;
	for (i = 0; i < 300; i++)
		ep = dcqcn_ep_loss(ep, t, win, DCC_U32_MAX);
	assert_int_equal(dcqcn_ep_count(ep), 1);	/* one, saturated */
	assert_int_equal(dcqcn_ep_sum(ep), DCQCN_EP_SUM_MAX);
	assert_int_equal(dcqcn_ep_mean(ep, t, win), 0);
	ep = 0;
	for (i = 0; i < 300; i++)
		ep = dcqcn_ep_loss(ep, t, win, 1U << 22);
	assert_int_equal(dcqcn_ep_count(ep), 3);	/* a 4th overflows */
	assert_int_equal(dcqcn_ep_mean(ep, t, win), 1U << 22);
	ep = 0;
	for (i = 0; i < 300; i++)
		ep = dcqcn_ep_loss(ep, t, win, 7);
	assert_int_equal(dcqcn_ep_count(ep), DCQCN_EP_COUNT_MAX);
	assert_int_equal(dcqcn_ep_mean(ep, t, win), 7);
	/* A window of 0 us: every loss alone. */
	ep = dcqcn_ep_loss(0, t, 0, 10);
	ep = dcqcn_ep_loss(ep, t, 0, 30);
	assert_int_equal(dcqcn_ep_mean(ep, t, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_params_default),
		cmocka_unit_test(test_init),
		cmocka_unit_test(test_alpha_notifications),
		cmocka_unit_test(test_alpha_decay),
		cmocka_unit_test(test_alpha_decay_lazy),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_stages_timer),
		cmocka_unit_test(test_stages_both),
		cmocka_unit_test(test_byte_counter),
		cmocka_unit_test(test_timer_lazy),
		cmocka_unit_test(test_clamps),
		cmocka_unit_test(test_time_backwards),
		cmocka_unit_test(test_loss_cut),
		cmocka_unit_test(test_params_for),
		cmocka_unit_test(test_loss_helpers),
		cmocka_unit_test(test_np_rate_limit),
		cmocka_unit_test(test_np_rp_edges),
		cmocka_unit_test(test_random_invariants),
		cmocka_unit_test(test_validate),
		cmocka_unit_test(test_persistent_marking),
		cmocka_unit_test(test_lead_additive),
		cmocka_unit_test(test_settle_lead),
		cmocka_unit_test(test_quantized_achieved),
		cmocka_unit_test(test_cut_held),
		cmocka_unit_test(test_delivery_rate),
		cmocka_unit_test(test_recovery_cwnd),
		cmocka_unit_test(test_notify_window),
		cmocka_unit_test(test_loss_flight),
		cmocka_unit_test(test_loss_share),
	};

	return cmocka_run_group_tests_name("dcc_dcqcn", tests, NULL, NULL);
}
