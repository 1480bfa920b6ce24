// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of include/dcc_fixed.h and the userspace part of
 * include/dcc_pacing.h.  Every expectation is computed here independently
 * (exact 128-bit integer arithmetic or doubles), never with the helpers
 * under test.
 */
#include "dcc_test.h"

#include "dcc_fixed.h"
#include "dcc_pacing.h"

typedef unsigned __int128 u128;

#define FX_ONE_D	65536.0
#define U64_ALL		(~0ULL)

/* True iff r == floor(sqrt(x)), checked exactly: r^2 <= x < (r + 1)^2. */
static bool is_floor_sqrt(u64 x, u64 r)
{
	return (u128)r * r <= x && (u128)(r + 1) * (r + 1) > x;
}

/* ---- dcc_isqrt64 ---- */

static void test_isqrt64_exhaustive_small(void **state)
{
	u64 x;

	(void)state;
	for (x = 0; x < (1ULL << 22); x++) {
		u32 r = dcc_isqrt64(x);

		if (!is_floor_sqrt(x, r))
			fail_msg("isqrt64(%llu) = %u", (unsigned long long)x, r);
	}
}

static void test_isqrt64_large(void **state)
{
	static const u64 edge[] = {
		U64_ALL, U64_ALL - 1, 1ULL << 63, (1ULL << 63) - 1,
		1ULL << 62, (1ULL << 62) - 1, 1ULL << 32, (1ULL << 32) - 1,
		0xFFFFFFFE00000001ULL,		/* (2^32 - 1)^2 */
		0xFFFFFFFE00000000ULL,		/* (2^32 - 1)^2 - 1 */
	};
	struct test_rng rng = { 0x9E3779B97F4A7C15ULL };
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(edge); i++) {
		u32 r = dcc_isqrt64(edge[i]);

		if (!is_floor_sqrt(edge[i], r))
			fail_msg("isqrt64(%#llx) = %u",
				 (unsigned long long)edge[i], r);
	}
	assert_int_equal(dcc_isqrt64(U64_ALL), 0xFFFFFFFFU);

	for (i = 0; i < 200000; i++) {
		/* Spread over all magnitudes, and hit squares and their
		 * neighbours, where an off-by-one would show.
		 */
		unsigned int bits = 1 + (unsigned int)rng_range(&rng, 0, 63);
		u64 x = rng_next(&rng) >> (64 - bits);
		u64 k = rng_next(&rng) >> 32;
		u64 sq = k * k;
		const u64 cand[] = { x, sq, sq - 1, sq + 1 };
		unsigned int j;

		for (j = 0; j < ARRAY_SIZE(cand); j++) {
			u32 r = dcc_isqrt64(cand[j]);

			if (!is_floor_sqrt(cand[j], r))
				fail_msg("isqrt64(%#llx) = %u",
					 (unsigned long long)cand[j], r);
		}
	}
}

/* ---- dcc_fx_inv_sqrt ---- */

/*
 * 1/sqrt(c / 2^16) in fixed point is 2^24 / sqrt(c).  The helper computes
 * floor(2^32 / floor(sqrt(c * 2^16))): the relative error is at most
 * 1 / (R - 1) above (R = sqrt(c * 2^16), the root truncated by < 1) and one
 * unit below (the final truncation).
 */
static void check_inv_sqrt(u32 c)
{
	double want = 16777216.0 / sqrt((double)(c ? c : 1));
	double root = sqrt((double)(c ? c : 1) * FX_ONE_D);
	double got = dcc_fx_inv_sqrt(c);
	double rel = (got - want) / want;

	if (rel > 1.0 / (root - 1.0) + 1e-12 || got < want - 1.0 - 1e-9)
		fail_msg("fx_inv_sqrt(%u) = %.0f, expected %.3f", c, got, want);
	/*
	 * Over the window range, 0.001 (65 fx) to 256 packets, better than
	 * 5e-4 (the root is >= 2063, the result >= 4096).
	 */
	if (c >= 65 && c <= (256U << 16) && fabs(rel) > 5e-4)
		fail_msg("fx_inv_sqrt(%u) rel error %.3g", c, rel);
}

