/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of tcp_dcqcn.
 *
 * tcp_dcqcn:dcqcn_update fires on the sender (reaction point) when a
 * decision changed the current rate R_C: the rate before and after and the
 * target rate R_T in bytes per second, alpha in 1/65536 and what decided
 * (the last stage played: notification cut, fast recovery, additive or
 * hyper increase, loss cut, undo).
 *
 * tcp_dcqcn:dcqcn_notify fires on the receiver (notification point) for
 * every notification it signals, with the CE-marked packets folded into
 * the previous one (rate limiting at work) and whether a separator ACK
 * was sent first.
 *
 * Disabled, each costs one static branch.  See Documentation/dcqcn.rst,
 * "Observing it".
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM tcp_dcqcn

#if !defined(_TRACE_TCP_DCQCN_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_TCP_DCQCN_H

#include <linux/tracepoint.h>
#include <net/inet_sock.h>
#include "dcc_trace_sock.h"

#ifndef _TCP_DCQCN_REASON_ENUM
#define _TCP_DCQCN_REASON_ENUM
/* What decided the rate (the "reason" field). */
enum dcqcn_reason {
	DCQCN_R_NONE,		/* no decision yet */
	DCQCN_R_CNP,		/* notification: R_C *= 1 - alpha / 2 */
	DCQCN_R_FR,		/* fast recovery: R_C = (R_T + R_C) / 2 */
	DCQCN_R_AI,		/* additive increase: R_T += R_AI */
	DCQCN_R_HAI,		/* hyper increase: R_T += i R_HAI */
	DCQCN_R_RTO,		/* retransmit timeout: R_C halved */
	DCQCN_R_RECOVERY,	/* fast recovery (loss): R_C halved */
	DCQCN_R_UNDO,		/* a loss cut undone */
};
#endif

TRACE_DEFINE_ENUM(DCQCN_R_NONE);
TRACE_DEFINE_ENUM(DCQCN_R_CNP);
TRACE_DEFINE_ENUM(DCQCN_R_FR);
TRACE_DEFINE_ENUM(DCQCN_R_AI);
TRACE_DEFINE_ENUM(DCQCN_R_HAI);
TRACE_DEFINE_ENUM(DCQCN_R_RTO);
TRACE_DEFINE_ENUM(DCQCN_R_RECOVERY);
TRACE_DEFINE_ENUM(DCQCN_R_UNDO);

#define dcqcn_show_reason(r)					\
	__print_symbolic(r,					\
			 { DCQCN_R_NONE,	"none" },	\
			 { DCQCN_R_CNP,		"cnp" },	\
			 { DCQCN_R_FR,		"fr" },		\
			 { DCQCN_R_AI,		"ai" },		\
			 { DCQCN_R_HAI,		"hai" },	\
			 { DCQCN_R_RTO,		"rto" },	\
			 { DCQCN_R_RECOVERY,	"recovery" },	\
			 { DCQCN_R_UNDO,	"undo" })

TRACE_EVENT(dcqcn_update,

	TP_PROTO(const struct sock *sk, enum dcqcn_reason reason,
		 u64 old_bytes_ps, u64 new_bytes_ps, u64 target_bytes_ps,
		 u32 alpha_fx),

	TP_ARGS(sk, reason, old_bytes_ps, new_bytes_ps, target_bytes_ps,
		alpha_fx),

	TP_STRUCT__entry(
		DCC_TP_SOCK_FIELDS
		__field(u32, reason)
		__field(u64, old_rate)
		__field(u64, new_rate)
		__field(u64, target_rate)
		__field(u32, alpha)
	),

	TP_fast_assign(
		DCC_TP_SOCK_ASSIGN(__entry, sk);
		__entry->reason = reason;
		__entry->old_rate = old_bytes_ps;
		__entry->new_rate = new_bytes_ps;
		__entry->target_rate = target_bytes_ps;
		__entry->alpha = alpha_fx;
	),

	TP_printk(DCC_TP_SOCK_FMT " reason=%s rate=%llu->%llu target=%llu alpha=%u",
		  DCC_TP_SOCK_ARGS,
		  dcqcn_show_reason(__entry->reason),
		  __entry->old_rate, __entry->new_rate,
		  __entry->target_rate, __entry->alpha)
);

TRACE_EVENT(dcqcn_notify,

	TP_PROTO(const struct sock *sk, u32 folded, bool separator),

	TP_ARGS(sk, folded, separator),

	TP_STRUCT__entry(
		DCC_TP_SOCK_FIELDS
		__field(u32, folded)
		__field(u8, separator)
	),

	TP_fast_assign(
		DCC_TP_SOCK_ASSIGN(__entry, sk);
		__entry->folded = folded;
		__entry->separator = separator;
	),

	TP_printk(DCC_TP_SOCK_FMT " folded=%u separator=%u",
		  DCC_TP_SOCK_ARGS, __entry->folded,
		  __entry->separator)
);

#endif /* _TRACE_TCP_DCQCN_H */

/* This part must be outside the include guard. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH ../trace
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE dcqcn_trace
#include <trace/define_trace.h>
