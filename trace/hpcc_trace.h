/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoint of tcp_hpcc: one event per window update from telemetry.
 *
 * tcp_hpcc:hpcc_update fires on every ACK whose echoed records moved U
 * (include/dcc_hpcc.h), with the number of hops the ACK reported, the
 * most loaded hop (0 is the first router from the sender), its queue in
 * bytes, U in 1/1000, the window W and the reference window W_c in bytes
 * and whether the ACK started a new round (W_c moved).  Disabled, it
 * costs one static branch.  See Documentation/hpcc.rst.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM tcp_hpcc

#if !defined(_TRACE_TCP_HPCC_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_TCP_HPCC_H

#include <linux/tracepoint.h>
#include <net/inet_sock.h>
#include "dcc_trace_sock.h"

TRACE_EVENT(hpcc_update,

	TP_PROTO(const struct sock *sk, u32 nhops, u32 hop, u32 qlen,
		 u32 u_milli, u32 w_bytes, u32 wc_bytes, bool round),

	TP_ARGS(sk, nhops, hop, qlen, u_milli, w_bytes, wc_bytes, round),

	TP_STRUCT__entry(
		DCC_TP_SOCK_FIELDS
		__field(u32, nhops)
		__field(u32, hop)
		__field(u32, qlen)
		__field(u32, u_milli)
		__field(u32, w_bytes)
		__field(u32, wc_bytes)
		__field(u32, round)
	),

	TP_fast_assign(
		DCC_TP_SOCK_ASSIGN(__entry, sk);
		__entry->nhops = nhops;
		__entry->hop = hop;
		__entry->qlen = qlen;
		__entry->u_milli = u_milli;
		__entry->w_bytes = w_bytes;
		__entry->wc_bytes = wc_bytes;
		__entry->round = round;
	),

	TP_printk(DCC_TP_SOCK_FMT " hops=%u hop=%u qlen=%u u_milli=%u w=%u wc=%u round=%u",
		  DCC_TP_SOCK_ARGS, __entry->nhops, __entry->hop,
		  __entry->qlen, __entry->u_milli, __entry->w_bytes,
		  __entry->wc_bytes, __entry->round)
);

#endif /* _TRACE_TCP_HPCC_H */

/* This part must be outside the include guard. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH ../trace
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE hpcc_trace
#include <trace/define_trace.h>
