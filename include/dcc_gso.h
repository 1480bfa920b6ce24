/* SPDX-License-Identifier: GPL-2.0 */
/*
 * GSO serialization inside a delay sample: which bytes of a send burst
 * left the NIC ahead of the acknowledged one, and their serialization
 * time, so that the delay-based modules (tcp_swift, tcp_timely) judge the
 * network and not the sender's own NIC.  The kernel glue is
 * dcc_tstamp_link.h (dcc_ts_sock_split()), one copy for every module.
 *
 * No kernel dependencies: the same code runs in the modules and in the
 * userspace unit tests (tests/test_gso.c).
 *
 * The problem.  TCP's RTT sample for an ACK (rate_sample.rtt_us) runs from
 * the departure stamp of the newest acknowledged skb (skb_mstamp_ns, set
 * once when the skb is handed to the device) to the ACK's processing.
 * With GSO/TSO one skb holds up to 44 packets (64 KB), which the NIC puts
 * on the wire back to back after that stamp; when an ACK covers only part
 * of the skb, tcp_tso_acked() trims the acknowledged bytes off its head
 * and the rest keeps the stamp of the first byte.  So the ACK of the k-th
 * packet carries the serialization of the k - 1 packets before it: up to
 * 64 KB / 10 Gbit/s = 52 us, twice Swift's base target.  A sender that
 * stamped each packet at its own departure (the paper's NIC transmit
 * stamps) would not see it.
 *
 * A burst.  The bytes that share one departure stamp (in microseconds):
 * one skb, its fragments after a split, or the skbs TCP sent in the same
 * microsecond; they are contiguous in sequence space.  For an ACK whose
 * newest acknowledged byte (snd_una - 1) lies in a burst that began at
 * origin:
 *
 *	burst bytes = snd_una - origin         (through the ACK point)
 *	ahead       = burst bytes - one packet (left the NIC before the
 *	                                        newest acknowledged packet)
 *	correction  = ahead * 8 / line rate    (us; Mbit/s)
 *
 * and the sample's fabric delay is reduced by the correction (at least 1
 * us is left).  The newest packet's own serialization stays in the sample,
 * as it does for a packet sent alone.
 *
 * The origin of the burst is lost once the stack trims the skb, so it is
 * tracked: after each ACK the glue records the burst at the head of the
 * retransmit queue (low 16 bits of its stamp and of its origin, one u32):
 *  - the record already names the head's burst (the head was partly
 *    acknowledged, now or before): kept;
 *  - otherwise the head begins a burst: recorded from its sequence.
 * A sample is corrected only when the record names the burst of the
 * sample's departure stamp.  Whatever cannot be told this way gives no
 * correction (the sample as before), never a larger one:
 *  - a head trimmed while no record named it (the first ACK of a
 *    connection, an ACK crossing into a burst that was not the head,
 *    after a SACK episode) is recorded from its trimmed sequence: too
 *    little ahead;
 *  - SACKed data outstanding: the sample may be the SACK's, whose bytes
 *    are not at snd_una; no correction, the record is dropped;
 *  - bursts of more than 64 KB (BIG TCP): the 16-bit offsets could alias;
 *    no correction;
 *  - two bursts whose stamps differ by a multiple of 65.536 ms are taken
 *    for one; the burst-size bound below still caps the error at one
 *    burst's serialization.
 *
 * The rate.  The packets of a burst leave at the NIC's line rate, which is
 * what is taken out; the module's line_rate_mbps (the NIC's speed).  Not
 * the pacing or delivery rate: they are the flow's share, lower than the
 * line rate when the bottleneck is shared, and would subtract more than
 * the NIC took.  Where a burst meets a slower bottleneck its packets queue
 * there behind each other; that is queueing in the network, which a
 * per-packet departure stamp would show as well, and it stays in the
 * sample.  A line_rate_mbps below the NIC's speed over-corrects (by
 * ahead * 8 * (1/set - 1/true)), one above it corrects too little.
 */
#ifndef _DCC_GSO_H
#define _DCC_GSO_H

#include "dcc_fixed.h"

/* Largest burst the 16-bit record can track: a legacy GSO skb. */
#define DCC_GSO_MAX_BURST	65535U

/* The record: low 16 bits of a burst's stamp (us) and of its origin. */
static inline u32 dcc_gso_rec(u32 stamp_us, u32 origin)
{
	return ((u32)(u16)stamp_us << 16) | (u16)origin;
}

static inline bool dcc_gso_rec_names(u32 rec, u32 stamp_us)
{
	return rec && (u16)(rec >> 16) == (u16)stamp_us;
}

/* What the glue knows after an ACK (TCP's state after it). */
struct dcc_gso_ack {
	u32 rec;		/* record kept after the previous ACK, 0: none */
	u32 dep_us;		/* the sample's departure: now - rtt (us) */
	u32 snd_una;		/* after the ACK */
	u32 head_stamp_us;	/* head of the retransmit queue: stamp, us */
	u32 head_seq;		/* its first unacknowledged byte */
	u32 head_end;		/* its end_seq */
	bool has_sample;	/* an RTT sample to trust (Karn) */
	bool has_head;		/* the retransmit queue is not empty */
	bool sacked;		/* SACKed data outstanding */
	bool big;		/* bursts above DCC_GSO_MAX_BURST possible */
};

/*
 * Track the head's burst across an ACK.  Returns the bytes of the
 * sample's burst through the ACK point (0: unknown, no correction) and
 * stores the record to keep in *rec.
 */
static inline u32 dcc_gso_track(const struct dcc_gso_ack *a, u32 *rec)
{
	u32 burst = 0, off;

	*rec = 0;
	if (a->sacked || a->big)
		return 0;
	if (a->has_sample && dcc_gso_rec_names(a->rec, a->dep_us)) {
		off = (u16)(a->snd_una - (u16)a->rec);
		/*
		 * Partly acknowledged: the rest is in the same burst, which
		 * cannot be longer than a GSO skb.
		 */
		if (a->has_head && a->head_stamp_us == a->dep_us &&
		    (u64)off + (u32)(a->head_end - a->snd_una) >
		    DCC_GSO_MAX_BURST)
			off = 0;
		burst = off;
	}
	if (!a->has_head)
		return burst;
	/*
	 * The head's burst is the recorded one (or it aliases): kept.  Else
	 * the head begins its burst, unless it was trimmed before it was
	 * recorded: then from its trimmed sequence, less than the truth.
	 */
	if (dcc_gso_rec_names(a->rec, a->head_stamp_us))
		*rec = a->rec;
	else
		*rec = dcc_gso_rec(a->head_stamp_us, a->head_seq);
	return burst;
}

/*
 * Serialization, us, of the bytes of a burst of burst_bytes (through the
 * ACK point) that left ahead of the newest acknowledged packet (of up to
 * mss bytes), at line_mbps Mbit/s; rounded down.
 */
static inline u32 dcc_gso_ahead_us(u32 burst_bytes, u32 mss, u32 line_mbps)
{
	u32 ahead;

	if (!line_mbps || burst_bytes <= mss)
		return 0;
	ahead = burst_bytes - mss;
	return (u32)(((u64)ahead * 8) / line_mbps);
}

/* A fabric delay without the correction; at least 1 us is left. */
static inline u32 dcc_gso_correct(u32 fabric_us, u32 ahead_us)
{
	if (!fabric_us)
		return 0;
	return fabric_us > ahead_us ? fabric_us - ahead_us : 1;
}

#endif /* _DCC_GSO_H */
