// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of include/dcc_timely.h (TIMELY and patched TIMELY).
 *
 * Expectations come from a double-precision model of the published
 * algorithm written here (ref_step()), from closed forms (the patched
 * variant's fixed point) or from exact integer arithmetic, never from the
 * helpers under test.  The one thing the model shares with the header is
 * the documented resolution of the RTT-difference EWMA (2^-16 us, rounded
 * toward zero): without it a constant RTT would leave the double EWMA a
 * vanishing positive value forever and the two would take different
 * branches.
 */
#include <stdlib.h>

#include "dcc_test.h"

#include "dcc_basedelay.h"
#include "dcc_timely.h"
#include "dcc_pacing.h"

typedef unsigned __int128 u128;

#define ONE_D		65536.0
#define LINE_10G	1250000000ULL	/* 10 Gbit/s in bytes per second */
/* A rate as the line-rate estimator stores it (256 B/s units). */
#define UNIT_RATE(b)	((b) >> DCC_LINERATE_UNIT_SHIFT << DCC_LINERATE_UNIT_SHIFT)

_Static_assert(sizeof(struct timely_state) <= 72,
	       "timely_state must fit the congestion-control area");

static double fx_d(u32 fx)
{
	return fx / ONE_D;
}

/* Paper defaults at 10 Gbit/s, written out (not timely_params_default()). */
static struct timely_params paper_params(void)
{
	struct timely_params p = {
		.variant = TIMELY_VARIANT_PAPER,
		.ewma_alpha_fx = 57344,		/* 0.875 */
		.beta_fx = 52429,		/* 0.8 */
		.patched_beta_fx = 524,		/* 0.008 */
		.max_dec_fx = 32768,		/* 0.5 */
		.t_low_us = 50,
		.t_high_us = 500,
		.min_rtt_us = 20,
		.hai_thresh = 5,
		.hai_n = 5,
		.delta_bytes_ps = 1250000,	/* 10 Mbit/s */
		.min_rate_bytes_ps = 125000,	/* 1 Mbit/s */
		.max_rate_bytes_ps = LINE_10G,
		.line_rate_bytes_ps = LINE_10G,
	};

	return p;
}

static struct timely_params patched_params(void)
{
	struct timely_params p = paper_params();

	p.variant = TIMELY_VARIANT_PATCHED;
	return p;
}

/* ---- double-precision reference model ---- */

struct ref_state {
	double rate;
	double diff;		/* EWMA of RTT differences, us */
	double prev;
	unsigned int neg;	/* completions in a row with g <= 0 */
	bool valid;
};

static void ref_init(struct ref_state *r, const struct timely_params *p,
		     double rate)
{
	r->rate = fmin(fmax(rate, (double)p->min_rate_bytes_ps),
		       (double)p->max_rate_bytes_ps);
	r->diff = 0;
	r->prev = 0;
	r->neg = 0;
	r->valid = false;
}

/* One completion of Algorithm 1 / patched TIMELY; returns the regime. */
static int ref_step(struct ref_state *r, const struct timely_params *p,
		    double rtt)
{
	double a = fx_d(p->ewma_alpha_fx), b = fx_d(p->beta_fx);
	double bp = fx_d(p->patched_beta_fx), md = fx_d(p->max_dec_fx);
	double tl = p->t_low_us, th = p->t_high_us;
	double delta = (double)p->delta_bytes_ps;
	double g, f;
	int regime;

	if (!r->valid) {
		r->prev = rtt;
		r->valid = true;
		return TIMELY_FIRST;
	}
	r->diff = (1 - a) * r->diff + a * (rtt - r->prev);
	r->diff = trunc(r->diff * ONE_D) / ONE_D;	/* header resolution */
	r->prev = rtt;
	g = r->diff / p->min_rtt_us;
	r->neg = g > 0 ? 0 : r->neg + 1;

	if (rtt < tl) {
		r->rate += delta;
		regime = TIMELY_AI_LOW;
	} else if (rtt > th) {
		f = 1 - b * (1 - th / rtt);
		r->rate *= fmax(f, 1 - md);
		regime = TIMELY_MD_HIGH;
	} else if (p->variant == TIMELY_VARIANT_PATCHED) {
		double w = g <= -0.25 ? 0 : g >= 0.25 ? 1 : 2 * g + 0.5;
		double err = (rtt - tl) / tl;

		f = fmax(1 - bp * w * err, 1 - md);
		r->rate = delta * (1 - w) + r->rate * f;
		regime = TIMELY_PATCHED;
	} else if (g <= 0) {
		bool hai = r->neg >= p->hai_thresh;

		r->rate += (hai ? p->hai_n : 1) * delta;
		regime = hai ? TIMELY_HAI : TIMELY_AI;
	} else {
		r->rate *= fmax(1 - b * g, 1 - md);
		regime = TIMELY_MD_GRAD;
	}
	r->rate = fmin(fmax(r->rate, (double)p->min_rate_bytes_ps),
		       (double)p->max_rate_bytes_ps);
	return regime;
}

/* ---- 1. sequences against the reference ---- */

enum seq_kind {
	SEQ_RISING, SEQ_FALLING, SEQ_NOISY_BAND, SEQ_NOISY_LOW,
	SEQ_NOISY_HIGH, SEQ_SINE, SEQ_PLATEAUS, SEQ_SAWTOOTH, SEQ_KINDS
};

#define SEQ_LEN	1500

static u32 seq_rtt(enum seq_kind k, unsigned int i, struct test_rng *rng)
{
	static const u32 plateau[] = { 100, 300, 80, 600, 45, 250, 499, 50 };
	double v;

	switch (k) {
	case SEQ_RISING:
		return 20 + i / 2;
	case SEQ_FALLING:
		return 800 - i / 2;
	case SEQ_NOISY_BAND:
		return (u32)rng_range(rng, 140, 260);
	case SEQ_NOISY_LOW:
		return (u32)rng_range(rng, 30, 70);
	case SEQ_NOISY_HIGH:
		return (u32)rng_range(rng, 400, 600);
	case SEQ_SINE:
		v = 275 + 300 * sin(i / 25.0);
		return v < 1 ? 1 : (u32)v;
	case SEQ_PLATEAUS:
		return plateau[(i / 60) % ARRAY_SIZE(plateau)];
	case SEQ_SAWTOOTH:
		return 40 + (i % 97) * 6;
	default:
		return 100;
	}
}

static void check_sequences(const struct timely_params *p, double rel_tol)
{
	static const u64 starts[] = { 500000000ULL, 10000000ULL, LINE_10G };
	unsigned int k, j, i;

	for (k = 0; k < SEQ_KINDS; k++) {
		for (j = 0; j < ARRAY_SIZE(starts); j++) {
			struct test_rng rng = { 0x1234567ULL + k };
			struct timely_state s;
			struct ref_state r;

			timely_state_init(&s, p, starts[j]);
			ref_init(&r, p, (double)starts[j]);
			for (i = 0; i < SEQ_LEN; i++) {
				u32 rtt = seq_rtt(k, i, &rng);
				int want = ref_step(&r, p, rtt);
				int got = timely_on_completion(&s, p, rtt);
				/* Cuts round down: up to ~1 B/step. */
				double tol = r.rate * rel_tol + 8 + i;

				if (got != want)
					fail_msg("variant %u seq %u start %u step %u rtt %u: regime %d, expected %d",
						 p->variant, k, j, i, rtt, got,
						 want);
				if (fabs((double)s.rate_bytes_ps - r.rate) > tol)
					fail_msg("variant %u seq %u start %u step %u rtt %u: rate %llu, expected %.1f",
						 p->variant, k, j, i, rtt,
						 (unsigned long long)s.rate_bytes_ps,
						 r.rate);
			}
		}
	}
}

static void test_sequences_paper(void **state)
{
	struct timely_params p = paper_params();

	(void)state;
	check_sequences(&p, 1e-6);
	/* Per-completion updates of the author's later code: a = 0.02. */
	p.ewma_alpha_fx = 1311;
	check_sequences(&p, 1e-6);
	/* No decrease cap in the way. */
	p.max_dec_fx = 65536;
	check_sequences(&p, 1e-6);
}

static void test_sequences_patched(void **state)
{
	struct timely_params p = patched_params();

	(void)state;
	check_sequences(&p, 1e-6);
	p.ewma_alpha_fx = 1311;
	check_sequences(&p, 1e-6);
	p.max_dec_fx = 65536;
	check_sequences(&p, 1e-6);
}

/* The first sample only sets prev_rtt; the second is compared to it. */
static void test_first_sample(void **state)
{
	struct timely_params p = paper_params();
	struct timely_state s;

	(void)state;
	timely_state_init(&s, &p, 400000000ULL);
	assert_int_equal(timely_on_completion(&s, &p, 5000), TIMELY_FIRST);
	assert_int_equal(s.rate_bytes_ps, 400000000ULL);
	assert_int_equal(s.prev_rtt_us, 5000);
	/* 5000 -> 100: a large negative gradient, in the band: AI. */
	assert_int_equal(timely_on_completion(&s, &p, 100), TIMELY_AI);
	assert_int_equal(s.rate_bytes_ps, 400000000ULL + 1250000);
	assert_true(s.rtt_diff_fx < 0);
	/* -4900 * 0.875 / 20 = -214.375 */
	assert_int_equal(timely_grad_fx(&s, &p), (s32)(-214.375 * ONE_D));

	/* restart forgets the history, keeps the rate. */
	timely_restart(&s);
	assert_int_equal(timely_on_completion(&s, &p, 300), TIMELY_FIRST);
	assert_int_equal(s.rate_bytes_ps, 400000000ULL + 1250000);
	assert_int_equal(s.rtt_diff_fx, 0);
}

/* ---- 2. hyperactive increase ---- */

/* Feed rtt, check the regime and the exact rate step. */
static void step_expect(struct timely_state *s, const struct timely_params *p,
			u32 rtt, int regime, long long step)
{
	u64 before = s->rate_bytes_ps;
	int got = timely_on_completion(s, p, rtt);

	if (got != regime)
		fail_msg("rtt %u: regime %d, expected %d", rtt, got, regime);
	if ((long long)(s->rate_bytes_ps - before) != step)
		fail_msg("rtt %u: rate step %lld, expected %lld", rtt,
			 (long long)(s->rate_bytes_ps - before), step);
}

static void test_hai(void **state)
{
	struct timely_params p = paper_params();
	const long long d = 1250000;
	struct timely_state s;
	double x;
	int round, i, k;

	(void)state;
	timely_state_init(&s, &p, 100000000ULL);
	step_expect(&s, &p, 100, TIMELY_FIRST, 0);
	for (round = 0; round < 3; round++) {
		/*
		 * Completions 1-4 with g <= 0 add delta, the 5th and later
		 * 5 delta.  In rounds after the first, the 1st is the fall
		 * from 110 back to 100 (g < 0), then the EWMA decays toward
		 * 0 from below (g <= 0).
		 */
		for (i = 1; i <= 4; i++) {
			step_expect(&s, &p, 100, TIMELY_AI, d);
			assert_int_equal(s.neg_count, i);
		}
		for (i = 5; i <= 7; i++) {
			step_expect(&s, &p, 100, TIMELY_HAI, 5 * d);
			assert_int_equal(s.neg_count, i);
		}
		/* A rise: g > 0 cuts and resets the count. */
		assert_int_equal(timely_on_completion(&s, &p, 110),
				 TIMELY_MD_GRAD);
		assert_int_equal(s.neg_count, 0);
	}

	/*
	 * Staying at 110 after the rise, the EWMA (0.875 * 10 = 8.75 us)
	 * decays by 1/8 per completion and stays positive (MD_GRAD) until it
	 * rounds to 0 at the 2^-16 us resolution; the completion where it
	 * reaches 0 is the 1st with g <= 0.
	 */
	timely_restart(&s);
	step_expect(&s, &p, 100, TIMELY_FIRST, 0);
	assert_int_equal(timely_on_completion(&s, &p, 110), TIMELY_MD_GRAD);
	assert_int_equal(s.rtt_diff_fx, 8.75 * 65536);
	for (k = 0, x = 8.75; trunc(x / 8 * 65536) > 0; k++)
		x = trunc(x / 8 * 65536) / 65536;
	for (i = 0; i < k; i++)
		assert_int_equal(timely_on_completion(&s, &p, 110),
				 TIMELY_MD_GRAD);
	assert_true(s.rtt_diff_fx > 0);
	step_expect(&s, &p, 110, TIMELY_AI, d);
	assert_int_equal(s.rtt_diff_fx, 0);
	assert_int_equal(s.neg_count, 1);
	for (i = 2; i <= 4; i++)
		step_expect(&s, &p, 110, TIMELY_AI, d);
	step_expect(&s, &p, 110, TIMELY_HAI, 5 * d);

	/* The counter saturates instead of wrapping to 0. */
	s.neg_count = TIMELY_NEG_COUNT_MAX;
	step_expect(&s, &p, 110, TIMELY_HAI, 5 * d);
	assert_int_equal(s.neg_count, TIMELY_NEG_COUNT_MAX);
}

/* With a = 1 the gradient is the last difference: exact bookkeeping. */
static void test_hai_alpha_one(void **state)
{
	struct timely_params p = paper_params();
	const long long d = 1250000;
	struct timely_state s;

	(void)state;
	p.ewma_alpha_fx = 65536;
	p.hai_thresh = 3;
	p.hai_n = 7;
	timely_state_init(&s, &p, 100000000ULL);
	step_expect(&s, &p, 200, TIMELY_FIRST, 0);
	step_expect(&s, &p, 190, TIMELY_AI, d);		/* count 1 */
	step_expect(&s, &p, 190, TIMELY_AI, d);		/* count 2 */
	step_expect(&s, &p, 150, TIMELY_HAI, 7 * d);	/* count 3 */
	step_expect(&s, &p, 150, TIMELY_HAI, 7 * d);
	assert_int_equal(timely_on_completion(&s, &p, 151), TIMELY_MD_GRAD);
	assert_int_equal(s.neg_count, 0);
	step_expect(&s, &p, 151, TIMELY_AI, d);
	step_expect(&s, &p, 151, TIMELY_AI, d);
	step_expect(&s, &p, 140, TIMELY_HAI, 7 * d);

	/*
	 * The count runs in every regime: falling RTTs above T_high count,
	 * so the first completion back in the band can be HAI.
	 */
	assert_int_equal(timely_on_completion(&s, &p, 900), TIMELY_MD_HIGH);
	assert_int_equal(s.neg_count, 0);
	assert_int_equal(timely_on_completion(&s, &p, 800), TIMELY_MD_HIGH);
	assert_int_equal(timely_on_completion(&s, &p, 700), TIMELY_MD_HIGH);
	assert_int_equal(s.neg_count, 2);
	step_expect(&s, &p, 400, TIMELY_HAI, 7 * d);
	/* ... and so do non-positive gradients below T_low. */
	assert_int_equal(timely_on_completion(&s, &p, 420), TIMELY_MD_GRAD);
	step_expect(&s, &p, 40, TIMELY_AI_LOW, d);
	step_expect(&s, &p, 40, TIMELY_AI_LOW, d);
	step_expect(&s, &p, 30, TIMELY_AI_LOW, d);
	assert_int_equal(s.neg_count, 3);
	step_expect(&s, &p, 45, TIMELY_AI_LOW, d);
	assert_int_equal(s.neg_count, 0);
}

/* ---- 3. thresholds on the instantaneous RTT ---- */

static void test_thresholds(void **state)
{
	struct timely_params p = paper_params();
	struct timely_state s;
	static const u32 high[] = { 4000, 2000, 1500, 1000, 800, 600, 501 };
	unsigned int i;
	u32 rtt;

	(void)state;
	/* Below T_low: + delta even with a steep rise. */
	timely_state_init(&s, &p, 300000000ULL);
	step_expect(&s, &p, 1, TIMELY_FIRST, 0);
	for (rtt = 5; rtt < 50; rtt += 4)
		step_expect(&s, &p, rtt, TIMELY_AI_LOW, 1250000);
	assert_true(timely_grad_fx(&s, &p) > 0);

	/* Above T_high: cut by b (1 - T_high / rtt) even while falling. */
	p.max_dec_fx = 65536;
	timely_state_init(&s, &p, 1000000000ULL);
	timely_on_completion(&s, &p, 9000);
	for (i = 0; i < ARRAY_SIZE(high); i++) {
		double before = (double)s.rate_bytes_ps;
		double want = before * (1 - 0.8 * (1 - 500.0 / high[i]));

		assert_int_equal(timely_on_completion(&s, &p, high[i]),
				 TIMELY_MD_HIGH);
		assert_true(timely_grad_fx(&s, &p) < 0);
		assert_near(s.rate_bytes_ps, fmax(want, 125000), 2 + want * 1e-4);
	}

	/* The edges belong to the band. */
	timely_state_init(&s, &p, 300000000ULL);
	timely_on_completion(&s, &p, 50);
	assert_int_equal(timely_on_completion(&s, &p, 50), TIMELY_AI);
	assert_int_equal(timely_on_completion(&s, &p, 49), TIMELY_AI_LOW);
	assert_int_equal(timely_on_completion(&s, &p, 500), TIMELY_MD_GRAD);
	assert_int_equal(timely_on_completion(&s, &p, 500), TIMELY_MD_GRAD);
	assert_int_equal(timely_on_completion(&s, &p, 501), TIMELY_MD_HIGH);

	/*
	 * Instantaneous, not smoothed: after a long stay at 900 us one sample
	 * of 40 us is an increase, and after a long stay at 60 us a single
	 * 600 us spike is a cut.
	 */
	timely_state_init(&s, &p, 300000000ULL);
	for (i = 0; i < 20; i++)
		timely_on_completion(&s, &p, 900);
	step_expect(&s, &p, 40, TIMELY_AI_LOW, 1250000);
	for (i = 0; i < 20; i++)
		timely_on_completion(&s, &p, 60);
	{
		double want = (double)s.rate_bytes_ps *
			      (1 - 0.8 * (1 - 500.0 / 600));

		assert_int_equal(timely_on_completion(&s, &p, 600),
				 TIMELY_MD_HIGH);
		assert_near(s.rate_bytes_ps, want, 2 + want * 1e-4);
	}

	/* The patched variant keeps both thresholds. */
	p = patched_params();
	timely_state_init(&s, &p, 300000000ULL);
	timely_on_completion(&s, &p, 10);
	step_expect(&s, &p, 49, TIMELY_AI_LOW, 1250000);
	assert_int_equal(timely_on_completion(&s, &p, 50), TIMELY_PATCHED);
	assert_int_equal(timely_on_completion(&s, &p, 500), TIMELY_PATCHED);
	{
		double want = (double)s.rate_bytes_ps *
			      (1 - 0.8 * (1 - 500.0 / 700));

		assert_int_equal(timely_on_completion(&s, &p, 700),
				 TIMELY_MD_HIGH);
		assert_near(s.rate_bytes_ps, want, 2 + want * 1e-4);
	}
}

/* ---- 4. caps and extremes ---- */

/* old - new <= old * max_dec, exactly. */
static void assert_drop_capped(u64 old_rate, u64 new_rate, u32 max_dec_fx)
{
	if (new_rate < old_rate &&
	    (u128)(old_rate - new_rate) * 65536 > (u128)old_rate * max_dec_fx)
		fail_msg("rate fell from %llu to %llu, more than %u/65536",
			 (unsigned long long)old_rate,
			 (unsigned long long)new_rate, max_dec_fx);
}

static void test_caps(void **state)
{
	struct timely_params p = paper_params();
	struct timely_state s;
	u64 before;

	(void)state;
	/* Initial rate clamped; never 0 even with a 0 floor. */
	timely_state_init(&s, &p, 0);
	assert_int_equal(s.rate_bytes_ps, 125000);
	timely_state_init(&s, &p, ~0ULL);
	assert_int_equal(s.rate_bytes_ps, LINE_10G);
	p.min_rate_bytes_ps = 0;
	timely_state_init(&s, &p, 0);
	assert_int_equal(s.rate_bytes_ps, 1);
	p = paper_params();

	/* Increases stop at max_rate. */
	timely_state_init(&s, &p, LINE_10G - 1);
	timely_on_completion(&s, &p, 10);
	timely_on_completion(&s, &p, 10);
	assert_int_equal(s.rate_bytes_ps, LINE_10G);
	timely_on_completion(&s, &p, 10);
	assert_int_equal(s.rate_bytes_ps, LINE_10G);

	/* A steep gradient takes exactly max_dec = 1/2, not b g. */
	timely_state_init(&s, &p, 1000000001ULL);
	timely_on_completion(&s, &p, 50);
	assert_int_equal(timely_on_completion(&s, &p, 499), TIMELY_MD_GRAD);
	assert_int_equal(s.rate_bytes_ps, 1000000001ULL - 500000000ULL);

	/* 1 s RTT: b (1 - 500 / 1e6) = 0.7996 > max_dec. */
	before = s.rate_bytes_ps;
	assert_int_equal(timely_on_completion(&s, &p, 1000000),
			 TIMELY_MD_HIGH);
	assert_int_equal(s.rate_bytes_ps, before - before / 2);

	/* max_dec = 0.3 (19661/65536). */
	p.max_dec_fx = 19661;
	before = s.rate_bytes_ps;
	timely_on_completion(&s, &p, 1000000);
	assert_drop_capped(before, s.rate_bytes_ps, p.max_dec_fx);
	assert_near(s.rate_bytes_ps, before * (1 - 19661 / ONE_D), 1.5);

	/* No cap, b = 1, the largest RTT: down to the floor, never 0. */
	p.max_dec_fx = 65536;
	p.beta_fx = 65536;
	timely_state_init(&s, &p, LINE_10G);
	timely_on_completion(&s, &p, 100);
	timely_on_completion(&s, &p, 0xFFFFFFFFU);
	assert_int_equal(s.regime, TIMELY_MD_HIGH);
	/* Samples saturate at 2^30 us: 1e9+ * 500 / 2^30 ~ 582 B/s. */
	assert_int_equal(s.rate_bytes_ps, 125000);
	p.min_rate_bytes_ps = 0;
	timely_state_init(&s, &p, 1000);
	timely_on_completion(&s, &p, 100);
	timely_on_completion(&s, &p, 0xFFFFFFFFU);
	assert_int_equal(s.rate_bytes_ps, 1);
	timely_on_completion(&s, &p, 0xFFFFFFFFU);
	assert_int_equal(s.rate_bytes_ps, 1);

	/* Tiny RTTs (0, 1 us) are increases; equal RTTs a zero gradient. */
	p = paper_params();
	timely_state_init(&s, &p, 200000000ULL);
	timely_on_completion(&s, &p, 1);
	step_expect(&s, &p, 1, TIMELY_AI_LOW, 1250000);
	step_expect(&s, &p, 0, TIMELY_AI_LOW, 1250000);
	assert_int_equal(s.rtt_diff_fx, -57344);	/* 0.875 * -1 us */
	timely_on_completion(&s, &p, 300);
	timely_on_completion(&s, &p, 300);
	while (s.rtt_diff_fx)
		timely_on_completion(&s, &p, 300);
	assert_int_equal(timely_grad_fx(&s, &p), 0);
	{
		bool hai = s.neg_count + 1 >= 5;

		step_expect(&s, &p, 300, hai ? TIMELY_HAI : TIMELY_AI,
			    hai ? 5 * 1250000 : 1250000);
	}

	/* 100 Gbit/s rates and a 1 s RTT swing in the band of a wide cfg. */
	p.max_rate_bytes_ps = 12500000000ULL;
	p.t_high_us = 2000000;
	p.max_dec_fx = 65536;
	p.beta_fx = 65536;
	timely_state_init(&s, &p, 12500000000ULL);
	timely_on_completion(&s, &p, 100);
	timely_on_completion(&s, &p, 1000000);
	/* b g = 0.875 * 999900 / 20 >> 1: the whole rate, down to the floor. */
	assert_int_equal(s.regime, TIMELY_MD_GRAD);
	assert_int_equal(s.rate_bytes_ps, 125000);
}

/* Parameters and state at the edge of every field: no UB, rate bounded. */
static void test_extreme_params(void **state)
{
	struct test_rng rng = { 0xDEADBEEFCAFEULL };
	unsigned int i;

	(void)state;
	for (i = 0; i < 20000; i++) {
		struct timely_params p;
		struct timely_state s;
		unsigned int j;

		p.variant = (u32)rng_next(&rng);
		p.ewma_alpha_fx = (u32)rng_next(&rng);
		p.beta_fx = (u32)rng_next(&rng);
		p.patched_beta_fx = (u32)rng_next(&rng);
		p.max_dec_fx = (u32)rng_next(&rng);
		p.t_low_us = (u32)rng_next(&rng) >> rng_range(&rng, 0, 31);
		p.t_high_us = (u32)rng_next(&rng) >> rng_range(&rng, 0, 31);
		p.min_rtt_us = (u32)rng_next(&rng) >> rng_range(&rng, 0, 31);
		p.hai_thresh = (u32)rng_next(&rng) >> rng_range(&rng, 0, 31);
		p.hai_n = (u32)rng_next(&rng);
		p.delta_bytes_ps = rng_next(&rng) >> rng_range(&rng, 0, 63);
		p.min_rate_bytes_ps = rng_next(&rng) >> rng_range(&rng, 0, 63);
		p.max_rate_bytes_ps = rng_next(&rng) >> rng_range(&rng, 0, 63);
		p.line_rate_bytes_ps = rng_next(&rng) >> rng_range(&rng, 0, 63);
		if (i & 1)
			p.variant &= 1;
		timely_state_init(&s, &p, rng_next(&rng));
		/* Arbitrary (corrupt) history as well. */
		s.rtt_diff_fx = (s64)rng_next(&rng);
		s.prev_rtt_us = (u32)rng_next(&rng);
		s.flags = (u8)rng_next(&rng);
		s.neg_count = (u16)rng_next(&rng);
		for (j = 0; j < 10; j++) {
			u32 rtt = (u32)rng_next(&rng) >> rng_range(&rng, 0, 31);

			timely_on_completion(&s, &p, rtt);
			assert_true(s.rate_bytes_ps >= 1);
			assert_true(s.rate_bytes_ps <= TIMELY_RATE_LIMIT);
			assert_true(s.regime <= TIMELY_PATCHED);
		}
		(void)timely_rtt_for_engine(&p, (u32)rng_next(&rng),
					    (u32)rng_next(&rng));
	}
}

/* ---- 5. serialization delay ---- */

static void test_serialization(void **state)
{
	struct timely_params p = paper_params();
	struct test_rng rng = { 0xC0FFEEULL };
	unsigned int i;

	(void)state;
	/* 64 KB at 10 Gbit/s: 52.4288 us, rounded down. */
	assert_int_equal(timely_serialization_us(&p, 65536), 52);
	assert_int_equal(timely_rtt_for_engine(&p, 100, 65536), 48);
	assert_int_equal(timely_rtt_for_engine(&p, 53, 65536), 1);
	assert_int_equal(timely_rtt_for_engine(&p, 54, 65536), 2);
	assert_int_equal(timely_rtt_for_engine(&p, 52, 65536), 1);
	assert_int_equal(timely_rtt_for_engine(&p, 0, 65536), 1);
	assert_int_equal(timely_rtt_for_engine(&p, 0, 0), 1);
	assert_int_equal(timely_rtt_for_engine(&p, 0xFFFFFFFFU, 0),
			 0xFFFFFFFFU);
	/* 64 KB at 1 Gbit/s: 524.288 us; 9000 B at 100 Gbit/s: 0.72 us. */
	p.line_rate_bytes_ps = 125000000;
	assert_int_equal(timely_serialization_us(&p, 65536), 524);
	p.line_rate_bytes_ps = 12500000000ULL;
	assert_int_equal(timely_serialization_us(&p, 9000), 0);
	assert_int_equal(timely_rtt_for_engine(&p, 30, 9000), 30);
	/* Unknown line rate: nothing subtracted. */
	p.line_rate_bytes_ps = 0;
	assert_int_equal(timely_serialization_us(&p, 65536), 0);
	assert_int_equal(timely_rtt_for_engine(&p, 77, 65536), 77);
	/* Largest segment at 1 B/s saturates, the RTT floors at 1. */
	p.line_rate_bytes_ps = 1;
	assert_int_equal(timely_serialization_us(&p, 0xFFFFFFFFU),
			 0xFFFFFFFFU);
	assert_int_equal(timely_rtt_for_engine(&p, 0xFFFFFFFFU, 0xFFFFFFFFU),
			 1);

	for (i = 0; i < 100000; i++) {
		u64 line = rng_range(&rng, 1, 1ULL << 40);
		u32 seg = (u32)rng_next(&rng) >> rng_range(&rng, 0, 31);
		u32 raw = (u32)rng_next(&rng) >> rng_range(&rng, 0, 31);
		u128 ser = (u128)seg * 1000000 / line;
		u32 want_ser = ser > 0xFFFFFFFFU ? 0xFFFFFFFFU : (u32)ser;
		u32 want = raw > want_ser ? raw - want_ser : 0;

		p.line_rate_bytes_ps = line;
		assert_int_equal(timely_serialization_us(&p, seg), want_ser);
		assert_int_equal(timely_rtt_for_engine(&p, raw, seg),
				 want ? want : 1);
	}
}

static void test_completion_due(void **state)
{
	struct timely_params p = paper_params();
	struct timely_state s;

	(void)state;
	assert_false(timely_completion_due(0, 65536, false));
	assert_false(timely_completion_due(0, 65536, true));
	assert_false(timely_completion_due(65535, 65536, false));
	assert_true(timely_completion_due(65536, 65536, false));
	assert_true(timely_completion_due(100000, 65536, false));
	assert_true(timely_completion_due(1, 65536, true));
	assert_true(timely_completion_due(1, 0, false));

	timely_state_init(&s, &p, 1000000);
	assert_int_equal(timely_account_acked(&s, 30000, 65536, false), 0);
	assert_int_equal(timely_account_acked(&s, 30000, 65536, false), 0);
	assert_int_equal(timely_account_acked(&s, 30000, 65536, false), 1);
	/* The count starts afresh (the bytes past the segment are dropped). */
	assert_int_equal(s.acked_bytes, 0);
	assert_int_equal(timely_account_acked(&s, 1448, 65536, false), 0);
	assert_int_equal(timely_account_acked(&s, 1448, 65536, true), 1);
	assert_int_equal(s.acked_bytes, 0);
	assert_int_equal(timely_account_acked(&s, 0, 65536, true), 0);
	assert_int_equal(timely_account_acked(&s, 0xFFFFFFFFU, 0xFFFFFFFFU,
					      false), 1);
	/* Saturates instead of wrapping to a small count. */
	s.acked_bytes = 0xFFFFFFF0U;
	assert_int_equal(timely_account_acked(&s, 0x100, 0xFFFFFFFFU, false), 1);
}

/*
 * A stretch ACK completes every segment it covers (issue 15 item 16: it
 * was one update whatever it covered, the rest of its bytes dropped):
 * 4 x 16 KB in one ACK are 4 completions, as 4 ACKs would be, and a flow
 * acknowledged so grows as fast as one acknowledged per segment.
 */
static void test_stretch_ack(void **state)
{
	struct timely_params p = paper_params();
	struct timely_state a, b;
	u32 k, i, n;
	u32 t = 0;

	(void)state;
	timely_state_init(&a, &p, 1000000);
	assert_int_equal(timely_account_acked(&a, 4 * 16384 + 100, 16384,
					      false), 4);
	assert_int_equal(a.acked_bytes, 0);
	assert_int_equal(timely_account_acked(&a, 16284, 16384, false), 0);
	assert_int_equal(timely_account_acked(&a, 100, 16384, false), 1);
	/* No more data: the bytes past the last segment complete one more. */
	assert_int_equal(timely_account_acked(&a, 2 * 16384 + 1, 16384, true), 3);
	/* At most TIMELY_MAX_COMPLETIONS per ACK. */
	assert_int_equal(timely_account_acked(&a, 100 * 16384, 16384, false),
			 TIMELY_MAX_COMPLETIONS);
	assert_int_equal(a.acked_bytes, 0);

	/* Same path, same samples: stretch ACKs grow the rate as 1 per seg. */
	timely_state_init(&a, &p, 100000000);
	timely_state_init(&b, &p, 100000000);
	for (k = 0; k < 50; k++) {
		t += 100;
		n = timely_account_acked(&a, 4 * 16384, 16384, false);
		for (i = 0; i < n; i++)
			timely_on_completion_at(&a, &p, 30, t, i == 0, 0);
		for (i = 0; i < 4; i++) {
			assert_int_equal(timely_account_acked(&b, 16384, 16384,
							      false), 1);
			timely_on_completion_at(&b, &p, 30, t, true, 0);
		}
	}
	assert_int_equal(a.rate_bytes_ps, b.rate_bytes_ps);
}

/* ---- 6. patched variant: fixed point and fairness ---- */

/* Constant RTT r in the band: g = 0, w = 1/2, R* = delta / (b_p err). */
static void check_fixed_point(u32 rtt, u64 start)
{
	struct timely_params p = patched_params();
	double bp = fx_d(p.patched_beta_fx);
	double err = (rtt - 50.0) / 50.0;
	double rstar = 1250000.0 / (bp * err);
	struct timely_state s;
	double dist = fabs((double)start - rstar);
	unsigned int i;

	timely_state_init(&s, &p, start);
	timely_on_completion(&s, &p, rtt);
	for (i = 0; i < 40000; i++) {
		double prev = (double)s.rate_bytes_ps;

		assert_int_equal(timely_on_completion(&s, &p, rtt),
				 TIMELY_PATCHED);
		/* Monotone approach, from either side. */
		if (fabs((double)s.rate_bytes_ps - rstar) > dist + 2)
			fail_msg("rtt %u step %u: %llu moved away from %.0f",
				 rtt, i, (unsigned long long)s.rate_bytes_ps,
				 rstar);
		dist = fabs((double)s.rate_bytes_ps - rstar);
		if (start > rstar)
			assert_true(s.rate_bytes_ps <= prev + 2);
		else
			assert_true(s.rate_bytes_ps + 2 >= prev);
	}
	assert_near(s.rate_bytes_ps, rstar, rstar * 1e-4);
}

static void test_patched_fixed_point(void **state)
{
	(void)state;
	/* err = 1: R* = 125 delta ~ 156 MB/s; err = 0.5, 0.2, 2. */
	check_fixed_point(100, LINE_10G);
	check_fixed_point(100, 125000);
	check_fixed_point(75, LINE_10G);
	check_fixed_point(75, 1000000);
	check_fixed_point(60, 900000000ULL);
	check_fixed_point(60, 2000000);
	check_fixed_point(150, LINE_10G);
	check_fixed_point(150, 125000);
}

/*
 * Fluid bottleneck: capacity C, queue q in bytes, dt per completion; every
 * flow sees rtt = base + q / C as it was PLANT_DELAY completions ago (the
 * feedback of a real RTT is one RTT old: 3 x 20 us here).
 */
#define PLANT_DELAY	3

struct plant {
	double q;
	double cap;
	double dt;
	double base_us;
	u32 hist[PLANT_DELAY];
	unsigned int n;
};

static void plant_init(struct plant *pl)
{
	unsigned int i;

	pl->q = 0;
	pl->cap = (double)LINE_10G;
	pl->dt = 20e-6;
	pl->base_us = 20;
	pl->n = 0;
	for (i = 0; i < PLANT_DELAY; i++)
		pl->hist[i] = (u32)pl->base_us;
}

/* The RTT the flows see now. */
static u32 plant_rtt(const struct plant *pl)
{
	return pl->hist[pl->n % PLANT_DELAY];
}

/* Run the queue for one completion interval at the total rate in_rate. */
static void plant_step(struct plant *pl, double in_rate)
{
	pl->q += (in_rate - pl->cap) * pl->dt;
	if (pl->q < 0)
		pl->q = 0;
	pl->hist[pl->n % PLANT_DELAY] =
		(u32)lround(pl->base_us + pl->q / pl->cap * 1e6);
	pl->n++;
}

/*
 * One flow on a 10 Gbit/s bottleneck: R -> C, and R = delta / (b_p err)
 * puts the RTT at T_low (1 + delta / (b_p C)) = 56.25 us.
 */
static void test_patched_single_flow(void **state)
{
	struct timely_params p = patched_params();
	double err = 1250000.0 / (fx_d(p.patched_beta_fx) * LINE_10G);
	double rtt_sum = 0, rate_sum = 0;
	struct timely_state s;
	unsigned int i, n = 0;
	struct plant pl;

	(void)state;
	plant_init(&pl);
	p.max_rate_bytes_ps = 2 * LINE_10G;
	timely_state_init(&s, &p, 10000000);
	for (i = 0; i < 30000; i++) {
		u32 rtt = plant_rtt(&pl);
		int r = timely_on_completion(&s, &p, rtt);

		if (i >= 20000) {
			assert_int_equal(r, TIMELY_PATCHED);
			rtt_sum += rtt;
			rate_sum += (double)s.rate_bytes_ps;
			n++;
		}
		plant_step(&pl, (double)s.rate_bytes_ps);
	}
	/* The RTT is in whole microseconds: its mean within 1 us. */
	assert_near(rtt_sum / n, 50 * (1 + err), 1.0);
	assert_near(rate_sum / n, (double)LINE_10G, LINE_10G * 0.01);
}

static double jain2(double a, double b)
{
	return (a + b) * (a + b) / (2 * (a * a + b * b));
}

struct two_flow_result {
	double jain;		/* at the end */
	double util;		/* mean total rate / C over the tail */
	double rtt;		/* mean RTT over the tail */
	double r1, r2;		/* mean rates over the tail */
	unsigned int in_band;	/* band updates of flow 1 in the tail */
};

#define TWO_FLOW_STEPS	20000
#define TWO_FLOW_TAIL	5000

static void run_two_flows(const struct timely_params *p, u64 r1, u64 r2,
			  struct two_flow_result *res)
{
	struct timely_state s1, s2;
	struct plant pl;
	unsigned int i;

	*res = (struct two_flow_result){ 0 };
	plant_init(&pl);
	timely_state_init(&s1, p, r1);
	timely_state_init(&s2, p, r2);
	for (i = 0; i < TWO_FLOW_STEPS; i++) {
		u32 rtt = plant_rtt(&pl);
		int reg = timely_on_completion(&s1, p, rtt);

		timely_on_completion(&s2, p, rtt);
		assert_between(s1.rate_bytes_ps, p->min_rate_bytes_ps,
			       p->max_rate_bytes_ps);
		assert_between(s2.rate_bytes_ps, p->min_rate_bytes_ps,
			       p->max_rate_bytes_ps);
		if (i >= TWO_FLOW_STEPS - TWO_FLOW_TAIL) {
			res->rtt += rtt;
			res->r1 += (double)s1.rate_bytes_ps;
			res->r2 += (double)s2.rate_bytes_ps;
			res->in_band += reg == TIMELY_PATCHED;
		}
		plant_step(&pl, (double)(s1.rate_bytes_ps + s2.rate_bytes_ps));
	}
	res->rtt /= TWO_FLOW_TAIL;
	res->r1 /= TWO_FLOW_TAIL;
	res->r2 /= TWO_FLOW_TAIL;
	res->util = (res->r1 + res->r2) / LINE_10G;
	res->jain = jain2((double)s1.rate_bytes_ps, (double)s2.rate_bytes_ps);
}

/*
 * Two flows starting far apart.  Patched: both end at the unique fixed
 * point, C / 2 each with 2 delta / (b_p err) = C, i.e. err = 2 delta /
 * (b_p C) and RTT = T_low (1 + err) = 62.5 us.  Paper: recorded only (no
 * unique fixed point), beyond staying in bounds.
 */
static void test_two_flows(void **state)
{
	static const u64 starts[][2] = {
		{ LINE_10G, 12500000 },
		{ 125000, 800000000 },
		{ 1000000000, 100000000 },
	};
	struct timely_params pp = patched_params();
	struct timely_params pa = paper_params();
	double err = 2 * 1250000.0 / (fx_d(pp.patched_beta_fx) * LINE_10G);
	struct two_flow_result res;
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(starts); i++) {
		run_two_flows(&pp, starts[i][0], starts[i][1], &res);
		if (res.jain <= 0.99)
			fail_msg("patched, start %llu/%llu: Jain %.4f",
				 (unsigned long long)starts[i][0],
				 (unsigned long long)starts[i][1], res.jain);
		assert_int_equal(res.in_band, TWO_FLOW_TAIL);
		assert_near(res.rtt, 50 * (1 + err), 1.0);
		assert_near(res.r1, LINE_10G / 2.0, LINE_10G * 0.01);
		assert_near(res.r2, LINE_10G / 2.0, LINE_10G * 0.01);

		run_two_flows(&pa, starts[i][0], starts[i][1], &res);
		print_message("# paper TIMELY, start %llu/%llu: Jain %.4f, utilization %.3f, mean rtt %.1f us\n",
			      (unsigned long long)starts[i][0],
			      (unsigned long long)starts[i][1], res.jain,
			      res.util, res.rtt);
		assert_between(res.jain, 0.5, 1.0);
	}
}

