// SPDX-License-Identifier: GPL-2.0
/*
 * PLB: Protective Load Balancing for the congestion controls of this tree.
 *
 * After "PLB: Congestion Signals are Simple and Effective for Network Load
 * Balancing", Qureshi et al., SIGCOMM 2022.  A connection that stays
 * congested for several rounds is moved to another path by giving it a new
 * transmit hash, hence a new IPv6 flow label (or outer UDP source port in
 * a VXLAN or Geneve tunnel), which datacenter switches hash into their
 * ECMP choice.  PLB prefers to do it when the connection is
 * idle (no reordering), forces it after sustained congestion, and pauses
 * after a retransmit timeout on a path that showed no congestion (a
 * failure) so it does not steer back onto the failed path.
 *
 * Linux 6.2+ has PLB built in (tcp_plb_*, for DCTCP); this module brings
 * the same semantics to 6.1 and to tcp_swift and tcp_timely, under names
 * of its own (dcc_plb_*, net.dcc_plb.*) so that both can coexist.
 *
 * The math is in include/dcc_plb.h (unit tested in userspace); this file
 * holds the per-namespace settings (sysctls), the counters and the API the
 * congestion controls call (include/dcc_plb_link.h).  See
 * Documentation/plb.rst.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/random.h>
#include <linux/sysctl.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <net/tcp.h>

#include "include/dcc_compat.h"
#include "include/dcc_param.h"
#include "include/dcc_plb_link.h"
#include "include/dcc_stat.h"

#define CREATE_TRACE_POINTS
#include "trace/plb_trace.h"

/*
 * Module parameters: the settings every network namespace starts with
 * (the initial namespace when the module loads, others when they are
 * created).  Each namespace then has its own copy in net.dcc_plb.*, as
 * Linux 6.2+ keeps net.ipv4.tcp_plb_* per namespace.
 */
DCC_PARAM_UINT(enabled, 0, 0, 1, NULL, NULL,
	       "default of net.dcc_plb.enabled: 1 to repath congested connections");
DCC_PARAM_UINT(idle_rehash_rounds, 3, 0, DCC_PLB_MAX_ROUNDS, NULL, NULL,
	       "default of net.dcc_plb.idle_rehash_rounds: congested rounds before a repath when idle, in rounds (0: never idle)");
DCC_PARAM_UINT(rehash_rounds, 12, 0, DCC_PLB_MAX_ROUNDS, NULL, NULL,
	       "default of net.dcc_plb.rehash_rounds: congested rounds before a forced repath, in rounds");
DCC_PARAM_UINT(suspend_rto_sec, 60, 0, DCC_PLB_MAX_SUSPEND_SEC, NULL, NULL,
	       "default of net.dcc_plb.suspend_rto_sec: pause after a retransmit timeout is S to 2S, in seconds");
DCC_PARAM_UINT(cong_thresh, 128, 0, DCC_PLB_SCALE, NULL, NULL,
	       "default of net.dcc_plb.cong_thresh: congested fraction making a round congested, in 1/256");

/* Per-namespace settings and their sysctl table. */
struct plb_net {
	struct dcc_plb_conf conf;
	struct ctl_table_header *hdr;
};

static unsigned int plb_net_id __read_mostly;

/*
 * Counters, /proc/net/tcp_plb_stat per namespace (include/dcc_stat.h).
 * See Documentation/plb.rst, "Counters".
 */
enum plb_mib_field {
	PLB_MIB_ROUNDS,		/* rounds judged (with a signal) */
	PLB_MIB_CONG_ROUNDS,	/* ... that were congested */
	PLB_MIB_REPATH_IDLE,	/* repaths while idle */
	PLB_MIB_REPATH_FORCED,	/* repaths after rehash_rounds */
	PLB_MIB_REPATH_LONG,	/* repaths after long congested rounds */
	PLB_MIB_REPATH_PAUSED,	/* repaths due but held by a pause */
	PLB_MIB_REPATH_SKIPPED,	/* due, socket refuses a rehash */
	PLB_MIB_RTO_PAUSE,	/* retransmit timeouts that paused PLB */
	PLB_MIB_REPATH_BACK,	/* repaths back to the best label known */
	PLB_MIB_RTO_CONG,	/* retransmit timeouts judged congestion */
	PLB_MIB_REPATH_HELD,	/* due, held on the best label */
	PLB_MIB_MAX
};

