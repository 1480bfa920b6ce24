// SPDX-License-Identifier: GPL-2.0
/*
 * DCQCN: ECN-driven rate control for TCP in the datacenter.
 *
 * After "Congestion Control for Large-Scale RDMA Deployments", Zhu et al.,
 * SIGCOMM 2015, built for RoCEv2 NICs; here the three parts map to TCP:
 *
 *  - congestion point: a switch or router marks CE (RED/WRED with ECN
 *    between Kmin and Kmax); the connection negotiates ECN
 *    (TCP_CONG_NEEDS_ECN), as DCTCP does;
 *  - notification point (receiver): CE marks become notifications on the
 *    ACKs, at most one per cnp_interval_us, coded as a rising edge of ECE
 *    (include/dcc_dcqcn.h explains the coding) so that the sender tells a
 *    fresh notification from a repeated echo;
 *  - reaction point (sender): the rate machine of include/dcc_dcqcn.h,
 *    with its timers evaluated lazily on ACKs and transmissions; the
 *    socket is paced at the current rate, the congestion window a
 *    safeguard that bounds outstanding data (as in TIMELY) and, after a
 *    notification or a loss, a window bound as DCTCP's or Reno's.
 *
 * Both ends run dcqcn.  A connection that did not negotiate ECN falls back
 * to Reno ("dcqcn-reno"), as DCTCP does.  See Documentation/dcqcn.rst.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/inet_diag.h>
#include <linux/module.h>
#include <net/tcp.h>

#include "include/dcc_compat.h"
#include "include/dcc_dcqcn.h"
#include "include/dcc_floor_link.h"
#include "include/dcc_linerate.h"
#include "include/dcc_pacing.h"
#include "include/dcc_param.h"
#include "include/dcc_stat.h"

#define CREATE_TRACE_POINTS
#include "trace/dcqcn_trace.h"

/* The safeguard window never goes below this many packets. */
#define DCQCN_MIN_CWND	4U

/*
 * Global parameters in their core form, with the line-rate estimator's:
 * an immutable block, rebuilt and published by RCU on every change
 * (include/dcc_param.h); callbacks read it under rcu_read_lock() through
 * dcc_param_block_get(&dcqcn_pb).
 */
struct dcqcn_gparams {
	struct dcqcn_params p;
	struct dcc_linerate_params lrp;
};

DCC_PARAM_BLOCK(dcqcn_pb, struct dcqcn_gparams, dcqcn_params_build);

/* The line-rate estimator: window, headroom, start value. */
#define DCQCN_LR_WIN_US		1000000U
#define DCQCN_LR_HEADROOM_PCT	25U
#define DCQCN_LR_INIT_MBPS	10000U

DCC_PARAM_UINT(g_q16, 4096, 1, 65536, NULL, &dcqcn_pb,
	       "alpha gain g, in 1/65536 (4096 = 1/16, 256 = 1/256)");
DCC_PARAM_UINT(alpha_period_us, 55, 1, 10000000, NULL, &dcqcn_pb,
	       "alpha decays by (1 - g) once per period without notification, in microseconds");
DCC_PARAM_UINT(timer_us, 55, 1, 10000000, NULL, &dcqcn_pb,
	       "rate-increase timer period T, in microseconds; at least srtt / (2 fr_events + 2)");
DCC_PARAM_UINT(byte_counter_kb, 0, 0, 4194303, NULL, &dcqcn_pb,
	       "byte counter B: bytes acked per increase event, in KB (1024 bytes); 0: what the line rate carries in one timer period");
DCC_PARAM_UINT(fr_events, 5, 1, 1000, NULL, &dcqcn_pb,
	       "F: increase events of fast recovery before additive increase");
DCC_PARAM_UINT(ai_rate_kbps, 0, 0, 1000000000, NULL, &dcqcn_pb,
	       "additive increase step R_AI, in kbit/s; 0: ai_rate_ppm of the line rate");
DCC_PARAM_UINT(hai_rate_kbps, 0, 0, 1000000000, NULL, &dcqcn_pb,
	       "hyper increase step R_HAI, in kbit/s; 0: hai_rate_ppm of the line rate");
DCC_PARAM_UINT(ai_rate_ppm, 1000, 1, 1000000, NULL, &dcqcn_pb,
	       "relative R_AI (ai_rate_kbps=0) before the first RTT sample, in parts per million of the line rate; after it one mss per srtt");
DCC_PARAM_UINT(hai_rate_ppm, 10000, 1, 1000000, NULL, &dcqcn_pb,
	       "relative R_HAI (hai_rate_kbps=0), in parts per million of the line rate; after the first RTT sample R_AI times hai_rate_ppm / ai_rate_ppm");
DCC_PARAM_UINT(cnp_interval_us, 50, 1, 10000000, NULL, &dcqcn_pb,
	       "receiver: least time between two notifications of a flow, in microseconds; at least one RTT as the receiver estimates it");
DCC_PARAM_UINT(min_rate_kbps, 1000, 1, 1000000000, NULL, &dcqcn_pb,
	       "rate floor (the rate is never 0), in kbit/s");
DCC_PARAM_UINT(line_rate_mbps, 0, 0, 1000000, NULL, &dcqcn_pb,
	       "line rate: ceiling of the rate and of the learnt line rate, in Mbit/s; 0: learnt only");
