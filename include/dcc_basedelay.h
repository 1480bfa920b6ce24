/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Base delay under host noise, shared by the delay-based cores.
 *
 * Software timestamps, interrupt coalescing and virtualization add to
 * every delay sample an amount that varies from packet to packet and has
 * nothing to do with the fabric's queues.  A minimum over a window then
 * finds the noise's low tail, not the path: with noise uniform in +-J the
 * minimum is the base delay less J, and a sample of an idle path reads up
 * to 2 J above it.  A target counted from that minimum takes most idle
 * samples for queueing once 2 J is more than its allowance (swift on the
 * VM dumbbell: 60 % of the link at 200 us of jitter, 18 % at 500 us).
 *
 * Telling the noise from the queue.  A sample is d(i) = base + q(i) +
 * n(i): queueing q, noise n.  How much consecutive samples differ is no
 * measure of n alone: a flow's samples see the queue move by a packet or
 * more between them (4 paced flows on the test bed's dumbbell: a median
 * change of 120 us at no jitter), and a target raised by that much grows
 * the queue it measures.  What separates them is the sign of successive
 * changes: noise that is independent from sample to sample gives changes
 * x(i) = d(i) - d(i-1) that undo each other, cov(x(i), x(i-1)) = -var(n)
 * and cov(x(i), x(i-2)) = 0, while a queue that builds or drains over
 * several samples gives changes of the same sign, covariances of 0 or
 * above, and one that moves up and down on alternate samples gives
 * cov(x(i), x(i-1)) = -cov(x(i), x(i-2)).  So
 *
 *	var(n) >= -cov(x(i), x(i-1)) - cov(x(i), x(i-2))
 *
 * unless the queue's own changes undo each other over a longer period,
 * and this lower bound is what is estimated: about 0 on a quiet path
 * whatever the queue does, and never more than the noise, so a quiet
 * path's target does not move.
 *
 * The estimate is an exponentially weighted mean (gain 1/64: it settles
 * in a few hundred samples) of -x(i) (x(i-1) + x(i-2)), in us^2 up to
 * 65535 (a deviation of 255 us, a width of 892 us: more noise reads as
 * that), floored at 0 each step; the changes are clamped to +-32767 us.
 * The floor biases it up where the mean is 0: a queue that takes a
 * random step of a packet on every other sample reads as noise about a
 * packet wide.  The noise's width (peak to peak) is 7/2 of the
 * deviation: 2.02 J for uniform noise in +-J (its whole width 2 J),
 * 3.5 sd for Gaussian noise (its 4th to 96th percentile).
 *
 * The path's base delay is at most the windowed minimum plus half the
 * width (dcc_bd_base_us()): the noise's centre, the path's delay without
 * it.  The minimum stays the one the caller keeps (its window, its
 * per-destination floor).  How much of the width a consumer applies is
 * its choice: swift lifts its base and target only by the noise's excess
 * over its allowance (swift_set_base() in dcc_swift.h), since the queue's
 * own moves on a quiet path read as some noise too.
 *
 * Noise correlated from one sample to the next (in-order delivery holding
 * a packet behind a delayed one, samples closer together than the noise's
 * time scale) reads smaller than it is.
 */
#ifndef _DCC_BASEDELAY_H
#define _DCC_BASEDELAY_H

#include "dcc_fixed.h"

#define DCC_BD_CHG_MAX		32767		/* |change| used, us */
#define DCC_BD_GAIN_SHIFT	6		/* EWMA gain 1/64 */
#define DCC_BD_PEAK_SHIFT	10		/* envelope's decay 1/1024 */
/* Width (peak to peak) = DCC_BD_WIDTH_NUM / DCC_BD_WIDTH_DEN x deviation. */
#define DCC_BD_WIDTH_NUM	7
#define DCC_BD_WIDTH_DEN	2

/* The estimator's state (zeroed: no sample yet). */
struct dcc_bd {
	u32 prev_us;		/* previous sample (0: none) */
	s16 chg1;		/* its change from the one before, us */
	s16 chg2;		/* the change before that */
	u16 var;		/* noise variance (lower bound), us^2 */
	u16 peak;		/* its upper envelope (dcc_bd_end()) */
};

