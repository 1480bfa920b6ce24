// SPDX-License-Identifier: GPL-2.0
/*
 * Swift: delay-based congestion control for the datacenter.
 *
 * After "Swift: Delay is Simple and Effective for Congestion Control in the
 * Datacenter", Kumar et al., SIGCOMM 2020.  A window-based AIMD controller
 * against a target delay that scales with the path's hop count and shrinks
 * as the window grows.  Windows are fractional; below one packet the socket
 * keeps a window of one and is paced at one packet every rtt / cwnd.
 *
 * The algorithm lives in include/dcc_swift.h (no kernel dependencies, unit
 * tested in userspace); this file glues it to TCP: it turns ACKs, fast
 * recovery and retransmit timeouts into core calls and applies the window
 * and pacing rate the core returns.  See Documentation/swift.rst.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/inet_diag.h>
#include <linux/module.h>
#include <net/tcp.h>

#include "include/dcc_basedelay.h"
#include "include/dcc_compat.h"
#include "include/dcc_floor_link.h"
#include "include/dcc_param.h"
#include "include/dcc_pacing.h"
#include "include/dcc_plb_link.h"
#include "include/dcc_stat.h"
#include "include/dcc_swift.h"
#include "include/dcc_tstamp_link.h"

#define CREATE_TRACE_POINTS
#include "trace/swift_trace.h"

/*
 * Global parameters in their fixed-point form: an immutable block, rebuilt
 * and published by RCU on every change (include/dcc_param.h); callbacks
 * read it under rcu_read_lock() through dcc_param_block_get(&swift_pb).
 */
DCC_PARAM_BLOCK(swift_pb, struct swift_params, swift_params_build);

DCC_PARAM_UINT(ai_mpkt, 250, 1, 1000000, NULL, &swift_pb,
	       "additive increase per RTT, in 1/1000 packet");
DCC_PARAM_UINT(md_beta_permille, 800, 1, 1000, NULL, &swift_pb,
	       "multiplicative-decrease gain b, in 1/1000");
DCC_PARAM_UINT(max_mdf_permille, 500, 1, 999, NULL, &swift_pb,
	       "largest single window cut, in 1/1000");
DCC_PARAM_UINT(min_cwnd_mpkt, 1, 1, 1000000, NULL, &swift_pb,
	       "smallest window, in 1/1000 packet (below 1000: paced)");
DCC_PARAM_UINT(max_cwnd_pkts, 256, 1, 65535, NULL, &swift_pb,
	       "largest window, in packets");
DCC_PARAM_UINT(base_target_us, 25, 0, 1000000, NULL, &swift_pb,
	       "fabric target delay for one hop, in microseconds");
DCC_PARAM_UINT(target_rel_minrtt, 1, 0, 1, NULL, &swift_pb,
	       "1: the target counts from the connection's minimum RTT; 0: absolute");
DCC_PARAM_UINT(scale_rtt_us, 50, 0, 1000000, NULL, &swift_pb,
	       "base RTT the queueing targets are for: above it, with target_rel_minrtt, base target, per-hop and flow-scaling terms grow with the measured base RTT, in microseconds (0: never)");
DCC_PARAM_UINT(minrtt_win_ms, 10000, 10, 600000, NULL, &swift_pb,
	       "lifetime of a minimum-RTT estimate, in milliseconds");
DCC_PARAM_UINT(hops, 2, 0, 255, NULL, NULL,
	       "hop count of the path used for the target, in hops");
DCC_PARAM_UINT(per_hop_ns, 1000, 0, 1000000, NULL, &swift_pb,
	       "target delay added per hop, in nanoseconds");
DCC_PARAM_UINT(fs_range_us, 100, 0, 1000000, NULL, &swift_pb,
	       "flow-scaling range of the target, in microseconds");
DCC_PARAM_UINT(fs_min_cwnd_mpkt, 100, 1, 65535000, NULL, &swift_pb,
	       "flow scaling: window given the whole range, in 1/1000 packet");
DCC_PARAM_UINT(fs_max_cwnd_pkts, 256, 1, 65535, NULL, &swift_pb,
	       "flow scaling: window given none of the range, in packets");
DCC_PARAM_UINT(ep_target_us, 100, 0, 1000000, NULL, &swift_pb,
	       "endpoint (host) delay target, in microseconds");
