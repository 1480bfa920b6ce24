// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness of the PLB core (include/dcc_plb.h), driven as
 * include/dcc_plb_link.h and tcp_plb.c drive it.
 *
 * The simulated connection has TCP's counters (delivered, delivered_ce,
 * packets_out) starting anywhere, so they wrap, and a jiffies clock that
 * starts anywhere, steps forward, jumps backwards and wraps.  Events: ACKs
 * (delay sample above or below the target or none, packets and CE marks
 * delivered, the send-time count of the packet acked, ECN negotiated or
 * not), sends with nothing in flight (the idle repath check), retransmit
 * timeouts with any random value, clock steps and sysctl writes (in and
 * out of range), HZ 100, 250, 300, 1000 or anything up to 1000.
 *
 * Invariants after every event:
 *  - cong_samples <= samples; a round ends only for a packet sent after
 *    it began, then the counts restart at the current ones, the delay
 *    pool keeps three quarters, and its fraction is -1 (no signal: no
 *    delay sample in the round without ECN) or in [0, 256];
 *  - the congested-round count is reset by an uncongested round, grows by
 *    one per congested round up to min(rehash_rounds, 31), never above 31;
 *  - a repath verdict has its cause (forced: rehash_rounds reached; idle:
 *    nothing in flight and idle_rehash_rounds reached) and restarts the
 *    count; no verdict without a cause; a pause reported is in force and
 *    ends within 2 * suspend_rto_sec (so no pause blocks PLB for longer,
 *    whatever the clock did);
 *  - after a timeout the pause lasts [S, 2S] seconds (none for S = 0);
 *  - the left-path flag goes only at the end of a round that gave a
 *    signal (ratio >= 0) with nothing older out, and a run's first
 *    timeout after a repath (PLB's, or TCP's at a timeout judged
 *    congestion), before such a round, is congestion (the harness
 *    tracks it apart from the flag).
 */
#include "fuzz.h"

#include "dcc_plb.h"

/* net.dcc_plb.* sysctls of tcp_plb.c (name, range, default). */
enum { P_IDLE, P_REHASH, P_SUSPEND, P_THRESH, P_NUM };

static const struct fz_param plb_tab[P_NUM] = {
	[P_IDLE]	= { "idle_rehash_rounds", 0, DCC_PLB_MAX_ROUNDS, 3 },
	[P_REHASH]	= { "rehash_rounds", 0, DCC_PLB_MAX_ROUNDS, 12 },
	[P_SUSPEND]	= { "suspend_rto_sec", 0, DCC_PLB_MAX_SUSPEND_SEC, 60 },
	[P_THRESH]	= { "cong_thresh", 0, DCC_PLB_SCALE, 128 },
};

struct sim {
	struct fz f;
	u32 m[P_NUM];
	struct dcc_plb_conf c;
	struct dcc_plb_state s;
	u32 delivered, delivered_ce, packets_out, now, hz;
	u32 label;		/* the socket's transmit hash (never 0) */
	bool ecn;
	bool unjudged;		/* repathed off a congested path (by PLB,
				 * or by TCP at a congestion timeout), and
				 * no round since gave a signal with
				 * nothing older out
				 */
};

static void build(struct sim *x)
{
	x->c = (struct dcc_plb_conf){
		.enabled = 1,	/* the glue returns early when disabled */
		.idle_rehash_rounds = x->m[P_IDLE],
		.rehash_rounds = x->m[P_REHASH],
		.suspend_rto_sec = x->m[P_SUSPEND],
		.cong_thresh = x->m[P_THRESH],
	};
}

static void check_state(struct sim *x)
{
	struct fz *f = &x->f;

	FZ_CHECK(f, x->s.cong_samples <= x->s.samples, "%u of %u samples",
		 x->s.cong_samples, x->s.samples);
	FZ_CHECK(f, x->s.consec_cong_rounds <= DCC_PLB_MAX_ROUNDS,
		 "consec %u", x->s.consec_cong_rounds);
}

