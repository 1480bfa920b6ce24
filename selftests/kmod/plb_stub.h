/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The objects plb_stub.ko can export as dcc_plb_ops: the layouts of
 * tcp_plb's interface versions 1 and 2, written out as another tree would
 * have them (see plb_stub.c).  Not const, unlike tcp_plb's, so that the
 * stand-in's init can fill it from its parameters.
 */
#ifndef _PLB_STUB_H
#define _PLB_STUB_H

#include <linux/types.h>

struct sock;

typedef void (*stub_update_fn)(const struct sock *sk, void *st, int ratio);
typedef void (*stub_sk_fn)(struct sock *sk, void *st);

struct stub_ops_v1 {
	struct module *owner;
	stub_update_fn update_state;
	stub_sk_fn check_rehash;
	stub_sk_fn upon_rto;
};

struct stub_ops_v2 {
	u32 magic;
	u32 version;
	u32 ops_size;
	u32 state_size;
	struct module *owner;
	stub_update_fn update_state;
	stub_sk_fn check_rehash;
	stub_sk_fn upon_rto;
};

union stub_ops {
	struct stub_ops_v1 v1;
	struct stub_ops_v2 v2;
};

extern union stub_ops dcc_plb_ops;

#endif /* _PLB_STUB_H */
