// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness of the timestamp layer (include/dcc_tstamp.h): the
 * clock-domain rules and the split of an RTT sample into fabric and
 * endpoint delay.
 *
 * The simulated host has TCP's clock (monotonic, ns, started anywhere,
 * also where its low 32 bits of microseconds wrap), CLOCK_REALTIME at an
 * offset that can be stepped (forward or back) between a stamp and the
 * reading it is compared with, CLOCK_TAI whole seconds ahead, and a
 * NIC clock that is synced to REALTIME or TAI within an error, or free
 * running.  Per ACK: the segment's fabric and endpoint delay, the stamps
 * (honest, missing, from the future, stale, garbage), the probe's moment
 * (between arrival and processing, or wrong), the acknowledgment number
 * (this ACK's or another's) and the RTT sample (true or anything).
 *
 * Invariants after every ACK:
 *  - fabric + endpoint == the RTT sample, endpoint <= sample; without a
 *    usable stamp the whole sample is fabric delay; the stash is consumed;
 *  - a split uses only a source the mode allows (off: none);
 *  - with an honest software stamp the mode allows, no clock step, the
 *    probe between arrival and processing and a true sample, the split is
 *    the true one to within 1 us; with an honest hardware stamp, to
 *    within the sync error + 1 us;
 *  - a stamp is moved onto TCP's clock only when its age is in [0, 1 s]
 *    and the result is that age before the local reading.
 */
#include "fuzz.h"

#include "dcc_tstamp.h"

#define NS	1000ULL

struct sim {
	struct fz f;
	u32 mode;
	u64 local_ns;		/* TCP's clock */
	u64 real_off;		/* REALTIME - local */
	u64 tai_off;		/* TAI - REALTIME */
	u32 snd_una;
	struct dcc_ts_stash st;
};

/* dcc_ts_rebase() on any values against its definition. */
static void op_rebase(struct sim *x)
{
	struct fz *f = &x->f;
	u64 stamp = fz_u64_edge(f), dom = fz_u64_edge(f);
	u64 local = fz_u64_edge(f), max_age = fz_u8(f) & 1 ?
			DCC_TS_MAX_AGE_NS : fz_u64_edge(f);
	u64 out = 0x5a5a;
	bool ok = dcc_ts_rebase(stamp, dom, local, max_age, &out);
	bool want = stamp && stamp <= dom && dom - stamp <= max_age &&
		    dom - stamp <= local;

	FZ_CHECK(f, ok == want, "rebase(%llu, %llu, %llu, %llu) = %d",
		 (unsigned long long)stamp, (unsigned long long)dom,
		 (unsigned long long)local, (unsigned long long)max_age, ok);
	if (ok)
		FZ_CHECK(f, out == local - (dom - stamp), "rebased to %llu",
			 (unsigned long long)out);
	else
		FZ_CHECK(f, out == 0x5a5a, "refused but wrote the result");
}

/*
 * Step REALTIME by us microseconds, keeping it in [0, 2^62] ns ahead of
 * TCP's clock (REALTIME does not come near 2^64 ns before the year 2554).
 * Returns the step taken, ns.
 */
static u64 real_step_by(struct sim *x, s32 us)
{
	s64 step = (s64)us * 1000;
	u64 old = x->real_off;

	if (step < 0 && (u64)-step > x->real_off)
		x->real_off = 0;
	else
		x->real_off = dcc_min_u64(x->real_off + step, BIT_ULL(62));
	return x->real_off - old;
}