/* The repath itself, as tcp_plb.c makes it: path memory, then the hash. */
static void repath(struct sim *x, u32 depth)
{
	struct fz *f = &x->f;
	u32 best = x->s.best_txhash, ce = x->s.flags & DCC_PLB_F_CE_SEEN;
	u32 bd = dcc_plb_best_depth(&x->s);
	u32 back = dcc_plb_choose(&x->s, x->label, depth);
	u32 nd = dcc_plb_best_depth(&x->s);

	FZ_LOG(f, "repath from %#x depth %u best %#x/%u -> back %#x",
	       x->label, depth, best, bd, back);
	FZ_CHECK(f, depth <= 7, "depth %u", depth);
	FZ_CHECK(f, (x->s.flags & DCC_PLB_F_CE_SEEN) == ce, "CE flag lost");
	FZ_CHECK(f, back != x->label, "back to the same label");
	FZ_CHECK(f, !back || (back == best && depth >= bd + 2),
		 "back to %#x (best %#x/%u) from depth %u", back, best, bd,
		 depth);
	FZ_CHECK(f, back || (x->s.best_txhash == x->label && nd == depth),
		 "the label left is not the best");
	FZ_CHECK(f, !!back == !!(x->s.flags & DCC_PLB_F_BACK),
		 "back %#x but the flag %d", back,
		 !!(x->s.flags & DCC_PLB_F_BACK));
	if (back) {
		x->label = back;
		return;
	}
	x->label = fz_u32(f) | 1;	/* a new draw: not 0, not the best */
	if (x->label == best)
		x->label ^= 2;
}

/* dcc_plb_check_rehash() of tcp_plb.c, checked. */
static void check_rehash(struct sim *x)
{
	struct fz *f = &x->f;
	u8 old = x->s.consec_cong_rounds;
	u32 max_pause = 2 * x->c.suspend_rto_sec * x->hz;
	bool forced = old >= x->c.rehash_rounds;
	bool due_m = x->c.idle_rehash_rounds &&
		     old >= x->c.idle_rehash_rounds;
	bool idle = due_m && !x->packets_out;
	bool along = due_m && x->packets_out &&
		     x->s.ref_rounds >= x->c.rehash_rounds;
	u32 srtt = fz_u32_edge(f), last = fz_u32_edge(f), min = fz_u32_edge(f);
	u32 depth = dcc_plb_label_depth(srtt, last, min);
	u32 bd = dcc_plb_best_depth(&x->s);
	bool back = x->s.flags & DCC_PLB_F_BACK;
	u32 best = x->s.best_txhash, samples = x->s.samples;
	u8 flags = x->s.flags;
	enum dcc_plb_verdict v;

	FZ_CHECK(f, depth <= dcc_plb_depth(srtt, min) &&
		 (!last || depth >= dcc_plb_depth(last < srtt ? last : srtt,
						  min)),
		 "label depth %u of srtt %u last %u min %u", depth, srtt,
		 last, min);
	v = dcc_plb_check_path(&x->s, &x->c, x->packets_out, x->now, x->hz,
			       x->label, depth);
	FZ_LOG(f, "check consec=%u out=%u now=%u -> %d pause_until=%u", old,
	       x->packets_out, x->now, v, x->s.pause_until);
	switch (v) {
	case DCC_PLB_NONE:
		FZ_CHECK(f, !forced && !idle && !along,
			 "no verdict at consec %u", old);
		FZ_CHECK(f, x->s.consec_cong_rounds == old, "count changed");
		break;
	case DCC_PLB_PAUSED:
		FZ_CHECK(f, forced || idle || along,
			 "paused without a cause");
		FZ_CHECK(f, x->s.pause_until &&
			 dcc_before32(x->now, x->s.pause_until) &&
			 x->s.pause_until - x->now <= max_pause,
			 "paused until %u at %u, longest pause %u",
			 x->s.pause_until, x->now, max_pause);
		FZ_CHECK(f, dcc_plb_pause_left(&x->s, x->now) ==
			 x->s.pause_until - x->now, "pause left");
		break;
	case DCC_PLB_REPATH_FORCED:
		FZ_CHECK(f, forced, "forced repath at consec %u (N %u)", old,
			 x->c.rehash_rounds);
		FZ_CHECK(f, !x->s.pause_until, "repath while paused");
		FZ_CHECK(f, x->s.consec_cong_rounds == 0, "count kept");
		break;
	case DCC_PLB_REPATH_IDLE:
		FZ_CHECK(f, idle && !forced, "idle repath at consec %u", old);
		FZ_CHECK(f, !x->s.pause_until, "repath while paused");
		FZ_CHECK(f, x->s.consec_cong_rounds == 0, "count kept");
		break;
	case DCC_PLB_REPATH_LONG:
		FZ_CHECK(f, along && !forced, "long repath at consec %u",
			 old);
		FZ_CHECK(f, !x->s.pause_until, "repath while paused");
		FZ_CHECK(f, x->s.consec_cong_rounds == 0 && !x->s.ref_rounds,
			 "count kept");
		break;
	case DCC_PLB_HELD:
		FZ_CHECK(f, forced || idle || along, "held without a cause");
		FZ_CHECK(f, back && x->label == best && depth <= bd,
			 "held on %#x (best %#x/%u, back %d) at depth %u",
			 x->label, best, bd, back, depth);
		FZ_CHECK(f, !x->s.pause_until, "held while paused");
		FZ_CHECK(f, x->s.consec_cong_rounds == 0 && !x->s.ref_rounds,
			 "count kept");
		FZ_CHECK(f, x->s.samples == samples && x->s.flags == flags,
			 "a hold changed the pool or the flags");
		break;
	default:
		FZ_CHECK(f, 0, "verdict %d", v);
	}
	if (v != DCC_PLB_NONE && v != DCC_PLB_PAUSED && v != DCC_PLB_HELD) {
		FZ_CHECK(f, !back || x->label != best || depth > bd,
			 "left the best label it went back to at depth %u <= %u",
			 depth, bd);
		FZ_CHECK(f, !x->s.samples && !x->s.cong_samples &&
			 !(x->s.flags & DCC_PLB_F_SAMPLED),
			 "delay pool kept across a repath");
		FZ_CHECK(f, x->s.flags & DCC_PLB_F_LEFT_CONG,
			 "a repath without the left-path flag");
		x->unjudged = true;
		repath(x, depth);
	}
}

