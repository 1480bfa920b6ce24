/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Line-rate estimator for rate-based senders (TIMELY, DCQCN).
 *
 * A rate-based algorithm needs the path's line rate: as its rate ceiling,
 * to scale its additive step and to compute serialization delays.  A
 * constant (10 Gbit/s) is wrong on every other path.  This core learns it
 * from the stack's delivery-rate samples (struct rate_sample: bytes
 * delivered over an interval), integer only and with no kernel
 * dependencies, so the same code is unit tested and fuzzed in userspace.
 *
 * The rule:
 *
 *	max   = windowed maximum of the delivery-rate samples over win_us,
 *		app-limited samples only when they raise a maximum that
 *		holds a sample (they measure the application, not the
 *		path; one that is higher than the maximum is still a lower
 *		bound of the path, as in BBR)
 *	learnt = max * (100 + headroom_pct) / 100, at least floor
 *	rate  = min(learnt, dev, cap)	(dev and cap only where known, != 0)
 *	before the first sample: min(dev, cap), or init where neither is
 *	known
 *
 * An app-limited sample never starts the maximum: a lower bound is no
 * estimate of the line rate, and before a sample the path limited the
 * bound (dev, cap or init) is.  Every connection's first sample is one:
 * the handshake's, one segment over one RTT (tcp_init_sock() starts a
 * socket app-limited), which on a 40 ms path reads 0.3 Mbit/s; taken as
 * the line rate it held the ceiling of every connection at the floor.
 *
 * The headroom lets a flow that is held to a fair share, and so only ever
 * delivers that share, still discover spare capacity: its ceiling stays
 * headroom_pct above what it delivered, so when the capacity frees up it
 * can deliver more, which raises the maximum again (by up to headroom_pct
 * per sample, i.e. geometrically).  The window lets the estimate come
 * down when the path gets slower.  dev is the egress device's speed where
 * the glue can know it, cap the module parameter (an override of the
 * estimate when it is below it, and an upper bound always).
 *
 * The windowed maximum is Kathleen Nichols' three-sample running maximum
 * (as lib/minmax.c): the best, second-best and third-best samples of
 * nested sub-windows, O(1) per sample and 3 slots of state.
 *
 * Units: rates in bytes per second at the API; stored in units of
 * 2^DCC_LINERATE_UNIT_SHIFT bytes per second in a u32 (2 kbit/s
 * resolution, up to 2^40 B/s = 8.8 Tbit/s), so the state is 28 bytes and
 * fits a socket's congestion-control area next to an algorithm's own.
 * Times are u32 microseconds on a wrapping clock (dcc_fixed.h).
 */
#ifndef _DCC_LINERATE_H
#define _DCC_LINERATE_H

#include "dcc_fixed.h"

#define DCC_LINERATE_UNIT_SHIFT	8
#define DCC_LINERATE_LIMIT	BIT_ULL(40)	/* ceiling of every rate, B/s */
#define DCC_LINERATE_SLOTS	3
#define DCC_LINERATE_HEADROOM_MAX	1000	/* percent */

struct dcc_linerate_params {
	u64 cap_bytes_ps;	/* override / upper bound; 0: none */
	u64 init_bytes_ps;	/* before any sample, without dev or cap */
	u64 floor_bytes_ps;	/* the learnt rate is never below this */
	u32 win_us;		/* length of the windowed maximum */
	u32 headroom_pct;	/* learnt = max * (100 + this) / 100 */
};

struct dcc_linerate_slot {
	u32 t_us;		/* when the sample was taken */
	u32 rate;		/* sample, units of 2^UNIT_SHIFT B/s; 0: none */
};

struct dcc_linerate {
	struct dcc_linerate_slot s[DCC_LINERATE_SLOTS];
	u32 dev;		/* egress device speed, units; 0: unknown */
};

/* Bytes per second to the stored unit, saturated, rounded down. */
static inline u32 dcc_linerate_to_unit(u64 bytes_ps)
{
	return dcc_sat_u32(dcc_min_u64(bytes_ps, DCC_LINERATE_LIMIT) >>
			   DCC_LINERATE_UNIT_SHIFT);
}

static inline u64 dcc_linerate_from_unit(u32 v)
{
	return (u64)v << DCC_LINERATE_UNIT_SHIFT;
}

static inline void dcc_linerate_init(struct dcc_linerate *lr)
{
	*lr = (struct dcc_linerate){ 0 };
}

/* The egress device's speed in bytes per second (0: unknown). */
static inline void dcc_linerate_set_dev(struct dcc_linerate *lr,
					u64 dev_bytes_ps)
{
	lr->dev = dcc_linerate_to_unit(dev_bytes_ps);
	if (dev_bytes_ps && !lr->dev)
		lr->dev = 1;
}