/* ---- 7. random inputs, invariants ---- */

static struct timely_params random_params(struct test_rng *rng)
{
	struct timely_params p;

	p.variant = (u32)rng_range(rng, 0, 1);
	p.ewma_alpha_fx = (u32)rng_range(rng, 0, 65536);
	p.beta_fx = (u32)rng_range(rng, 0, 65536);
	p.patched_beta_fx = (u32)rng_range(rng, 0, 65536);
	p.max_dec_fx = (u32)rng_range(rng, 0, 65536);
	p.t_low_us = (u32)rng_range(rng, 0, 2000);
	p.t_high_us = p.t_low_us + (u32)rng_range(rng, 0, 100000);
	p.min_rtt_us = (u32)rng_range(rng, 1, 1000);
	p.hai_thresh = (u32)rng_range(rng, 0, 20);
	p.hai_n = (u32)rng_range(rng, 1, 64);
	p.line_rate_bytes_ps = rng_range(rng, 1000000, 1ULL << 40);
	p.max_rate_bytes_ps = rng_range(rng, 1, p.line_rate_bytes_ps);
	p.min_rate_bytes_ps = rng_range(rng, 1, p.max_rate_bytes_ps);
	p.delta_bytes_ps = rng_range(rng, 0, p.max_rate_bytes_ps / 10);
	return p;
}

