/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-destination RTT floors in the kernel (kernel only): the table of
 * slots the delay-based modules keep struct dcc_floor in (dcc_basedelay.h),
 * and its lock-free reads and updates.  One copy of the code serves every
 * module; each module has its own table (a module's connections share it,
 * and a module's floors are measured the way its core measures delay).
 *
 * A table of DCC_FLOOR_SLOTS slots (24 KB) indexed by a hash of the peer's
 * address and network namespace (dcc_floor_key()).  A slot is read on
 * every ACK and written only when it changes (a new minimum, the window
 * expired, or another destination takes it over), so its cache line stays
 * shared.  Updates race without a lock: a lost update costs one sample.  A
 * takeover clears the key first and sets it last, and a reader that sees
 * the key change under it takes the slot for empty, so no connection uses
 * another destination's estimate.
 *
 * Use:
 *	static struct dcc_floor my_floors[DCC_FLOOR_SLOTS];
 *	key = dcc_floor_key(sk);
 *	slot = dcc_floor_slot(my_floors, key);
 *	f = dcc_floor_read(slot);			(dcc_floor_of(&f, key))
 *	floor = dcc_floor_sample(slot, f, key, win_us, delay_us,
 *				 ack_delayed, lift_us, noise_us, still_us,
 *				 noisy, go, now_us, &raised);
 * and, for a module with a noise estimate per destination (the floor
 * raised when the noise stops):
 *	static struct dcc_noise my_noises[DCC_FLOOR_SLOTS];
 *	noise = dcc_noise_sample(my_noises, key, delay_us, use, gate_us,
 *				 &end_us, &still_us, &low_us);
 */
#ifndef _DCC_FLOOR_LINK_H
#define _DCC_FLOOR_LINK_H

#include <linux/hash.h>
#include <linux/jhash.h>
#include <net/sock.h>

#include "dcc_basedelay.h"

#define DCC_FLOOR_BITS		10
#define DCC_FLOOR_SLOTS		BIT(DCC_FLOOR_BITS)

/* dcc_floor_sample()'s *raised. */
#define DCC_FLOOR_RAISED	BIT(0)	/* the floor returned was raised when
					 * the noise stopped and has not
					 * expired since (dcc_floor_raise(),
					 * dcc_floor_watch())
					 */
#define DCC_FLOOR_RAISED_NOW	BIT(1)	/* ... by this sample */

/* The destination key of sk (never 0). */
static inline u32 dcc_floor_key(const struct sock *sk)
{
	u32 seed = net_hash_mix(sock_net(sk)), h;

#if IS_ENABLED(CONFIG_IPV6)
	if (sk->sk_family == AF_INET6 &&
	    !ipv6_addr_v4mapped(&sk->sk_v6_daddr))
		h = jhash2((const u32 *)&sk->sk_v6_daddr, 4, seed);
	else
#endif
		h = jhash_1word((__force u32)sk->sk_daddr, seed);
	return h ? h : 1;
}

/* The slot of destination key in a table of DCC_FLOOR_SLOTS. */
static inline u32 dcc_floor_index(u32 key)
{
	return hash_32(key, DCC_FLOOR_BITS);
}

static inline struct dcc_floor *dcc_floor_slot(struct dcc_floor *table,
					       u32 key)
{
	return &table[dcc_floor_index(key)];
}

/* A copy of *slot; key 0 if another destination was taking it over. */
static inline struct dcc_floor dcc_floor_read(const struct dcc_floor *slot)
{
	struct dcc_floor f;

	f.key = READ_ONCE(slot->key);
	/* Key before the estimate: pairs with dcc_floor_sample()'s
	 * second smp_wmb().
	 */
	smp_rmb();
	f.min_us = READ_ONCE(slot->min_us);
	f.stamp_us = READ_ONCE(slot->stamp_us);
	f.quiet_us = READ_ONCE(slot->quiet_us);
	f.quiet_n = READ_ONCE(slot->quiet_n);
	f.wide_4us = READ_ONCE(slot->wide_4us);
	f.raised = READ_ONCE(slot->raised);
	f.repaired = READ_ONCE(slot->repaired);
	f.low_us = READ_ONCE(slot->low_us);
	f.low_prev_us = READ_ONCE(slot->low_prev_us);
	f.low_at = READ_ONCE(slot->low_at);
	/* Estimate before the key's re-read: pairs with the first smp_wmb(). */
	smp_rmb();
	if (READ_ONCE(slot->key) != f.key)
		f.key = 0;
	return f;
}

/*
 * Fold a delay sample (0: none) of destination key into its slot, f being
 * the slot as dcc_floor_read() returned it, the floor kept over win_us
 * (dcc_floor_update_key()), and raise the floor by at most lift_us when
 * the core's noise estimate says the noise stopped with this sample
 * (dcc_floor_raise(); 0: no raise, as for a core without one); and
 * watch for the noise's low tail left in it (dcc_floor_watch(): noise_us
 * and still_us the widths after this sample, noisy and go the core's
 * answers; 0, 0, false, false for a core without a noise estimate).
 * Returns the destination's floor (0: none); sets *raised (when not
 * NULL) to DCC_FLOOR_RAISED and DCC_FLOOR_RAISED_NOW bits.
 */
static inline u32 dcc_floor_sample(struct dcc_floor *slot, struct dcc_floor f,
				   u32 key, u32 win_us, u32 delay_us,
				   bool ack_delayed, u32 lift_us, u32 noise_us,
				   u32 still_us, bool noisy, bool go,
				   u64 now_us, u8 *raised)
{
	u32 old_key = f.key;
	bool changed = delay_us &&
		       dcc_floor_update_key(&f, win_us, key, delay_us,
					    ack_delayed, now_us);
	bool now = lift_us && f.key == key &&
		   dcc_floor_raise(&f, delay_us, lift_us, now_us);

	if (f.key == key && !ack_delayed && delay_us)
		changed |= dcc_floor_low_fold(&f, delay_us, now_us);

	if (!now && f.key == key && !ack_delayed && delay_us &&
	    (noise_us || f.wide_4us || f.quiet_n)) {
		bool rep;

		changed |= dcc_floor_watch(&f, delay_us, noise_us, still_us,
					   noisy, go, now_us, &rep);
		now = rep;
	}

	if (changed || now) {
		if (old_key != key) {
			WRITE_ONCE(slot->key, 0);
			/* Key cleared before the new estimate: pairs with
			 * dcc_floor_read()'s second smp_rmb().
			 */
			smp_wmb();
		}
		WRITE_ONCE(slot->min_us, f.min_us);
		WRITE_ONCE(slot->stamp_us, f.stamp_us);
		WRITE_ONCE(slot->quiet_us, f.quiet_us);
		WRITE_ONCE(slot->quiet_n, f.quiet_n);
		WRITE_ONCE(slot->wide_4us, f.wide_4us);
		WRITE_ONCE(slot->raised, f.raised);
		WRITE_ONCE(slot->repaired, f.repaired);
		WRITE_ONCE(slot->low_us, f.low_us);
		WRITE_ONCE(slot->low_prev_us, f.low_prev_us);
		WRITE_ONCE(slot->low_at, f.low_at);
		if (old_key != key) {
			/* New estimate before the new key: pairs with
			 * dcc_floor_read()'s first smp_rmb().
			 */
			smp_wmb();
			WRITE_ONCE(slot->key, key);
		}
	}
	if (raised)
		*raised = (f.key == key && f.raised ? DCC_FLOOR_RAISED : 0) |
			  (now ? DCC_FLOOR_RAISED_NOW : 0);
	return dcc_floor_of(&f, key);
}

/*
 * Delay noise per destination (struct dcc_bd, dcc_basedelay.h), beside its
 * RTT floor and for the same reason: every connection to the destination
 * must count from the same base.  A table of DCC_FLOOR_SLOTS slots
 * indexed like the floors' (32 KB); a slot holds one destination's
 * estimate at a time, and a destination that takes a slot over starts
 * from no noise.  Every connection to the destination feeds its samples
 * in, in the order they come; updates race without a lock, and a lost or
 * torn update costs a sample (every field is bounded).  Each module has
 * its own table, as for the floors.
 */
struct dcc_noise {
	u32 key;		/* destination (dcc_floor_key()), 0: none */
	struct dcc_bd bd;
};

/*
 * Fold a delay sample delay_us of destination key into its slot of table
 * (use: false for no sample, or one that is not noise, such as a likely
 * delayed ACK's, which holds the receiver's timer); returns the noise's
 * width, in us, and sets *end_us to the width of noise that stopped with
 * this sample (0: none), which the caller turns into the floor's lift
 * (dcc_floor_sample()'s lift_us): every end (dcc_bd_end()) for gate_us 0,
 * else only the end of noise at least gate_us wide that went on
 * (dcc_bd_end_held()); *still_us (when not NULL) to the changes'
 * width (dcc_bd_still_us(), dcc_floor_sample()'s still_us); and *low_us
 * (when not NULL) to the lowest recent sample (dcc_bd_low_us()).
 */
static inline u32 dcc_noise_sample(struct dcc_noise *table, u32 key,
				   u32 delay_us, bool use, u32 gate_us,
				   u32 *end_us, u32 *still_us, u32 *low_us)
{
	struct dcc_noise *n = &table[dcc_floor_index(key)];
	bool mine = READ_ONCE(n->key) == key;
	struct dcc_bd bd = { 0 };

	*end_us = 0;
	if (mine)
		/* racy by design (above): a torn copy costs a sample */
		bd = data_race(n->bd);
	if (use) {
		dcc_bd_sample(&bd, delay_us);
		*end_us = gate_us ? dcc_bd_end_held(&bd, gate_us) :
				    dcc_bd_end(&bd);
	}
	/* Written only when it changes, as the floors: the line stays shared. */
	if (use || !mine) {
		/* racy by design: the last writer's estimate stays */
		data_race(n->bd = bd);
		WRITE_ONCE(n->key, key);
	}
	if (still_us)
		*still_us = dcc_bd_still_us(&bd);
	if (low_us)
		*low_us = dcc_bd_low_us(&bd);
	return dcc_bd_noise_us(&bd);
}

#endif /* _DCC_FLOOR_LINK_H */
