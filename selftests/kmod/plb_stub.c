// SPDX-License-Identifier: GPL-2.0
/*
 * A stand-in for tcp_plb.ko "built from another tree", for
 * selftests/plb_abi.sh.  It exports dcc_plb_ops, as tcp_plb does, in the
 * layout chosen at load time:
 *
 *   layout=1	version 1: the unversioned object (owner first), as
 *		tcp_plb exported it before the interface check existed;
 *   layout=2	the current object (include/dcc_plb_link.h), with each
 *		field of its header (magic, version, ops_size, state_size)
 *		settable, so that each mismatch can be tried.  The defaults
 *		are the current interface's: then the congestion controls
 *		must accept it (the test's positive control).
 *
 * It acts on nothing: its functions only count their calls (parameter
 * "calls", read only), so the test sees whether a congestion control used
 * an object it should have refused.  The layouts are written out here, not
 * taken from dcc_plb_link.h, because an object from another tree is what
 * this module stands for; the positive control fails if they drift.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

#include "dcc_plb.h"
#include "plb_stub.h"

static atomic_t stub_calls = ATOMIC_INIT(0);

static int stub_calls_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&stub_calls));
}

static const struct kernel_param_ops stub_calls_ops = {
	.get = stub_calls_get,
};

module_param_cb(calls, &stub_calls_ops, NULL, 0444);
MODULE_PARM_DESC(calls, "calls made into this object by congestion controls");

static unsigned int layout = 2;
module_param(layout, uint, 0444);
MODULE_PARM_DESC(layout, "1: version 1 object (owner first); 2: current");

static unsigned int magic = DCC_PLB_ABI_MAGIC;
module_param(magic, uint, 0444);
MODULE_PARM_DESC(magic, "layout 2: the header's magic");

static unsigned int version = DCC_PLB_ABI_VERSION;
module_param(version, uint, 0444);
MODULE_PARM_DESC(version, "layout 2: the header's version");

static unsigned int ops_size = sizeof(struct stub_ops_v2);
module_param(ops_size, uint, 0444);
MODULE_PARM_DESC(ops_size, "layout 2: the header's ops size, in bytes");

static unsigned int state_size = sizeof(struct dcc_plb_state);
module_param(state_size, uint, 0444);
MODULE_PARM_DESC(state_size, "layout 2: the header's state size, in bytes");

static void stub_update_state(const struct sock *sk, void *st, int ratio)
{
	atomic_inc(&stub_calls);
}

static void stub_sk(struct sock *sk, void *st)
{
	atomic_inc(&stub_calls);
}

/* Filled by init (from the parameters); what symbol_get() finds. */
union stub_ops dcc_plb_ops;
union stub_ops dcc_plb_ops;
EXPORT_SYMBOL_GPL(dcc_plb_ops);

static int __init stub_init(void)
{
	switch (layout) {
	case 1:
		dcc_plb_ops.v1 = (struct stub_ops_v1) {
			.owner = THIS_MODULE,
			.update_state = stub_update_state,
			.check_rehash = stub_sk,
			.upon_rto = stub_sk,
		};
		break;
	case 2:
		dcc_plb_ops.v2 = (struct stub_ops_v2) {
			.magic = magic,
			.version = version,
			.ops_size = ops_size,
			.state_size = state_size,
			.owner = THIS_MODULE,
			.update_state = stub_update_state,
			.check_rehash = stub_sk,
			.upon_rto = stub_sk,
		};
		break;
	default:
		pr_err("layout=%u: 1 or 2\n", layout);
		return -EINVAL;
	}
	pr_info("exporting a layout %u dcc_plb_ops (magic %#x version %u ops %u state %u)\n",
		layout, magic, version, ops_size, state_size);
	return 0;
}

static void __exit stub_exit(void)
{
}

module_init(stub_init);
module_exit(stub_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("selftest stand-in for tcp_plb with a chosen interface");
