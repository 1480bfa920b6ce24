// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of include/dcc_plb.h: congested-round counting, the forced
 * and idle repath rules, the pause after a retransmit timeout (with
 * jiffies wrapping), round bookkeeping with the delay and ECN signals,
 * and a randomized comparison with a straightforward reference model of
 * the same rules.
 */
#include "dcc_test.h"
#include "dcc_plb.h"

#define HZ_T 250

static const struct dcc_plb_conf defaults = {
	.enabled = 1,
	.idle_rehash_rounds = 3,
	.rehash_rounds = 12,
	.suspend_rto_sec = 60,
	.cong_thresh = 128,
};

static struct dcc_plb_state fresh(void)
{
	struct dcc_plb_state s;

	memset(&s, 0xa5, sizeof(s));	/* init must set every field */
	dcc_plb_state_init(&s, 100, 7);
	return s;
}

static void test_init(void **state)
{
	struct dcc_plb_state s = fresh();

	(void)state;
	assert_int_equal(s.pause_until, 0);
	assert_int_equal(s.consec_cong_rounds, 0);
	assert_int_equal(s.samples, 0);
	assert_int_equal(s.cong_samples, 0);
	assert_int_equal(s.flags, 0);
	assert_int_equal(s.round_weight, 0);
	assert_int_equal(s.ref_rounds, 0);
	assert_int_equal(s.round_delivered, 100);
	assert_int_equal(s.round_delivered_ce, 7);
	assert_int_equal(s.best_txhash, 0);
	assert_true(sizeof(s) <= 24);
}

static void test_update_counts_and_resets(void **state)
{
	struct dcc_plb_state s = fresh();

	(void)state;
	assert_true(dcc_plb_update(&s, &defaults, 128));	/* = K: congested */
	assert_true(dcc_plb_update(&s, &defaults, 256));
	assert_int_equal(s.consec_cong_rounds, 2);
	assert_false(dcc_plb_update(&s, &defaults, -1));	/* no signal */
	assert_int_equal(s.consec_cong_rounds, 2);
	assert_false(dcc_plb_update(&s, &defaults, 127));	/* below K */
	assert_int_equal(s.consec_cong_rounds, 0);
}

static void test_update_saturates(void **state)
{
	struct dcc_plb_conf c = defaults;
	struct dcc_plb_state s = fresh();
	int i;

	(void)state;
	for (i = 0; i < 100; i++)
		dcc_plb_update(&s, &c, 256);
	assert_int_equal(s.consec_cong_rounds, 12);
	c.rehash_rounds = 200;		/* beyond the range: capped at 31 */
	for (i = 0; i < 100; i++)
		dcc_plb_update(&s, &c, 256);
	assert_int_equal(s.consec_cong_rounds, DCC_PLB_MAX_ROUNDS);
}

static void test_forced_after_n_rounds(void **state)
{
	struct dcc_plb_state s = fresh();
	int i;

	(void)state;
	for (i = 1; i < 12; i++) {
		dcc_plb_update(&s, &defaults, 200);
		/* busy (packets in flight): only the forced rule applies */
		assert_int_equal(dcc_plb_check(&s, &defaults, 10, 1000, HZ_T),
				 DCC_PLB_NONE);
	}
	dcc_plb_update(&s, &defaults, 200);
	assert_int_equal(dcc_plb_check(&s, &defaults, 10, 1000, HZ_T),
			 DCC_PLB_REPATH_FORCED);
	assert_int_equal(s.consec_cong_rounds, 0);	/* starts over */
	assert_int_equal(dcc_plb_check(&s, &defaults, 10, 1000, HZ_T),
			 DCC_PLB_NONE);
}

static void test_idle_after_m_rounds(void **state)
{
	struct dcc_plb_state s = fresh();
	struct dcc_plb_conf c = defaults;

	(void)state;
	dcc_plb_update(&s, &c, 200);
	dcc_plb_update(&s, &c, 200);
	assert_int_equal(dcc_plb_check(&s, &c, 0, 1000, HZ_T), DCC_PLB_NONE);
	dcc_plb_update(&s, &c, 200);
	/* M rounds: not while packets are in flight ... */
	assert_int_equal(dcc_plb_check(&s, &c, 1, 1000, HZ_T), DCC_PLB_NONE);
	assert_int_equal(s.consec_cong_rounds, 3);
	/* ... but once nothing is */
	assert_int_equal(dcc_plb_check(&s, &c, 0, 1000, HZ_T),
			 DCC_PLB_REPATH_IDLE);
	assert_int_equal(s.consec_cong_rounds, 0);

	/* idle_rehash_rounds = 0 turns idle repaths off */
	c.idle_rehash_rounds = 0;
	dcc_plb_update(&s, &c, 200);
	dcc_plb_update(&s, &c, 200);
	dcc_plb_update(&s, &c, 200);
	assert_int_equal(dcc_plb_check(&s, &c, 0, 1000, HZ_T), DCC_PLB_NONE);
}

/* A congested round whose shortest sample is w reference rounds long. */
static void long_round(struct dcc_plb_state *s, const struct dcc_plb_conf *c,
		       u32 w)
{
	dcc_plb_sample(s, true);
	dcc_plb_sample_len(s, w * 1000 + 999, 1000);
	dcc_plb_sample(s, true);
	dcc_plb_sample_len(s, 255000, 1000);	/* longer: not the round's */
	assert_true(dcc_plb_update(s, c, 256));
}

/*
 * The long rule: congested rounds that lasted rehash_rounds reference
 * rounds (the congestion control's target) repath the connection with
 * packets in flight once idle_rehash_rounds of them have passed.  Behind
 * another sender's 50 ms standing queue, swift (target about 1.3 ms) is
 * paced at its floor, a packet every 30 ms: it always has packets in
 * flight, and the forced rule waited 12 of those 50-80 ms rounds.
 */
static void test_long_after_m_rounds(void **state)
{
	struct dcc_plb_state s = fresh();
	struct dcc_plb_conf c = defaults;
	int i;

	(void)state;
	/* rounds of 40 targets: due after M (3) rounds, in flight or not */
	long_round(&s, &c, 40);
	long_round(&s, &c, 40);
	assert_int_equal(s.ref_rounds, 80);
	assert_int_equal(dcc_plb_check(&s, &c, 2, 1000, HZ_T), DCC_PLB_NONE);
	long_round(&s, &c, 40);
	assert_int_equal(dcc_plb_check(&s, &c, 2, 1000, HZ_T),
			 DCC_PLB_REPATH_LONG);
	assert_int_equal(s.consec_cong_rounds, 0);
	assert_int_equal(s.ref_rounds, 0);
	/* nothing in flight: the idle rule's */
	for (i = 0; i < 3; i++)
		long_round(&s, &c, 40);
	assert_int_equal(dcc_plb_check(&s, &c, 0, 1000, HZ_T),
			 DCC_PLB_REPATH_IDLE);

	/* rounds about the target (a queue held there): only forced at N */
	for (i = 1; i < 12; i++) {
		long_round(&s, &c, 1);
		assert_int_equal(dcc_plb_check(&s, &c, 2, 1000, HZ_T),
				 DCC_PLB_NONE);
	}
	long_round(&s, &c, 1);
	assert_int_equal(dcc_plb_check(&s, &c, 2, 1000, HZ_T),
			 DCC_PLB_REPATH_FORCED);
	/* 3 targets a round: due at the 4th (12 reference rounds) */
	for (i = 0; i < 3; i++)
		long_round(&s, &c, 3);
	assert_int_equal(dcc_plb_check(&s, &c, 2, 1000, HZ_T), DCC_PLB_NONE);
	long_round(&s, &c, 3);
	assert_int_equal(dcc_plb_check(&s, &c, 2, 1000, HZ_T),
			 DCC_PLB_REPATH_LONG);

	/* an uncongested round starts both counts over */
	long_round(&s, &c, 40);
	long_round(&s, &c, 40);
	dcc_plb_sample(&s, false);
	dcc_plb_sample_len(&s, 40000, 1000);
	assert_false(dcc_plb_update(&s, &c, 0));
	assert_int_equal(s.ref_rounds, 0);
	long_round(&s, &c, 40);
	assert_int_equal(dcc_plb_check(&s, &c, 2, 1000, HZ_T), DCC_PLB_NONE);
	/* a round without a signal leaves them; without a sample it counts 1 */
	assert_false(dcc_plb_update(&s, &c, -1));
	assert_int_equal(s.ref_rounds, 40);
	assert_true(dcc_plb_update(&s, &c, 256));
	assert_int_equal(s.ref_rounds, 41);
	/* the pause after a timeout on a path that showed no congestion
	 * (a failure) holds it, as every repath
	 */
	assert_false(dcc_plb_update(&s, &c, 0));
	dcc_plb_pool_clear(&s);
	s.flags &= ~DCC_PLB_F_LEFT_CONG;	/* the last repath's path works */
	assert_true(dcc_plb_on_rto(&s, &c, 1000, HZ_T, 0, 0));
	assert_int_equal(s.ref_rounds, 0);
	for (i = 0; i < 3; i++)
		long_round(&s, &c, 40);
	assert_int_equal(dcc_plb_check(&s, &c, 2, 1001, HZ_T),
			 DCC_PLB_PAUSED);
	/* saturates */
	for (i = 0; i < 10; i++)
		long_round(&s, &c, 255);
	assert_int_equal(s.ref_rounds, DCC_PLB_MAX_WEIGHT);

	/* idle_rehash_rounds = 0 turns it off with the idle rule */
	s = fresh();
	c.idle_rehash_rounds = 0;
	for (i = 0; i < 11; i++)
		long_round(&s, &c, 40);
	assert_int_equal(dcc_plb_check(&s, &c, 2, 1000, HZ_T), DCC_PLB_NONE);
}

