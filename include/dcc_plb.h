/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PLB (Protective Load Balancing) core: round bookkeeping, the congestion
 * thresholds and the pause after a retransmit timeout.  No kernel
 * dependencies beyond integer types: tcp_plb.c wraps it for TCP and the
 * unit tests drive it directly.
 *
 * After "PLB: Congestion Signals are Simple and Effective for Network Load
 * Balancing", Qureshi et al., SIGCOMM 2022, and the semantics of Linux
 * 6.2+'s tcp_plb_* (which this deliberately does not share names with).
 *
 * Per round (one RTT) the congestion control reports the congested
 * fraction of the round, in 1/256 (DCC_PLB_SCALE; for the delay signal,
 * of a pool of the last rounds' samples: dcc_plb_delay_ratio()), and how
 * long the round was against the round trip it aims at: round_weight, its
 * shortest delay sample in reference rounds (the congestion control's
 * target).
 * A round with a fraction >= cong_thresh is congested; consec_cong_rounds
 * counts them in a row (saturating at rehash_rounds), and ref_rounds adds
 * up their weights.  A repath is due when
 *	consec_cong_rounds >= rehash_rounds			(forced), or
 *	idle_rehash_rounds && nothing in flight &&
 *	consec_cong_rounds >= idle_rehash_rounds		(idle), or
 *	idle_rehash_rounds && consec_cong_rounds >= idle_rehash_rounds &&
 *	ref_rounds >= rehash_rounds				(long),
 * unless a retransmit timeout on a path that showed no congestion (a
 * failure, not a queue: dcc_plb_on_rto()) paused repathing for [S, 2S)
 * seconds.
 *
 * The long rule: rehash_rounds bounds how long PLB lets a connection
 * endure congestion, in round trips, and the paper's round trips are the
 * fabric's, near the target.  Behind another sender's standing queue a
 * round lasts the queue (tens of ms against a target under 2 ms), and a
 * connection cut to its floor and paced has packets in flight at every
 * moment: it waited rehash_rounds of those rounds, most of a second.  It
 * now repaths once the congested rounds have lasted rehash_rounds target
 * round trips, after idle_rehash_rounds of them at least (the time PLB
 * gives the congestion control to answer).  A connection whose rounds
 * last about its target (weight 1: a queue at the target, a quiet path)
 * is unchanged (Documentation/plb.rst, "The long rule").
 *
 * Path memory: random labels are a lottery, and on a fabric where one path
 * is far worse than the rest a connection that lands on it may draw it
 * again, and again (a trace of the two-path bench: one connection drew
 * the congested path five times in a row, 0.8 s away from the quiet one).
 * So at each repath the connection judges the label it leaves by how deep
 * its congestion is: its smoothed RTT over the connection's minimum RTT,
 * kept as a power of two.  It remembers the best label it has left.  A
 * label at least four times as deep as the best one sends it back to the
 * best label instead of drawing a new one; otherwise the label it leaves
 * becomes the best (its depth freshly measured) and a new one is drawn
 * (dcc_plb_choose()).  A best path that got worse is measured again when
 * the connection leaves it, so the memory follows the fabric; a
 * retransmit timeout forgets it.
 *
 * Holding the best label: a connection that went back to its best label
 * (DCC_PLB_F_BACK) has seen a path four times as deep as this one.  When
 * congestion falls due there again and the label is no deeper than when
 * it was judged best, a new draw can only land on a path it has no
 * reason to think better, and may land on the deep one again: it stays
 * (DCC_PLB_HELD, dcc_plb_check_path()), and the congestion count starts
 * over.  A delay-based congestion control holds its queue at its target
 * on any path it fills, so by PLB's measure a path a connection shares
 * with others is "congested" even when it is the best one there is (the
 * two-path bed: eight swift flows on the quiet path B, a cubic hog on A;
 * without the hold every flow visited A 33-39 times in 8 s and spent
 * 4.7-5.7 s of them there).  A label that got deeper is left as before:
 * it becomes the best at its new depth and a new label is drawn.
 *
 * Times are u32 jiffies that wrap; pause_until == 0 means "not paused".
 */
#ifndef _DCC_PLB_H
#define _DCC_PLB_H

#include "dcc_fixed.h"

#define DCC_PLB_SCALE		256	/* fractions are in 1/256 */
#define DCC_PLB_MAX_ROUNDS	31	/* rehash_rounds, idle_rehash_rounds */
#define DCC_PLB_MAX_SUSPEND_SEC	255

/* Settings of one network namespace (the sysctls), validated. */
struct dcc_plb_conf {
	u32 enabled;			/* 0 or 1 */
	u32 idle_rehash_rounds;		/* M, 0 (off) .. 31 */
	u32 rehash_rounds;		/* N, 0 .. 31 */
	u32 suspend_rto_sec;		/* S, 0 .. 255 */
	u32 cong_thresh;		/* K, in 1/256, 0 .. 256 */
};

/*
 * Per connection, inside the congestion control's private area (24
 * bytes, which with struct dcc_plb_link's pointer take the 32 bytes the
 * 20 of version 3 padded to): the congestion count and the reference
 * rounds it lasted, the pause, what the current round has seen so far
 * (the delivered and CE-marked packet counts at its start), the delay
 * samples of the last rounds (how many, how many at or above the target,
 * pooled: dcc_plb_delay_ratio()), and the path memory (the best label
 * left, its depth in flags).
 */
struct dcc_plb_state {
	u32 pause_until;		/* jiffies; 0: not paused */
	u32 round_delivered;		/* tp->delivered at the round's start */
	u32 round_delivered_ce;		/* tp->delivered_ce at the start */
	u16 samples;			/* delay samples pooled over the
					 * last rounds, DCC_PLB_SAMPLE_ONE
					 * each (dcc_plb_delay_ratio())
					 */
	u16 cong_samples;		/* ... at or above the target */
	u8 consec_cong_rounds;		/* congested rounds in a row */
	u8 flags;			/* DCC_PLB_F_* */
	u8 round_weight;		/* this round's length in reference
					 * rounds (0: no sample, counts 1)
					 */
	u8 ref_rounds;			/* weights of the congested rounds
					 * in a row (saturating)
					 */
	u32 best_txhash;		/* best label left; 0: none */
};

#define DCC_PLB_F_CE_SEEN	0x01	/* the path marked CE at least once */
#define DCC_PLB_F_SAMPLED	0x10	/* the round takes the pool's
					 * fraction: it gave a delay
					 * sample, or delivered a
					 * retransmission (dcc_plb_repair())
					 */
#define DCC_PLB_F_RTO_CONG	0x20	/* the last retransmit timeout was
					 * judged congestion, not a failure
					 * (dcc_plb_on_rto())
					 */
#define DCC_PLB_F_LEFT_CONG	0x40	/* repathed off a congested path
					 * (by PLB, or by TCP at a timeout
					 * judged congestion), and no round
					 * since has given a signal with
					 * nothing older out
					 * (dcc_plb_round_end())
					 */
#define DCC_PLB_F_BACK		0x80	/* on the best label, gone back to
					 * it from one at least four times
					 * as deep (dcc_plb_choose())
					 */
#define DCC_PLB_F_BEST_SHIFT	1	/* the best label's depth, log2 */
#define DCC_PLB_F_BEST_MASK	0x0e
#define DCC_PLB_MAX_WEIGHT	255	/* round_weight, ref_rounds */
#define DCC_PLB_SAMPLE_ONE	16	/* one delay sample in samples */
#define DCC_PLB_POOL_SHIFT	2	/* a quarter of the pool leaves at
					 * each round's end
					 */

/*
 * The interface between tcp_plb.ko and the congestion controls that call
 * it (include/dcc_plb_link.h): the layout and meaning of struct
 * dcc_plb_state, which lives in the caller's private area and which both
 * sides read and write, and the layout of struct dcc_plb_ops.  The caller
 * finds tcp_plb with symbol_get(), which checks no modversions CRC, so it
 * checks this version and the two sizes itself before it uses anything.
 * Bump DCC_PLB_ABI_VERSION on any change of either structure or of what a
 * field means (tests/test_plb.c pins the layout of this version).
 * Version 1 was the unversioned object (owner pointer first); version 3
 * added round_weight and ref_rounds, version 4 the path memory, version 5
 * made samples and cong_samples a pool over rounds (DCC_PLB_F_SAMPLED),
 * version 6 added DCC_PLB_F_RTO_CONG and DCC_PLB_F_LEFT_CONG, version 7
 * calls upon_rto at every retransmit timeout (dcc_plb_link_state()), not
 * at CA_EVENT_LOSS only, and judges a run's later timeouts failures,
 * version 8 keeps DCC_PLB_F_LEFT_CONG while a packet sent on the path
 * left is unacknowledged, version 9 added DCC_PLB_F_BACK (the hold on the
 * best label), version 10 sets DCC_PLB_F_SAMPLED in a round that repaired
 * a loss too (it takes the pool's fraction, dcc_plb_delay_ratio()),
 * version 11 keeps DCC_PLB_F_LEFT_CONG over a round that gave no signal,
 * version 12 sets it at a timeout judged congestion.
 */
#define DCC_PLB_ABI_MAGIC	0x31424c50u	/* "PLB1" in memory */
#define DCC_PLB_ABI_VERSION	12u

/* Decision of dcc_plb_check(). */
enum dcc_plb_verdict {
	DCC_PLB_NONE,		/* not congested long enough */
	DCC_PLB_PAUSED,		/* due, but paused after an RTO */
	DCC_PLB_REPATH_IDLE,	/* repath now: congested, nothing in flight */
	DCC_PLB_REPATH_FORCED,	/* repath now: sustained congestion */
	DCC_PLB_REPATH_LONG,	/* repath now: congested rounds that lasted
				 * rehash_rounds reference rounds
				 */
	DCC_PLB_HELD,		/* due, but the connection is on the best
				 * label it went back to, no deeper than
				 * then: it stays (dcc_plb_check_path())
				 */
};

/* The best label's depth, as dcc_plb_choose() stored it in the flags. */
static inline u32 dcc_plb_best_depth(const struct dcc_plb_state *s)
{
	return (s->flags & DCC_PLB_F_BEST_MASK) >> DCC_PLB_F_BEST_SHIFT;
}

/* Start at delivered/delivered_ce (the connection's counts now). */
static inline void dcc_plb_state_init(struct dcc_plb_state *s, u32 delivered,
				      u32 delivered_ce)
{
	s->pause_until = 0;
	s->round_delivered = delivered;
	s->round_delivered_ce = delivered_ce;
	s->samples = 0;
	s->cong_samples = 0;
	s->consec_cong_rounds = 0;
	s->flags = 0;
	s->round_weight = 0;
	s->ref_rounds = 0;
	s->best_txhash = 0;
}

/*
 * Count one delay sample of the current round into the pool; a full pool
 * is halved first (the fraction it holds stays).
 */
static inline void dcc_plb_sample(struct dcc_plb_state *s, bool congested)
{
	if (s->samples > 0xffff - DCC_PLB_SAMPLE_ONE) {
		s->samples >>= 1;
		s->cong_samples >>= 1;
	}
	s->samples += DCC_PLB_SAMPLE_ONE;
	if (congested)
		s->cong_samples += DCC_PLB_SAMPLE_ONE;
	s->flags |= DCC_PLB_F_SAMPLED;
}

/*
 * The ACK being counted delivered a retransmission: the round repairs a
 * loss and takes the pool's fraction (dcc_plb_delay_ratio()).  Its RTT is
 * no sample (Karn).  No bit of the flags was left for it: it sets the
 * one a sample sets, the only thing either says being "this round takes
 * the pool's fraction".
 */
static inline void dcc_plb_repair(struct dcc_plb_state *s)
{
	s->flags |= DCC_PLB_F_SAMPLED;
}

/* Empty the delay pool: its samples are of a path left behind. */
static inline void dcc_plb_pool_clear(struct dcc_plb_state *s)
{
	s->samples = 0;
	s->cong_samples = 0;
	s->flags &= ~DCC_PLB_F_SAMPLED;
}

/*
 * The same sample's length in reference rounds: delay_us (what the
 * congestion control judged) over ref_us (what it judged it against, its
 * target RTT), rounded down, 1 to DCC_PLB_MAX_WEIGHT (1 without either).
 * The round's weight is its shortest sample's: a delayed ACK or a burst
 * of host noise does not lengthen it.
 */
static inline void dcc_plb_sample_len(struct dcc_plb_state *s, u32 delay_us,
				      u32 ref_us)
{
	u32 w = 1;

	if (delay_us && ref_us)
		w = dcc_clamp_u32(delay_us / ref_us, 1, DCC_PLB_MAX_WEIGHT);
	if (!s->round_weight || w < s->round_weight)
		s->round_weight = (u8)w;
}

/*
 * The delay signal's congested fraction at a round's end, in 1/256: the
 * share of delay samples at or above the target in a pool that keeps
 * three quarters of what it held at each round's end (the round's own
 * samples weigh 1, the round before's 3/4, then 9/16, ...: about the last
 * four rounds), or -1 when the round gave no sample and repaired no loss
 * (or the pool is empty).
 *
 * Why a pool and not the round alone: a delay-based congestion control
 * holds its queue at its target in a cycle longer than a round.  A cut
 * (at most one per round trip) takes the queue below the target for a
 * round or so, the increase brings it back over a few rounds.  The share
 * of that cycle spent at or above the target is what grows with the
 * number of flows that share the queue (make sim-check's leaf-spine, swift
 * at ai 0.25: a flow alone at its link 0.32 of its samples, two colliding
 * flows 0.60), but one round sees one phase of it: the colliding flows'
 * rounds went 256, 0, 162, 256, 97, 58, 256, ... and never made three
 * congested rounds in a row, so PLB never moved them.  Pooled, the
 * fraction is the cycle's, and K (one half) tells a collision from a flow
 * alone at its link, as the CE fraction does for ECN.
 *
 * A round that repaired a loss (dcc_plb_repair(): it delivered a
 * retransmission) without a sample takes the pool's fraction as it
 * stands: the samples of the rounds before, on the same label (a repath
 * or a timeout empties the pool), said where that label's queue was, and
 * the losses being repaired are what a queue drops when it overflows.
 * Taken as no signal, the rounds of a repair left the count as it was
 * for as long as the repair lasted: timely's window on the two-path bed
 * (its rate over T_high, under 1 ms, against path A's 40-60 ms) lets
 * one retransmission out per round trip, and a connection whose initial
 * window met A's full FIFO repaired its losses one round at a time, with
 * one congested round counted (plb_twopath.sh, phase 5: 9 such rounds,
 * 0.37 s, of the 13 on a first label; a first label held 1.87 s in a CI
 * run).
 */
static inline int dcc_plb_delay_ratio(struct dcc_plb_state *s)
{
	int ratio = -1;

	if ((s->flags & DCC_PLB_F_SAMPLED) && s->samples)
		ratio = (int)((u32)s->cong_samples * DCC_PLB_SCALE /
			      s->samples);
	s->samples -= s->samples >> DCC_PLB_POOL_SHIFT;
	s->cong_samples -= s->cong_samples >> DCC_PLB_POOL_SHIFT;
	s->flags &= ~DCC_PLB_F_SAMPLED;
	return ratio;
}

/*
 * Close the round if the packet this ACK delivered was sent after it
 * started (prior_delivered is tp->delivered when that packet left, as in
 * BBR's round counting).  Returns true when a round ended, with its
 * congested fraction in *ratio (1/256), or -1 when the round gave no
 * signal (no delay samples and no ECN signal).
 *
 * Which signal: the CE fraction of the packets delivered in the round when
 * use_ecn (the connection negotiated ECN) and the path has marked at least
 * once; otherwise the pooled fraction of delay samples at or above the
 * target (dcc_plb_delay_ratio()).  ECN is the switch's own statement that
 * its queue passed the marking threshold; delay mixes in host noise and is
 * the fallback for unmarked paths.
 *
 * DCC_PLB_F_LEFT_CONG goes at the end of a round that gave a signal
 * (*ratio >= 0) with no packet sent before it began still unacknowledged
 * (old_out false); it stays otherwise (dcc_plb_congested()).
 */
static inline bool dcc_plb_round_end(struct dcc_plb_state *s,
				     u32 prior_delivered, u32 delivered,
				     u32 delivered_ce, bool use_ecn,
				     bool old_out, int *ratio)
{
	u32 pkts, ce;
	int delay;

	if ((s32)(prior_delivered - s->round_delivered) < 0)
		return false;
	pkts = delivered - s->round_delivered;
	ce = delivered_ce - s->round_delivered_ce;
	if (ce)
		s->flags |= DCC_PLB_F_CE_SEEN;
	delay = dcc_plb_delay_ratio(s);
	if (use_ecn && (s->flags & DCC_PLB_F_CE_SEEN) && pkts)
		*ratio = (int)dcc_min_u32(dcc_sat_u32(dcc_div_u64((u64)ce *
								  DCC_PLB_SCALE,
								  pkts)),
					  DCC_PLB_SCALE);
	else
		*ratio = delay;
	/*
	 * A round on the new path said where its queue is: the path works
	 * at that, and PLB judges it from here on (a congested round counts,
	 * dcc_plb_update()).  Not a round without a signal: a retransmission
	 * (no RTT sample, and the repath emptied the pool it would take) or
	 * a packet without a delay sample got through, which a full queue
	 * lets one packet in a while do as well.  Not while a packet sent
	 * before the round began, on the path left, is unacknowledged
	 * (queued there, or lost and not yet repaired): its timeout is that
	 * path's, not a failure of the new one.
	 */
	if (!old_out && *ratio >= 0)
		s->flags &= ~DCC_PLB_F_LEFT_CONG;
	s->round_delivered = delivered;
	s->round_delivered_ce = delivered_ce;
	return true;
}

/*
 * Once per round, after dcc_plb_round_end(): count congested rounds in a
 * row, and add up their weights (dcc_plb_sample_len()); the next round's
 * weight starts over.  ratio < 0 (no signal) leaves the count alone.
 * Returns true if the round counted as congested.
 */
static inline bool dcc_plb_update(struct dcc_plb_state *s,
				  const struct dcc_plb_conf *c, int ratio)
{
	u32 w = dcc_max_u32(s->round_weight, 1);

	s->round_weight = 0;
	if (ratio < 0)
		return false;
	if ((u32)ratio < c->cong_thresh) {
		s->consec_cong_rounds = 0;
		s->ref_rounds = 0;
		return false;
	}
	if (s->consec_cong_rounds < dcc_min_u32(c->rehash_rounds,
						DCC_PLB_MAX_ROUNDS))
		s->consec_cong_rounds++;
	s->ref_rounds = (u8)dcc_min_u32((u32)s->ref_rounds + w,
					DCC_PLB_MAX_WEIGHT);
	return true;
}

/*
 * Is a repath due, given the packets in flight and the time?  On a
 * REPATH verdict the count restarts: the caller picks the new path, and
 * DCC_PLB_F_LEFT_CONG says the packets in flight were sent on a congested
 * path until a round of packets sent after the repath gives a signal (a
 * later round's end: the caller calls this right after a round ends, or
 * with nothing in flight; dcc_plb_round_end()).  A timeout in between is
 * congestion (dcc_plb_on_rto()).
 *
 * The pause ends at pause_until; jiffies wrap, so a pause_until more than
 * 2S (its longest possible length) ahead of now is a stale one from
 * before a wrap and is cleared as well.
 *
 * cur is the connection's label (its transmit hash; 0: unknown) and depth
 * its congestion's depth now (dcc_plb_depth()): on the best label it went
 * back to, no deeper than when that label was judged best, a due repath
 * is DCC_PLB_HELD instead (the hold, above): the count restarts, the
 * delay pool stays.
 */
static inline enum dcc_plb_verdict
dcc_plb_check_path(struct dcc_plb_state *s, const struct dcc_plb_conf *c,
		   u32 packets_out, u32 now, u32 hz, u32 cur, u32 depth)
{
	bool forced, idle, along;
	u32 max_pause;

	forced = s->consec_cong_rounds >= c->rehash_rounds;
	idle = c->idle_rehash_rounds &&
	       s->consec_cong_rounds >= c->idle_rehash_rounds;
	along = idle && packets_out && s->ref_rounds >= c->rehash_rounds;
	idle = idle && !packets_out;
	if (!forced && !idle && !along)
		return DCC_PLB_NONE;

	max_pause = 2 * dcc_min_u32(c->suspend_rto_sec,
				    DCC_PLB_MAX_SUSPEND_SEC) * hz;
	if (s->pause_until &&
	    (!dcc_before32(now, s->pause_until) ||
	     dcc_before32(now + max_pause, s->pause_until)))
		s->pause_until = 0;
	if (s->pause_until)
		return DCC_PLB_PAUSED;

	s->consec_cong_rounds = 0;
	s->ref_rounds = 0;
	if ((s->flags & DCC_PLB_F_BACK) && cur && cur == s->best_txhash &&
	    dcc_min_u32(depth, 7) <= dcc_plb_best_depth(s))
		return DCC_PLB_HELD;	/* the pool stays: the same path */
	dcc_plb_pool_clear(s);
	s->flags |= DCC_PLB_F_LEFT_CONG;
	if (forced)
		return DCC_PLB_REPATH_FORCED;
	return idle ? DCC_PLB_REPATH_IDLE : DCC_PLB_REPATH_LONG;
}

/* dcc_plb_check_path() without a label: never held. */
static inline enum dcc_plb_verdict dcc_plb_check(struct dcc_plb_state *s,
						 const struct dcc_plb_conf *c,
						 u32 packets_out, u32 now,
						 u32 hz)
{
	return dcc_plb_check_path(s, c, packets_out, now, hz, 0, 0);
}

/*
 * How deep the label being left is congested: the smoothed RTT over the
 * connection's minimum RTT, as floor(log2), 0 to 7 (0 when either is
 * unknown; dcc_plb_label_depth() below takes the lesser of the smoothed
 * RTT and the latest sample).  Absolute on purpose: the congestion
 * controls' targets, which the rounds' weights count in, move with the
 * window (swift's flow scaling raises its target as the window falls),
 * so weights taken on two paths do not compare.
 */
static inline u32 dcc_plb_depth(u32 srtt_us, u32 min_rtt_us)
{
	u32 r;

	if (!srtt_us || !min_rtt_us || min_rtt_us == ~0u)
		return 0;
	r = srtt_us / min_rtt_us;
	return r > 1 ? dcc_min_u32(31 - __builtin_clz(r), 7) : 0;
}

/*
 * The depth of the label a connection is on now: dcc_plb_depth() of the
 * lesser of the smoothed RTT and the latest sample (last_us, 0: none).
 * The smoothed RTT alone still holds the label left for tens of ACKs, and
 * a slow connection on the label it came back to (a packet or less per
 * round) reaches its next due repath with fewer: on the two-path bed the
 * slowest bulk flows read their quiet label, back from the congested
 * one, as four times as deep as it was, and left it again (25-35 times
 * in 8 s; Documentation/plb.rst, "The hold").  A label that is deep has
 * a deep latest sample too.
 */
static inline u32 dcc_plb_label_depth(u32 srtt_us, u32 last_us,
				      u32 min_rtt_us)
{
	if (last_us && last_us < srtt_us)
		srtt_us = last_us;
	return dcc_plb_depth(srtt_us, min_rtt_us);
}

/*
 * A repath from the label cur (the connection's transmit hash) of depth
 * (dcc_plb_depth()) is being made: returns the label
 * to go back to, or 0 to draw a new one (path memory, above).  Going
 * back sets DCC_PLB_F_BACK (the hold, above); a new draw clears it.
 */
static inline u32 dcc_plb_choose(struct dcc_plb_state *s, u32 cur, u32 depth)
{
	u32 best = dcc_plb_best_depth(s);

	depth = dcc_min_u32(depth, 7);
	if (s->best_txhash && s->best_txhash != cur && depth >= best + 2) {
		s->flags |= DCC_PLB_F_BACK;
		return s->best_txhash;
	}
	s->best_txhash = cur;
	s->flags = (u8)((s->flags & ~(DCC_PLB_F_BEST_MASK | DCC_PLB_F_BACK)) |
			depth << DCC_PLB_F_BEST_SHIFT);
	return 0;
}

/*
 * Was the connection congested, by PLB's own measure, when a retransmit
 * timeout came: its last round was congested, or the delay samples pooled
 * over its last rounds were at or above the target in cong_thresh of them,
 * or PLB (or TCP's rehash at a timeout judged congestion) has just
 * repathed it off a congested path and no round since has given a signal
 * with nothing sent before it out (DCC_PLB_F_LEFT_CONG: the repath
 * emptied the pool and the count).  In that last case the
 * packet that timed out was either left on the congested path or sent
 * on the new one before it showed where its queue is: delivering
 * nothing, or a retransmission or a packet without a delay sample now
 * and then, which a congested path (a new label on the same full queue)
 * does as a failed one does; it is taken for congestion.
 */
static inline bool dcc_plb_congested(const struct dcc_plb_state *s,
				     const struct dcc_plb_conf *c)
{
	if (s->consec_cong_rounds || (s->flags & DCC_PLB_F_LEFT_CONG))
		return true;
	return s->samples &&
	       (u32)s->cong_samples * DCC_PLB_SCALE / s->samples >=
	       c->cong_thresh;
}

/*
 * A retransmit timeout: TCP has just moved the connection to a new path
 * (tcp_write_timeout() rehashes), so forget the congestion count.
 * timeouts is how many timeouts came before this one with no ACK of new
 * data between them (the socket's icsk_retransmits: 0 at the first).
 *
 * What the timeout means:
 *   - the first of a run, on a path that was delivering with its queue
 *     at or above the target, or of a connection PLB had just moved off
 *     such a path (dcc_plb_congested()), lost the packets to a queue:
 *     the timeout is congestion (DCC_PLB_F_RTO_CONG), and PLB goes on
 *     judging rounds on the new path as on any other.  TCP's rehash has
 *     moved the connection off a congested path as PLB's repath does,
 *     and the pool and the count are emptied as there: DCC_PLB_F_LEFT_CONG
 *     is set, and the first timeout of a later run (the retransmission
 *     got through, the packets after it did not) before a round on the
 *     new label has given a signal is congestion too.  No pause: a pause
 *     would hold the connection on the path TCP's rehash drew, and that
 *     draw lands on the congested path again one time in two (on the
 *     two-path bed a connection held so carried 1 Mbit/s for 20 s beside
 *     a free path);
 *   - any other timeout is a failure (a black hole): do not repath for S
 *     to 2S seconds (rnd picks the point in between) lest PLB move the
 *     connection back onto it, as upstream and the paper do; the path
 *     memory is forgotten too, its best label may be the one that failed.
 *     That is a first timeout with no sign of congestion, and every
 *     later one of a run: the retransmission, sent alone on the path
 *     TCP's rehash drew, was lost as well, which a queue that drops at
 *     its overflows seldom does and a failed path always does (a
 *     black-holed path PLB had moved connections onto from a congested
 *     one: every first timeout there read as congestion).  A pause of 0
 *     jiffies pauses nothing.
 * A congestion timeout leaves a pause already running as it is.  A path
 * that fails under a congested connection, or that PLB has just moved one
 * onto, costs one timeout more than upstream's rule, and again at each
 * later repath onto it that TCP's rehash leaves after one timeout
 * (Documentation/plb.rst, "What it costs").
 *
 * Returns true when the timeout paused PLB.
 */
static inline bool dcc_plb_on_rto(struct dcc_plb_state *s,
				  const struct dcc_plb_conf *c, u32 now,
				  u32 hz, u32 rnd, u32 timeouts)
{
	u32 pause = dcc_min_u32(c->suspend_rto_sec,
				DCC_PLB_MAX_SUSPEND_SEC) * hz;

	if (!timeouts && dcc_plb_congested(s, c))
		s->flags |= DCC_PLB_F_RTO_CONG;
	else
		s->flags &= ~DCC_PLB_F_RTO_CONG;
	s->consec_cong_rounds = 0;
	s->ref_rounds = 0;
	dcc_plb_pool_clear(s);
	s->flags &= ~DCC_PLB_F_LEFT_CONG;
	if (s->flags & DCC_PLB_F_RTO_CONG) {
		s->flags |= DCC_PLB_F_LEFT_CONG;	/* as PLB's repath */
		return false;
	}
	s->best_txhash = 0;
	s->flags &= ~(DCC_PLB_F_BEST_MASK | DCC_PLB_F_BACK);
	if (!pause) {
		s->pause_until = 0;
		return false;
	}
	pause += rnd % pause;
	s->pause_until = now + pause;
	if (!s->pause_until)	/* 0 means "not paused": one jiffy later */
		s->pause_until = 1;
	return true;
}

/* Remaining pause in jiffies (0 when not paused), for reporting. */
static inline u32 dcc_plb_pause_left(const struct dcc_plb_state *s, u32 now)
{
	if (!s->pause_until || !dcc_before32(now, s->pause_until))
		return 0;
	return s->pause_until - now;
}

#endif /* _DCC_PLB_H */
