/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-network-namespace event counters, shared by the modules (kernel
 * only).  Each module keeps its own enum of counters and a table of their
 * names, and instantiates the machinery once with DCC_STAT_DEFINE():
 *
 *	DCC_STAT_DEFINE(swift_stat, "tcp_swift_stat", swift_mib_names);
 *	...
 *	dcc_stat_inc(&swift_stat, sock_net(sk), SWIFT_MIB_INC);
 *	...
 *	register_pernet_subsys(&swift_stat_net_ops);	(module init)
 *	unregister_pernet_subsys(&swift_stat_net_ops);	(module exit)
 *
 * Every namespace gets an array of per-CPU counters (one increment is one
 * this_cpu_inc(), no atomics, no shared cache line) and /proc/net/<file>,
 * which prints one "Name value" line per counter, in table order, summed
 * over the possible CPUs.
 */
#ifndef _DCC_STAT_H
#define _DCC_STAT_H

#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

/* One module's counter set: what DCC_STAT_DEFINE() instantiates. */
struct dcc_stat {
	const char *proc_name;		/* file name in /proc/net */
	const char * const *names;	/* counter names, in enum order */
	unsigned int nr;		/* number of counters */
	unsigned int *net_id;		/* the pernet_operations id */
};

/* Per-namespace data (net_generic()). */
struct dcc_stat_net {
	unsigned long __percpu *cnt;	/* nr counters per CPU */
};

/* Count one event of counter field in namespace net. */
static inline void dcc_stat_inc(const struct dcc_stat *st,
				const struct net *net, unsigned int field)
{
	struct dcc_stat_net *sn = net_generic(net, *st->net_id);

	this_cpu_inc(sn->cnt[field]);
}

/* Count n events of counter field in namespace net. */
static inline void dcc_stat_add(const struct dcc_stat *st,
				const struct net *net, unsigned int field,
				unsigned long n)
{
	struct dcc_stat_net *sn = net_generic(net, *st->net_id);

	if (n)
		this_cpu_add(sn->cnt[field], n);
}

/* Sum of counter field over the possible CPUs. */
static inline unsigned long dcc_stat_sum(const struct dcc_stat *st,
					 const struct net *net,
					 unsigned int field)
{
	struct dcc_stat_net *sn = net_generic(net, *st->net_id);
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += *per_cpu_ptr(&sn->cnt[field], cpu);
	return sum;
}

static inline int dcc_stat_show(struct seq_file *seq,
				const struct dcc_stat *st)
{
	const struct net *net = seq_file_single_net(seq);
	unsigned int i;

	for (i = 0; i < st->nr; i++)
		seq_printf(seq, "%s %lu\n", st->names[i],
			   dcc_stat_sum(st, net, i));
	return 0;
}

static inline int dcc_stat_net_init(struct net *net,
				    const struct dcc_stat *st,
				    int (*show)(struct seq_file *, void *))
{
	struct dcc_stat_net *sn = net_generic(net, *st->net_id);

	sn->cnt = __alloc_percpu(st->nr * sizeof(unsigned long),
				 __alignof__(unsigned long));
	if (!sn->cnt)
		return -ENOMEM;
	if (!proc_create_net_single(st->proc_name, 0444, net->proc_net, show,
				    NULL)) {
		free_percpu(sn->cnt);
		return -ENOMEM;
	}
	return 0;
}

static inline void dcc_stat_net_exit(struct net *net,
				     const struct dcc_stat *st)
{
	struct dcc_stat_net *sn = net_generic(net, *st->net_id);

	remove_proc_entry(st->proc_name, net->proc_net);
	free_percpu(sn->cnt);
}

/*
 * Instantiate a counter set: defines "static const struct dcc_stat name"
 * and "static struct pernet_operations name##_net_ops", which the module
 * registers with register_pernet_subsys() before its congestion control
 * and unregisters after it.  names is an array with one entry per counter.
 */
#define DCC_STAT_DEFINE(name, proc_file, names_array)			\
	static unsigned int name##_net_id __read_mostly;		\
	static const struct dcc_stat name = {				\
		.proc_name = proc_file,					\
		.names = names_array,					\
		.nr = ARRAY_SIZE(names_array),				\
		.net_id = &name##_net_id,				\
	};								\
	static int name##_show(struct seq_file *seq, void *v)		\
	{								\
		return dcc_stat_show(seq, &name);			\
	}								\
	static int __net_init name##_net_init(struct net *net)		\
	{								\
		return dcc_stat_net_init(net, &name, name##_show);	\
	}								\
	static void __net_exit name##_net_exit(struct net *net)		\
	{								\
		dcc_stat_net_exit(net, &name);				\
	}								\
	static struct pernet_operations name##_net_ops = {		\
		.init = name##_net_init,				\
		.exit = name##_net_exit,				\
		.id = &name##_net_id,					\
		.size = sizeof(struct dcc_stat_net),			\
	}

#endif /* _DCC_STAT_H */