static void test_sample_len(void **state)
{
	struct dcc_plb_state s = fresh();

	(void)state;
	dcc_plb_sample_len(&s, 50000, 1300);
	assert_int_equal(s.round_weight, 38);		/* rounded down */
	dcc_plb_sample_len(&s, 400, 1300);
	assert_int_equal(s.round_weight, 1);		/* at least 1 */
	s.round_weight = 0;
	dcc_plb_sample_len(&s, 50000, 0);		/* no target: 1 */
	assert_int_equal(s.round_weight, 1);
	s.round_weight = 0;
	dcc_plb_sample_len(&s, 0, 1300);
	assert_int_equal(s.round_weight, 1);
	s.round_weight = 0;
	dcc_plb_sample_len(&s, 4000000000u, 1);		/* capped */
	assert_int_equal(s.round_weight, DCC_PLB_MAX_WEIGHT);
	dcc_plb_update(&s, &defaults, 256);		/* consumed */
	assert_int_equal(s.round_weight, 0);
	assert_int_equal(s.ref_rounds, DCC_PLB_MAX_WEIGHT);
}

static void test_rehash_rounds_zero_always_due(void **state)
{
	struct dcc_plb_state s = fresh();
	struct dcc_plb_conf c = defaults;

	(void)state;
	/* As upstream: N = 0 means every check repaths. */
	c.rehash_rounds = 0;
	assert_int_equal(dcc_plb_check(&s, &c, 5, 1, HZ_T),
			 DCC_PLB_REPATH_FORCED);
}

static void test_rto_pause(void **state)
{
	struct dcc_plb_state s = fresh();
	u32 now = 5000, len;
	int i;

	(void)state;
	/* A timeout after uncongested rounds: the path failed. */
	for (i = 0; i < 5; i++)
		dcc_plb_update(&s, &defaults, 10);
	assert_true(dcc_plb_on_rto(&s, &defaults, now, HZ_T, 12345, 0));
	assert_int_equal(s.consec_cong_rounds, 0);
	len = s.pause_until - now;
	assert_between(len, 60 * HZ_T, 2 * 60 * HZ_T - 1);
	assert_int_equal(len, 60 * HZ_T + 12345 % (60 * HZ_T));
	assert_int_equal(dcc_plb_pause_left(&s, now + 10), len - 10);

	/* Congested long enough, but paused: nothing, and it stays due. */
	for (i = 0; i < 12; i++)
		dcc_plb_update(&s, &defaults, 256);
	assert_int_equal(dcc_plb_check(&s, &defaults, 3, now + len - 1, HZ_T),
			 DCC_PLB_PAUSED);
	assert_int_equal(s.consec_cong_rounds, 12);
	/* At the end of the pause the repath happens. */
	assert_int_equal(dcc_plb_check(&s, &defaults, 3, now + len, HZ_T),
			 DCC_PLB_REPATH_FORCED);
	assert_int_equal(s.pause_until, 0);
	assert_int_equal(dcc_plb_pause_left(&s, now + len), 0);
}

static void test_rto_pause_random_spread(void **state)
{
	struct test_rng rng = { 42 };
	u32 lo = ~0U, hi = 0;
	int i;

	(void)state;
	for (i = 0; i < 10000; i++) {
		struct dcc_plb_state s = fresh();
		u32 len;

		dcc_plb_on_rto(&s, &defaults, 77, HZ_T, (u32)rng_next(&rng),
			       0);
		len = s.pause_until - 77;
		lo = len < lo ? len : lo;
		hi = len > hi ? len : hi;
	}
	/* Covers [S, 2S) seconds: both ends within 1 % */
	assert_between(lo, 60 * HZ_T, 60 * HZ_T * 101 / 100);
	assert_between(hi, 120 * HZ_T * 99 / 100, 120 * HZ_T - 1);
}

static void test_rto_pause_wraps(void **state)
{
	struct dcc_plb_state s = fresh();
	u32 now = 0xffffffffu - 100, len;

	(void)state;
	dcc_plb_on_rto(&s, &defaults, now, HZ_T, 0, 0);
	len = 60 * HZ_T;
	assert_int_equal(s.pause_until, (u32)(now + len));
	s.consec_cong_rounds = 12;
	/* Across the wrap of jiffies, still paused ... */
	assert_int_equal(dcc_plb_check(&s, &defaults, 0, now + 200, HZ_T),
			 DCC_PLB_PAUSED);
	/* ... until pause_until, even though it is numerically small. */
	assert_int_equal(dcc_plb_check(&s, &defaults, 0, now + len, HZ_T),
			 DCC_PLB_REPATH_FORCED);
}

static void test_rto_pause_never_zero(void **state)
{
	struct dcc_plb_state s = fresh();

	(void)state;
	/* now + pause == 0 mod 2^32 would read as "not paused" */
	dcc_plb_on_rto(&s, &defaults, (u32)0 - 60 * HZ_T, HZ_T, 0, 0);
	assert_int_equal(s.pause_until, 1);
	s.consec_cong_rounds = 12;
	assert_int_equal(dcc_plb_check(&s, &defaults, 0, (u32)0 - 5, HZ_T),
			 DCC_PLB_PAUSED);
}

static void test_stale_pause_cleared(void **state)
{
	struct dcc_plb_state s = fresh();

	(void)state;
	/*
	 * A connection idle for half the jiffies space: pause_until now
	 * reads as far in the future, beyond the longest possible pause.
	 */
	s.pause_until = 1000;
	s.consec_cong_rounds = 12;
	assert_int_equal(dcc_plb_check(&s, &defaults, 0, 1000 + 0x80000001u,
				       HZ_T), DCC_PLB_REPATH_FORCED);
	assert_int_equal(s.pause_until, 0);
}

static void test_suspend_zero_no_pause(void **state)
{
	struct dcc_plb_state s = fresh();
	struct dcc_plb_conf c = defaults;

	(void)state;
	c.suspend_rto_sec = 0;
	assert_false(dcc_plb_on_rto(&s, &c, 1000, HZ_T, 999, 0));
	assert_int_equal(s.pause_until, 0);
	s.consec_cong_rounds = 12;
	assert_int_equal(dcc_plb_check(&s, &c, 0, 1000, HZ_T),
			 DCC_PLB_REPATH_FORCED);
}

/*
 * A timeout on a path PLB judged congested is the queue's loss, not a
 * failure: no pause, so PLB goes on moving the connection off a congested
 * path wherever TCP's rehash put it (the two-path bed: a pause held an RPC
 * connection on the congested path for 20 s).
 */
