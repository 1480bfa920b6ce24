// SPDX-License-Identifier: GPL-2.0
/*
 * Per-ACK cost of the algorithm cores (include/dcc_*.h), for callgrind:
 *
 *   ackcost CASE N
 *
 * runs N updates of one core on a synthetic ACK trace built beforehand,
 * each through one non-inlined function named cost_CASE, so that
 *
 *   valgrind --tool=callgrind --toggle-collect=cost_CASE ackcost CASE N
 *
 * counts the instructions of the N updates alone (tools/bench/ackcost.sh
 * divides by N).  The cores are the same headers the modules compile; the
 * glue's kernel work (reading the socket, counters, tracepoints, writing
 * sk_pacing_rate) is not included.  Cases:
 *
 *   swift           swift_on_ack() alone
 *   swift_ack       what tcp_swift runs on every ACK: delayed-ACK guess,
 *                   floor update, swift_on_ack(), PLB sample, window and
 *                   pacing rate
 *   timely          timely_on_completion(), paper variant (one update)
 *   timely_patched  the same, patched variant
 *   timely_ack      what tcp_timely runs on every ACK (engine RTT, byte
 *                   count; an update when a segment completes), patched
 *   plb_ack         PLB's per-ACK part: count a sample and its length, end
 *                   of round
 *   plb_round       PLB's per-round part: update, repath check
 *   dcqcn_ack       what tcp_dcqcn's core does on every ACK (ECE edge; a
 *                   cut on a fresh notification, else the lazy timers and
 *                   the byte counter), ECE on about 1 ACK in 20
 *   dcqcn_cnp       dcqcn_on_cnp() alone (one notification)
 * (the dcqcn cases when include/dcc_dcqcn.h is there)
 *
 * The trace: delays spread around the target (half below, half above),
 * 1-2 packets acknowledged per ACK, time moving 5-100 us per ACK; a
 * fixed-seed generator, so every run counts the same instructions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcc_fixed.h"
#include "dcc_pacing.h"
#include "dcc_plb.h"
#include "dcc_swift.h"
#include "dcc_timely.h"
#if __has_include("dcc_dcqcn.h")
#include "dcc_dcqcn.h"
#define HAVE_DCQCN 1
#endif

#define NOINLINE __attribute__((noinline))

struct ack_in {
	u64 now_us;
	u32 delay_us;
	u32 acked;
	u32 delivered;
	bool above;
};

static struct ack_in *trace;
static u32 seed = 12345;

static u32 rnd(u32 n)
{
	seed = seed * 1103515245u + 12345u;
	return (seed >> 8) % n;
}

static void make_trace(long n, u32 center_us)
{
	u64 now = 1000000;
	u32 delivered = 0;
	long i;

	trace = calloc((size_t)n, sizeof(*trace));
	if (!trace) {
		perror("calloc");
		exit(1);
	}
	for (i = 0; i < n; i++) {
		now += 5 + rnd(96);
		trace[i].now_us = now;
		trace[i].delay_us = center_us / 2 + rnd(center_us);
		trace[i].acked = 1 + rnd(2);
		delivered += trace[i].acked;
		trace[i].delivered = delivered;
		trace[i].above = trace[i].delay_us >= center_us;
	}
}

/* --- swift (module defaults, tcp_swift.c) ------------------------------ */

static struct swift_params swift_p;
static struct swift_state swift_s;
static struct dcc_floor swift_fl;
static volatile u64 sink;

