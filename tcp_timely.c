// SPDX-License-Identifier: GPL-2.0
/*
 * TIMELY: RTT-gradient, rate-based congestion control for the datacenter.
 *
 * After "TIMELY: RTT-based Congestion Control for the Datacenter", Mittal
 * et al., SIGCOMM 2015, with the patched variant of Zhu et al., "ECN or
 * Delay: Lessons Learnt from Analysis of DCQCN and TIMELY", CoNEXT 2016.
 *
 * The rate computation engine lives in include/dcc_timely.h (no kernel
 * dependencies, unit tested in userspace).  This file is the RTT
 * measurement and rate control glue: it turns ACKs into completion events
 * (one per segment_bytes acked, or fewer when all written data is acked),
 * feeds the engine the newest RTT sample minus the serialization time of
 * the bytes it covers, and paces the socket at the engine's rate.  The
 * congestion window is only a safeguard that bounds outstanding data and
 * never limits what the rate allows.  See Documentation/timely.rst.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/inet_diag.h>
#include <linux/module.h>
#include <net/tcp.h>

#include "include/dcc_compat.h"
#include "include/dcc_floor_link.h"
#include "include/dcc_param.h"
#include "include/dcc_pacing.h"
#include "include/dcc_plb_link.h"
#include "include/dcc_stat.h"
#include "include/dcc_timely.h"
#include "include/dcc_tstamp_link.h"

#define CREATE_TRACE_POINTS
#include "trace/timely_trace.h"

/* The safeguard window never goes below this many packets. */
#define TIMELY_MIN_CWND	4U

/*
 * Global parameters in their engine form: an immutable block, rebuilt and
 * published by RCU on every change (include/dcc_param.h); callbacks read
 * it under rcu_read_lock() through dcc_param_block_get(&timely_pb).
 */
DCC_PARAM_BLOCK(timely_pb, struct timely_params, timely_params_build);

DCC_PARAM_UINT(variant, 0, 0, 1, NULL, &timely_pb,
	       "0: the paper's algorithm; 1: patched TIMELY (Zhu et al.)");
DCC_PARAM_UINT(ewma_alpha_permille, 875, 1, 1000, NULL, &timely_pb,
	       "EWMA weight a of a new RTT difference, in 1/1000");
DCC_PARAM_UINT(beta_permille, 800, 1, 1000, NULL, &timely_pb,
	       "multiplicative-decrease gain b (paper), in 1/1000");
DCC_PARAM_UINT(patched_beta_ppm, 8000, 1, 1000000, NULL, &timely_pb,
	       "decrease gain b of the patched variant, in 1/1000000");
DCC_PARAM_UINT(max_dec_permille, 500, 1, 999, NULL, &timely_pb,
	       "largest fraction of the rate one update or loss takes, in 1/1000");
DCC_PARAM_UINT(delta_kbps, 10000, 1, 1000000000, NULL, &timely_pb,
	       "additive increase step delta, in kbit/s");
DCC_PARAM_UINT(t_low_us, 50, 1, 1000000, NULL, &timely_pb,
	       "below this RTT: additive increase (patched: reference RTT), in microseconds");
DCC_PARAM_UINT(t_high_us, 500, 1, 1000000, NULL, &timely_pb,
	       "above this RTT: multiplicative decrease, in microseconds");
DCC_PARAM_UINT(min_rtt_us, 20, 1, 1000000, NULL, &timely_pb,
	       "fabric RTT constant that normalizes the gradient, in microseconds");
DCC_PARAM_UINT(hai_thresh, 5, 1, 65535, NULL, &timely_pb,
	       "completions in a row with a gradient <= 0 before hyperactive increase");
DCC_PARAM_UINT(hai_n, 5, 1, 1000, NULL, &timely_pb,
	       "hyperactive increase multiplier N of delta");
DCC_PARAM_UINT(line_rate_mbps, 10000, 1, 1000000, NULL, &timely_pb,
	       "NIC line rate (serialization delay, default ceiling), in Mbit/s");
DCC_PARAM_UINT(max_rate_mbps, 0, 0, 1000000, NULL, &timely_pb,
	       "rate ceiling, in Mbit/s (0: the line rate; never above it)");
DCC_PARAM_UINT(min_rate_kbps, 1000, 1, 1000000000, NULL, &timely_pb,
	       "rate floor (the rate is never 0), in kbit/s");
DCC_PARAM_UINT(start_rate_permille, 100, 1, 1000, NULL, NULL,
	       "rate of a new connection, in 1/1000 of the rate ceiling");
DCC_PARAM_UINT(segment_bytes, 16384, 1, 16777216, NULL, &timely_pb,
	       "bytes acked per completion event (rate update), in bytes");
DCC_PARAM_UINT(rtt_min_filter, 1, 0, 1, NULL, NULL,
	       "0: a completion's RTT is its last ACK's sample (paper); 1: the smallest sample in the completion");