static const char * const plb_mib_names[PLB_MIB_MAX] = {
	[PLB_MIB_ROUNDS]		= "PlbRounds",
	[PLB_MIB_CONG_ROUNDS]		= "PlbCongestedRounds",
	[PLB_MIB_REPATH_IDLE]		= "PlbRepathIdle",
	[PLB_MIB_REPATH_FORCED]		= "PlbRepathForced",
	[PLB_MIB_REPATH_LONG]		= "PlbRepathLong",
	[PLB_MIB_REPATH_PAUSED]		= "PlbRepathPaused",
	[PLB_MIB_REPATH_SKIPPED]	= "PlbRepathSkipped",
	[PLB_MIB_RTO_PAUSE]		= "PlbRtoPause",
	[PLB_MIB_REPATH_BACK]		= "PlbRepathBack",
	[PLB_MIB_RTO_CONG]		= "PlbRtoCongested",
	[PLB_MIB_REPATH_HELD]		= "PlbRepathHeld",
};

DCC_STAT_DEFINE(plb_stat, "tcp_plb_stat", plb_mib_names);

static void plb_count(const struct sock *sk, enum plb_mib_field f)
{
	dcc_stat_inc(&plb_stat, sock_net(sk), f);
}

/* A consistent snapshot of a namespace's settings. */
static void plb_conf(const struct sock *sk, struct dcc_plb_conf *c)
{
	const struct plb_net *pn = net_generic(sock_net(sk), plb_net_id);

	c->enabled = READ_ONCE(pn->conf.enabled);
	c->idle_rehash_rounds = READ_ONCE(pn->conf.idle_rehash_rounds);
	c->rehash_rounds = READ_ONCE(pn->conf.rehash_rounds);
	c->suspend_rto_sec = READ_ONCE(pn->conf.suspend_rto_sec);
	c->cong_thresh = READ_ONCE(pn->conf.cong_thresh);
}

static bool plb_enabled(const struct sock *sk)
{
	const struct plb_net *pn = net_generic(sock_net(sk), plb_net_id);

	return READ_ONCE(pn->conf.enabled);
}

void dcc_plb_update_state(const struct sock *sk, struct dcc_plb_state *st,
			  int ratio)
{
	struct dcc_plb_conf c;

	if (!plb_enabled(sk))
		return;
	plb_conf(sk, &c);
	if (ratio >= 0)
		plb_count(sk, PLB_MIB_ROUNDS);
	if (dcc_plb_update(st, &c, ratio))
		plb_count(sk, PLB_MIB_CONG_ROUNDS);
}
EXPORT_SYMBOL_GPL(dcc_plb_update_state);

/*
 * The depth of the label the connection is on (dcc_plb_label_depth()),
 * with RACK's RTT of the most recently delivered packet (not a
 * retransmission's) as the latest sample.
 */
static u32 plb_depth(const struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);

	return dcc_plb_label_depth(tp->srtt_us >> 3, tp->rack.rtt_us,
				   tcp_min_rtt(tp));
}

