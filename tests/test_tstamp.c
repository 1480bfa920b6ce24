// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of include/dcc_tstamp.h: moving stamps between clock domains
 * (missing, from the future, too old, hardware stamps from a PHC synced to
 * REALTIME or TAI, from a free-running PHC or a driver cookie), the choice
 * of source per tstamp= mode, and the fabric / endpoint split of an RTT
 * sample (stale and foreign stashes, out of order, arrival before
 * departure, the microsecond clock wrapping), plus a randomized comparison
 * with a reference computed on 64-bit nanosecond times.
 */
#include "dcc_test.h"
#include "dcc_tstamp.h"

#define NS	1ULL
#define US	1000ULL
#define MS	1000000ULL
#define SEC	1000000000ULL

/* A plausible moment: 2026 in REALTIME, TAI 37 s ahead, 1 h of uptime. */
static const struct dcc_ts_clocks clk = {
	.local_ns = 3600 * SEC + 123456789,
	.real_ns = 1795000000ULL * SEC + 987654321,
	.tai_ns = (1795000000ULL + 37) * SEC + 987654321,
};

static void test_rebase_basic(void **state)
{
	u64 out = 0;

	(void)state;
	/* 300 us old in REALTIME: 300 us before now on the local clock. */
	assert_true(dcc_ts_rebase(clk.real_ns - 300 * US, clk.real_ns,
				  clk.local_ns, DCC_TS_MAX_AGE_NS, &out));
	assert_int_equal(out, clk.local_ns - 300 * US);
	/* Age 0 is fine. */
	assert_true(dcc_ts_rebase(clk.real_ns, clk.real_ns, clk.local_ns,
				  DCC_TS_MAX_AGE_NS, &out));
	assert_int_equal(out, clk.local_ns);
	/* Exactly the largest age is fine, one more is not. */
	assert_true(dcc_ts_rebase(clk.real_ns - DCC_TS_MAX_AGE_NS, clk.real_ns,
				  clk.local_ns, DCC_TS_MAX_AGE_NS, &out));
	assert_false(dcc_ts_rebase(clk.real_ns - DCC_TS_MAX_AGE_NS - 1,
				   clk.real_ns, clk.local_ns,
				   DCC_TS_MAX_AGE_NS, &out));
}

static void test_rebase_refused(void **state)
{
	u64 out = 42;

	(void)state;
	/* Missing. */
	assert_false(dcc_ts_rebase(0, clk.real_ns, clk.local_ns,
				   DCC_TS_MAX_AGE_NS, &out));
	/* From the future (clock stepped back, or another domain). */
	assert_false(dcc_ts_rebase(clk.real_ns + 1, clk.real_ns, clk.local_ns,
				   DCC_TS_MAX_AGE_NS, &out));
	/* Older than the local clock itself (just booted). */
	assert_false(dcc_ts_rebase(500 * MS, 900 * MS, 100 * MS, SEC, &out));
	/* Output untouched on refusal. */
	assert_int_equal(out, 42);
}

static void test_hw_domains(void **state)
{
	u64 out = 0;

	(void)state;
	/* PHC synced to REALTIME (phc2sys -O 0). */
	assert_true(dcc_ts_rebase_hw(clk.real_ns - 20 * US, &clk, &out));
	assert_int_equal(out, clk.local_ns - 20 * US);
	/* PHC in TAI (ptp4l's default, phc2sys keeps REALTIME = TAI - 37). */
	assert_true(dcc_ts_rebase_hw(clk.tai_ns - 20 * US, &clk, &out));
	assert_int_equal(out, clk.local_ns - 20 * US);
	/* Free-running PHC counting from its reset (5 s). */
	assert_false(dcc_ts_rebase_hw(5 * SEC, &clk, &out));
	/* A PHC 2 s off (not yet synced). */
	assert_false(dcc_ts_rebase_hw(clk.real_ns - 2 * SEC, &clk, &out));
	assert_false(dcc_ts_rebase_hw(clk.real_ns + 2 * SEC, &clk, &out));
	/* A driver cookie in the same union (a kernel pointer). */
	assert_false(dcc_ts_rebase_hw(0xffff888012345678ULL, &clk, &out));
	/* Between the domains (20 s after REALTIME, 17 s before TAI). */
	assert_false(dcc_ts_rebase_hw(clk.real_ns + 20 * SEC, &clk, &out));
}