static void test_random_invariants(void **state)
{
	struct test_rng rng = { 0x5EED5EED5EEDULL };
	struct timely_params p;
	struct timely_state s;
	unsigned int i;

	(void)state;
	for (i = 0; i < 100000; i++) {
		u64 before, lo, hi, d;
		u32 rtt;
		int r;

		if (i % 1000 == 0) {
			p = random_params(&rng);
			assert_true(timely_params_valid(&p));
			timely_state_init(&s, &p, rng_next(&rng) >> 20);
		}
		lo = p.min_rate_bytes_ps;
		hi = p.max_rate_bytes_ps;
		d = p.delta_bytes_ps;
		rtt = (u32)rng_range(&rng, 0, 1000000);
		before = s.rate_bytes_ps;
		r = timely_on_completion(&s, &p, rtt);

		assert_between(s.rate_bytes_ps, lo, hi);
		assert_true(s.rate_bytes_ps >= 1);
		assert_drop_capped(before, s.rate_bytes_ps, p.max_dec_fx);
		assert_int_equal(s.regime, r);
		assert_int_equal(s.prev_rtt_us, rtt);
		if (r == TIMELY_FIRST) {
			assert_int_equal(s.rate_bytes_ps, before);
		} else if (rtt < p.t_low_us) {
			assert_int_equal(r, TIMELY_AI_LOW);
			assert_int_equal(s.rate_bytes_ps,
					 before + d > hi ? hi : before + d);
		} else if (rtt > p.t_high_us) {
			assert_int_equal(r, TIMELY_MD_HIGH);
			assert_true(s.rate_bytes_ps <= before);
		} else if (p.variant == TIMELY_VARIANT_PATCHED) {
			assert_int_equal(r, TIMELY_PATCHED);
			/* Never above R + delta: (1 - w) <= 1, err >= 0. */
			assert_true(s.rate_bytes_ps <= before + d);
		} else if (s.rtt_diff_fx <= 0) {
			bool hai = s.neg_count >= p.hai_thresh;
			u64 want = before + (hai ? p.hai_n : 1) * d;

			assert_int_equal(r, hai ? TIMELY_HAI : TIMELY_AI);
			assert_int_equal(s.rate_bytes_ps, want > hi ? hi : want);
		} else {
			assert_int_equal(r, TIMELY_MD_GRAD);
			assert_int_equal(s.neg_count, 0);
			assert_true(s.rate_bytes_ps <= before);
		}
		assert_true(timely_grad_fx(&s, &p) == 0 || (timely_grad_fx(&s, &p) < 0) ==
			    (s.rtt_diff_fx < 0));
	}
}

