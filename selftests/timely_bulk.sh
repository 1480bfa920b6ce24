#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A bulk transfer through a shaped bottleneck with a deep drop-tail FIFO:
# TIMELY (both variants) keeps the RTT bounded near T_high while cubic, in
# the same test on the same network, fills the buffer.  Utilization is
# asserted for the variant the test bed is tuned for (patched); the paper
# variant's figure is reported (see Documentation/timely.rst, "VM test bed").
#
# Asserted with generous margins (the emulated VM is noisy): directions and
# ratios, not exact figures.
. "$(dirname "$0")/lib.sh"
require_root
require_cmd iperf3 jq ping

RATE=${RATE:-100}		# Mbit/s
DELAY=${DELAY:-250}		# us, netem on the ACK path
LIMIT=${LIMIT:-1000}		# packets of FIFO at the bottleneck
SECS=${SECS:-8}
MOD=tcp_timely

# shellcheck disable=SC2086
load_module $MOD $TIMELY_VM_PARAMS || exit $KSFT_FAIL
topo_dumbbell
trap topo_cleanup EXIT
topo_shape "$RATE" "$DELAY" "$LIMIT"
allow_cc timely
iperf_server 5201

idle=$(ping_rtts 50 0.01 | percentile 50)
log "idle RTT p50 ${idle} us"
t_high=$(get_param $MOD t_high_us)

set_param $MOD variant 0
read -r p_mbps p_p50 p_p99 p_retr <<< "$(measure_bulk timely "$SECS")"
log "timely (paper): ${p_mbps} Mbit/s, RTT p50 ${p_p50} us p99 ${p_p99} us, ${p_retr} retransmits"
set_param $MOD variant 1
read -r t_mbps t_p50 t_p99 t_retr <<< "$(measure_bulk timely "$SECS")"
log "timely (patched): ${t_mbps} Mbit/s, RTT p50 ${t_p50} us p99 ${t_p99} us, ${t_retr} retransmits"
read -r c_mbps c_p50 c_p99 c_retr <<< "$(measure_bulk cubic "$SECS")"
log "cubic: ${c_mbps} Mbit/s, RTT p50 ${c_p50} us p99 ${c_p99} us, ${c_retr} retransmits"

expect "cubic fills the deep buffer (RTT p50 > 10x idle)" \
	"$c_p50 > 10 * $idle"
expect "patched timely keeps utilization high (>= 70 % of ${RATE} Mbit/s)" \
	"$t_mbps >= 0.70 * $RATE"
expect "patched timely RTT p50 stays near T_high (< T_high + 3 ms)" \
	"$t_p50 < $t_high + 3000"
expect "patched timely RTT p50 is under a fifth of cubic's" \
	"$t_p50 * 5 < $c_p50"
expect "paper timely carries traffic (>= 5 % of ${RATE} Mbit/s)" \
	"$p_mbps >= 0.05 * $RATE"
expect "paper timely RTT p50 stays near T_high (< T_high + 3 ms)" \
	"$p_p50 < $t_high + 3000"

topo_cleanup
trap - EXIT
unload_module $MOD
finish
