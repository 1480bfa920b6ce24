#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A bulk transfer through a shaped bottleneck with a deep drop-tail FIFO:
# swift keeps utilization high while the RTT stays near base + target;
# cubic, in the same test on the same network, fills the buffer.
#
# At shipped defaults, in virtual time: one run each, margins that reflect
# the algorithms (a full link for both; swift's delay is base + target,
# cubic's the buffer).  The full figures go to the benchmark (make bench).
. "$(dirname "$0")/lib.sh"
require_root
require_cmd iperf3 jq ping
require_virtual_time

RATE=${RATE:-100}		# Mbit/s
DELAY=${DELAY:-250}		# us, netem on the ACK path
LIMIT=${LIMIT:-1000}		# packets of FIFO at the bottleneck
SECS=${SECS:-8}

load_module tcp_swift || exit $KSFT_FAIL
bed_dumbbell swift
iperf_server 5201

idle=$(ping_rtts 50 0.01 | percentile 50)
log "idle RTT p50 ${idle} us"

read -r s_mbps s_p50 s_p99 s_retr <<< "$(measure_bulk swift "$SECS")"
log "swift: ${s_mbps} Mbit/s, RTT p50 ${s_p50} us p99 ${s_p99} us, ${s_retr} retransmits"
read -r c_mbps c_p50 c_p99 c_retr <<< "$(measure_bulk cubic "$SECS")"
log "cubic: ${c_mbps} Mbit/s, RTT p50 ${c_p50} us p99 ${c_p99} us, ${c_retr} retransmits"

# One run each, in virtual time (deterministic).  Swift keeps the link
# busy with a queue of its target: the goodput of a full link, as cubic's
# (which fills the 1000-packet FIFO, 120 ms at 100 Mbit/s), at a delay
# that is the base RTT plus the target, not the buffer.
expect "swift keeps the link busy (>= 95 % of cubic's goodput)" \
	"$s_mbps >= 0.95 * $c_mbps"
expect "cubic fills the deep buffer (RTT p50 > 20x idle)" \
	"$c_p50 > 20 * $idle"
expect "swift RTT p99 is under a twentieth of cubic's" "$s_p99 * 20 < $c_p99"
# The target: idle RTT plus the scaled allowance (base target, hops,
# flow scaling; Documentation/swift.rst, scale_rtt_us), and a packet or
# two of pacing granularity on top.
limit_us=$(awk -v i="$idle" -v b="$(get_param tcp_swift base_target_us)" \
	-v r="$(get_param tcp_swift fs_range_us)" \
	-v s="$(get_param tcp_swift scale_rtt_us)" \
	'BEGIN { k = i > s && s > 0 ? i / s : 1; print int(i + k * (b + 2 + r) + 240) }')
expect "swift RTT p50 stays within idle + target ($limit_us us)" \
	"$s_p50 < $limit_us"

topo_cleanup
trap - EXIT
unload_module tcp_swift
finish
