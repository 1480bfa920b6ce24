// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of include/dcc_gso.h: the serialization of a GSO burst's
 * bytes ahead of the acknowledged packet, taken out of the delay sample.
 *
 * A small model of TCP's retransmit queue plays what the stack does: skbs
 * of several packets leave with one departure stamp each, the NIC puts
 * their packets on the wire back to back at the line rate, the path adds
 * a fixed delay, and each ACK's RTT sample runs from the departure stamp
 * of the newest acknowledged skb (which tcp_tso_acked() trims but does
 * not restamp).  The glue's steps (dcc_tstamp_link.h) are repeated here
 * on the model: track the head's burst, correct the sample.
 */
#include "dcc_test.h"
#include "dcc_gso.h"

#define MSS		1448U
#define LINE_MBPS	10000U		/* 10 Gbit/s */
#define BASE_US		20U		/* path delay, excluding serialization */

struct skb {
	u32 orig, seq, end, stamp_us;	/* orig: seq before trimming */
};

struct model {
	struct skb q[64];	/* retransmit queue, q[head..n) */
	unsigned int head, n;
	u32 snd_una, snd_nxt;
	u32 rec;		/* the glue's record (tp->snd_cwnd_cnt) */
	bool sacked;
};

/* Send one skb of pkts packets at stamp_us. */
static void send_skb(struct model *m, u32 pkts, u32 stamp_us)
{
	struct skb *s = &m->q[m->n++];

	s->orig = m->snd_nxt;
	s->seq = m->snd_nxt;
	s->end = m->snd_nxt + pkts * MSS;
	s->stamp_us = stamp_us;
	m->snd_nxt = s->end;
}

/* When the last byte before seq left the NIC, in ns (back to back). */
static u64 wire_done_ns(const struct model *m, u32 seq)
{
	unsigned int i;

	for (i = 0; i < m->n; i++) {
		const struct skb *s = &m->q[i];

		if (seq > s->orig && seq <= s->end)
			return (u64)s->stamp_us * 1000 +
			       (u64)(seq - s->orig) * 8 * 1000 / LINE_MBPS;
	}
	fail_msg("seq %u not sent", seq);
	return 0;
}

/*
 * A cumulative ACK up to ack: the stack's sample (departure of the newest
 * acknowledged skb), then the glue's correction.  Returns the corrected
 * delay; *raw the sample as TCP gives it.
 */
static u32 ack(struct model *m, u32 ack_seq, u32 *raw)
{
	u64 now_ns = wire_done_ns(m, ack_seq) + (u64)BASE_US * 1000;
	u32 now_us = (u32)(now_ns / 1000), dep = 0, rtt, burst, rec;
	struct dcc_gso_ack a = { .rec = m->rec };
	unsigned int i;

	/* tcp_clean_rtx_queue(): free or trim, remember the newest stamp. */
	for (i = m->head; i < m->n && m->q[i].seq < ack_seq; i++)
		dep = m->q[i].stamp_us;
	while (m->head < m->n && m->q[m->head].end <= ack_seq)
		m->head++;
	if (m->head < m->n && m->q[m->head].seq < ack_seq)
		m->q[m->head].seq = ack_seq;	/* tcp_trim_head() */
	m->snd_una = ack_seq;
	rtt = now_us - dep;
	*raw = rtt;

	a.dep_us = dep;
	a.snd_una = m->snd_una;
	a.has_sample = true;
	a.sacked = m->sacked;
	a.has_head = m->head < m->n;
	if (a.has_head) {
		a.head_stamp_us = m->q[m->head].stamp_us;
		a.head_seq = m->q[m->head].seq;
		a.head_end = m->q[m->head].end;
	}
	burst = dcc_gso_track(&a, &rec);
	m->rec = rec;
	return dcc_gso_correct(rtt, dcc_gso_ahead_us(burst, MSS, LINE_MBPS));
}

/* One packet's serialization at the line rate, rounded up, us. */
#define PKT_US	((MSS * 8 + LINE_MBPS - 1) / LINE_MBPS)