/* An ACK: dcc_plb_link_ack(), then update_state and check_rehash. */
static void ev_ack(struct sim *x)
{
	struct fz *f = &x->f;
	u8 sel = fz_u8(f);
	/* At most 65535 per ACK: a round never spans 2^32 packets. */
	u32 d = sel & 1 ? fz_range(f, 1, 64) : fz_u16(f);
	u32 ce = sel & 2 ? 0 : fz_range(f, 0, d);
	u32 back = sel & 4 ? fz_u8(f) : fz_u32_edge(f);
	u32 prior, old_round = x->s.round_delivered, pkts, ce_pkts;
	u32 old_ce_round = x->s.round_delivered_ce;
	u16 samples = x->s.samples, cong = x->s.cong_samples;
	bool ended, was_cong, sampled;
	u8 left;
	u32 weight;
	u8 old, old_refs;
	int ratio = -2;

	if ((sel & 24) == 8) {
		u32 w = x->s.round_weight, dl = fz_u32_edge(f);
		u32 ref = sel & 64 ? 0 : fz_u16(f);

		dcc_plb_sample(&x->s, sel & 32);
		dcc_plb_sample_len(&x->s, dl, ref);
		FZ_CHECK(f, x->s.round_weight >= 1 &&
			 (!w || x->s.round_weight <= w),
			 "round weight %u -> %u for %u/%u", w,
			 x->s.round_weight, dl, ref);
	}
	/*
	 * An ACK without a sample that delivered a retransmission: the round
	 * repairs a loss (bits 32 and 64 only matter to a sample).
	 */
	if ((sel & 24) == 16 && (sel & 32))
		dcc_plb_repair(&x->s);
	samples = x->s.samples;
	cong = x->s.cong_samples;
	/* A round that sampled, or repaired a loss, takes the pool's. */
	sampled = x->s.flags & DCC_PLB_F_SAMPLED;
	if (!d)
		return;		/* rs->delivered <= 0 */
	/* The acked packet left when delivered was 'back' lower. */
	prior = x->delivered - back;
	x->delivered += d;
	x->delivered_ce += ce;
	left = x->s.flags & DCC_PLB_F_LEFT_CONG;
	ended = dcc_plb_round_end(&x->s, prior, x->delivered,
				  x->delivered_ce, x->ecn, sel & 128, &ratio);
	FZ_LOG(f, "ack d=%u ce=%u prior=%u round=%u -> ended %d ratio %d",
	       d, ce, prior, old_round, ended, ratio);
	if (!ended) {
		FZ_CHECK(f, dcc_before32(prior, old_round),
			 "round kept for a packet sent after it began");
		FZ_CHECK(f, x->s.samples == samples, "samples changed");
		return;
	}
	FZ_CHECK(f, !dcc_before32(prior, old_round),
		 "round ended for a packet sent before it began");
	FZ_CHECK(f, ratio >= -1 && ratio <= DCC_PLB_SCALE, "ratio %d",
		 ratio);
	/*
	 * The left path's flag goes at the end of a round that gave a
	 * signal with nothing older out; a round without one (a repair or
	 * a packet without a delay sample on an emptied pool) keeps it.
	 */
	FZ_CHECK(f, (x->s.flags & DCC_PLB_F_LEFT_CONG) ==
		 (sel & 128 || ratio < 0 ? left : 0),
		 "left-path flag %d -> %d (old out %d, ratio %d)", !!left,
		 !!(x->s.flags & DCC_PLB_F_LEFT_CONG), !!(sel & 128), ratio);
	if (!(sel & 128) && ratio >= 0)
		x->unjudged = false;
	pkts = x->delivered - old_round;
	ce_pkts = x->delivered_ce - old_ce_round;
	if (x->ecn && (x->s.flags & DCC_PLB_F_CE_SEEN) && pkts)
		FZ_CHECK(f, ratio == (int)dcc_min_u64((u64)ce_pkts *
						      DCC_PLB_SCALE / pkts,
						      DCC_PLB_SCALE),
			 "ECN ratio %d from %u/%u", ratio, ce_pkts, pkts);
	else
		FZ_CHECK(f, sampled && samples ?
			 ratio == cong * DCC_PLB_SCALE / samples :
			 ratio == -1, "delay ratio %d from %u/%u (sampled %d)",
			 ratio, cong, samples, sampled);
	/* The delay pool keeps three quarters, the round restarts. */
	FZ_CHECK(f, x->s.round_delivered == x->delivered &&
		 x->s.round_delivered_ce == x->delivered_ce &&
		 x->s.samples == samples - (samples >> DCC_PLB_POOL_SHIFT) &&
		 x->s.cong_samples == cong - (cong >> DCC_PLB_POOL_SHIFT) &&
		 !(x->s.flags & DCC_PLB_F_SAMPLED), "round not restarted");

	old = x->s.consec_cong_rounds;
	old_refs = x->s.ref_rounds;
	weight = x->s.round_weight ? x->s.round_weight : 1;
	was_cong = dcc_plb_update(&x->s, &x->c, ratio);
	FZ_CHECK(f, !x->s.round_weight, "round weight kept");
	if (ratio < 0)
		FZ_CHECK(f, x->s.ref_rounds == old_refs,
			 "no-signal round weighed");
	else if (!was_cong)
		FZ_CHECK(f, !x->s.ref_rounds, "uncongested round kept %u",
			 x->s.ref_rounds);
	else
		FZ_CHECK(f, x->s.ref_rounds ==
			 dcc_min_u32(old_refs + weight, DCC_PLB_MAX_WEIGHT),
			 "weight: %u + %u -> %u", old_refs, weight,
			 x->s.ref_rounds);
	if (ratio < 0)
		FZ_CHECK(f, !was_cong && x->s.consec_cong_rounds == old,
			 "no-signal round counted");
	else if ((u32)ratio < x->c.cong_thresh)
		FZ_CHECK(f, !was_cong && !x->s.consec_cong_rounds,
			 "uncongested round kept count %u",
			 x->s.consec_cong_rounds);
	else
		FZ_CHECK(f, was_cong && x->s.consec_cong_rounds ==
			 (old < dcc_min_u32(x->c.rehash_rounds,
					    DCC_PLB_MAX_ROUNDS) ? old + 1 : old),
			 "congested round: %u -> %u (N %u)", old,
			 x->s.consec_cong_rounds, x->c.rehash_rounds);
	check_rehash(x);
}