DCC_PARAM_UINT(ep_ewma_keep_permille, 750, 0, 999, NULL, &swift_pb,
	       "endpoint-delay EWMA: weight kept on the old value, in 1/1000");
DCC_PARAM_UINT(retx_reset_threshold, 3, 1, 255, NULL, &swift_pb,
	       "retransmit timeouts in a row that reset the window to its floor");
DCC_PARAM_UINT(pacing_headroom_pct, 120, 100, 1000, NULL, NULL,
	       "pacing rate for windows of two packets or more, in percent of cwnd/srtt");
DCC_PARAM_ENUM(tstamp, DCC_TS_MODE_AUTO, dcc_ts_mode_names, NULL,
	       "ACK receive timestamps that split the RTT into fabric and endpoint delay: auto is software (a NIC clock is used only with hardware), hardware, software; off uses the whole RTT [default auto, one of auto|hardware|software|off]");
DCC_PARAM_UINT(line_rate_mbps, 10000, 1, 1000000, NULL, NULL,
	       "NIC line rate: the serialization of a GSO burst's packets ahead of the acknowledged one is taken out of the delay at this rate, in Mbit/s");
DCC_PARAM_UINT(delack_guard_us, 40000, 0, 1000000, NULL, NULL,
	       "the ACK of a lone segment (or one the stack flags) whose sample is 3/4 of this or more above the floor is taken for a delayed ACK, and judged this much lower; delay cuts stop at the window pacing a packet every 3/4 of it, in microseconds (0: off; ACKs the stack flags never cut)");

/*
 * The block's build(): the parameters in fixed point, and the checks
 * between them (include/dcc_param.h: at run time a write that breaks one
 * is refused; at load time the final combination is checked once).
 */
static int swift_params_build(struct swift_params *p)
{
	if ((u64)min_cwnd_mpkt > (u64)max_cwnd_pkts * 1000) {
		pr_warn("min_cwnd_mpkt (%u) must not exceed max_cwnd_pkts (%u) * 1000\n",
			min_cwnd_mpkt, max_cwnd_pkts);
		return -EINVAL;
	}
	if ((u64)fs_min_cwnd_mpkt >= (u64)fs_max_cwnd_pkts * 1000) {
		pr_warn("fs_min_cwnd_mpkt (%u) must be below fs_max_cwnd_pkts (%u) * 1000\n",
			fs_min_cwnd_mpkt, fs_max_cwnd_pkts);
		return -EINVAL;
	}
	*p = (struct swift_params){
		.ai_fx = dcc_fx_from_milli(ai_mpkt),
		.beta_fx = dcc_fx_from_milli(md_beta_permille),
		.max_mdf_fx = dcc_fx_from_milli(max_mdf_permille),
		.min_cwnd_fx = dcc_max_u32(dcc_fx_from_milli(min_cwnd_mpkt), 1),
		.max_cwnd_fx = max_cwnd_pkts << DCC_FX_SHIFT,
		.base_target_us = base_target_us,
		.per_hop_ns = per_hop_ns,
		.fs_range_us = fs_range_us,
		.fs_min_cwnd_fx = dcc_max_u32(dcc_fx_from_milli(fs_min_cwnd_mpkt),
					      1),
		.fs_max_cwnd_fx = fs_max_cwnd_pkts << DCC_FX_SHIFT,
		.ep_target_us = ep_target_us,
		.ep_ewma_keep_fx = dcc_fx_from_milli(ep_ewma_keep_permille),
		.retx_reset = retx_reset_threshold,
		.minrtt_win_us = minrtt_win_ms * 1000,
		.scale_rtt_us = scale_rtt_us,
		.target_rel_minrtt = target_rel_minrtt,
	};
	swift_params_derive(p);
	return 0;
}

/*
 * RTT floors per destination (struct dcc_floor, include/dcc_basedelay.h),
 * in the table include/dcc_floor_link.h reads and updates.
 */
static struct dcc_floor swift_floors[DCC_FLOOR_SLOTS];

/*
 * Delay noise per destination (struct dcc_noise, include/dcc_floor_link.h),
 * beside its RTT floor: the base the target counts from must be the same
 * for every connection to the destination, or flow scaling no longer
 * shares the queue fairly (the socket's area is full in any case).
 */
static struct dcc_noise swift_noises[DCC_FLOOR_SLOTS];

