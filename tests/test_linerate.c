// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of include/dcc_linerate.h, the line-rate estimator.
 * Expectations are computed here from the documented rule (a brute-force
 * windowed maximum over the samples kept in a list, exact integers),
 * never with the helpers under test.
 */
#include "dcc_test.h"

#include "dcc_linerate.h"

#define MBPS(x)		((u64)(x) * 125000ULL)	/* Mbit/s in B/s */
#define UNIT(b)		((b) >> DCC_LINERATE_UNIT_SHIFT << DCC_LINERATE_UNIT_SHIFT)

_Static_assert(sizeof(struct dcc_linerate) <= 28,
	       "dcc_linerate must stay small (socket congestion-control area)");

static struct dcc_linerate_params params(void)
{
	struct dcc_linerate_params p = {
		.cap_bytes_ps = MBPS(10000),
		.init_bytes_ps = MBPS(1000),
		.floor_bytes_ps = MBPS(1),
		.win_us = 1000000,
		.headroom_pct = 25,
	};

	return p;
}

/* One sample of rate bytes_ps over 1 ms at now. */
static bool sample(struct dcc_linerate *lr, const struct dcc_linerate_params *p,
		   u32 now, u64 bytes_ps, bool app_limited)
{
	return dcc_linerate_sample(lr, p, now, bytes_ps / 1000, 1000,
				   app_limited);
}

static void test_before_samples(void **state)
{
	struct dcc_linerate_params p = params();
	struct dcc_linerate lr;

	(void)state;
	dcc_linerate_init(&lr);
	assert_int_equal(dcc_linerate_max(&lr), 0);
	/* Only the cap known: the cap. */
	assert_int_equal(dcc_linerate_bytes_ps(&lr, &p), MBPS(10000));
	/* A device slower than the cap bounds it. */
	dcc_linerate_set_dev(&lr, MBPS(100));
	assert_int_equal(dcc_linerate_bytes_ps(&lr, &p), UNIT(MBPS(100)));
	/* Neither known: init. */
	p.cap_bytes_ps = 0;
	dcc_linerate_set_dev(&lr, 0);
	assert_int_equal(dcc_linerate_bytes_ps(&lr, &p), MBPS(1000));
	p.init_bytes_ps = 0;
	assert_int_equal(dcc_linerate_bytes_ps(&lr, &p), 1);
}

static void test_learns_with_headroom(void **state)
{
	struct dcc_linerate_params p = params();
	struct dcc_linerate lr;

	(void)state;
	dcc_linerate_init(&lr);
	assert_true(sample(&lr, &p, 1000, MBPS(80), false));
	assert_int_equal(dcc_linerate_max(&lr), UNIT(MBPS(80)));
	assert_int_equal(dcc_linerate_bytes_ps(&lr, &p),
			 UNIT(MBPS(80)) * 125 / 100);
	/* Lower samples do not lower it within the window. */
	assert_true(sample(&lr, &p, 2000, MBPS(40), false));
	assert_int_equal(dcc_linerate_max(&lr), UNIT(MBPS(80)));
	/* A higher one raises it at once. */
	assert_true(sample(&lr, &p, 3000, MBPS(95), false));
	assert_int_equal(dcc_linerate_max(&lr), UNIT(MBPS(95)));
	/* Never above the cap, nor a known device speed. */
	p.cap_bytes_ps = MBPS(100);
	assert_int_equal(dcc_linerate_bytes_ps(&lr, &p), MBPS(100));
	p.cap_bytes_ps = MBPS(10000);
	dcc_linerate_set_dev(&lr, MBPS(110));
	assert_int_equal(dcc_linerate_bytes_ps(&lr, &p), UNIT(MBPS(110)));
	/* Nor below the floor. */
	dcc_linerate_set_dev(&lr, 0);
	p.floor_bytes_ps = MBPS(500);
	assert_int_equal(dcc_linerate_bytes_ps(&lr, &p), MBPS(500));
	/* Headroom 0: the maximum itself; headroom is capped. */
	p.floor_bytes_ps = 0;
	p.headroom_pct = 0;
	assert_int_equal(dcc_linerate_bytes_ps(&lr, &p), UNIT(MBPS(95)));
	p.headroom_pct = 100000;
	assert_int_equal(dcc_linerate_bytes_ps(&lr, &p),
			 UNIT(MBPS(95)) * (100 + DCC_LINERATE_HEADROOM_MAX) / 100);
}

static void test_app_limited(void **state)
{
	struct dcc_linerate_params p = params();
	struct dcc_linerate lr;

	(void)state;
	dcc_linerate_init(&lr);
	/*
	 * An app-limited sample with nothing better is a lower bound, no
	 * estimate: the bound (the cap) stays the line rate.
	 */
	assert_false(sample(&lr, &p, 1000, MBPS(10), true));
	assert_int_equal(dcc_linerate_max(&lr), 0);
	assert_int_equal(dcc_linerate_bytes_ps(&lr, &p), MBPS(10000));
	assert_true(sample(&lr, &p, 2000, MBPS(50), false));
	/* Below the maximum: left out. */
	assert_false(sample(&lr, &p, 3000, MBPS(20), true));
	assert_int_equal(dcc_linerate_max(&lr), UNIT(MBPS(50)));
	/* Above: used. */
	assert_true(sample(&lr, &p, 4000, MBPS(60), true));
	assert_int_equal(dcc_linerate_max(&lr), UNIT(MBPS(60)));
	/* No interval or nothing delivered: no sample. */
	assert_false(dcc_linerate_sample(&lr, &p, 5000, 1000, 0, false));
	assert_false(dcc_linerate_sample(&lr, &p, 5000, 0, 1000, false));
	assert_int_equal(dcc_linerate_max(&lr), UNIT(MBPS(60)));
}

