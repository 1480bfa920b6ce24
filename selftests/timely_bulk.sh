#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A bulk transfer through a shaped bottleneck with a deep drop-tail FIFO:
# TIMELY (both variants) keeps the RTT bounded near T_high while cubic, in
# the same test on the same network, fills the buffer.  Both variants must
# keep the link busy (relative to cubic's goodput in the same run).
#
# Shipped defaults (calibrate=1: line rate, thresholds and dead band from
# the path), one run per cc; the margins are the algorithm's: a rate-based
# sender that cuts above T_high (about 3 base RTTs here) and recovers by
# additive steps leaves some of the link unused after each cut.
. "$(dirname "$0")/lib.sh"
require_root
require_cmd iperf3 jq ping

RATE=${RATE:-100}		# Mbit/s
DELAY=${DELAY:-250}		# us, netem on the ACK path
LIMIT=${LIMIT:-1000}		# packets of FIFO at the bottleneck
SECS=${SECS:-8}
MOD=tcp_timely

# shellcheck disable=SC2086
load_module $MOD || exit $KSFT_FAIL
bed_dumbbell timely
iperf_server 5201

idle=$(ping_rtts 50 0.01 | percentile 50)
log "idle RTT p50 ${idle} us"
# Of cubic's goodput.  The patched variant recovers from a cut above
# T_high by delta * (1 - w), about half the paper's step, and measured
# 68-82 % here with one flow (the paper's 93-96 %).
UTIL_MIN_PAPER=${UTIL_MIN_PAPER:-80}
UTIL_MIN_PATCHED=${UTIL_MIN_PATCHED:-60}

set_param $MOD variant 0
read -r p_mbps p_p50 p_p99 p_retr <<< "$(measure_bulk timely "$SECS")"
log "timely (paper): ${p_mbps} Mbit/s, RTT p50 ${p_p50} us p99 ${p_p99} us, ${p_retr} retransmits"
set_param $MOD variant 1
read -r t_mbps t_p50 t_p99 t_retr <<< "$(measure_bulk timely "$SECS")"
log "timely (patched): ${t_mbps} Mbit/s, RTT p50 ${t_p50} us p99 ${t_p99} us, ${t_retr} retransmits"
read -r c_mbps c_p50 c_p99 c_retr <<< "$(measure_bulk cubic "$SECS")"
log "cubic: ${c_mbps} Mbit/s, RTT p50 ${c_p50} us p99 ${c_p99} us, ${c_retr} retransmits"

expect "cubic fills the deep buffer (RTT p50 > 5x idle)" \
	"$c_p50 > 5 * $idle"
# check_variant NAME MBPS P50 P99 MIN_PCT
check_variant() {
	expect "$1 timely does not collapse (>= 50 % of ${RATE} Mbit/s)" \
		"$2 >= 0.50 * $RATE"
	expect "$1 timely keeps utilization high (>= $5 % of cubic's goodput)" \
		"$2 >= $5 / 100 * $c_mbps"
	expect "$1 timely RTT p50 stays near the base RTT (< 4x idle)" \
		"$3 < 4 * $idle"
	expect "$1 timely RTT p99 is under a tenth of cubic's p50" \
		"$4 * 10 < $c_p50"
}
check_variant paper "$p_mbps" "$p_p50" "$p_p99" "$UTIL_MIN_PAPER"
check_variant patched "$t_mbps" "$t_p50" "$t_p99" "$UTIL_MIN_PATCHED"

topo_cleanup
trap - EXIT
unload_module $MOD
finish