static void test_rto_congestion_no_pause(void **state)
{
	struct dcc_plb_state s = fresh();
	int ratio, i;

	(void)state;
	/* congested rounds: the last one was */
	for (i = 0; i < 4; i++)
		dcc_plb_update(&s, &defaults, 256);
	assert_int_equal(dcc_plb_choose(&s, 0x10, 1), 0);	/* memory */
	assert_true(dcc_plb_congested(&s, &defaults));
	assert_false(dcc_plb_on_rto(&s, &defaults, 1000, HZ_T, 77, 0));
	assert_int_equal(s.pause_until, 0);
	assert_int_equal(s.consec_cong_rounds, 0);
	assert_int_equal(s.ref_rounds, 0);
	assert_int_equal(s.samples, 0);
	assert_int_equal(s.best_txhash, 0x10);		/* kept */
	assert_int_equal(s.flags & DCC_PLB_F_RTO_CONG, DCC_PLB_F_RTO_CONG);
	/* PLB repaths after rehash_rounds congested rounds, as ever */
	for (i = 0; i < 12; i++)
		dcc_plb_update(&s, &defaults, 256);
	assert_int_equal(dcc_plb_check(&s, &defaults, 3, 1200, HZ_T),
			 DCC_PLB_REPATH_FORCED);
	/* the new path delivers at its target (a round ends with a quiet
	 * sample); then a new run with no sign of congestion since: a
	 * failure
	 */
	dcc_plb_sample(&s, false);
	assert_true(dcc_plb_round_end(&s, s.round_delivered,
				      s.round_delivered + 5, 7, false, false,
				      &ratio));
	assert_int_equal(ratio, 0);
	assert_true(dcc_plb_on_rto(&s, &defaults, 1300, HZ_T, 0, 0));
	assert_int_equal(s.pause_until, 1300 + 60 * HZ_T);
	assert_int_equal(s.flags & DCC_PLB_F_RTO_CONG, 0);
	assert_int_equal(s.best_txhash, 0);
	/* a congestion timeout during that pause leaves it as it is */
	for (i = 0; i < 2; i++)
		dcc_plb_update(&s, &defaults, 256);
	assert_false(dcc_plb_on_rto(&s, &defaults, 1400, HZ_T, 5, 0));
	assert_int_equal(s.pause_until, 1300 + 60 * HZ_T);

	/* the pooled delay samples judge too, with no congested round */
	s = fresh();
	for (i = 0; i < 6; i++)
		dcc_plb_sample(&s, i < 3);	/* half at the target */
	assert_true(dcc_plb_congested(&s, &defaults));
	assert_false(dcc_plb_on_rto(&s, &defaults, 1000, HZ_T, 0, 0));
	s = fresh();
	for (i = 0; i < 6; i++)
		dcc_plb_sample(&s, i < 2);	/* a third */
	assert_false(dcc_plb_congested(&s, &defaults));
	assert_true(dcc_plb_on_rto(&s, &defaults, 1000, HZ_T, 0, 0));
}

/*
 * A repath empties the pool and the count: a timeout before a packet
 * sent on the new path is delivered is congestion, the old path's (the
 * packets left there) or the new one's (a new label on a full queue).
 * Traced on the two-path bed: a timely connection moved back to the free
 * path by its long rule timed out 236 ms later on the packets it had left
 * on the congested one; judged a failure, the pause held it 9.8 s on the
 * congested path TCP's rehash then drew.  In the bench, a timely-patched
 * connection's long repath drew the congested path, whose queue dropped
 * the first packets sent there: the same pause, and 2.05 Mbit/s there.
 */
/* Congested rounds, a round's end at delivered 180, the forced repath. */
static struct dcc_plb_state repathed_in_flight(void)
{
	struct dcc_plb_state s = fresh();	/* delivered 100 */
	int ratio, i;

	for (i = 0; i < 12; i++)
		dcc_plb_update(&s, &defaults, 256);
	assert_true(dcc_plb_round_end(&s, 150, 180, 7, false, false, &ratio));
	assert_int_equal(dcc_plb_check(&s, &defaults, 5, 1000, HZ_T),
			 DCC_PLB_REPATH_FORCED);
	assert_int_equal(s.flags & DCC_PLB_F_LEFT_CONG, DCC_PLB_F_LEFT_CONG);
	return s;
}

static void test_rto_after_repath(void **state)
{
	struct dcc_plb_state s = repathed_in_flight();
	int ratio;

	(void)state;
	/* a packet left on the old path, or sent on the new one, times out
	 * before the new path delivers anything
	 */
	assert_true(dcc_plb_congested(&s, &defaults));
	assert_false(dcc_plb_on_rto(&s, &defaults, 1050, HZ_T, 0, 0));
	assert_int_equal(s.pause_until, 0);
	/* TCP's rehash moved it off a congested path, as a repath */
	assert_int_equal(s.flags & DCC_PLB_F_LEFT_CONG, DCC_PLB_F_LEFT_CONG);
	/* the next timeout of a new run, nothing judged since: congestion
	 * (test_rto_new_run_after_congestion_rto); the run's second one, the
	 * retransmission lost too: a failure
	 */
	assert_false(dcc_plb_on_rto(&s, &defaults, 1100, HZ_T, 0, 0));
	assert_true(dcc_plb_on_rto(&s, &defaults, 1300, HZ_T, 0, 1));

	/* a packet sent on the new path delivered: the flag is gone, the
	 * pool judges (one quiet sample: a failure)
	 */
	s = repathed_in_flight();
	dcc_plb_sample(&s, false);
	assert_false(dcc_plb_round_end(&s, 170, 185, 7, false, false, &ratio));
	assert_true(dcc_plb_congested(&s, &defaults));	/* still */
	assert_true(dcc_plb_round_end(&s, 180, 190, 7, false, false, &ratio));
	assert_int_equal(s.flags & DCC_PLB_F_LEFT_CONG, 0);
	assert_false(dcc_plb_congested(&s, &defaults));
	assert_true(dcc_plb_on_rto(&s, &defaults, 1050, HZ_T, 0, 0));

	/*
	 * ...but not while a packet sent before the round began is still
	 * out: at the first round's end after the repath it was sent on the
	 * path left, where it is queued or was lost, and its timeout is that
	 * path's (plb_twopath.sh, timely, traced: packets left on the
	 * congested path timed out 230-275 ms after the repath, after a
	 * clean round on the new path; judged a failure, the pause held the
	 * connection on the congested path that TCP's rehash drew for
	 * 7.9-20.7 s).
	 */
	s = repathed_in_flight();
	dcc_plb_sample(&s, false);
	assert_true(dcc_plb_round_end(&s, 180, 190, 7, false, true, &ratio));
	assert_int_equal(ratio, 0);
	assert_int_equal(s.flags & DCC_PLB_F_LEFT_CONG, DCC_PLB_F_LEFT_CONG);
	assert_true(dcc_plb_congested(&s, &defaults));
	assert_false(dcc_plb_on_rto(&s, &defaults, 1050, HZ_T, 0, 0));
	assert_int_equal(s.pause_until, 0);
	/* nothing from before the round out: the next round's end clears it */
	s = repathed_in_flight();
	dcc_plb_sample(&s, false);
	assert_true(dcc_plb_round_end(&s, 180, 190, 7, false, true, &ratio));
	dcc_plb_sample(&s, false);
	assert_true(dcc_plb_round_end(&s, 190, 200, 7, false, false, &ratio));
	assert_int_equal(s.flags & DCC_PLB_F_LEFT_CONG, 0);
	assert_true(dcc_plb_on_rto(&s, &defaults, 1050, HZ_T, 0, 0));
}

/*
 * One ACK as include/dcc_plb_link.h makes it, then tcp_plb.c's
 * update_state and check_rehash at a round's end: sample is -1 (the ACK
 * gave no delay sample), 0 (below the target) or 1 (at or above it);
 * retrans: it delivered a retransmission; prior: the acked packet's
 * tx.delivered; d: packets it delivered; old_out: a packet sent before
 * the round began is still out.  Returns the check's verdict, or -1 when
 * no round ended.
 */
static int glue_ack(struct dcc_plb_state *s, u32 *delivered, int sample,
		    bool retrans, u32 prior, u32 d, bool old_out,
		    u32 packets_out)
{
	int ratio;

	if (sample >= 0) {
		dcc_plb_sample(s, sample);
		dcc_plb_sample_len(s, 1000, 1000);
	}
	if (retrans)
		dcc_plb_repair(s);
	*delivered += d;
	if (!dcc_plb_round_end(s, prior, *delivered, 7, false, old_out,
			       &ratio))
		return -1;
	dcc_plb_update(s, &defaults, ratio);
	return dcc_plb_check(s, &defaults, packets_out, 1000, HZ_T);
}

/*
 * An RPC connection on a path it congests (three congested rounds of
 * its own requests), idle-repathed when its next request starts
 * (CA_EVENT_TX_START, nothing in flight): delivered 130 then.
 */
static struct dcc_plb_state repathed_idle(u32 *delivered)
{
	struct dcc_plb_state s = fresh();	/* delivered 100 */
	int i;

	*delivered = 100;
	for (i = 0; i < 3; i++)
		assert_int_equal(glue_ack(&s, delivered, 1, false, *delivered,
					  10, false, 5), DCC_PLB_NONE);
	assert_int_equal(dcc_plb_check(&s, &defaults, 0, 1000, HZ_T),
			 DCC_PLB_REPATH_IDLE);
	assert_int_equal(s.flags & DCC_PLB_F_LEFT_CONG, DCC_PLB_F_LEFT_CONG);
	assert_int_equal(*delivered, 130);
	return s;
}