DCC_PARAM_UINT(cwnd_gain_pct, 200, 100, 1000, NULL, NULL,
	       "safeguard window: rate times the larger of srtt and the latest RTT sample times this, in percent");
DCC_PARAM_UINT(loss_share, 1, 0, 1, NULL, NULL,
	       "1: the host's connections to one destination that lose within two RTTs of each other take no loss window above the mean of theirs; 0: each its own");

/*
 * The block's build(): the parameters in core form, and the check between
 * them (include/dcc_param.h: at run time a write that breaks it is
 * refused; at load time the final combination is checked once).
 */
static int dcqcn_params_build(struct dcqcn_gparams *g)
{
	u64 line = dcc_mbps_to_bytes_ps(line_rate_mbps ? line_rate_mbps :
					DCQCN_LR_INIT_MBPS);
	struct dcqcn_params *p = &g->p, eff;

	if (line_rate_mbps && (u64)min_rate_kbps > (u64)line_rate_mbps * 1000) {
		pr_warn("min_rate_kbps (%u) must not exceed line_rate_mbps (%u Mbit/s)\n",
			min_rate_kbps, line_rate_mbps);
		return -EINVAL;
	}
	g->lrp = (struct dcc_linerate_params){
		.cap_bytes_ps = dcc_mbps_to_bytes_ps(line_rate_mbps),
		.init_bytes_ps = line,
		.floor_bytes_ps = (u64)min_rate_kbps * 1000 / 8,
		.win_us = DCQCN_LR_WIN_US,
		.headroom_pct = DCQCN_LR_HEADROOM_PCT,
	};
	dcqcn_params_default(p, line);
	p->g_fx = g_q16;
	p->alpha_period_us = alpha_period_us;
	p->timer_us = timer_us;
	p->byte_counter_bytes = byte_counter_kb * 1024;
	p->fr_events = fr_events;
	p->cnp_interval_us = cnp_interval_us;
	p->ai_bytes_ps = (u64)ai_rate_kbps * 1000 / 8;
	p->hai_bytes_ps = (u64)hai_rate_kbps * 1000 / 8;
	p->min_rate_bytes_ps = (u64)min_rate_kbps * 1000 / 8;
	p->ai_ppm = ai_rate_ppm;
	p->hai_ppm = hai_rate_ppm;
	dcqcn_params_for(&eff, p, p->max_rate_bytes_ps, 0, 1500);
	if (WARN_ON(!dcqcn_params_valid(&eff)))
		return -EINVAL;
	return 0;
}

/*
 * Per-socket state, in inet_csk_ca(sk) (104 bytes, all of it used: the
 * ECE decoder, the window bound and snd_una's low bits live in the padding
 * of dcqcn_state, the folded-marks count in that of dcqcn_np; undo takes
 * the rate back to R_T, the RTT sample for the safeguard is RACK's).
 */
struct dcqcn {
	struct dcqcn_state s;		/* reaction point (sender) */
	struct dcqcn_np np;		/* notification point (receiver) */
	struct dcc_linerate lr;		/* the learnt line rate */
	u32 prior_rcv_nxt;		/* rcv_nxt before the newest packet */
};

/*
 * Per-network-namespace counters, /proc/net/tcp_dcqcn_stat (one
 * "Name value" line each, summed over CPUs; include/dcc_stat.h).  See
 * Documentation/dcqcn.rst, "Observing it".
 */
enum dcqcn_mib_field {
	DCQCN_MIB_CE,		/* receiver: CE-marked packets */
	DCQCN_MIB_NOTIFY,	/* receiver: notifications signalled */
	DCQCN_MIB_COALESCED,	/* receiver: CE marks inside an interval */
	DCQCN_MIB_SEPARATOR,	/* receiver: separator ACKs sent */
	DCQCN_MIB_MERGED,	/* receiver: due marks without a separator */
	DCQCN_MIB_NOTIFIED,	/* sender: notifications received (edges) */
	DCQCN_MIB_ECHO,		/* sender: ECE ACKs repeating one */
	DCQCN_MIB_FR,		/* sender: fast-recovery events */
	DCQCN_MIB_AI,		/* sender: additive-increase events */
	DCQCN_MIB_HAI,		/* sender: hyper-increase events */
	DCQCN_MIB_ALPHA_DECAY,	/* sender: alpha periods without notification */
	DCQCN_MIB_BOUNDED,	/* sender: increases bounded by the achieved rate */
	DCQCN_MIB_RTO_CUT,	/* sender: retransmit timeouts (cut) */
	DCQCN_MIB_RECOVERY_CUT,	/* sender: fast-recovery entries (cut) */
	DCQCN_MIB_UNDO,		/* sender: spurious loss cuts undone */
	DCQCN_MIB_FALLBACK,	/* connections without ECN (Reno) */
	DCQCN_MIB_SHARED,	/* sender: bounds held to a loss episode's mean */
	DCQCN_MIB_MAX
};