/*
 * The case: a 44-packet skb acknowledged two packets at a time.
 * Uncorrected, the last ACK carries 43 packets of serialization (~50 us,
 * twice Swift's 25 us base target); corrected, every sample is the path
 * plus at most one packet and rounding.
 */
static void test_partly_acked_skb(void **state)
{
	struct model m = { .snd_una = 1000, .snd_nxt = 1000 };
	u32 raw, got, k, worst_raw = 0;

	(void)state;
	/* Steady state: an earlier skb, acknowledged, left a record. */
	send_skb(&m, 1, 4990);
	send_skb(&m, 44, 5000);
	send_skb(&m, 44, 5060);
	got = ack(&m, 1000 + MSS, &raw);
	for (k = 2; k <= 88; k += 2) {
		got = ack(&m, 1000 + MSS + k * MSS, &raw);
		worst_raw = raw > worst_raw ? raw : worst_raw;
		assert_between(got, BASE_US, BASE_US + PKT_US + 1);
	}
	assert_true(worst_raw >= BASE_US + 50);
	assert_int_equal(m.snd_una, m.snd_nxt);
}

/*
 * ACKs of 3 packets cross the boundaries of 44-packet skbs: the ACK that
 * finishes one skb and trims the next is measured from the next skb's
 * stamp, whose origin (the previous skb's end) is not recorded; it is not
 * corrected, and the rest of that skb is corrected from the crossing
 * ACK's point on, which leaves at most that ACK's bytes in (too little
 * taken out, never too much).
 */
static void test_ack_crosses_burst(void **state)
{
	struct model m = { .snd_una = 7, .snd_nxt = 7 };
	u32 raw, got, k;

	(void)state;
	send_skb(&m, 1, 90);
	send_skb(&m, 44, 100);
	send_skb(&m, 44, 160);
	send_skb(&m, 44, 220);
	got = ack(&m, 7 + MSS, &raw);
	for (k = 3; k <= 132; k += 3) {
		got = ack(&m, 7 + MSS + k * MSS, &raw);
		assert_true(got <= raw);
		assert_between(got, BASE_US, BASE_US + 3 * PKT_US + 1);
		if (k < 44)	/* the first skb, no crossing yet */
			assert_between(got, BASE_US, BASE_US + PKT_US + 1);
	}
}

/* A stretch ACK of a whole skb: the skb's other packets are taken out. */
static void test_stretch_ack(void **state)
{
	struct model m = { .snd_una = 0, .snd_nxt = 0 };
	u32 raw, got;

	(void)state;
	send_skb(&m, 44, 100);
	send_skb(&m, 44, 160);
	send_skb(&m, 44, 220);
	/* First ACK: no record yet, the sample as it is. */
	got = ack(&m, 44 * MSS, &raw);
	assert_int_equal(got, raw);
	got = ack(&m, 88 * MSS, &raw);
	assert_true(raw >= BASE_US + 49);
	assert_between(got, BASE_US, BASE_US + PKT_US + 1);
	got = ack(&m, 132 * MSS, &raw);
	assert_between(got, BASE_US, BASE_US + PKT_US + 1);
}

/* One packet per skb (no GSO): nothing is ever taken out. */
static void test_no_gso(void **state)
{
	struct model m = { .snd_una = 0, .snd_nxt = 0 };
	u32 raw, got, k;

	(void)state;
	for (k = 0; k < 20; k++)
		send_skb(&m, 1, 100 + k * 2);
	for (k = 1; k <= 20; k++) {
		got = ack(&m, k * MSS, &raw);
		assert_int_equal(got, raw);
	}
}

/*
 * What cannot be told gives no correction, never a larger one: a head
 * already trimmed when tracking starts is recorded from its trimmed
 * sequence (less ahead than the truth); SACKed data drops the record.
 */
