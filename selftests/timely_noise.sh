#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# TIMELY under host-like noise (issue 25): uniform jitter of J us on the
# ACK path that keeps packets in order (netem "delay 250us J rate
# 10gbit" on RTR's rc0), 4 flows through the deep FIFO dumbbell, both
# variants at the shipped defaults.  The gradient must not read the noise
# as congestion: with calibrate=1 the dead band and the thresholds grow
# with the measured noise (Documentation/timely.rst, "Self-calibration").
# Asserted from one run each: utilization >= 90 % of the link at 100 us of
# jitter (issue 25; 45 % before calibration, 84-89 % before the gradient's
# time base and the covariance noise estimate); measured at 200 us and
# logged; >= 90 % at J = 0 right after the 200 us cell (the floor raised
# when the noise stops).
. "$(dirname "$0")/lib.sh"
require_root
require_cmd iperf3 jq ping

RATE=${RATE:-100}		# Mbit/s
DELAY=${DELAY:-250}		# us, netem on the ACK path
LIMIT=${LIMIT:-1000}		# packets of FIFO at the bottleneck
SECS=${SECS:-8}
FLOWS=${FLOWS:-4}
MOD=tcp_timely

load_module $MOD || exit $KSFT_FAIL
bed_dumbbell timely
iperf_server 5201

# jitter_run VARIANT J: prints "goodput_mbps rtt_p50 rtt_p99 jain".
jitter_run() {
	local tmp g p50 p99 jain
	set_param $MOD variant "$1"
	in_rtr tc qdisc replace dev rc0 root netem delay "${DELAY}us" "$2us" \
		rate 10gbit limit 100000
	tmp=$(mktemp -d)
	bulk_run timely "$SECS" "$FLOWS" "$tmp/b" 50 2
	g=$(iperf_mbps < "$tmp/b.json")
	p50=$(percentile 50 < "$tmp/b.rtt")
	p99=$(percentile 99 < "$tmp/b.rtt")
	jain=$(jq -r '[.end.streams[].receiver.bits_per_second] |
		(add * add) / (length * (map(. * .) | add)) * 1000 | round / 1000' \
		< "$tmp/b.json")
	rm -rf "$tmp"
	echo "$g $p50 $p99 $jain"
}

for v in 0 1; do
	name=paper
	[ "$v" = 1 ] && name=patched
	for j in 100 200; do
		read -r g p50 p99 jain <<< "$(jitter_run $v $j)"
		log "timely ($name), jitter $j us: ${g} Mbit/s, RTT p50 ${p50} us p99 ${p99} us, Jain $jain"
		if [ "$j" = 100 ]; then
			expect "$name timely keeps >= 90 % of ${RATE} Mbit/s at 100 us of jitter" \
				"$g >= 0.90 * $RATE"
		fi
	done
done

# The quiet path right after the noise: patched at J = 0 straight after
# its 200 us cell, the destination's floor taken in the noise's low tail
# still in its 10 s window.  The floor is raised when the noise stops
# (Documentation/timely.rst, "When the noise stops"); kept in the tail,
# T_low sat below the quiet RTT and the flows froze where they were
# (80.8 % of the link, one flow 40 Mbit/s, three at 14).
read -r g p50 p99 jain <<< "$(jitter_run 1 0)"
log "timely (patched), jitter 0 us after 200 us: ${g} Mbit/s, RTT p50 ${p50} us p99 ${p99} us, Jain $jain"
expect "patched timely keeps >= 90 % of ${RATE} Mbit/s at J = 0 right after the noise" \
	"$g >= 0.90 * $RATE"

topo_cleanup
trap - EXIT
unload_module $MOD
finish