static void test_params_default(void **state)
{
	struct timely_params want = paper_params();
	struct timely_params p;

	(void)state;
	timely_params_default(&p, LINE_10G);
	assert_true(timely_params_valid(&p));
	assert_int_equal(p.variant, TIMELY_VARIANT_PAPER);
	assert_int_equal(p.ewma_alpha_fx, want.ewma_alpha_fx);
	assert_near(p.beta_fx, want.beta_fx, 1);
	assert_near(p.patched_beta_fx, want.patched_beta_fx, 1);
	assert_int_equal(p.max_dec_fx, want.max_dec_fx);
	assert_int_equal(p.t_low_us, 50);
	assert_int_equal(p.t_high_us, 500);
	assert_int_equal(p.min_rtt_us, 20);
	assert_int_equal(p.hai_thresh, 5);
	assert_int_equal(p.hai_n, 5);
	assert_int_equal(p.delta_bytes_ps, 1250000);
	assert_int_equal(p.min_rate_bytes_ps, 125000);
	assert_int_equal(p.max_rate_bytes_ps, LINE_10G);
	assert_int_equal(p.line_rate_bytes_ps, LINE_10G);
	timely_params_default(&p, 0);
	assert_int_equal(p.min_rate_bytes_ps, 1);

	p = want;
	p.t_low_us = 600;
	assert_false(timely_params_valid(&p));
	p = want;
	p.min_rate_bytes_ps = 0;
	assert_false(timely_params_valid(&p));
	p = want;
	p.ewma_alpha_fx = 65537;
	assert_false(timely_params_valid(&p));
	p = want;
	p.variant = 2;
	assert_false(timely_params_valid(&p));
	p = want;
	p.max_rate_bytes_ps = TIMELY_RATE_LIMIT + 1;
	assert_false(timely_params_valid(&p));
}

/* ---- self-calibration (calibrate = 1) ---- */

static struct timely_params calib_params(void)
{
	struct timely_params p;

	timely_params_default(&p, LINE_10G);
	p.calibrate = 1;
	p.lr.headroom_pct = 0;
	return p;
}

/* Feed n completions of rtt at 1 ms steps from *t. */
static void feed(struct timely_state *s, const struct timely_params *p,
		 u32 *t, u32 rtt, int n)
{
	while (n-- > 0) {
		*t += 1000;
		timely_on_completion_at(s, p, rtt, *t, true, 0);
	}
}

static void test_calib_off_is_paper(void **state)
{
	struct timely_params p = paper_params(), e;
	struct timely_state s;
	u32 t = 0;

	(void)state;
	timely_state_init(&s, &p, 400000000ULL);
	feed(&s, &p, &t, 300, 10);
	timely_effective(&p, &s, &e);
	assert_memory_equal(&p, &e, sizeof(p));
	/* Without calibration nothing is measured. */
	assert_int_equal(s.base_rtt_us, 0);
	assert_int_equal(s.noise_var, 0);
}

