// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness of HPCC's sender window (include/dcc_hpcc.h).  The
 * input is a parameter set (any values, valid or not), a base RTT and an
 * initial window, then ACKs: a number of hops (0 to HPCC_MAX_HOPS + 2),
 * each hop's record moved by any amount (clocks and byte counters wrap,
 * go back, stand still; queues and line rates anywhere), any acknowledged
 * and next sequence.  After every ACK:
 *  - U <= HPCC_U_MAX and the window lies in [w_min, w_max] as the core
 *    clamps them (hpcc_clamp_w), the reference window too;
 *  - the window is the reference window's additive step (U < eta and
 *    stages left) or at most the multiplicative step's largest result;
 *  - an ACK without records changes nothing;
 *  - the pacing rate of the window is >= 1 byte per second once W >= 1;
 *  - hpcc_tx_bytes() of any two records: the counters' difference when
 *    both have one, else at most the line rate (capped) over the interval.
 */
#include "fuzz.h"

#include "dcc_hpcc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hpcc_hop h[HPCC_MAX_HOPS + 2] = { { 0 } };
	struct hpcc_params p;
	struct hpcc_state s;
	u32 t_us, ack = 0, nxt = 0, i;
	struct fz f;

	fz_init(&f, data, size);
	p.eta_fx = fz_u32_edge(&f);
	p.max_stage = fz_u8(&f);
	p.w_ai_bytes = fz_u32_edge(&f);
	p.w_min_bytes = fz_u32_edge(&f);
	p.w_max_bytes = fz_u32_edge(&f);
	t_us = fz_u32_edge(&f);
	hpcc_init(&s, &p, fz_u32_edge(&f));
	while (fz_more(&f) && f.ev < 4096) {
		u32 n = fz_u8(&f) % (HPCC_MAX_HOPS + 3), w;
		struct hpcc_state before = s;

		f.ev++;
		for (i = 0; i < n && i < HPCC_MAX_HOPS + 2; i++) {
			h[i].ts_ns += fz_u32_edge(&f);
			h[i].tx_bytes += fz_u32_edge(&f);
			h[i].qlen_bytes = fz_u32_edge(&f);
			if (fz_bool(&f))
				h[i].rate_bytes_ps = fz_u64_edge(&f);
		}
		{
			u64 tp = fz_bool(&f) ? HPCC_TX_NA : fz_u64_edge(&f);
			u64 tn = fz_bool(&f) ? HPCC_TX_NA : fz_u64_edge(&f);
			u64 b = fz_u64_edge(&f), own = fz_u64_edge(&f);
			u32 qp = fz_u32_edge(&f), qn = fz_u32_edge(&f);
			u32 d = fz_u32_edge(&f);
			u32 tx = hpcc_tx_bytes(tp, tn, qp, qn, b, own, d);
			u64 hi = dcc_min_u64(b, HPCC_RATE_LIMIT) *
				 dcc_min_u32(d, HPCC_TS_MAX_NS / 1000) /
				 DCC_USEC_PER_SEC;

			if (tp != HPCC_TX_NA && tn != HPCC_TX_NA)
				FZ_CHECK(&f, tx == (u32)(tn - tp),
					 "tx %u from counters %llu %llu", tx,
					 (unsigned long long)tp,
					 (unsigned long long)tn);
			else
				FZ_CHECK(&f, tx <= hi, "tx %u above %llu", tx,
					 (unsigned long long)hi);
		}
		ack += fz_u16(&f);
		nxt = ack + fz_u16(&f);
		w = hpcc_on_ack(&s, &p, h, n, t_us, ack, nxt);
		FZ_LOG(&f, "ack %u hops %u: U %u W %u Wc %u stage %u", ack, n,
		       s.u_fx, s.w_bytes, s.wc_bytes, s.inc_stage);
		FZ_CHECK(&f, w == s.w_bytes, "returned %u, state %u", w,
			 s.w_bytes);
		FZ_CHECK(&f, s.u_fx <= HPCC_U_MAX, "U %u", s.u_fx);
		FZ_CHECK(&f, s.nhops <= HPCC_MAX_HOPS, "hops %u", s.nhops);
		if (!n) {
			FZ_CHECK(&f, !memcmp(&before, &s, sizeof(s)),
				 "an ACK without records changed the state");
			continue;
		}
		if (s.w_bytes != before.w_bytes) {
			FZ_CHECK(&f, s.w_bytes == hpcc_clamp_w(&p, s.w_bytes),
				 "W %u outside [%u, %u]", s.w_bytes,
				 p.w_min_bytes, p.w_max_bytes);
			FZ_CHECK(&f, s.w_bytes >= 1, "W 0");
			FZ_CHECK(&f, hpcc_rate(s.w_bytes, t_us) >= 1,
				 "rate 0 at W %u", s.w_bytes);
		}
		FZ_CHECK(&f, s.wc_bytes == before.wc_bytes ||
			 s.wc_bytes == s.w_bytes,
			 "Wc %u moved to neither its old value nor W", s.wc_bytes);
	}
	return 0;
}