static void test_fx_inv_sqrt(void **state)
{
	struct test_rng rng = { 12345 };
	u64 c;
	int i;

	(void)state;
	/* Exact points: 1/sqrt(1) = 1, 1/sqrt(4) = 0.5, 1/sqrt(0.25) = 2. */
	assert_int_equal(dcc_fx_inv_sqrt(DCC_FX_ONE), DCC_FX_ONE);
	assert_int_equal(dcc_fx_inv_sqrt(4 * DCC_FX_ONE), DCC_FX_ONE / 2);
	assert_int_equal(dcc_fx_inv_sqrt(DCC_FX_ONE / 4), 2 * DCC_FX_ONE);
	assert_int_equal(dcc_fx_inv_sqrt(256 * DCC_FX_ONE), DCC_FX_ONE / 16);
	/* 0 is treated as the smallest step, 1/sqrt(2^-16) = 256. */
	assert_int_equal(dcc_fx_inv_sqrt(0), 256 * DCC_FX_ONE);
	assert_int_equal(dcc_fx_inv_sqrt(1), 256 * DCC_FX_ONE);

	for (c = 0; c < (1U << 16); c++)
		check_inv_sqrt((u32)c);
	for (c = 1U << 16; c <= 0xFFFFFFFFULL; c += 1 + c / 1024)
		check_inv_sqrt((u32)c);
	check_inv_sqrt(0xFFFFFFFFU);
	for (i = 0; i < 100000; i++)
		check_inv_sqrt((u32)rng_next(&rng));
}

/* ---- wrap-safe clock ---- */

static void test_us_since_wrap(void **state)
{
	struct test_rng rng = { 777 };
	int i;

	(void)state;
	/* Across the 2^32 wrap. */
	assert_int_equal(dcc_us_since(5, 0xFFFFFFFBU), 10);
	assert_int_equal(dcc_us_since(0, 0xFFFFFFFFU), 1);
	assert_int_equal(dcc_us_since(0x7FFFFFFFU, 0), 0x7FFFFFFFU);
	assert_int_equal(dcc_us_since(42, 42), 0);
	/* Backwards: 'then' in the future gives 0, never a huge value. */
	assert_int_equal(dcc_us_since(100, 200), 0);
	assert_int_equal(dcc_us_since(0xFFFFFFFBU, 5), 0);
	assert_int_equal(dcc_us_since(0, 1), 0);

	assert_true(dcc_before32(0xFFFFFFF0U, 0x10));
	assert_false(dcc_before32(0x10, 0xFFFFFFF0U));
	assert_false(dcc_before32(7, 7));
	assert_true(dcc_before32(6, 7));
	assert_false(dcc_before32(8, 7));

	for (i = 0; i < 100000; i++) {
		u32 base = (u32)rng_next(&rng);
		u32 d = (u32)rng_range(&rng, 0, 0x7FFFFFFFU);
		u32 back = (u32)rng_range(&rng, 1, 0x7FFFFFFFU);

		assert_int_equal(dcc_us_since(base + d, base), d);
		assert_int_equal(dcc_us_since(base - back, base), 0);
		assert_true(dcc_before32(base - back, base));
		assert_false(dcc_before32(base, base - back));
		assert_false(dcc_before32(base + d, base));
	}
}

/* ---- small helpers ---- */

static void test_fx_from_milli(void **state)
{
	static const struct { u32 milli, fx; } known[] = {
		{ 0, 0 }, { 1, 65 }, { 100, 6553 }, { 500, 32768 },
		{ 750, 49152 }, { 800, 52428 }, { 1000, 65536 },
		{ 256000, 256 << 16 },
	};
	struct test_rng rng = { 4242 };
	unsigned int i;
	u64 m;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(known); i++)
		assert_int_equal(dcc_fx_from_milli(known[i].milli), known[i].fx);

	/* Floor: fx * 1000 <= milli * 2^16 < (fx + 1) * 1000. */
	for (m = 0; m < 3000000; m += 1 + m / 100000) {
		u64 fx = dcc_fx_from_milli((u32)m);

		assert_true(fx * 1000 <= (m << 16));
		assert_true((fx + 1) * 1000 > (m << 16));
	}
	/* Saturation: above (2^32 - 1) / 65.536 the result is U32_MAX. */
	for (i = 0; i < 10000; i++) {
		u64 mm = rng_range(&rng, 0, 0xFFFFFFFFULL);
		u32 fx = dcc_fx_from_milli((u32)mm);
		u128 exact = ((u128)mm << 16) / 1000;

		if (exact > 0xFFFFFFFFULL)
			assert_int_equal(fx, 0xFFFFFFFFU);
		else
			assert_true((u128)fx == exact);
	}
	assert_int_equal(dcc_fx_from_milli(0xFFFFFFFFU), 0xFFFFFFFFU);
}