DCC_PARAM_UINT(calibrate, 1, 0, 1, NULL, &timely_pb,
	       "1: learn the line rate and scale T_low, T_high, min_rtt and the gradient dead band to the measured base RTT and noise, never below the parameters; 0: the parameters as given (paper)");
DCC_PARAM_UINT(linerate_headroom_pct, 25, 0, 1000, NULL, &timely_pb,
	       "learnt line rate: the best delivery rate times 1 + this, in percent");
DCC_PARAM_UINT(linerate_win_ms, 10000, 1, 3600000, NULL, &timely_pb,
	       "window of the best delivery rate (learnt line rate), in milliseconds");
DCC_PARAM_UINT(base_win_ms, 10000, 1, 3600000, NULL, &timely_pb,
	       "window of the base RTT (minimum engine RTT), in milliseconds");
DCC_PARAM_ENUM(tstamp, DCC_TS_MODE_AUTO, dcc_ts_mode_names, NULL,
	       "ACK receive timestamps: the RTT is the fabric delay (departure to the ACK's arrival) with auto (software; a NIC clock is used only with hardware), hardware or software; the whole RTT with off [default auto, one of auto|hardware|software|off]");
DCC_PARAM_UINT(cwnd_gain_pct, 200, 100, 1000, NULL, NULL,
	       "safeguard window: rate times worst-case RTT times this, in percent");

/* Effective ceiling in Mbit/s: max_rate_mbps, 0 or above the line: line. */
static unsigned int timely_ceiling_mbps(unsigned int line, unsigned int max)
{
	return max && max < line ? max : line;
}

/*
 * The block's build(): the parameters in engine form, and the checks
 * between them (include/dcc_param.h: at run time a write that breaks one
 * is refused; at load time the final combination is checked once).
 */
static int timely_params_build(struct timely_params *p)
{
	u64 line = dcc_mbps_to_bytes_ps(line_rate_mbps);
	u64 ceil_kbps;

	if (t_low_us >= t_high_us) {
		pr_warn("t_low_us (%u) must be below t_high_us (%u)\n",
			t_low_us, t_high_us);
		return -EINVAL;
	}
	if (max_rate_mbps > line_rate_mbps) {
		pr_warn("max_rate_mbps (%u) must not exceed line_rate_mbps (%u)\n",
			max_rate_mbps, line_rate_mbps);
		return -EINVAL;
	}
	ceil_kbps = (u64)timely_ceiling_mbps(line_rate_mbps, max_rate_mbps) *
		    1000;
	if (min_rate_kbps > ceil_kbps) {
		pr_warn("min_rate_kbps (%u) must not exceed the rate ceiling (%llu kbit/s)\n",
			min_rate_kbps, ceil_kbps);
		return -EINVAL;
	}
	timely_params_default(p, line);
	p->variant = variant;
	p->ewma_alpha_fx = dcc_fx_from_milli(ewma_alpha_permille);
	p->beta_fx = dcc_fx_from_milli(beta_permille);
	p->patched_beta_fx = dcc_div_u64((u64)patched_beta_ppm * DCC_FX_ONE,
					 1000000);
	p->max_dec_fx = dcc_fx_from_milli(max_dec_permille);
	p->t_low_us = t_low_us;
	p->t_high_us = t_high_us;
	p->min_rtt_us = min_rtt_us;
	p->hai_thresh = hai_thresh;
	p->hai_n = hai_n;
	p->delta_bytes_ps = (u64)delta_kbps * 1000 / 8;
	p->max_rate_bytes_ps =
		dcc_mbps_to_bytes_ps(timely_ceiling_mbps(line_rate_mbps,
							 max_rate_mbps));
	p->min_rate_bytes_ps = (u64)min_rate_kbps * 1000 / 8;
	p->calibrate = calibrate;
	p->base_win_us = base_win_ms * 1000U;
	p->segment_bytes = segment_bytes;
	p->lr.cap_bytes_ps = p->max_rate_bytes_ps;
	p->lr.init_bytes_ps = p->max_rate_bytes_ps;
	p->lr.floor_bytes_ps = p->min_rate_bytes_ps;
	p->lr.win_us = linerate_win_ms * 1000U;
	p->lr.headroom_pct = linerate_headroom_pct;
	if (WARN_ON(!timely_params_valid(p)))
		return -EINVAL;
	return 0;
}

/*
 * RTT floors per destination (struct dcc_floor, include/dcc_basedelay.h),
 * in the table include/dcc_floor_link.h reads and updates: the lowest
 * engine RTT of the completions of every connection to the destination
 * within base_win_ms.  With calibrate, a connection's base RTT is never
 * above its destination's floor (timely_calibrate()).
 */
static struct dcc_floor timely_floors[DCC_FLOOR_SLOTS];

/*
 * Delay noise per destination (struct dcc_noise, include/dcc_floor_link.h),
 * fed by every ACK's engine RTT (before the segment's minimum filter):
 * when noise at least as wide as the floor that went on stops
 * (timely_noise_gate_us()), the destination's floor, which sat in its low
 * tail, is raised to its centre (timely_floor_lift_us()).
 */