/*
 * A fair-share flow discovers spare capacity: a sender that can go up to
 * the estimate, on a path of capacity 100, starts held to 25 and is
 * released; each round it delivers min(estimate, 100).
 */
static void test_discovers_capacity(void **state)
{
	struct dcc_linerate_params p = params();
	struct dcc_linerate lr;
	u64 cap = MBPS(100), est;
	u32 t = 0;
	int i;

	(void)state;
	p.cap_bytes_ps = MBPS(10000);
	dcc_linerate_init(&lr);
	for (i = 0; i < 10; i++, t += 1000)
		sample(&lr, &p, t, MBPS(25), false);
	est = dcc_linerate_bytes_ps(&lr, &p);
	assert_true(est >= MBPS(31) && est <= MBPS(32));
	for (i = 0; i < 20; i++, t += 1000) {
		est = dcc_linerate_bytes_ps(&lr, &p);
		sample(&lr, &p, t, est < cap ? est : cap, false);
	}
	/* 25 * 1.25^7 > 100: within 20 rounds at the capacity. */
	assert_int_equal(dcc_linerate_max(&lr), UNIT(MBPS(100)));
	est = dcc_linerate_bytes_ps(&lr, &p);
	assert_int_equal(est, UNIT(MBPS(100)) * 125 / 100);
}

/* Brute-force windowed max against the three-slot one. */
static void test_window_brute_force(void **state)
{
	enum { N = 20000 };
	static u32 ts[N], vs[N];
	struct test_rng rng = { 0xC0FFEE123ULL };
	struct dcc_linerate_params p = params();
	struct dcc_linerate lr;
	u32 t = 0xfff00000U;	/* wraps during the run */
	int i, j;

	(void)state;
	p.win_us = 10000;
	dcc_linerate_init(&lr);
	for (i = 0; i < N; i++) {
		u64 r = rng_range(&rng, 1, 1000) * 1000000ULL;
		u32 best = 0, m;
		bool found = false;

		t += (u32)rng_range(&rng, 1, 700);
		ts[i] = t;
		vs[i] = dcc_linerate_to_unit(r);
		assert_true(dcc_linerate_sample(&lr, &p, t, r / 1000, 1000,
						false));
		m = (u32)(dcc_linerate_max(&lr) >> DCC_LINERATE_UNIT_SHIFT);
		/*
		 * The running max is an approximation: it is a sample of
		 * at most two windows ago, never below the best of the
		 * last quarter window, never above the best of the last
		 * two windows, and never older than two windows.
		 */
		for (j = i; j >= 0 && t - ts[j] <= 2 * p.win_us; j--) {
			if (vs[j] == m)
				found = true;
			if (t - ts[j] <= p.win_us / 4 && vs[j] > best)
				best = vs[j];
		}
		if (m < best)
			fail_msg("step %d: max %u below recent best %u", i, m,
				 best);
		if (!found)
			fail_msg("step %d: max %u not a recent sample", i, m);
	}
}

/* A slower path: the estimate follows down within the window. */
static void test_follows_down(void **state)
{
	struct dcc_linerate_params p = params();
	struct dcc_linerate lr;
	u32 t = 0;
	int i;

	(void)state;
	p.win_us = 100000;
	dcc_linerate_init(&lr);
	for (i = 0; i < 100; i++, t += 1000)
		sample(&lr, &p, t, MBPS(1000), false);
	for (i = 0; i < 250; i++, t += 1000)
		sample(&lr, &p, t, MBPS(100), false);
	assert_int_equal(dcc_linerate_max(&lr), UNIT(MBPS(100)));
}

static void test_units(void **state)
{
	struct dcc_linerate lr;

	(void)state;
	assert_int_equal(dcc_linerate_to_unit(0), 0);
	/* 2^40 B/s is one unit more than a u32 holds: saturated. */
	assert_int_equal(dcc_linerate_to_unit(~0ULL), DCC_U32_MAX);
	assert_int_equal(dcc_linerate_sample_rate(1000, 1000), 1000000);
	assert_int_equal(dcc_linerate_sample_rate(~0ULL, 1),
			 DCC_LINERATE_LIMIT);
	assert_int_equal(dcc_linerate_sample_rate(5, 0), 0);
	/* A known but tiny device speed stays known. */
	dcc_linerate_init(&lr);
	dcc_linerate_set_dev(&lr, 1);
	assert_int_equal(lr.dev, 1);
	assert_int_equal(dcc_linerate_min_known(0, 7), 7);
	assert_int_equal(dcc_linerate_min_known(7, 0), 7);
	assert_int_equal(dcc_linerate_min_known(9, 7), 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_before_samples),
		cmocka_unit_test(test_learns_with_headroom),
		cmocka_unit_test(test_app_limited),
		cmocka_unit_test(test_discovers_capacity),
		cmocka_unit_test(test_window_brute_force),
		cmocka_unit_test(test_follows_down),
		cmocka_unit_test(test_units),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