static void test_sat_clamp(void **state)
{
	(void)state;
	assert_int_equal(dcc_sat_u32(0), 0);
	assert_int_equal(dcc_sat_u32(12345), 12345);
	assert_int_equal(dcc_sat_u32(0xFFFFFFFFULL), 0xFFFFFFFFU);
	assert_int_equal(dcc_sat_u32(0x100000000ULL), 0xFFFFFFFFU);
	assert_int_equal(dcc_sat_u32(U64_ALL), 0xFFFFFFFFU);

	assert_int_equal(dcc_clamp_u32(5, 1, 10), 5);
	assert_int_equal(dcc_clamp_u32(0, 1, 10), 1);
	assert_int_equal(dcc_clamp_u32(11, 1, 10), 10);
	assert_int_equal(dcc_clamp_u32(1, 1, 10), 1);
	assert_int_equal(dcc_clamp_u32(10, 1, 10), 10);
	assert_int_equal(dcc_clamp_u32(0xFFFFFFFFU, 0, 0xFFFFFFFFU),
			 0xFFFFFFFFU);
	/* lo > hi (torn parameters): hi wins, the result never exceeds it. */
	assert_int_equal(dcc_clamp_u32(5, 10, 3), 3);
	assert_int_equal(dcc_clamp_u32(0, 10, 3), 3);
	assert_int_equal(dcc_clamp_u32(100, 10, 3), 3);

	assert_int_equal(dcc_min_u32(3, 4), 3);
	assert_int_equal(dcc_max_u32(3, 4), 4);
	assert_int_equal(dcc_div_u64(10, 0), 0);
	assert_int_equal(dcc_div_u64(10, 3), 3);
}

static void test_fx_mul(void **state)
{
	struct test_rng rng = { 99 };
	int i;

	(void)state;
	assert_int_equal(dcc_fx_mul(1000, DCC_FX_ONE), 1000);
	assert_int_equal(dcc_fx_mul(1000, DCC_FX_ONE / 2), 500);
	assert_int_equal(dcc_fx_mul(0xFFFFFFFFU, 0xFFFFFFFFU), 0xFFFFFFFFU);
	for (i = 0; i < 100000; i++) {
		u32 a = (u32)rng_next(&rng), f = (u32)rng_next(&rng);
		u128 want = ((u128)a * f) >> 16;

		if (want > 0xFFFFFFFFU)
			want = 0xFFFFFFFFU;
		assert_true((u128)dcc_fx_mul(a, f) == want);
	}
}

/* ---- dcc_pacing.h: dcc_rate_from_window ---- */

static void test_rate_from_window(void **state)
{
	struct test_rng rng = { 2024 };
	int i;

	(void)state;
	/* 10 packets of 1500 B per 100 us = 150 MB/s; 120 % = 180 MB/s. */
	assert_int_equal(dcc_rate_from_window(10 << 16, 1500, 100, 100),
			 150000000ULL);
	assert_int_equal(dcc_rate_from_window(10 << 16, 1500, 100, 120),
			 180000000ULL);
	/* At least 1 B/s; 0 rtt is 1 us. */
	assert_int_equal(dcc_rate_from_window(0, 1500, 100, 100), 1);
	assert_int_equal(dcc_rate_from_window(1, 1, 1000000, 100), 1);
	assert_int_equal(dcc_rate_from_window(1 << 16, 1000, 0, 100),
			 dcc_rate_from_window(1 << 16, 1000, 1, 100));
	assert_int_equal(dcc_rate_from_window(1 << 16, 1000, 1, 100),
			 1000000000ULL);

	/*
	 * Against the real-valued rate cwnd * mss / rtt * gain: the helper
	 * truncates three times (in fx units, to B/s, after the gain), so it is
	 * below by less than gain / 100 + 1 B/s, and never above.
	 */
	for (i = 0; i < 200000; i++) {
		u32 cwnd = (u32)rng_range(&rng, 1, 1U << 24);
		u32 mss = (u32)rng_range(&rng, 1, 9000);
		u32 rtt = (u32)rng_range(&rng, 1, 1000000);
		u32 gain = (u32)rng_range(&rng, 50, 300);
		double want = cwnd / FX_ONE_D * mss * 1e6 / rtt * gain / 100.0;
		double got = (double)dcc_rate_from_window(cwnd, mss, rtt, gain);

		if (want < 1.0)
			want = 1.0;
		if (got > want * (1 + 1e-12) + 1e-6 ||
		    got < want - gain / 100.0 - 1.0 - want * 1e-12)
			fail_msg("rate(%u, %u, %u, %u) = %.0f, expected %.3f",
				 cwnd, mss, rtt, gain, got, want);
	}

	/*
	 * Huge windows: cwnd * mss is capped at 2^44 fx-bytes (256 MB), the
	 * result stays exact and monotonic instead of overflowing.
	 */
	assert_int_equal(dcc_rate_from_window(0xFFFFFFFFU, 65535, 1, 100),
			 (1ULL << 28) * 1000000ULL);
	assert_int_equal(dcc_rate_from_window(0xFFFFFFFFU, 0xFFFFFFFFU, 1,
					      1000),
			 (1ULL << 28) * 1000000ULL * 10);
	assert_true(dcc_rate_from_window(0xFFFFFFFFU, 65535, 1, 100) >=
		    dcc_rate_from_window(0x7FFFFFFFU, 65535, 1, 100));
}