static const char * const dcqcn_mib_names[DCQCN_MIB_MAX] = {
	[DCQCN_MIB_CE]			= "DcqcnCeReceived",
	[DCQCN_MIB_NOTIFY]		= "DcqcnNotifySent",
	[DCQCN_MIB_COALESCED]		= "DcqcnCeCoalesced",
	[DCQCN_MIB_SEPARATOR]		= "DcqcnSeparatorAck",
	[DCQCN_MIB_MERGED]		= "DcqcnNotifyMerged",
	[DCQCN_MIB_NOTIFIED]		= "DcqcnNotifyReceived",
	[DCQCN_MIB_ECHO]		= "DcqcnEchoRepeated",
	[DCQCN_MIB_FR]			= "DcqcnFastRecovery",
	[DCQCN_MIB_AI]			= "DcqcnAdditiveIncrease",
	[DCQCN_MIB_HAI]			= "DcqcnHyperIncrease",
	[DCQCN_MIB_ALPHA_DECAY]		= "DcqcnAlphaDecay",
	[DCQCN_MIB_BOUNDED]		= "DcqcnIncreaseBounded",
	[DCQCN_MIB_RTO_CUT]		= "DcqcnRtoCut",
	[DCQCN_MIB_RECOVERY_CUT]	= "DcqcnRecoveryCut",
	[DCQCN_MIB_UNDO]		= "DcqcnUndo",
	[DCQCN_MIB_FALLBACK]		= "DcqcnFallback",
	[DCQCN_MIB_SHARED]		= "DcqcnLossShared",
};

DCC_STAT_DEFINE(dcqcn_stat, "tcp_dcqcn_stat", dcqcn_mib_names);

static void dcqcn_count(const struct sock *sk, enum dcqcn_mib_field f,
			unsigned long n)
{
	dcc_stat_add(&dcqcn_stat, sock_net(sk), f, n);
}

static void dcqcn_count_events(const struct sock *sk,
			       const struct dcqcn_events *ev)
{
	dcqcn_count(sk, DCQCN_MIB_FR, ev->fr);
	dcqcn_count(sk, DCQCN_MIB_AI, ev->ai);
	dcqcn_count(sk, DCQCN_MIB_HAI, ev->hai);
	dcqcn_count(sk, DCQCN_MIB_ALPHA_DECAY, ev->alpha_decays);
}

/* The core's last stage as a trace reason. */
static enum dcqcn_reason dcqcn_stage_reason(u8 stage)
{
	switch (stage) {
	case DCQCN_STAGE_CUT:
		return DCQCN_R_CNP;
	case DCQCN_STAGE_FR:
		return DCQCN_R_FR;
	case DCQCN_STAGE_AI:
		return DCQCN_R_AI;
	case DCQCN_STAGE_HAI:
		return DCQCN_R_HAI;
	default:
		return DCQCN_R_NONE;
	}
}

/*
 * Record the reason of a decision; fire tcp_dcqcn:dcqcn_update if it
 * changed the current rate (old_rate is the rate before it).
 */
static void dcqcn_decided(const struct sock *sk, struct dcqcn *ca,
			  u64 old_rate, enum dcqcn_reason reason)
{
	if (old_rate == ca->s.rate_c_bytes_ps)
		return;
	if (trace_dcqcn_update_enabled())
		trace_dcqcn_update(sk, reason, old_rate, ca->s.rate_c_bytes_ps,
				   ca->s.rate_t_bytes_ps, ca->s.alpha_fx);
}

/*
 * The line rate this connection runs against, bytes per second: learnt
 * from its delivery-rate samples (include/dcc_linerate.h: the windowed
 * maximum over 1 s plus 25 % headroom, at least min_rate), at most
 * line_rate_mbps when that is set; 10 Gbit/s before the first sample.
 */
static u64 dcqcn_line_rate(const struct sock *sk,
			   const struct dcqcn_gparams *g)
{
	const struct dcqcn *ca = inet_csk_ca(sk);

	return dcc_linerate_bytes_ps(&ca->lr, &g->lrp);
}

/*
 * The parameters of this connection now: the module's, with the line
 * rate, its RTT and mss (dcqcn_params_for(): timers of at least one RTT,
 * relative steps and byte counter, the Reno bound on the steps, the
 * lead).  The RTT is the larger of srtt and the newest sample: srtt lags
 * a queue that builds by tens of ACKs for a flow of a few packets per
 * RTT, and the steps (one mss per RTT per RTT) and the lead taken from
 * it added rate as fast as if the queue were still empty.
 */
static void dcqcn_params_now(const struct sock *sk,
			     const struct dcqcn_gparams *g,
			     struct dcqcn_params *p)
{
	const struct tcp_sock *tp = tcp_sk(sk);

	dcqcn_params_for(p, &g->p, dcqcn_line_rate(sk, g),
			 max(dcc_srtt_us(tp), tp->rack.rtt_us), tp->mss_cache);
}

/* The RTT the flight's rate is taken over: the latest sample, or srtt. */
static u32 dcqcn_achieved_rtt(const struct tcp_sock *tp)
{
	return tp->rack.rtt_us ? tp->rack.rtt_us : dcc_srtt_us(tp);
}

/*
 * The rate the connection achieves, bytes per second (0: not known yet):
 * the smaller of its latest delivery-rate sample (the one TCP_INFO reports
 * as delivery_rate, but over at least srtt: dcqcn_delivery_rate(); ACKs
 * released in a bunch read several times the link) and its flight size
 * over the newest RTT sample (srtt
 * before one), RFC 5681's FlightSize as a rate (Little's law).  Early
 * samples can lie far above the flow's share (a first window delivered
 * through an empty queue); the flight over the RTT is what it has in the
 * network now.  Not over srtt: after a queue drained, srtt lags the RTT
 * by tens of ACKs, and the flight over it put the achieved rate at a
 * fraction of the real one (4 flows held flat for 30 ms at half the
 * link, every increase refused by dcqcn_validate()).
 *
 * With flight false, the delivery-rate sample alone when there is one:
 * what a notification's cut starts from (dcqcn_settle()) and what
 * increases are validated against (dcqcn_validate()).  The flight at one
 * ACK, in whole packets over one RTT sample, is a noisy estimate for a
 * flow of a few packets per RTT: as the floor of every cut it lowered
 * the rate before half the cuts of a dcqcn flow next to a DCTCP one,
 * some to a third, and as the base of validation it refused most of its
 * increases (18 % of the link).  The delivery rate measures what the
 * flow sent an RTT ago, which is what a cut needs and what an increase
 * must have shown.  Loss cuts keep the smaller of the two (a rate-based
 * sender flooding a drop-tail queue delivers less than it sends).
 */
