#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A bulk transfer through a shaped bottleneck with a deep drop-tail FIFO:
# swift keeps utilization high while the RTT stays near base + target;
# cubic, in the same test on the same network, fills the buffer.
#
# Asserted with generous margins (the emulated VM is noisy): directions and
# ratios, not exact figures.  The figures go to the benchmark (make bench).
. "$(dirname "$0")/lib.sh"
require_root
require_cmd iperf3 jq ping

RATE=${RATE:-100}		# Mbit/s
DELAY=${DELAY:-250}		# us, netem on the ACK path
LIMIT=${LIMIT:-1000}		# packets of FIFO at the bottleneck
SECS=${SECS:-8}

load_module tcp_swift || exit $KSFT_FAIL
topo_dumbbell
trap topo_cleanup EXIT
topo_shape "$RATE" "$DELAY" "$LIMIT"
allow_cc swift
iperf_server 5201

idle=$(ping_rtts 50 0.01 | percentile 50)
log "idle RTT p50 ${idle} us"

# best_of2 CC: the run with the higher goodput of two.  The emulator's
# hiccups (or another VM on the host) can starve one run; a real
# regression shows in both.
best_of2() {
	local a b
	a=$(measure_bulk "$1" "$SECS")
	b=$(measure_bulk "$1" "$SECS")
	log "$1 runs: [$a] [$b]" >&2
	awk -v a="$a" -v b="$b" 'BEGIN { split(a, x); split(b, y)
		print (x[1] >= y[1] ? a : b) }'
}

read -r s_mbps s_p50 s_p99 s_retr <<< "$(best_of2 swift)"
log "swift: ${s_mbps} Mbit/s, RTT p50 ${s_p50} us p99 ${s_p99} us, ${s_retr} retransmits"
read -r c_mbps c_p50 c_p99 c_retr <<< "$(best_of2 cubic)"
log "cubic: ${c_mbps} Mbit/s, RTT p50 ${c_p50} us p99 ${c_p99} us, ${c_retr} retransmits"

# Utilization relative to cubic measured in the same run on the same
# network; the absolute bound only catches a collapse.  On a quiet host
# swift gets 97-99 % of cubic's goodput here; with another VM competing for
# the host's cores the emulator's delay spikes (p99 10-15 ms) cost it more
# than cubic (down to ~70 %), hence the margin.  The figures belong to the
# benchmark, not to this check.
expect "swift does not collapse (>= 40 % of ${RATE} Mbit/s)" \
	"$s_mbps >= 0.40 * $RATE"
expect "swift keeps utilization high (>= 60 % of cubic's goodput)" \
	"$s_mbps >= 0.60 * $c_mbps"
# A busy host can keep cubic CPU bound below the link rate (it then builds
# 8-30 ms of queue instead of 100): 5x idle still tells a filling buffer.
expect "cubic fills the deep buffer (RTT p50 > 5x idle)" \
	"$c_p50 > 5 * $idle"
target=$(get_param tcp_swift base_target_us)
expect "swift RTT p50 stays near base + target (< idle + target + 3 ms)" \
	"$s_p50 < $idle + $target + 3000"
expect "swift RTT p50 is under a fifth of cubic's" "$s_p50 * 5 < $c_p50"

topo_cleanup
trap - EXIT
unload_module tcp_swift
finish