/*
 * A round on the new path that gave no signal says nothing of it: the
 * flag stays, and a timeout after it is congestion.  CI's plb_twopath.sh,
 * timely phase: an RPC connection repathed off the quiet path B (its own
 * load) drew a label on the congested path A, where one packet or so got
 * through; its first timeout was judged a failure, and the pause held
 * it 21 s on A, where TCP's rehash at the timeout had put it again.  The
 * sequences that get there, each a round's end with nothing older out
 * and no signal (the pool emptied by the repath):
 *  - the request's packets dropped at A's full queue but the tail loss
 *    probe, a retransmission of the last one: its SACK ends the round
 *    (it left after the round began) with no sample (Karn);
 *  - the first packet delivered, its ACK without a delay sample (timely
 *    leaves a delayed ACK's out when it has timestamps), the rest lost;
 *  - a repath in flight (forced or long): a loss on the path left is
 *    repaired on the new one, the retransmission delivered and nothing
 *    sent before the round out, the packets after it lost at the queue.
 */
static void test_rto_after_repath_probe(void **state)
{
	u32 delivered;
	struct dcc_plb_state s = repathed_idle(&delivered);

	(void)state;
	/* the tail loss probe's SACK ends the first round on the new path */
	assert_int_equal(glue_ack(&s, &delivered, -1, true, 130, 1, false, 21),
			 DCC_PLB_NONE);
	assert_int_equal(s.consec_cong_rounds, 0);
	assert_int_equal(s.flags & DCC_PLB_F_LEFT_CONG, DCC_PLB_F_LEFT_CONG);
	assert_true(dcc_plb_congested(&s, &defaults));
	assert_false(dcc_plb_on_rto(&s, &defaults, 1100, HZ_T, 0, 0));
	assert_int_equal(s.pause_until, 0);
	assert_int_equal(s.flags & DCC_PLB_F_RTO_CONG, DCC_PLB_F_RTO_CONG);
}

static void test_rto_after_repath_no_sample(void **state)
{
	u32 delivered;
	struct dcc_plb_state s = repathed_idle(&delivered);

	(void)state;
	/* a new packet delivered, its ACK without a delay sample */
	assert_int_equal(glue_ack(&s, &delivered, -1, false, 130, 1, false,
				  21), DCC_PLB_NONE);
	assert_false(dcc_plb_on_rto(&s, &defaults, 1100, HZ_T, 0, 0));
	assert_int_equal(s.pause_until, 0);
}

static void test_rto_after_repath_repair(void **state)
{
	struct dcc_plb_state s = repathed_in_flight();
	u32 delivered = 180;

	(void)state;
	/* a forced repath in flight; the first round's end is a repair */
	assert_int_equal(glue_ack(&s, &delivered, -1, true, 180, 1, false, 4),
			 DCC_PLB_NONE);
	assert_false(dcc_plb_on_rto(&s, &defaults, 1100, HZ_T, 0, 0));
	assert_int_equal(s.pause_until, 0);
}

/*
 * The rule the three above keep: a round with a signal and nothing older
 * out judges the new path, and a black hole (no round ends) still pauses
 * at the second timeout of a run (plb_rto.sh).
 */
static void test_rto_after_repath_signal(void **state)
{
	struct dcc_plb_state s;
	u32 delivered;

	(void)state;
	/* delivering at its target after the probe, the path works: a
	 * timeout there is a failure (the pause)
	 */
	s = repathed_idle(&delivered);
	assert_int_equal(glue_ack(&s, &delivered, -1, true, 130, 1, false, 21),
			 DCC_PLB_NONE);
	assert_int_equal(glue_ack(&s, &delivered, 0, false, 131, 4, false, 17),
			 DCC_PLB_NONE);
	assert_int_equal(s.flags & DCC_PLB_F_LEFT_CONG, 0);
	assert_false(dcc_plb_congested(&s, &defaults));
	assert_true(dcc_plb_on_rto(&s, &defaults, 1100, HZ_T, 0, 0));
	/* its queue at or above the target: a congested round counts */
	s = repathed_idle(&delivered);
	assert_int_equal(glue_ack(&s, &delivered, 1, false, 130, 1, false, 21),
			 DCC_PLB_NONE);
	assert_int_equal(s.flags & DCC_PLB_F_LEFT_CONG, 0);
	assert_int_equal(s.consec_cong_rounds, 1);
	assert_false(dcc_plb_on_rto(&s, &defaults, 1100, HZ_T, 0, 0));
	/* a round's end with an older packet out keeps it, signal or not */
	s = repathed_in_flight();
	delivered = 180;
	assert_int_equal(glue_ack(&s, &delivered, 0, false, 180, 1, true, 4),
			 DCC_PLB_NONE);
	assert_int_equal(s.flags & DCC_PLB_F_LEFT_CONG, DCC_PLB_F_LEFT_CONG);
	/*
	 * A black hole delivers nothing: no round ends there, the first
	 * timeout is congestion, the retransmission lost too a failure.
	 */
	s = repathed_idle(&delivered);
	assert_false(dcc_plb_on_rto(&s, &defaults, 1100, HZ_T, 0, 0));
	assert_true(dcc_plb_on_rto(&s, &defaults, 1400, HZ_T, 0, 1));
}

/*
 * A timeout judged congestion moves the connection as a repath does (TCP's
 * rehash draws a new label) and empties the pool and the count.  The
 * retransmission gets through, its ACK of new data starts a new run of
 * timeouts (icsk_retransmits back to 0), and the packets after it are lost
 * at the queue of a label on the same congested path before any round has
 * given a signal: that run's first timeout has nothing to judge by, as
 * after PLB's repath.  After a repath off a congested path: PLB moves the
 * connection onto A's full queue, nothing gets through, the timeout is
 * congestion, TCP's rehash draws A again, the retransmission gets through
 * it and the slow start's packets do not.
 */
static void test_rto_new_run_after_congestion_rto(void **state)
{
	u32 delivered;
	struct dcc_plb_state s = repathed_idle(&delivered);

	(void)state;
	assert_false(dcc_plb_on_rto(&s, &defaults, 1100, HZ_T, 0, 0));
	assert_int_equal(s.flags & DCC_PLB_F_RTO_CONG, DCC_PLB_F_RTO_CONG);
	/* the retransmission's ACK (a round's end, no sample), new data */
	assert_int_equal(glue_ack(&s, &delivered, -1, true, 130, 1, false, 2),
			 DCC_PLB_NONE);
	assert_true(dcc_plb_congested(&s, &defaults));
	assert_false(dcc_plb_on_rto(&s, &defaults, 1200, HZ_T, 0, 0));
	assert_int_equal(s.pause_until, 0);
	/* a round with a signal judges the label TCP's rehash drew */
	assert_int_equal(glue_ack(&s, &delivered, 0, false, 131, 2, false, 2),
			 DCC_PLB_NONE);
	assert_false(dcc_plb_congested(&s, &defaults));
	assert_true(dcc_plb_on_rto(&s, &defaults, 1300, HZ_T, 0, 0));
	/* the retransmission lost too: a failure, as ever */
	s = repathed_idle(&delivered);
	assert_false(dcc_plb_on_rto(&s, &defaults, 1100, HZ_T, 0, 0));
	assert_true(dcc_plb_on_rto(&s, &defaults, 1400, HZ_T, 0, 1));
}

/*
 * A black hole PLB moved the connection onto, off a congested path (CI's
 * plb_rto.sh: path B congested by cubic, path A dropping everything):
 * the first timeout reads as congestion, but the retransmission, alone
 * on the path TCP's rehash drew, timing out too is a failure: the pause
 * starts there (with the old rule, every timeout of the run kept the
 * first one's verdict, and 29 timeouts there paused nothing).
 */
