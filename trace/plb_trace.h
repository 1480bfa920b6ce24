/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoint of tcp_plb: one event per PLB decision that acts.
 *
 * tcp_plb:plb_repath fires when a connection is moved to a new path (its
 * transmit hash, hence its IPv6 flow label or tunnel source port,
 * changes: "idle", "forced" or "long"), when a due repath is held back by the
 * pause after a retransmit timeout ("paused") or skipped ("skipped":
 * rehashing disabled on the socket with SO_TXREHASH) or held on the best
 * label the connection went back to ("held": include/dcc_plb.h), and at a
 * retransmit timeout: "rto_pause" when it starts a pause (with its length), or
 * "rto_cong" when it came on a congested path and pauses nothing
 * (pause_ms: what is left of a pause already running).
 * Disabled, it costs one static branch.
 * See Documentation/plb.rst, "Observing it".
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM tcp_plb

#if !defined(_TRACE_TCP_PLB_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_TCP_PLB_H

#include <linux/tracepoint.h>
#include <net/inet_sock.h>
#include "dcc_trace_sock.h"

#ifndef _TCP_PLB_EVENT_ENUM
#define _TCP_PLB_EVENT_ENUM
enum plb_event {
	PLB_E_IDLE,		/* repathed: congested, nothing in flight */
	PLB_E_FORCED,		/* repathed: sustained congestion */
	PLB_E_PAUSED,		/* due, held back by an RTO pause */
	PLB_E_SKIPPED,		/* due, but the socket refuses a rehash */
	PLB_E_RTO_PAUSE,	/* retransmit timeout: pause starts */
	PLB_E_LONG,		/* repathed: long congested rounds */
	PLB_E_RTO_CONG,		/* retransmit timeout judged congestion */
	PLB_E_HELD,		/* due, held on the best label */
};
#endif

TRACE_DEFINE_ENUM(PLB_E_IDLE);
TRACE_DEFINE_ENUM(PLB_E_FORCED);
TRACE_DEFINE_ENUM(PLB_E_PAUSED);
TRACE_DEFINE_ENUM(PLB_E_SKIPPED);
TRACE_DEFINE_ENUM(PLB_E_RTO_PAUSE);
TRACE_DEFINE_ENUM(PLB_E_LONG);
TRACE_DEFINE_ENUM(PLB_E_RTO_CONG);
TRACE_DEFINE_ENUM(PLB_E_HELD);

#define plb_show_event(e)					\
	__print_symbolic(e,					\
			 { PLB_E_IDLE,		"idle" },	\
			 { PLB_E_FORCED,	"forced" },	\
			 { PLB_E_PAUSED,	"paused" },	\
			 { PLB_E_SKIPPED,	"skipped" },	\
			 { PLB_E_RTO_PAUSE,	"rto_pause" },	\
			 { PLB_E_LONG,		"long" },		\
			 { PLB_E_RTO_CONG,	"rto_cong" },	\
			 { PLB_E_HELD,		"held" })

TRACE_EVENT(plb_repath,

	TP_PROTO(const struct sock *sk, enum plb_event event, u32 old_hash,
		 u32 new_hash, u32 pause_ms),

	TP_ARGS(sk, event, old_hash, new_hash, pause_ms),

	TP_STRUCT__entry(
		DCC_TP_SOCK_FIELDS
		__field(u32, event)
		__field(u32, old_hash)
		__field(u32, new_hash)
		__field(u32, pause_ms)
	),

	TP_fast_assign(
		DCC_TP_SOCK_ASSIGN(__entry, sk);
		__entry->event = event;
		__entry->old_hash = old_hash;
		__entry->new_hash = new_hash;
		__entry->pause_ms = pause_ms;
	),

	TP_printk(DCC_TP_SOCK_FMT " event=%s txhash=%08x->%08x pause_ms=%u",
		  DCC_TP_SOCK_ARGS,
		  plb_show_event(__entry->event), __entry->old_hash,
		  __entry->new_hash, __entry->pause_ms)
);

#endif /* _TRACE_TCP_PLB_H */

/* This part must be outside the include guard. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH ../trace
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE plb_trace
#include <trace/define_trace.h>
