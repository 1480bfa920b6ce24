/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared pieces of the libFuzzer harnesses of the algorithm cores.
 *
 * A harness reads its input as a little program: a parameter set, then a
 * sequence of events (ACKs with RTT samples, losses, timeouts, idle
 * periods, clock jumps, parameter writes).  Reading past the end of the
 * input yields zeros, so every input is a valid program and libFuzzer's
 * mutations stay meaningful.  After every event the harness checks its
 * invariants with FZ_CHECK(), which aborts (a crash for libFuzzer) with
 * the event number and the failed condition.
 *
 * Module parameters are modelled as the module sees them: a table of
 * name, range and default (copied from the DCC_PARAM_UINT lines of the
 * module), initial values drawn inside the range, run-time writes that
 * may be out of range (refused, the old value kept, as dcc_param.h does)
 * and an optional cross-parameter check.
 *
 * FUZZ_VERBOSE=1 in the environment prints every event (to turn a crash
 * into a unit test).
 */
#ifndef _DCC_FUZZ_H
#define _DCC_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcc_fixed.h"

struct fz {
	const u8 *d;
	size_t n, i;
	unsigned long ev;	/* events run so far, for messages */
	int verbose;
};

static inline void fz_init(struct fz *f, const u8 *d, size_t n)
{
	static int verbose = -1;

	if (verbose < 0) {
		const char *v = getenv("FUZZ_VERBOSE");

		verbose = v && *v && *v != '0';
	}
	f->d = d;
	f->n = n;
	f->i = 0;
	f->ev = 0;
	f->verbose = verbose;
}

static inline int fz_more(const struct fz *f)
{
	return f->i < f->n;
}

static inline u8 fz_u8(struct fz *f)
{
	return f->i < f->n ? f->d[f->i++] : 0;
}

static inline u16 fz_u16(struct fz *f)
{
	return (u16)(fz_u8(f) | (u16)fz_u8(f) << 8);
}

static inline u32 fz_u32(struct fz *f)
{
	u32 lo = fz_u16(f);

	return lo | (u32)fz_u16(f) << 16;
}

static inline u64 fz_u64(struct fz *f)
{
	u64 lo = fz_u32(f);

	return lo | (u64)fz_u32(f) << 32;
}

static inline u64 fz_max_u64(u64 a, u64 b)
{
	return a > b ? a : b;
}

static inline bool fz_bool(struct fz *f)
{
	return fz_u8(f) & 1;
}

/* Uniform-ish in [lo, hi]. */
static inline u32 fz_range(struct fz *f, u32 lo, u32 hi)
{
	u64 span = (u64)hi - lo + 1;

	if (hi <= lo)
		return lo;
	return lo + (u32)(fz_u32(f) % span);
}

/*
 * A u32 that is often an edge: 0, 1, 2^31 - 1, 2^31, 2^32 - 1, a power
 * of two or one off it, a small value, or any value.
 */
static inline u32 fz_u32_edge(struct fz *f)
{
	u8 sel = fz_u8(f);
	u32 sh;

	switch (sel & 7) {
	case 0:
		return 0;
	case 1:
		return 1;
	case 2:
		return 0x7fffffffU + (sel >> 3) % 3;	/* 2^31-1, 2^31, +1 */
	case 3:
		return DCC_U32_MAX - (sel >> 3) % 2;
	case 4:
		sh = (sel >> 3) % 32;
		return (u32)(BIT_ULL(sh) + (fz_u8(f) % 3) - 1);
	case 5:
		return fz_u8(f);
	case 6:
		return fz_u16(f);
	default:
		return fz_u32(f);
	}
}

/* A u32 in [lo, hi], often lo, hi or def. */
static inline u32 fz_in(struct fz *f, u32 lo, u32 hi, u32 def)
{
	switch (fz_u8(f) & 3) {
	case 0:
		return lo;
	case 1:
		return hi;
	case 2:
		return def < lo || def > hi ? lo : def;
	default:
		return fz_range(f, lo, hi);
	}
}