static struct dcc_noise timely_noises[DCC_FLOOR_SLOTS];

/*
 * Fold an engine RTT into its destination's noise; returns the width of
 * noise that stopped with it and may raise the floor (0: none), and sets
 * *low_us to the lowest recent sample (dcc_bd_low_us()).
 */
static u32 timely_noise_sample(const struct sock *sk, u32 rtt, u32 *low_us)
{
	u32 key = dcc_floor_key(sk), end_us;
	struct dcc_floor f = dcc_floor_read(dcc_floor_slot(timely_floors,
							    key));

	dcc_noise_sample(timely_noises, key, rtt, true,
			 timely_noise_gate_us(dcc_floor_of(&f, key)), &end_us,
			 NULL, low_us);
	return end_us;
}

/*
 * Fold an engine RTT into its destination's floor with the lift of noise
 * end_us wide that stopped with it (0: none), the lowest recent sample
 * being low_us; returns the floor (0: none) and sets *raised
 * (dcc_floor_sample()).  Delayed ACKs' samples never reach the engine.
 */
static u32 timely_floor_sample(const struct sock *sk,
			       const struct timely_params *g, u32 rtt,
			       u32 end_us, u32 low_us, u8 *raised)
{
	u32 key = dcc_floor_key(sk);
	struct dcc_floor *slot = dcc_floor_slot(timely_floors, key);
	struct dcc_floor f = dcc_floor_read(slot);
	u32 lift = end_us ? timely_floor_lift_us(dcc_floor_of(&f, key),
						 end_us, low_us) : 0;

	return dcc_floor_sample(slot, f, key, g->base_win_us, rtt, false,
				lift, 0, 0, false, false,
				tcp_sk(sk)->tcp_mstamp, raised);
}

/*
 * Per-socket state, in inet_csk_ca(sk).  The engine state holds the rate,
 * the calibration (line rate, base RTT, noise) and the last decision
 * (s.regime, whose values are enum timely_reason's).
 */
struct timely {
	struct timely_state s;
	struct dcc_plb_link plb;	/* PLB, if tcp_plb is loaded */
	struct dcc_ts_stash ts;		/* this ACK's receive time */
};

static struct tcp_congestion_ops timely_ops;
static DCC_TS_LINK(timely_ts, &timely_ops, struct timely, ts, tstamp,
		   line_rate_mbps);

/*
 * Per-network-namespace counters, /proc/net/tcp_timely_stat (one
 * "Name value" line each, summed over CPUs; include/dcc_stat.h).  See
 * Documentation/timely.rst, "Observing it".
 */
enum timely_mib_field {
	TIMELY_MIB_COMPLETION,	/* completion events (rate updates) */
	TIMELY_MIB_INC,		/* additive increases (ai_low, ai) */
	TIMELY_MIB_HAI,		/* hyperactive increases */
	TIMELY_MIB_GRAD_DEC,	/* gradient-driven decreases */
	TIMELY_MIB_HIGH_DEC,	/* decreases for an RTT above T_high */
	TIMELY_MIB_PATCHED,	/* patched-variant updates in the band */
	TIMELY_MIB_RTO_CUT,	/* retransmit timeouts that cut the rate */
	TIMELY_MIB_RECOVERY_CUT, /* fast-recovery entries that cut it */
	TIMELY_MIB_UNDO,	/* spurious cuts undone */
	TIMELY_MIB_TS_HW,	/* samples split on a hardware stamp */
	TIMELY_MIB_TS_SW,	/* ... on a software stamp */
	TIMELY_MIB_TS_MISSING,	/* no stamp: the whole RTT is used */
	TIMELY_MIB_TS_REJECTED,	/* a stamp broke a clock rule: whole RTT */
	TIMELY_MIB_DELACK_SKIP,	/* delayed-ACK samples left out */
	TIMELY_MIB_KARN,	/* ACKs of retransmitted data: no sample */
	TIMELY_MIB_NOISE_END,	/* floors raised when the noise stopped */
	TIMELY_MIB_REPATH,	/* PLB repaths: started again on the path */
	TIMELY_MIB_MAX
};

