/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Delay from skb timestamps: the clock-domain rules and the split of an RTT
 * sample into fabric and local endpoint delay.  Shared by every delay-based
 * module (tcp_swift, tcp_timely); the kernel glue is dcc_tstamp_link.h.
 *
 * No kernel dependencies: the same code runs in the modules and in the
 * userspace unit tests (tests/test_tstamp.c).
 *
 * Times of one ACK, all on TCP's clock (CLOCK_MONOTONIC, tcp_mstamp):
 *
 *   departure  the acked segment left: skb_mstamp_ns (the EDT stamp),
 *              = now - rtt for the ACK's RTT sample
 *   rx         the ACK reached the host: its NIC hardware stamp or the
 *              stack's software receive stamp, moved onto TCP's clock
 *   now        TCP starts processing the ACK (tcp_mstamp)
 *
 *   fabric delay   = rx - departure   (network, remote host, our NIC)
 *   endpoint delay = now - rx         (our interrupt moderation, softirq
 *                                      backlog, socket backlog while the
 *                                      application holds the lock)
 *
 * Clock domains.  A receive stamp is in the clock that took it: software
 * stamps in CLOCK_REALTIME, hardware stamps in the NIC's clock (PHC).
 * A stamp is moved onto TCP's clock only through its age, measured in its
 * own domain at the moment the ACK is seen:
 *	rx = local_now - (domain_now - stamp)
 * which needs nothing but a reading of the stamp's clock taken together
 * with TCP's clock, and is exact for REALTIME stamps (a step of the
 * realtime clock between the two readings shows up as a stamp from the
 * future or from too long ago, and is refused).  A hardware stamp can be
 * related only when the PHC is kept in step with CLOCK_REALTIME or
 * CLOCK_TAI (phc2sys, ptp4l); the age then is its age to within the sync
 * error.  A stamp whose age in every candidate domain is negative or above
 * DCC_TS_MAX_AGE_NS is from an unrelated clock (a free-running PHC, a
 * driver cookie) and is never used: the sample then falls back to the next
 * source the mode allows, or to no split (the whole RTT is fabric delay,
 * as without timestamps).  Domains are never mixed: each stamp is compared
 * only with a reading of its own clock.
 */
#ifndef _DCC_TSTAMP_H
#define _DCC_TSTAMP_H

#include "dcc_fixed.h"

/* The tstamp= parameter: which receive stamps to use. */
enum dcc_ts_mode {
	DCC_TS_MODE_OFF,	/* none: delay is the whole RTT */
	DCC_TS_MODE_AUTO,	/* software; a PHC is trusted only on request */
	DCC_TS_MODE_HW,		/* hardware only (no software stamps enabled) */
	DCC_TS_MODE_SW,		/* software only */
	DCC_TS_MODE_MAX
};

/* Where a stashed receive stamp came from. */
enum dcc_ts_src {
	DCC_TS_SRC_NONE,
	DCC_TS_SRC_SW,		/* skb->tstamp, CLOCK_REALTIME */
	DCC_TS_SRC_HW,		/* NIC stamp, PHC synced to REALTIME or TAI */
};

/* What became of one RTT sample (counters). */
enum dcc_ts_verdict {
	DCC_TS_V_HW,		/* split on a hardware stamp */
	DCC_TS_V_SW,		/* split on a software stamp */
	DCC_TS_V_MISSING,	/* no stamp for this ACK: no split */
	DCC_TS_V_REJECTED,	/* a stamp broke a rule: no split */
	DCC_TS_V_MAX
};

/*
 * A stamp older than this when its ACK is processed is from another clock
 * (or a clock stepped in between); so is one from the future.
 */
#define DCC_TS_MAX_AGE_NS	1000000000ULL

/*
 * The probe stashes the stamp just before TCP takes tcp_mstamp for the
 * same ACK: a stash taken longer ago than this, or after it, belongs to
 * another ACK.
 */