static u64 dcqcn_achieved(const struct tcp_sock *tp, bool flight)
{
	u32 rtt = dcqcn_achieved_rtt(tp);
	u64 r = 0, f;

	if (tp->rate_interval_us && tp->rate_delivered)
		r = dcqcn_delivery_rate((u64)tp->rate_delivered * tp->mss_cache,
					tp->rate_interval_us, dcc_srtt_us(tp));
	if (rtt && (flight || !r)) {
		f = div_u64((u64)max(tcp_packets_in_flight(tp), 1U) *
			    tp->mss_cache * USEC_PER_SEC, rtt);
		r = r ? min(r, f) : f;
	}
	return r;
}

/*
 * The loss episodes of the host's connections to each destination
 * (dcqcn_ep_loss(), include/dcc_dcqcn.h), in a table indexed by the
 * destination as the delay modules' floors (dcc_floor_key()).  The
 * episode is one u64, updated by compare-and-exchange and read whole; the
 * key is cleared before another destination's episode is written and set
 * after it, and a reader that sees the key change under it reads none,
 * so no connection takes another destination's mean.
 */
struct dcqcn_ep_slot {
	u64 ep;
	u32 key;		/* destination (dcc_floor_key()), 0: none */
};

static struct dcqcn_ep_slot dcqcn_eps[DCC_FLOOR_SLOTS];

/* An episode lasts two RTTs (the larger of srtt and the newest sample). */
static u32 dcqcn_ep_win(const struct tcp_sock *tp)
{
	return 2 * max(dcc_srtt_us(tp), tp->rack.rtt_us);
}

/* The destination's episode (0: none, or another destination's). */
static u64 dcqcn_ep_read(const struct dcqcn_ep_slot *slot, u32 key)
{
	u64 ep;

	if (READ_ONCE(slot->key) != key)
		return 0;
	/* Key before the episode: pairs with dcqcn_ep_record()'s 2nd. */
	smp_rmb();
	ep = READ_ONCE(slot->ep);
	/* Episode before the key's re-read: pairs with the first wmb. */
	smp_rmb();
	return READ_ONCE(slot->key) == key ? ep : 0;
}

/* A loss of sk that set its bound: into its destination's episode. */
static void dcqcn_ep_record(struct sock *sk)
{
	const struct dcqcn *ca = inet_csk_ca(sk);
	const struct tcp_sock *tp = tcp_sk(sk);
	u32 key = dcc_floor_key(sk), win = dcqcn_ep_win(tp);
	struct dcqcn_ep_slot *slot = &dcqcn_eps[dcc_floor_index(key)];
	u64 now = tp->tcp_mstamp, old, new;

	if (READ_ONCE(slot->key) != key) {
		/* Take the slot over: key cleared, episode, key set. */
		WRITE_ONCE(slot->key, 0);
		/* Key cleared before the episode: pairs with the 2nd rmb. */
		smp_wmb();
		WRITE_ONCE(slot->ep, dcqcn_ep_loss(0, now, win,
						   dcqcn_lw_pkts(&ca->s)));
		/* Episode before the key: pairs with dcqcn_ep_read()'s 1st. */
		smp_wmb();
		WRITE_ONCE(slot->key, key);
		return;
	}
	old = READ_ONCE(slot->ep);
	do {
		new = dcqcn_ep_loss(old, now, win, dcqcn_lw_pkts(&ca->s));
	} while (!try_cmpxchg64(&slot->ep, &old, new));
}

/*
 * Hold sk to its destination's episode mean, if any (dcqcn_share()): a
 * connection in fast recovery or Loss lost in the episode.
 */
static void dcqcn_ep_share(struct sock *sk, const struct dcqcn_gparams *g)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct dcqcn *ca = inet_csk_ca(sk);
	u64 old_rate = ca->s.rate_c_bytes_ps;
	struct dcqcn_params p;
	u32 key, mean;

	if (!ca->s.loss_cwnd_fx || !READ_ONCE(loss_share))
		return;
	key = dcc_floor_key(sk);
	mean = dcqcn_ep_mean(dcqcn_ep_read(&dcqcn_eps[dcc_floor_index(key)],
					   key),
			     tp->tcp_mstamp, dcqcn_ep_win(tp));
	if (!mean)
		return;
	dcqcn_params_now(sk, g, &p);
	if (dcqcn_share(&ca->s, &p, mean,
			inet_csk(sk)->icsk_ca_state >= TCP_CA_Recovery)) {
		dcqcn_count(sk, DCQCN_MIB_SHARED, 1);
		dcqcn_decided(sk, ca, old_rate, DCQCN_R_RECOVERY);
	}
}