static const char * const timely_mib_names[TIMELY_MIB_MAX] = {
	[TIMELY_MIB_COMPLETION]		= "TimelyCompletion",
	[TIMELY_MIB_INC]		= "TimelyIncrease",
	[TIMELY_MIB_HAI]		= "TimelyHyperIncrease",
	[TIMELY_MIB_GRAD_DEC]		= "TimelyGradientDecrease",
	[TIMELY_MIB_HIGH_DEC]		= "TimelyHighRttDecrease",
	[TIMELY_MIB_PATCHED]		= "TimelyPatchedUpdate",
	[TIMELY_MIB_RTO_CUT]		= "TimelyRtoCut",
	[TIMELY_MIB_RECOVERY_CUT]	= "TimelyRecoveryCut",
	[TIMELY_MIB_UNDO]		= "TimelyUndo",
	[TIMELY_MIB_TS_HW]		= "TimelyTstampHw",
	[TIMELY_MIB_TS_SW]		= "TimelyTstampSw",
	[TIMELY_MIB_TS_MISSING]		= "TimelyTstampMissing",
	[TIMELY_MIB_TS_REJECTED]	= "TimelyTstampRejected",
	[TIMELY_MIB_DELACK_SKIP]	= "TimelyDelayedAckSkipped",
	[TIMELY_MIB_KARN]		= "TimelyRetransSampleSkipped",
	[TIMELY_MIB_NOISE_END]		= "TimelyNoiseEnded",
	[TIMELY_MIB_REPATH]		= "TimelyRepath",
};

DCC_STAT_DEFINE(timely_stat, "tcp_timely_stat", timely_mib_names);

static void timely_count(const struct sock *sk, enum timely_mib_field f)
{
	dcc_stat_inc(&timely_stat, sock_net(sk), f);
}

/* The engine's last normalized gradient in 1/1000, rounded toward zero. */
static s32 timely_grad_milli(const struct timely *ca,
			     const struct timely_params *g)
{
	struct timely_params e;

	timely_effective(g, &ca->s, &e);
	return (s32)div_s64((s64)timely_grad_fx(&ca->s, &e) * 1000,
			    DCC_FX_ONE);
}

/*
 * A decision was taken (s.regime holds it); fire tcp_timely:timely_update
 * if it changed the rate (old_rate is the rate before it).
 */
static void timely_decided(const struct sock *sk, struct timely *ca,
			   const struct timely_params *g, u64 old_rate,
			   enum timely_reason reason)
{
	if (!trace_timely_update_enabled() || old_rate == ca->s.rate_bytes_ps)
		return;
	trace_timely_update(sk, reason, old_rate, ca->s.rate_bytes_ps,
			    ca->s.prev_rtt_us, timely_grad_milli(ca, g));
}

/* TCP's initial window for sk: the route's initcwnd, else TCP_INIT_CWND. */
static u32 timely_init_cwnd(struct sock *sk)
{
	const struct dst_entry *dst = __sk_dst_get(sk);
	u32 iw = dst ? dst_metric(dst, RTAX_INITCWND) : 0;

	return iw ? iw : TCP_INIT_CWND;
}

/*
 * Apply the rate: pace at it, and set the safeguard window to what the
 * rate can have outstanding over T_high (the RTT above which the rate is
 * cut), or the base RTT if that is larger, times cwnd_gain_pct.  Neither
 * grows with the queue (srtt or the newest sample would: the larger the
 * queue, the more the window would let in).  Until the first completion
 * measures a base RTT, the connection's minimum RTT (the handshake's)
 * stands in for it (timely_window_rtt_us()).  While the engine holds no
 * RTT sample (before the first completion, after a timeout or an idle
 * restart) the window is at most TCP's initial window
 * (timely_start_cwnd()).
 *
 * In loss recovery the window follows the ACKs, as tcp_bbr.c does, never
 * above the safeguard: in fast recovery packet conservation (what is
 * acked may be sent: at least in flight + acked, less what was lost);
 * after a timeout (TCP_CA_Loss) it grows from the window TCP set by what
 * each ACK delivers, instead of the whole safeguard window returning on
 * the first ACK.  Without a rate sample (rate changes on events) only the
 * pacing rate is set; the next ACK sets the window.
 */
static void timely_apply(struct sock *sk, const struct timely_params *e,
			 const struct rate_sample *rs)
{
	struct tcp_sock *tp = tcp_sk(sk);
	const struct timely *ca = inet_csk_ca(sk);
	u32 min_rtt = tcp_min_rtt(tp);
	u32 cwnd;

	dcc_pacing_set_rate(sk, ca->s.rate_bytes_ps);
	if (!rs)
		return;
	if (min_rtt == ~0U)
		min_rtt = 0;
	cwnd = dcc_sk_safeguard_cwnd(sk, ca->s.rate_bytes_ps,
				     timely_window_rtt_us(ca->s.base_rtt_us,
							  min_rtt,
							  e->t_high_us),
				     READ_ONCE(cwnd_gain_pct), TIMELY_MIN_CWND);
	cwnd = timely_start_cwnd(&ca->s, cwnd, timely_init_cwnd(sk));
	tcp_snd_cwnd_set(tp, dcc_sk_recovery_cwnd(sk, rs, cwnd));
}

/*
 * The start rate: what TCP's initial window sends in one smoothed RTT
 * (1 ms before any RTT sample, as BBR assumes), at most start_rate_permille
 * of the rate ceiling.  The initial window itself is left as TCP set it;
 * the first ACK replaces it with the safeguard window.
 */