/*
 * A window below one packet sends one packet every rtt / cwnd: the gap
 * between mss-sized packets at the rate for cwnd must be rtt / cwnd.
 * rate is truncated by < 1 B/s and the gap by < 1 ns, hence the tolerance.
 */
static void test_fractional_window_gap(void **state)
{
	static const double cwnds[] = {
		0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 0.9,
	};
	static const u32 rtts[] = { 10, 25, 100, 1000, 10000 };
	static const u32 msss[] = { 1448, 1500, 4096, 9000 };
	unsigned int i, j, k;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cwnds); i++)
		for (j = 0; j < ARRAY_SIZE(rtts); j++)
			for (k = 0; k < ARRAY_SIZE(msss); k++) {
				u32 fx = (u32)lround(cwnds[i] * FX_ONE_D);
				double c = fx / FX_ONE_D;
				double rate = c * msss[k] * 1e6 / rtts[j];
				double want = rtts[j] * 1000.0 / c;
				u64 r = dcc_rate_from_window(fx, msss[k],
							     rtts[j], 100);
				u64 gap = dcc_gap_ns(r, msss[k]);

				assert_near(gap, want, want / (rate - 1) + 1);
			}

	/* The example: 0.01 packet at 100 us is one packet every 10 ms. */
	assert_near(dcc_gap_ns(dcc_rate_from_window(655, 1500, 100, 100), 1500),
		    10e6, 10e6 * 1e-3);
	/* 0.001 packet (65 fx, the default min_cwnd) at 100 us: ~100 ms. */
	assert_near(dcc_gap_ns(dcc_rate_from_window(65, 1500, 100, 100), 1500),
		    100e3 * 65536 / 65, 100e6 * 1e-3);
	assert_true(dcc_gap_ns(0, 1500) == U64_ALL);
	/* The gap itself, exactly: floor(mss * 1e9 / rate). */
	assert_int_equal(dcc_gap_ns(1500, 1500), 1000000000ULL);
	assert_int_equal(dcc_gap_ns(3, 1), 333333333ULL);
	assert_int_equal(dcc_gap_ns(1250000000ULL, 1500), 1200);
	assert_int_equal(dcc_gap_ns(U64_ALL, 1500), 0);
	assert_int_equal(dcc_gap_ns(1, 0xFFFFFFFFU), 0xFFFFFFFFULL * 1000000000ULL);
}

/* ---- dcc_pacing.h: dcc_window_from_rate ---- */

/*
 * The real-valued window is E = rate * rtt * gain / (1e8 * mss) packets;
 * the helper rounds up after truncating the bytes (by < gain/100 + 1 B):
 * (w - 1) * mss < E * mss  and  w * mss >= E * mss - gain/100 - 1.
 */
static void check_window(u64 rate, u32 rtt, u32 mss, u32 gain, u32 lo,
			 u32 hi)
{
	u64 capped = rate > (1ULL << 40) ? 1ULL << 40 : rate;
	u128 num = (u128)capped * rtt * gain;	/* E * mss * 1e8 */
	u128 den = 100000000;
	u32 w = dcc_window_from_rate(rate, rtt, mss, gain, lo, hi);
	u128 unclamped_lo, unclamped_hi;

	/* Range of acceptable unclamped windows. */
	unclamped_hi = (num + den * mss - 1) / (den * mss);	/* ceil(E) */
	unclamped_lo = num / den;	/* bytes, exact */
	unclamped_lo = unclamped_lo > (gain + 99) / 100 + 1 ?
		       unclamped_lo - (gain + 99) / 100 - 1 : 0;
	unclamped_lo = (unclamped_lo + mss - 1) / mss;
	if (unclamped_hi < lo)
		unclamped_hi = lo;
	if (unclamped_lo < lo)
		unclamped_lo = lo;
	if (unclamped_hi > hi)
		unclamped_hi = hi;
	if (unclamped_lo > hi)
		unclamped_lo = hi;
	if (w < unclamped_lo || w > unclamped_hi)
		fail_msg("window(%llu B/s, %u us, mss %u, %u%%, [%u, %u]) = %u, expected [%llu, %llu]",
			 (unsigned long long)rate, rtt, mss, gain, lo, hi, w,
			 (unsigned long long)unclamped_lo,
			 (unsigned long long)unclamped_hi);
}

