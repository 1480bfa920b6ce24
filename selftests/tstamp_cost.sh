#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What ACK timestamps cost sockets that do not use our modules (a
# measurement, not in TEST_PROGS; Documentation/timestamps.rst, "Cost"):
# the goodput of a cubic bulk transfer CLI -> SRV over unshaped veths
# (CPU bound in the emulator) in three states, alternated ROUNDS times:
#   none      no swift connection: no probe, no software timestamping
#   probe     tstamp=hardware and one idle swift connection: the tcp_probe
#             probe is attached (every cubic segment received calls it)
#   probe+sw  tstamp=software and one idle swift connection: the probe and
#             host-wide software receive timestamps
# and, where ftrace's function profiler exists, the probe's calls and
# their mean time (with the profiler's own overhead).
#   make -C selftests run_vm TESTS="tstamp_cost.sh"
. "$(dirname "$0")/lib.sh"
require_root
require_cmd iperf3 jq

SECS=${SECS:-3}
ROUNDS=${ROUNDS:-7}

load_module tcp_swift || exit $KSFT_FAIL
topo_dumbbell
trap topo_cleanup EXIT
allow_cc swift
iperf_server 5201
iperf_server 5202

# idle_swift: a swift connection that carries 100 bytes every 0.5 s (an
# xfer pair that lasts longer than any measurement), in the background;
# idle_gone stops it.  ss must show it as swift, else the state is not the
# one measured.
iport=5300
idle_swift() {
	iport=$((iport + 1))
	in_srv "$DCC_BIN/xfer" -s $iport > /dev/null 2>&1 &
	idle_rx=$!
	wait_listen $iport
	in_cli "$DCC_BIN/xfer" -c "$SRV_IP" $iport 100000 -C swift \
		-a 100:500000 > /dev/null 2>&1 &
	idle_tx=$!
	wait_conn $iport
}
idle_alive() { in_cli ss -Htin "dport = :$iport" | grep -qw swift; }
idle_gone() {
	kill "$idle_tx" "$idle_rx" 2>/dev/null
	wait "$idle_tx" "$idle_rx" 2>/dev/null
}
alive=0 states=0
# measure_idle: cubic's goodput (in $m) with the idle swift connection
# open, which must still be there at the end.
measure_idle() {
	idle_swift
	m=$(cubic)
	states=$((states + 1))
	idle_alive && alive=$((alive + 1))
	idle_gone
}

cubic() { iperf_flow cubic "$SECS" 5201 | iperf_mbps; }

# One state's goodput into res[STATE].
measure() {
	case $1 in
	none)	m=$(cubic) ;;
	probe)	set_param tcp_swift tstamp hardware; measure_idle ;;
	probesw) set_param tcp_swift tstamp software; measure_idle ;;
	esac
	res[$1]="${res[$1]} $m"
}
declare -A res
order=(none probe probesw)
for r in $(seq "$ROUNDS"); do
	# The order rotates each round: whichever runs first in a round is
	# not always the same state.
	for i in 0 1 2; do
		measure "${order[$(((i + r) % 3))]}"
	done
	log "round $r: none${res[none]##* } probe${res[probe]##* } probe+sw${res[probesw]##* }"
	# Paired with the round's own "none": slow drifts of the emulated
	# host's speed cancel out.
	res[rp]="${res[rp]} $(awk -v a="${res[probe]##* }" -v b="${res[none]##* }" 'BEGIN { print a / b }')"
	res[rs]="${res[rs]} $(awk -v a="${res[probesw]##* }" -v b="${res[none]##* }" 'BEGIN { print a / b }')"
done
med() { echo "$1" | tr ' ' '\n' | grep . | percentile 50; }
n=$(med "${res[none]}"); p=$(med "${res[probe]}"); s=$(med "${res[probesw]}")
spread() { echo "$1" | tr ' ' '\n' | grep . | sort -g | sed -n '1p;$p' | xargs printf '%.0f..%.0f'; }
log "cubic goodput, median of $ROUNDS x ${SECS} s (Mbit/s): none $n, probe $p, probe+sw $s"
log "spread (min..max): none $(spread "${res[none]}"), probe $(spread "${res[probe]}"), probe+sw $(spread "${res[probesw]}")"
pct() { awk -v r="$1" 'BEGIN { printf "%+.1f %%", (r - 1) * 100 }'; }
rspread() { echo "$1" | tr ' ' '\n' | grep . | sort -g | sed -n '1p;$p' |
	    while read -r r; do pct "$r"; echo; done | paste -sd/ | sed 's|/| .. |'; }
log "paired with each round's none, median (min .. max): probe $(pct "$(med "${res[rp]}")") ($(rspread "${res[rp]}")), probe+sw $(pct "$(med "${res[rs]}")") ($(rspread "${res[rs]}"))"
log "relative of the medians: probe $(awk -v a="$p" -v b="$n" 'BEGIN { printf "%+.1f %%", (a / b - 1) * 100 }'), probe+sw $(awk -v a="$s" -v b="$n" 'BEGIN { printf "%+.1f %%", (a / b - 1) * 100 }')"

prof=$TRACEFS/function_profile_enabled
if [ -w "$prof" ] && echo dcc_ts_probe > "$TRACEFS/set_ftrace_filter" 2>/dev/null; then
	set_param tcp_swift tstamp software
	idle_swift
	echo 1 > "$prof"
	cubic > /dev/null
	echo 0 > "$prof"
	idle_gone
	cat "$TRACEFS"/trace_stat/function* 2>/dev/null |
		awk '$1 == "dcc_ts_probe" { h += $2; t += $3 }
		     END { if (h) printf "# probe: %d calls during a %s s cubic transfer, mean %.0f ns per call (profiler overhead included)\n", h, s, t * 1000 / h }' s="$SECS"
	echo > "$TRACEFS/set_ftrace_filter"
else
	log "no function profiler: per-call time not measured"
fi
topo_cleanup
trap - EXIT
unload_module tcp_swift
# The figures are the benchmark's; what is checked is that they were taken
# in the states they are labelled with.
expect "the idle swift connection lived through every measurement ($alive of $states)" \
	"$alive == $states && $states == 2 * $ROUNDS"
finish
