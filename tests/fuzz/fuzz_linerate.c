// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness of the line-rate estimator (include/dcc_linerate.h).
 * The input is a parameter set, then events: delivery-rate samples (any
 * bytes, interval, app-limited flag, clock steps forward or back), device
 * speed changes and parameter writes.  After every event:
 *  - the estimate is >= 1, <= DCC_LINERATE_LIMIT, never above a known
 *    device speed or cap;
 *  - with samples, it is at least min(floor, bounds) and at least the
 *    windowed maximum where no bound is below it;
 *  - the windowed maximum is a sample seen since the last reset (never
 *    above the largest rate ever sampled), and a sample that is not
 *    app-limited and at least the maximum becomes the maximum.
 */
#include "fuzz.h"

#include "dcc_linerate.h"

static void fz_params(struct fz *f, struct dcc_linerate_params *p)
{
	p->cap_bytes_ps = fz_u64_edge(f);
	p->init_bytes_ps = fz_u64_edge(f);
	p->floor_bytes_ps = fz_bool(f) ? fz_u64_edge(f) : 125000;
	p->win_us = fz_u32_edge(f);
	p->headroom_pct = fz_u32_edge(f);
}

static u64 unit_of(u64 b)
{
	return dcc_linerate_from_unit(dcc_linerate_to_unit(b));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dcc_linerate_params p;
	struct dcc_linerate lr;
	u64 seen_max = 0, dev = 0;
	u32 now;
	struct fz f;

	fz_init(&f, data, size);
	fz_params(&f, &p);
	now = fz_u32(&f);
	dcc_linerate_init(&lr);
	while (fz_more(&f) && f.ev < 4096) {
		u8 op = fz_u8(&f);
		u64 est, bound, cap;

		f.ev++;
		switch (op & 7) {
		case 0:
			fz_params(&f, &p);
			break;
		case 1:
			dev = fz_bool(&f) ? 0 : fz_u64_edge(&f);
			dcc_linerate_set_dev(&lr, dev);
			FZ_CHECK(&f, !dev == !lr.dev, "dev %llu stored %u",
				 (unsigned long long)dev, lr.dev);
			break;
		case 2:
			now -= fz_u16(&f);	/* clock step back */
			break;
		default: {
			u64 bytes = fz_u64_edge(&f);
			u32 iv = fz_u32_edge(&f);
			bool al = fz_bool(&f);
			u64 r = dcc_linerate_sample_rate(bytes, iv);
			u64 before = dcc_linerate_max(&lr);
			bool used;

			now += fz_u32_edge(&f) >> (op >> 3);
			used = dcc_linerate_sample(&lr, &p, now, bytes, iv, al);
			FZ_LOG(&f, "sample %llu B / %u us al %d -> %d max %llu",
			       (unsigned long long)bytes, iv, al, used,
			       (unsigned long long)dcc_linerate_max(&lr));
			if (used && unit_of(r) > seen_max)
				seen_max = unit_of(r);
			FZ_CHECK(&f, r <= DCC_LINERATE_LIMIT, "rate %llu",
				 (unsigned long long)r);
			if (!al && unit_of(r) && unit_of(r) >= before)
				FZ_CHECK(&f, dcc_linerate_max(&lr) ==
					 unit_of(r), "new max %llu not taken",
					 (unsigned long long)r);
			break;
		}
		}
		est = dcc_linerate_bytes_ps(&lr, &p);
		cap = dcc_min_u64(p.cap_bytes_ps, DCC_LINERATE_LIMIT);
		bound = dcc_linerate_min_known(dcc_linerate_from_unit(lr.dev),
					       cap);
		FZ_CHECK(&f, est >= 1 && est <= DCC_LINERATE_LIMIT,
			 "estimate %llu", (unsigned long long)est);
		FZ_CHECK(&f, !bound || est <= bound, "estimate %llu above %llu",
			 (unsigned long long)est, (unsigned long long)bound);
		FZ_CHECK(&f, dcc_linerate_max(&lr) <= seen_max,
			 "max %llu never sampled (largest %llu)",
			 (unsigned long long)dcc_linerate_max(&lr),
			 (unsigned long long)seen_max);
		if (dcc_linerate_max(&lr)) {
			u64 lo = dcc_linerate_max(&lr);

			if (p.floor_bytes_ps > lo)
				lo = dcc_min_u64(p.floor_bytes_ps,
						 DCC_LINERATE_LIMIT);
			if (bound && bound < lo)
				lo = bound;
			FZ_CHECK(&f, est >= lo, "estimate %llu below %llu",
				 (unsigned long long)est,
				 (unsigned long long)lo);
		}
	}
	return 0;
}