static void test_calib_thresholds(void **state)
{
	struct timely_params p = calib_params(), e;
	struct timely_state s;
	u32 t = 0;

	(void)state;
	/*
	 * A fabric: base 10 us, no noise, a completion (16 KB) in 13 us at
	 * the line rate: the paper's values stay.
	 */
	timely_state_init(&s, &p, LINE_10G);
	feed(&s, &p, &t, 10, 20);
	timely_effective(&p, &s, &e);
	assert_int_equal(s.base_rtt_us, 10);
	assert_int_equal(e.t_low_us, 50);
	assert_int_equal(e.t_high_us, 500);
	assert_int_equal(e.min_rtt_us, 20);
	assert_int_equal(e.noise_band_us, 0);
	assert_true(timely_params_valid(&e));

	/* The bed: base 280 us, no noise: f = 280. */
	timely_state_init(&s, &p, 400000000ULL);
	feed(&s, &p, &t, 280, 20);
	timely_effective(&p, &s, &e);
	assert_int_equal(e.min_rtt_us, 280);
	assert_int_equal(e.t_low_us, 420);
	assert_int_equal(e.t_high_us, 840);
	assert_true(timely_params_valid(&e));

	/* Alternating 280 / 380: noise 100 us, f = base + 200. */
	feed(&s, &p, &t, 380, 1);
	for (int i = 0; i < 100; i++)
		feed(&s, &p, &t, i & 1 ? 380 : 280, 1);
	timely_effective(&p, &s, &e);
	assert_int_equal(s.base_rtt_us, 280);
	/*
	 * Each change of +-100 us against the previous ones' EWMA (7/9 of
	 * -100 us for a = 7/8): a variance of about 7780 us^2, a deviation
	 * of 88 us, 7/6 of it 102 us (rounded down twice: 101).
	 */
	assert_int_equal(timely_noise_us(&s), 101);
	assert_int_equal(e.min_rtt_us, 280 + 2 * 101);
	assert_int_equal(e.t_low_us, (280 + 2 * 101) * 3 / 2);
	assert_int_equal(e.t_high_us, (280 + 2 * 101) * 3);
	assert_int_equal(e.noise_band_us, 2 * 101);

	/*
	 * A queue that builds by 100 us a completion is no noise: the
	 * changes have the same sign, and the variance decays to 0.
	 */
	for (int i = 0; i < 30; i++)
		feed(&s, &p, &t, 380 + 100 * i, 1);
	assert_int_equal(timely_noise_us(&s), 0);
}

/*
 * The gradient's time base.  On the test bed a flow at 25 Mbit/s (4 on
 * 100 Mbit/s) completes 16 KB every 5.2 ms, 19 base RTTs.  A total rate
 * 5 % above the link builds 5 % of that, 262 us of queue, between two of
 * its completions: g = 0.05, a cut of b g = 4 %.  Normalized by the base
 * RTT it read g = 0.85 and cut 50 % (the VM: every flow at once, the link
 * idle while they grew back; 80 % of the link).
 */
static void test_calib_time_base(void **state)
{
	struct timely_params p = calib_params(), e;
	struct timely_state s;
	u64 before;
	u32 t = 0;

	(void)state;
	timely_state_init(&s, &p, LINE_10G);
	/* The path: 100 Mbit/s (learnt), base 270 us, no noise. */
	timely_rate_sample(&s, &p, 0, 12500, 1000, false);
	feed(&s, &p, &t, 270, 20);
	s.rate_bytes_ps = 3125000;	/* 25 Mbit/s */
	timely_effective(&p, &s, &e);
	assert_int_equal(e.min_rtt_us, 16384 * 1000000ULL / 3125000);
	before = s.rate_bytes_ps;
	assert_int_equal(timely_on_completion_at(&s, &p, 270 + 262, t += 5243,
						 true, 0),
			 TIMELY_MD_GRAD);
	assert_true(s.rate_bytes_ps >= before - before / 20);
	assert_true(s.rate_bytes_ps < before);
	/* At the line rate a completion is 13 us: the paper's 20 us. */
	s.rate_bytes_ps = LINE_10G;
	timely_effective(&p, &s, &e);
	assert_int_equal(e.min_rtt_us, 270);
	p.min_rtt_us = 300;
	timely_effective(&p, &s, &e);
	assert_int_equal(e.min_rtt_us, 300);
}

/* Within the dead band a rising RTT is no gradient: no cut. */
static void test_calib_dead_band(void **state)
{
	struct timely_params p = calib_params(), e;
	struct timely_state s;
	u64 before;
	u32 t = 0;
	int i;

	(void)state;
	timely_state_init(&s, &p, 100000000ULL);
	/* Base 300 us, then noise of 20 us around 600 (in the band). */
	feed(&s, &p, &t, 300, 1);
	for (i = 0; i < 200; i++) {
		feed(&s, &p, &t, i & 1 ? 620 : 600, 1);
		/* The jump from 300 is a rise; then only noise. */
		if (i >= 50)
			assert_int_not_equal(s.regime, TIMELY_MD_GRAD);
	}
	timely_effective(&p, &s, &e);
	assert_int_equal(e.noise_band_us, 2 * timely_noise_us(&s));
	assert_true(e.noise_band_us >= 36 && e.noise_band_us <= 40);
	assert_true(e.t_low_us <= 600 && e.t_high_us > 620);
	s.rate_bytes_ps = 100000000ULL;
	before = s.rate_bytes_ps;
	feed(&s, &p, &t, 600, 1);
	assert_true(s.regime == TIMELY_AI || s.regime == TIMELY_HAI);
	assert_true(s.rate_bytes_ps > before);
	/* A rise well beyond the band is a gradient again. */
	assert_int_equal(timely_on_completion_at(&s, &p, 700, t += 1000, true, 0),
			 TIMELY_MD_GRAD);
	assert_true(timely_grad_fx(&s, &p) >= 0);
}

static void test_calib_line_rate(void **state)
{
	struct timely_params p = calib_params(), e;
	struct timely_state s;
	u64 line = 12500000;	/* 100 Mbit/s */

	(void)state;
	timely_state_init(&s, &p, 0);
	/* Before any sample: the parameters (10 Gbit/s). */
	timely_effective(&p, &s, &e);
	assert_int_equal(e.max_rate_bytes_ps, LINE_10G);
	assert_int_equal(e.delta_bytes_ps, 1250000);
	/* Paced above the path: it delivers the path's rate. */
	s.rate_bytes_ps = LINE_10G;
	timely_rate_sample(&s, &p, 1000, line / 1000, 1000, false);
	timely_effective(&p, &s, &e);
	assert_int_equal(e.max_rate_bytes_ps, UNIT_RATE(line));
	assert_int_equal(e.line_rate_bytes_ps, UNIT_RATE(line));
	/* delta: the same 1/1000 of the learnt line, to rounding. */
	assert_near(e.delta_bytes_ps, UNIT_RATE(line) / 1000.0, 2);
	/* The rate is clamped to the learnt ceiling. */
	s.rate_bytes_ps = LINE_10G;
	timely_on_completion_at(&s, &p, 300, 2000, true, 0);
	assert_true(s.rate_bytes_ps <= UNIT_RATE(line));
	/* Headroom: 25 % above the best sample. */
	p.lr.headroom_pct = 25;
	timely_effective(&p, &s, &e);
	assert_int_equal(e.max_rate_bytes_ps, UNIT_RATE(line) * 125 / 100);
	/* Never above max_rate_mbps. */
	p.max_rate_bytes_ps = 10000000;
	timely_effective(&p, &s, &e);
	assert_int_equal(e.max_rate_bytes_ps, 10000000);
}

/*
 * The first delivery-rate sample of a connection is the handshake's: one
 * segment over one RTT, app-limited (tcp_init_sock() starts every socket
 * app-limited).  It measures the RTT, not the path: it must not become the
 * rate ceiling.  On a 40 ms path it reads 0.3 Mbit/s, and a learnt line
 * (and so the rate) at the 1 Mbit/s floor, with delta 1/1000 of that,
 * held every RPC connection at about 1 Mbit/s (plb_twopath phase 5).
 */
static void test_calib_app_limited_start(void **state)
{
	struct timely_params p = calib_params(), e;
	struct timely_state s;
	u64 line = 12500000;	/* 100 Mbit/s */

	(void)state;
	p.lr.floor_bytes_ps = 125000;	/* 1 Mbit/s, the module's */
	p.lr.headroom_pct = 25;
	timely_state_init(&s, &p, 14280000);
	/* The handshake: 1428 bytes over 40 ms, app-limited. */
	timely_rate_sample(&s, &p, 40000, 1428, 40000, true);
	timely_effective(&p, &s, &e);
	assert_int_equal(e.max_rate_bytes_ps, LINE_10G);
	assert_int_equal(e.delta_bytes_ps, 1250000);
	timely_on_completion_at(&s, &p, 40000, 80000, true, 0);
	assert_true(s.rate_bytes_ps >= 14280000);
	/* The first sample the path limits sets the ceiling... */
	s.rate_bytes_ps = 2 * line;
	timely_rate_sample(&s, &p, 90000, line / 1000, 1000, false);
	timely_effective(&p, &s, &e);
	assert_int_equal(e.max_rate_bytes_ps, UNIT_RATE(line) * 125 / 100);
	/* ...and an app-limited one above it still raises it. */
	timely_rate_sample(&s, &p, 91000, 2 * line / 1000, 1000, true);
	timely_effective(&p, &s, &e);
	assert_int_equal(e.max_rate_bytes_ps, UNIT_RATE(2 * line) * 125 / 100);
}

/*
 * A flow paced below the path delivers its own rate: that is no line
 * rate.  Learnt as one, the ceiling sat 25 % above the flow's rate and
 * the additive step at 1/1000 of it, so a flow started slow (a start
 * rate from a handshake over a congested path) grew by 0.1 % per
 * completion (plb_twopath phase 5: 2.7 Mbit/s on a quiet 50 Mbit/s path,
 * RPC p50 25 ms).  Only a sample below the pacing is the path's.
 */
static void test_calib_self_limited(void **state)
{
	struct timely_params p = calib_params(), e;
	struct timely_state s;
	u64 rate = 400000;	/* 3.2 Mbit/s */
	u32 t = 0;
	int i;

	(void)state;
	p.lr.floor_bytes_ps = 125000;
	p.lr.headroom_pct = 25;
	timely_state_init(&s, &p, rate);
	for (i = 0; i < 20; i++)
		timely_rate_sample(&s, &p, t += 1000, rate / 1000, 1000,
				   false);
	timely_effective(&p, &s, &e);
	assert_int_equal(e.max_rate_bytes_ps, LINE_10G);
	assert_int_equal(e.delta_bytes_ps, 1250000);
	assert_true(timely_sample_self_limited(&s, rate / 1000, 1000));
	assert_true(timely_sample_self_limited(&s, rate * 7 / 8000 + 1, 1000));
	/* Below 7/8 of the pacing: the path's, learnt. */
	assert_false(timely_sample_self_limited(&s, rate / 2000, 1000));
	timely_rate_sample(&s, &p, t += 1000, rate / 2000, 1000, false);
	timely_effective(&p, &s, &e);
	assert_int_equal(e.max_rate_bytes_ps, UNIT_RATE(rate / 2) * 125 / 100);
	/* Then a sample of its own rate above that raises it. */
	timely_rate_sample(&s, &p, t += 1000, rate / 1000, 1000, false);
	timely_effective(&p, &s, &e);
	assert_int_equal(e.max_rate_bytes_ps, UNIT_RATE(rate) * 125 / 100);
}

/*
 * A rate the learnt ceiling lowered in loss recovery restarts at an
 * eighth of the ceiling at least and doubles at each completion below
 * T_low, up to half the ceiling: a ceiling learnt in recovery (2 Mbit/s
 * in a 16-to-1 incast on 100 Mbit/s) held the rate there after the
 * estimate read the line and the queue had drained.  The engine's cuts
 * in between keep the mark, a loss cut ends it; out of recovery the
 * clamp does not mark the rate.
 */