static void test_rto_black_hole_after_repath(void **state)
{
	struct dcc_plb_state s = repathed_in_flight();

	(void)state;
	s.best_txhash = 0x10;
	assert_false(dcc_plb_on_rto(&s, &defaults, 1050, HZ_T, 0, 0));
	assert_int_equal(s.flags & DCC_PLB_F_RTO_CONG, DCC_PLB_F_RTO_CONG);
	assert_int_equal(s.best_txhash, 0x10);
	assert_true(dcc_plb_on_rto(&s, &defaults, 1300, HZ_T, 0, 1));
	assert_int_equal(s.flags & DCC_PLB_F_RTO_CONG, 0);
	assert_int_equal(s.pause_until, 1300 + 60 * HZ_T);
	assert_int_equal(s.best_txhash, 0);		/* forgotten */
	/* so do the run's later timeouts, as upstream's: the pause restarts */
	assert_true(dcc_plb_on_rto(&s, &defaults, 1800, HZ_T, 0, 2));
	assert_int_equal(s.pause_until, 1800 + 60 * HZ_T);
	/* a repath falls due on the path TCP's rehash found: held */
	s.consec_cong_rounds = 12;
	assert_int_equal(dcc_plb_check(&s, &defaults, 3, 2000, HZ_T),
			 DCC_PLB_PAUSED);
}

static void test_round_delay_fraction(void **state)
{
	struct dcc_plb_state s = fresh();	/* round starts at delivered 100 */
	int ratio = 99, i;

	(void)state;
	for (i = 0; i < 8; i++)
		dcc_plb_sample(&s, i < 3);
	/* Packets sent before the round started do not end it. */
	assert_false(dcc_plb_round_end(&s, 99, 108, 7, false, false, &ratio));
	assert_int_equal(ratio, 99);
	assert_true(dcc_plb_round_end(&s, 100, 110, 7, false, false, &ratio));
	assert_int_equal(ratio, 3 * 256 / 8);
	assert_int_equal(s.round_delivered, 110);
	/* Three quarters of the pool stay for the next rounds. */
	assert_int_equal(s.samples, 6 * DCC_PLB_SAMPLE_ONE);
	assert_int_equal(s.cong_samples, 3 * DCC_PLB_SAMPLE_ONE -
			 3 * DCC_PLB_SAMPLE_ONE / 4);
	/* A round without samples gives no signal; the pool still ages. */
	assert_true(dcc_plb_round_end(&s, 111, 120, 7, false, false, &ratio));
	assert_int_equal(ratio, -1);
	assert_int_equal(s.samples, 6 * DCC_PLB_SAMPLE_ONE -
			 6 * DCC_PLB_SAMPLE_ONE / 4);
	/* The next round's 8 samples, all at or above the target, weigh
	 * with what is left of the first round's: (36 + 128) of (72 + 128).
	 */
	for (i = 0; i < 8; i++)
		dcc_plb_sample(&s, true);
	assert_true(dcc_plb_round_end(&s, 120, 130, 7, false, false, &ratio));
	assert_int_equal(ratio, (27 + 128) * 256 / (72 + 128));
	/* A repath empties the pool: its samples are of the path left. */
	dcc_plb_pool_clear(&s);
	assert_int_equal(s.samples, 0);
	assert_true(dcc_plb_round_end(&s, 130, 140, 7, false, false, &ratio));
	assert_int_equal(ratio, -1);
}

static void test_round_delivered_wraps(void **state)
{
	struct dcc_plb_state s;
	int ratio;

	(void)state;
	dcc_plb_state_init(&s, 0xfffffff0u, 0);
	dcc_plb_sample(&s, true);
	assert_false(dcc_plb_round_end(&s, 0xffffffe0u, 5, 0, false, false,
				       &ratio));
	assert_true(dcc_plb_round_end(&s, 2, 5, 0, false, false, &ratio));
	assert_int_equal(ratio, 256);
}

static void test_round_ecn_wins_when_marked(void **state)
{
	struct dcc_plb_state s = fresh();	/* delivered 100, ce 7 */
	int ratio, i;

	(void)state;
	for (i = 0; i < 10; i++)
		dcc_plb_sample(&s, true);	/* delay says: all congested */
	/* ECN negotiated but no mark yet: the delay signal counts. */
	assert_true(dcc_plb_round_end(&s, 100, 120, 7, true, false, &ratio));
	assert_int_equal(ratio, 256);
	/* 5 of 20 packets marked: the CE fraction wins from now on. */
	for (i = 0; i < 10; i++)
		dcc_plb_sample(&s, true);
	assert_true(dcc_plb_round_end(&s, 120, 140, 12, true, false, &ratio));
	assert_int_equal(ratio, 5 * 256 / 20);
	assert_true(s.flags & DCC_PLB_F_CE_SEEN);
	/* A marking path stays an ECN path: a round without marks is 0. */
	for (i = 0; i < 10; i++)
		dcc_plb_sample(&s, true);
	assert_true(dcc_plb_round_end(&s, 140, 150, 12, true, false, &ratio));
	assert_int_equal(ratio, 0);
	/* Without ECN negotiated, marks are ignored. */
	s = fresh();
	dcc_plb_sample(&s, false);
	assert_true(dcc_plb_round_end(&s, 100, 110, 17, false, false, &ratio));
	assert_int_equal(ratio, 0);
}

/*
 * Run rounds of delay samples (cong[i] of n[i] at or above the target)
 * through the delay signal and PLB's rules, a bulk flow (packets always
 * in flight): the number of congested rounds, and the round at which a
 * repath came due (0: none).
 */
struct delay_run {
	unsigned int cong_rounds, due_round, max_run;
	enum dcc_plb_verdict verdict;
};

static struct delay_run delay_rounds(const u8 (*r)[2], unsigned int rounds,
				     unsigned int repeat)
{
	struct dcc_plb_state s = fresh();
	struct delay_run out = { 0 };
	u32 delivered = 100;
	unsigned int i, k, j;
	int ratio;

	for (k = 0; k < repeat; k++) {
		for (i = 0; i < rounds; i++) {
			enum dcc_plb_verdict v;

			for (j = 0; j < r[i][1]; j++)
				dcc_plb_sample(&s, j < r[i][0]);
			assert_true(dcc_plb_round_end(&s, delivered,
						      delivered + r[i][1], 7,
						      false, false, &ratio));
			delivered += r[i][1];
			out.cong_rounds += dcc_plb_update(&s, &defaults,
							  ratio);
			if (s.consec_cong_rounds > out.max_run)
				out.max_run = s.consec_cong_rounds;
			v = dcc_plb_check(&s, &defaults, 20, 1000, HZ_T);
			if (v != DCC_PLB_NONE && !out.due_round) {
				out.due_round = k * rounds + i + 1;
				out.verdict = v;
			}
		}
	}
	return out;
}

/*
 * A queue held at the delay target.  Rounds of make sim-check's leaf-spine
 * (10 Gbit/s, two swift flows hashed onto one spine port, swift at its
 * default ai of 0.25, PLB on; samples at or above the target of each
 * round, per flow).  The colliding flows' rounds alternate with swift's
 * cut-and-climb cycle (0.60 of their samples at or above the target, but
 * never three rounds in a row above a half): judged round by round, PLB
 * never moved them (0 repaths, half the fabric).  Pooled, 19 of these 24
 * rounds count (the pooled fraction 0.50-0.70 after the second round)
 * and the forced rule moves them at the 21st.  A flow alone at its link (the uncollided spines: its own
 * host's queue at the target, 0.32 of its samples) and a path with no
 * queue count no congested round: no repath, however long.
 */
static void test_delay_pool_held_queue(void **state)
{
	static const u8 collided[][2] = {
		{ 22, 22 }, { 0, 21 }, { 14, 22 }, { 22, 22 }, { 8, 21 },
		{ 6, 22 }, { 22, 22 }, { 16, 21 }, { 0, 21 }, { 19, 22 },
		{ 22, 22 }, { 3, 21 }, { 11, 22 }, { 22, 22 }, { 11, 21 },
		{ 4, 22 }, { 22, 22 }, { 18, 21 }, { 0, 21 }, { 17, 22 },
		{ 22, 22 }, { 5, 21 }, { 9, 22 }, { 22, 22 },
	};
	static const u8 alone[][2] = {
		{ 0, 41 }, { 0, 41 }, { 12, 42 }, { 42, 42 }, { 30, 41 },
		{ 0, 41 }, { 0, 41 }, { 24, 42 }, { 42, 42 }, { 18, 41 },
		{ 0, 41 }, { 0, 41 }, { 37, 42 }, { 42, 42 }, { 5, 41 },
		{ 0, 41 }, { 8, 42 }, { 42, 42 }, { 34, 41 }, { 0, 41 },
		{ 0, 41 }, { 20, 42 }, { 42, 42 }, { 22, 41 },
	};
	static const u8 idle[][2] = { { 0, 20 }, { 0, 3 }, { 0, 1 } };
	struct delay_run r;

	(void)state;
	r = delay_rounds(collided, ARRAY_SIZE(collided), 1);
	print_message("# held queue, colliding: %u of %zu rounds congested, repath due at round %u\n",
		      r.cong_rounds, ARRAY_SIZE(collided), r.due_round);
	assert_true(r.cong_rounds * 4 >= 3 * ARRAY_SIZE(collided));
	assert_in_range(r.due_round, 12, ARRAY_SIZE(collided));
	assert_int_equal(r.verdict, DCC_PLB_REPATH_FORCED);

	r = delay_rounds(alone, ARRAY_SIZE(alone), 10);
	print_message("# held queue, alone: %u of %zu rounds congested (at most %u in a row), repath due at round %u\n",
		      r.cong_rounds, 10 * ARRAY_SIZE(alone), r.max_run,
		      r.due_round);
	assert_true(r.cong_rounds * 3 <= 10 * ARRAY_SIZE(alone));
	assert_true(r.max_run < defaults.idle_rehash_rounds);
	assert_int_equal(r.due_round, 0);

	r = delay_rounds(idle, ARRAY_SIZE(idle), 100);
	assert_int_equal(r.cong_rounds, 0);
	assert_int_equal(r.due_round, 0);
}

