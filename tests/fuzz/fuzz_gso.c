// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness of the GSO burst tracker (include/dcc_gso.h).  The
 * input drives a model of TCP's retransmit queue: skbs of any size up to
 * a GSO skb, sent with departure stamps that step forward by 0 or more
 * microseconds (equal stamps make one burst), cumulative ACKs of any
 * number of bytes (trimming the head, which keeps its stamp), ACKs with
 * SACKed data outstanding, ACKs without a sample, records dropped (TCP
 * zeroing snd_cwnd_cnt).  After every ACK:
 *  - the tracker never claims more bytes than the true burst through the
 *    ACK point (snd_una less the first byte of the run of bytes with the
 *    sample's stamp): no over-correction;
 *  - a known burst is at most DCC_GSO_MAX_BURST bytes;
 *  - the correction leaves at least 1 us of a sample, never more than it.
 * Stamps stay below 65536 us per run (the documented aliasing of two
 * bursts 65.536 ms apart is out of scope), and the model restarts there.
 */
#include "fuzz.h"

#include "dcc_gso.h"

#define FZ_MSS		1448U
#define FZ_QLEN		64

struct fz_skb {
	u32 orig, seq, end, stamp;
};

struct fz_model {
	struct fz_skb q[FZ_QLEN];
	unsigned int head, n;
	u32 una, nxt, stamp, rec;
};

/* First byte of the run of bytes (acked or not) sharing seq's stamp. */
static u32 fz_burst_origin(const struct fz_model *m, unsigned int i)
{
	while (i > 0 && m->q[i - 1].stamp == m->q[i].stamp &&
	       m->q[i - 1].end == m->q[i].orig)
		i--;
	return m->q[i].orig;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_model m;
	struct fz f;

	fz_init(&f, data, size);
	memset(&m, 0, sizeof(m));
	m.una = m.nxt = fz_u32(&f);
	m.stamp = fz_range(&f, 1, 1000);
	while (fz_more(&f) && f.ev < 4096) {
		u8 op = fz_u8(&f);

		f.ev++;
		if ((op & 3) != 3) {
			/* Send an skb. */
			struct fz_skb *s;
			u32 len;

			if (m.n == FZ_QLEN || m.stamp > 60000)
				break;
			len = fz_bool(&f) ? fz_range(&f, 1, 45) * FZ_MSS :
					    fz_range(&f, 1, 65000);
			m.stamp += fz_bool(&f) ? 0 : fz_range(&f, 1, 200);
			s = &m.q[m.n++];
			s->orig = s->seq = m.nxt;
			s->end = m.nxt + len;
			s->stamp = m.stamp;
			m.nxt = s->end;
		} else {
			/* A cumulative ACK of 1..all outstanding bytes. */
			struct dcc_gso_ack a = { 0 };
			u32 out = m.nxt - m.una, adv, ack, burst, rec, dep = 0;
			u32 truth = 0, rtt, ahead, got;
			unsigned int i, newest = 0;
			bool sample = fz_u8(&f) % 8 != 0;

			if (!out)
				continue;
			if (fz_u8(&f) % 16 == 0)
				m.rec = 0;	/* TCP zeroed the counter */
			adv = fz_range(&f, 1, out);
			ack = m.una + adv;
			for (i = m.head; i < m.n && m.q[i].seq - m.una < adv;
			     i++) {
				dep = m.q[i].stamp;
				newest = i;
			}
			truth = ack - fz_burst_origin(&m, newest);
			while (m.head < m.n && m.q[m.head].end - m.una <= adv)
				m.head++;
			if (m.head < m.n && m.q[m.head].seq != ack &&
			    m.q[m.head].seq - m.una < adv)
				m.q[m.head].seq = ack;
			m.una = ack;

			a.rec = m.rec;
			a.dep_us = dep;
			a.snd_una = m.una;
			a.has_sample = sample;
			a.sacked = fz_u8(&f) % 16 == 0;
			a.has_head = m.head < m.n;
			if (a.has_head) {
				a.head_stamp_us = m.q[m.head].stamp;
				a.head_seq = m.q[m.head].seq;
				a.head_end = m.q[m.head].end;
			}
			burst = dcc_gso_track(&a, &rec);
			m.rec = rec;
			FZ_CHECK(&f, burst <= DCC_GSO_MAX_BURST, "burst %u",
				 burst);
			FZ_CHECK(&f, !burst || sample, "burst %u no sample",
				 burst);
			FZ_CHECK(&f, burst <= truth,
				 "burst %u > true %u (ack %u dep %u)", burst,
				 truth, ack, dep);
			rtt = fz_u32_edge(&f);
			ahead = dcc_gso_ahead_us(burst, FZ_MSS,
						 fz_range(&f, 1, 1000000));
			got = dcc_gso_correct(rtt, ahead);
			FZ_CHECK(&f, got <= rtt && (!rtt || got >= 1),
				 "rtt %u ahead %u -> %u", rtt, ahead, got);
		}
	}
	return 0;
}
