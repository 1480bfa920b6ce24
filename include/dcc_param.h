/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Range-checked module parameters shared by every module.
 *
 * A value written at load time or through /sys/module/<mod>/parameters/ is
 * parsed, checked against its range and an optional check of the value
 * alone; a bad value is refused with -EINVAL and a message naming the
 * parameter, the range and the value kept.  Writers are serialized by the
 * module's kernel_param_lock (parse_one() and param_attr_store() hold it).
 *
 * A parameter that stands alone is read on the data path with READ_ONCE().
 * Parameters that the data path uses together (a module's fixed-point
 * parameter struct, with fields derived from several of them) belong to a
 * parameter block (DCC_PARAM_BLOCK): the raw values are never read on the
 * data path; the block is an immutable struct built from them and
 * published by RCU.  A write to a member builds a new block (the module's
 * build() converts the raw values and applies the checks that involve
 * several parameters, e.g. a lower bound against an upper one), publishes
 * it with rcu_assign_pointer() and frees the old one after a grace period
 * (kfree_rcu()); if build() refuses the combination the write fails with
 * -EINVAL and the old value is kept.
 *
 * Load time: the parameters arrive one by one in the order given, so a
 * check against another parameter would depend on that order (swift's
 * "min_cwnd_mpkt=300000 max_cwnd_pkts=512" would judge the minimum against
 * max_cwnd_pkts' default of 256 packets).  Until the
 * module's init calls dcc_param_block_start(), member writes are only
 * stored; dcc_param_block_start() builds the final combination once and
 * fails the load with build()'s message if it is inconsistent.
 *
 * Readers: the TCP callbacks run in softirq context and also in process
 * context (socket backlog processing in release_sock(), sendmsg's
 * CA_EVENT_TX_START, setsockopt's init, getsockopt's TCP_CC_INFO), where
 * nothing holds an RCU read-side section.  So a callback takes
 * rcu_read_lock(), loads the block pointer once (dcc_param_block_get())
 * and passes it down: one pointer load per callback, every field from one
 * version of the block.
 *
 * Messages carry no module name of their own: the including module defines
 * pr_fmt() as KBUILD_MODNAME ": " fmt before any include, as every module
 * here does, so a refused write reads "tcp_swift: base_target=...".
 */
#ifndef _DCC_PARAM_H
#define _DCC_PARAM_H

#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>

/* One published version of a block: the module's struct in data. */
struct dcc_param_blk {
	struct rcu_head rcu;
	u64 data[];
};

struct dcc_param_block {
	struct dcc_param_blk __rcu *cur;
	size_t size;			/* of the module's struct */
	/*
	 * Fill the (zeroed) module struct from the raw parameter values;
	 * 0, or -EINVAL with a message (pr_warn) saying which parameters
	 * disagree and why.
	 */
	int (*build)(void *p);
	bool live;			/* dcc_param_block_start() ran */
};

/*
 * Define the parameter block 'name' holding a 'type' that
 * 'int build_fn(type *p)' fills (declared here, defined by the module).
 */
#define DCC_PARAM_BLOCK(name, type, build_fn)				\
	static int build_fn(type *);					\
	static int name##_build(void *p)				\
	{								\
		return build_fn(p);					\
	}								\
	static struct dcc_param_block name = {				\
		.size = sizeof(type),					\
		.build = name##_build,					\
	}

/*
 * The current version of b's struct, for a reader under rcu_read_lock()
 * (assign it to a const pointer of the block's type).
 */
static __always_inline const void *
dcc_param_block_get(struct dcc_param_block *b)
{
	return rcu_dereference(b->cur)->data;
}

/* Build and publish a new version of b (writers serialized). */
static int __maybe_unused dcc_param_block_publish(struct dcc_param_block *b)
{
	struct dcc_param_blk *n, *old;
	int err;

	n = kzalloc(sizeof(*n) + b->size, GFP_KERNEL);
	if (!n)
		return -ENOMEM;
	err = b->build(n->data);
	if (err) {
		kfree(n);
		return err;
	}
	/* Writers hold kernel_param_lock (not visible to lockdep here). */
	old = rcu_dereference_protected(b->cur, 1);
	rcu_assign_pointer(b->cur, n);
	if (old)
		kfree_rcu(old, rcu);
	return 0;
}

/*
 * Module init, before the module's callbacks can run: check the final
 * load-time combination and publish the first version; from now on a
 * member write is checked and published at once.  A bad combination
 * fails the load (build() says why).
 */
static int __maybe_unused dcc_param_block_start(struct dcc_param_block *b)
{
	int err;

	kernel_param_lock(THIS_MODULE);
	err = dcc_param_block_publish(b);
	b->live = !err;
	kernel_param_unlock(THIS_MODULE);
	if (err == -EINVAL)
		pr_warn("the parameters given are inconsistent (above); not loading\n");
	return err;
}

/*
 * Module exit (or a failed init), after the callbacks are unregistered:
 * free the block; a later write (the parameter files live until the
 * module is freed) is only stored.
 */
static void __maybe_unused dcc_param_block_stop(struct dcc_param_block *b)
{
	struct dcc_param_blk *old;

	kernel_param_lock(THIS_MODULE);
	b->live = false;
	old = rcu_dereference_protected(b->cur, 1);
	RCU_INIT_POINTER(b->cur, NULL);
	kernel_param_unlock(THIS_MODULE);
	if (old)
		kfree_rcu(old, rcu);
}

/*
 * A member of b (NULL: none) was set to a new value, old before: publish
 * a block with it, or put old back and say why not.
 */
static int __maybe_unused dcc_param_block_changed(struct dcc_param_block *b,
						  const char *name,
						  unsigned int *val,
						  unsigned int old)
{
	int err;

	if (!b || !b->live)
		return 0;
	err = dcc_param_block_publish(b);
	if (err) {
		pr_warn("%s=%u refused: %s; keeping %u\n", name, *val,
			err == -ENOMEM ? "out of memory" :
			"inconsistent with the other parameters (above)", old);
		WRITE_ONCE(*val, old);
	}
	return err;
}

struct dcc_uint_param {
	unsigned int *val;
	unsigned int min;
	unsigned int max;
	/*
	 * Check of this value alone: 0 to accept; prints its own message.
	 * A check against another parameter belongs in a block's build().
	 */
	int (*check)(const char *name, unsigned int val);
	struct dcc_param_block *blk;	/* the block it is a member of */
};

static int __maybe_unused dcc_param_set_uint(const char *buf,
					     const struct kernel_param *kp)
{
	const struct dcc_uint_param *p = kp->arg;
	unsigned int v, old;

	if (kstrtouint(buf, 0, &v)) {
		pr_warn("%s: '%.*s' is not an unsigned integer in [%u, %u]; keeping %u\n",
			kp->name, (int)strcspn(buf, "\n"), buf,
			p->min, p->max, *p->val);
		return -EINVAL;
	}
	if (v < p->min || v > p->max) {
		pr_warn("%s=%u is out of range [%u, %u]; keeping %u\n",
			kp->name, v, p->min, p->max, *p->val);
		return -EINVAL;
	}
	if (p->check && p->check(kp->name, v))
		return -EINVAL;
	old = *p->val;
	WRITE_ONCE(*p->val, v);
	return dcc_param_block_changed(p->blk, kp->name, p->val, old);
}

static int __maybe_unused dcc_param_get_uint(char *buf,
					     const struct kernel_param *kp)
{
	const struct dcc_uint_param *p = kp->arg;

	return scnprintf(buf, PAGE_SIZE, "%u\n", READ_ONCE(*p->val));
}

static const struct kernel_param_ops dcc_uint_param_ops __maybe_unused = {
	.set = dcc_param_set_uint,
	.get = dcc_param_get_uint,
};

/*
 * Define a range-checked unsigned module parameter 'name' (a static
 * unsigned int of that name), writable by root at run time; chk: a check
 * of the value alone or NULL; blk: the parameter block (&block) built
 * from it, or NULL if it stands alone (the data path reads it with
 * READ_ONCE()).
 */
#define DCC_PARAM_UINT(name, def, lo, hi, chk, blk_, desc)		\
	static unsigned int name = (def);				\
	static struct dcc_uint_param dcc_param_##name = {		\
		.val = &(name), .min = (lo), .max = (hi),		\
		.check = (chk), .blk = (blk_),				\
	};								\
	module_param_cb(name, &dcc_uint_param_ops, &dcc_param_##name,	\
			0644);						\
	MODULE_PARM_DESC(name, desc " [default " #def ", range " #lo	\
			 "-" #hi "]")

/*
 * An enumerated parameter: one of a fixed list of names, stored as its
 * index (readers compare with their enum).  A write takes a name (or the
 * index as a number); anything else is refused with a message listing the
 * choices.  Reading gives the name.
 */
struct dcc_enum_param {
	unsigned int *val;
	const char * const *names;
	unsigned int n;
	struct dcc_param_block *blk;	/* the block it is a member of */
};

static int __maybe_unused dcc_param_set_enum(const char *buf,
					     const struct kernel_param *kp)
{
	const struct dcc_enum_param *p = kp->arg;
	unsigned int i, v, old;
	char list[128];
	int len = 0;

	for (v = 0; v < p->n; v++)
		if (sysfs_streq(buf, p->names[v]))
			break;
	if (v == p->n && (kstrtouint(buf, 0, &v) || v >= p->n))
		v = p->n;
	if (v == p->n) {
		for (i = 0; i < p->n; i++)
			len += scnprintf(list + len, sizeof(list) - len, "%s%s",
					 i ? ", " : "", p->names[i]);
		pr_warn("%s: '%.*s' is not one of %s; keeping %s\n",
			kp->name, (int)strcspn(buf, "\n"), buf,
			list, p->names[*p->val]);
		return -EINVAL;
	}
	old = *p->val;
	WRITE_ONCE(*p->val, v);
	return dcc_param_block_changed(p->blk, kp->name, p->val, old);
}

static int __maybe_unused dcc_param_get_enum(char *buf,
					     const struct kernel_param *kp)
{
	const struct dcc_enum_param *p = kp->arg;

	return scnprintf(buf, PAGE_SIZE, "%s\n", p->names[READ_ONCE(*p->val)]);
}

static const struct kernel_param_ops dcc_enum_param_ops __maybe_unused = {
	.set = dcc_param_set_enum,
	.get = dcc_param_get_enum,
};

/*
 * Define an enumerated module parameter 'name' (a static unsigned int of
 * that name holding an index into the array 'choices'), writable by root
 * at run time; blk as for DCC_PARAM_UINT.  'desc' should list the
 * choices and their meaning.
 */
#define DCC_PARAM_ENUM(name, def, choices, blk_, desc)		\
	static unsigned int name = (def);				\
	static struct dcc_enum_param dcc_param_##name = {		\
		.val = &(name), .names = (choices),			\
		.n = ARRAY_SIZE(choices), .blk = (blk_),		\
	};								\
	module_param_cb(name, &dcc_enum_param_ops, &dcc_param_##name,	\
			0644);						\
	MODULE_PARM_DESC(name, desc)

#endif /* _DCC_PARAM_H */