/* Delivery rate of delivered_bytes over interval_us, B/s (0: no rate). */
static inline u64 dcc_linerate_sample_rate(u64 delivered_bytes,
					   u32 interval_us)
{
	if (!interval_us)
		return 0;
	/* delivered_bytes * 10^6 must not wrap: bytes < 2^44 is plenty. */
	delivered_bytes = dcc_min_u64(delivered_bytes, BIT_ULL(43));
	return dcc_min_u64(dcc_div_u64(delivered_bytes * DCC_USEC_PER_SEC,
				       interval_us), DCC_LINERATE_LIMIT);
}

/* Windowed maximum in bytes per second; 0 before the first sample. */
static inline u64 dcc_linerate_max(const struct dcc_linerate *lr)
{
	return dcc_linerate_from_unit(lr->s[0].rate);
}

/* Record a maximum sample (unit) at now in every slot. */
static inline void dcc_linerate_reset(struct dcc_linerate *lr, u32 now_us,
				      u32 v)
{
	int i;

	for (i = 0; i < DCC_LINERATE_SLOTS; i++) {
		lr->s[i].t_us = now_us;
		lr->s[i].rate = v;
	}
}

/* Windowed running max, as lib/minmax.c's minmax_running_max(). */
static inline void dcc_linerate_update_max(struct dcc_linerate *lr,
					   u32 win, u32 now, u32 v)
{
	struct dcc_linerate_slot val = { .t_us = now, .rate = v };
	u32 dt;

	if (!lr->s[0].rate || v >= lr->s[0].rate ||
	    dcc_us_since(now, lr->s[2].t_us) > win ||
	    dcc_before32(now, lr->s[0].t_us)) {
		dcc_linerate_reset(lr, now, v);
		return;
	}
	if (v >= lr->s[1].rate) {
		lr->s[1] = val;
		lr->s[2] = val;
	} else if (v >= lr->s[2].rate) {
		lr->s[2] = val;
	}

	/* Subwindow bookkeeping: age the best sample out of the window. */
	dt = dcc_us_since(now, lr->s[0].t_us);
	if (dt > win) {
		lr->s[0] = lr->s[1];
		lr->s[1] = lr->s[2];
		lr->s[2] = val;
		if (dcc_us_since(now, lr->s[0].t_us) > win) {
			lr->s[0] = lr->s[1];
			lr->s[1] = lr->s[2];
			lr->s[2] = val;
		}
	} else if (lr->s[1].t_us == lr->s[0].t_us && dt > win / 4) {
		/* A quarter of the window without a better one: 2nd best. */
		lr->s[1] = val;
		lr->s[2] = val;
	} else if (lr->s[2].t_us == lr->s[1].t_us && dt > win / 2) {
		lr->s[2] = val;
	}
}

/*
 * One delivery-rate sample: delivered_bytes over interval_us, taken at
 * now_us.  app_limited samples count only when they raise a maximum that
 * holds a sample.  Returns true when the sample was used.
 */
static inline bool dcc_linerate_sample(struct dcc_linerate *lr,
				       const struct dcc_linerate_params *p,
				       u32 now_us, u64 delivered_bytes,
				       u32 interval_us, bool app_limited)
{
	u64 rate = dcc_linerate_sample_rate(delivered_bytes, interval_us);
	u32 v = dcc_linerate_to_unit(rate);

	if (!v)
		return false;
	if (app_limited && (!lr->s[0].rate || v <= lr->s[0].rate))
		return false;
	dcc_linerate_update_max(lr, p->win_us, now_us, v);
	return true;
}

/* Smaller of a and b where 0 means "unknown" (b == 0: a). */
static inline u64 dcc_linerate_min_known(u64 a, u64 b)
{
	if (!a)
		return b;
	if (!b)
		return a;
	return dcc_min_u64(a, b);
}

/*
 * The line rate by the rule above, in bytes per second: >= 1 and
 * <= DCC_LINERATE_LIMIT; never above a known dev or cap.
 */
static inline u64 dcc_linerate_bytes_ps(const struct dcc_linerate *lr,
					const struct dcc_linerate_params *p)
{
	u64 bound = dcc_linerate_min_known(dcc_linerate_from_unit(lr->dev),
					   dcc_min_u64(p->cap_bytes_ps,
						       DCC_LINERATE_LIMIT));
	u64 rate;

	if (!lr->s[0].rate) {
		rate = bound ? bound : dcc_min_u64(p->init_bytes_ps,
						   DCC_LINERATE_LIMIT);
	} else {
		u32 head = dcc_min_u32(p->headroom_pct,
				       DCC_LINERATE_HEADROOM_MAX);

		/* max < 2^40, times at most 1100: below 2^51. */
		rate = dcc_min_u64(dcc_linerate_max(lr) * (100 + head) / 100,
				   DCC_LINERATE_LIMIT);
		if (rate < p->floor_bytes_ps)
			rate = dcc_min_u64(p->floor_bytes_ps,
					   DCC_LINERATE_LIMIT);
		rate = dcc_linerate_min_known(rate, bound);
	}
	return rate ? rate : 1;
}

#endif /* _DCC_LINERATE_H */