/*
 * A round that repaired a loss without a delay sample (its ACKs delivered
 * retransmissions: Karn's rule gives no RTT) takes the pool's fraction.
 * The rounds of a timely connection on plb_twopath.sh's path A, traced:
 * one round of samples far above T_high (54.6 ms against 0.5 ms), then a
 * repair of the initial window's losses one retransmission per round
 * trip (8 rounds).  Taken as no signal, those rounds left the count at 1
 * and the connection on A for the whole repair; counted from the pool,
 * the third round makes the long repath due.  After a repath the pool is
 * empty, and a repair round there gives no signal; a round that neither
 * sampled nor repaired gives none either.
 */
static void test_repair_round_takes_pool(void **state)
{
	struct dcc_plb_state s = fresh();	/* round starts at delivered 100 */
	int ratio = 99, i;

	(void)state;
	for (i = 0; i < 4; i++) {
		dcc_plb_sample(&s, true);
		dcc_plb_sample_len(&s, 54601, 500);
	}
	assert_true(dcc_plb_round_end(&s, 100, 110, 7, false, false, &ratio));
	assert_int_equal(ratio, 256);
	assert_true(dcc_plb_update(&s, &defaults, ratio));
	assert_int_equal(s.ref_rounds, 109);
	for (i = 0; i < 2; i++) {
		dcc_plb_repair(&s);
		assert_true(dcc_plb_round_end(&s, 110 + i, 111 + i, 7, false,
					      false, &ratio));
		assert_int_equal(ratio, 256);
		assert_true(dcc_plb_update(&s, &defaults, ratio));
	}
	assert_int_equal(s.consec_cong_rounds, 3);
	assert_int_equal(dcc_plb_check(&s, &defaults, 9, 1000, HZ_T),
			 DCC_PLB_REPATH_LONG);
	/* The new label: the pool is empty, a repair round says nothing. */
	assert_int_equal(s.samples, 0);
	dcc_plb_repair(&s);
	assert_true(dcc_plb_round_end(&s, 112, 113, 7, false, false, &ratio));
	assert_int_equal(ratio, -1);
	assert_int_equal(s.flags & DCC_PLB_F_SAMPLED, 0);
	/* Quiet samples there, then a round without sample or repair. */
	for (i = 0; i < 4; i++)
		dcc_plb_sample(&s, false);
	assert_true(dcc_plb_round_end(&s, 113, 114, 7, false, false, &ratio));
	assert_int_equal(ratio, 0);
	assert_true(dcc_plb_round_end(&s, 114, 115, 7, false, false, &ratio));
	assert_int_equal(ratio, -1);
	/* A repair there takes the quiet pool's verdict: not congested. */
	dcc_plb_repair(&s);
	assert_true(dcc_plb_round_end(&s, 115, 116, 7, false, false, &ratio));
	assert_int_equal(ratio, 0);
	/* A timeout empties the pool and forgets the repair. */
	dcc_plb_repair(&s);
	dcc_plb_on_rto(&s, &defaults, 1000, HZ_T, 0, 0);
	assert_int_equal(s.flags & DCC_PLB_F_SAMPLED, 0);
}

static void test_round_samples_saturate(void **state)
{
	struct dcc_plb_state s = fresh();
	int ratio, i;

	(void)state;
	/* A full pool is halved: the fraction it holds stays. */
	for (i = 0; i < 70000; i++)
		dcc_plb_sample(&s, i & 1);
	assert_true(s.samples > 0x8000 - DCC_PLB_SAMPLE_ONE);
	assert_true(s.samples <= 0xffff);
	assert_true(s.cong_samples * 2 + 2 * DCC_PLB_SAMPLE_ONE >= s.samples);
	assert_true(s.cong_samples * 2 <= s.samples + 2 * DCC_PLB_SAMPLE_ONE);
	assert_true(dcc_plb_round_end(&s, 100, 200, 7, false, false, &ratio));
	assert_in_range(ratio, 127, 129);
	s = fresh();
	for (i = 0; i < 70000; i++)
		dcc_plb_sample(&s, true);
	assert_true(dcc_plb_round_end(&s, 100, 200, 7, false, false, &ratio));
	assert_int_equal(ratio, 256);
}

/* The rules written out plainly, for the randomized comparison. */
struct ref_plb {
	unsigned int consec;
	int64_t pause_end;	/* absolute, unwrapped; -1: none */
	unsigned int refs;	/* reference rounds of the congested ones */
	int rto_cong;		/* the run of timeouts came on congestion */
	int left;		/* repathed (by PLB, or by TCP at a
				 * timeout judged congestion), no round
				 * with a signal since (none ends here)
				 */
};

static int ref_check(struct ref_plb *r, const struct dcc_plb_conf *c,
		     unsigned int pkts_out, int64_t now)
{
	int forced = r->consec >= c->rehash_rounds;
	int m = c->idle_rehash_rounds && r->consec >= c->idle_rehash_rounds;
	int idle = m && !pkts_out;
	int along = m && pkts_out && r->refs >= c->rehash_rounds;

	if (!forced && !idle && !along)
		return DCC_PLB_NONE;
	if (r->pause_end >= 0 && now < r->pause_end)
		return DCC_PLB_PAUSED;
	r->pause_end = -1;
	r->consec = 0;
	r->refs = 0;
	if (forced)
		return DCC_PLB_REPATH_FORCED;
	return idle ? DCC_PLB_REPATH_IDLE : DCC_PLB_REPATH_LONG;
}

static void test_random_vs_reference(void **state)
{
	struct test_rng rng = { 7 };
	int run;

	(void)state;
	for (run = 0; run < 200; run++) {
		struct dcc_plb_conf c = {
			.enabled = 1,
			.idle_rehash_rounds = (u32)rng_range(&rng, 0, 31),
			.rehash_rounds = (u32)rng_range(&rng, 0, 31),
			.suspend_rto_sec = (u32)rng_range(&rng, 0, 3),
			.cong_thresh = (u32)rng_range(&rng, 0, 256),
		};
		/* start anywhere, including just before the wrap */
		int64_t now = (int64_t)rng_range(&rng, 0xffff0000u,
						 0xffffffffu);
		struct dcc_plb_state s = fresh();
		struct ref_plb r = { 0, -1, 0, 0, 0 };	/* consec, pause, refs */
		int step;

		for (step = 0; step < 2000; step++) {
			unsigned int op = (unsigned int)rng_range(&rng, 0, 9);

			now += (int64_t)rng_range(&rng, 0, 40);
			if (op < 6) {
				int ratio = (int)rng_range(&rng, 0, 257) - 1;

				u32 w = (u32)rng_range(&rng, 0, 8);

				if (w)
					dcc_plb_sample_len(&s, w * 100, 100);
				dcc_plb_update(&s, &c, ratio);
				if (ratio >= 0) {
					if ((u32)ratio < c.cong_thresh) {
						r.consec = 0;
						r.refs = 0;
					} else {
						if (r.consec < c.rehash_rounds)
							r.consec++;
						r.refs += w ? w : 1;
						if (r.refs > 255)
							r.refs = 255;
					}
				}
			} else if (op < 9) {
				unsigned int out = (unsigned int)
					rng_range(&rng, 0, 2);
				int got = dcc_plb_check(&s, &c, out, (u32)now,
							HZ_T);
				int want = ref_check(&r, &c, out, now);

				assert_int_equal(got, want);
				if (want != DCC_PLB_NONE &&
				    want != DCC_PLB_PAUSED)
					r.left = 1;
			} else {
				u32 rnd = (u32)rng_next(&rng);
				u32 p = c.suspend_rto_sec * HZ_T;
				u32 n = (u32)rng_range(&rng, 0, 2);
				bool paused;

				/* no delay samples here: a congested
				 * round last, or a repath (PLB's, or
				 * TCP's at a congestion timeout) with
				 * no round since, are the only signs
				 */
				r.rto_cong = !n && (r.consec > 0 || r.left);
				paused = dcc_plb_on_rto(&s, &c, (u32)now, HZ_T,
							rnd, n);
				r.left = r.rto_cong;
				r.consec = 0;
				r.refs = 0;
				if (!r.rto_cong)
					r.pause_end = p ? now + p + rnd % p :
						      -1;
				assert_int_equal(paused, !r.rto_cong && p);
			}
			assert_int_equal(s.consec_cong_rounds, r.consec);
			assert_int_equal(s.ref_rounds, r.refs);
		}
	}
}