/*
 * Fold the ACK's fabric delay into its destination's noise (a likely
 * delayed ACK's sample holds the receiver's timer: not noise); returns
 * the noise's width, in us, sets *end_us to the width of noise that
 * stopped with this sample (dcc_bd_end(); 0: none) and *still_us to the
 * changes' width (dcc_bd_still_us()).
 */
static u32 swift_noise_sample(u32 key, const struct swift_ack *a,
			      u32 *end_us, u32 *still_us)
{
	/* Every end: swift_floor_lift_us() gates them by the allowance. */
	return dcc_noise_sample(swift_noises, key, a->delay_us,
				a->has_delay && !a->ack_delayed, 0, end_us,
				still_us, NULL);
}

/*
 * The mean fabric window and fabric delay of the host's connections to
 * each destination (swift_share_update(), swift_share_of(),
 * include/dcc_swift.h), in a table indexed as the floors; updates race
 * without a lock (a lost one costs an ACK's step).
 */
struct swift_share {
	u32 key;		/* destination (dcc_floor_key()), 0: none */
	u32 share_fx;
	u32 delay_us;
};

static struct swift_share swift_shares[DCC_FLOOR_SLOTS];

/* The destination's share and mean delay before this ACK (0: none yet). */
static void swift_share_read(u32 key, struct swift_ack *a)
{
	const struct swift_share *sh = &swift_shares[dcc_floor_index(key)];
	bool mine = READ_ONCE(sh->key) == key;

	a->share_fx = mine ? READ_ONCE(sh->share_fx) : 0;
	a->share_delay_us = mine ? READ_ONCE(sh->delay_us) : 0;
}

/*
 * Fold the connection's fabric window and its fabric delay sample into
 * its destination's means.
 */
static void swift_share_write(u32 key, const struct swift_ack *a,
			      u32 fcwnd_fx, u32 delay_us)
{
	struct swift_share *sh = &swift_shares[dcc_floor_index(key)];
	u32 v = swift_share_update(a->share_fx, fcwnd_fx);
	u32 d = swift_share_update(a->share_delay_us, delay_us);

	if (a->share_fx && v == a->share_fx && d == a->share_delay_us)
		return;
	WRITE_ONCE(sh->share_fx, v);
	WRITE_ONCE(sh->delay_us, d);
	WRITE_ONCE(sh->key, key);
}

/* Per-socket state, in inet_csk_ca(sk). */
struct swift {
	struct swift_state s;	/* flags & SWIFT_F_GLUE_PACED: window below
				 * SWIFT_MIN_TCP_CWND packets
				 */
	struct dcc_plb_link plb;	/* PLB, if tcp_plb is loaded */
	struct dcc_ts_stash ts;		/* this ACK's receive time */
};

static struct tcp_congestion_ops swift_ops;
static DCC_TS_LINK(swift_ts, &swift_ops, struct swift, ts, tstamp,
		   line_rate_mbps);

/*
 * Per-network-namespace counters, /proc/net/tcp_swift_stat (one
 * "Name value" line each, summed over CPUs; include/dcc_stat.h).  See
 * Documentation/swift.rst, "Counters".
 */
enum swift_mib_field {
	SWIFT_MIB_DELAY_DEC,	/* fabric window cut by delay */
	SWIFT_MIB_EP_DELAY_DEC,	/* endpoint window cut by delay */
	SWIFT_MIB_INC,		/* ACKs that grew a window */
	SWIFT_MIB_RTO_CUT,	/* retransmit timeouts that cut the window */
	SWIFT_MIB_RTO_RESET,	/* ... that reset it to min_cwnd */
	SWIFT_MIB_RECOVERY_CUT,	/* fast-recovery entries that cut it */
	SWIFT_MIB_UNDO,		/* spurious cuts undone */
	SWIFT_MIB_PACED_ENTER,	/* entries into the pacing-only regime */
	SWIFT_MIB_DELACK,	/* delay samples taken for delayed ACKs */
	SWIFT_MIB_KARN,		/* ACKs of retransmitted data: no sample */
	SWIFT_MIB_TS_HW,	/* samples split on a hardware stamp */
	SWIFT_MIB_TS_SW,	/* ... on a software stamp */
	SWIFT_MIB_TS_MISSING,	/* no stamp: the whole RTT is fabric delay */
	SWIFT_MIB_TS_REJECTED,	/* a stamp broke a clock rule: no split */
	SWIFT_MIB_NOISE,	/* connections whose delay noise outgrew the
				 * target's queueing allowance
				 */
	SWIFT_MIB_NOISE_END,	/* floors renewed when the noise stopped */
	SWIFT_MIB_MAX
};

