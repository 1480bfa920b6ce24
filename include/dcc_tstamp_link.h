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
 * Nothing runs while nobody needs it:
 *  - the probe is registered while at least one socket of the module has
 *    timestamps (tstamp= not off when it started), from a work item
 *    (registration sleeps; init and release may run in softirq);
 *  - software receive timestamps (net_enable_timestamp(), host wide) are
 *    held once per such socket unless tstamp=hardware, and released when
 *    it closes (release());
 *  - module exit unregisters the probe and waits for running probes.
 *
 * Use:
 *	static DCC_TS_LINK(my_ts, &my_ops, struct my_ca, ts, tstamp);
 *	struct my_ca { ...; struct dcc_ts_stash ts; };
 *	init:		dcc_ts_sock_init(&my_ts, &ca->ts);
 *	release:	dcc_ts_sock_release(&my_ts, &ca->ts);
 *	each ACK:	v = dcc_ts_sock_split(&my_ts, sk, &ca->ts, rs, &split);
 *	module exit:	dcc_ts_link_stop(&my_ts);	(after unregistering ops)
 */
#ifndef _DCC_TSTAMP_LINK_H
#define _DCC_TSTAMP_LINK_H

#include <linux/atomic.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#include <linux/workqueue.h>
#include <net/tcp.h>

#include "dcc_compat.h"
#include "dcc_tstamp.h"

/* Names of the tstamp= values, in enum dcc_ts_mode order. */
static const char * const dcc_ts_mode_names[DCC_TS_MODE_MAX] __maybe_unused = {
	[DCC_TS_MODE_OFF]	= "off",
	[DCC_TS_MODE_AUTO]	= "auto",
	[DCC_TS_MODE_HW]	= "hardware",
	[DCC_TS_MODE_SW]	= "software",
};

/* dcc_ts_sock_split()'s verdict with tstamp=off or no RTT sample. */
#define DCC_TS_V_OFF	DCC_TS_V_MAX

/* dcc_ts_stash.held bits. */
#define DCC_TS_HELD_PROBE	0x01	/* counted in link->users */
#define DCC_TS_HELD_SW		0x02	/* holds net_enable_timestamp() */

struct dcc_ts_link {
	const struct tcp_congestion_ops *ops;	/* whose sockets */
	const unsigned int *mode;		/* the tstamp= parameter */
	size_t stash_off;		/* stash offset in inet_csk_ca() */
	atomic_t users;			/* sockets that want the probe */
	struct work_struct work;	/* (un)registers the probe */
	struct mutex lock;		/* registered, stopping, tp */
	struct tracepoint *tp;		/* tcp_probe, once found */
	bool registered;
	bool stopping;
};

static void dcc_ts_link_work(struct work_struct *w);

/*
 * Define the link of a module: its ops, its private struct and the stash
 * member in it, and its tstamp parameter (an unsigned int, enum
 * dcc_ts_mode).
 */
#define DCC_TS_LINK(name, ops_ptr, ca_type, member, mode_var)		\
	struct dcc_ts_link name = {					\
		.ops = (ops_ptr),					\
		.mode = &(mode_var),					\
		.stash_off = offsetof(ca_type, member),			\
		.users = ATOMIC_INIT(0),				\
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

/* Register the probe while sockets want it, unregister it when not. */
static void dcc_ts_link_work(struct work_struct *w)
{
	struct dcc_ts_link *l = container_of(w, struct dcc_ts_link, work);
	bool want;
	int err;

	mutex_lock(&l->lock);
	want = atomic_read(&l->users) > 0 && !l->stopping;
	if (want && !l->registered) {
		if (!l->tp)
			for_each_kernel_tracepoint(dcc_ts_find_tp, l);
		err = l->tp ? tracepoint_probe_register(l->tp, dcc_ts_probe,
							l) : -ENOENT;
		if (err)
			pr_warn_once("no tcp_probe tracepoint (%d): ACK timestamps unavailable, delay is the whole RTT\n",
				     err);
		else
			l->registered = true;
	} else if (!want && l->registered) {
		tracepoint_probe_unregister(l->tp, dcc_ts_probe, l);
		l->registered = false;
	}
	mutex_unlock(&l->lock);
}

/* Module exit, after the ops are unregistered: no probe left behind. */
static inline void dcc_ts_link_stop(struct dcc_ts_link *l)
{
	mutex_lock(&l->lock);
	l->stopping = true;
	mutex_unlock(&l->lock);
	cancel_work_sync(&l->work);
	dcc_ts_link_work(&l->work);
	/* Probes running on other CPUs finish before the code goes. */
	tracepoint_synchronize_unregister();
	WARN_ON_ONCE(atomic_read(&l->users));
}

/* A connection starts (ops init): take what tstamp= asks for. */
static inline void dcc_ts_sock_init(struct dcc_ts_link *l,
				    struct dcc_ts_stash *st)
{
	unsigned int mode = READ_ONCE(*l->mode);

	st->src = DCC_TS_SRC_NONE;
	st->rejected = 0;
	/* init may follow a release without a reset: never hold twice. */
	if (st->held || mode == DCC_TS_MODE_OFF)
		return;
	st->held = DCC_TS_HELD_PROBE;
	if (atomic_inc_return(&l->users) == 1)
		schedule_work(&l->work);
	if (mode != DCC_TS_MODE_HW) {
		net_enable_timestamp();
		st->held |= DCC_TS_HELD_SW;
	}
}

/* A connection ends (ops release): give it back. */
static inline void dcc_ts_sock_release(struct dcc_ts_link *l,
				       struct dcc_ts_stash *st)
{
	if (st->held & DCC_TS_HELD_SW)
		net_disable_timestamp();
	if ((st->held & DCC_TS_HELD_PROBE) && atomic_dec_and_test(&l->users))
		schedule_work(&l->work);
	st->held = 0;
}

/*
 * Each ACK, in cong_control: split rs->rtt_us into fabric and local
 * endpoint delay with the ACK's stash (consumed either way).  Returns
 * the verdict, DCC_TS_V_OFF when there is nothing to split (no RTT sample
 * or tstamp=off); without a split sp->fabric_us is the whole sample.
 */
static inline enum dcc_ts_verdict
dcc_ts_sock_split(const struct dcc_ts_link *l, const struct sock *sk,
		  struct dcc_ts_stash *st, const struct rate_sample *rs,
		  struct dcc_ts_split *sp)
{
	const struct tcp_sock *tp = tcp_sk(sk);

	sp->fabric_us = rs->rtt_us > 0 ? (u32)rs->rtt_us : 0;
	sp->ep_us = 0;
	if (rs->rtt_us <= 0 || !st->held ||
	    READ_ONCE(*l->mode) == DCC_TS_MODE_OFF) {
		st->src = DCC_TS_SRC_NONE;
		st->rejected = 0;
		return DCC_TS_V_OFF;
	}
	return dcc_ts_split(st, (u32)tp->tcp_mstamp, tp->snd_una,
			    (u32)rs->rtt_us, sp);
}

#endif /* _DCC_TSTAMP_LINK_H */