/*
 * The interface version pins struct dcc_plb_state (include/dcc_plb.h,
 * "interface"): tcp_plb.ko and the congestion controls that call it each
 * interpret it, and a tcp_plb built from another tree is told apart only
 * by the version and the size.  If this fails, the layout changed: bump
 * DCC_PLB_ABI_VERSION and record the new layout here.
 */
static void test_abi_layout_pinned(void **state)
{
	(void)state;
	assert_int_equal(DCC_PLB_ABI_VERSION, 12);
	assert_int_equal(sizeof(struct dcc_plb_state), 24);
	assert_int_equal(offsetof(struct dcc_plb_state, pause_until), 0);
	assert_int_equal(offsetof(struct dcc_plb_state, round_delivered), 4);
	assert_int_equal(offsetof(struct dcc_plb_state, round_delivered_ce), 8);
	assert_int_equal(offsetof(struct dcc_plb_state, samples), 12);
	assert_int_equal(offsetof(struct dcc_plb_state, cong_samples), 14);
	assert_int_equal(offsetof(struct dcc_plb_state, consec_cong_rounds),
			 16);
	assert_int_equal(offsetof(struct dcc_plb_state, flags), 17);
	assert_int_equal(DCC_PLB_F_CE_SEEN, 0x01);
	assert_int_equal(offsetof(struct dcc_plb_state, round_weight), 18);
	assert_int_equal(offsetof(struct dcc_plb_state, ref_rounds), 19);
	assert_int_equal(offsetof(struct dcc_plb_state, best_txhash), 20);
	assert_int_equal(DCC_PLB_F_BEST_SHIFT, 1);
	assert_int_equal(DCC_PLB_F_BEST_MASK, 0x0e);
	assert_int_equal(DCC_PLB_F_SAMPLED, 0x10);
	assert_int_equal(DCC_PLB_F_RTO_CONG, 0x20);
	assert_int_equal(DCC_PLB_F_LEFT_CONG, 0x40);
	assert_int_equal(DCC_PLB_F_BACK, 0x80);
	assert_int_equal(DCC_PLB_SAMPLE_ONE, 16);
}


static void test_depth(void **state)
{
	(void)state;
	assert_int_equal(dcc_plb_depth(0, 290), 0);		/* unknown */
	assert_int_equal(dcc_plb_depth(500, 0), 0);
	assert_int_equal(dcc_plb_depth(500, ~0u), 0);	/* no min yet */
	assert_int_equal(dcc_plb_depth(290, 290), 0);
	assert_int_equal(dcc_plb_depth(1000, 290), 1);	/* 3.4 x */
	assert_int_equal(dcc_plb_depth(1200, 290), 2);	/* 4.1 x */
	assert_int_equal(dcc_plb_depth(43000, 290), 7);	/* 148 x */
	assert_int_equal(dcc_plb_depth(~0u, 1), 7);
	assert_int_equal(dcc_plb_depth(100, 290), 0);	/* below the min */
}

/* The label's depth now: the latest sample when it is the lesser. */
static void test_label_depth(void **state)
{
	(void)state;
	/* back on the quiet label, srtt still holds the deep one's */
	assert_int_equal(dcc_plb_label_depth(7000, 600, 290), 1);
	assert_int_equal(dcc_plb_depth(7000, 290), 4);
	/* a deep label: both are deep */
	assert_int_equal(dcc_plb_label_depth(43000, 40000, 290), 7);
	/* a sample above the smoothed RTT does not deepen it */
	assert_int_equal(dcc_plb_label_depth(600, 43000, 290), 1);
	/* no latest sample: the smoothed RTT */
	assert_int_equal(dcc_plb_label_depth(1200, 0, 290), 2);
	assert_int_equal(dcc_plb_label_depth(1200, 600, ~0u), 0);
}

/*
 * Path memory: a label whose congestion is four times as deep as the best
 * one's or more sends the connection back to the best label; a shallower
 * one becomes the best.  The CE flag shares the byte and is kept.
 */
static void test_path_memory(void **state)
{
	struct dcc_plb_state s = fresh();

	(void)state;
	s.flags = DCC_PLB_F_CE_SEEN;
	assert_int_equal(dcc_plb_choose(&s, 0x10, 0), 0);	/* draw */
	assert_int_equal(s.best_txhash, 0x10);
	assert_int_equal(dcc_plb_best_depth(&s), 0);
	assert_int_equal(s.flags & DCC_PLB_F_CE_SEEN, DCC_PLB_F_CE_SEEN);

	/* the draw hit the hot path: back */
	assert_int_equal(dcc_plb_choose(&s, 0x20, 5), 0x10);
	assert_int_equal(s.best_txhash, 0x10);

	/* the best, left again: measured again, a new draw */
	assert_int_equal(dcc_plb_choose(&s, 0x10, 1), 0);
	assert_int_equal(dcc_plb_best_depth(&s), 1);

	/* twice as deep: comparable, the new best */
	assert_int_equal(dcc_plb_choose(&s, 0x30, 2), 0);
	assert_int_equal(s.best_txhash, 0x30);
	assert_int_equal(dcc_plb_best_depth(&s), 2);

	assert_int_equal(dcc_plb_choose(&s, 0x50, 4), 0x30);
	assert_int_equal(dcc_plb_choose(&s, 0x50, 99), 0x30);	/* clamped */

	/* a best path that got worse is left for a new draw */
	assert_int_equal(dcc_plb_choose(&s, 0x30, 6), 0);
	assert_int_equal(dcc_plb_best_depth(&s), 6);
	assert_int_equal(s.flags & DCC_PLB_F_CE_SEEN, DCC_PLB_F_CE_SEEN);
}

/* After a retransmit timeout the best label may be the failed one. */
static void test_path_memory_forgotten_on_rto(void **state)
{
	struct dcc_plb_state s = fresh();

	(void)state;
	assert_int_equal(dcc_plb_choose(&s, 0x10, 0), 0);
	assert_true(dcc_plb_on_rto(&s, &defaults, 1000, HZ_T, 0, 0));
	assert_int_equal(s.best_txhash, 0);
	assert_int_equal(dcc_plb_best_depth(&s), 0);
	assert_int_equal(dcc_plb_choose(&s, 0x20, 6), 0);
}

/*
 * The lottery the memory ends (the two-path bench's trace: a connection
 * drew the congested path five times in a row): two paths, the label's
 * low bit picks one (A: smoothed RTT 43 ms, B: 0.6 ms, minimum 0.29 ms),
 * 2000 repaths with labels from a fixed LCG, each after 3 congested rounds
 * (dcc_plb_update() and dcc_plb_check() at the defaults).  Once the
 * connection has been on B, a draw that lands on A is followed by a
 * return to B: no two labels in a row on A, and a third of the stays on
 * A (random draws: a half).
 */
static void test_path_memory_lottery(void **state)
{
	struct dcc_plb_state s = fresh();
	u32 x = 12345, label, on_a = 0, run = 0, longest = 0, i, r;
	bool seen_b = false;

	(void)state;
	label = 0x2;				/* starts on B */
	for (i = 0; i < 2000; i++) {
		bool a = label & 1;
		u32 next, depth;

		seen_b |= !a;
		on_a += a;
		run = a && seen_b ? run + 1 : 0;
		longest = run > longest ? run : longest;
		for (r = 0; r < 3; r++) {
			dcc_plb_sample_len(&s, a ? 43000 : 1100, 1000);
			assert_true(dcc_plb_update(&s, &defaults, 256));
		}
		assert_int_equal(dcc_plb_check(&s, &defaults, 0, 1000, HZ_T),
				 DCC_PLB_REPATH_IDLE);
		depth = dcc_plb_depth(a ? 43000 : 600, 290);
		next = dcc_plb_choose(&s, label, depth);
		while (!next || next == label) {
			x = x * 1103515245u + 12345u;
			next = x >> 8;
		}
		label = next;
	}
	print_message("# %u of 2000 stays on the hot path\n", on_a);
	assert_int_equal(longest, 1);
	assert_true(on_a < 2000 * 2 / 5);
}