static const char * const swift_mib_names[SWIFT_MIB_MAX] = {
	[SWIFT_MIB_DELAY_DEC]		= "SwiftDelayDecrease",
	[SWIFT_MIB_EP_DELAY_DEC]	= "SwiftEndpointDecrease",
	[SWIFT_MIB_INC]			= "SwiftIncrease",
	[SWIFT_MIB_RTO_CUT]		= "SwiftRtoCut",
	[SWIFT_MIB_RTO_RESET]		= "SwiftRtoReset",
	[SWIFT_MIB_RECOVERY_CUT]	= "SwiftRecoveryCut",
	[SWIFT_MIB_UNDO]		= "SwiftUndo",
	[SWIFT_MIB_PACED_ENTER]		= "SwiftPacedEnter",
	[SWIFT_MIB_DELACK]		= "SwiftDelayedAck",
	[SWIFT_MIB_KARN]		= "SwiftRetransSampleSkipped",
	[SWIFT_MIB_TS_HW]		= "SwiftTstampHw",
	[SWIFT_MIB_TS_SW]		= "SwiftTstampSw",
	[SWIFT_MIB_TS_MISSING]		= "SwiftTstampMissing",
	[SWIFT_MIB_TS_REJECTED]		= "SwiftTstampRejected",
	[SWIFT_MIB_NOISE]		= "SwiftNoiseAboveTarget",
	[SWIFT_MIB_NOISE_END]		= "SwiftNoiseEnded",
};

DCC_STAT_DEFINE(swift_stat, "tcp_swift_stat", swift_mib_names);

static void swift_count(const struct sock *sk, enum swift_mib_field f)
{
	dcc_stat_inc(&swift_stat, sock_net(sk), f);
}

/* A window in 1/1000 packet, rounded to nearest (min_cwnd_mpkt reads back). */
static u32 swift_mpkt(u32 cwnd_fx)
{
	return (u32)(((u64)cwnd_fx * 1000 + DCC_FX_ONE / 2) >> DCC_FX_SHIFT);
}

/* Windows before a decision, to tell whether it changed them. */
struct swift_snap {
	u32 fcwnd_fx;
	u32 ecwnd_fx;
};

static struct swift_snap swift_snap(const struct swift *ca)
{
	return (struct swift_snap){ ca->s.fcwnd_fx, ca->s.ecwnd_fx };
}

/* Fire tcp_swift:swift_update if the decision changed a window. */
static void swift_trace(const struct sock *sk, const struct swift *ca,
			struct swift_snap old, enum swift_reason reason)
{
	if (!trace_swift_update_enabled())
		return;
	if (old.fcwnd_fx == ca->s.fcwnd_fx && old.ecwnd_fx == ca->s.ecwnd_fx)
		return;
	trace_swift_update(sk, reason, swift_mpkt(old.fcwnd_fx),
			   swift_mpkt(ca->s.fcwnd_fx), swift_mpkt(old.ecwnd_fx),
			   swift_mpkt(ca->s.ecwnd_fx), ca->s.last_delay_us,
			   ca->s.last_target_us, ca->s.ep_delay_x8 >> 3,
			   ca->s.base_rtt_us, 4 * (u32)ca->s.noise_4us);
}

/*
 * Swift's window onto TCP's.  In fast recovery and after a timeout
 * (state: the TCP state now, or the one being entered) the window follows
 * the ACKs as tcp_bbr.c keeps it (dcc_sk_recovery_cwnd(): packet
 * conservation in recovery, growth by what is delivered after a timeout,
 * never above Swift's window): cong_control replaces TCP's own PRR, and
 * without this the cut window returned whole on the first ACK after a
 * timeout.  An event without an ACK (rs NULL) never raises the window
 * there.
 */