/*
 * Apply the current rate: pace at it, and bound outstanding data by the
 * safeguard window, what the rate can have in flight over the larger of
 * srtt and the newest sample (the queue included), times cwnd_gain_pct.
 * After a loss or a notification, the window bound (Reno's after a loss,
 * the flight at the notification, dcqcn_lw_notify()) bounds it too.
 * TCP's loss rules come first (Documentation/dcqcn.rst, "Loss"):
 *  - in fast recovery, Linux's PRR with its slow-start reduction bound
 *    (dcqcn_recovery_cwnd()): nothing above the bound; below it the
 *    deliveries not sent again, plus one per ACK that advanced snd_una
 *    without a new loss, up to the bound;
 *  - otherwise the window moves to the bound, but grows by at most the
 *    packets acked (as in slow start, BBR's rule): from the initial
 *    window at the start, from the one packet a retransmit timeout left,
 *    so never a full window on the first ACK after it.
 */
static void dcqcn_apply(struct sock *sk, u32 acked, bool una_advanced,
			bool newly_lost)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct dcqcn *ca = inet_csk_ca(sk);
	u32 rtt = max(dcc_srtt_us(tp), tp->rack.rtt_us);
	u32 w, cwnd = tcp_snd_cwnd(tp);

	w = dcc_sk_safeguard_cwnd(sk, ca->s.rate_c_bytes_ps, rtt,
				  READ_ONCE(cwnd_gain_pct), DCQCN_MIN_CWND);
	/* After a loss or a notification, the window bound too. */
	w = min(w, dcqcn_lw_pkts(&ca->s));
	if (inet_csk(sk)->icsk_ca_state == TCP_CA_Recovery)
		cwnd = dcqcn_recovery_cwnd(tcp_packets_in_flight(tp), acked,
					   tp->prr_delivered, tp->prr_out,
					   una_advanced, newly_lost, w);
	else
		cwnd = min(w, cwnd + acked);
	tcp_snd_cwnd_set(tp, max(cwnd, 1U));
	dcc_pacing_set_rate(sk, ca->s.rate_c_bytes_ps);
}

/*
 * Bring the lazy timers up to now (ACK or transmission).  While TCP
 * recovers from a loss the rate is held (no increase events).  Increases
 * lead the rate the connection achieves by at most a quarter
 * (dcqcn_validate()).
 */
static void dcqcn_catch_up(struct sock *sk, const struct dcqcn_gparams *g,
			   u32 bytes)
{
	struct dcqcn *ca = inet_csk_ca(sk);
	struct dcqcn_events ev = { 0 };
	u64 old_rate = ca->s.rate_c_bytes_ps;
	u64 old_target = ca->s.rate_t_bytes_ps;
	struct dcqcn_params p;

	dcqcn_params_now(sk, g, &p);
	if (inet_csk(sk)->icsk_ca_state >= TCP_CA_Recovery) {
		dcqcn_hold(&ca->s, &p, tcp_sk(sk)->tcp_mstamp, &ev);
	} else {
		dcqcn_on_bytes(&ca->s, &p, bytes, tcp_sk(sk)->tcp_mstamp, &ev);
		if (dcqcn_validate(&ca->s, &p, old_rate, old_target,
				   dcqcn_achieved(tcp_sk(sk), false)))
			dcqcn_count(sk, DCQCN_MIB_BOUNDED, 1);
	}
	dcqcn_count_events(sk, &ev);
	dcqcn_decided(sk, ca, old_rate, dcqcn_stage_reason(ca->s.stage));
}

static struct tcp_congestion_ops dcqcn_reno;

static void dcqcn_init(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct dcqcn *ca = inet_csk_ca(sk);
	struct dcqcn_params p;

	if (!(tp->ecn_flags & TCP_ECN_OK) &&
	    sk->sk_state != TCP_LISTEN && sk->sk_state != TCP_CLOSE) {
		/*
		 * No ECN: no notifications can arrive, so fall back to Reno
		 * (as DCTCP does) and stop sending ECT, which the handshake
		 * set for us.
		 */
		dcqcn_count(sk, DCQCN_MIB_FALLBACK, 1);
		WRITE_ONCE(inet_csk(sk)->icsk_ca_ops, &dcqcn_reno);
		INET_ECN_dontxmit(sk);
		return;
	}
	dcc_linerate_init(&ca->lr);
	rcu_read_lock();
	dcqcn_params_now(sk, dcc_param_block_get(&dcqcn_pb), &p);
	rcu_read_unlock();
	dcqcn_state_init(&ca->s, &p, p.max_rate_bytes_ps, tcp_clock_us());
	dcqcn_np_init(&ca->np);
	ca->prior_rcv_nxt = tp->rcv_nxt;
	ca->s.una_lo = (u16)tp->snd_una;
	dcc_pacing_request(sk);
	dcqcn_apply(sk, 0, false, false);
}

/* Set or clear the ECE echo on the ACKs we send. */
static void dcqcn_set_ece(struct tcp_sock *tp, bool ece)
{
	if (ece)
		tp->ecn_flags |= TCP_ECN_DEMAND_CWR;
	else
		tp->ecn_flags &= ~TCP_ECN_DEMAND_CWR;
}

/*
 * The receiver's least time between two notifications: cnp_interval_us,
 * and at least one RTT as the receiver knows it (its receive-side
 * estimate, else the connection's smoothed RTT).
 */