static void test_pick_modes(void **state)
{
	struct dcc_ts_raw both = {
		.sw_ns = clk.real_ns - 100 * US,
		.hw_ns = clk.real_ns - 130 * US,
	};
	struct dcc_ts_raw bad_hw = {
		.sw_ns = clk.real_ns - 100 * US,
		.hw_ns = 5 * SEC,
	};
	struct dcc_ts_raw none = { 0 };
	bool rej;
	u64 rx = 0;

	(void)state;
	/* auto trusts no PHC by itself: software, the hardware stamp unread. */
	assert_int_equal(dcc_ts_pick(DCC_TS_MODE_AUTO, &both, &clk, &rx, &rej),
			 DCC_TS_SRC_SW);
	assert_int_equal(rx, clk.local_ns - 100 * US);
	assert_false(rej);
	assert_int_equal(dcc_ts_pick(DCC_TS_MODE_SW, &both, &clk, &rx, &rej),
			 DCC_TS_SRC_SW);
	assert_int_equal(rx, clk.local_ns - 100 * US);
	assert_int_equal(dcc_ts_pick(DCC_TS_MODE_HW, &both, &clk, &rx, &rej),
			 DCC_TS_SRC_HW);
	assert_int_equal(rx, clk.local_ns - 130 * US);
	assert_int_equal(dcc_ts_pick(DCC_TS_MODE_OFF, &both, &clk, &rx, &rej),
			 DCC_TS_SRC_NONE);
	assert_false(rej);
	/* An unrelated hardware clock: auto does not even look at it ... */
	assert_int_equal(dcc_ts_pick(DCC_TS_MODE_AUTO, &bad_hw, &clk, &rx,
				     &rej), DCC_TS_SRC_SW);
	assert_int_equal(rx, clk.local_ns - 100 * US);
	assert_false(rej);
	/* ... hardware-only uses nothing and says so. */
	assert_int_equal(dcc_ts_pick(DCC_TS_MODE_HW, &bad_hw, &clk, &rx, &rej),
			 DCC_TS_SRC_NONE);
	assert_true(rej);
	/* No stamps at all: nothing, and nothing rejected. */
	assert_int_equal(dcc_ts_pick(DCC_TS_MODE_AUTO, &none, &clk, &rx, &rej),
			 DCC_TS_SRC_NONE);
	assert_false(rej);
	/* Software-only never looks at a hardware stamp. */
	none.hw_ns = clk.real_ns - 10 * US;
	assert_int_equal(dcc_ts_pick(DCC_TS_MODE_SW, &none, &clk, &rx, &rej),
			 DCC_TS_SRC_NONE);
	assert_false(rej);
}

/* Stash an ACK seen at local time t_ns, received age_ns earlier (REALTIME). */
static struct dcc_ts_stash stash_at(u64 t_ns, u64 age_ns, u32 ack_seq)
{
	struct dcc_ts_clocks c = {
		.local_ns = t_ns,
		.real_ns = clk.real_ns,
		.tai_ns = clk.tai_ns,
	};
	struct dcc_ts_raw raw = { .sw_ns = clk.real_ns - age_ns };
	struct dcc_ts_stash st;

	memset(&st, 0xa5, sizeof(st));
	dcc_ts_stash_ack(&st, DCC_TS_MODE_AUTO, &raw, &c, ack_seq);
	return st;
}

static void test_split_basic(void **state)
{
	u64 t = clk.local_ns;
	struct dcc_ts_stash st = stash_at(t, 700 * US, 1000);
	struct dcc_ts_split sp;
	u32 now = (u32)(t / US) + 3;	/* tcp_mstamp a little later */

	(void)state;
	assert_int_equal(st.src, DCC_TS_SRC_SW);
	assert_int_equal(dcc_ts_split(&st, now, 1000, 1500, &sp), DCC_TS_V_SW);
	assert_int_equal(sp.ep_us, 703);
	assert_int_equal(sp.fabric_us, 1500 - 703);
	/* Consumed: the next ACK without a probe has no split. */
	assert_int_equal(dcc_ts_split(&st, now + 10, 1000, 1500, &sp),
			 DCC_TS_V_MISSING);
	assert_int_equal(sp.fabric_us, 1500);
	assert_int_equal(sp.ep_us, 0);
}