static void swift_apply(struct sock *sk, const struct swift_params *prm,
			const struct rate_sample *rs, u8 state)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct swift *ca = inet_csk_ca(sk);
	u32 cwnd_fx = swift_cwnd_fx(&ca->s);
	u32 srtt = dcc_srtt_us(tp);
	bool paced = cwnd_fx < (SWIFT_MIN_TCP_CWND << DCC_FX_SHIFT);
	u32 gain = paced ? 100 : READ_ONCE(pacing_headroom_pct);
	u32 cwnd = max_t(u32, swift_cwnd_pkts(&ca->s), SWIFT_MIN_TCP_CWND);
	u32 rtt;

	if (state >= TCP_CA_Recovery)
		cwnd = rs ? dcc_sk_recovery_cwnd(sk, rs, cwnd) :
			    min(cwnd, tcp_snd_cwnd(tp));

	if (paced && !(ca->s.flags & SWIFT_F_GLUE_PACED))
		swift_count(sk, SWIFT_MIB_PACED_ENTER);
	if (paced)
		ca->s.flags |= SWIFT_F_GLUE_PACED;
	else
		ca->s.flags &= ~SWIFT_F_GLUE_PACED;
	/* Below two packets the pacing rate alone enforces the window. */
	tcp_snd_cwnd_set(tp, min(cwnd, tp->snd_cwnd_clamp));
	/* Before the first RTT sample the initial window alone limits. */
	if (!srtt)
		return;
	rtt = swift_pacing_rtt_us(&ca->s, prm, srtt);
	dcc_pacing_set_rate(sk, dcc_rate_from_window(cwnd_fx, tp->mss_cache,
						     rtt, gain));
}

static void swift_init(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct swift *ca = inet_csk_ca(sk);
	const struct swift_params *prm;

	rcu_read_lock();
	prm = dcc_param_block_get(&swift_pb);
	swift_state_init(&ca->s, prm, tcp_snd_cwnd(tp), READ_ONCE(hops),
			 tp->tcp_mstamp);
	dcc_plb_link_init(sk, &ca->plb);
	dcc_ts_sock_init(&swift_ts, &ca->ts);
	dcc_pacing_request(sk);
	swift_apply(sk, prm, NULL, inet_csk(sk)->icsk_ca_state);
	rcu_read_unlock();
}

static void swift_release(struct sock *sk)
{
	struct swift *ca = inet_csk_ca(sk);

	dcc_plb_link_release(&ca->plb);
	dcc_ts_sock_release(&swift_ts, &ca->ts);
}

/*
 * Tell the operator, once per connection (a counter) and at most at
 * printk's rate (a message), when the delay noise outgrew the target's
 * queueing allowance (SWIFT_ACT_NOISE): the target was lifted by the
 * excess, and the queue grows with it.
 */
static void swift_noise_check(const struct sock *sk, struct swift *ca,
			      u32 act, u32 noise_us)
{
	if (!(act & SWIFT_ACT_NOISE) || (ca->s.flags & SWIFT_F_GLUE_NOISY))
		return;
	ca->s.flags |= SWIFT_F_GLUE_NOISY;
	swift_count(sk, SWIFT_MIB_NOISE);
	pr_info_ratelimited("delay noise %u us wide (peak to peak) outgrew the queueing allowance of the target (now %u us): queues grow with the noise; raise base_target_us above it, or give the NIC hardware timestamps (tstamp)\n",
			    noise_us, ca->s.last_target_us);
}

