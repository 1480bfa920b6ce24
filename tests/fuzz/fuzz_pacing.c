// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness of the shared helpers: fixed point and wrapping time
 * (include/dcc_fixed.h) and the rate <-> window conversions
 * (include/dcc_pacing.h).  Each helper is compared with a reference
 * computed in 128-bit integers from its documented meaning, so a silent
 * unsigned wrap (which UBSan does not report) fails as surely as UB.
 *
 * Operands are edges (0, 1, 2^31, 2^32 - 1, powers of two and their
 * neighbours) or anything; the arguments the modules can pass are within
 * the documented bounds: gains below 2^11 percent, rates of any u64 (the
 * helpers clamp), windows and times of any u32.
 */
#include <math.h>

#include "fuzz.h"

#include "dcc_pacing.h"

typedef unsigned __int128 u128;

static u64 ref_min(u128 a, u128 b)
{
	return (u64)(a < b ? a : b);
}

static u32 ref_isqrt(u64 x)
{
	u64 r = (u64)sqrtl((long double)x);

	while ((u128)r * r > x)
		r--;
	while ((u128)(r + 1) * (r + 1) <= x)
		r++;
	return (u32)r;
}

static void op_fixed(struct fz *f, u8 op)
{
	u32 a = fz_u32_edge(f), b = fz_u32_edge(f), c = fz_u32_edge(f);
	u64 v = fz_u64_edge(f), w = fz_u64_edge(f);
	u32 r, d;

	switch (op % 9) {
	case 0:
		r = dcc_clamp_u32(a, b, c);
		FZ_CHECK(f, r <= c, "clamp %u [%u, %u] = %u", a, b, c, r);
		if (b <= c)
			FZ_CHECK(f, r >= b && (a < b || a > c || r == a),
				 "clamp %u [%u, %u] = %u", a, b, c, r);
		break;
	case 1:
		FZ_CHECK(f, dcc_sat_u32(v) == ref_min(v, DCC_U32_MAX),
			 "sat %llu", (unsigned long long)v);
		FZ_CHECK(f, dcc_min_u64(v, w) == ref_min(v, w), "min64");
		break;
	case 2:
		FZ_CHECK(f, dcc_fx_mul(a, b) ==
			 ref_min(((u128)a * b) >> DCC_FX_SHIFT, DCC_U32_MAX),
			 "fx_mul %u %u = %u", a, b, dcc_fx_mul(a, b));
		FZ_CHECK(f, dcc_fx_from_milli(a) ==
			 ref_min(((u128)a << DCC_FX_SHIFT) / 1000, DCC_U32_MAX),
			 "fx_from_milli %u", a);
		FZ_CHECK(f, dcc_div_u64(v, w) == (w ? v / w : 0), "div");
		break;
	case 3:
		r = dcc_isqrt64(v);
		FZ_CHECK(f, r == ref_isqrt(v), "isqrt %llu = %u, want %u",
			 (unsigned long long)v, r, ref_isqrt(v));
		break;
	case 4: {
		u32 lo = dcc_min_u32(a, b), hi = dcc_max_u32(a, b);
		long double exact;

		r = dcc_fx_inv_sqrt(a);
		exact = 4294967296.0L / sqrtl((long double)(a ? a : 1) *
					     DCC_FX_ONE);
		/* isqrt rounds down: up to 1 / root (root >= 256) high. */
		FZ_CHECK(f, r >= exact - 1 && r <= exact * (1 + 1.0L / 256) + 1,
			 "inv_sqrt %u = %u, exact %.3Lf", a, r, exact);
		FZ_CHECK(f, !lo || dcc_fx_inv_sqrt(lo) >= dcc_fx_inv_sqrt(hi),
			 "inv_sqrt not monotonic at %u, %u", lo, hi);
		break;
	}
	case 5:
		/* Wrapping u32 time: 'then' is a's distance back, or ahead. */
		d = a - b;
		r = dcc_us_since(a, b);
		FZ_CHECK(f, r == (d && d < BIT(31) ? d : 0),
			 "us_since %u %u = %u", a, b, r);
		FZ_CHECK(f, dcc_before32(a, b) == (d >= BIT(31)),
			 "before32 %u %u", a, b);
		FZ_CHECK(f, !(dcc_before32(a, b) && dcc_before32(b, a)) ||
			 d == BIT(31), "before both ways %u %u", a, b);
		break;
	case 6:
		FZ_CHECK(f, dcc_us_since64(v, w) ==
			 (v > w ? ref_min(v - w, DCC_U32_MAX) : 0),
			 "us_since64 %llu %llu", (unsigned long long)v,
			 (unsigned long long)w);
		break;
	case 7:
		FZ_CHECK(f, dcc_mbps_to_bytes_ps(a) == (u64)a * 125000,
			 "mbps %u", a);
		FZ_CHECK(f, dcc_gap_ns(v, a) ==
			 (v ? (u64)((u128)a * 1000000000 / v) : ~0ULL),
			 "gap_ns %llu %u", (unsigned long long)v, a);
		break;
	default:
		FZ_CHECK(f, dcc_min_u32(a, b) == (a < b ? a : b) &&
			 dcc_max_u32(a, b) == (a > b ? a : b), "min/max");
		break;
	}
}

