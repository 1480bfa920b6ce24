/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers shared by the userspace unit tests: cmocka includes, a
 * deterministic PRNG and tolerance assertions on doubles.
 */
#ifndef _DCC_TEST_H
#define _DCC_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* xorshift64*: fixed seeds, so every run checks the same values. */
struct test_rng {
	uint64_t s;
};

static inline uint64_t rng_next(struct test_rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545F4914F6CDD1DULL;
}

/* Uniform in [lo, hi] (inclusive), hi - lo < 2^64 - 1. */
static inline uint64_t rng_range(struct test_rng *r, uint64_t lo, uint64_t hi)
{
	return lo + rng_next(r) % (hi - lo + 1);
}

/* Uniform double in [0, 1). */
static inline double rng_unit(struct test_rng *r)
{
	return (double)(rng_next(r) >> 11) / 9007199254740992.0;
}

/* Fail with both values printed when |got - want| > tol. */
#define assert_near(got, want, tol)					\
	do {								\
		double _g = (double)(got), _w = (double)(want);		\
		double _t = (double)(tol);				\
		if (!(fabs(_g - _w) <= _t))				\
			fail_msg("%s = %.9g, expected %.9g +- %.3g",	\
				 #got, _g, _w, _t);			\
	} while (0)

/* Fail unless lo <= v <= hi. */
#define assert_between(v, lo, hi)					\
	do {								\
		double _v = (double)(v);				\
		double _l = (double)(lo), _h = (double)(hi);		\
		if (!(_v >= _l && _v <= _h))				\
			fail_msg("%s = %.9g not in [%.9g, %.9g]",	\
				 #v, _v, _l, _h);			\
	} while (0)

#endif /* _DCC_TEST_H */
