#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A bulk transfer through a shaped bottleneck with a deep drop-tail FIFO:
# TIMELY (both variants) keeps the RTT bounded near T_high while cubic, in
# the same test on the same network, fills the buffer.  Both variants must
# keep the link busy (relative to cubic's goodput in the same run).
#
# Asserted with generous margins (the emulated VM is noisy): directions and
# ratios, not exact figures; each figure is the better of two runs.
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
topo_dumbbell
trap topo_cleanup EXIT
topo_shape "$RATE" "$DELAY" "$LIMIT"
allow_cc timely
iperf_server 5201

idle=$(ping_rtts 50 0.01 | percentile 50)
log "idle RTT p50 ${idle} us"
t_high=$(get_param $MOD t_high_us)

# best_of2 CC LABEL: the run with the higher goodput of two.  The emulator's
# hiccups (or another VM on the host) can starve one run; a real
# regression shows in both.
best_of2() {
	local a b
	a=$(measure_bulk "$1" "$SECS")
	b=$(measure_bulk "$1" "$SECS")
	log "$2 runs: [$a] [$b]" >&2
	awk -v a="$a" -v b="$b" 'BEGIN { split(a, x); split(b, y)
		print (x[1] >= y[1] ? a : b) }'
}

set_param $MOD variant 0
read -r p_mbps p_p50 p_p99 p_retr <<< "$(best_of2 timely "timely (paper)")"
log "timely (paper): ${p_mbps} Mbit/s, RTT p50 ${p_p50} us p99 ${p_p99} us, ${p_retr} retransmits"
set_param $MOD variant 1
read -r t_mbps t_p50 t_p99 t_retr <<< "$(best_of2 timely "timely (patched)")"
log "timely (patched): ${t_mbps} Mbit/s, RTT p50 ${t_p50} us p99 ${t_p99} us, ${t_retr} retransmits"
read -r c_mbps c_p50 c_p99 c_retr <<< "$(best_of2 cubic cubic)"
log "cubic: ${c_mbps} Mbit/s, RTT p50 ${c_p50} us p99 ${c_p99} us, ${c_retr} retransmits"

# Utilization relative to cubic measured in the same run on the same
# network (another VM on the host costs every flow here, cubic included);
# the absolute bound catches a collapse.  The RTT is bounded in absolute
# terms (T_high + 3 ms) and must be well below cubic's; a third, not a
# fifth, because the patched fixed point is 1.5-2 ms by design and a cubic
# slowed by a busy host filled the FIFO only to 10-12 ms in some runs.
# See Documentation/timely.rst, "VM test bed", for the figures.
# A busy host can keep cubic CPU bound below the link rate (it then builds
# 8-30 ms of queue instead of 100): 5x idle still tells a filling buffer.
expect "cubic fills the deep buffer (RTT p50 > 5x idle)" \
	"$c_p50 > 5 * $idle"
# check_variant NAME MBPS P50
check_variant() {
	expect "$1 timely does not collapse (>= 40 % of ${RATE} Mbit/s)" \
		"$2 >= 0.40 * $RATE"
	expect "$1 timely keeps utilization high (>= 50 % of cubic's goodput)" \
		"$2 >= 0.50 * $c_mbps"
	expect "$1 timely RTT p50 stays near T_high (< T_high + 3 ms)" \
		"$3 < $t_high + 3000"
	expect "$1 timely RTT p50 is under a third of cubic's" \
		"$3 * 3 < $c_p50"
}
check_variant paper "$p_mbps" "$p_p50"
check_variant patched "$t_mbps" "$t_p50"

topo_cleanup
trap - EXIT
unload_module $MOD
finish