static void test_calib_follow_line(void **state)
{
	struct timely_params p = calib_params(), e;
	struct timely_state s;
	u64 start = 25750000;	/* 206 Mbit/s */
	u64 line = 12500000;	/* 100 Mbit/s */
	u64 slow = 250000;	/* 2 Mbit/s */
	u64 r;
	u32 t = 0;

	(void)state;
	p.lr.floor_bytes_ps = 125000;
	p.lr.headroom_pct = 25;
	timely_state_init(&s, &p, start);
	timely_ack_line(&s, &p, t, 0, 0, false, true, &e);
	assert_int_equal(s.rate_bytes_ps, start);
	assert_int_equal(s.on_line, 0);
	/* Out of recovery the clamp lowers the rate and that is all. */
	timely_ack_line(&s, &p, t += 1000, slow / 1000, 1000, false, false,
			&e);
	assert_int_equal(s.rate_bytes_ps, UNIT_RATE(slow) * 125 / 100);
	assert_int_equal(s.on_line, 0);
	timely_on_completion_at(&s, &p, 100, t += 1000, true, 0);
	timely_rate_sample(&s, &p, t += 1000, line / 1000, 1000, false);
	timely_on_completion_at(&s, &p, 100, t += 1000, true, 0);
	assert_int_equal(s.regime, TIMELY_AI_LOW);
	assert_true(s.rate_bytes_ps < UNIT_RATE(slow) * 2);
	timely_state_init(&s, &p, start);
	/* In recovery: the clamp lowers the rate to its line. */
	timely_ack_line(&s, &p, t += 1000, slow / 1000, 1000, false, true,
			&e);
	assert_int_equal(s.rate_bytes_ps, UNIT_RATE(slow) * 125 / 100);
	assert_int_equal(s.on_line, 1);
	/* The line rises: at an ACK the rate stays... */
	timely_on_completion_at(&s, &p, 100, t += 1000, true, 0);
	r = s.rate_bytes_ps;
	timely_ack_line(&s, &p, t += 1000, line / 1000, 1000, false, true,
			&e);
	assert_int_equal(s.rate_bytes_ps, r);
	assert_int_equal(s.on_line, 1);
	/* A cut of the engine while the queue stands keeps the mark... */
	timely_on_completion_at(&s, &p, 50000, t += 1000, true, 0);
	assert_int_equal(s.regime, TIMELY_MD_HIGH);
	assert_true(s.rate_bytes_ps < r);
	assert_int_equal(s.on_line, 1);
	/* ...and below T_low it restarts at an eighth of the line... */
	r = s.rate_bytes_ps;
	timely_on_completion_at(&s, &p, 100, t += 1000, true, 0);
	timely_effective(&p, &s, &e);
	assert_int_equal(s.regime, TIMELY_AI_LOW);
	assert_int_equal(s.rate_bytes_ps, e.max_rate_bytes_ps / 8 +
			 e.delta_bytes_ps);
	assert_true(2 * r < e.max_rate_bytes_ps / 8);
	assert_int_equal(s.on_line, 1);
	/* ...then doubles at each completion below T_low... */
	while (s.on_line) {
		r = s.rate_bytes_ps;
		timely_on_completion_at(&s, &p, 100, t += 1000, true, 0);
		assert_true(s.rate_bytes_ps >=
			    dcc_min_u64(2 * r, e.max_rate_bytes_ps / 2));
		assert_true(s.rate_bytes_ps <=
			    2 * r + e.hai_n * e.delta_bytes_ps);
		assert_true(s.rate_bytes_ps <= e.max_rate_bytes_ps);
	}
	/* ...up to half the line, then the engine's increase. */
	assert_true(s.rate_bytes_ps >= e.max_rate_bytes_ps / 2);
	r = s.rate_bytes_ps;
	timely_on_completion_at(&s, &p, 100, t += 1000, true, 0);
	assert_true(s.rate_bytes_ps <= r + e.hai_n * e.delta_bytes_ps);
	/* A loss cut unmarks it. */
	timely_state_init(&s, &p, start);
	timely_ack_line(&s, &p, t += 1000, slow / 1000, 1000, false, true,
			&e);
	assert_int_equal(s.on_line, 1);
	timely_loss_cut_rate(&s, &e, TIMELY_LOSS_RECOVERY);
	assert_int_equal(s.on_line, 0);
}

static void test_calib_base_window(void **state)
{
	struct timely_params p = calib_params();
	struct timely_state s;
	u32 t = 0;

	(void)state;
	p.base_win_us = 2000000;	/* 2 s */
	timely_state_init(&s, &p, 100000000ULL);
	feed(&s, &p, &t, 300, 1);
	assert_int_equal(s.base_rtt_us, 300);
	/* A standing queue: the base rises by at most 1/8 per window. */
	feed(&s, &p, &t, 900, 10000);		/* 10 s */
	assert_true(s.base_rtt_us > 300 && s.base_rtt_us <= 300 * 9 / 8 * 9 / 8 * 9 / 8 * 9 / 8 + 4);
	/* A lower sample takes over at once. */
	feed(&s, &p, &t, 250, 1);
	assert_int_equal(s.base_rtt_us, 250);
}

/*
 * One completion of a connection to destination key, as the glue feeds
 * it: the engine RTT goes into the destination's floor fl, and the
 * connection calibrates with the floor.
 */
static void feed_dest(struct timely_state *s, const struct timely_params *p,
		      struct dcc_floor *fl, u32 key, u32 t, u32 rtt)
{
	dcc_floor_update_key(fl, p->base_win_us, key, rtt, false, t);
	timely_on_completion_at(s, p, rtt, t, true, dcc_floor_of(fl, key));
}

/*
 * A connection that starts on a standing queue (beside a loss-based hog,
 * or on the congested one of two paths to the destination) counts from
 * the destination's floor, not from the queue its own samples hold.  A
 * has the idle path (300 us); B, to the same destination, sits behind
 * 40 ms of queue (+-50 us).  Counted from its own minimum, B's T_high was
 * 3 x 40 ms: it never saw the queue (no cut above T_high, no PLB signal),
 * and stayed where it started (plb_twopath: 0 repaths, flows left on the
 * hog's path).  With the floor, its thresholds are the path's and the
 * queue cuts it, in both variants.  A connection to another destination
 * (slot taken over) gets no floor; a lone connection is what it was.
 */
static void test_calib_dest_floor(void **state)
{
	const u32 key = 0x1234, other = 0x5678;
	u32 variant;

	(void)state;
	for (variant = 0; variant <= TIMELY_VARIANT_PATCHED; variant++) {
		struct timely_params p = calib_params(), e;
		struct timely_state a, b, lone, plain;
		struct dcc_floor fl = { 0 }, own = { 0 };
		u32 t = 0, md_high = 0;
		u64 start = 100000000ULL;
		int i;

		p.variant = variant;
		timely_state_init(&a, &p, start);
		timely_state_init(&b, &p, start);
		for (i = 0; i < 100; i++)
			feed_dest(&a, &p, &fl, key, t += 1000, 300);
		for (i = 0; i < 200; i++) {
			t += 1000;
			feed_dest(&a, &p, &fl, key, t, 300);
			feed_dest(&b, &p, &fl, key, t + 500,
				  i & 1 ? 40050 : 39950);
			md_high += b.regime == TIMELY_MD_HIGH;
		}
		timely_effective(&p, &b, &e);
		assert_int_equal(dcc_floor_of(&fl, key), 300);
		assert_int_equal(b.base_rtt_us, 300);
		/* f = 300 + 2 n, n ~ 100 us (alternating +-50). */
		assert_in_range(e.t_high_us, 3 * 300, 3 * (300 + 2 * 110));
		assert_true(40050 > e.t_high_us);
		/* Every update after the first is a cut above T_high. */
		assert_int_equal(md_high, 199);
		assert_int_equal(b.rate_bytes_ps, p.min_rate_bytes_ps);
		/* A's own thresholds did not move. */
		assert_int_equal(a.base_rtt_us, 300);

		/* Another destination's slot: B gets no floor from it. */
		timely_state_init(&b, &p, start);
		fl = (struct dcc_floor){ 0 };
		dcc_floor_update_key(&fl, p.base_win_us, other, 300, false, t);
		for (i = 0; i < 20; i++)
			timely_on_completion_at(&b, &p, 40000, t += 1000, true,
						dcc_floor_of(&fl, key));
		assert_int_equal(b.base_rtt_us, 40000);
		timely_effective(&p, &b, &e);
		assert_true(e.t_high_us >= 3 * 40000);

		/* Alone, a connection is the same with its floor as without. */
		timely_state_init(&lone, &p, start);
		timely_state_init(&plain, &p, start);
		for (i = 0; i < 3000; i++) {
			u32 rtt = 300 + (u32)(i * 37 % 500) + (i / 1000) * 200;

			t += 1000;
			feed_dest(&lone, &p, &own, key, t, rtt);
			timely_on_completion_at(&plain, &p, rtt, t, true, 0);
			assert_int_equal(lone.rate_bytes_ps,
					 plain.rate_bytes_ps);
			assert_int_equal(lone.base_rtt_us, plain.base_rtt_us);
		}
	}
}

/*
 * The VM test bed's dumbbell as a fluid model: capacity 100 Mbit/s, base
 * RTT 270 us, n paced flows at the shipped defaults (calibrate=1,
 * segment_bytes 16 KB).  Each flow completes a segment every
 * segment_bytes / R of its own rate and then sees the queue as it was
 * one base RTT earlier, plus uniform noise of +-jit_us (seeded).  The
 * line-rate estimator gets one path sample of line_bps, what the bed's
 * htb burst lets the first RTTs deliver (300-400 Mbit/s measured there),
 * and one RTT sample through the empty queue (the handshake's).
 * Returns the utilization over the last half of 4 s; the mean and the
 * 99th percentile of the sampled queueing delay in *rtt_mean, *rtt_p99
 * (base RTT included, us) and Jain's index of the flows' bytes in *jain.
 */
#define BED_FLOWS_MAX	8
#define BED_STEP_US	10
#define BED_HIST	27	/* base RTT / step */

struct bed_result {
	double util, rtt_mean, rtt_p99, jain;
};

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

static void bed_run(const struct timely_params *p, unsigned int n,
		    u64 line_bps, u32 jit_us, struct bed_result *res)
{
	static u32 samples[400000 / BED_STEP_US];
	const double cap = 12500000.0, base = 270;
	const u32 steps = 4000000 / BED_STEP_US, half = steps / 2;
	struct test_rng rng = { 0x7113E1ULL };
	struct timely_state s[BED_FLOWS_MAX];
	double next[BED_FLOWS_MAX], bytes[BED_FLOWS_MAX] = { 0 };
	double q = 0, sent = 0, hist[BED_HIST] = { 0 }, sum = 0, sum2 = 0;
	u32 i, k, ns = 0;

	for (k = 0; k < n; k++) {
		/* Paced above the path when the sample is taken. */
		timely_state_init(&s[k], p, LINE_10G);
		timely_rate_sample(&s[k], p, 0, line_bps / 8 / 1000, 1000,
				   false);
		s[k].rate_bytes_ps = line_bps / 8 / 4;
		/* The handshake's sample, through an empty queue. */
		timely_on_completion_at(&s[k], p, 270, 0, true, 0);
		next[k] = 16384.0 / (double)s[k].rate_bytes_ps * 1e6;
	}
	res->rtt_mean = 0;
	for (i = 0; i < steps; i++) {
		double t = (double)i * BED_STEP_US, in = 0, out;
		u32 qd = (u32)(hist[(i + 1) % BED_HIST] / cap * 1e6);

		for (k = 0; k < n; k++) {
			u32 rtt;

			in += (double)s[k].rate_bytes_ps * BED_STEP_US / 1e6;
			if (i >= half)
				bytes[k] += (double)s[k].rate_bytes_ps;
			if (t < next[k])
				continue;
			rtt = (u32)base + qd;
			if (jit_us)
				rtt += (u32)rng_range(&rng, 0, 2 * jit_us) -
				       jit_us;
			timely_on_completion_at(&s[k], p, rtt, (u32)t, true,
						0);
			next[k] = t + (double)p->segment_bytes /
				  (double)s[k].rate_bytes_ps * 1e6;
		}
		q += in;
		out = fmin(q, cap * BED_STEP_US / 1e6);
		q -= out;
		/* Delivered bytes; the fluid queue holds the rest. */
		if (i >= half) {
			sent += out;
			if (i % 10 == 0 && ns < ARRAY_SIZE(samples)) {
				samples[ns] = (u32)base + qd;
				res->rtt_mean += samples[ns++];
			}
		}
		hist[i % BED_HIST] = q;
	}
	res->util = sent / (cap * (steps - half) * BED_STEP_US / 1e6);
	res->rtt_mean /= ns;
	qsort(samples, ns, sizeof(samples[0]), cmp_u32);
	res->rtt_p99 = samples[ns * 99 / 100];
	for (k = 0; k < n; k++) {
		sum += bytes[k];
		sum2 += bytes[k] * bytes[k];
	}
	res->jain = sum * sum / (n * sum2);
}