static void test_split_hw(void **state)
{
	struct dcc_ts_clocks c = clk;
	struct dcc_ts_raw raw = { .sw_ns = clk.real_ns - 50 * US,
				  .hw_ns = clk.tai_ns - 80 * US };
	struct dcc_ts_stash st = { 0 };
	struct dcc_ts_split sp;

	(void)state;
	dcc_ts_stash_ack(&st, DCC_TS_MODE_HW, &raw, &c, 7);
	assert_int_equal(dcc_ts_split(&st, (u32)(c.local_ns / US), 7, 200,
				      &sp), DCC_TS_V_HW);
	assert_int_equal(sp.ep_us, 80);
	assert_int_equal(sp.fabric_us, 120);
}

static void test_split_other_ack(void **state)
{
	u64 t = clk.local_ns;
	struct dcc_ts_stash st = stash_at(t, 100 * US, 5000);
	struct dcc_ts_split sp;

	(void)state;
	/* Processed ACK acknowledges 6000: the stash is another ACK's. */
	assert_int_equal(dcc_ts_split(&st, (u32)(t / US), 6000, 900, &sp),
			 DCC_TS_V_MISSING);
	assert_int_equal(sp.fabric_us, 900);
	assert_int_equal(st.src, DCC_TS_SRC_NONE);
}

static void test_split_stale_gap(void **state)
{
	u64 t = clk.local_ns;
	struct dcc_ts_stash st = stash_at(t, 100 * US, 1);
	struct dcc_ts_split sp;
	u32 now = (u32)(t / US);

	(void)state;
	/* Probe more than DCC_TS_MAX_GAP_US before processing. */
	assert_int_equal(dcc_ts_split(&st, now + DCC_TS_MAX_GAP_US + 1, 1,
				      50000, &sp), DCC_TS_V_REJECTED);
	assert_int_equal(sp.fabric_us, 50000);
	/* Exactly the gap is accepted. */
	st = stash_at(t, 100 * US, 1);
	assert_int_equal(dcc_ts_split(&st, now + DCC_TS_MAX_GAP_US, 1, 50000,
				      &sp), DCC_TS_V_SW);
	/* Probe after processing (clock from elsewhere). */
	st = stash_at(t, 100 * US, 1);
	assert_int_equal(dcc_ts_split(&st, now - 1, 1, 50000, &sp),
			 DCC_TS_V_REJECTED);
}

static void test_split_out_of_order(void **state)
{
	struct dcc_ts_stash st = {
		.src = DCC_TS_SRC_SW, .ack_lo = 9,
		.probe_lo = 1000, .rx_us = 1010,	/* after processing */
	};
	struct dcc_ts_split sp;

	(void)state;
	assert_int_equal(dcc_ts_split(&st, 1005, 9, 300, &sp),
			 DCC_TS_V_REJECTED);
	assert_int_equal(sp.fabric_us, 300);
	assert_int_equal(sp.ep_us, 0);
}

static void test_split_before_departure(void **state)
{
	struct dcc_ts_stash st = {
		.src = DCC_TS_SRC_HW, .ack_lo = 9,
		.probe_lo = 1000, .rx_us = 400,		/* 600 us before now */
	};
	struct dcc_ts_split sp;

	(void)state;
	/* RTT 500 us: received 100 us before the segment left. */
	assert_int_equal(dcc_ts_split(&st, 1000, 9, 500, &sp),
			 DCC_TS_V_REJECTED);
	assert_int_equal(sp.fabric_us, 500);
	/* RTT 600 us: fabric delay 0 is possible (all endpoint). */
	st.src = DCC_TS_SRC_HW;
	assert_int_equal(dcc_ts_split(&st, 1000, 9, 600, &sp), DCC_TS_V_HW);
	assert_int_equal(sp.fabric_us, 0);
	assert_int_equal(sp.ep_us, 600);
}