static void test_unknown_never_overcorrects(void **state)
{
	struct model m = { .snd_una = 0, .snd_nxt = 0 };
	u32 raw, got, k, truth;

	(void)state;
	send_skb(&m, 44, 100);
	/* Trimmed to packet 20 while nothing was recorded. */
	m.q[0].seq = 20 * MSS;
	m.snd_una = 20 * MSS;
	for (k = 22; k <= 44; k += 2) {
		got = ack(&m, k * MSS, &raw);
		truth = raw - (k - 1) * MSS * 8 / LINE_MBPS;
		assert_true(got >= truth);
		assert_true(got <= raw);
	}

	m = (struct model){ .snd_una = 0, .snd_nxt = 0 };
	send_skb(&m, 44, 100);
	got = ack(&m, 2 * MSS, &raw);
	assert_int_not_equal(m.rec, 0);
	m.sacked = true;
	got = ack(&m, 4 * MSS, &raw);
	assert_int_equal(got, raw);
	assert_int_equal(m.rec, 0);
	m.sacked = false;
	/* The trimmed head is recorded again from where it is now. */
	got = ack(&m, 6 * MSS, &raw);
	assert_int_equal(got, raw);
	got = ack(&m, 8 * MSS, &raw);
	assert_true(got < raw);
	assert_true(got >= raw - 7 * MSS * 8 / LINE_MBPS);
}

/*
 * A record whose stamp names the sample but whose offset claims more than
 * a GSO skb can hold (aliasing) is not used.
 */
static void test_alias_bound(void **state)
{
	struct dcc_gso_ack a = {
		.rec = dcc_gso_rec(5000, 0), .dep_us = 5000 + 65536,
		.snd_una = 60000, .has_sample = true, .has_head = true,
		.head_stamp_us = 5000 + 65536, .head_seq = 60000,
		.head_end = 60000 + 20000,
	};
	u32 rec;

	(void)state;
	assert_int_equal(dcc_gso_track(&a, &rec), 0);
	/* Within a GSO skb it is used (the stamps alias: bounded error). */
	a.head_end = 60000 + 5000;
	assert_int_equal(dcc_gso_track(&a, &rec), 60000);
	/* BIG TCP: no tracking at all. */
	a.big = true;
	assert_int_equal(dcc_gso_track(&a, &rec), 0);
	assert_int_equal(rec, 0);
}

static void test_arithmetic(void **state)
{
	(void)state;
	/* 43 packets ahead at 10 Gbit/s: 49.8 us, rounded down. */
	assert_int_equal(dcc_gso_ahead_us(44 * MSS, MSS, 10000), 49);
	assert_int_equal(dcc_gso_ahead_us(44 * MSS, MSS, 100), 4981);
	assert_int_equal(dcc_gso_ahead_us(MSS, MSS, 10000), 0);
	assert_int_equal(dcc_gso_ahead_us(100, MSS, 10000), 0);
	assert_int_equal(dcc_gso_ahead_us(44 * MSS, MSS, 0), 0);
	/* Largest burst at 1 Mbit/s: no overflow. */
	assert_int_equal(dcc_gso_ahead_us(DCC_GSO_MAX_BURST, 0, 1),
			 DCC_GSO_MAX_BURST * 8);
	assert_int_equal(dcc_gso_correct(100, 30), 70);
	assert_int_equal(dcc_gso_correct(30, 30), 1);
	assert_int_equal(dcc_gso_correct(10, 30), 1);
	assert_int_equal(dcc_gso_correct(0, 30), 0);
	assert_int_equal(dcc_gso_correct(100, 0), 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_partly_acked_skb),
		cmocka_unit_test(test_ack_crosses_burst),
		cmocka_unit_test(test_stretch_ack),
		cmocka_unit_test(test_no_gso),
		cmocka_unit_test(test_unknown_never_overcorrects),
		cmocka_unit_test(test_alias_bound),
		cmocka_unit_test(test_arithmetic),
	};

	return cmocka_run_group_tests_name("dcc_gso", tests, NULL, NULL);
}