#define DCC_TS_MAX_GAP_US	2000U

/*
 * The stash keeps times in 24 bits of microseconds (wrapping every 16.7 s;
 * differences up to 2^23 us = 8.4 s either way are exact), the stash must
 * fit beside the modules' state in the 104 bytes TCP gives them.
 */
#define DCC_TS_US_BITS		24
#define DCC_TS_US_MASK		((1U << DCC_TS_US_BITS) - 1)

/* now - then on the 24-bit microsecond clock, signed. */
static inline s32 dcc_ts_diff24(u32 now, u32 then)
{
	return (s32)((now - then) << (32 - DCC_TS_US_BITS)) >>
	       (32 - DCC_TS_US_BITS);
}

/* Readings of the clocks, taken together when an ACK is seen. */
struct dcc_ts_clocks {
	u64 local_ns;		/* TCP's clock (CLOCK_MONOTONIC) */
	u64 real_ns;		/* CLOCK_REALTIME */
	u64 tai_ns;		/* CLOCK_TAI */
};

/* An ACK's raw receive stamps, 0 when absent. */
struct dcc_ts_raw {
	u64 sw_ns;		/* software, CLOCK_REALTIME */
	u64 hw_ns;		/* hardware, the NIC's clock */
};

/*
 * Per-connection stash, in the congestion control's private area: written
 * by the probe for each ACK, consumed by the next cong_control.  8 bytes.
 */
struct dcc_ts_stash {
	u32 rx_us:24;		/* the ACK's receive time, TCP's clock */
	u32 src:2;		/* enum dcc_ts_src; NONE once consumed */
	u32 rejected:1;		/* the ACK had a stamp, but none usable */
	u32 held:2;		/* glue: references this socket holds */
	u16 ack_lo;		/* low bits of its acknowledgment number */
	u16 probe_lo;		/* low bits of when the probe saw it, us */
};

/* Delay of one RTT sample, split. */
struct dcc_ts_split {
	u32 fabric_us;		/* departure to arrival (the whole RTT if no split) */
	u32 ep_us;		/* arrival to processing (0 if no split) */
	u32 gso_bytes;		/* glue: the GSO burst through the ACK point,
				 * 0 if unknown (dcc_gso.h)
				 */
	u32 gso_us;		/* glue: its serialization taken out of fabric_us */
};

/*
 * Move a stamp from its domain onto the local clock: stamp_ns read against
 * dom_now_ns (a reading of the stamp's clock taken with local_now_ns).
 * False when the stamp is missing, from the future, older than max_age_ns
 * or older than the local clock itself.
 */
static inline bool dcc_ts_rebase(u64 stamp_ns, u64 dom_now_ns, u64 local_now_ns,
				 u64 max_age_ns, u64 *local_ns)
{
	u64 age;

	if (!stamp_ns || stamp_ns > dom_now_ns)
		return false;
	age = dom_now_ns - stamp_ns;
	if (age > max_age_ns || age > local_now_ns)
		return false;
	*local_ns = local_now_ns - age;
	return true;
}

/* A hardware stamp, from a PHC synced to CLOCK_REALTIME or CLOCK_TAI. */
static inline bool dcc_ts_rebase_hw(u64 hw_ns, const struct dcc_ts_clocks *c,
				    u64 *local_ns)
{
	return dcc_ts_rebase(hw_ns, c->real_ns, c->local_ns,
			     DCC_TS_MAX_AGE_NS, local_ns) ||
	       dcc_ts_rebase(hw_ns, c->tai_ns, c->local_ns,
			     DCC_TS_MAX_AGE_NS, local_ns);
}

/*
 * The ACK's receive time on the local clock, from the stamps the mode
 * allows: the hardware stamp (hardware only: a NIC clock is trusted only
 * when the administrator says it is kept in step with the system clock),
 * the software one (auto, software).  Returns the source used, DCC_TS_SRC_NONE if none
 * is usable; *rejected says a stamp was present but unusable.
 */
