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

# two_flows VARIANT: prints "jain mbps1 mbps2" over the last LAST seconds
# in which both were connected, from what the kernel says each socket
# delivered on one time line (ss_acked_log, fair_figures): each iperf3's
# own intervals start at its own connect, which a wait on the host's 9p
# root can delay by seconds of virtual time.
two_flows() {
	local tmp spid p1
	tmp=$(mktemp -d)
	: > "$tmp/acked"
	set_param $MOD variant "$1"
	ss_acked_log "$NS_CLI" 5201-5202 0.25 "$tmp/acked" &
	spid=$!
	iperf_flow timely "$SECS" 5201 > /dev/null &
	p1=$!
	sleep 3
	iperf_flow timely $((SECS - 3)) 5202 > /dev/null
	wait "$p1"
	kill "$spid"
	wait "$spid" 2>/dev/null
	fair_figures 2 "$tmp/acked" "$LAST" |
		awk '{ printf "%.3f %s %s\n", $1, $5 + 0, $6 + 0 }'
	rm -rf "$tmp"
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