static void swift_cong_control(DCC_CONG_CONTROL_ARGS)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct swift *ca = inet_csk_ca(sk);
	struct swift_ack a = {
		.now_us = tp->tcp_mstamp,
		.srtt_us = dcc_srtt_us(tp),
		.num_acked = rs->acked_sacked,
		.has_delay = dcc_rs_rtt_us(rs) > 0,
		/* tcp_ack() zeroes it when snd_una advances. */
		.timeouts_cleared = !inet_csk(sk)->icsk_retransmits,
	};
	static const u8 ts_mib[DCC_TS_V_MAX] = {
		[DCC_TS_V_HW] = SWIFT_MIB_TS_HW,
		[DCC_TS_V_SW] = SWIFT_MIB_TS_SW,
		[DCC_TS_V_MISSING] = SWIFT_MIB_TS_MISSING,
		[DCC_TS_V_REJECTED] = SWIFT_MIB_TS_REJECTED,
	};
	u32 fkey = dcc_floor_key(sk);
	struct dcc_floor *fslot = dcc_floor_slot(swift_floors, fkey);
	struct dcc_floor fl = dcc_floor_read(fslot);
	const struct swift_params *prm;
	struct swift_snap old;
	enum swift_reason why;
	enum dcc_ts_verdict v;
	struct dcc_ts_split sp;
	bool has_sample, above = false, noisy = false, go = false;
	u32 act, end_us, lift, still_us;
	u8 raised;

	/*
	 * Fabric delay: departure to the ACK's arrival at the host; endpoint
	 * delay: arrival to now (include/dcc_tstamp.h).  Without a usable
	 * receive stamp the whole RTT is fabric delay and the endpoint
	 * window gets no sample.  A delayed ACK's fabric delay holds the
	 * receiver's ACK delay (remote endpoint delay): it is judged
	 * delack_guard_us lower below; its local endpoint delay is real.
	 */
	rcu_read_lock();
	prm = dcc_param_block_get(&swift_pb);
	v = dcc_ts_sock_split(&swift_ts, sk, &ca->ts, rs, &sp);
	if (v < DCC_TS_V_MAX)
		swift_count(sk, ts_mib[v]);
	a.app_limited = swift_app_limited(&ca->s, tcp_is_cwnd_limited(sk),
					  rs->is_app_limited);
	a.delay_us = sp.fabric_us;
	a.has_ep_delay = v == DCC_TS_V_HW || v == DCC_TS_V_SW;
	a.ep_delay_us = sp.ep_us;
	a.ack_delayed = swift_ack_maybe_delayed(rs->is_ack_delayed,
						rs->prior_in_flight,
						rs->acked_sacked, a.delay_us,
						dcc_floor_of(&fl, fkey),
						READ_ONCE(delack_guard_us));
	a.delack_us = READ_ONCE(delack_guard_us);
	a.noise_us = swift_noise_sample(fkey, &a, &end_us, &still_us);
	/* The floor's repair (dcc_floor_watch()) on its quiet stretch. */
	if (fl.key == fkey && a.has_delay) {
		noisy = swift_floor_noisy(&ca->s, prm, 4 * (u32)fl.wide_4us,
					  fl.raised, fl.repaired);
		go = noisy &&
		     swift_floor_starved(&ca->s, prm,
					 fl.quiet_us ?
					 min(fl.quiet_us, a.delay_us) :
					 a.delay_us);
	}
	lift = end_us && fl.key == fkey ?
	       swift_floor_end_lift_us(&ca->s, prm, &fl, end_us, a.delay_us,
				       a.now_us) : 0;
	a.floor_us = dcc_floor_sample(fslot, fl, fkey, prm->minrtt_win_us,
				      a.has_delay ? a.delay_us : 0,
				      a.ack_delayed, lift,
				      swift_floor_width_us(&ca->s, prm,
							   a.noise_us, end_us,
							   lift),
				      still_us, noisy, go, a.now_us, &raised);
	a.floor_raised = raised & DCC_FLOOR_RAISED;
	if (raised & DCC_FLOOR_RAISED_NOW)
		swift_count(sk, SWIFT_MIB_NOISE_END);
	swift_share_read(fkey, &a);
	old = swift_snap(ca);
	act = swift_on_ack(&ca->s, prm, &a);
	if (a.has_delay && a.delay_us)
		swift_share_write(fkey, &a, ca->s.fcwnd_fx,
				  ca->s.last_delay_us);
	swift_noise_check(sk, ca, act, a.noise_us);
	if (a.has_delay && a.ack_delayed)
		swift_count(sk, SWIFT_MIB_DELACK);
	if (rs->rtt_us > 0 && rs->is_retrans)
		swift_count(sk, SWIFT_MIB_KARN);
	if (act & SWIFT_ACT_FDEC)
		swift_count(sk, SWIFT_MIB_DELAY_DEC);
	if (act & SWIFT_ACT_EDEC)
		swift_count(sk, SWIFT_MIB_EP_DELAY_DEC);
	if (act & (SWIFT_ACT_FINC | SWIFT_ACT_EINC))
		swift_count(sk, SWIFT_MIB_INC);
	if (act) {
		if (act & SWIFT_ACT_FDEC)
			why = SWIFT_R_MD;
		else if (act & SWIFT_ACT_EDEC)
			why = SWIFT_R_EP_MD;
		else if (act & SWIFT_ACT_FINC)
			why = SWIFT_R_AI;
		else
			why = SWIFT_R_EP_AI;
		swift_trace(sk, ca, old, why);
	}
	/*
	 * PLB's delay signal: the fraction of samples (pooled over the
	 * last rounds, dcc_plb_delay_ratio()) at or above the fabric
	 * target (a delayed ACK's less its allowance); the rounds are
	 * measured against that target.
	 */
	has_sample = swift_plb_sample(&ca->s, &a, &above);
	dcc_plb_link_ack(sk, &ca->plb, rs, has_sample, above,
			 ca->s.last_delay_us, ca->s.last_target_us);
	swift_apply(sk, prm, rs, inet_csk(sk)->icsk_ca_state);
	rcu_read_unlock();
}