static void swift_setup(void)
{
	swift_p = (struct swift_params){
		.ai_fx = dcc_fx_from_milli(1000),
		.beta_fx = dcc_fx_from_milli(800),
		.max_mdf_fx = dcc_fx_from_milli(500),
		.min_cwnd_fx = dcc_fx_from_milli(1),
		.max_cwnd_fx = 256 << DCC_FX_SHIFT,
		.base_target_us = 25,
		.per_hop_ns = 1000,
		.fs_range_us = 100,
		.fs_min_cwnd_fx = dcc_fx_from_milli(100),
		.fs_max_cwnd_fx = 256 << DCC_FX_SHIFT,
		.ep_target_us = 100,
		.ep_ewma_keep_fx = dcc_fx_from_milli(750),
		.retx_reset = 3,
		.minrtt_win_us = 10000 * 1000,
		.target_rel_minrtt = 1,
	};
	swift_params_derive(&swift_p);
	swift_state_init(&swift_s, &swift_p, 10, 2, 1000000);
}

static struct swift_ack swift_input(const struct ack_in *in)
{
	return (struct swift_ack){
		.now_us = in->now_us,
		.srtt_us = 60,
		.num_acked = in->acked,
		.delay_us = in->delay_us,
		.has_delay = true,
		.delack_us = 40000,
		.floor_us = swift_fl.min_us,
	};
}

NOINLINE void cost_swift(const struct swift_ack *a)
{
	sink += swift_on_ack(&swift_s, &swift_p, a);
}

NOINLINE void cost_swift_ack(const struct ack_in *in)
{
	struct swift_ack a = swift_input(in);
	bool above = false;
	u32 cwnd_fx, rtt;

	a.ack_delayed = swift_ack_maybe_delayed(false, 2, a.num_acked,
						a.delay_us, swift_fl.min_us,
						40000);
	dcc_floor_update(&swift_fl, swift_p.minrtt_win_us, a.delay_us,
			 a.ack_delayed, a.now_us);
	a.floor_us = swift_fl.min_us;
	sink += swift_on_ack(&swift_s, &swift_p, &a);
	sink += swift_plb_sample(&swift_s, &a, &above) + above;
	cwnd_fx = swift_cwnd_fx(&swift_s);
	sink += swift_cwnd_pkts(&swift_s);
	rtt = swift_pacing_rtt_us(&swift_s, &swift_p, a.srtt_us);
	sink += dcc_rate_from_window(cwnd_fx, 1448, rtt, 120);
}

/* --- timely (paper defaults at 10 Gbit/s, tcp_timely.c) ---------------- */

static struct timely_params timely_p;
static struct timely_state timely_s;

static void timely_setup(u32 variant)
{
	timely_params_default(&timely_p, dcc_mbps_to_bytes_ps(10000));
	timely_p.variant = variant;
	timely_state_init(&timely_s, &timely_p, timely_p.max_rate_bytes_ps / 10);
}

NOINLINE void cost_timely(u32 rtt_us)
{
	sink += timely_on_completion(&timely_s, &timely_p, rtt_us);
}

NOINLINE void cost_timely_ack(const struct ack_in *in)
{
	u32 rtt = timely_rtt_for_engine(&timely_p, in->delay_us,
					in->acked * 1448);

	if (timely_account_acked(&timely_s, in->acked * 1448, 16384, false))
		sink += timely_on_completion(&timely_s, &timely_p, rtt);
}

/* --- plb (upstream defaults) ------------------------------------------- */

static const struct dcc_plb_conf plb_c = {
	.enabled = 1, .idle_rehash_rounds = 3, .rehash_rounds = 12,
	.suspend_rto_sec = 60, .cong_thresh = 128,
};
static struct dcc_plb_state plb_s;

NOINLINE void cost_plb_ack(const struct ack_in *in, u32 prior)
{
	int ratio;

	dcc_plb_sample(&plb_s, in->above);
	dcc_plb_sample_len(&plb_s, in->delay_us, 50);
	sink += dcc_plb_round_end(&plb_s, prior, in->delivered, 0, false,
				  false, &ratio);
}

NOINLINE void cost_plb_round(int ratio, u32 now)
{
	if (dcc_plb_update(&plb_s, &plb_c, ratio))
		sink += dcc_plb_check(&plb_s, &plb_c, 0, now, 250);
}

#ifdef HAVE_DCQCN
/* --- dcqcn (reference defaults at 10 Gbit/s) ----------------------------- */

