/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of tcp_timely: one event per rate change.
 *
 * tcp_timely:timely_update fires when a decision changed the target rate
 * (never for a completion or loss that left it alone, e.g. at the floor or
 * the ceiling), with the rate before and after in bytes per second, the
 * engine RTT of the latest completion, the normalized RTT gradient in
 * 1/1000 and the regime that decided.  Disabled, it costs one static
 * branch.  See Documentation/timely.rst, "Observing it".
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM tcp_timely

#if !defined(_TRACE_TCP_TIMELY_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_TCP_TIMELY_H

#include <linux/tracepoint.h>
#include <net/inet_sock.h>
#include "dcc_trace_sock.h"

#ifndef _TCP_TIMELY_REASON_ENUM
#define _TCP_TIMELY_REASON_ENUM
/*
 * What decided the rate (the "regime" field; also ss's pacing_gain).
 * 0 is "no decision yet": ss omits a zero gain.
 */
enum timely_reason {
	TIMELY_R_NONE,		/* no rate decision yet (first sample) */
	TIMELY_R_AI_LOW,	/* rtt < T_low: + delta */
	TIMELY_R_MD_HIGH,	/* rtt > T_high: * (1 - b (1 - T_high / rtt)) */
	TIMELY_R_AI,		/* gradient <= 0: + delta */
	TIMELY_R_HAI,		/* gradient <= 0, hai_thresh in a row: + N delta */
	TIMELY_R_MD_GRAD,	/* gradient > 0: * (1 - b g) */
	TIMELY_R_PATCHED,	/* patched variant's update in the band */
	TIMELY_R_RTO,		/* retransmit timeout: cut by max_dec */
	TIMELY_R_RECOVERY,	/* fast recovery: cut by max_dec */
	TIMELY_R_UNDO,		/* a loss cut undone */
};
#endif

/* Export the values so that perf and trace-cmd can print the names. */
TRACE_DEFINE_ENUM(TIMELY_R_NONE);
TRACE_DEFINE_ENUM(TIMELY_R_AI_LOW);
TRACE_DEFINE_ENUM(TIMELY_R_MD_HIGH);
TRACE_DEFINE_ENUM(TIMELY_R_AI);
TRACE_DEFINE_ENUM(TIMELY_R_HAI);
TRACE_DEFINE_ENUM(TIMELY_R_MD_GRAD);
TRACE_DEFINE_ENUM(TIMELY_R_PATCHED);
TRACE_DEFINE_ENUM(TIMELY_R_RTO);
TRACE_DEFINE_ENUM(TIMELY_R_RECOVERY);
TRACE_DEFINE_ENUM(TIMELY_R_UNDO);

#define timely_show_reason(r)					\
	__print_symbolic(r,					\
			 { TIMELY_R_NONE,	"none" },	\
			 { TIMELY_R_AI_LOW,	"ai_low" },	\
			 { TIMELY_R_MD_HIGH,	"md_high" },	\
			 { TIMELY_R_AI,		"ai" },		\
			 { TIMELY_R_HAI,	"hai" },	\
			 { TIMELY_R_MD_GRAD,	"md_grad" },	\
			 { TIMELY_R_PATCHED,	"patched" },	\
			 { TIMELY_R_RTO,	"rto" },	\
			 { TIMELY_R_RECOVERY,	"recovery" },	\
			 { TIMELY_R_UNDO,	"undo" })

TRACE_EVENT(timely_update,

	TP_PROTO(const struct sock *sk, enum timely_reason reason,
		 u64 old_bytes_ps, u64 new_bytes_ps, u32 rtt_us,
		 s32 grad_milli),

	TP_ARGS(sk, reason, old_bytes_ps, new_bytes_ps, rtt_us, grad_milli),

	TP_STRUCT__entry(
		DCC_TP_SOCK_FIELDS
		__field(u32, reason)
		__field(u64, old_rate)
		__field(u64, new_rate)
		__field(u32, rtt_us)
		__field(s32, grad_milli)
	),

	TP_fast_assign(
		DCC_TP_SOCK_ASSIGN(__entry, sk);
		__entry->reason = reason;
		__entry->old_rate = old_bytes_ps;
		__entry->new_rate = new_bytes_ps;
		__entry->rtt_us = rtt_us;
		__entry->grad_milli = grad_milli;
	),

	TP_printk(DCC_TP_SOCK_FMT " regime=%s rate=%llu->%llu rtt_us=%u gradient_milli=%d",
		  DCC_TP_SOCK_ARGS,
		  timely_show_reason(__entry->reason),
		  __entry->old_rate, __entry->new_rate,
		  __entry->rtt_us, __entry->grad_milli)
);

#endif /* _TRACE_TCP_TIMELY_H */

/* This part must be outside the include guard. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH ../trace
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE timely_trace
#include <trace/define_trace.h>