/*
 * Issue 16 and 25 on the bed's scale: 4 flows at the shipped defaults
 * keep at least 95 % of the link (cubic fills it), and 90 % under 100 and
 * 200 us of delay noise.  The queue's p99 within 4 x the idle p99
 * (0.29 ms) is asserted only with -DDCC_TEST_KNOWN_BUGS: the model's
 * paper variant reaches 1.6 ms with a learnt line of 400 Mbit/s (the VM:
 * 2.2 ms), a ramp that overshoots by what it adds in one completion.
 * This fluid model does not show the VM's utilization loss before the
 * time base (test_calib_time_base() does, on one completion): its queue
 * moves smoothly, so the old noise estimate (the mean change) grew with
 * it and its dead band hid the gradient.
 */
static void test_bed_utilization(void **state)
{
	static const u32 jit[] = { 0, 100, 200 };
	static const u64 line[] = { 100000000ULL, 400000000ULL };
	struct bed_result r;
	unsigned int v, j, l, bad = 0;

	(void)state;
	for (v = 0; v < 2; v++) {
		for (l = 0; l < ARRAY_SIZE(line); l++) {
			for (j = 0; j < ARRAY_SIZE(jit); j++) {
				struct timely_params p;

				timely_params_default(&p, LINE_10G);
				p.calibrate = 1;
				p.min_rate_bytes_ps = 125000;
				p.lr.floor_bytes_ps = 125000;
				p.variant = v;
				bed_run(&p, 4, line[l], jit[j], &r);
				print_message("# bed, %s, learnt line %llu Mbit/s, jitter %u us: util %.3f, rtt mean %.0f p99 %.0f us, jain %.3f\n",
					      v ? "patched" : "paper",
					      (unsigned long long)(line[l] / 1000000),
					      jit[j], r.util, r.rtt_mean,
					      r.rtt_p99, r.jain);
				bad += r.util < (jit[j] ? 0.90 : 0.95);
#ifdef DCC_TEST_KNOWN_BUGS
				bad += !jit[j] && r.rtt_p99 > 4 * 290;
#endif
			}
		}
	}
	assert_int_equal(bad, 0);
}

static void test_loss_cut_undo(void **state)
{
	struct timely_params p = paper_params();
	struct timely_state s;

	(void)state;
	timely_state_init(&s, &p, 400000000ULL);
	timely_loss_cut_rate(&s, &p, TIMELY_LOSS_RTO);
	assert_int_equal(s.rate_bytes_ps, 200000000ULL);
	assert_int_equal(s.regime, TIMELY_LOSS_RTO);
	timely_undo(&s, &p);
	assert_int_equal(s.rate_bytes_ps, 400000000ULL);
	assert_int_equal(s.regime, TIMELY_UNDO);
	/* Undo never exceeds the ceiling. */
	s.rate_bytes_ps = LINE_10G;
	timely_undo(&s, &p);
	assert_int_equal(s.rate_bytes_ps, LINE_10G);
}

/*
 * The safeguard window before the first completion.  Traced in the bench's
 * 100-flow scenario (Documentation/timely.rst, "Many flows"): the flows
 * start at about 400 Mbit/s each, the queue builds before any of them
 * completes a segment, and a window over srtt grew with it (median 324
 * packets, largest 2860, at 0.15 s): 4034 drops, then timeouts.  The
 * window must not grow with the queue: before a base RTT exists it
 * covers the connection's minimum RTT (the handshake's), never srtt.
 */
static void test_window_rtt_no_srtt(void **state)
{
	(void)state;
	/* No completion yet, handshake 280 us (srtt is not an input). */
	assert_int_equal(timely_window_rtt_us(0, 280, 500), 500);
	assert_int_equal(timely_window_rtt_us(0, 900, 500), 900);
	/* No sample at all: T_high. */
	assert_int_equal(timely_window_rtt_us(0, 0, 500), 500);
	/* A base RTT wins over both. */
	assert_int_equal(timely_window_rtt_us(700, 280, 500), 700);
	assert_int_equal(timely_window_rtt_us(300, 280, 840), 840);
}

/*
 * The safeguard window while the engine has no RTT sample.  Traced in the
 * bench's 100-flow scenario (Documentation/timely.rst, "Many flows"): 100
 * flows start together at 400-412 Mbit/s each (their initial window over
 * the handshake's RTT), and the first ACK's window, twice that rate over
 * T_high (500 us before calibration), let each have 37 packets out
 * before its first completion came back from behind the queue: 3700
 * packets offered to the 1000-packet FIFO, 3600-3900 drops, 5-14
 * timeouts a run.  Until a completion the window is at most TCP's
 * initial window, so 100 flows offer at most the FIFO itself; the
 * safeguard returns with the first sample, and a restart (timeout, idle)
 * caps it again.
 */
static void test_window_start(void **state)
{
	struct timely_params p = paper_params();
	struct timely_state s;
	u32 w, start, iw = 10;

	(void)state;
	timely_state_init(&s, &p, 400000000ULL / 8);
	w = dcc_safeguard_cwnd(s.rate_bytes_ps,
			       timely_window_rtt_us(0, 280, p.t_high_us),
			       1448, 200, 4, DCC_U32_MAX);
	assert_true(w >= 30);
	start = timely_start_cwnd(&s, w, iw);
	assert_int_equal(start, iw);
	assert_true(100 * start <= 1000);
	/* The first completion (it only sets prev_rtt): the safeguard. */
	assert_int_equal(timely_on_completion(&s, &p, 100000), TIMELY_FIRST);
	assert_int_equal(timely_start_cwnd(&s, w, iw), w);
	/* A timeout or an idle restart forgets the sample: capped again. */
	timely_restart(&s);
	assert_int_equal(timely_start_cwnd(&s, w, iw), iw);
	/* Never raised to the initial window; an initial window of 0 is 1. */
	assert_int_equal(timely_start_cwnd(&s, 4, iw), 4);
	assert_int_equal(timely_start_cwnd(&s, w, 0), 1);
	assert_int_equal(timely_start_cwnd(&s, 0, iw), 0);
}

/*
 * The start rate: the initial window over the RTT (1 ms without one), at
 * most permille of the ceiling, and no overflow at the extremes.
 */
static void test_start_rate(void **state)
{
	(void)state;
	/* 10 x 1448 B over 280 us: 51.7 MB/s (414 Mbit/s). */
	assert_int_equal(timely_start_rate(14480, 280, LINE_10G, 100),
			 14480ULL * 1000000 / 280);
	/* No RTT: over 1 ms, 14.48 MB/s (116 Mbit/s). */
	assert_int_equal(timely_start_rate(14480, 0, LINE_10G, 100),
			 14480000ULL);
	/* Over 36 ms (a congested path's srtt): 3.2 Mbit/s. */
	assert_int_equal(timely_start_rate(14480, 36000, LINE_10G, 100),
			 14480ULL * 1000000 / 36000);
	/* Capped at permille of the ceiling. */
	assert_int_equal(timely_start_rate(14480, 10, LINE_10G, 100),
			 LINE_10G / 10);
	assert_true(timely_start_rate(~0ULL, 1, ~0ULL, ~0U) <=
		    TIMELY_RATE_LIMIT);
	assert_int_equal(timely_start_rate(0, 0, LINE_10G, 100), 0);
}

/*
 * A repath (PLB's new flow label), as in the bench's two-path scenario
 * (Documentation/timely.rst, "A repath"): on path A, behind a cubic
 * flow's 36 ms queue, the connection was cut to about 2 Mbit/s and learnt
 * the path (base RTT, noise, line rate); path B is quiet, 290 us.  After
 * timely_repath() it holds nothing of A: the start rate of a new
 * connection without an RTT sample (10 x 1448 B over 1 ms, 116 Mbit/s),
 * the parameters' thresholds and ceiling, the initial window until its
 * first completion; on B it then only increases.  Without the repath it
 * climbs from 2 Mbit/s, and is still below 64 Mbit/s after 100
 * completions on B (two per 32 KB RPC).
 */
static void test_repath(void **state)
{
	struct timely_params p = calib_params(), e, e0;
	struct timely_state s, stay;
	u32 t = 0, iw = 10, i;
	u64 prev;

	(void)state;
	timely_state_init(&s, &p, 250000);
	/* Path A: 36 ms with +-2 ms of queue motion, delivering 2 Mbit/s. */
	for (i = 0; i < 200; i++) {
		timely_rate_sample(&s, &p, t, 250000 / 100, 10000, false);
		timely_on_completion_at(&s, &p, 36000 + (i & 1 ? 2000 : 0) -
					(i % 3 ? 0 : 1000), t, true, 0);
		t += 5000;
	}
	timely_effective(&p, &s, &e);
	assert_true(s.base_rtt_us >= 35000);
	assert_true(s.noise_var > 0);
	assert_true(e.max_rate_bytes_ps < p.max_rate_bytes_ps);
	assert_true(s.rate_bytes_ps < 500000);
	stay = s;

	timely_repath(&s, &p, iw * 1448ULL, 100);
	assert_int_equal(s.rate_bytes_ps, 14480000ULL);
	assert_false(s.flags & TIMELY_F_PREV_VALID);
	assert_int_equal(s.rtt_diff_fx, 0);
	assert_int_equal(s.neg_count, 0);
	assert_int_equal(s.acked_bytes, 0);
	assert_int_equal(s.seg_min_rtt_us, 0);
	assert_int_equal(s.base_rtt_us, 0);
	assert_int_equal(s.noise_var, 0);
	assert_int_equal(s.regime, TIMELY_FIRST);
	assert_int_equal(dcc_linerate_max(&s.lr), 0);
	/* The thresholds and ceiling of a new connection. */
	timely_effective(&p, &s, &e);
	e0 = p;
	assert_int_equal(e.max_rate_bytes_ps, e0.max_rate_bytes_ps);
	assert_int_equal(e.t_high_us, e0.t_high_us);
	assert_int_equal(e.delta_bytes_ps, e0.delta_bytes_ps);
	/* The initial window until the first completion on the new path. */
	assert_int_equal(timely_start_cwnd(&s, 100, iw), iw);
	/*
	 * Until then a delivery-rate sample is a lower bound: one whose
	 * interval began on A (1 Mbit/s, not app-limited) never starts the
	 * estimate, which would clamp the new start rate to 1.25 Mbit/s.
	 */
	assert_true(s.new_path);
	timely_rate_sample(&s, &p, t, 1250, 10000, false);
	assert_int_equal(dcc_linerate_max(&s.lr), 0);
	timely_effective(&p, &s, &e);
	assert_int_equal(e.max_rate_bytes_ps, p.max_rate_bytes_ps);

	/* Path B, 290 us: the first sample, then increases only. */
	assert_int_equal(timely_on_completion_at(&s, &p, 290, t, true, 0),
			 TIMELY_FIRST);
	assert_false(s.new_path);
	assert_int_equal(timely_start_cwnd(&s, 100, iw), 100);
	for (i = 0; i < 20; i++) {
		prev = s.rate_bytes_ps;
		t += 200;
		timely_on_completion_at(&s, &p, 290, t, true, 0);
		assert_true(s.rate_bytes_ps > prev);
	}
	assert_true(s.rate_bytes_ps >= 14480000ULL);
	/*
	 * From then on samples teach the line again: B's 50 Mbit/s (no
	 * headroom in these parameters) is the ceiling.
	 */
	timely_rate_sample(&s, &p, t, 6250000 / 100, 10000, false);
	assert_int_equal(dcc_linerate_max(&s.lr), 6250000 & ~255ULL);
	timely_on_completion_at(&s, &p, 290, t + 200, true, 0);
	assert_true(s.rate_bytes_ps <= 6250000);

	/* Staying with A's state: far below 64 Mbit/s after 100 on B. */
	for (i = 0; i < 100; i++) {
		t += 5000;
		timely_on_completion_at(&stay, &p, 290, t, true, 0);
	}
	assert_true(stay.rate_bytes_ps < 8000000);
}