static void test_split_rejected_stamp(void **state)
{
	struct dcc_ts_clocks c = clk;
	struct dcc_ts_raw raw = { .hw_ns = 5 * SEC };	/* free-running PHC */
	struct dcc_ts_stash st = { 0 };
	struct dcc_ts_split sp;

	(void)state;
	dcc_ts_stash_ack(&st, DCC_TS_MODE_HW, &raw, &c, 77);
	assert_int_equal(st.src, DCC_TS_SRC_NONE);
	assert_int_equal(dcc_ts_split(&st, (u32)(c.local_ns / US), 77, 300,
				      &sp), DCC_TS_V_REJECTED);
	assert_int_equal(sp.fabric_us, 300);
	/* Consumed: a later ACK without a probe is missing, not rejected. */
	assert_int_equal(dcc_ts_split(&st, (u32)(c.local_ns / US), 77, 300,
				      &sp), DCC_TS_V_MISSING);
}

static void test_split_wraps(void **state)
{
	/* The microsecond clocks wrap between receipt and processing. */
	struct dcc_ts_stash st = {
		.src = DCC_TS_SRC_SW, .ack_lo = 0xfff0,
		.rx_us = 0xffff00, .probe_lo = 0xfff0,
	};
	struct dcc_ts_split sp;

	(void)state;
	assert_int_equal(dcc_ts_split(&st, 0x10, 0xfffffff0u, 1000, &sp),
			 DCC_TS_V_SW);
	assert_int_equal(sp.ep_us, 0x110);
	assert_int_equal(sp.fabric_us, 1000 - 0x110);
	/* The same across the 32-bit wrap of tcp_mstamp's low bits. */
	st.src = DCC_TS_SRC_SW;
	assert_int_equal(dcc_ts_split(&st, 0x10, 0xfff0, 1000, &sp),
			 DCC_TS_V_SW);
	assert_int_equal(sp.ep_us, 0x110);
	/* Local clock reading across the 2^32 us boundary. */
	{
		u64 t = (1ULL << 32) * US + 5 * US;	/* 5 us past a wrap */
		struct dcc_ts_stash w = stash_at(t, 20 * US, 3);

		assert_int_equal(w.rx_us, (u32)-15 & DCC_TS_US_MASK);
		assert_int_equal(w.probe_lo, 5);
		assert_int_equal(dcc_ts_split(&w, 6, 3, 100, &sp),
				 DCC_TS_V_SW);
		assert_int_equal(sp.ep_us, 21);
		assert_int_equal(sp.fabric_us, 79);
	}
	/* An endpoint delay near the 24-bit range (8 s) is still exact ... */
	st = (struct dcc_ts_stash){ .src = DCC_TS_SRC_SW, .ack_lo = 1,
				    .rx_us = 5, .probe_lo = 5 };
	assert_int_equal(dcc_ts_split(&st, 5 + (1U << 23) - 1, 1, 1U << 24,
				      &sp), DCC_TS_V_REJECTED);	/* gap */
	st = (struct dcc_ts_stash){ .src = DCC_TS_SRC_SW, .ack_lo = 1,
				    .rx_us = 5, .probe_lo = (u16)(4 + (1U << 23)) };
	assert_int_equal(dcc_ts_split(&st, 5 + (1U << 23) - 1, 1, 1U << 24,
				      &sp), DCC_TS_V_SW);
	assert_int_equal(sp.ep_us, (1U << 23) - 1);
	/* ... one more reads as a stamp from the future: refused. */
	st = (struct dcc_ts_stash){ .src = DCC_TS_SRC_SW, .ack_lo = 1,
				    .rx_us = 5, .probe_lo = (u16)(5 + (1U << 23)) };
	assert_int_equal(dcc_ts_split(&st, 5 + (1U << 23), 1, 1U << 24,
				      &sp), DCC_TS_V_REJECTED);
}

static void test_stash_size(void **state)
{
	(void)state;
	/* It shares the 104-byte private area with the modules' state. */
	assert_true(sizeof(struct dcc_ts_stash) <= 8);
}

/*
 * Random ACKs: departure, arrival and processing on a 64-bit nanosecond
 * clock, the realtime clock at a random offset (and sometimes stepped),
 * the hardware clock synced, in TAI, or unrelated.  The split must equal
 * the reference computed on the 64-bit times (truncated to us), fabric +
 * endpoint must equal the RTT, and unusable stamps must never split.
 */
