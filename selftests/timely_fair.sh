#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Two TIMELY flows through one bottleneck, the second started 3 s after
# the first.  Patched TIMELY has a unique fixed point and must converge to
# a fair share (Jain's index over the last seconds); the paper's algorithm
# has no unique fixed point (Zhu et al. 2016), so its index is reported.
# Shipped defaults (calibrate=1: line rate and thresholds from the path),
# one run per variant.
. "$(dirname "$0")/lib.sh"
require_root
require_cmd iperf3 jq

RATE=${RATE:-100}		# Mbit/s
DELAY=${DELAY:-250}		# us
LIMIT=${LIMIT:-1000}		# packets
SECS=${SECS:-12}		# first flow; the second runs SECS - 3
LAST=${LAST:-4}			# seconds at the end over which Jain's index is taken
JAIN_MIN=${JAIN_MIN:-0.8}
PAIR_MIN_PCT=${PAIR_MIN_PCT:-70}
MOD=tcp_timely

# shellcheck disable=SC2086
load_module $MOD || exit $KSFT_FAIL
bed_dumbbell timely
iperf_server 5201
iperf_server 5202

# two_flows VARIANT: prints "jain mbps1 mbps2" over the last LAST seconds.
two_flows() {
	local tmp j1 j2 x1 x2
	tmp=$(mktemp -d)
	set_param $MOD variant "$1"
	iperf_flow timely "$SECS" 5201 > "$tmp/1" &
	sleep 3
	iperf_flow timely $((SECS - 3)) 5202 > "$tmp/2"
	wait
	x1=$(mean_mbps "$tmp/1" $((SECS - LAST)) "$SECS")
	x2=$(mean_mbps "$tmp/2" $((SECS - 3 - LAST)) $((SECS - 3)))
	j1=$(awk -v a="$x1" -v b="$x2" 'BEGIN {
		s = a * a + b * b; if (s == 0) { print 0; exit }
		printf "%.3f", (a + b) * (a + b) / (2 * s) }')
	j2="$x1 $x2"
	rm -rf "$tmp"
	echo "$j1 $j2"
}

read -r pj p1 p2 <<< "$(two_flows 0)"
log "timely (paper): Jain ${pj} over the last ${LAST} s, flows ${p1} and ${p2} Mbit/s"
read -r tj t1 t2 <<< "$(two_flows 1)"
log "timely (patched): Jain ${tj} over the last ${LAST} s, flows ${t1} and ${t2} Mbit/s"

expect "patched timely converges to a fair share (Jain > $JAIN_MIN)" \
	"$tj > $JAIN_MIN"
expect "patched timely: the pair uses the link (>= ${PAIR_MIN_PCT} % of ${RATE} Mbit/s)" \
	"$t1 + $t2 >= $PAIR_MIN_PCT / 100 * $RATE"
expect "paper timely: the pair uses the link (>= ${PAIR_MIN_PCT} % of ${RATE} Mbit/s)" \
	"$p1 + $p2 >= $PAIR_MIN_PCT / 100 * $RATE"

topo_cleanup
trap - EXIT
unload_module $MOD
finish