void dcc_plb_check_rehash(struct sock *sk, struct dcc_plb_state *st)
{
	struct dcc_plb_conf c;
	enum dcc_plb_verdict v;
	u32 old, back, depth;

	if (!plb_enabled(sk))
		return;
	plb_conf(sk, &c);
	depth = plb_depth(sk);
	v = dcc_plb_check_path(st, &c, tcp_sk(sk)->packets_out, tcp_jiffies32,
			       HZ, sk->sk_txhash, depth);
	switch (v) {
	case DCC_PLB_NONE:
		return;
	case DCC_PLB_HELD:
		plb_count(sk, PLB_MIB_REPATH_HELD);
		trace_plb_repath(sk, PLB_E_HELD, sk->sk_txhash, sk->sk_txhash,
				 0);
		return;
	case DCC_PLB_PAUSED:
		plb_count(sk, PLB_MIB_REPATH_PAUSED);
		trace_plb_repath(sk, PLB_E_PAUSED, sk->sk_txhash,
				 sk->sk_txhash,
				 jiffies_to_msecs(dcc_plb_pause_left(st,
								     tcp_jiffies32)));
		return;
	default:
		break;
	}
	old = sk->sk_txhash;
	/*
	 * Every family, as upstream's tcp_plb_check_rehash(): the new hash
	 * is the IPv6 flow label, and for IPv4 as well as IPv6 the outer
	 * UDP source port of a VXLAN or Geneve tunnel the connection runs
	 * in (udp_flow_src_port()), which fabrics hash.  Plain IPv4 has no
	 * header field that follows it: the repath then changes at most the
	 * transmit queue, when none of the connection's packets is queued
	 * (Documentation/plb.rst, "IPv4").  Refused only where rehashing is
	 * off (SO_TXREHASH, net.core.txrehash).
	 */
	if (!sk_rethink_txhash(sk)) {
		plb_count(sk, PLB_MIB_REPATH_SKIPPED);
		trace_plb_repath(sk, PLB_E_SKIPPED, old, old, 0);
		return;
	}
	/*
	 * Path memory (include/dcc_plb.h): back to the best label left when
	 * this one's congestion is four times as deep or more; the rehash
	 * above made sure the socket allows a new hash.
	 */
	back = dcc_plb_choose(st, old, depth);
	if (back) {
		WRITE_ONCE(sk->sk_txhash, back);
		plb_count(sk, PLB_MIB_REPATH_BACK);
	}
	if (v == DCC_PLB_REPATH_IDLE) {
		plb_count(sk, PLB_MIB_REPATH_IDLE);
		trace_plb_repath(sk, PLB_E_IDLE, old, sk->sk_txhash, 0);
	} else if (v == DCC_PLB_REPATH_LONG) {
		plb_count(sk, PLB_MIB_REPATH_LONG);
		trace_plb_repath(sk, PLB_E_LONG, old, sk->sk_txhash, 0);
	} else {
		plb_count(sk, PLB_MIB_REPATH_FORCED);
		trace_plb_repath(sk, PLB_E_FORCED, old, sk->sk_txhash, 0);
	}
}
EXPORT_SYMBOL_GPL(dcc_plb_check_rehash);

void dcc_plb_update_state_upon_rto(struct sock *sk, struct dcc_plb_state *st)
{
	struct dcc_plb_conf c;
	bool cong;

	if (!plb_enabled(sk))
		return;
	plb_conf(sk, &c);
	/*
	 * The move to TCP_CA_Loss comes from tcp_enter_loss() before the
	 * timer counts the timeout (dcc_plb_link_state()): icsk_retransmits
	 * is 0 at the first of a run, and an ACK of new data sets it back
	 * to 0.  The verdict is the flag: with suspend_rto_sec 0 a failure
	 * pauses nothing but is still one.
	 */
	dcc_plb_on_rto(st, &c, tcp_jiffies32, HZ, get_random_u32(),
		       inet_csk(sk)->icsk_retransmits);
	cong = st->flags & DCC_PLB_F_RTO_CONG;
	plb_count(sk, cong ? PLB_MIB_RTO_CONG : PLB_MIB_RTO_PAUSE);
	trace_plb_repath(sk, cong ? PLB_E_RTO_CONG : PLB_E_RTO_PAUSE,
			 sk->sk_txhash, sk->sk_txhash,
			 jiffies_to_msecs(dcc_plb_pause_left(st,
							     tcp_jiffies32)));
}
EXPORT_SYMBOL_GPL(dcc_plb_update_state_upon_rto);

/* The API as one object: what the congestion controls symbol_get(). */
const struct dcc_plb_ops dcc_plb_ops = {
	.abi		= DCC_PLB_ABI_INIT,
	.owner		= THIS_MODULE,
	.update_state	= dcc_plb_update_state,
	.check_rehash	= dcc_plb_check_rehash,
	.upon_rto	= dcc_plb_update_state_upon_rto,
};
EXPORT_SYMBOL_GPL(dcc_plb_ops);

/* --- sysctls: net.dcc_plb.* ------------------------------------------ */

static unsigned int plb_zero;
static unsigned int plb_one = 1;
static unsigned int plb_max_rounds = DCC_PLB_MAX_ROUNDS;
static unsigned int plb_max_suspend = DCC_PLB_MAX_SUSPEND_SEC;
static unsigned int plb_scale = DCC_PLB_SCALE;

/*
 * proc_douintvec_minmax, with a message: a refused write names the
 * setting, the value, the range and the value kept (as the module
 * parameters do).
 */