/*
 * The glue's end of the noise (tcp_timely.c: dcc_noise_sample() with the
 * gate of the destination's floor floor_us before the sample).
 */
static u32 glue_end(struct dcc_bd *bd, u32 floor_us)
{
	return dcc_bd_end_held(bd, timely_noise_gate_us(floor_us));
}

/*
 * One sample of a destination's floor and noise, the glue's order
 * (dcc_noise_sample(), then dcc_floor_sample()): the noise's end is
 * judged against the floor before the sample, the floor folds the sample
 * in, then is raised by lift(floor, width) when the noise stopped with
 * it.  Returns true when the floor was raised; counts the ends in *ends
 * (when not NULL).
 */
static bool floor_noise_step(struct dcc_floor *fl, struct dcc_bd *bd,
			     u32 key, u64 t, u32 d, bool lift, u32 *ends)
{
	u32 f = dcc_floor_of(fl, key), end;

	dcc_bd_sample(bd, d);
	end = glue_end(bd, f);
	dcc_floor_update_key(fl, 10000000, key, d, false, t);
	if (ends)
		*ends += !!end;
	return lift && end &&
	       dcc_floor_raise(fl, d,
			       timely_floor_lift_us(f, end, dcc_bd_low_us(bd)),
			       t);
}

static bool floor_noise_feed(struct dcc_floor *fl, struct dcc_bd *bd,
			     u32 key, u64 t, u32 d, bool lift)
{
	return floor_noise_step(fl, bd, key, t, d, lift, NULL);
}

/*
 * The floor after ACK-path noise stops, on the VM bed's scale (278 us,
 * uniform +-200 us): taken under the noise it sits in the noise's low
 * tail (85-93 us in the VM), and T_low and T_high (1.5 and 3 times it)
 * with it, so the quiet path read as a standing queue (3 f < 278 us).
 * When the noise stops the floor is raised to its centre, capped by the
 * quiet sample: back near the path within the quiet samples that follow
 * (eight draws, however the noise's false ends fell before it stopped);
 * not raised (lift 0, as before), it stayed in the tail for its 10 s
 * window.  A queue that moves by a packet (120 us) at a time never lifts
 * the floor above its lowest sample.
 */
static void test_floor_noise_end(void **state)
{
	const u32 key = 7;
	int lift, seed;

	(void)state;
	for (seed = 0; seed < 8; seed++) {
		for (lift = 0; lift <= 1; lift++) {
			struct test_rng r = { 5 + seed };
			struct dcc_floor fl = { 0 };
			struct dcc_bd bd = { 0 };
			u64 t = 1000000;
			int i;

			for (i = 0; i < 4000 + seed * 500; i++)
				floor_noise_feed(&fl, &bd, key, t += 50,
						 78 + (u32)rng_range(&r, 0, 400),
						 lift);
			assert_true(dcc_floor_of(&fl, key) < 120);
			for (i = 0; i < 2000; i++)
				floor_noise_feed(&fl, &bd, key, t += 50, 278,
						 lift);
			if (lift)
				assert_in_range(dcc_floor_of(&fl, key), 250,
						278);
			else
				assert_true(dcc_floor_of(&fl, key) < 120);
		}
	}
	{
		struct test_rng r = { 9 };
		struct dcc_floor fl = { 0 };
		struct dcc_bd bd = { 0 };
		u64 t = 1000000;
		u32 q = 600;
		int i;

		for (i = 0; i < 20000; i++) {
			u64 k = rng_range(&r, 0, 3);

			if (k == 0 && q >= 120)
				q -= 120;
			else if (k == 1 && q < 1200)
				q += 120;
			floor_noise_feed(&fl, &bd, key, t += 50, 278 + q, true);
		}
		assert_int_equal(dcc_floor_of(&fl, key), 278);
	}
}

/*
 * Timely's own queue on a quiet path, as the destination's noise table
 * sees it on the VM bed at J = 0 (4 patched flows, every ACK's engine
 * RTT, about 4000 a second; traced): the path's 294 us with a few
 * samples a packet or two above it, then every 40-150 ms a queue that
 * builds to 1.5-2.2 ms within 60-100 samples and drains as fast, each
 * flow's ACKs of one burst 150-250 us apart (its own packets queued
 * behind each other) and the four flows' bursts interleaved.  Those
 * swings read as noise up to 490 us wide (the floor's 1.8 times) that
 * stops when the queue drains: 110 ends in a 6 s cell, and the floor
 * raised on 93-115 of them.  The model's cycles come closer together
 * than the bed's: at least as wide as the floor for up to 746 samples in
 * a row (the bed: 196), and 47 raises in 120 cycles with every end
 * counted (dcc_bd_end(), before the gate).  Noise must have been at least
 * as wide as the floor for DCC_BD_HELD_MIN samples in a row before its
 * end raises the floor (timely_noise_gate_us()): no raise here, and the
 * floor stays at the path.
 */
static void test_floor_quiet_queue(void **state)
{
	const u32 key = 7, base = 294;
	struct test_rng r = { 0x25 };
	struct dcc_floor fl = { 0 };
	struct dcc_bd bd = { 0 };
	u32 raises = 0, widest = 0, run = 0, maxrun = 0;
	u64 t = 1000000;
	int c, i;

	(void)state;
	for (c = 0; c < 120; c++) {
		int idle = 50 + (int)rng_range(&r, 0, 250);
		int ramp = 60 + (int)rng_range(&r, 0, 40);
		u32 top = 1500 + (u32)rng_range(&r, 0, 700);

		for (i = 0; i < idle; i++) {
			u32 d = base;

			if (rng_range(&r, 0, 5) == 0)
				d += (u32)rng_range(&r, 0, 150);
			raises += floor_noise_feed(&fl, &bd, key, t += 250, d,
						   true);
			run = dcc_bd_noise_us(&bd) >= base ? run + 1 : 0;
			maxrun = dcc_max_u32(maxrun, run);
		}
		for (i = 0; i < 2 * ramp; i++) {
			u32 q = (u32)((u64)top * (i < ramp ? i : 2 * ramp - i) /
				      ramp);
			u32 burst = 80 + (u32)rng_range(&r, 0, 60);
			u32 d = base + q / 2 + (u32)(i % 4) * burst;

			raises += floor_noise_feed(&fl, &bd, key, t += 250, d,
						   true);
			widest = dcc_max_u32(widest, dcc_bd_noise_us(&bd));
			run = dcc_bd_noise_us(&bd) >= base ? run + 1 : 0;
			maxrun = dcc_max_u32(maxrun, run);
		}
	}
	print_message("# quiet queue: widest %u us, at least the floor's width for %u samples in a row, %u raises\n",
		      widest, maxrun, raises);
	/* Wider than the floor, and for longer than on the bed (196). */
	assert_true(widest > base);
	assert_true(maxrun > 500 && maxrun < DCC_BD_HELD_MIN);
	assert_int_equal(raises, 0);
	assert_int_equal(dcc_floor_of(&fl, key), base);
}

/*
 * The paper variant's own queue on a quiet path (the VM bed at J = 0, 4
 * flows, traced): its cycles come back to back, so the width stays at
 * least the floor's for 1024-2047 samples in a row in most 8 s cells and
 * 2048 or more on some runs (TimelyNoiseEnded 1 and 3 in two CI runs of
 * timely_noise.sh); then the gate holds, and the next end, with the queue
 * drained, raised the floor to the path plus a packet or to a sample of
 * the next burst (with the gate at 512 samples: 27 raises in 6 cells, to
 * 15-55 us above the 279 us path and up to 587 us, each undone by the
 * next sample at the path).  The model: cycles 5-40 samples apart, every
 * eighth followed by 400-600 idle samples at the path plus up to 60 us.
 * The gate holds and ends come (the width alone cannot tell this queue
 * from noise), but the lowest recent sample (dcc_bd_low_us()) is the
 * path, within half the floor above it: no raise, the floor stays at the
 * path.
 */
static void test_floor_paper_queue(void **state)
{
	const u32 key = 7, base = 279;
	struct test_rng r = { 0x31 };
	struct dcc_floor fl = { 0 };
	struct dcc_bd bd = { 0 };
	u32 raises = 0, ends = 0, run = 0, maxrun = 0;
	u64 t = 1000000;
	int c, i;

	(void)state;
	for (c = 0; c < 160; c++) {
		int idle = c % 16 == 15 ? 400 + (int)rng_range(&r, 0, 200) :
					(int)rng_range(&r, 0, 15);
		int ramp = 60 + (int)rng_range(&r, 0, 40);
		u32 top = 1500 + (u32)rng_range(&r, 0, 700);

		for (i = 0; i < idle + 2 * ramp; i++) {
			int k = i - idle;
			u32 d;

			if (k < 0) {
				d = base + (u32)rng_range(&r, 0, 60);
			} else {
				u32 q = (u32)((u64)top * (k < ramp ? k :
							 2 * ramp - k) / ramp);

				d = base + q / 2 + (u32)(k % 4) *
				    (120 + (u32)rng_range(&r, 0, 80));
			}
			raises += floor_noise_step(&fl, &bd, key, t += 250, d,
						   true, &ends);
			run = dcc_bd_noise_us(&bd) >= base ? run + 1 : 0;
			maxrun = dcc_max_u32(maxrun, run);
		}
	}
	print_message("# paper queue: at least the floor's width for %u samples in a row, %u ends of noise that went on, %u raises\n",
		      maxrun, ends, raises);
	assert_true(maxrun >= DCC_BD_HELD_MIN);
	assert_true(ends > 0);
	assert_int_equal(raises, 0);
	assert_int_equal(dcc_floor_of(&fl, key), base);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_params_default),
		cmocka_unit_test(test_first_sample),
		cmocka_unit_test(test_sequences_paper),
		cmocka_unit_test(test_sequences_patched),
		cmocka_unit_test(test_hai),
		cmocka_unit_test(test_hai_alpha_one),
		cmocka_unit_test(test_thresholds),
		cmocka_unit_test(test_caps),
		cmocka_unit_test(test_extreme_params),
		cmocka_unit_test(test_serialization),
		cmocka_unit_test(test_completion_due),
		cmocka_unit_test(test_stretch_ack),
		cmocka_unit_test(test_patched_fixed_point),
		cmocka_unit_test(test_patched_single_flow),
		cmocka_unit_test(test_two_flows),
		cmocka_unit_test(test_random_invariants),
		cmocka_unit_test(test_calib_off_is_paper),
		cmocka_unit_test(test_calib_thresholds),
		cmocka_unit_test(test_calib_dead_band),
		cmocka_unit_test(test_calib_time_base),
		cmocka_unit_test(test_calib_line_rate),
		cmocka_unit_test(test_calib_app_limited_start),
		cmocka_unit_test(test_calib_self_limited),
		cmocka_unit_test(test_calib_follow_line),
		cmocka_unit_test(test_calib_base_window),
		cmocka_unit_test(test_calib_dest_floor),
		cmocka_unit_test(test_floor_noise_end),
		cmocka_unit_test(test_floor_quiet_queue),
		cmocka_unit_test(test_floor_paper_queue),
		cmocka_unit_test(test_bed_utilization),
		cmocka_unit_test(test_loss_cut_undo),
		cmocka_unit_test(test_window_rtt_no_srtt),
		cmocka_unit_test(test_window_start),
		cmocka_unit_test(test_start_rate),
		cmocka_unit_test(test_repath),
	};

	return cmocka_run_group_tests_name("dcc_timely", tests, NULL, NULL);
}