static u64 timely_conn_start_rate(const struct sock *sk,
				  const struct timely_params *e)
{
	const struct tcp_sock *tp = tcp_sk(sk);

	return timely_start_rate((u64)tcp_snd_cwnd(tp) * tp->mss_cache,
				 dcc_srtt_us(tp), e->max_rate_bytes_ps,
				 READ_ONCE(start_rate_permille));
}

static void timely_init(struct sock *sk)
{
	struct timely *ca = inet_csk_ca(sk);
	const struct timely_params *g;
	struct timely_params e;

	rcu_read_lock();
	g = dcc_param_block_get(&timely_pb);
	timely_state_init(&ca->s, g, 0);
	dcc_linerate_init(&ca->s.lr);
	timely_effective(g, &ca->s, &e);
	rcu_read_unlock();
	ca->s.rate_bytes_ps = timely_clamp_rate(&e,
						timely_conn_start_rate(sk, &e));
	dcc_plb_link_init(sk, &ca->plb);
	dcc_ts_sock_init(&timely_ts, &ca->ts);
	dcc_pacing_request(sk);
	dcc_pacing_set_rate(sk, ca->s.rate_bytes_ps);
}

static void timely_release(struct sock *sk)
{
	struct timely *ca = inet_csk_ca(sk);

	dcc_plb_link_release(&ca->plb);
	dcc_ts_sock_release(&timely_ts, &ca->ts);
}

/*
 * PLB changed the connection's flow label (sk_txhash; old_hash before
 * the call): the connection is on another path, and starts again there
 * as a new connection does (timely_repath(): the start rate of TCP's
 * initial window, no RTT history, no learnt line, base RTT or noise).
 * The window is at most the initial window until the first completion
 * on the new path (timely_start_cwnd(); the next ACK sets it again).
 * Returns true when it did, with e (if not NULL) the connection's
 * effective parameters after it.
 */
static bool timely_check_repath(struct sock *sk, struct timely *ca,
				u32 old_hash, struct timely_params *e)
{
	const struct timely_params *g;
	u32 iw;

	if (likely(READ_ONCE(sk->sk_txhash) == old_hash))
		return false;
	iw = timely_init_cwnd(sk);
	rcu_read_lock();
	g = dcc_param_block_get(&timely_pb);
	timely_repath(&ca->s, g, (u64)iw * tcp_sk(sk)->mss_cache,
		      READ_ONCE(start_rate_permille));
	if (e)
		timely_effective(g, &ca->s, e);
	rcu_read_unlock();
	timely_count(sk, TIMELY_MIB_REPATH);
	dcc_pacing_set_rate(sk, ca->s.rate_bytes_ps);
	tcp_snd_cwnd_set(tcp_sk(sk), min(tcp_snd_cwnd(tcp_sk(sk)), iw));
	return true;
}

/*
 * True when every byte the application wrote has been acked: the ACK
 * completes the flow's last (possibly short) segment.
 */
static bool timely_no_more_data(const struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);

	return !tp->packets_out && tcp_write_queue_empty(sk);
}

/*
 * Bytes whose serialization the newest sample holds.  The sample runs from
 * the departure of the newest acked packet's skb, and the stack paces
 * skbs: with GSO the packets of one skb leave back to back, so the last
 * one waits for the others; without GSO each skb is one packet.  Where
 * the burst is known (gso_bytes, through the ACK point), the shared split
 * already took out all of it but the newest packet, which is left here;
 * else the estimate: at most the bytes this ACK covers, at most a segment.
 */
static u32 timely_burst_bytes(const struct sock *sk, u32 acked, u32 seg,
			      u32 gso_bytes)
{
	u32 burst = sk_can_gso(sk) ? seg : tcp_sk(sk)->mss_cache;

	if (gso_bytes)
		return min(gso_bytes, tcp_sk(sk)->mss_cache);
	return min(acked, burst);
}

/*
 * One completion event with the engine RTT rtt: update, count, trace;
 * first: the first of this ACK's completions (it calibrates, with the
 * destination's floor floor_us).
 */
static void timely_complete(struct sock *sk, struct timely *ca,
			    const struct timely_params *g, u32 rtt, bool first,
			    u32 floor_us)
{
	u64 old_rate = ca->s.rate_bytes_ps;

	timely_count(sk, TIMELY_MIB_COMPLETION);
	switch (timely_on_completion_at(&ca->s, g, rtt,
					(u32)tcp_sk(sk)->tcp_mstamp, first,
					floor_us)) {
	case TIMELY_FIRST:
		break;
	case TIMELY_AI_LOW:
		timely_count(sk, TIMELY_MIB_INC);
		timely_decided(sk, ca, g, old_rate, TIMELY_R_AI_LOW);
		break;
	case TIMELY_AI:
		timely_count(sk, TIMELY_MIB_INC);
		timely_decided(sk, ca, g, old_rate, TIMELY_R_AI);
		break;
	case TIMELY_HAI:
		timely_count(sk, TIMELY_MIB_HAI);
		timely_decided(sk, ca, g, old_rate, TIMELY_R_HAI);
		break;
	case TIMELY_MD_HIGH:
		timely_count(sk, TIMELY_MIB_HIGH_DEC);
		timely_decided(sk, ca, g, old_rate, TIMELY_R_MD_HIGH);
		break;
	case TIMELY_MD_GRAD:
		timely_count(sk, TIMELY_MIB_GRAD_DEC);
		timely_decided(sk, ca, g, old_rate, TIMELY_R_MD_GRAD);
		break;
	case TIMELY_PATCHED:
		timely_count(sk, TIMELY_MIB_PATCHED);
		timely_decided(sk, ca, g, old_rate, TIMELY_R_PATCHED);
		break;
	default:
		break;
	}
}