static struct dcqcn_params dcqcn_p;
static struct dcqcn_state dcqcn_s;
static struct dcqcn_rp_echo dcqcn_e;

NOINLINE void cost_dcqcn_ack(const struct ack_in *in, bool ece)
{
	struct dcqcn_events ev = { 0 };

	if (dcqcn_rp_echo(&dcqcn_e, ece))
		dcqcn_on_cnp(&dcqcn_s, &dcqcn_p, in->now_us, &ev);
	else
		dcqcn_on_bytes(&dcqcn_s, &dcqcn_p, in->acked * 1448,
			       in->now_us, &ev);
	sink += dcqcn_s.rate_c_bytes_ps + ev.ai;
}

NOINLINE void cost_dcqcn_cnp(const struct ack_in *in)
{
	struct dcqcn_events ev = { 0 };

	dcqcn_on_cnp(&dcqcn_s, &dcqcn_p, in->now_us, &ev);
	sink += dcqcn_s.rate_c_bytes_ps;
}

static int run_dcqcn(const char *c, long n)
{
	long i;

	make_trace(n, 100);
	dcqcn_params_default(&dcqcn_p, dcc_mbps_to_bytes_ps(10000));
	dcqcn_state_init(&dcqcn_s, &dcqcn_p, dcqcn_p.max_rate_bytes_ps,
			 trace[0].now_us);
	for (i = 0; i < n; i++) {
		if (!strcmp(c, "dcqcn_cnp"))
			cost_dcqcn_cnp(&trace[i]);
		else
			cost_dcqcn_ack(&trace[i], rnd(20) == 0);
	}
	return 0;
}
#endif

int main(int argc, char **argv)
{
	const char *c = argc == 3 ? argv[1] : "";
	long n = argc == 3 ? atol(argv[2]) : 0, i;

	if (n < 1) {
		fprintf(stderr, "usage: ackcost swift|swift_ack|timely|timely_patched|timely_ack|plb_ack|plb_round N\n");
		return 2;
	}
	if (!strncmp(c, "swift", 5)) {
		/* Around the target: base RTT 20 us + 25 us + hops. */
		make_trace(n, 50);
		swift_setup();
		for (i = 0; i < n; i++) {
			struct swift_ack a = swift_input(&trace[i]);

			if (!strcmp(c, "swift"))
				cost_swift(&a);
			else
				cost_swift_ack(&trace[i]);
		}
	} else if (!strncmp(c, "timely", 6)) {
		/* Across the band [T_low, T_high] = [50, 500] us. */
		make_trace(n, 300);
		timely_setup(!strcmp(c, "timely_patched") ||
			     !strcmp(c, "timely_ack"));
		for (i = 0; i < n; i++) {
			if (!strcmp(c, "timely_ack"))
				cost_timely_ack(&trace[i]);
			else
				cost_timely(trace[i].delay_us);
		}
	} else if (!strcmp(c, "plb_ack")) {
		make_trace(n, 100);
		dcc_plb_state_init(&plb_s, 0, 0);
		/* Packets acknowledged now left 10 ACKs ago: a round ends
		 * about every 10 ACKs.
		 */
		for (i = 0; i < n; i++)
			cost_plb_ack(&trace[i],
				     i < 10 ? 0 : trace[i - 10].delivered);
	} else if (!strcmp(c, "plb_round")) {
		make_trace(n, 100);
		dcc_plb_state_init(&plb_s, 0, 0);
		for (i = 0; i < n; i++)
			cost_plb_round((int)rnd(257) - 1, (u32)i);
#ifdef HAVE_DCQCN
	} else if (!strncmp(c, "dcqcn", 5)) {
		run_dcqcn(c, n);
#endif
	} else {
		fprintf(stderr, "ackcost: unknown case %s\n", c);
		return 2;
	}
	printf("%s %ld %llu\n", c, n, (unsigned long long)sink);
	free(trace);
	return 0;
}
