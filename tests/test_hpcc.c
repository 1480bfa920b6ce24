// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of include/dcc_hpcc.h, HPCC's sender window, against a
 * double-precision model of the paper's Algorithm 1.
 */
#include "dcc_test.h"
#include "dcc_hpcc.h"

#define GBPS(x)		((u64)(x) * 125000000ULL)	/* bytes per second */
#define T_US		10U				/* base RTT */
#define W_INIT		((u32)(GBPS(100) * T_US / 1000000))	/* 125 KB */
#define ONE		65536.0

/* --- the model ------------------------------------------------------ */

struct model {
	double u, w, wc;
	int stage, nhops, seq_valid;
	unsigned int last_seq;
	struct hpcc_hop last[HPCC_MAX_HOPS];
};

static void model_init(struct model *m, double w_init)
{
	memset(m, 0, sizeof(*m));
	m->w = w_init;
	m->wc = w_init;
}

static double clampd(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* Returns 1 when U moved. */
static int model_measure(struct model *m, const struct hpcc_hop *h, int n,
			 double t_us)
{
	double u = 0, tau = 0;
	int i, any = 0;

	if (n == m->nhops) {
		for (i = 0; i < n; i++) {
			double dt = (double)(u32)(h[i].ts_ns - m->last[i].ts_ns);
			double tx = (double)(u32)(h[i].tx_bytes - m->last[i].tx_bytes);
			double b = (double)h[i].rate_bytes_ps;
			double q = h[i].qlen_bytes < m->last[i].qlen_bytes ?
				   h[i].qlen_bytes : m->last[i].qlen_bytes;
			double uj;

			if (dt <= 0 || dt > HPCC_TS_MAX_NS || b <= 0)
				continue;
			uj = q / (b * t_us / 1e6) + tx * 1e9 / dt / b;
			uj = clampd(uj, 0, 256);
			if (!any || uj > u) {
				u = uj;
				tau = dt;
			}
			any = 1;
		}
	}
	memcpy(m->last, h, sizeof(*h) * n);
	m->nhops = n;
	if (!any)
		return 0;
	if (tau > t_us * 1000)
		tau = t_us * 1000;
	m->u = (1 - tau / (t_us * 1000)) * m->u + tau / (t_us * 1000) * u;
	return 1;
}

static double model_window(struct model *m, const struct hpcc_params *p,
			   int update)
{
	double eta = p->eta_fx / ONE;
	int mult = m->u >= eta || m->stage >= (int)p->max_stage;

	if (mult)
		m->w = m->wc / (m->u / eta) + p->w_ai_bytes;
	else
		m->w = m->wc + p->w_ai_bytes;
	m->w = clampd(m->w, p->w_min_bytes, p->w_max_bytes);
	if (update) {
		m->stage = mult ? 0 : m->stage + 1;
		m->wc = m->w;
	}
	return m->w;
}

static double model_ack(struct model *m, const struct hpcc_params *p,
			const struct hpcc_hop *h, int n, unsigned int ack,
			unsigned int nxt)
{
	int round;

	if (!model_measure(m, h, n, T_US))
		return m->w;
	round = !m->seq_valid || (int)(ack - m->last_seq) > 0;
	if (round) {
		m->last_seq = nxt;
		m->seq_valid = 1;
	}
	return model_window(m, p, round);
}

/* --- helpers --------------------------------------------------------- */

static struct hpcc_params params(void)
{
	struct hpcc_params p;

	hpcc_params_default(&p, W_INIT, 16);
	return p;
}

/* A hop that carried rate_frac of its line over dt_ns, with queue q. */
static void advance(struct hpcc_hop *h, u32 dt_ns, double rate_frac, u32 q)
{
	h->ts_ns += dt_ns;
	h->tx_bytes += (u32)(h->rate_bytes_ps * rate_frac * dt_ns / 1e9);
	h->qlen_bytes = q;
}

/* --- tests ------------------------------------------------------------ */

static void test_params_default(void **state)
{
	struct hpcc_params p = params();

	(void)state;
	assert_int_equal(p.eta_fx, 62259);	/* 0.95 */
	assert_int_equal(p.max_stage, 5);
	/* 125000 * 0.05 / 16, with eta rounded down to 1/65536. */
	assert_true(p.w_ai_bytes >= 390 && p.w_ai_bytes <= 391);
	assert_true(hpcc_params_valid(&p));
	p.eta_fx = 0;
	assert_false(hpcc_params_valid(&p));
	p = params();
	p.w_min_bytes = p.w_max_bytes + 1;
	assert_false(hpcc_params_valid(&p));
}

/* The first ACK only records: no rate from one sample. */
static void test_first_ack_records(void **state)
{
	struct hpcc_params p = params();
	struct hpcc_state s;
	struct hpcc_hop h = { .ts_ns = 1000, .tx_bytes = 5,
			      .qlen_bytes = 100000, .rate_bytes_ps = GBPS(100) };

	(void)state;
	hpcc_init(&s, &p, W_INIT);
	assert_int_equal(hpcc_on_ack(&s, &p, &h, 1, T_US, 1, 2), W_INIT);
	assert_int_equal(s.u_fx, 0);
	assert_int_equal(s.nhops, 1);
	assert_false(s.seq_valid);
}

/*
 * A link exactly full with no queue: u' = 1; with records one base RTT
 * apart, U takes it whole; W = W_c * eta + W_AI, and each new round
 * multiplies again.
 */
static void test_full_link(void **state)
{
	struct hpcc_params p = params();
	struct hpcc_state s;
	struct hpcc_hop h = { .rate_bytes_ps = GBPS(100) };
	u32 w, seq = 0;

	(void)state;
	hpcc_init(&s, &p, W_INIT);
	hpcc_on_ack(&s, &p, &h, 1, T_US, seq, seq + 1000);
	advance(&h, T_US * 1000, 1.0, 0);
	w = hpcc_on_ack(&s, &p, &h, 1, T_US, seq + 1, seq + 2000);
	assert_true(s.u_fx >= DCC_FX_ONE - 2 && s.u_fx <= DCC_FX_ONE);
	/* 125000 * 0.95 + 390 */
	assert_true(w >= 119130 && w <= 119145);
	assert_int_equal(s.wc_bytes, w);
	assert_int_equal(s.inc_stage, 0);
}

/* A standing queue of one BDP: u' = 2: the window halves (times eta). */
static void test_queue_counts(void **state)
{
	struct hpcc_params p = params();
	struct hpcc_state s;
	struct hpcc_hop h = { .rate_bytes_ps = GBPS(100), .qlen_bytes = W_INIT };
	u32 w;

	(void)state;
	hpcc_init(&s, &p, W_INIT);
	hpcc_on_ack(&s, &p, &h, 1, T_US, 0, 1000);
	advance(&h, T_US * 1000, 1.0, W_INIT);
	w = hpcc_on_ack(&s, &p, &h, 1, T_US, 1, 2000);
	assert_true(s.u_fx >= 2 * DCC_FX_ONE - 4 && s.u_fx <= 2 * DCC_FX_ONE);
	assert_true(w >= W_INIT * 95 / 200 + 380 && w <= W_INIT * 95 / 200 + 400);
	/* The queue counted is the smaller of the two records'. */
	advance(&h, T_US * 1000, 1.0, 0);
	hpcc_on_ack(&s, &p, &h, 1, T_US, 2000, 3000);
	assert_true(s.u_fx >= DCC_FX_ONE - 4 && s.u_fx <= DCC_FX_ONE);
}

/* The most loaded hop is the one that counts. */
static void test_max_hop(void **state)
{
	struct hpcc_params p = params();
	struct hpcc_state s;
	struct hpcc_hop h[3] = {
		{ .rate_bytes_ps = GBPS(100) },
		{ .rate_bytes_ps = GBPS(25) },
		{ .rate_bytes_ps = GBPS(100) },
	};

	(void)state;
	hpcc_init(&s, &p, W_INIT);
	hpcc_on_ack(&s, &p, h, 3, T_US, 0, 1000);
	advance(&h[0], T_US * 1000, 0.25, 0);
	advance(&h[1], T_US * 1000, 1.0, (u32)(GBPS(25) * T_US / 1000000));
	advance(&h[2], T_US * 1000, 0.25, 0);
	hpcc_on_ack(&s, &p, h, 3, T_US, 1, 2000);
	/* hop 1 is full; its queue counts from the next record (min). */
	assert_true(s.u_fx >= DCC_FX_ONE - 8 && s.u_fx <= DCC_FX_ONE);
	advance(&h[0], T_US * 1000, 0.25, 0);
	advance(&h[1], T_US * 1000, 1.0, (u32)(GBPS(25) * T_US / 1000000));
	advance(&h[2], T_US * 1000, 0.25, 0);
	hpcc_on_ack(&s, &p, h, 3, T_US, 2001, 3000);
	/* hop 1: full and one of its BDPs queued: 2.0 */
	assert_true(s.u_fx >= 2 * DCC_FX_ONE - 8 && s.u_fx <= 2 * DCC_FX_ONE);
}

/*
 * An idle path: additive stages while U < eta (W = W_c + W_AI each round),
 * then after max_stage rounds a multiplicative step that grows W by
 * eta / U.
 */
static void test_stages(void **state)
{
	struct hpcc_params p = params();
	struct hpcc_state s;
	struct hpcc_hop h = { .rate_bytes_ps = GBPS(100) };
	u32 k, seq = 0, w0 = W_INIT / 2, w;

	(void)state;
	hpcc_init(&s, &p, w0);
	hpcc_on_ack(&s, &p, &h, 1, T_US, seq, seq + 50);
	for (k = 0; k < p.max_stage; k++) {
		advance(&h, T_US * 1000, 0.5, 0);
		seq += 100;	/* past the last round's snd_nxt */
		w = hpcc_on_ack(&s, &p, &h, 1, T_US, seq, seq + 50);
		assert_int_equal(w, w0 + (k + 1) * p.w_ai_bytes);
		assert_int_equal(s.inc_stage, k + 1);
	}
	advance(&h, T_US * 1000, 0.5, 0);
	seq += 100;
	w = hpcc_on_ack(&s, &p, &h, 1, T_US, seq, seq + 50);
	/* U = 0.5: W_c * 0.95 / 0.5 + W_AI */
	assert_true(w > (w0 + p.max_stage * p.w_ai_bytes) * 18 / 10);
	assert_int_equal(s.inc_stage, 0);
}

/*
 * Per-RTT reference (Algorithm 1): the first ACK of a round moves W_c to
 * the window it computes; the other ACKs of the round set W from that W_c
 * and leave it, so however many ACKs report one queue, W_c moves once a
 * round.
 */
static void test_one_cut_per_round(void **state)
{
	struct hpcc_params p = params();
	struct hpcc_state s;
	struct hpcc_hop h = { .rate_bytes_ps = GBPS(100), .qlen_bytes = W_INIT };
	u32 w1, w2;

	(void)state;
	hpcc_init(&s, &p, W_INIT);
	hpcc_on_ack(&s, &p, &h, 1, T_US, 0, 1000);
	advance(&h, T_US * 1000, 1.0, W_INIT);
	w1 = hpcc_on_ack(&s, &p, &h, 1, T_US, 1, 5000);	/* new round */
	assert_int_equal(s.wc_bytes, w1);
	advance(&h, T_US * 1000, 1.0, W_INIT);
	w2 = hpcc_on_ack(&s, &p, &h, 1, T_US, 2000, 6000);	/* same round */
	advance(&h, T_US * 1000, 1.0, W_INIT);
	assert_int_equal(hpcc_on_ack(&s, &p, &h, 1, T_US, 3000, 7000), w2);
	assert_int_equal(s.wc_bytes, w1);
	assert_true(w2 < w1);
	/* The next round cuts again from the new reference. */
	advance(&h, T_US * 1000, 1.0, W_INIT);
	hpcc_on_ack(&s, &p, &h, 1, T_US, 5001, 9000);
	assert_int_equal(s.wc_bytes, w2);
}

/* A new path (another number of hops) and broken records give no rate. */
static void test_bad_records(void **state)
{
	struct hpcc_params p = params();
	struct hpcc_state s;
	struct hpcc_hop h[2] = { { .rate_bytes_ps = GBPS(100) },
				 { .rate_bytes_ps = GBPS(100) } };

	(void)state;
	hpcc_init(&s, &p, W_INIT);
	hpcc_on_ack(&s, &p, h, 1, T_US, 0, 10);
	advance(&h[0], T_US * 1000, 1.0, 0);
	assert_int_equal(hpcc_on_ack(&s, &p, h, 2, T_US, 1, 20), W_INIT);
	assert_int_equal(s.nhops, 2);
	/* Clock not advancing, clock far ahead, no line rate: nothing. */
	assert_false(hpcc_measure(&s, h, 2, T_US));
	h[0].ts_ns += HPCC_TS_MAX_NS + 1;
	h[1].ts_ns += HPCC_TS_MAX_NS + 1;
	assert_false(hpcc_measure(&s, h, 2, T_US));
	h[0].ts_ns += 1000;
	h[1].ts_ns += 1000;
	h[0].rate_bytes_ps = 0;
	h[1].rate_bytes_ps = 0;
	assert_false(hpcc_measure(&s, h, 2, T_US));
	assert_int_equal(s.u_fx, 0);
	/* No records at all: the window stays. */
	assert_int_equal(hpcc_on_ack(&s, &p, NULL, 0, T_US, 30, 40), W_INIT);
}

/* Counters and clocks wrap: the differences are what counts. */
static void test_wraps(void **state)
{
	struct hpcc_params p = params();
	struct hpcc_state s;
	struct hpcc_hop h = { .ts_ns = 0xfffff000, .tx_bytes = 0xffffff00,
			      .rate_bytes_ps = GBPS(100) };

	(void)state;
	hpcc_init(&s, &p, W_INIT);
	hpcc_on_ack(&s, &p, &h, 1, T_US, 0xfffffff0, 0xfffffff8);
	advance(&h, T_US * 1000, 1.0, 0);
	hpcc_on_ack(&s, &p, &h, 1, T_US, 0x10, 0x20);	/* past the wrap */
	assert_true(s.u_fx >= DCC_FX_ONE - 2 && s.u_fx <= DCC_FX_ONE);
	assert_int_equal(s.inc_stage, 0);
	assert_int_equal(s.last_update_seq, 0x20);
}

/* Extreme records: no overflow (the sanitizers watch), U and W bounded. */
static void test_extremes(void **state)
{
	struct hpcc_params p = params();
	struct hpcc_state s;
	struct hpcc_hop a = { .rate_bytes_ps = ~0ULL, .qlen_bytes = ~0U },
			b = { .ts_ns = 1, .tx_bytes = ~0U, .qlen_bytes = ~0U,
			      .rate_bytes_ps = 1 };
	u32 u, dt;

	(void)state;
	assert_true(hpcc_hop_u(&a, &b, ~0U, &u, &dt));
	assert_int_equal(u, HPCC_U_MAX);
	hpcc_init(&s, &p, ~0U);
	assert_int_equal(s.w_bytes, p.w_max_bytes);
	s.u_fx = HPCC_U_MAX;
	assert_true(hpcc_window(&s, &p, true) >= p.w_min_bytes);
	assert_true(hpcc_rate(~0U, 0) > 0);
}

/* Random paths and loads: the core follows the double model. */
static void test_random_vs_model(void **state)
{
	struct hpcc_params p = params();
	u32 seed = 12345, run, k, i;

	(void)state;
	for (run = 0; run < 200; run++) {
		struct hpcc_state s;
		struct model m;
		struct hpcc_hop h[HPCC_MAX_HOPS];
		u32 n = 1 + run % 4, seq = run * 7919, nxt = seq;

		memset(h, 0, sizeof(h));
		for (i = 0; i < n; i++)
			h[i].rate_bytes_ps = GBPS(10 + 15 * ((run + i) % 7));
		hpcc_init(&s, &p, W_INIT);
		model_init(&m, W_INIT);
		for (k = 0; k < 300; k++) {
			double w_m;
			u32 w;

			seed = seed * 1103515245 + 12345;
			for (i = 0; i < n; i++)
				advance(&h[i], 1000 + (seed >> 8) % 20000,
					((seed >> (i + 3)) % 120) / 100.0,
					(seed >> (2 * i)) % 300000);
			seq += 1 + (seed >> 12) % 3000;
			if (seq - nxt < 0x80000000U)
				nxt = seq + 5000;
			w = hpcc_on_ack(&s, &p, h, n, T_US, seq, nxt);
			w_m = model_ack(&m, &p, h, n, seq, nxt);
			/* U is kept to 2^-16; W to a byte per step. */
			assert_true(fabs(s.u_fx / ONE - m.u) <= 1e-3 + m.u * 1e-4);
			assert_true(fabs(w - w_m) <= 2 + w_m * 2e-3);
			assert_int_equal(s.inc_stage, m.stage);
		}
	}
}

/*
 * The bytes a port sent between two records, 1 ms apart: 4 connections
 * share a port of B that runs at 90 % without a queue, each sending
 * 22.5 %.  With the port's counter in the records (the router fills it)
 * that is what is read: 90 %.  The derivation from the connection's own
 * rate read 22.5 %, so each of the 4 sized its window to fill the port
 * alone.
 */
static void test_tx_counter(void **state)
{
	u64 b = GBPS(100), own = b * 225 / 1000;
	u32 d_us = 1000, full = (u32)(b / 1000);

	(void)state;
	assert_int_equal(hpcc_tx_bytes(5000, 5000 + full * 9 / 10, 0, 0, b,
				       own, d_us), full * 9 / 10);
	/* The counter wraps (the low 32 bits count). */
	assert_int_equal(hpcc_tx_bytes(0xfffffff0ULL, 0x100000010ULL, 0, 0, b,
				       own, d_us), 0x20);
	/* It is the port's word, queue or not. */
	assert_int_equal(hpcc_tx_bytes(0, full / 2, 3000, 3000, b, own, d_us),
			 full / 2);
}

/* Without a counter in both records: derived. */
static void test_tx_derived(void **state)
{
	u64 b = GBPS(100), own = b * 225 / 1000;
	u32 d_us = 1000, full = (u32)(b / 1000);

	(void)state;
	/* A queue in both records: busy, at B. */
	assert_int_equal(hpcc_tx_bytes(HPCC_TX_NA, HPCC_TX_NA, 1500, 3000, b,
				       own, d_us), full);
	/* One record without a queue: the own rate, a lower bound. */
	assert_int_equal(hpcc_tx_bytes(HPCC_TX_NA, HPCC_TX_NA, 0, 3000, b,
				       own, d_us), (u32)(own / 1000));
	assert_int_equal(hpcc_tx_bytes(7, HPCC_TX_NA, 3000, 0, b, own, d_us),
			 (u32)(own / 1000));
	/* Never above B; no line rate, nothing. */
	assert_int_equal(hpcc_tx_bytes(HPCC_TX_NA, 7, 0, 0, b, 2 * b, d_us),
			 full);
	assert_int_equal(hpcc_tx_bytes(HPCC_TX_NA, HPCC_TX_NA, 0, 0, 0, own,
				       d_us), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_params_default),
		cmocka_unit_test(test_first_ack_records),
		cmocka_unit_test(test_full_link),
		cmocka_unit_test(test_queue_counts),
		cmocka_unit_test(test_max_hop),
		cmocka_unit_test(test_stages),
		cmocka_unit_test(test_one_cut_per_round),
		cmocka_unit_test(test_bad_records),
		cmocka_unit_test(test_wraps),
		cmocka_unit_test(test_extremes),
		cmocka_unit_test(test_random_vs_model),
		cmocka_unit_test(test_tx_counter),
		cmocka_unit_test(test_tx_derived),
	};

	return cmocka_run_group_tests_name("dcc_hpcc", tests, NULL, NULL);
}