static inline s32 dcc_bd_clamp_chg(s64 v)
{
	if (v > DCC_BD_CHG_MAX)
		return DCC_BD_CHG_MAX;
	if (v < -DCC_BD_CHG_MAX)
		return -DCC_BD_CHG_MAX;
	return (s32)v;
}

/* Fold one delay sample (us; 0 is no sample) into the estimate. */
static inline void dcc_bd_sample(struct dcc_bd *bd, u32 us)
{
	s64 v, x;
	s32 chg;

	if (!us)
		return;
	if (!bd->prev_us) {
		bd->prev_us = us;
		return;
	}
	chg = dcc_bd_clamp_chg((s64)us - (s64)bd->prev_us);
	bd->prev_us = us;
	/* |x| < 2^15: |product| < 2^31. */
	x = -(s64)chg * ((s32)bd->chg1 + bd->chg2);
	v = bd->var;
	/* Down rounded up, so that the mean decays to 0 on a quiet path. */
	if (x >= v)
		v += (x - v) >> DCC_BD_GAIN_SHIFT;
	else
		v -= (v - x + (1 << DCC_BD_GAIN_SHIFT) - 1) >> DCC_BD_GAIN_SHIFT;
	bd->var = (u16)(v < 0 ? 0 : v > 0xffff ? 0xffff : v);
	/* The envelope: up at once, down by 1/1024 a sample, rounded up. */
	bd->peak -= (bd->peak + (1 << DCC_BD_PEAK_SHIFT) - 1) >>
		    DCC_BD_PEAK_SHIFT;
	if (bd->var > bd->peak)
		bd->peak = bd->var;
	bd->chg2 = bd->chg1;
	bd->chg1 = (s16)chg;
}

/* The noise's width (peak to peak) from a variance in us^2, in us. */
static inline u32 dcc_bd_width_us(u32 var)
{
	u32 sd = dcc_isqrt64(var);

	return sd * DCC_BD_WIDTH_NUM / DCC_BD_WIDTH_DEN;
}

/* The measured noise's width (peak to peak), in us. */
static inline u32 dcc_bd_noise_us(const struct dcc_bd *bd)
{
	return dcc_bd_width_us(bd->var);
}

/*
 * The path's base delay: a windowed minimum min_us (0: none yet, returned
 * as is) lifted to the centre of noise noise_us wide.
 */
static inline u32 dcc_bd_base_us(u32 min_us, u32 noise_us)
{
	if (!min_us)
		return 0;
	return dcc_sat_u32((u64)min_us + noise_us / 2);
}

/*
 * When the noise stops.  A minimum taken while the path was noisy sits in
 * the noise's low tail for as long as its window keeps it, after the
 * noise itself is gone and its estimate has settled back to 0: a base
 * counted from that minimum without the noise that made it reads every
 * quiet sample as queueing.  The estimate keeps an upper envelope of the
 * variance that decays 16 times slower than the estimate (1/1024 a
 * sample); when the variance falls below a quarter of it (the width below
 * half the envelope's), the noise has stopped or shrunk: about 95 samples
 * after it stops.  Returns the envelope's width then, and restarts the
 * envelope from the variance (so once for each stop); 0 otherwise.  The
 * caller renews what it kept from the noise's low tail.  Steady noise
 * keeps the variance near its envelope (dcc_bd_end() under uniform noise:
 * test_bd_end).
 */
static inline u32 dcc_bd_end(struct dcc_bd *bd)
{
	u32 w;

	if ((u32)bd->var * 4 >= bd->peak)
		return 0;
	w = dcc_bd_width_us(bd->peak);
	bd->peak = bd->var;
	return w;
}

/* A width in 4 us, rounded up, at most 255 (1020 us): a byte of state. */
static inline u8 dcc_bd_4us(u32 noise_us)
{
	return (u8)dcc_min_u32(noise_us / 4 + !!(noise_us % 4), 255);
}

#endif /* _DCC_BASEDELAY_H */