static int plb_sysctl_uint(DCC_CTL_CONST struct ctl_table *table, int write,
			   void *buffer, size_t *lenp, loff_t *ppos)
{
	unsigned int *data = table->data, val = READ_ONCE(*data);
	unsigned int lo = *(unsigned int *)table->extra1;
	unsigned int hi = *(unsigned int *)table->extra2;
	struct ctl_table tmp = *table;
	int ret;

	tmp.data = &val;
	ret = proc_douintvec(&tmp, write, buffer, lenp, ppos);
	if (!write)
		return ret;
	if (ret) {
		pr_warn_ratelimited("net.dcc_plb.%s: not an unsigned integer in [%u, %u]; keeping %u\n",
				    table->procname, lo, hi, READ_ONCE(*data));
		return ret;
	}
	if (val < lo || val > hi) {
		pr_warn_ratelimited("net.dcc_plb.%s=%u is out of range [%u, %u]; keeping %u\n",
				    table->procname, val, lo, hi,
				    READ_ONCE(*data));
		return -EINVAL;
	}
	WRITE_ONCE(*data, val);
	return 0;
}

#define PLB_SYSCTL(field, lo, hi) {					\
	.procname = #field,						\
	.data = &((struct plb_net *)0)->conf.field,			\
	.maxlen = sizeof(unsigned int),					\
	.mode = 0644,							\
	.proc_handler = plb_sysctl_uint,				\
	.extra1 = &(lo),						\
	.extra2 = &(hi),						\
}

/* Template: .data holds offsets into struct plb_net until copied. */
static struct ctl_table plb_sysctl_template[] = {
	PLB_SYSCTL(enabled, plb_zero, plb_one),
	PLB_SYSCTL(idle_rehash_rounds, plb_zero, plb_max_rounds),
	PLB_SYSCTL(rehash_rounds, plb_zero, plb_max_rounds),
	PLB_SYSCTL(suspend_rto_sec, plb_zero, plb_max_suspend),
	PLB_SYSCTL(cong_thresh, plb_zero, plb_scale),
	{ }
};

static int __net_init plb_net_init(struct net *net)
{
	struct plb_net *pn = net_generic(net, plb_net_id);
	struct ctl_table *tbl;
	int i;

	pn->conf.enabled = READ_ONCE(enabled);
	pn->conf.idle_rehash_rounds = READ_ONCE(idle_rehash_rounds);
	pn->conf.rehash_rounds = READ_ONCE(rehash_rounds);
	pn->conf.suspend_rto_sec = READ_ONCE(suspend_rto_sec);
	pn->conf.cong_thresh = READ_ONCE(cong_thresh);

	tbl = kmemdup(plb_sysctl_template, sizeof(plb_sysctl_template),
		      GFP_KERNEL);
	if (!tbl)
		return -ENOMEM;
	for (i = 0; i < ARRAY_SIZE(plb_sysctl_template) - 1; i++)
		tbl[i].data = (char *)pn + (uintptr_t)tbl[i].data;
	pn->hdr = dcc_register_net_sysctl(net, "net/dcc_plb", tbl,
					  ARRAY_SIZE(plb_sysctl_template) - 1);
	if (!pn->hdr) {
		kfree(tbl);
		return -ENOMEM;
	}
	return 0;
}

static void __net_exit plb_net_exit(struct net *net)
{
	struct plb_net *pn = net_generic(net, plb_net_id);
	const struct ctl_table *tbl = pn->hdr->ctl_table_arg;

	unregister_net_sysctl_table(pn->hdr);
	kfree(tbl);
}

static struct pernet_operations plb_net_ops = {
	.init = plb_net_init,
	.exit = plb_net_exit,
	.id = &plb_net_id,
	.size = sizeof(struct plb_net),
};

static int __init plb_module_init(void)
{
	int err;

	BUILD_BUG_ON(ARRAY_SIZE(plb_mib_names) != PLB_MIB_MAX);
	/* with dcc_plb_link's pointer, within 32 bytes of the callers' area */
	BUILD_BUG_ON(sizeof(struct dcc_plb_state) > 24);
	err = register_pernet_subsys(&plb_stat_net_ops);
	if (err)
		return err;
	err = register_pernet_subsys(&plb_net_ops);
	if (err)
		unregister_pernet_subsys(&plb_stat_net_ops);
	return err;
}

static void __exit plb_module_exit(void)
{
	unregister_pernet_subsys(&plb_net_ops);
	unregister_pernet_subsys(&plb_stat_net_ops);
}

module_init(plb_module_init);
module_exit(plb_module_exit);

MODULE_AUTHOR("Datacenter congestion control authors");
MODULE_LICENSE("GPL");
MODULE_VERSION(DCC_VERSION);
MODULE_DESCRIPTION("Protective Load Balancing: repath congested TCP connections by IPv6 flow label");