static void timely_cong_control(DCC_CONG_CONTROL_ARGS)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct timely *ca = inet_csk_ca(sk);
	static const u8 ts_mib[DCC_TS_V_MAX] = {
		[DCC_TS_V_HW] = TIMELY_MIB_TS_HW,
		[DCC_TS_V_SW] = TIMELY_MIB_TS_SW,
		[DCC_TS_V_MISSING] = TIMELY_MIB_TS_MISSING,
		[DCC_TS_V_REJECTED] = TIMELY_MIB_TS_REJECTED,
	};
	u32 acked, seg = READ_ONCE(segment_bytes), rtt, n, k, floor;
	u32 end_us = 0, low_us = 0, hash, rs_us;
	u64 rs_bytes;
	u8 raised = 0;
	bool plb_sample = false, plb_above = false;
	u32 plb_rtt = 0;
	const struct timely_params *g;
	struct timely_params e;
	struct dcc_ts_split sp;
	enum dcc_ts_verdict v;

	rcu_read_lock();
	g = dcc_param_block_get(&timely_pb);
	/*
	 * Every delivery-rate sample teaches the line-rate estimator, and
	 * the rate follows the learnt ceiling (timely_ack_line()).
	 */
	rs_bytes = rs->delivered > 0 ? (u64)rs->delivered * tp->mss_cache : 0;
	rs_us = (u32)clamp_t(long, rs->interval_us, 0, U32_MAX);
	timely_ack_line(&ca->s, g, (u32)tp->tcp_mstamp, rs_bytes, rs_us,
			rs->is_app_limited,
			inet_csk(sk)->icsk_ca_state >= TCP_CA_Recovery, &e);

	/*
	 * With timestamps the RTT the engine sees is the fabric delay:
	 * departure to the ACK's arrival at the host, without our receive
	 * path (include/dcc_tstamp.h).  A delayed ACK's sample holds the
	 * receiver's ACK delay (remote endpoint delay): left out.
	 */
	v = dcc_ts_sock_split(&timely_ts, sk, &ca->ts, rs, &sp);
	if (v < DCC_TS_V_MAX)
		timely_count(sk, ts_mib[v]);
	if (rs->acked_sacked <= 0)
		goto apply;
	acked = dcc_sat_u32((u64)rs->acked_sacked * tp->mss_cache);
	if (v < DCC_TS_V_MAX && rs->is_ack_delayed) {
		timely_count(sk, TIMELY_MIB_DELACK_SKIP);
		sp.fabric_us = 0;
	}
	if (rs->rtt_us > 0 && rs->is_retrans)
		timely_count(sk, TIMELY_MIB_KARN);
	if (!dcc_rs_rtt_us(rs) || !sp.fabric_us) {
		/* No usable sample: count the bytes, complete later. */
		ca->s.acked_bytes = dcc_sat_u32((u64)ca->s.acked_bytes + acked);
		goto apply;
	}
	/*
	 * The serialization is the NIC's (line_rate_mbps): pacing spreads
	 * the packets at the path's rate, so a sample only holds the burst
	 * the NIC put on the wire back to back, not its time at a slower
	 * bottleneck (the learnt line rate).
	 */
	rtt = timely_rtt_for_engine(g, sp.fabric_us,
				    timely_burst_bytes(sk, acked, seg,
						       sp.gso_bytes));
	/*
	 * PLB's delay signal: the fraction of samples (pooled over the
	 * last rounds, dcc_plb_delay_ratio()) above T_high, where TIMELY
	 * stops following the gradient and cuts for the queue alone
	 * (Documentation/plb.rst explains the choice).
	 */
	plb_sample = true;
	plb_above = rtt > e.t_high_us;
	plb_rtt = rtt;
	if (g->calibrate)
		end_us = timely_noise_sample(sk, rtt, &low_us);
	if (READ_ONCE(rtt_min_filter) && ca->s.seg_min_rtt_us)
		rtt = min_t(u32, rtt, ca->s.seg_min_rtt_us);
	ca->s.seg_min_rtt_us = min_t(u32, rtt, TIMELY_SEG_MIN_MAX_US);
	n = timely_account_acked(&ca->s, acked, seg, timely_no_more_data(sk));
	if (!n) {
		/* The noise stopped between completions: raise the floor. */
		if (end_us)
			timely_floor_sample(sk, g, plb_rtt, end_us, low_us,
					    &raised);
		goto noise_end;
	}
	ca->s.seg_min_rtt_us = 0;
	floor = g->calibrate ? timely_floor_sample(sk, g, rtt, end_us, low_us,
						   &raised) : 0;
	/* One update per completed segment, each with this ACK's sample. */
	for (k = 0; k < n; k++)
		timely_complete(sk, ca, g, rtt, k == 0, floor);
	timely_effective(g, &ca->s, &e);
