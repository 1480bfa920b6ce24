/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Base delay, shared by the delay-based cores: the lowest delay to a
 * destination (struct dcc_floor), and how wide the host's noise around it
 * is (struct dcc_bd).
 *
 * The floor.  A connection's own minimum RTT is no base delay when the
 * connection starts on a standing queue (another flow's, a loss-based
 * flow's on the same path, one path of several whose other path is idle):
 * its first samples hold the queue, and a target or threshold counted
 * from them is one queue too high, so the queue is never seen as one.
 * The floor is the lowest delay any connection of the host to one
 * destination (address and network namespace, hashed into a key) has
 * seen within a window: the path's propagation and the hosts' own delay
 * (stack, NIC, virtual machine) rather than the fabric's queues.  A core
 * counts from min(its own minimum, the floor), so a connection that joins
 * a queue counts from the base the connections before it measured (a
 * newcomer that took the queue for base delay would claim a higher target
 * than theirs and push the queue up by one target).  It is per
 * destination, not per host, so that a loopback or same-rack flow does
 * not lower the base of cross-pod flows.  The glue keeps the floors in a
 * small hashed table of slots (include/dcc_floor_link.h); a slot holds
 * one destination's floor at a time.  When the window expires the next
 * sample starts a new floor, so a path whose base delay rose is followed
 * within a window.
 *
 * The noise.
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
 * Noise is what goes on, not what happens once.  A host that stops for a
 * millisecond or two (a virtual machine's vCPU busy elsewhere) holds the
 * ACKs in flight and lets those of segments sent after it through, so a
 * quiet path's samples swing by the pause's length in alternation, a
 * handful of times: unclipped, one product of such changes is the square
 * of the pause, and six samples took the estimate from 4000 to 62000
 * us^2 (a width of 871 us; the VM bed's allowance is 690), on some runs
 * of a quiet path and not others, as the pause happened to fall.  So each
 * change is clipped to DCC_BD_CLIP_MUL (3) times the mean absolute change
 * (its own exponentially weighted mean, gain 1/64, of the changes as they
 * come) plus 16 us before it is used: a pause moves that mean by a few
 * percent and its changes count as about three ordinary ones, while
 * noise that goes on sets the mean itself and is hardly clipped (uniform
 * noise of 50-500 us, independent or kept in order: the width within 2 %
 * of the unclipped one, 80 % of it reached within 110 samples of the
 * noise's start, 95 before).  The clip does not follow the estimate: a
 * clip of a multiple of the estimated deviation could hold the estimate
 * at 0 under noise that started while it was small.
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
#define DCC_BD_DEV_SHIFT	4		/* dev in 1/16 us */
#define DCC_BD_DEV_MAX_US	4095		/* |change| dev follows, us */
#define DCC_BD_CLIP_MUL		3		/* changes used: within 3 dev */
#define DCC_BD_CLIP_MIN_US	16		/* ... plus 16 us */
#define DCC_BD_PEAK_SHIFT	10		/* envelope's decay 1/1024 */
#define DCC_BD_HELD_MIN		2048		/* noise that went on, samples */
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
	u16 dev;		/* mean |change|, 1/16 us (the clip's scale) */
	u16 held;		/* samples in a row at least as wide as the
				 * gate, up to DCC_BD_HELD_MIN (then kept:
				 * dcc_bd_end_held())
				 */
	u32 low_us;		/* the lowest sample of the current run of
				 * DCC_BD_LOW_N, us (0: none; dcc_bd_low_us())
				 */
	u32 low_prev_us;	/* ... of the run before (0: none) */
	u8 low_n;		/* samples in the current run */
};

/*
 * The lowest recent sample: of the last DCC_BD_LOW_N + 1 to
 * 2 DCC_BD_LOW_N samples (dcc_bd_low_us()), fewer than dcc_bd_end() takes
 * to see noise stop (60-95 samples: test_end_held), so at a real end it
 * holds only samples taken after the noise stopped.
 */
#define DCC_BD_LOW_N		16

static inline s32 dcc_bd_clamp_chg(s64 v)
{
	return (s32)dcc_clamp_sym_s64(v, DCC_BD_CHG_MAX);
}

/*
 * The change used from a change chg, us: clipped to DCC_BD_CLIP_MUL mean
 * changes (plus DCC_BD_CLIP_MIN_US), the mean then following |chg|.  The
 * mean is of the changes as they come, so it does not shrink with the
 * clip (a clip that followed the estimate itself could hold it at 0).
 */
static inline s32 dcc_bd_clip_chg(struct dcc_bd *bd, s32 chg)
{
	s32 lim = DCC_BD_CLIP_MUL * (s32)(bd->dev >> DCC_BD_DEV_SHIFT) +
		  DCC_BD_CLIP_MIN_US;
	s32 a = (s32)dcc_min_u32(chg < 0 ? -chg : chg, DCC_BD_DEV_MAX_US);
	s32 d = bd->dev;

	d += ((a << DCC_BD_DEV_SHIFT) - d) / (1 << DCC_BD_GAIN_SHIFT);
	bd->dev = (u16)d;
	return chg > lim ? lim : chg < -lim ? -lim : chg;
}

/* Fold a delay sample (us, not 0) into the lowest recent sample. */
static inline void dcc_bd_low_fold(struct dcc_bd *bd, u32 us)
{
	if (bd->low_n >= DCC_BD_LOW_N) {
		bd->low_prev_us = bd->low_us;
		bd->low_us = 0;
		bd->low_n = 0;
	}
	if (!bd->low_us || us < bd->low_us)
		bd->low_us = us;
	bd->low_n++;
}

/*
 * The lowest of the last DCC_BD_LOW_N + 1 to 2 DCC_BD_LOW_N samples (the
 * current run and the one before), us; 0: no sample.
 */
static inline u32 dcc_bd_low_us(const struct dcc_bd *bd)
{
	if (!bd->low_prev_us)
		return bd->low_us;
	if (!bd->low_us)
		return bd->low_prev_us;
	return dcc_min_u32(bd->low_us, bd->low_prev_us);
}

/* Fold one delay sample (us; 0 is no sample) into the estimate. */
static inline void dcc_bd_sample(struct dcc_bd *bd, u32 us)
{
	s64 v, x;
	s32 chg;

	if (!us)
		return;
	dcc_bd_low_fold(bd, us);
	if (!bd->prev_us) {
		bd->prev_us = us;
		return;
	}
	chg = dcc_bd_clip_chg(bd, dcc_bd_clamp_chg((s64)us -
						   (s64)bd->prev_us));
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

/*
 * The width the changes' own size gives: DCC_BD_STILL_MUL times their
 * mean absolute value (dev, the clip's scale), in us.  Uniform noise in
 * +-J, independent from sample to sample, changes by 2 J / 3 on average
 * and is 2.02 J wide, so for such noise this is about its width; but
 * where the estimate (a lower bound) reads changes of one sign as no
 * noise at all, a queue that builds or drains, this reads the queue's
 * steps.  A path is still (dcc_floor_watch()) only when both are small.
 */
#define DCC_BD_STILL_MUL	3

static inline u32 dcc_bd_still_us(const struct dcc_bd *bd)
{
	return DCC_BD_STILL_MUL * (u32)(bd->dev >> DCC_BD_DEV_SHIFT);
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

/*
 * dcc_bd_end() for noise that went on, as a gate for a caller whose queue
 * of its own reads as noise that stops.  A queue that builds and drains
 * within tens of samples changes in alternation from one flow's ACK to
 * the next (each flow's burst queued behind itself, the flows' bursts
 * interleaved) and reads as noise up to twice the floor wide (timely on
 * the VM bed at J = 0: up to 490 us against a 278 us floor), which stops
 * when the queue drains: an end every 60 ms or so.  But its width stays
 * that high for a few hundred samples at most (at least the floor's width
 * for at most 196 samples in a row there, the patched variant), while
 * noise that drags a floor down goes on (thousands of samples at 200 us
 * of jitter).  So an end counts only once the width was at least gate_us
 * for DCC_BD_HELD_MIN samples in a row; the count is then kept, across
 * the noise's false ends (dcc_bd_end() under steady noise), until the
 * width falls below half the gate: the noise's own end comes first (its
 * width falls below half the envelope's, at least half the gate's, no
 * later), and so do the ends of its tail.  Returns the width that
 * stopped (0: none, or noise that did not go on).  Noise shorter than
 * DCC_BD_HELD_MIN samples (half a second on the VM bed, 4 connections)
 * raises nothing when it stops.
 * A queue that cycles back to back goes on too (timely's paper variant
 * there: 1024-2047 samples in a row in each traced 8 s cell, 2048 or
 * more on some runs), so the gate alone does not tell it from noise: the
 * caller also looks at the samples before the end (dcc_bd_low_us(),
 * timely_floor_lift_us(): a drained queue's sit at the floor).
 */
static inline u32 dcc_bd_end_held(struct dcc_bd *bd, u32 gate_us)
{
	bool held = bd->held >= DCC_BD_HELD_MIN;
	u32 w = dcc_bd_end(bd), n = dcc_bd_noise_us(bd);

	if (n < (held ? gate_us / 2 : gate_us))
		bd->held = 0;
	else if (!held)
		bd->held++;
	return held ? w : 0;
}

/* A width in 4 us, rounded up, at most 255 (1020 us): a byte of state. */
static inline u8 dcc_bd_4us(u32 noise_us)
{
	return (u8)dcc_min_u32(noise_us / 4 + !!(noise_us % 4), 255);
}

/*
 * Samples in a quiet stretch before it can repair a floor, and how far
 * above the floor it can go, in the widest noise the floor was taken
 * under (dcc_floor_watch()).
 */
#define DCC_FLOOR_QUIET_N	16
#define DCC_FLOOR_WIDE_MUL	4

/* A destination's floor (see the top of this file); zeroed: none. */
struct dcc_floor {
	u64 stamp_us;		/* when min_us was taken */
	u32 min_us;		/* 0: no estimate */
	u32 key;		/* destination the estimate is for */
	u32 quiet_us;		/* the lowest sample of the current quiet
				 * stretch (0: none, dcc_floor_watch())
				 */
	u8 quiet_n;		/* its samples, up to DCC_FLOOR_QUIET_N */
	u8 wide_4us;		/* the widest noise since min_us was taken,
				 * in 4 us (dcc_bd_4us())
				 */
	bool raised;		/* min_us was raised when the noise stopped
				 * and has not expired since
				 * (dcc_floor_raise(), dcc_floor_watch())
				 */
	bool repaired;		/* ... by dcc_floor_watch(), from a quiet
				 * stretch: no end's raise until a new
				 * minimum is taken
				 */
	u32 low_us;		/* the lowest sample of the current
				 * DCC_FLOOR_LOW_SHIFT period (0: none)
				 */
	u32 low_prev_us;	/* ... of the period before (0: none) */
	u32 low_at;		/* the current period: time >> shift */
};

/*
 * The lowest sample of the current and the previous period of 2^16 us
 * (dcc_floor_low(): of the last 65 to 131 ms), a cap on
 * dcc_floor_watch()'s repair: a floor is in the noise's low tail only
 * while no sample comes down to it, and a repair never goes above a
 * sample that recently did.  The flows' own queue fooled the 16-sample
 * quiet stretch: 32 swift flows on the VM dumbbell, whose queue drains
 * to the path's 270 us every 20 to 100 ms, read as noise wider than the
 * allowance in bursts, and 16 samples of the standing queue between two
 * dips (a few milliseconds of their ACKs) sat above the target: the
 * floor was repaired to 1-2.7 ms dozens of times in 6 s (the flows'
 * targets 0.9-5.7 ms, and back each time a dip took it down: every flow
 * cut on each ACK against a target 4 ms lower).  After noise that
 * stops, its low tail leaves the two periods within 131 ms, and the
 * repair follows.  Written when the lowest sample or the period changes.
 */
#define DCC_FLOOR_LOW_SHIFT	16

/*
 * Fold a quiet sample (us, not 0) at now_us into the periods' lowest
 * samples; true when they changed.
 */
static inline bool dcc_floor_low_fold(struct dcc_floor *f, u32 delay_us,
				      u64 now_us)
{
	u32 at = (u32)(now_us >> DCC_FLOOR_LOW_SHIFT);

	if (at != f->low_at) {
		f->low_prev_us = at == f->low_at + 1 ? f->low_us : 0;
		f->low_us = delay_us;
		f->low_at = at;
		return true;
	}
	if (f->low_us && delay_us >= f->low_us)
		return false;
	f->low_us = delay_us;
	return true;
}

/*
 * The lowest sample of the period of now_us and the one before (0: none;
 * periods older than that are forgotten).
 */
static inline u32 dcc_floor_low(const struct dcc_floor *f, u64 now_us)
{
	u32 at = (u32)(now_us >> DCC_FLOOR_LOW_SHIFT);
	u32 lo = f->low_us, prev = f->low_prev_us;

	if (at == f->low_at + 1) {
		prev = lo;
		lo = 0;
	} else if (at != f->low_at) {
		return 0;
	}
	if (!prev)
		return lo;
	if (!lo)
		return prev;
	return dcc_min_u32(lo, prev);
}

/*
 * Did a sample come down recently (dcc_floor_low()), a quarter of the way
 * or more from to_us to the floor?  Then the floor may still be reached (it is the
 * path's, the flows' queue draining to it; or the noise's tail still
 * comes down to it), and neither a repair (dcc_floor_watch()) nor, for
 * swift, an end's raise goes to to_us yet.
 */
static inline bool dcc_floor_low_near(const struct dcc_floor *f, u32 to_us,
				      u64 now_us)
{
	u32 low = dcc_floor_low(f, now_us);

	if (!low || low >= to_us || to_us <= f->min_us)
		return false;
	return to_us - low > (to_us - f->min_us) / 4;
}

/* Forget the quiet stretch; true if there was one. */
static inline bool dcc_floor_unquiet(struct dcc_floor *f)
{
	bool was = f->quiet_us || f->quiet_n;

	f->quiet_us = 0;
	f->quiet_n = 0;
	return was;
}

/*
 * Fold a delay sample into a destination's floor kept over win_us.
 * Returns true when the floor changed (the caller then publishes it).  A
 * likely-delayed ACK's sample (ack_delayed) only lowers it.  A new
 * minimum restarts the widest noise it was taken under (wide_4us);
 * an expired floor also forgets its raise and its quiet stretch.
 */
static inline bool dcc_floor_update(struct dcc_floor *f, u32 win_us,
				    u32 delay_us, bool ack_delayed, u64 now_us)
{
	bool expired = dcc_us_since64(now_us, f->stamp_us) > win_us;

	if (!delay_us || (f->min_us && delay_us > f->min_us &&
			  (!expired || ack_delayed)))
		return false;
	if (f->min_us == delay_us && !expired)
		return false;
	if (expired) {
		f->raised = false;
		dcc_floor_unquiet(f);
	}
	f->min_us = delay_us;
	f->stamp_us = now_us;
	f->wide_4us = 0;
	f->repaired = false;
	return true;
}

/*
 * The noise stopped (dcc_bd_end()): a floor taken while it lasted sits in
 * its low tail for the rest of its window, and counted from it without
 * the noise every quiet sample reads as queueing.  The floor is renewed
 * from the quiet sample delay_us, but raised by no more than lift_us, the
 * core's choice (swift: swift_floor_lift_us() of the width that stopped,
 * to the noise's centre, and not at all for noise its allowance held).
 * A sample taken under a queue cannot raise it past the noise's centre.
 * Later samples lower it as usual, and it expires with its new stamp.
 * The widest noise it was taken under is kept: where the width read low
 * the raise falls short, and dcc_floor_watch() finishes it.  A floor
 * dcc_floor_watch() already renewed from a quiet stretch is not raised
 * again by an end seen after (the same stop: raised from its one sample
 * by a lift counted from a connection's base that had not yet followed
 * the floor, the paced model's floor went 200 us into the queue).
 * Returns true when the floor changed (the caller then publishes it); the
 * connections' own minima follow it (swift_on_ack(), a->floor_raised).
 * Timely raises its floors by timely_floor_lift_us(), for the ends of
 * noise that went on only (dcc_bd_end_held()).
 */
static inline bool dcc_floor_raise(struct dcc_floor *f, u32 delay_us,
				   u32 lift_us, u64 now_us)
{
	u32 to = dcc_min_u32(delay_us, dcc_sat_u32((u64)f->min_us + lift_us));

	if (!f->min_us || !lift_us || f->repaired || to <= f->min_us)
		return false;
	f->min_us = to;
	f->stamp_us = now_us;
	f->raised = true;
	return true;
}

/*
 * The repair of a floor left in the noise's low tail, whether or not the
 * noise's end was seen (dcc_bd_end() can miss it, fire during the noise,
 * or read the width low: the VM bed, a floor of 23 us or 133 us against a
 * 272 us path seconds after the noise stopped, and flows starved at their
 * delay floor).  What tells that the noise is gone does not count from
 * the floor being repaired: the floor keeps the widest noise it was taken
 * under (wide_4us, restarted with each new minimum), and a quiet stretch
 * is a run of samples while the noise is no more than half that wide,
 * and the changes' own size too (still_us, dcc_bd_still_us()): the
 * estimate reads a queue's ramp, changes of one sign sample after sample,
 * as no noise at all, and on the VM bed's scenario 7 new connections'
 * initial windows queued up under 200 us of jitter that went on, a
 * stretch began in that ramp, and the floor was repaired to a sample of
 * the queue (0.9-1.8 ms against a 390 us path in the paced model, an RTT
 * p50 of 2.8 ms against 0.7 at J = 0 on the bed): swift then held the
 * queue at the new floor's target, and no sample came back below it.
 * The stretch keeps its lowest sample (quiet_us) and starts again
 * whenever the noise is wider, so no sample of the noise's low tail is
 * in it (a false end during the noise, then the tail: the lowest sample
 * since the end was the tail itself).  The core says whether the floor
 * is one from noise (noisy; swift: raised at a noise's end and not
 * repaired since, or taken under noise that outgrew the allowance; a
 * floor from a quiet path is left alone) and whether the stretch's
 * lowest sample sits above its target (go: every quiet sample reads as
 * queueing, the flows cannot grow).  After DCC_FLOOR_QUIET_N samples of
 * the stretch, go raises the floor to the stretch's lowest sample, at
 * most DCC_FLOOR_WIDE_MUL times the widest noise above the floor (the
 * width reads low for noise kept in order: the VM bed's 500 us of jitter
 * read about 130 us wide), and renews it as dcc_floor_raise() does
 * (raised, a new stamp, the widest noise restarted) and marks it
 * repaired (no end's raise, and for swift no further repair unless the
 * width outgrows the allowance, until a new minimum is taken).  The lowest sample never
 * rises within a stretch, and a queue's ramp starts none (still_us), so
 * the floor does not climb with a queue.
 * delay_us: a quiet sample (not a likely-delayed ACK's); noise_us: the
 * width after it; still_us: the changes' width after it (0: not
 * measured).  Returns true when the slot changed; sets *now when the
 * floor was repaired.
 */
static inline bool dcc_floor_watch(struct dcc_floor *f, u32 delay_us,
				   u32 noise_us, u32 still_us, bool noisy,
				   bool go, u64 now_us, bool *now)
{
	u8 w4 = dcc_bd_4us(noise_us);
	bool changed = false;
	u32 to, low;

	*now = false;
	if (!f->min_us || !delay_us)
		return false;
	if (w4 > f->wide_4us) {
		f->wide_4us = w4;
		changed = true;
	}
	if (!noisy ||
	    (u32)dcc_bd_4us(dcc_max_u32(noise_us, still_us)) * 2 > f->wide_4us)
		return dcc_floor_unquiet(f) || changed;
	if (!f->quiet_us || delay_us < f->quiet_us) {
		f->quiet_us = delay_us;
		changed = true;
	}
	if (f->quiet_n < DCC_FLOOR_QUIET_N) {
		f->quiet_n++;
		changed = true;
	}
	if (!go || f->quiet_n < DCC_FLOOR_QUIET_N || f->quiet_us <= f->min_us)
		return changed;
	to = dcc_min_u32(f->quiet_us,
			 dcc_sat_u32((u64)f->min_us +
				     DCC_FLOOR_WIDE_MUL * 4 * (u32)f->wide_4us));
	/* Not the noise's low tail; else no higher than a recent sample. */
	if (dcc_floor_low_near(f, to, now_us))
		return changed;
	low = dcc_floor_low(f, now_us);
	if (low && low < to)
		to = low;
	if (to <= f->min_us)
		return changed;
	f->min_us = to;
	f->stamp_us = now_us;
	f->raised = true;
	f->repaired = true;
	f->wide_4us = w4;
	dcc_floor_unquiet(f);
	*now = true;
	return true;
}

/* The floor slot f holds for destination key (0: none). */
static inline u32 dcc_floor_of(const struct dcc_floor *f, u32 key)
{
	return f->key == key ? f->min_us : 0;
}

/*
 * Fold a delay sample of destination key into slot f: as
 * dcc_floor_update() when the slot is the destination's; a slot that
 * holds another destination's floor is taken over (two destinations that
 * share a slot then each see a recent sample, no lower than their own
 * minimum RTT: as if there were no floor), but not by a likely-delayed
 * ACK, whose sample overstates the delay.  Returns true when the slot
 * changed (the caller then publishes it).
 */
static inline bool dcc_floor_update_key(struct dcc_floor *f, u32 win_us,
					u32 key, u32 delay_us,
					bool ack_delayed, u64 now_us)
{
	if (f->key == key)
		return dcc_floor_update(f, win_us, delay_us, ack_delayed,
					now_us);
	if (!delay_us || (ack_delayed && f->min_us))
		return false;
	/* A fresh floor: nothing of the other destination's is kept. */
	*f = (struct dcc_floor){
		.stamp_us = now_us,
		.min_us = delay_us,
		.key = key,
	};
	return true;
}

#endif /* _DCC_BASEDELAY_H */