/*
 * The hold: back on its best label, a connection stays while the label
 * is no deeper than when it was judged best; deeper, it draws again.
 */
static void test_path_memory_hold(void **state)
{
	struct dcc_plb_state s = fresh();
	int i;

	(void)state;
	assert_int_equal(dcc_plb_choose(&s, 0x10, 1), 0);	/* draw */
	assert_int_equal(s.flags & DCC_PLB_F_BACK, 0);
	assert_int_equal(dcc_plb_choose(&s, 0x20, 7), 0x10);	/* back */
	assert_int_equal(s.flags & DCC_PLB_F_BACK, DCC_PLB_F_BACK);

	/* due on the best label at its depth or less: held */
	for (i = 0; i < 12; i++) {
		dcc_plb_sample(&s, true);
		dcc_plb_update(&s, &defaults, 256);
	}
	s.flags &= ~DCC_PLB_F_LEFT_CONG;
	assert_int_equal(dcc_plb_check_path(&s, &defaults, 3, 1000, HZ_T,
					    0x10, 1), DCC_PLB_HELD);
	assert_int_equal(s.consec_cong_rounds, 0);	/* starts over */
	assert_int_equal(s.ref_rounds, 0);
	assert_int_not_equal(s.samples, 0);		/* the same path */
	assert_int_equal(s.flags & DCC_PLB_F_LEFT_CONG, 0);
	assert_int_equal(s.best_txhash, 0x10);
	for (i = 0; i < 12; i++)
		dcc_plb_update(&s, &defaults, 256);
	assert_int_equal(dcc_plb_check_path(&s, &defaults, 0, 1000, HZ_T,
					    0x10, 0), DCC_PLB_HELD);

	/* not before it is due */
	assert_int_equal(dcc_plb_check_path(&s, &defaults, 3, 1000, HZ_T,
					    0x10, 1), DCC_PLB_NONE);

	/* a pause comes first */
	for (i = 0; i < 12; i++)
		dcc_plb_update(&s, &defaults, 256);
	s.pause_until = 2000;
	assert_int_equal(dcc_plb_check_path(&s, &defaults, 3, 1000, HZ_T,
					    0x10, 1), DCC_PLB_PAUSED);
	s.pause_until = 0;

	/* without its label (dcc_plb_check()), or on another label (TCP's
	 * own rehash at a timeout), a due repath is made
	 */
	assert_int_equal(dcc_plb_check(&s, &defaults, 3, 1000, HZ_T),
			 DCC_PLB_REPATH_FORCED);
	for (i = 0; i < 12; i++)
		dcc_plb_update(&s, &defaults, 256);
	assert_int_equal(dcc_plb_check_path(&s, &defaults, 3, 1000, HZ_T,
					    0x30, 1), DCC_PLB_REPATH_FORCED);

	/* deeper than when judged best: left, measured again, a new draw */
	for (i = 0; i < 12; i++)
		dcc_plb_update(&s, &defaults, 256);
	assert_int_equal(dcc_plb_check_path(&s, &defaults, 3, 1000, HZ_T,
					    0x10, 2), DCC_PLB_REPATH_FORCED);
	assert_int_equal(dcc_plb_choose(&s, 0x10, 2), 0);
	assert_int_equal(s.flags & DCC_PLB_F_BACK, 0);
	assert_int_equal(dcc_plb_best_depth(&s), 2);

	/* a label drawn, not gone back to, is never held */
	for (i = 0; i < 12; i++)
		dcc_plb_update(&s, &defaults, 256);
	assert_int_equal(dcc_plb_check_path(&s, &defaults, 3, 1000, HZ_T,
					    0x10, 0), DCC_PLB_REPATH_FORCED);

	/* a timeout that pauses forgets the memory and the hold */
	assert_int_equal(dcc_plb_choose(&s, 0x40, 6), 0x10);
	assert_int_equal(s.flags & DCC_PLB_F_BACK, DCC_PLB_F_BACK);
	s.flags &= ~DCC_PLB_F_LEFT_CONG;
	assert_true(dcc_plb_on_rto(&s, &defaults, 1000, HZ_T, 0, 0));
	assert_int_equal(s.flags & DCC_PLB_F_BACK, 0);
	assert_int_equal(s.best_txhash, 0);
}

/*
 * The two-path bed's bulk phase as the core sees it: path B holds the
 * queue at the target (a congested fraction over one half, depth 1),
 * path A is a cubic hog's queue (depth 7).  Without the hold a
 * connection leaves B at every due repath and half its draws land on A
 * (the lottery test above: a third of its stays on A); with it, once it
 * has gone back to B it stays.  2000 due repaths, labels from a fixed
 * LCG, the label's low bit picks the path.
 */
static void test_path_memory_hold_two_paths(void **state)
{
	struct dcc_plb_state s = fresh();
	u32 x = 12345, label = 0x3, on_a = 0, held = 0, i, r;
	enum dcc_plb_verdict v;

	(void)state;				/* starts on A */
	for (i = 0; i < 2000; i++) {
		bool a = label & 1;
		u32 depth = dcc_plb_depth(a ? 43000 : 600, 290);
		u32 next;

		on_a += a;
		for (r = 0; r < 12; r++) {
			dcc_plb_sample_len(&s, a ? 43000 : 600, 500);
			assert_true(dcc_plb_update(&s, &defaults, 256));
		}
		v = dcc_plb_check_path(&s, &defaults, 2, 1000, HZ_T, label,
				       depth);
		if (v == DCC_PLB_HELD) {
			held++;
			continue;
		}
		assert_int_equal(v, DCC_PLB_REPATH_FORCED);
		next = dcc_plb_choose(&s, label, depth);
		while (!next || next == label) {
			x = x * 1103515245u + 12345u;
			next = x >> 8;
		}
		label = next;
	}
	print_message("# %u of 2000 on the hot path, %u held\n", on_a, held);
	assert_true(on_a <= 3);
	assert_true(held >= 1990);
	assert_false(label & 1);		/* ends on B */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init),
		cmocka_unit_test(test_update_counts_and_resets),
		cmocka_unit_test(test_update_saturates),
		cmocka_unit_test(test_forced_after_n_rounds),
		cmocka_unit_test(test_idle_after_m_rounds),
		cmocka_unit_test(test_long_after_m_rounds),
		cmocka_unit_test(test_sample_len),
		cmocka_unit_test(test_rehash_rounds_zero_always_due),
		cmocka_unit_test(test_rto_pause),
		cmocka_unit_test(test_rto_pause_random_spread),
		cmocka_unit_test(test_rto_pause_wraps),
		cmocka_unit_test(test_rto_pause_never_zero),
		cmocka_unit_test(test_rto_congestion_no_pause),
		cmocka_unit_test(test_rto_after_repath),
		cmocka_unit_test(test_rto_black_hole_after_repath),
		cmocka_unit_test(test_rto_after_repath_probe),
		cmocka_unit_test(test_rto_after_repath_no_sample),
		cmocka_unit_test(test_rto_after_repath_repair),
		cmocka_unit_test(test_rto_after_repath_signal),
		cmocka_unit_test(test_rto_new_run_after_congestion_rto),
		cmocka_unit_test(test_stale_pause_cleared),
		cmocka_unit_test(test_suspend_zero_no_pause),
		cmocka_unit_test(test_round_delay_fraction),
		cmocka_unit_test(test_delay_pool_held_queue),
		cmocka_unit_test(test_repair_round_takes_pool),
		cmocka_unit_test(test_round_delivered_wraps),
		cmocka_unit_test(test_round_ecn_wins_when_marked),
		cmocka_unit_test(test_round_samples_saturate),
		cmocka_unit_test(test_random_vs_reference),
		cmocka_unit_test(test_abi_layout_pinned),
		cmocka_unit_test(test_depth),
		cmocka_unit_test(test_label_depth),
		cmocka_unit_test(test_path_memory),
		cmocka_unit_test(test_path_memory_forgotten_on_rto),
		cmocka_unit_test(test_path_memory_lottery),
		cmocka_unit_test(test_path_memory_hold),
		cmocka_unit_test(test_path_memory_hold_two_paths),
	};

	return cmocka_run_group_tests_name("dcc_plb", tests, NULL, NULL);
}