static void ev_rto(struct sim *x)
{
	struct fz *f = &x->f;
	u32 rnd = fz_u32_edge(f), pause = x->c.suspend_rto_sec * x->hz;
	u32 timeouts = fz_u32(f) % 3, left, old_left, best = x->s.best_txhash;
	bool cong, paused;

	/* the verdict: a run's first timeout judges, the rest are failures */
	cong = !timeouts && dcc_plb_congested(&x->s, &x->c);
	if (!timeouts && (x->s.flags & DCC_PLB_F_LEFT_CONG))
		FZ_CHECK(f, cong, "timeout right after a repath: failure");
	/* a new path no round has judged yet: never a failure */
	if (!timeouts && x->unjudged)
		FZ_CHECK(f, cong, "first timeout on an unjudged path: failure");
	old_left = dcc_plb_pause_left(&x->s, x->now);
	paused = dcc_plb_on_rto(&x->s, &x->c, x->now, x->hz, rnd, timeouts);
	/* TCP's rehash at a congestion timeout: as PLB's repath */
	FZ_CHECK(f, !!(x->s.flags & DCC_PLB_F_LEFT_CONG) == cong,
		 "left-path flag %d after a timeout judged %d",
		 !!(x->s.flags & DCC_PLB_F_LEFT_CONG), cong);
	left = dcc_plb_pause_left(&x->s, x->now);
	FZ_LOG(f, "rto now=%u rnd=%u timeouts=%u cong=%d -> paused %d pause_until %u left %u",
	       x->now, rnd, timeouts, cong, paused, x->s.pause_until, left);
	FZ_CHECK(f, !x->s.consec_cong_rounds, "count kept over an RTO");
	FZ_CHECK(f, !x->s.samples && !(x->s.flags & DCC_PLB_F_SAMPLED),
		 "delay pool kept over an RTO");
	FZ_CHECK(f, !!(x->s.flags & DCC_PLB_F_RTO_CONG) == cong,
		 "verdict %d kept as %d", cong,
		 !!(x->s.flags & DCC_PLB_F_RTO_CONG));
	x->label = fz_u32(f) | 1;	/* tcp_write_timeout() rehashed */
	x->unjudged = cong;
	if (cong) {
		FZ_CHECK(f, !paused && left == old_left,
			 "congestion timeout paused (%u left, %u before)",
			 left, old_left);
		FZ_CHECK(f, x->s.best_txhash == best,
			 "path memory lost over a congestion timeout");
		return;
	}
	FZ_CHECK(f, !x->s.best_txhash &&
		 !(x->s.flags & (DCC_PLB_F_BEST_MASK | DCC_PLB_F_BACK)),
		 "path memory kept over a failure timeout");
	FZ_CHECK(f, paused == !!pause, "paused %d, S = %u", paused, pause);
	if (!pause)
		FZ_CHECK(f, !x->s.pause_until, "pause of 0 pauses");
	else
		FZ_CHECK(f, left >= pause && left <= 2 * pause,
			 "pause of %u jiffies, S = %u", left, pause);
}

