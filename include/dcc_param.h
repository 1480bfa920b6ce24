/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Range-checked module parameters shared by every module.
 *
 * A value written at load time or through /sys/module/<mod>/parameters/ is
 * parsed, checked against its range and an optional cross-parameter check;
 * a bad value is refused with -EINVAL and a message naming the parameter,
 * the range and the value kept.  Writers are serialized by the module's
 * kernel_param_lock; readers on the data path read the plain value (every
 * stored value has passed the checks, so a reader never sees a bad one).
 */
#ifndef _DCC_PARAM_H
#define _DCC_PARAM_H

#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/string.h>

struct dcc_uint_param {
	unsigned int *val;
	unsigned int min;
	unsigned int max;
	/* Cross-parameter check: 0 to accept; prints its own message. */
	int (*check)(const char *name, unsigned int val);
	/* Called after a value is stored (e.g. to rebuild derived state). */
	void (*changed)(void);
};

static int __maybe_unused dcc_param_set_uint(const char *buf,
					     const struct kernel_param *kp)
{
	const struct dcc_uint_param *p = kp->arg;
	unsigned int v;

	if (kstrtouint(buf, 0, &v)) {
		pr_warn("%s: %s: '%.*s' is not an unsigned integer in [%u, %u]; keeping %u\n",
			KBUILD_MODNAME, kp->name, (int)strcspn(buf, "\n"), buf,
			p->min, p->max, *p->val);
		return -EINVAL;
	}
	if (v < p->min || v > p->max) {
		pr_warn("%s: %s=%u is out of range [%u, %u]; keeping %u\n",
			KBUILD_MODNAME, kp->name, v, p->min, p->max, *p->val);
		return -EINVAL;
	}
	if (p->check && p->check(kp->name, v))
		return -EINVAL;
	WRITE_ONCE(*p->val, v);
	if (p->changed)
		p->changed();
	return 0;
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
 * unsigned int of that name), writable by root at run time.
 */
#define DCC_PARAM_UINT(name, def, lo, hi, chk, chg, desc)		\
	static unsigned int name = (def);				\
	static struct dcc_uint_param dcc_param_##name = {		\
		.val = &(name), .min = (lo), .max = (hi),		\
		.check = (chk), .changed = (chg),			\
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
	void (*changed)(void);
};

static int __maybe_unused dcc_param_set_enum(const char *buf,
					     const struct kernel_param *kp)
{
	const struct dcc_enum_param *p = kp->arg;
	char list[128];
	unsigned int i, v;
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
		pr_warn("%s: %s: '%.*s' is not one of %s; keeping %s\n",
			KBUILD_MODNAME, kp->name, (int)strcspn(buf, "\n"), buf,
			list, p->names[*p->val]);
		return -EINVAL;
	}
	WRITE_ONCE(*p->val, v);
	if (p->changed)
		p->changed();
	return 0;
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
 * at run time.  'desc' should list the choices and their meaning.
 */
#define DCC_PARAM_ENUM(name, def, choices, chg, desc)			\
	static unsigned int name = (def);				\
	static struct dcc_enum_param dcc_param_##name = {		\
		.val = &(name), .names = (choices),			\
		.n = ARRAY_SIZE(choices), .changed = (chg),		\
	};								\
	module_param_cb(name, &dcc_enum_param_ops, &dcc_param_##name,	\
			0644);						\
	MODULE_PARM_DESC(name, desc)

#endif /* _DCC_PARAM_H */
