#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Swift under host-like noise: uniform jitter of J us that keeps packets in
# order (lib_topo.sh topo_jitter: netem "delay 250us J rate 10gbit" on the
# ACK path, or on the sender's link for the data path), 4 flows through
# the deep FIFO dumbbell, at the shipped defaults.  The minimum RTT falls J
# below the path's; the target must count from the noise's top, not from
# its low tail (include/dcc_basedelay.h, Documentation/swift.rst, "Host
# noise").  Asserted from one run each, in virtual time:
#  - >= 80 % of the link at 100 and 200 us of jitter on the ACK path and
#    at 200 us on the data path (before the noise estimate: 68 % and 50 %
#    at 200 us in make bench); the issue's 90 % is reported as a target
#    (the data path at 200 us gives 89-92 % from boot to boot);
#  - RTT p99 at 200 us no more than J = 0's plus 2 x 200 us: reported as
#    a target (make bench-jitter: 1.73 ms against 1.30 + 0.40 on the ACK
#    path);
#  - no SwiftNoiseAboveTarget and no SwiftNoiseEnded at J = 0;
#  - when the noise stops: 500 us of jitter on the data path switched
#    off half-way through one run (the same destination, within the
#    floor's 10 s window) keeps >= 80 % of the link in the quiet part
#    (2.9 % in make bench-jitter before the floor was renewed when the
#    noise stops), and SwiftNoiseEnded counts;
#  - with an allowance smaller than the noise (base_target_us=1,
#    fs_range_us=0, scale_rtt_us=0: 3 us), SwiftNoiseAboveTarget counts
#    and the kernel log names base_target_us.
. "$(dirname "$0")/lib.sh"
require_root
require_cmd iperf3 jq ping
require_virtual_time

RATE=${RATE:-100}		# Mbit/s
DELAY=${DELAY:-250}		# us, netem on the ACK path
LIMIT=${LIMIT:-1000}		# packets of FIFO at the bottleneck
SECS=${SECS:-6}
FLOWS=${FLOWS:-4}
MOD=tcp_swift

load_module $MOD || exit $KSFT_FAIL
bed_dumbbell swift
topo_keep_order
iperf_server 5201