/* dcc_rate_from_window against its definition. */
static void op_rate(struct fz *f)
{
	u32 cwnd = fz_u32_edge(f), mss = fz_u32_edge(f);
	u32 rtt = fz_u32_edge(f), gain = fz_range(f, 0, 2047);
	u64 rate = dcc_rate_from_window(cwnd, mss, rtt, gain);
	u128 fxb = (u128)cwnd * mss, want;
	long double ideal;

	if (fxb > DCC_PACING_MAX_FX_BYTES)
		fxb = DCC_PACING_MAX_FX_BYTES;
	want = fxb * DCC_USEC_PER_SEC / (rtt ? rtt : 1);
	want = (want >> DCC_FX_SHIFT) * gain / 100;
	if (!want)
		want = 1;
	FZ_CHECK(f, rate == want, "rate_from_window(%u, %u, %u, %u) = %llu, want %llu",
		 cwnd, mss, rtt, gain, (unsigned long long)rate,
		 (unsigned long long)want);
	/* And it is the rate meant, where nothing saturates. */
	if ((u128)cwnd * mss <= DCC_PACING_MAX_FX_BYTES) {
		ideal = (long double)cwnd / DCC_FX_ONE * mss *
			DCC_USEC_PER_SEC / (rtt ? rtt : 1) * gain / 100;
		FZ_CHECK(f, rate <= ideal + 1 &&
			 rate + 1 + gain / 100.0L >= ideal,
			 "rate %llu, meant %.1Lf", (unsigned long long)rate,
			 ideal);
	}
}

/* dcc_window_from_rate against its definition. */
static void op_window(struct fz *f)
{
	u64 rate = fz_u64_edge(f);
	u32 rtt = fz_u32_edge(f), mss = fz_u32_edge(f);
	u32 gain = fz_range(f, 0, 2047);
	u32 lo = fz_u8(f) & 1 ? 4 : fz_u32_edge(f);
	u32 hi = fz_u8(f) & 1 ? DCC_U32_MAX : fz_u32_edge(f);
	u32 win = dcc_window_from_rate(rate, rtt, mss, gain, lo, hi);
	u128 r = rate > BIT_ULL(40) ? BIT_ULL(40) : rate, bytes, pkts;
	u32 want;

	bytes = r * rtt / DCC_USEC_PER_SEC * gain / 100;
	pkts = (bytes + (mss ? mss : 1) - 1) / (mss ? mss : 1);
	want = dcc_clamp_u32((u32)ref_min(pkts, DCC_U32_MAX), lo, hi);
	FZ_CHECK(f, win == want,
		 "window_from_rate(%llu, %u, %u, %u, %u, %u) = %u, want %u",
		 (unsigned long long)rate, rtt, mss, gain, lo, hi, win, want);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f;

	fz_init(&f, data, size);
	while (fz_more(&f) && f.ev < 4096) {
		u8 op = fz_u8(&f);

		f.ev++;
		switch (op & 3) {
		case 0:
		case 1:
			op_fixed(&f, op >> 2);
			break;
		case 2:
			op_rate(&f);
			break;
		default:
			op_window(&f);
			break;
		}
	}
	return 0;
}