static void swift_cwnd_event(struct sock *sk, enum tcp_ca_event ev)
{
	struct swift *ca = inet_csk_ca(sk);

	dcc_plb_link_event(sk, &ca->plb, ev);
}

/*
 * A retransmit timeout.  tcp_enter_loss() moves to TCP_CA_Loss on every
 * timeout, the backed-off ones of an episode included, but raises
 * CA_EVENT_LOSS only on the first: counting the events, the count never
 * reached retx_reset_threshold.  (tcp_simple_retransmit()'s entry into
 * Loss after an MTU reduction counts too; it is rare, and at most one
 * max_mdf cut.)
 */
static void swift_rto(struct sock *sk, const struct swift_params *prm)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct swift *ca = inet_csk_ca(sk);
	struct swift_snap old = swift_snap(ca);
	u8 state = inet_csk(sk)->icsk_ca_state;
	bool reset;

	if (!swift_on_rto(&ca->s, prm, tp->tcp_mstamp, dcc_srtt_us(tp),
			  state != TCP_CA_Loss && state != TCP_CA_Recovery,
			  READ_ONCE(delack_guard_us)))
		return;
	reset = ca->s.retx_cnt >= prm->retx_reset;
	swift_count(sk, reset ? SWIFT_MIB_RTO_RESET : SWIFT_MIB_RTO_CUT);
	swift_trace(sk, ca, old, reset ? SWIFT_R_RTO_RESET : SWIFT_R_RTO);
	swift_apply(sk, prm, NULL, TCP_CA_Loss);
}

static void swift_set_state(struct sock *sk, u8 new_state)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct swift *ca = inet_csk_ca(sk);

	struct swift_snap old = swift_snap(ca);
	const struct swift_params *prm;

	dcc_plb_link_state(sk, &ca->plb, new_state);
	rcu_read_lock();
	prm = dcc_param_block_get(&swift_pb);
	if (new_state == TCP_CA_Loss) {
		swift_rto(sk, prm);
	} else if (new_state == TCP_CA_Recovery &&
		   inet_csk(sk)->icsk_ca_state != TCP_CA_Recovery &&
		   swift_on_fast_recovery(&ca->s, prm, tp->tcp_mstamp,
					  dcc_srtt_us(tp),
					  READ_ONCE(delack_guard_us))) {
		swift_count(sk, SWIFT_MIB_RECOVERY_CUT);
		swift_trace(sk, ca, old, SWIFT_R_RECOVERY);
		swift_apply(sk, prm, NULL, TCP_CA_Recovery);
	}
	rcu_read_unlock();
}

static u32 swift_ssthresh(struct sock *sk)
{
	const struct swift *ca = inet_csk_ca(sk);
	const struct swift_params *prm;
	u32 cut;

	rcu_read_lock();
	prm = dcc_param_block_get(&swift_pb);
	cut = DCC_FX_ONE - prm->max_mdf_fx;
	rcu_read_unlock();
	return max(dcc_fx_mul(swift_cwnd_fx(&ca->s), cut) >> DCC_FX_SHIFT, 2U);
}

static u32 swift_undo_cwnd(struct sock *sk)
{
	struct swift *ca = inet_csk_ca(sk);
	struct swift_snap old = swift_snap(ca);

	rcu_read_lock();
	swift_undo(&ca->s, dcc_param_block_get(&swift_pb));
	rcu_read_unlock();
	swift_count(sk, SWIFT_MIB_UNDO);
	swift_trace(sk, ca, old, SWIFT_R_UNDO);
	/* As in swift_apply(): TCP's window stays at two packets or more. */
	return max_t(u32, swift_cwnd_pkts(&ca->s), SWIFT_MIN_TCP_CWND);
}