static u32 dcqcn_cnp_interval(const struct tcp_sock *tp)
{
	u32 rtt = tp->rcv_rtt_est.rtt_us >> 3, cnp;
	const struct dcqcn_gparams *g;

	if (!rtt)
		rtt = dcc_srtt_us(tp);
	rcu_read_lock();
	g = dcc_param_block_get(&dcqcn_pb);
	cnp = g->p.cnp_interval_us;
	rcu_read_unlock();
	return max(cnp, rtt);
}

/*
 * Notification point: one ECN-capable data packet arrived (ce: marked).
 * The kernel sends the ACK after this returns, with ECE if
 * TCP_ECN_DEMAND_CWR is set; it sets that flag itself on a CE mark.
 */
static void dcqcn_np_event(struct sock *sk, bool ce)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct inet_connection_sock *icsk = inet_csk(sk);
	struct dcqcn *ca = inet_csk_ca(sk);
	bool pending = icsk->icsk_ack.pending & ICSK_ACK_TIMER;
	u32 r;

	r = dcqcn_np_packet(&ca->np, dcqcn_cnp_interval(tp), ce,
			    tp->tcp_mstamp, pending, tcp_is_sack(tp));
	if (ce)
		dcqcn_count(sk, DCQCN_MIB_CE, 1);
	if (r & DCQCN_NP_SEPARATE) {
		/*
		 * An ACK with ECE down for the data before this packet: the
		 * delayed ACK we owe, or a duplicate of the last ACK (only
		 * with SACK, where it cannot trigger a retransmission).
		 */
		dcqcn_set_ece(tp, false);
		dcc_send_ack(sk, ca->prior_rcv_nxt);
		dcqcn_count(sk, DCQCN_MIB_SEPARATOR, 1);
	}
	if (r & DCQCN_NP_NOTIFY) {
		icsk->icsk_ack.pending |= ICSK_ACK_NOW;
		dcqcn_count(sk, DCQCN_MIB_NOTIFY, 1);
		if (trace_dcqcn_notify_enabled())
			trace_dcqcn_notify(sk, ca->np.folded_last,
					   r & DCQCN_NP_SEPARATE);
	}
	if (r & DCQCN_NP_COALESCED)
		dcqcn_count(sk, DCQCN_MIB_COALESCED, 1);
	if (r & DCQCN_NP_MERGED)
		dcqcn_count(sk, DCQCN_MIB_MERGED, 1);
	dcqcn_set_ece(tp, ca->np.ece);
	ca->prior_rcv_nxt = tp->rcv_nxt;
}

/* Reaction point: every ACK; a rising edge of ECE is a notification. */
static void dcqcn_in_ack_event(struct sock *sk, u32 flags)
{
	struct dcqcn *ca = inet_csk_ca(sk);
	bool ece = flags & CA_ACK_ECE;
	const struct dcqcn_gparams *g;
	struct dcqcn_events ev = { 0 };
	struct dcqcn_params p;
	u64 old_rate;

	if (!dcqcn_rp_echo(&ca->s.echo, ece)) {
		if (ece)
			dcqcn_count(sk, DCQCN_MIB_ECHO, 1);
		return;
	}
	rcu_read_lock();
	g = dcc_param_block_get(&dcqcn_pb);
	dcqcn_catch_up(sk, g, 0);
	old_rate = ca->s.rate_c_bytes_ps;
	dcqcn_params_now(sk, g, &p);
	rcu_read_unlock();
	/* The window bound, cut with the alpha the rate's cut uses. */
	dcqcn_lw_notify(&ca->s, tcp_packets_in_flight(tcp_sk(sk)),
			ca->s.alpha_fx);
	dcqcn_settle(&ca->s, &p, dcqcn_achieved(tcp_sk(sk), false));
	dcqcn_on_cnp(&ca->s, &p, tcp_sk(sk)->tcp_mstamp, &ev);
	dcqcn_count_events(sk, &ev);
	dcqcn_count(sk, DCQCN_MIB_NOTIFIED, 1);
	dcqcn_decided(sk, ca, old_rate, DCQCN_R_CNP);
}

static void dcqcn_cong_control(DCC_CONG_CONTROL_ARGS)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct dcqcn *ca = inet_csk_ca(sk);
	const struct dcqcn_gparams *g;
	bool una_advanced;
	u32 bytes = 0;

	/*
	 * Whether this ACK moved snd_una, from its low 16 bits (an advance
	 * of a multiple of 64 KB reads as none: one packet fewer in
	 * recovery, never more).
	 */
	una_advanced = (u16)tp->snd_una != ca->s.una_lo;
	ca->s.una_lo = (u16)tp->snd_una;
	rcu_read_lock();
	g = dcc_param_block_get(&dcqcn_pb);
	if (rs->delivered > 0 && rs->interval_us > 0)
		dcc_linerate_sample(&ca->lr, &g->lrp, (u32)tp->tcp_mstamp,
				    (u64)rs->delivered * tp->mss_cache,
				    (u32)rs->interval_us, rs->is_app_limited);
	if (rs->acked_sacked > 0) {
		bytes = dcc_sat_u32((u64)rs->acked_sacked * tp->mss_cache);
		/*
		 * The window bound grows only while it limits the flow
		 * (Reno's rule in Linux): a flow paced below it after a
		 * cut would otherwise find it a packet per RTT larger when
		 * its rate climbs back.
		 */
		if (inet_csk(sk)->icsk_ca_state < TCP_CA_Recovery &&
		    tcp_is_cwnd_limited(sk))
			dcqcn_lw_ack(&ca->s, rs->acked_sacked);
		/*
		 * PRR's count of packets delivered in recovery: TCP resets
		 * it (and counts prr_out) on entering recovery, but counts
		 * deliveries only in its own window reduction, which
		 * cong_control replaces.
		 */
		if (inet_csk(sk)->icsk_ca_state == TCP_CA_Recovery)
			tp->prr_delivered += rs->acked_sacked;
	}
	dcqcn_catch_up(sk, g, bytes);
	dcqcn_ep_share(sk, g);
	rcu_read_unlock();
	dcqcn_apply(sk, rs->acked_sacked > 0 ? rs->acked_sacked : 0,
		    una_advanced, rs->losses > 0);
}

