/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ACK receive timestamps for a congestion control (kernel only): the glue
 * between the stack and the rules of dcc_tstamp.h.  One copy serves every
 * module (tcp_swift, tcp_timely); each module has its own link.
 *
 * No congestion-control hook sees the ACK's skb, so the link attaches a
 * probe to the tcp_probe tracepoint, which fires at the start of
 * tcp_rcv_established() under the socket lock, just before TCP takes
 * tcp_mstamp and hands the same skb to tcp_ack().  For a socket of this
 * module the probe reads the ACK's hardware stamp (skb_hwtstamps) and
 * software stamp (skb->tstamp), moves the usable one onto TCP's clock and
 * stashes it in the socket's private area; cong_control() then splits the
 * ACK's RTT sample with it (dcc_ts_sock_split()).  For every other socket
 * the probe costs one compare of icsk_ca_ops.
 *
 * The same split takes the serialization of a GSO burst's bytes ahead of
 * the acknowledged packet out of the fabric delay (dcc_gso.h), at the
 * module's line rate, whether or not timestamps are on; the burst's
 * record is kept in tp->snd_cwnd_cnt (below).
 *
 * Host-wide effects, at most once per module load (never per connection,
 * so no user's connect/close loop can repeat them):
 *  - the probe is attached when the first connection wants timestamps
 *    (tstamp= not off when it started), from a work item (attaching
 *    patches kernel text and sleeps; init may run in softirq), and stays
 *    attached until the module is unloaded;
 *  - software receive timestamps (net_enable_timestamp(), host wide) are
 *    held from the first connection that wants them (tstamp= auto or
 *    software) until the module is unloaded;
 *  - module exit detaches the probe, waits for running probes and gives
 *    the software timestamps back.
 * /sys/kernel/debug/MODULE/tstamp shows the probe's and the software
 * timestamps' state.
 *
 * On a kernel with patches/0001-*.patch (DCC_HAVE_RS_RX_TSTAMP, detected
 * by Kbuild) the stamps come in struct rate_sample instead: the ops set
 * DCC_TS_CONG_FLAGS (TCP_CONG_WANTS_RX_TSTAMP), no probe is attached and
 * dcc_ts_sock_split() stashes the ACK's stamps itself, under the same
 * rules.
 *
 * The probe's prototype is checked at build time against the kernel's
 * declaration of the tcp_probe tracepoint (a tracepoint's arguments are
 * no ABI): a kernel whose tcp_probe differs fails the build of this
 * module, never a running system.
 *
 * Use:
 *	static DCC_TS_LINK(my_ts, &my_ops, struct my_ca, ts, tstamp,
 *			   line_rate_mbps);
 *	struct my_ca { ...; struct dcc_ts_stash ts; };
 *	init:		dcc_ts_sock_init(&my_ts, &ca->ts);
 *	release:	dcc_ts_sock_release(&my_ts, &ca->ts);
 *	each ACK:	v = dcc_ts_sock_split(&my_ts, sk, &ca->ts, rs, &split);
 *	module init:	dcc_ts_link_start(&my_ts);	(debugfs state file)
 *	module exit:	dcc_ts_link_stop(&my_ts);	(after unregistering ops)
 */
#ifndef _DCC_TSTAMP_LINK_H
#define _DCC_TSTAMP_LINK_H

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/debugfs.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#include <linux/workqueue.h>
#include <net/tcp.h>
/* Declares the tcp_probe tracepoint: its prototype, checked below. */
#include <trace/events/tcp.h>

#include "dcc_compat.h"
#include "dcc_gso.h"
#include "dcc_tstamp.h"

/* For the module's tcp_congestion_ops.flags: stamps in the rate sample. */
#define DCC_TS_CONG_FLAGS	DCC_CONG_RX_TSTAMP

/* Names of the tstamp= values, in enum dcc_ts_mode order. */
static const char * const dcc_ts_mode_names[DCC_TS_MODE_MAX] __maybe_unused = {
	[DCC_TS_MODE_OFF]	= "off",
	[DCC_TS_MODE_AUTO]	= "auto",
	[DCC_TS_MODE_HW]	= "hardware",
	[DCC_TS_MODE_SW]	= "software",
};

/* dcc_ts_sock_split()'s verdict with tstamp=off or no RTT sample. */
#define DCC_TS_V_OFF	DCC_TS_V_MAX

/* dcc_ts_stash.held: this connection takes stamps. */
#define DCC_TS_HELD_PROBE	0x01

/* dcc_ts_link.wants bits: set once, cleared only by module exit. */
#define DCC_TS_WANT_PROBE	0	/* a connection wanted the probe */
#define DCC_TS_WANT_SW		1	/* net_enable_timestamp() held */

struct dcc_ts_link {
	const struct tcp_congestion_ops *ops;	/* whose sockets */
	const unsigned int *mode;		/* the tstamp= parameter */
	const unsigned int *line_mbps;	/* line_rate_mbps= (GSO serialization) */
	struct dcc_ts_gso_stat __percpu *gso_stat;	/* debugfs counts */
	size_t stash_off;		/* stash offset in inet_csk_ca() */
	unsigned long wants;		/* DCC_TS_WANT_* bits */
	atomic_t sockets;		/* connections taking stamps now */
	struct work_struct work;	/* attaches the probe */
	struct mutex lock;		/* registered, stopping, tp, err */
	struct tracepoint *tp;		/* tcp_probe, once found */
	struct dentry *dbg;		/* debugfs directory */
	int err;			/* why the probe is not attached */
	unsigned int attaches;		/* probe attached, since load */
	unsigned int sw_holds;		/* net_enable_timestamp(), since load */
	bool registered;
	bool stopping;
};

/* GSO corrections since load, per CPU (debugfs). */
struct dcc_ts_gso_stat {
	u64 samples;		/* samples with a correction */
	u64 us;			/* serialization taken out, us */
	u64 known;		/* samples whose burst was known */
};

static void dcc_ts_link_work(struct work_struct *w);

/*
 * Define the link of a module: its ops, its private struct and the stash
 * member in it, its tstamp parameter (an unsigned int, enum dcc_ts_mode)
 * and its line-rate parameter (unsigned int, Mbit/s).
 */
#define DCC_TS_LINK(name, ops_ptr, ca_type, member, mode_var, line_var) \
	struct dcc_ts_link name = {					\
		.ops = (ops_ptr),					\
		.mode = &(mode_var),					\
		.line_mbps = &(line_var),				\
		.stash_off = offsetof(ca_type, member),			\
		.sockets = ATOMIC_INIT(0),				\
		.work = __WORK_INITIALIZER((name).work,			\
					   dcc_ts_link_work),		\
		.lock = __MUTEX_INITIALIZER((name).lock),		\
	}

/*
 * The tcp_probe probe: stash the ACK's receive time for a socket of ours.
 * Runs for every segment an established TCP socket receives on the host,
 * so the first test must stay a single compare.
 */
static void dcc_ts_probe(void *data, struct sock *sk, struct sk_buff *skb)
{
	const struct dcc_ts_link *l = data;
	struct dcc_ts_clocks c;
	struct dcc_ts_stash *st;
	struct dcc_ts_raw raw;
	unsigned int mode;

	if (likely(READ_ONCE(inet_csk(sk)->icsk_ca_ops) != l->ops))
		return;
	st = (struct dcc_ts_stash *)((char *)inet_csk_ca(sk) + l->stash_off);
	mode = READ_ONCE(*l->mode);
	if (!st->held || mode == DCC_TS_MODE_OFF)
		return;
	/*
	 * A tstamp still marked as a delivery time is the sender's departure
	 * stamp on TCP's clock, not a receive time: another domain.
	 */
	raw.sw_ns = dcc_skb_tstamp_is_delivery(skb) ? 0 :
		    ktime_to_ns(skb->tstamp);
	raw.hw_ns = ktime_to_ns(skb_hwtstamps(skb)->hwtstamp);
	c.local_ns = ktime_get_ns();
	c.real_ns = ktime_get_real_ns();
	c.tai_ns = raw.hw_ns && mode != DCC_TS_MODE_SW ?
		   ktime_get_clocktai_ns() : 0;
	dcc_ts_stash_ack(st, mode, &raw, &c, TCP_SKB_CB(skb)->ack_seq);
}

static void dcc_ts_find_tp(struct tracepoint *tp, void *priv)
{
	struct dcc_ts_link *l = priv;

	if (!strcmp(tp->name, "tcp_probe"))
		l->tp = tp;
}

/*
 * Never called: the compiler checks dcc_ts_probe() against the kernel's
 * declaration of the tcp_probe tracepoint (register_trace_tcp_probe()'s
 * argument), so a kernel whose tcp_probe has other arguments fails the
 * build (-Werror=incompatible-pointer-types).  Not emitted, so the
 * unexported tracepoint symbol is not referenced.
 */
static inline int __maybe_unused dcc_ts_probe_proto_check(void)
{
	return register_trace_tcp_probe(dcc_ts_probe, NULL);
}

/* Attach the probe once a connection wants it; it stays until exit. */
static void dcc_ts_link_work(struct work_struct *w)
{
	struct dcc_ts_link *l = container_of(w, struct dcc_ts_link, work);
	int err;

	mutex_lock(&l->lock);
	if (test_bit(DCC_TS_WANT_PROBE, &l->wants) && !l->registered &&
	    !l->stopping) {
		if (!l->tp)
			for_each_kernel_tracepoint(dcc_ts_find_tp, l);
		err = l->tp ? tracepoint_probe_register(l->tp, dcc_ts_probe,
							l) : -ENOENT;
		if (err)
			pr_warn_once("no tcp_probe tracepoint (%d): ACK timestamps unavailable, delay is the whole RTT\n",
				     err);
		else
			l->registered = true;
		l->err = err;
		l->attaches += !err;
	}
	mutex_unlock(&l->lock);
}

static int dcc_ts_state_show(struct seq_file *m, void *v)
{
	struct dcc_ts_link *l = m->private;

	mutex_lock(&l->lock);
	seq_printf(m, "probe %s\n", l->registered ? "attached" :
		   l->err ? "unavailable" : "detached");
	seq_printf(m, "software_stamps %s\n",
		   test_bit(DCC_TS_WANT_SW, &l->wants) ? "held" : "released");
	seq_printf(m, "connections %d\n", atomic_read(&l->sockets));
	seq_printf(m, "probe_attaches %u\n", l->attaches);
	seq_printf(m, "software_stamp_holds %u\n", READ_ONCE(l->sw_holds));
	mutex_unlock(&l->lock);
	if (l->gso_stat) {
		u64 n = 0, us = 0, known = 0;
		int cpu;

		for_each_possible_cpu(cpu) {
			const struct dcc_ts_gso_stat *g =
				per_cpu_ptr(l->gso_stat, cpu);

			n += READ_ONCE(g->samples);
			us += READ_ONCE(g->us);
			known += READ_ONCE(g->known);
		}
		seq_printf(m, "gso_known_samples %llu\n", known);
		seq_printf(m, "gso_corrected_samples %llu\n", n);
		seq_printf(m, "gso_corrected_us %llu\n", us);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(dcc_ts_state);

/* Module init: the state file /sys/kernel/debug/MODULE/tstamp. */
static inline void dcc_ts_link_start(struct dcc_ts_link *l)
{
	/*
	 * Without it the corrections are made, only not counted.  The ops
	 * are registered already: connections may read it meanwhile.
	 */
	WRITE_ONCE(l->gso_stat, alloc_percpu(struct dcc_ts_gso_stat));
	l->dbg = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("tstamp", 0444, l->dbg, l, &dcc_ts_state_fops);
}

/* Module exit, after the ops are unregistered: nothing left behind. */
static inline void dcc_ts_link_stop(struct dcc_ts_link *l)
{
	debugfs_remove_recursive(l->dbg);
	mutex_lock(&l->lock);
	l->stopping = true;
	mutex_unlock(&l->lock);
	cancel_work_sync(&l->work);
	if (l->registered) {
		tracepoint_probe_unregister(l->tp, dcc_ts_probe, l);
		l->registered = false;
	}
	/* Probes running on other CPUs finish before the code goes. */
	tracepoint_synchronize_unregister();
	if (test_and_clear_bit(DCC_TS_WANT_SW, &l->wants))
		net_disable_timestamp();
	WARN_ON_ONCE(atomic_read(&l->sockets));
	free_percpu(l->gso_stat);
	l->gso_stat = NULL;
}

/* A connection starts (ops init): take what tstamp= asks for. */
static inline void dcc_ts_sock_init(struct dcc_ts_link *l,
				    struct dcc_ts_stash *st)
{
	unsigned int mode = READ_ONCE(*l->mode);

	st->src = DCC_TS_SRC_NONE;
	st->rejected = 0;
	/* init may follow a release without a reset: never count twice. */
	if (st->held || mode == DCC_TS_MODE_OFF)
		return;
	st->held = DCC_TS_HELD_PROBE;
	atomic_inc(&l->sockets);
	/* With the stamps in the rate sample no probe is needed. */
	if (!DCC_CONG_RX_TSTAMP &&
	    !test_and_set_bit(DCC_TS_WANT_PROBE, &l->wants))
		schedule_work(&l->work);
	if (mode != DCC_TS_MODE_HW &&
	    !test_and_set_bit(DCC_TS_WANT_SW, &l->wants)) {
		net_enable_timestamp();
		WRITE_ONCE(l->sw_holds, l->sw_holds + 1);
	}
}

/* A connection ends (ops release); the module keeps what it took. */
static inline void dcc_ts_sock_release(struct dcc_ts_link *l,
				       struct dcc_ts_stash *st)
{
	if (st->held)
		atomic_dec(&l->sockets);
	st->held = 0;
}

/*
 * The ACK's RTT sample, us, by Karn's rule; 0 when it has none to trust:
 * no sample (rs->rtt_us < 0), or the newest packet it delivered was a
 * retransmission (rs->is_retrans).  When an ACK covers only retransmitted
 * data, tcp_ack_update_rtt() substitutes the timestamp option's RTT, in
 * the peer's clock steps (1 ms for Linux), which the delay machines would
 * take for a millisecond of queue; and a retransmission's sample cannot
 * tell which transmission the ACK answers.
 */
static inline u32 dcc_rs_rtt_us(const struct rate_sample *rs)
{
	if (rs->rtt_us <= 0 || rs->is_retrans)
		return 0;
	return (u32)rs->rtt_us;
}

/*
 * The stamps from the rate sample (DCC_HAVE_RS_RX_TSTAMP): stashed here,
 * as the probe would have, with the clocks read now.  The stash is taken
 * for this ACK, so it is dated at the ACK's tcp_mstamp (the probe's
 * reading would be just before it; this one is just after).
 */
static inline void dcc_ts_stash_rs(const struct dcc_ts_link *l,
				   struct dcc_ts_stash *st,
				   const struct tcp_sock *tp,
				   const struct rate_sample *rs)
{
	unsigned int mode = READ_ONCE(*l->mode);
	struct dcc_ts_clocks c;
	struct dcc_ts_raw raw;

	dcc_rs_rx_stamps(rs, &raw.sw_ns, &raw.hw_ns);
	c.local_ns = ktime_get_ns();
	c.real_ns = ktime_get_real_ns();
	c.tai_ns = raw.hw_ns && mode != DCC_TS_MODE_SW ?
		   ktime_get_clocktai_ns() : 0;
	dcc_ts_stash_ack(st, mode, &raw, &c, tp->snd_una);
	st->probe_lo = (u16)tp->tcp_mstamp;
}

/* A legacy GSO skb's largest size; above it (BIG TCP) no GSO tracking. */
#define DCC_TS_GSO_LEGACY_MAX	65536U

/*
 * Each ACK: track the burst at the head of the retransmit queue and take
 * the serialization of the sample's burst ahead of the acknowledged
 * packet out of sp->fabric_us (dcc_gso.h).  The record lives in
 * tp->snd_cwnd_cnt: the congestion control's own counter (the stack only
 * reads it in tcp_cong_avoid_ai(), which these modules do not use, and
 * BPF congestion controls may write it), 4 bytes the private area has
 * no room for.  TCP zeroes it on loss, recovery, MTU probe success and
 * disconnect, which only drops the record (no correction until the next
 * burst is recorded).
 */
static inline void dcc_ts_gso(const struct dcc_ts_link *l, struct sock *sk,
			      u32 rtt, struct dcc_ts_split *sp)
{
	struct tcp_sock *tp = tcp_sk(sk);
	const struct sk_buff *h = tcp_rtx_queue_head(sk);
	struct dcc_gso_ack a = {
		.rec = tp->snd_cwnd_cnt,
		.dep_us = (u32)tp->tcp_mstamp - rtt,
		.snd_una = tp->snd_una,
		.has_sample = rtt > 0,
		.has_head = h,
		.sacked = tp->sacked_out,
		.big = READ_ONCE(sk->sk_gso_max_size) > DCC_TS_GSO_LEGACY_MAX,
	};
	struct dcc_ts_gso_stat __percpu *gs = READ_ONCE(l->gso_stat);
	u32 rec;

	if (h) {
		a.head_stamp_us = (u32)tcp_skb_timestamp_us(h);
		a.head_seq = TCP_SKB_CB(h)->seq;
		a.head_end = TCP_SKB_CB(h)->end_seq;
	}
	sp->gso_bytes = dcc_gso_track(&a, &rec);
	tp->snd_cwnd_cnt = rec;
	sp->gso_us = dcc_gso_ahead_us(sp->gso_bytes, tp->mss_cache,
				      READ_ONCE(*l->line_mbps));
	sp->fabric_us = dcc_gso_correct(sp->fabric_us, sp->gso_us);
	if (gs && sp->gso_bytes) {
		this_cpu_inc(gs->known);
		if (sp->gso_us) {
			this_cpu_inc(gs->samples);
			this_cpu_add(gs->us, sp->gso_us);
		}
	}
}

/*
 * Each ACK, in cong_control: split its RTT sample (dcc_rs_rtt_us()) into
 * fabric and local endpoint delay with the ACK's stash (consumed either
 * way), and take a GSO burst's serialization out of the fabric delay
 * (dcc_ts_gso(), also with tstamp=off).  Returns the verdict, DCC_TS_V_OFF
 * when there is nothing to split (no sample to trust, or tstamp=off);
 * without a split sp->fabric_us is the whole sample less the GSO
 * correction, 0 without a sample.
 */
static inline enum dcc_ts_verdict
dcc_ts_sock_split(const struct dcc_ts_link *l, struct sock *sk,
		  struct dcc_ts_stash *st, const struct rate_sample *rs,
		  struct dcc_ts_split *sp)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	u32 rtt = dcc_rs_rtt_us(rs);
	enum dcc_ts_verdict v;

	sp->fabric_us = rtt;
	sp->ep_us = 0;
	sp->gso_bytes = 0;
	sp->gso_us = 0;
	if (!rtt || !st->held || READ_ONCE(*l->mode) == DCC_TS_MODE_OFF) {
		st->src = DCC_TS_SRC_NONE;
		st->rejected = 0;
		v = DCC_TS_V_OFF;
	} else {
		if (DCC_CONG_RX_TSTAMP)
			dcc_ts_stash_rs(l, st, tp, rs);
		v = dcc_ts_split(st, (u32)tp->tcp_mstamp, tp->snd_una, rtt,
				 sp);
	}
	dcc_ts_gso(l, sk, rtt, sp);
	return v;
}

#endif /* _DCC_TSTAMP_LINK_H */