/* A u64 that is often an edge (0, near 2^32, near 2^63, near 2^64). */
static inline u64 fz_u64_edge(struct fz *f)
{
	u8 sel = fz_u8(f);

	switch (sel & 7) {
	case 0:
		return 0;
	case 1:
		return BIT_ULL(32) - (sel >> 3);
	case 2:
		return BIT_ULL(32) + (sel >> 3);
	case 3:
		return BIT_ULL(63) - (sel >> 3);
	case 4:
		return ~0ULL - (sel >> 3);
	case 5:
		return fz_u32(f);
	default:
		return fz_u64(f);
	}
}

#define FZ_LOG(f, fmt, ...)						\
	do {								\
		if ((f)->verbose)					\
			fprintf(stderr, "ev %lu: " fmt "\n", (f)->ev,	\
				##__VA_ARGS__);				\
	} while (0)

/* Abort with the event number and the failed condition. */
#define FZ_CHECK(f, cond, fmt, ...)					\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr,					\
				"%s:%d: event %lu: invariant '%s' failed: " \
				fmt "\n", __FILE__, __LINE__, (f)->ev,	\
				#cond, ##__VA_ARGS__);			\
			abort();					\
		}							\
	} while (0)

/* A module parameter as DCC_PARAM_UINT declares it. */
struct fz_param {
	const char *name;
	u32 lo, hi, def;
};

/* Cross-parameter check: 0 to accept val for parameter idx. */
typedef int (*fz_param_check)(const u32 *vals, unsigned int idx, u32 val);

/* Every parameter at its default. */
static inline void fz_params_default(const struct fz_param *t,
				     unsigned int n, u32 *vals)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		vals[i] = t[i].def;
}

/*
 * A write of val to parameter idx as dcc_param_set_uint() does it: out of
 * range or refused by the cross check, nothing changes.  True if stored.
 */
static inline bool fz_param_write(const struct fz_param *t, u32 *vals,
				  unsigned int idx, u32 val,
				  fz_param_check check)
{
	if (val < t[idx].lo || val > t[idx].hi)
		return false;
	if (check && check(vals, idx, val))
		return false;
	vals[idx] = val;
	return true;
}

/*
 * An initial parameter set: from the defaults, every parameter written
 * once with a value inside its range (often an edge of it); a value the
 * cross check refuses leaves the previous one, as at run time.
 */
static inline void fz_params_init(struct fz *f, const struct fz_param *t,
				  unsigned int n, u32 *vals,
				  fz_param_check check)
{
	unsigned int i;

	fz_params_default(t, n, vals);
	for (i = 0; i < n; i++)
		fz_param_write(t, vals, i, fz_in(f, t[i].lo, t[i].hi,
						 t[i].def), check);
}

/*
 * A run-time write: one parameter, a value inside its range or (one in
 * eight) any value, which the range check must refuse.  True if stored.
 */
static inline bool fz_params_poke(struct fz *f, const struct fz_param *t,
				  unsigned int n, u32 *vals,
				  fz_param_check check)
{
	unsigned int idx = fz_u8(f) % n;
	u32 val;

	if ((fz_u8(f) & 7) == 0)
		val = fz_u32_edge(f);
	else
		val = fz_in(f, t[idx].lo, t[idx].hi, t[idx].def);
	if (!fz_param_write(t, vals, idx, val, check)) {
		FZ_LOG(f, "param %s=%u refused", t[idx].name, val);
		return false;
	}
	FZ_LOG(f, "param %s=%u", t[idx].name, val);
	return true;
}

/*
 * A clock step for a u64 microsecond clock: mostly forward by a typical
 * ACK spacing, sometimes 0, an idle period (seconds to hours), or
 * backwards (a bad stamp).  The 64-bit clock itself wraps only when a
 * harness starts it near 2^64.
 */
static inline s64 fz_clock_step(struct fz *f)
{
	u8 sel = fz_u8(f);

	switch (sel & 7) {
	case 0:
		return 0;
	case 1:
		return -(s64)fz_u32_edge(f);			/* backwards */
	case 2:
		return (s64)fz_u32_edge(f);			/* idle */
	case 3:
		return (s64)fz_u64_edge(f) >> (sel >> 3);	/* far jump */
	default:
		return fz_u16(f);				/* <= 65 ms */
	}
}

#endif /* _DCC_FUZZ_H */
