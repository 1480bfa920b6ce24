/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of tcp_swift: one event per window decision.
 *
 * tcp_swift:swift_update fires when a decision changed the fabric or the
 * endpoint window (never for an ACK that left both alone), with the
 * windows before and after in 1/1000 packet, the fabric delay sample and
 * the target it was compared with, the endpoint-delay EWMA (0 before the
 * first endpoint sample) and the reason.  Disabled, it costs one
 * static branch.  See Documentation/swift.rst, "Observing it".
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM tcp_swift

#if !defined(_TRACE_TCP_SWIFT_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_TCP_SWIFT_H

#include <linux/tracepoint.h>
#include <net/inet_sock.h>
#include "dcc_trace_sock.h"

#ifndef _TCP_SWIFT_REASON_ENUM
#define _TCP_SWIFT_REASON_ENUM
/* Why a window changed (the "reason" field). */
enum swift_reason {
	SWIFT_R_AI,		/* fabric additive increase */
	SWIFT_R_MD,		/* fabric delay-driven decrease */
	SWIFT_R_EP_AI,		/* endpoint additive increase */
	SWIFT_R_EP_MD,		/* endpoint delay-driven decrease */
	SWIFT_R_RTO,		/* retransmit timeout: cut by max_mdf */
	SWIFT_R_RTO_RESET,	/* retransmit timeouts in a row: min_cwnd */
	SWIFT_R_RECOVERY,	/* fast recovery: cut by max_mdf */
	SWIFT_R_UNDO,		/* a cut undone */
};
#endif

/* Export the values so that perf and trace-cmd can print the names. */
TRACE_DEFINE_ENUM(SWIFT_R_AI);
TRACE_DEFINE_ENUM(SWIFT_R_MD);
TRACE_DEFINE_ENUM(SWIFT_R_EP_AI);
TRACE_DEFINE_ENUM(SWIFT_R_EP_MD);
TRACE_DEFINE_ENUM(SWIFT_R_RTO);
TRACE_DEFINE_ENUM(SWIFT_R_RTO_RESET);
TRACE_DEFINE_ENUM(SWIFT_R_RECOVERY);
TRACE_DEFINE_ENUM(SWIFT_R_UNDO);

#define swift_show_reason(r)					\
	__print_symbolic(r,					\
			 { SWIFT_R_AI,		"ai" },		\
			 { SWIFT_R_MD,		"md" },		\
			 { SWIFT_R_EP_AI,	"ep_ai" },	\
			 { SWIFT_R_EP_MD,	"ep_md" },	\
			 { SWIFT_R_RTO,		"rto" },	\
			 { SWIFT_R_RTO_RESET,	"rto_reset" },	\
			 { SWIFT_R_RECOVERY,	"recovery" },	\
			 { SWIFT_R_UNDO,	"undo" })

TRACE_EVENT(swift_update,

	TP_PROTO(const struct sock *sk, enum swift_reason reason,
		 u32 old_fcwnd_mpkt, u32 new_fcwnd_mpkt,
		 u32 old_ecwnd_mpkt, u32 new_ecwnd_mpkt,
		 u32 delay_us, u32 target_us, u32 ep_us, u32 base_us,
		 u32 lift_us),

	TP_ARGS(sk, reason, old_fcwnd_mpkt, new_fcwnd_mpkt, old_ecwnd_mpkt,
		new_ecwnd_mpkt, delay_us, target_us, ep_us, base_us, lift_us),

	TP_STRUCT__entry(
		DCC_TP_SOCK_FIELDS
		__field(u32, reason)
		__field(u32, old_fcwnd)
		__field(u32, new_fcwnd)
		__field(u32, old_ecwnd)
		__field(u32, new_ecwnd)
		__field(u32, delay_us)
		__field(u32, target_us)
		__field(u32, ep_us)
		__field(u32, base_us)
		__field(u32, lift_us)
	),

	TP_fast_assign(
		DCC_TP_SOCK_ASSIGN(__entry, sk);
		__entry->reason = reason;
		__entry->old_fcwnd = old_fcwnd_mpkt;
		__entry->new_fcwnd = new_fcwnd_mpkt;
		__entry->old_ecwnd = old_ecwnd_mpkt;
		__entry->new_ecwnd = new_ecwnd_mpkt;
		__entry->delay_us = delay_us;
		__entry->target_us = target_us;
		__entry->ep_us = ep_us;
		__entry->base_us = base_us;
		__entry->lift_us = lift_us;
	),

	TP_printk(DCC_TP_SOCK_FMT " reason=%s fcwnd=%u->%u ecwnd=%u->%u delay_us=%u target_us=%u ep_us=%u base_us=%u lift_us=%u",
		  DCC_TP_SOCK_ARGS,
		  swift_show_reason(__entry->reason),
		  __entry->old_fcwnd, __entry->new_fcwnd,
		  __entry->old_ecwnd, __entry->new_ecwnd,
		  __entry->delay_us, __entry->target_us, __entry->ep_us,
		  __entry->base_us, __entry->lift_us)
);

#endif /* _TRACE_TCP_SWIFT_H */

/* This part must be outside the include guard. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH ../trace
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE swift_trace
#include <trace/define_trace.h>
