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
# logged.  At J = 0 on a fresh path (both variants) no floor is raised as
# if noise had stopped (TimelyNoiseEnded 0; 270 raises in the two cells
# before the raise waited for noise that went on, and 1 or 3 on some runs
# before it also waited for the quiet path to sit above T_low: the paper
# variant's queue, cycling back to back, held the gate, and its end came
# with the queue drained to the path); at J = 0 right after
# the 200 us cell the floor is raised (TimelyNoiseEnded counts) and
# >= 90 % of the link is kept (80.8 % in a run whose floor stayed in the
# noise's low tail).
. "$(dirname "$0")/lib.sh"
require_root
require_cmd iperf3 jq ping
require_virtual_time

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

ended() { mod_stat "$NS_CLI" tcp_timely_stat TimelyNoiseEnded; }
# variant_name V: the name of timely's variant parameter value V.
variant_name() { if [ "$1" = 1 ]; then echo patched; else echo paper; fi; }

# A quiet path first, the destination's floor and noise fresh: the
# flows' own queue (1.5-2.2 ms every 40-150 ms) must not read as noise
# that stops.
for v in 0 1; do
	name=$(variant_name $v)
	read -r g p50 p99 jain <<< "$(jitter_run $v 0)"
	log "timely ($name), no jitter: ${g} Mbit/s, RTT p50 ${p50} us p99 ${p99} us, Jain $jain; TimelyNoiseEnded $(ended)"
done
z_ended=$(ended)
expect "no TimelyNoiseEnded without jitter ($z_ended)" "$z_ended == 0"

for v in 0 1; do
	name=$(variant_name $v)
	for j in 100 200; do
		read -r g p50 p99 jain <<< "$(jitter_run $v $j)"
		log "timely ($name), jitter $j us: ${g} Mbit/s, RTT p50 ${p50} us p99 ${p99} us, Jain $jain; TimelyNoiseEnded $(ended)"
		if [ "$j" = 100 ]; then
			expect "$name timely keeps >= 90 % of ${RATE} Mbit/s at 100 us of jitter" \
				"$g >= 0.90 * $RATE"
		fi
	done
done

# The quiet path right after the noise: patched at J = 0 straight after
# its 200 us cell, new connections, the destination's floor taken in the
# noise's low tail (while still in its 10 s window) and its noise
# estimate that went on.  The floor is raised when the noise stops
# (Documentation/timely.rst, "When the noise stops"); kept in the tail,
# T_low sat below the quiet RTT and the flows froze where they were
# (80.8 % of the link, one flow 40 Mbit/s, three at 14).
e0=$(ended)
read -r g p50 p99 jain <<< "$(jitter_run 1 0)"
e1=$(ended)
log "timely (patched), jitter 0 us after 200 us: ${g} Mbit/s, RTT p50 ${p50} us p99 ${p99} us, Jain $jain; TimelyNoiseEnded $e0 -> $e1"
expect "patched timely keeps >= 90 % of ${RATE} Mbit/s at J = 0 right after the noise" \
	"$g >= 0.90 * $RATE"
expect "TimelyNoiseEnded counts when the noise stops ($e0 -> $e1)" \
	"$e1 > $e0"

topo_cleanup
trap - EXIT
unload_module $MOD
finish