# jitter_run J PATH: prints "goodput_mbps rtt_p99 jain".
jitter_run() {
	local tmp g p99 jain
	TOPO_DELAY_US=$DELAY topo_jitter "$1" "$2"
	tmp=$(mktemp -d)
	bulk_run swift "$SECS" "$FLOWS" "$tmp/b" 50 2
	g=$(iperf_mbps < "$tmp/b.json")
	p99=$(percentile 99 < "$tmp/b.rtt")
	jain=$(jq -r '[.end.streams[].receiver.bits_per_second] |
		(add * add) / (length * (map(. * .) | add)) * 1000 | round / 1000' \
		< "$tmp/b.json")
	rm -rf "$tmp"
	echo "$g $p99 $jain"
}

noisy() { mod_stat "$NS_CLI" tcp_swift_stat SwiftNoiseAboveTarget; }
ended() { mod_stat "$NS_CLI" tcp_swift_stat SwiftNoiseEnded; }

read -r g0 p0 jain0 <<< "$(jitter_run 0 ack)"
log "swift, no jitter: ${g0} Mbit/s, RTT p99 ${p0} us, Jain $jain0"
# A host pause (the VM's vCPU busy for 1-2 ms) swings a quiet path's
# samples by its length a few times; before the estimate clipped the
# changes (include/dcc_basedelay.h) such a pause read as noise on some
# boots: 4 connections counted and one noise end.
z_noisy=$(noisy) z_ended=$(ended)
expect "no SwiftNoiseAboveTarget without jitter ($z_noisy)" "$z_noisy == 0"
expect "no SwiftNoiseEnded without jitter ($z_ended)" "$z_ended == 0"

for cell in 100:ack 200:ack 200:data; do
	j=${cell%%:*} path=${cell#*:}
	read -r g p99 jain <<< "$(jitter_run "$j" "$path")"
	log "swift, jitter $j us on the $path path: ${g} Mbit/s, RTT p99 ${p99} us, Jain $jain"
	expect "swift keeps >= 80 % of ${RATE} Mbit/s at $j us of jitter ($path path)" \
		"$g >= 0.80 * $RATE"
	target 25 ">= 90 % of the link at $j us of jitter ($path path)" \
		"$g >= 0.90 * $RATE"
	if [ "$j" = 200 ]; then
		target 25 "RTT p99 at $j us ($path path) <= J=0's + 2 x $j us" \
			"$p99 <= $p0 + 2 * $j"
	fi
done
log "SwiftNoiseAboveTarget at the defaults: $(noisy)"

# When the noise stops: the floor taken under it holds its low tail for
# minrtt_win_ms (10 s); the quiet part must not read as queueing.  One
# run of 2 x SECS with the jitter switched off half-way, not two runs:
# between runs the guest's commands wait on the host's 9p root and the
# virtual clock jumps to the next timer meanwhile (1 to 62 s between two
# cells' traffic on a loaded host), and after a gap longer than the
# floor's window the floor has expired and there is nothing to renew.
# The switch itself needs nothing from the host either: a command run
# there (in_rtr tc ...) waited on the 9p root in the same way, and on a
# host running four VMs on two cores came late enough that the check
# below failed.  So the two tc's that make it (topo_jitter 0 data's) run
# before the flow starts, each blocked on a FIFO in the guest's tmpfs;
# bash's own read -t is the sleep, and the switch is two lines written
# to them; and it is one function, which bash has read whole before it
# runs it (it reads a script from the 9p checkout as it goes).
# noise_stop_run DIR: the run, its iperf3 JSON in DIR/s.json; sets
# SWITCH_S, when the noise went off (s after the flow's start).
noise_stop_run() {
	local d=$1 tc_cli tc_rtr pid t0 cli_fd rtr_fd never_fd
	mkfifo "$d/cli.tc" "$d/rtr.tc" "$d/never"
	in_cli tc -force -batch "$d/cli.tc" &
	tc_cli=$!
	in_rtr tc -force -batch "$d/rtr.tc" &
	tc_rtr=$!
	t0=$EPOCHREALTIME
	iperf_flow swift $((2 * SECS)) 5201 -P "$FLOWS" -i 0.5 > "$d/s.json" &
	pid=$!
	# Read-write opens: they never block, and a write cannot raise
	# SIGPIPE.  After the forks, so that only this shell holds them:
	# closing them is the tc's end of input.
	exec {cli_fd}<> "$d/cli.tc" {rtr_fd}<> "$d/rtr.tc" \
		{never_fd}<> "$d/never"
	read -r -t "$SECS" -u "$never_fd" _
	echo "qdisc del dev cli0 root" >&"$cli_fd"
	echo "qdisc replace dev rc0 root netem delay ${DELAY}us limit 100000" \
		>&"$rtr_fd"
	SWITCH_S=$(awk -v a="$t0" -v b="$EPOCHREALTIME" \
		'BEGIN { printf "%.3f", b - a }')
	exec {cli_fd}>&- {rtr_fd}>&- {never_fd}>&-
	wait "$tc_cli" "$tc_rtr" "$pid"
}
TOPO_DELAY_US=$DELAY topo_jitter 500 data
e0=$(ended)
tmp=$(mktemp -d)
noise_stop_run "$tmp"
log "the noise switched off $SWITCH_S s after the run began (at $SECS s)"
# Goodput of the noisy part, and of the quiet part from 1 s after the
# switch to the end.
gn=$(mean_mbps "$tmp/s.json" 0 "$SECS")
g=$(mean_mbps "$tmp/s.json" $((SECS + 1)) $((2 * SECS)))
rm -rf "$tmp"
log "swift, 500 us of jitter on the data path for $SECS s: ${gn} Mbit/s; then none: ${g} Mbit/s; SwiftNoiseEnded $e0 -> $(ended)"
expect "swift keeps >= 80 % of ${RATE} Mbit/s when the noise stops" \
	"$g >= 0.80 * $RATE"
expect "SwiftNoiseEnded counts when the noise stops ($e0 -> $(ended))" \
	"$(ended) > $e0"

# An allowance below the noise: the operator is told, once per connection.
before=$(noisy)
set_params $MOD base_target_us=1 fs_range_us=0 scale_rtt_us=0
dmesg -c > /dev/null 2>&1
read -r g p99 jain <<< "$(jitter_run 100 ack)"
log "swift, 3 us allowance, jitter 100 us: ${g} Mbit/s, RTT p99 ${p99} us"
after=$(noisy)
expect "SwiftNoiseAboveTarget counts when the noise outgrows the allowance ($before -> $after)" \
	"$after > $before && $after - $before <= $FLOWS + 1"
check "the kernel log names base_target_us" \
	sh -c "dmesg | grep -q 'tcp_swift: delay noise .*base_target_us'"

topo_cleanup
trap - EXIT
unload_module $MOD
finish