noise_end:
	if (raised & DCC_FLOOR_RAISED_NOW)
		timely_count(sk, TIMELY_MIB_NOISE_END);
apply:
	rcu_read_unlock();
	/* PLB measures rounds against T_high, the line it judges by. */
	hash = READ_ONCE(sk->sk_txhash);
	dcc_plb_link_ack(sk, &ca->plb, rs, plb_sample, plb_above, plb_rtt,
			 e.t_high_us);
	timely_check_repath(sk, ca, hash, &e);
	timely_apply(sk, &e, rs);
}

/* One multiplicative cut by max_dec (undo takes it back). */
static void timely_loss_cut(struct sock *sk, enum timely_reason reason)
{
	struct timely *ca = inet_csk_ca(sk);
	u64 old_rate = ca->s.rate_bytes_ps;
	const struct timely_params *g;
	struct timely_params e;

	rcu_read_lock();
	g = dcc_param_block_get(&timely_pb);
	timely_effective(g, &ca->s, &e);
	timely_loss_cut_rate(&ca->s, &e, reason == TIMELY_R_RTO ?
			     TIMELY_LOSS_RTO : TIMELY_LOSS_RECOVERY);
	timely_count(sk, reason == TIMELY_R_RTO ? TIMELY_MIB_RTO_CUT :
						  TIMELY_MIB_RECOVERY_CUT);
	timely_decided(sk, ca, g, old_rate, reason);
	rcu_read_unlock();
	timely_apply(sk, &e, NULL);
}

static void timely_cwnd_event(struct sock *sk, enum tcp_ca_event ev)
{
	struct timely *ca = inet_csk_ca(sk);
	u32 hash = READ_ONCE(sk->sk_txhash);

	dcc_plb_link_event(sk, &ca->plb, ev);
	if (timely_check_repath(sk, ca, hash, NULL))
		return;
	switch (ev) {
	case CA_EVENT_LOSS:
		/* Retransmit timeout: cut, and forget the RTT history. */
		timely_restart(&ca->s);
		timely_loss_cut(sk, TIMELY_R_RTO);
		break;
	case CA_EVENT_TX_START:
		/*
		 * Sending with nothing in flight.  At low rates that happens
		 * on every packet; only an idle time longer than the RTO
		 * (as in RFC 2861's window restart) makes the previous RTT
		 * stale enough to forget.  lsndtime is the last send.
		 */
		if ((s32)(tcp_jiffies32 - tcp_sk(sk)->lsndtime) >
		    (s32)inet_csk(sk)->icsk_rto)
			timely_restart(&ca->s);
		break;
	default:
		break;
	}
}

static void timely_set_state(struct sock *sk, u8 new_state)
{
	struct timely *ca = inet_csk_ca(sk);

	dcc_plb_link_state(sk, &ca->plb, new_state);
	/* Fast recovery: one cut per recovery episode. */
	if (new_state == TCP_CA_Recovery &&
	    inet_csk(sk)->icsk_ca_state != TCP_CA_Recovery)
		timely_loss_cut(sk, TIMELY_R_RECOVERY);
}

static u32 timely_ssthresh(struct sock *sk)
{
	return max(tcp_snd_cwnd(tcp_sk(sk)) >> 1, 2U);
}

static u32 timely_undo_cwnd(struct sock *sk)
{
	struct timely *ca = inet_csk_ca(sk);
	u64 old_rate = ca->s.rate_bytes_ps;
	const struct timely_params *g;
	struct timely_params e;

	/* The loss was spurious: take the cut back. */
	rcu_read_lock();
	g = dcc_param_block_get(&timely_pb);
	timely_effective(g, &ca->s, &e);
	timely_undo(&ca->s, &e);
	timely_count(sk, TIMELY_MIB_UNDO);
	timely_decided(sk, ca, g, old_rate, TIMELY_R_UNDO);
	rcu_read_unlock();
	timely_apply(sk, &e, NULL);
	return tcp_snd_cwnd(tcp_sk(sk));
}