/*
 * ss -ti and getsockopt(TCP_CC_INFO): Swift state in the BBR layout, the
 * one ss prints in full ("bbr:(bw:...,mrtt:...,pacing_gain:...,
 * cwnd_gain:...)"; it prints nothing of the Vegas layout).  ss divides
 * both gains by 256 and prints bw * 8 as bits per second, so the values
 * are scaled for ss to print them in plain units:
 *
 *   bbr_cwnd_gain    effective window in 1/1000 packet, * 256
 *                    (ss: window in milli-packets; saturates above
 *                    16777 packets)
 *   bbr_pacing_gain  fabric target delay in us, * 256 (ss: target in us)
 *   bbr_min_rtt      base the target counts from, in us: the smaller of
 *                    the destination's RTT floor and the connection's
 *                    minimum RTT, lifted for host noise (swift_set_base();
 *                    ss "mrtt": in ms)
 *   bbr_bw_lo/hi     latest delay sample in us, * 125 (ss: bw * 8 is the
 *                    delay in ns, printed as "bps": with -n exact, else
 *                    "K" reads as us and "M" as ms)
 */
static size_t swift_get_info(struct sock *sk, u32 ext, int *attr,
			     union tcp_cc_info *info)
{
	const struct swift *ca = inet_csk_ca(sk);
	u64 delay;

	if (!(ext & (1 << (INET_DIAG_BBRINFO - 1))) &&
	    !(ext & (1 << (INET_DIAG_VEGASINFO - 1))))
		return 0;
	delay = (u64)ca->s.last_delay_us * 125;
	memset(&info->bbr, 0, sizeof(info->bbr));
	info->bbr.bbr_bw_lo = (u32)delay;
	info->bbr.bbr_bw_hi = (u32)(delay >> 32);
	info->bbr.bbr_min_rtt = ca->s.base_rtt_us;
	info->bbr.bbr_pacing_gain = dcc_sat_u32((u64)ca->s.last_target_us
						<< 8);
	info->bbr.bbr_cwnd_gain = dcc_sat_u32((u64)swift_mpkt(swift_cwnd_fx(&ca->s))
					      << 8);
	*attr = INET_DIAG_BBRINFO;
	return sizeof(info->bbr);
}

static struct tcp_congestion_ops swift_ops __read_mostly = {
	.name		= "swift",
	.owner		= THIS_MODULE,
	.flags		= DCC_TS_CONG_FLAGS,	/* ACK stamps, patched kernels */
	.init		= swift_init,
	.release	= swift_release,
	.cong_control	= swift_cong_control,
	.cwnd_event	= swift_cwnd_event,
	.set_state	= swift_set_state,
	.ssthresh	= swift_ssthresh,
	.undo_cwnd	= swift_undo_cwnd,
	.min_tso_segs	= dcc_min_tso_segs,
	.get_info	= swift_get_info,
};

static int __init swift_register(void)
{
	BUILD_BUG_ON(sizeof(struct swift) > ICSK_CA_PRIV_SIZE);

	int err;

	BUILD_BUG_ON(ARRAY_SIZE(swift_mib_names) != SWIFT_MIB_MAX);
	err = dcc_param_block_start(&swift_pb);
	if (err)
		return err;
	err = register_pernet_subsys(&swift_stat_net_ops);
	if (err)
		goto out_params;
	err = tcp_register_congestion_control(&swift_ops);
	if (err)
		goto out_stat;
	dcc_ts_link_start(&swift_ts);
	return 0;
out_stat:
	unregister_pernet_subsys(&swift_stat_net_ops);
out_params:
	dcc_param_block_stop(&swift_pb);
	return err;
}

static void __exit swift_unregister(void)
{
	tcp_unregister_congestion_control(&swift_ops);
	dcc_ts_link_stop(&swift_ts);
	unregister_pernet_subsys(&swift_stat_net_ops);
	dcc_param_block_stop(&swift_pb);
}

module_init(swift_register);
module_exit(swift_unregister);

MODULE_AUTHOR("Datacenter congestion control authors");
MODULE_LICENSE("GPL");
MODULE_VERSION(DCC_VERSION);
MODULE_DESCRIPTION("TCP Swift (delay-target AIMD with flow scaling and sub-packet windows)");