static void ev_ack(struct sim *x)
{
	struct fz *f = &x->f;
	u8 sel = fz_u8(f), sel2 = fz_u8(f);
	u64 ep_ns = sel & 1 ? fz_range(f, 0, 2000) * NS + fz_u16(f) % 1000 :
			      (u64)fz_u32_edge(f) * NS / 4;
	u64 fab_ns = sel & 2 ? fz_range(f, 1, 10000) * NS + fz_u16(f) % 1000 :
			       (u64)fz_u32_edge(f) * NS / 4;
	u64 gap_ns, now, rx, probe, hw_err = 0, real_step = 0;
	struct dcc_ts_raw raw = { 0 };
	struct dcc_ts_clocks c;
	struct dcc_ts_split sp;
	enum dcc_ts_verdict v;
	bool honest_sw = false, honest_hw = false, true_rtt, same_ack;
	bool hw_early = sel2 & 8;
	u32 rtt_us, now_us, ack_seq;
	u64 ep_true_us;

	/* Time passes; the ACK is processed now, arrived ep_ns before. */
	x->local_ns += fz_u32_edge(f);
	now = x->local_ns;
	ep_ns = dcc_min_u64(ep_ns, now);
	rx = now - ep_ns;
	/* The probe saw it between arrival and processing, or not. */
	if (sel & 4)
		gap_ns = ep_ns ? fz_u32(f) % (ep_ns + 1) : 0;
	else
		gap_ns = fz_u32_edge(f);
	gap_ns = dcc_min_u64(gap_ns, now);
	probe = now - gap_ns;
	if ((sel2 & 7) == 7)
		probe = now + fz_u16(f);	/* after processing */

	/* Software stamp: REALTIME at arrival, unless broken. */
	switch ((sel >> 3) & 3) {
	case 0:
		raw.sw_ns = rx + x->real_off;
		honest_sw = true;
		break;
	case 1:
		raw.sw_ns = 0;
		break;
	case 2:
		raw.sw_ns = fz_u64_edge(f);
		break;
	default:
		raw.sw_ns = rx + x->real_off + (u64)(s64)(int16_t)fz_u16(f) * 1000;
		break;
	}
	/* Hardware stamp: synced to REALTIME or TAI within hw_err, or not. */
	switch ((sel >> 5) & 3) {
	case 0:
		raw.hw_ns = 0;
		break;
	case 1:
		hw_err = fz_u8(f) * NS;
		raw.hw_ns = rx + x->real_off + (hw_early ? -hw_err : hw_err);
		honest_hw = true;
		break;
	case 2:
		hw_err = fz_u8(f) * NS;
		raw.hw_ns = rx + x->real_off + x->tai_off +
			    (hw_early ? -hw_err : hw_err);
		honest_hw = true;
		break;
	default:
		raw.hw_ns = fz_u64_edge(f);	/* free-running PHC, cookie */
		break;
	}
	/* REALTIME stepped between the stamp and the probe's reading. */
	if (sel2 & 16)
		real_step = real_step_by(x, (s32)fz_u32(f));
	c.local_ns = probe;
	c.real_ns = probe + x->real_off;
	c.tai_ns = probe + x->real_off + x->tai_off;
	ack_seq = sel2 & 32 ? x->snd_una + fz_u8(f) + 1 : x->snd_una;
	same_ack = ack_seq == x->snd_una;

	dcc_ts_stash_ack(&x->st, x->mode, &raw, &c, ack_seq);
	FZ_CHECK(f, x->st.src <= DCC_TS_SRC_HW, "stash src %u", x->st.src);
	FZ_CHECK(f, x->mode != DCC_TS_MODE_OFF || (x->st.src ==
		 DCC_TS_SRC_NONE && !x->st.rejected), "mode off stashed");
	FZ_CHECK(f, x->mode != DCC_TS_MODE_SW || x->st.src != DCC_TS_SRC_HW,
		 "hardware stamp in software mode");
	FZ_CHECK(f, x->mode != DCC_TS_MODE_AUTO || x->st.src != DCC_TS_SRC_HW,
		 "hardware stamp in auto mode (hardware is opt-in)");
	FZ_CHECK(f, x->mode != DCC_TS_MODE_HW || x->st.src != DCC_TS_SRC_SW,
		 "software stamp in hardware mode");

	true_rtt = !(sel2 & 64);
	rtt_us = true_rtt ? dcc_sat_u32((ep_ns + fab_ns) / NS) :
			    fz_u32_edge(f);
	now_us = (u32)(now / NS);
	if (sel2 & 128) {
		/* A second call finds the stash consumed. */
		dcc_ts_split(&x->st, now_us, x->snd_una, rtt_us, &sp);
	}
	v = dcc_ts_split(&x->st, now_us, x->snd_una, rtt_us, &sp);
	FZ_LOG(f, "ack mode=%u ep=%llu fab=%llu gap=%lld sw=%d hw=%d step=%lld seq=%d rtt=%u -> v=%d fabric=%u ep=%u",
	       x->mode, (unsigned long long)ep_ns, (unsigned long long)fab_ns,
	       (long long)(now - probe), honest_sw, honest_hw,
	       (long long)real_step, same_ack, rtt_us, v, sp.fabric_us,
	       sp.ep_us);

	FZ_CHECK(f, v < DCC_TS_V_MAX, "verdict %d", v);
	FZ_CHECK(f, (u64)sp.fabric_us + sp.ep_us == rtt_us && sp.ep_us <= rtt_us,
		 "split %u + %u of %u", sp.fabric_us, sp.ep_us, rtt_us);
	FZ_CHECK(f, x->st.src == DCC_TS_SRC_NONE, "stash not consumed");
	if (v == DCC_TS_V_MISSING || v == DCC_TS_V_REJECTED)
		FZ_CHECK(f, sp.fabric_us == rtt_us && !sp.ep_us,
			 "no split, but %u + %u", sp.fabric_us, sp.ep_us);
	if (x->mode == DCC_TS_MODE_OFF)
		FZ_CHECK(f, v == DCC_TS_V_MISSING, "mode off: verdict %d", v);
	if (v == DCC_TS_V_HW)
		FZ_CHECK(f, x->mode == DCC_TS_MODE_AUTO ||
			 x->mode == DCC_TS_MODE_HW, "hw split in mode %u",
			 x->mode);
	if (v == DCC_TS_V_SW)
		FZ_CHECK(f, x->mode == DCC_TS_MODE_AUTO ||
			 x->mode == DCC_TS_MODE_SW, "sw split in mode %u",
			 x->mode);
	if (!same_ack)
		FZ_CHECK(f, v == DCC_TS_V_MISSING, "another ACK's stash: %d",
			 v);

	/* Honest stamps give the true split. */
	ep_true_us = (u32)(now_us - (u32)(rx / NS));	/* both truncated */
	if (!same_ack || real_step || (sel2 & 128) || !true_rtt ||
	    probe > now || probe < rx || now - probe > DCC_TS_MAX_GAP_US * NS ||
	    ep_ns > DCC_TS_MAX_AGE_NS || ep_true_us > rtt_us)
		goto out;
	if (x->mode == DCC_TS_MODE_SW && honest_sw && raw.sw_ns) {
		FZ_CHECK(f, v == DCC_TS_V_SW, "honest sw stamp: verdict %d", v);
		FZ_CHECK(f, sp.ep_us + 1 >= ep_true_us &&
			 sp.ep_us <= ep_true_us + 1,
			 "endpoint delay %u, true %llu", sp.ep_us,
			 (unsigned long long)ep_true_us);
	}
	/*
	 * A hardware stamp up to hw_err late may read as from the future in
	 * its own domain at the probe (then it is refused, or read in the
	 * other domain, which only a TAI offset of exactly 1 s could accept):
	 * checked when it is not later than the probe.
	 */
	if (honest_hw && v == DCC_TS_V_HW &&
	    (hw_early || rx + hw_err <= probe))
		FZ_CHECK(f, sp.ep_us + 1 + hw_err / NS >= ep_true_us &&
			 sp.ep_us <= ep_true_us + 1 + hw_err / NS,
			 "endpoint delay %u, true %llu, sync error %llu ns",
			 sp.ep_us, (unsigned long long)ep_true_us,
			 (unsigned long long)hw_err);
	if (x->mode == DCC_TS_MODE_HW && honest_hw && !hw_err && raw.hw_ns)
		FZ_CHECK(f, v == DCC_TS_V_HW, "honest hw stamp: verdict %d", v);
out:
	x->snd_una += fz_u8(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sim x;
	struct fz *f = &x.f;

	memset(&x, 0, sizeof(x));
	fz_init(f, data, size);
	x.mode = fz_u8(f) % DCC_TS_MODE_MAX;
	/* Often just before the u32 microsecond clock wraps. */
	x.local_ns = fz_u8(f) & 1 ? (BIT_ULL(32) * (fz_u8(f) + 1) - fz_u16(f)) *
				    NS : fz_u64_edge(f) >> 2;
	x.real_off = fz_u8(f) & 1 ? 1700000000ULL * 1000000000ULL :
				    fz_u64_edge(f) >> 2;
	/* TAI - REALTIME: whole seconds, 0 until set (37 s since 2017). */
	x.tai_off = (fz_u8(f) & 1 ? 37 : fz_u8(f)) * 1000000000ULL;
	x.snd_una = fz_u32_edge(f);

	while (fz_more(f) && f->ev < 4096) {
		u8 op = fz_u8(f);

		f->ev++;
		switch (op & 7) {
		case 0: case 1: case 2: case 3: case 4:
			ev_ack(&x);
			break;
		case 5:
			op_rebase(&x);
			break;
		case 6:
			/* tstamp= written (the module checks the range). */
			x.mode = fz_u8(f) % DCC_TS_MODE_MAX;
			break;
		default:
			/* A REALTIME step, kept. */
			real_step_by(&x, (s32)fz_u32(f));
			break;
		}
	}
	return 0;
}