static u32 pick_hz(struct fz *f)
{
	static const u32 hzs[] = { 100, 250, 300, 1000 };
	u8 sel = fz_u8(f);

	return sel & 4 ? fz_range(f, 1, 1000) : hzs[sel & 3];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sim x;
	struct fz *f = &x.f;

	memset(&x, 0, sizeof(x));
	fz_init(f, data, size);
	fz_params_init(f, plb_tab, P_NUM, x.m, NULL);
	build(&x);
	x.hz = pick_hz(f);
	x.delivered = fz_u32_edge(f);
	x.delivered_ce = fz_u32_edge(f);
	x.now = fz_u32_edge(f);
	x.ecn = fz_bool(f);
	x.label = fz_u32(f) | 1;
	dcc_plb_state_init(&x.s, x.delivered, x.delivered_ce);
	check_state(&x);

	while (fz_more(f) && f->ev < 4096) {
		u8 op = fz_u8(f);

		f->ev++;
		switch (op & 15) {
		case 0: case 1: case 2: case 3: case 4: case 5: case 6:
			ev_ack(&x);
			break;
		case 7:
			/* Sending with nothing in flight (CA_EVENT_TX_START). */
			x.packets_out = 0;
			check_rehash(&x);
			break;
		case 8:
			x.packets_out = op & 16 ? fz_u8(f) : fz_u32_edge(f);
			break;
		case 9:
			ev_rto(&x);
			break;
		case 10:
			/* Time passes: jiffies (HZ per second) up to an hour. */
			x.now += fz_range(f, 0, 3600 * x.hz);
			break;
		case 11:
			/* Any step: backwards, across the wrap. */
			x.now += fz_u32_edge(f);
			break;
		case 12:
			if (fz_params_poke(f, plb_tab, P_NUM, x.m, NULL))
				build(&x);
			break;
		case 13:
			/* Sending with data in flight: the forced check. */
			check_rehash(&x);
			break;
		case 14:
			x.ecn = fz_bool(f);
			break;
		default:
			dcc_plb_state_init(&x.s, x.delivered, x.delivered_ce);
			x.unjudged = false;
			break;
		}
		check_state(&x);
	}
	return 0;
}