/*
 * dcc_safeguard_cwnd: the window never exceeds the socket's clamp
 * (snd_cwnd_clamp: a route's "cwnd lock", a BPF clamp), not even to reach
 * the module's minimum; a clamp of 0 still gives one packet.
 */
static void test_safeguard_cwnd(void **state)
{
	(void)state;
	/* Unclamped: 84 packets (as dcc_window_from_rate). */
	assert_int_equal(dcc_safeguard_cwnd(1250000000ULL, 100, 1500, 100, 4,
					    ~0U), 84);
	/* The clamp bounds it. */
	assert_int_equal(dcc_safeguard_cwnd(1250000000ULL, 100, 1500, 100, 4,
					    10), 10);
	/* The minimum applies below the clamp. */
	assert_int_equal(dcc_safeguard_cwnd(1000, 100, 1500, 100, 4, 10), 4);
	/* A clamp below the minimum wins over it. */
	assert_int_equal(dcc_safeguard_cwnd(1000, 100, 1500, 100, 4, 2), 2);
	assert_int_equal(dcc_safeguard_cwnd(1250000000ULL, 100, 1500, 200, 4,
					    3), 3);
	assert_int_equal(dcc_safeguard_cwnd(1250000000ULL, 100, 1500, 200, 4,
					    1), 1);
	/* Clamp 0 (never set by TCP): one packet, not 0. */
	assert_int_equal(dcc_safeguard_cwnd(1250000000ULL, 100, 1500, 200, 4,
					    0), 1);
}

/* The window in loss recovery (dcc_recovery_cwnd, as tcp_bbr.c keeps it). */
static void test_recovery_cwnd(void **state)
{
	u32 w = 1;
	int i;

	(void)state;
	/* After a timeout TCP left 1: one delivered gives 2, not the target. */
	assert_int_equal(dcc_recovery_cwnd(true, 1, 0, 1, 0, 10), 2);
	/* ... and it grows by what is delivered (doubling a round) ... */
	for (i = 0; i < 3; i++)
		w = dcc_recovery_cwnd(true, w, w, w, 0, 100);
	assert_int_equal(w, 8);
	/* ... up to the target, never above it. */
	assert_int_equal(dcc_recovery_cwnd(true, 8, 8, 8, 0, 10), 10);
	/* Losses leave first: 10 - 4 + 1. */
	assert_int_equal(dcc_recovery_cwnd(true, 10, 6, 1, 4, 100), 7);
	/* Fast recovery: packet conservation, in flight + delivered ... */
	assert_int_equal(dcc_recovery_cwnd(false, 3, 6, 2, 0, 100), 8);
	/* ... or the window if larger, bounded by the target. */
	assert_int_equal(dcc_recovery_cwnd(false, 20, 6, 2, 0, 12), 12);
	/* More losses than window, no target: at least 1 packet. */
	assert_int_equal(dcc_recovery_cwnd(true, 2, 0, 0, 5, 0), 1);
	/* No wrap at the top. */
	assert_int_equal(dcc_recovery_cwnd(true, ~0U, 0, 5, 0, ~0U), ~0U);
	assert_int_equal(dcc_recovery_cwnd(false, 1, ~0U, 5, 0, ~0U), ~0U);
}