static inline enum dcc_ts_src dcc_ts_pick(unsigned int mode,
					  const struct dcc_ts_raw *raw,
					  const struct dcc_ts_clocks *c,
					  u64 *rx_ns, bool *rejected)
{
	bool hw = mode == DCC_TS_MODE_HW;
	bool sw = mode == DCC_TS_MODE_AUTO || mode == DCC_TS_MODE_SW;

	*rejected = false;
	if (hw && raw->hw_ns) {
		if (dcc_ts_rebase_hw(raw->hw_ns, c, rx_ns))
			return DCC_TS_SRC_HW;
		*rejected = true;
	}
	if (sw && raw->sw_ns) {
		if (dcc_ts_rebase(raw->sw_ns, c->real_ns, c->local_ns,
				  DCC_TS_MAX_AGE_NS, rx_ns))
			return DCC_TS_SRC_SW;
		*rejected = true;
	}
	return DCC_TS_SRC_NONE;
}

/* The probe's side: record one ACK's stamps in the stash. */
static inline void dcc_ts_stash_ack(struct dcc_ts_stash *st, unsigned int mode,
				    const struct dcc_ts_raw *raw,
				    const struct dcc_ts_clocks *c, u32 ack_seq)
{
	bool rejected;
	u64 rx_ns = 0;
	enum dcc_ts_src src = dcc_ts_pick(mode, raw, c, &rx_ns, &rejected);

	st->src = src;
	st->rejected = rejected;
	st->rx_us = (u32)dcc_div_u64(rx_ns, 1000) & DCC_TS_US_MASK;
	st->probe_lo = (u16)dcc_div_u64(c->local_ns, 1000);
	st->ack_lo = (u16)ack_seq;
}

/*
 * The congestion control's side: split the ACK's RTT sample rtt_us (taken
 * at now_us, the ACK's tcp_mstamp; snd_una is the socket's after the ACK,
 * i.e. the ACK's acknowledgment number) with the stash, and consume it.
 * Without a usable stamp the whole sample is fabric delay.  Refused:
 *  - a stash of another ACK (other acknowledgment number, or taken after
 *    now or more than DCC_TS_MAX_GAP_US before it);
 *  - a receive time after processing (out of order);
 *  - a receive time before the segment left (ep > rtt: clocks not
 *    related after all, or an RTT from the coarse TCP timestamp option).
 * The microsecond clocks may wrap between the readings.
 */
static inline enum dcc_ts_verdict dcc_ts_split(struct dcc_ts_stash *st,
					       u32 now_us, u32 snd_una,
					       u32 rtt_us,
					       struct dcc_ts_split *out)
{
	bool same = st->ack_lo == (u16)snd_una;
	unsigned int src = st->src;
	s32 gap, ep;

	st->src = DCC_TS_SRC_NONE;
	out->fabric_us = rtt_us;
	out->ep_us = 0;
	out->gso_bytes = 0;
	out->gso_us = 0;
	if (src == DCC_TS_SRC_NONE || !same) {
		bool rejected = src == DCC_TS_SRC_NONE && st->rejected && same;

		st->rejected = 0;
		return rejected ? DCC_TS_V_REJECTED : DCC_TS_V_MISSING;
	}
	gap = (s16)(u16)(now_us - st->probe_lo);
	ep = dcc_ts_diff24(now_us, st->rx_us);
	if (gap < 0 || (u32)gap > DCC_TS_MAX_GAP_US || ep < 0 ||
	    (u32)ep > rtt_us)
		return DCC_TS_V_REJECTED;
	out->ep_us = (u32)ep;
	out->fabric_us = rtt_us - (u32)ep;
	return src == DCC_TS_SRC_HW ? DCC_TS_V_HW : DCC_TS_V_SW;
}

#endif /* _DCC_TSTAMP_H */