static void test_random_vs_reference(void **state)
{
	struct test_rng r = { 0x5eed7a11ce5ULL };
	int i, splits = 0, fallbacks = 0;

	(void)state;
	for (i = 0; i < 200000; i++) {
		u64 local0 = rng_range(&r, 2 * SEC, 1ULL << 52);
		u64 real_off = rng_range(&r, 0, 1ULL << 60);
		u64 dep = local0;
		u64 rx = dep + rng_range(&r, 0, 20 * MS);
		u64 probe = rx + rng_range(&r, 0, 20 * MS);
		u64 now = probe + rng_range(&r, 0, 3 * US);
		int kind = (int)rng_range(&r, 0, 3);
		unsigned int mode = (unsigned int)rng_range(&r, 0, 3);
		struct dcc_ts_clocks c = {
			.local_ns = probe,
			.real_ns = probe + real_off,
			.tai_ns = probe + real_off + 37 * SEC,
		};
		struct dcc_ts_raw raw = { .sw_ns = rx + real_off };
		struct dcc_ts_stash st = { 0 };
		struct dcc_ts_split sp;
		u32 now_us = (u32)(now / US);
		u32 rtt = now_us - (u32)(dep / US);
		enum dcc_ts_verdict v;
		bool usable_hw = false, usable_sw;

		switch (kind) {
		case 0:		/* synced to REALTIME */
			raw.hw_ns = rx - rng_range(&r, 0, 2 * US) + real_off;
			usable_hw = true;
			break;
		case 1:		/* TAI */
			raw.hw_ns = rx + real_off + 37 * SEC;
			usable_hw = true;
			break;
		case 2:		/* free running */
			raw.hw_ns = rng_range(&r, 1, 100 * SEC);
			break;
		default:	/* none */
			raw.hw_ns = 0;
			break;
		}
		/* A realtime step between receipt and processing. */
		if (rng_range(&r, 0, 15) == 0)
			c.real_ns -= rng_range(&r, 2 * SEC, 100 * SEC);
		usable_sw = c.real_ns >= raw.sw_ns;
		if (rng_range(&r, 0, 31) == 0)
			raw.sw_ns = 0, usable_sw = false;
		if (usable_hw && raw.hw_ns > c.real_ns && kind == 0)
			usable_hw = false;
		if (kind == 1 && c.tai_ns < raw.hw_ns)
			usable_hw = false;

		dcc_ts_stash_ack(&st, mode, &raw, &c, (u32)i);
		v = dcc_ts_split(&st, now_us, (u32)i, rtt, &sp);
		assert_int_equal(sp.fabric_us + sp.ep_us, rtt);
		if (v == DCC_TS_V_HW || v == DCC_TS_V_SW) {
			u64 got_rx = v == DCC_TS_V_HW ? raw.hw_ns : raw.sw_ns;
			/* Arrival as the module sees it: its age, from now. */
			u64 age = (v == DCC_TS_V_HW && kind == 1 ?
				   c.tai_ns : c.real_ns) - got_rx;
			u32 want_ep = now_us - (u32)((probe - age) / US);

			assert_true(mode != DCC_TS_MODE_OFF);
			assert_true(v == DCC_TS_V_HW ? usable_hw : usable_sw);
			assert_int_equal(sp.ep_us, want_ep);
			splits++;
		} else {
			assert_int_equal(sp.fabric_us, rtt);
			assert_int_equal(sp.ep_us, 0);
			if (mode == DCC_TS_MODE_OFF)
				assert_int_equal(v, DCC_TS_V_MISSING);
			fallbacks++;
		}
		/* auto never uses a hardware stamp (opt-in only). */
		if (mode == DCC_TS_MODE_AUTO)
			assert_int_not_equal(v, DCC_TS_V_HW);
	}
	assert_true(splits > 50000);
	assert_true(fallbacks > 50000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rebase_basic),
		cmocka_unit_test(test_rebase_refused),
		cmocka_unit_test(test_hw_domains),
		cmocka_unit_test(test_pick_modes),
		cmocka_unit_test(test_split_basic),
		cmocka_unit_test(test_split_hw),
		cmocka_unit_test(test_split_other_ack),
		cmocka_unit_test(test_split_stale_gap),
		cmocka_unit_test(test_split_out_of_order),
		cmocka_unit_test(test_split_before_departure),
		cmocka_unit_test(test_split_rejected_stamp),
		cmocka_unit_test(test_split_wraps),
		cmocka_unit_test(test_stash_size),
		cmocka_unit_test(test_random_vs_reference),
	};

	return cmocka_run_group_tests_name("dcc_tstamp", tests, NULL, NULL);
}
