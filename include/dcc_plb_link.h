/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The API of tcp_plb.ko and the glue a congestion control uses to call it
 * (kernel only).  One copy serves every module that uses PLB.
 *
 * PLB is optional: a congestion control does not link against tcp_plb.
 * Each connection looks the API up when it starts (symbol_get(), which
 * also pins tcp_plb while the connection lives) and lets go of it when it
 * ends; when tcp_plb is not loaded the connection runs without PLB.  So:
 *   - tcp_swift and tcp_timely load and work with tcp_plb absent;
 *   - connections opened after "modprobe tcp_plb" use it; those opened
 *     before do not;
 *   - "rmmod tcp_plb" is refused while connections use it, and succeeds
 *     once they have closed;
 *   - whether PLB acts is decided on every call by the connection's
 *     namespace (sysctl net.dcc_plb.enabled).
 *
 * symbol_get() checks no modversions CRC: a tcp_plb.ko built from another
 * tree would be taken as it is and would read and write this module's
 * private area by its own idea of struct dcc_plb_state.  So the exported
 * object starts with a header (struct dcc_plb_abi, at offset 0 in every
 * version) that the lookup checks before it uses anything else in it: a
 * magic number, DCC_PLB_ABI_VERSION (include/dcc_plb.h) and the sizes of
 * struct dcc_plb_ops and struct dcc_plb_state.  On a mismatch the module
 * drops its reference, says so once in the kernel log, and its
 * connections run without PLB.
 *
 * Use, in the congestion control:
 *	struct my_ca { ...; struct dcc_plb_link plb; };
 *	init:		dcc_plb_link_init(sk, &ca->plb);
 *	release:	dcc_plb_link_release(&ca->plb);
 *	each ACK:	dcc_plb_link_ack(sk, &ca->plb, rs, has_sample, above,
 *					 delay_us, ref_us);
 *	cwnd_event:	dcc_plb_link_event(sk, &ca->plb, ev);
 *	set_state:	dcc_plb_link_state(sk, &ca->plb, new_state);
 * where has_sample says the ACK gave a delay sample, above that it was
 * above the module's congestion target, delay_us is that sample and
 * ref_us the target it was judged against (PLB measures the length of a
 * round against it).
 */
#ifndef _DCC_PLB_LINK_H
#define _DCC_PLB_LINK_H

#include <linux/module.h>
#include <net/tcp.h>

#include "dcc_plb.h"

/* The start of the exported object in every version; never changes. */
struct dcc_plb_abi {
	u32 magic;		/* DCC_PLB_ABI_MAGIC */
	u32 version;		/* DCC_PLB_ABI_VERSION */
	u32 ops_size;		/* sizeof(struct dcc_plb_ops) */
	u32 state_size;		/* sizeof(struct dcc_plb_state) */
};

#define DCC_PLB_ABI_INIT {					\
	.magic = DCC_PLB_ABI_MAGIC,				\
	.version = DCC_PLB_ABI_VERSION,				\
	.ops_size = sizeof(struct dcc_plb_ops),			\
	.state_size = sizeof(struct dcc_plb_state),		\
}

/* What tcp_plb exports (EXPORT_SYMBOL_GPL(dcc_plb_ops)). */
struct dcc_plb_ops {
	struct dcc_plb_abi abi;		/* first: checked before the rest */
	struct module *owner;
	/* Once per round: ratio is the congested fraction in 1/256, or
	 * -1 when the round gave no signal.
	 */
	void (*update_state)(const struct sock *sk, struct dcc_plb_state *st,
			     int ratio);
	/* Repath now if congestion warrants it (each round, and when
	 * sending resumes after idle).
	 */
	void (*check_rehash)(struct sock *sk, struct dcc_plb_state *st);
	/* A retransmit timeout: pause repathing. */
	void (*upon_rto)(struct sock *sk, struct dcc_plb_state *st);
};

extern const struct dcc_plb_ops dcc_plb_ops;

/* The same functions, for a module that requires tcp_plb outright. */
void dcc_plb_update_state(const struct sock *sk, struct dcc_plb_state *st,
			  int ratio);
void dcc_plb_check_rehash(struct sock *sk, struct dcc_plb_state *st);
void dcc_plb_update_state_upon_rto(struct sock *sk, struct dcc_plb_state *st);

/* Per connection: the API (NULL without PLB) and the PLB state. */
struct dcc_plb_link {
	const struct dcc_plb_ops *ops;
	struct dcc_plb_state st;
};

static_assert(offsetof(struct dcc_plb_ops, abi) == 0);

static inline bool dcc_plb_abi_ok(const struct dcc_plb_abi *a)
{
	return a->magic == DCC_PLB_ABI_MAGIC &&
	       a->version == DCC_PLB_ABI_VERSION &&
	       a->ops_size == sizeof(struct dcc_plb_ops) &&
	       a->state_size == sizeof(struct dcc_plb_state);
}

