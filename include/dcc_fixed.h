/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fixed-point and time helpers shared by the congestion-control cores.
 *
 * This header has no kernel dependencies beyond integer types and the
 * 64-bit division helper, so the same code is compiled into the kernel
 * modules and into the userspace unit tests and fuzzers.
 *
 * Conventions:
 *  - A "fx" value is an unsigned fixed-point number with DCC_FX_SHIFT
 *    fractional bits: 1.0 == DCC_FX_ONE.
 *  - Times are u32 microseconds that may wrap (every ~71 minutes);
 *    they are only ever compared through dcc_us_since() / dcc_before32().
 */
#ifndef _DCC_FIXED_H
#define _DCC_FIXED_H

#ifdef __KERNEL__
#include <linux/bits.h>
#include <linux/math64.h>
#include <linux/types.h>
#else
/* Userspace: the same fixed-width types, from the UAPI headers. */
#include <linux/types.h>
#include <stdbool.h>
typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s16 s16;
typedef __s32 s32;
typedef __s64 s64;
#define BIT(n)		(1UL << (n))
#define BIT_ULL(n)	(1ULL << (n))
static inline u64 div64_u64(u64 a, u64 b)
{
	return a / b;
}
#endif

#define DCC_FX_SHIFT	16
#define DCC_FX_ONE	((u32)BIT(DCC_FX_SHIFT))
#define DCC_U32_MAX	((u32)~0U)
#define DCC_USEC_PER_SEC	1000000ULL

static inline u32 dcc_min_u32(u32 a, u32 b)
{
	return a < b ? a : b;
}

static inline u32 dcc_max_u32(u32 a, u32 b)
{
	return a > b ? a : b;
}

static inline u32 dcc_clamp_u32(u32 v, u32 lo, u32 hi)
{
	/* With lo > hi (torn or bad parameters) hi wins: never exceed it. */
	return dcc_min_u32(dcc_max_u32(v, lo), hi);
}

/* v clamped to [-lim, lim] (lim >= 0). */
static inline s64 dcc_clamp_sym_s64(s64 v, s64 lim)
{
	if (v > lim)
		return lim;
	if (v < -lim)
		return -lim;
	return v;
}

static inline u64 dcc_min_u64(u64 a, u64 b)
{
	return a < b ? a : b;
}

/* Saturate a 64-bit intermediate into 32 bits. */
static inline u32 dcc_sat_u32(u64 v)
{
	return v > DCC_U32_MAX ? DCC_U32_MAX : (u32)v;
}

/* a / b rounded down; 0 when b == 0 (callers guard the meaning). */
static inline u64 dcc_div_u64(u64 a, u64 b)
{
	return b ? div64_u64(a, b) : 0;
}

/* Multiply a by the fixed-point fraction f (f <= DCC_FX_ONE for a cut). */
static inline u32 dcc_fx_mul(u32 a, u32 f)
{
	return dcc_sat_u32(((u64)a * f) >> DCC_FX_SHIFT);
}

/* Convert a value in thousandths (e.g. per mille, milli-packets) to fx. */
static inline u32 dcc_fx_from_milli(u32 milli)
{
	return dcc_sat_u32(((u64)milli << DCC_FX_SHIFT) / 1000);
}

/* Integer square root of a 64-bit value, rounded down. */
static inline u32 dcc_isqrt64(u64 x)
{
	u64 res = 0, bit = 1ULL << 62;

	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= res + bit) {
			x -= res + bit;
			res = (res >> 1) + bit;
		} else {
			res >>= 1;
		}
		bit >>= 2;
	}
	return (u32)res;
}

/*
 * 1 / sqrt(c) for a fixed-point c, result in fixed point.
 * sqrt(c / 2^16) * 2^16 == sqrt(c * 2^16), so 1/sqrt(c) in fx is
 * 2^32 / sqrt(c << 16).  c == 0 is treated as the smallest step.
 */
static inline u32 dcc_fx_inv_sqrt(u32 c_fx)
{
	u32 root = dcc_isqrt64((u64)(c_fx ? c_fx : 1) << DCC_FX_SHIFT);

	return dcc_sat_u32((1ULL << (2 * DCC_FX_SHIFT)) / root);
}

/* Microseconds from 'then' to 'now' on a wrapping u32 clock; 0 if 'then'
 * lies in the future (clock went backwards or a stale stamp).
 */
static inline u32 dcc_us_since(u32 now, u32 then)
{
	s32 d = (s32)(now - then);

	return d > 0 ? (u32)d : 0;
}

/* Microseconds from 'then' to 'now' on a 64-bit clock (TCP's tcp_mstamp),
 * saturated to u32; 0 if 'then' lies in the future.
 */
static inline u32 dcc_us_since64(u64 now, u64 then)
{
	return now > then ? dcc_sat_u32(now - then) : 0;
}

/* True if a is strictly before b on a wrapping u32 clock. */
static inline bool dcc_before32(u32 a, u32 b)
{
	return (s32)(a - b) < 0;
}

#endif /* _DCC_FIXED_H */