/*
 * Loss (once per episode): R_C, first brought down to the rate achieved,
 * is halved, R_T is the rate before (undo returns to it), the increase
 * stages restart; the window bound becomes half the packets in flight.
 */
static void dcqcn_loss(struct sock *sk, enum dcqcn_reason reason)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct dcqcn *ca = inet_csk_ca(sk);
	const struct dcqcn_gparams *g;
	struct dcqcn_events ev = { 0 };
	struct dcqcn_params p;
	u64 old_rate, achieved;

	rcu_read_lock();
	g = dcc_param_block_get(&dcqcn_pb);
	dcqcn_catch_up(sk, g, 0);
	old_rate = ca->s.rate_c_bytes_ps;
	dcqcn_params_now(sk, g, &p);
	achieved = dcqcn_achieved(tp, true);
	dcqcn_settle(&ca->s, &p, achieved);
	dcqcn_loss_cut(&ca->s, &p, tp->tcp_mstamp, &ev);
	/* Half the flight, or of what the path carries if that is less. */
	dcqcn_lw_cut(&ca->s, dcqcn_loss_flight(tcp_packets_in_flight(tp),
					       achieved, dcqcn_achieved_rtt(tp),
					       tp->mss_cache));
	/*
	 * Into the destination's loss episode; the share is taken on the
	 * ACKs (dcqcn_ep_share()), where the state tells a loser.
	 */
	if (READ_ONCE(loss_share))
		dcqcn_ep_record(sk);
	rcu_read_unlock();
	dcqcn_count_events(sk, &ev);
	dcqcn_count(sk, reason == DCQCN_R_RTO ? DCQCN_MIB_RTO_CUT :
						DCQCN_MIB_RECOVERY_CUT, 1);
	dcqcn_decided(sk, ca, old_rate, reason);
	dcc_pacing_set_rate(sk, ca->s.rate_c_bytes_ps);
}

static void dcqcn_cwnd_event(struct sock *sk, enum tcp_ca_event ev)
{
	switch (ev) {
	case CA_EVENT_ECN_IS_CE:
	case CA_EVENT_ECN_NO_CE:
		dcqcn_np_event(sk, ev == CA_EVENT_ECN_IS_CE);
		break;
	case CA_EVENT_LOSS:
		/*
		 * A timeout that starts a loss episode (TCP signals it once
		 * per episode, as it reduces ssthresh once, not on the
		 * backed-off timeouts of the same one), just before it sets
		 * the window to one packet and enters Loss.
		 */
		dcqcn_loss(sk, DCQCN_R_RTO);
		break;
	case CA_EVENT_TX_START:
		/* Sending after idle: play the timers that fell due. */
		rcu_read_lock();
		dcqcn_catch_up(sk, dcc_param_block_get(&dcqcn_pb), 0);
		rcu_read_unlock();
		dcqcn_apply(sk, 0, false, false);
		break;
	default:
		break;
	}
}

static void dcqcn_set_state(struct sock *sk, u8 new_state)
{
	u8 old_state = inet_csk(sk)->icsk_ca_state;

	/* Fast recovery: cut once per episode (not from Loss). */
	if (new_state == TCP_CA_Recovery && old_state < TCP_CA_Recovery)
		dcqcn_loss(sk, DCQCN_R_RECOVERY);
	/*
	 * CWR on an ACK without ECE: a loss repaired by a tail-loss probe
	 * (tcp_process_tlp_ack() reduces the window through CWR, not
	 * Recovery) or local congestion; an ECE-driven CWR is the
	 * notification's, already handled in dcqcn_in_ack_event(), which
	 * ran for this ACK and left its ECE level in s.echo.
	 */
	else if (new_state == TCP_CA_CWR && old_state < TCP_CA_CWR &&
		 !((struct dcqcn *)inet_csk_ca(sk))->s.echo.ece)
		dcqcn_loss(sk, DCQCN_R_RECOVERY);
}

/*
 * ssthresh: half the packets in flight (RFC 5681's FlightSize / 2); TCP
 * uses it for undo and reporting, the window is dcqcn_apply()'s.
 */
static u32 dcqcn_ssthresh(struct sock *sk)
{
	return max(tcp_packets_in_flight(tcp_sk(sk)) >> 1, 2U);
}