/*
 * ss -ti and getsockopt(TCP_CC_INFO): TIMELY state in the BBR layout, the
 * one ss prints in full ("bbr:(bw:...,mrtt:...,pacing_gain:...,
 * cwnd_gain:...)"; it prints nothing of the Vegas layout).  ss prints
 * bw * 8 as bits per second, min_rtt / 1000 as ms, both gains divided by
 * 256 and omits a gain of 0:
 *
 *   bbr_bw_lo/hi     target rate the socket is paced at, bytes per second
 *                    (ss "bw": the rate in bit/s)
 *   bbr_min_rtt      engine RTT of the latest completion (the sample minus
 *                    the serialization delay, as the engine used it), us
 *                    (ss "mrtt": in ms; 0 before the first completion)
 *   bbr_pacing_gain  what decided the rate last, enum timely_reason, * 256
 *                    (ss: 1 ai_low, 2 md_high, 3 ai, 4 hai, 5 md_grad,
 *                    6 patched, 7 rto, 8 recovery, 9 undo; omitted before
 *                    the first decision)
 *   bbr_cwnd_gain    1 + the engine's normalized RTT gradient, * 256,
 *                    at least 1 (ss: 1 + gradient, e.g. 1.25 for +0.25 and
 *                    0.5 for -0.5; a gradient of -1 or below reads
 *                    0.00390625)
 */
static size_t timely_get_info(struct sock *sk, u32 ext, int *attr,
			      union tcp_cc_info *info)
{
	const struct timely *ca = inet_csk_ca(sk);
	struct timely_params e;
	s64 gain;

	rcu_read_lock();
	timely_effective(dcc_param_block_get(&timely_pb), &ca->s, &e);
	rcu_read_unlock();
	gain = DCC_FX_ONE + (s64)timely_grad_fx(&ca->s, &e);

	if (!(ext & (1 << (INET_DIAG_BBRINFO - 1))) &&
	    !(ext & (1 << (INET_DIAG_VEGASINFO - 1))))
		return 0;
	memset(&info->bbr, 0, sizeof(info->bbr));
	info->bbr.bbr_bw_lo = (u32)ca->s.rate_bytes_ps;
	info->bbr.bbr_bw_hi = (u32)(ca->s.rate_bytes_ps >> 32);
	info->bbr.bbr_min_rtt = ca->s.prev_rtt_us;
	info->bbr.bbr_pacing_gain = (u32)ca->s.regime << 8;
	/* From 16 fractional bits to ss's 8; at least 1/256. */
	info->bbr.bbr_cwnd_gain = gain < 256 ? 1 : dcc_sat_u32(gain >> 8);
	*attr = INET_DIAG_BBRINFO;
	return sizeof(info->bbr);
}

static struct tcp_congestion_ops timely_ops __read_mostly = {
	.name		= "timely",
	.owner		= THIS_MODULE,
	.flags		= DCC_TS_CONG_FLAGS,	/* ACK stamps, patched kernels */
	.init		= timely_init,
	.cong_control	= timely_cong_control,
	.cwnd_event	= timely_cwnd_event,
	.release	= timely_release,
	.set_state	= timely_set_state,
	.ssthresh	= timely_ssthresh,
	.undo_cwnd	= timely_undo_cwnd,
	.min_tso_segs	= dcc_min_tso_segs,
	.get_info	= timely_get_info,
};

static int __init timely_register(void)
{
	int err;

	BUILD_BUG_ON(sizeof(struct timely) > ICSK_CA_PRIV_SIZE);
	BUILD_BUG_ON(ARRAY_SIZE(timely_mib_names) != TIMELY_MIB_MAX);
	/* s.regime is the last decision, as get_info reports it. */
	BUILD_BUG_ON(ilog2(TIMELY_REGIME_COUNT - 1) >= TIMELY_REGIME_BITS);
	BUILD_BUG_ON((int)TIMELY_MD_GRAD != (int)TIMELY_R_MD_GRAD ||
		     (int)TIMELY_PATCHED != (int)TIMELY_R_PATCHED ||
		     (int)TIMELY_LOSS_RTO != (int)TIMELY_R_RTO ||
		     (int)TIMELY_LOSS_RECOVERY != (int)TIMELY_R_RECOVERY ||
		     (int)TIMELY_UNDO != (int)TIMELY_R_UNDO);

	err = dcc_param_block_start(&timely_pb);
	if (err)
		return err;
	err = register_pernet_subsys(&timely_stat_net_ops);
	if (err)
		goto out_params;
	err = tcp_register_congestion_control(&timely_ops);
	if (err)
		goto out_stat;
	dcc_ts_link_start(&timely_ts);
	return 0;
out_stat:
	unregister_pernet_subsys(&timely_stat_net_ops);
out_params:
	dcc_param_block_stop(&timely_pb);
	return err;
}

static void __exit timely_unregister(void)
{
	tcp_unregister_congestion_control(&timely_ops);
	dcc_ts_link_stop(&timely_ts);
	unregister_pernet_subsys(&timely_stat_net_ops);
	dcc_param_block_stop(&timely_pb);
}

module_init(timely_register);
module_exit(timely_unregister);

MODULE_AUTHOR("Datacenter congestion control authors");
MODULE_LICENSE("GPL");
MODULE_VERSION(DCC_VERSION);
MODULE_DESCRIPTION("TCP TIMELY (RTT-gradient rate control, paper and patched variants)");