static void test_window_from_rate(void **state)
{
	struct test_rng rng = { 31337 };
	int i;

	(void)state;
	/* 10 Gbit/s, 100 us: 125000 B = 83.3 packets of 1500 -> 84. */
	assert_int_equal(dcc_window_from_rate(1250000000ULL, 100, 1500, 100,
					      1, 1000), 84);
	/* Exact multiple: no extra packet. */
	assert_int_equal(dcc_window_from_rate(1500000000ULL, 100, 1500, 100,
					      1, 1000), 100);
	/* Gain: 150 %. */
	assert_int_equal(dcc_window_from_rate(1500000000ULL, 100, 1500, 150,
					      1, 1000), 150);
	/* Bounds. */
	assert_int_equal(dcc_window_from_rate(1500000000ULL, 100, 1500, 100,
					      1, 64), 64);
	assert_int_equal(dcc_window_from_rate(1000, 100, 1500, 100, 4, 64), 4);
	assert_int_equal(dcc_window_from_rate(0, 100, 1500, 100, 2, 64), 2);
	assert_int_equal(dcc_window_from_rate(1500000000ULL, 0, 1500, 100,
					      3, 64), 3);
	/*
	 * mss 0 does not divide by zero and counts as 1 byte.  Found by
	 * tests/fuzz/fuzz_pacing: the round-up added mss - 1, which wrapped,
	 * so no bytes gave the ceiling (64, not 2) and 100 bytes 99 packets.
	 */
	assert_int_equal(dcc_window_from_rate(1500000000ULL, 100, 0, 100, 1,
					      64), 64);
	assert_int_equal(dcc_window_from_rate(0, 100, 0, 100, 2, 64), 2);
	assert_int_equal(dcc_window_from_rate(1000000, 0, 0, 100, 2, 64), 2);
	assert_int_equal(dcc_window_from_rate(1000000, 100, 0, 100, 1, 1000),
			 100);
	assert_int_equal(dcc_mbps_to_bytes_ps(10000), 1250000000ULL);

	for (i = 0; i < 200000; i++) {
		unsigned int bits = (unsigned int)rng_range(&rng, 0, 63);
		u64 rate = rng_next(&rng) >> bits;
		u32 rtt = (u32)rng_range(&rng, 0, 10000000);
		u32 mss = (u32)rng_range(&rng, 1, 9000);
		u32 gain = (u32)rng_range(&rng, 100, 400);
		u32 lo = (u32)rng_range(&rng, 1, 16);
		u32 hi = (u32)rng_range(&rng, lo, 0xFFFFFFFFULL);

		check_window(rate, rtt, mss, gain, lo, hi);
	}
}

/* Huge rates saturate (at 2^40 B/s) instead of overflowing and wrapping. */
static void test_window_from_rate_huge(void **state)
{
	static const u32 rtts[] = {
		1, 100, 10000, 1000000, 1U << 24, (1U << 24) + 1, 100000000,
		0xFFFFFFFFU,
	};
	static const u64 rates[] = {
		1ULL << 40, (1ULL << 40) + 1, 1ULL << 50, 1ULL << 63, U64_ALL,
	};
	unsigned int i, j;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(rates); i++)
		for (j = 0; j < ARRAY_SIZE(rtts); j++) {
			check_window(rates[i], rtts[j], 1500, 100, 1,
				     0xFFFFFFFFU);
			check_window(rates[i], rtts[j], 9000, 400, 2, 1000000);
		}
	/* 2^40 B/s over 100 us is 109951162 B: 73301 packets of 1500. */
	assert_int_equal(dcc_window_from_rate(U64_ALL, 100, 1500, 100, 1,
					      0xFFFFFFFFU), 73301);

	/* Monotonic in the rate and in the rtt. */
	for (j = 0; j + 1 < ARRAY_SIZE(rtts); j++) {
		u32 a = dcc_window_from_rate(1ULL << 40, rtts[j], 1500, 100,
					     1, 0xFFFFFFFFU);
		u32 b = dcc_window_from_rate(1ULL << 40, rtts[j + 1], 1500,
					     100, 1, 0xFFFFFFFFU);

		if (b < a)
			fail_msg("window shrank from %u to %u as rtt grew from %u to %u us",
				 a, b, rtts[j], rtts[j + 1]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_isqrt64_exhaustive_small),
		cmocka_unit_test(test_isqrt64_large),
		cmocka_unit_test(test_fx_inv_sqrt),
		cmocka_unit_test(test_us_since_wrap),
		cmocka_unit_test(test_fx_from_milli),
		cmocka_unit_test(test_sat_clamp),
		cmocka_unit_test(test_fx_mul),
		cmocka_unit_test(test_rate_from_window),
		cmocka_unit_test(test_fractional_window_gap),
		cmocka_unit_test(test_window_from_rate),
		cmocka_unit_test(test_safeguard_cwnd),
		cmocka_unit_test(test_recovery_cwnd),
		cmocka_unit_test(test_window_from_rate_huge),
	};

	return cmocka_run_group_tests_name("dcc_fixed", tests, NULL, NULL);
}