static u32 dcqcn_undo_cwnd(struct sock *sk)
{
	struct dcqcn *ca = inet_csk_ca(sk);
	u64 old_rate = ca->s.rate_c_bytes_ps;
	struct dcqcn_params p;

	/* The loss was spurious: take the cut back. */
	/* R_T holds the rate before the cut. */
	rcu_read_lock();
	dcqcn_params_now(sk, dcc_param_block_get(&dcqcn_pb), &p);
	rcu_read_unlock();
	ca->s.rate_c_bytes_ps = dcqcn_clamp_rate(&p,
						 max(ca->s.rate_c_bytes_ps,
						     ca->s.rate_t_bytes_ps));
	ca->s.rate_t_bytes_ps = max(ca->s.rate_t_bytes_ps,
				    ca->s.rate_c_bytes_ps);
	dcqcn_lw_undo(&ca->s);
	dcqcn_count(sk, DCQCN_MIB_UNDO, 1);
	dcqcn_decided(sk, ca, old_rate, DCQCN_R_UNDO);
	/* TCP restores the window it had (prior_cwnd) if that is larger. */
	return tcp_snd_cwnd(tcp_sk(sk));
}

/*
 * ss -ti and getsockopt(TCP_CC_INFO): DCQCN state in the BBR layout, the
 * one ss prints in full ("bbr:(bw:...,mrtt:...,pacing_gain:...,
 * cwnd_gain:...)").  ss prints bw * 8 as bits per second, min_rtt / 1000
 * as ms, both gains divided by 256 and omits a gain of 0:
 *
 *   bbr_bw_lo/hi     current rate R_C the socket is paced at, bytes per
 *                    second (ss "bw": in bit/s)
 *   bbr_min_rtt      newest RTT sample, us (ss "mrtt": in ms)
 *   bbr_pacing_gain  alpha * 256 (ss "pacing_gain": alpha, 0..1; omitted
 *                    below 1/256)
 *   bbr_cwnd_gain    R_T / R_C * 256 (ss "cwnd_gain": how far the target
 *                    rate lies above the current one, >= 1)
 */
static size_t dcqcn_get_info(struct sock *sk, u32 ext, int *attr,
			     union tcp_cc_info *info)
{
	const struct dcqcn *ca = inet_csk_ca(sk);
	u64 rc = ca->s.rate_c_bytes_ps, rt = ca->s.rate_t_bytes_ps;

	if (!(ext & (1 << (INET_DIAG_BBRINFO - 1))) &&
	    !(ext & (1 << (INET_DIAG_VEGASINFO - 1))))
		return 0;
	memset(&info->bbr, 0, sizeof(info->bbr));
	info->bbr.bbr_bw_lo = (u32)rc;
	info->bbr.bbr_bw_hi = (u32)(rc >> 32);
	info->bbr.bbr_min_rtt = tcp_sk(sk)->rack.rtt_us;
	info->bbr.bbr_pacing_gain = ca->s.alpha_fx >> (DCC_FX_SHIFT - 8);
	info->bbr.bbr_cwnd_gain = dcc_sat_u32(dcc_div_u64(rt << 8, rc ? rc : 1));
	*attr = INET_DIAG_BBRINFO;
	return sizeof(info->bbr);
}

static struct tcp_congestion_ops dcqcn_ops __read_mostly = {
	.flags		= TCP_CONG_NEEDS_ECN,
	.name		= "dcqcn",
	.owner		= THIS_MODULE,
	.init		= dcqcn_init,
	.cong_control	= dcqcn_cong_control,
	.in_ack_event	= dcqcn_in_ack_event,
	.cwnd_event	= dcqcn_cwnd_event,
	.set_state	= dcqcn_set_state,
	.ssthresh	= dcqcn_ssthresh,
	.undo_cwnd	= dcqcn_undo_cwnd,
	.min_tso_segs	= dcc_min_tso_segs,
	.get_info	= dcqcn_get_info,
};

/* Without ECN: plain Reno (not registered; ss shows "dcqcn-reno"). */
static struct tcp_congestion_ops dcqcn_reno __read_mostly = {
	.ssthresh	= tcp_reno_ssthresh,
	.cong_avoid	= tcp_reno_cong_avoid,
	.undo_cwnd	= tcp_reno_undo_cwnd,
	.owner		= THIS_MODULE,
	.name		= "dcqcn-reno",
};

static int __init dcqcn_register(void)
{
	int err;

	BUILD_BUG_ON(sizeof(struct dcqcn) > ICSK_CA_PRIV_SIZE);
	BUILD_BUG_ON(ARRAY_SIZE(dcqcn_mib_names) != DCQCN_MIB_MAX);

	err = dcc_param_block_start(&dcqcn_pb);
	if (err)
		return err;
	err = register_pernet_subsys(&dcqcn_stat_net_ops);
	if (err)
		goto out_params;
	err = tcp_register_congestion_control(&dcqcn_ops);
	if (err)
		goto out_stat;
	return 0;
out_stat:
	unregister_pernet_subsys(&dcqcn_stat_net_ops);
out_params:
	dcc_param_block_stop(&dcqcn_pb);
	return err;
}

static void __exit dcqcn_unregister(void)
{
	tcp_unregister_congestion_control(&dcqcn_ops);
	unregister_pernet_subsys(&dcqcn_stat_net_ops);
	dcc_param_block_stop(&dcqcn_pb);
}

module_init(dcqcn_register);
module_exit(dcqcn_unregister);

MODULE_AUTHOR("Datacenter congestion control authors");
MODULE_LICENSE("GPL");
MODULE_VERSION(DCC_VERSION);
MODULE_DESCRIPTION("TCP DCQCN (ECN-driven rate control with notification and reaction points)");