/*
 * tcp_plb's API pinned, or NULL: not loaded, or built for another
 * interface (refused: reference dropped, said once per load of the
 * calling module).  Every version's object is at least 16 bytes (version
 * 1: four pointers), so reading the header is safe.
 */
static inline const struct dcc_plb_ops *dcc_plb_ops_get(void)
{
	const struct dcc_plb_ops *ops = symbol_get(dcc_plb_ops);

	if (!ops)
		return NULL;
	if (likely(dcc_plb_abi_ok(&ops->abi)))
		return ops;
	pr_warn_once("tcp_plb's interface does not match (magic %#x version %u, ops %u bytes, state %u bytes; expected version %u, %zu, %zu): built from another tree? Running without PLB\n",
		     ops->abi.magic, ops->abi.version, ops->abi.ops_size,
		     ops->abi.state_size, DCC_PLB_ABI_VERSION,
		     sizeof(struct dcc_plb_ops), sizeof(struct dcc_plb_state));
	symbol_put(dcc_plb_ops);
	return NULL;
}

static inline void dcc_plb_link_init(struct sock *sk, struct dcc_plb_link *l)
{
	const struct tcp_sock *tp = tcp_sk(sk);

	dcc_plb_state_init(&l->st, tp->delivered, tp->delivered_ce);
	/* init may follow a release (tcp_disconnect); never pin twice. */
	if (!l->ops)
		l->ops = dcc_plb_ops_get();
}

static inline void dcc_plb_link_release(struct dcc_plb_link *l)
{
	if (l->ops) {
		module_put(l->ops->owner);
		l->ops = NULL;
	}
}

/*
 * A packet sent before the current round began is still unacknowledged:
 * the oldest one's last transmission (TCP_SKB_CB()->tx.delivered, what
 * rs->prior_delivered reports at its ACK) counted fewer deliveries than
 * the round's start.  For the first round after a repath, such a packet
 * went out on the path left (dcc_plb_round_end()).  Only asked while
 * DCC_PLB_F_LEFT_CONG is set, the one thing the answer can keep: not
 * a walk of the retransmit queue on every ACK.
 */
static inline bool dcc_plb_link_old_out(const struct sock *sk,
					const struct dcc_plb_state *st)
{
	const struct sk_buff *head;

	if (!(st->flags & DCC_PLB_F_LEFT_CONG))
		return false;
	head = tcp_rtx_queue_head(sk);
	return head && dcc_before32(TCP_SKB_CB(head)->tx.delivered,
				    st->round_delivered);
}

/*
 * Every ACK: count its delay sample, and at the end of a round report the
 * round's congested fraction (the CE fraction of delivered packets when
 * the connection negotiated ECN and the path marks, else the fraction of
 * delay samples above target, pooled over the last rounds; a round that
 * repaired a loss without a sample takes the pool's fraction) and its length
 * in the module's target (its shortest sample over ref_us), and let PLB
 * decide.
 */
static inline void dcc_plb_link_ack(struct sock *sk, struct dcc_plb_link *l,
				    const struct rate_sample *rs,
				    bool has_sample, bool above_target,
				    u32 delay_us, u32 ref_us)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	int ratio;

	if (!l->ops)
		return;
	if (has_sample) {
		dcc_plb_sample(&l->st, above_target);
		dcc_plb_sample_len(&l->st, delay_us, ref_us);
	}
	if (rs->is_retrans && rs->delivered > 0)
		dcc_plb_repair(&l->st);
	if (rs->delivered <= 0 ||
	    !dcc_plb_round_end(&l->st, rs->prior_delivered, tp->delivered,
			       tp->delivered_ce, tp->ecn_flags & TCP_ECN_OK,
			       dcc_plb_link_old_out(sk, &l->st), &ratio))
		return;
	l->ops->update_state(sk, &l->st, ratio);
	l->ops->check_rehash(sk, &l->st);
}

/*
 * Congestion-control events: sending resumes with nothing in flight (the
 * idle moment PLB prefers for a repath).
 */
static inline void dcc_plb_link_event(struct sock *sk, struct dcc_plb_link *l,
				      enum tcp_ca_event ev)
{
	if (l->ops && ev == CA_EVENT_TX_START)
		l->ops->check_rehash(sk, &l->st);
}

/*
 * A move to TCP_CA_Loss: a retransmit timeout.  tcp_enter_loss() sets the
 * state at every timeout, the backed-off ones of a run included, but
 * raises CA_EVENT_LOSS (where upstream's PLB hears of a timeout) only at
 * the first, and not at one during fast recovery: PLB would never see
 * the run's later timeouts, which it judges failures (dcc_plb_on_rto()).
 * tcp_simple_retransmit()'s move to Loss after a path MTU drop counts as
 * one too; it is rare, and the path did change.
 */
static inline void dcc_plb_link_state(struct sock *sk, struct dcc_plb_link *l,
				      u8 new_state)
{
	if (l->ops && new_state == TCP_CA_Loss)
		l->ops->upon_rto(sk, &l->st);
}

#endif /* _DCC_PLB_LINK_H */
