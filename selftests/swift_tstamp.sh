#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ACK receive timestamps split swift's delay into fabric and endpoint delay
# (Documentation/timestamps.rst), with software stamps (tstamp=software):
#  - lock hold: the sender holds its socket lock for HOLD_MS, every EVERY_MS
#    after the last (lockhold: a thread whose SO_ATTACH_FILTER faults on a
#    userfaultfd page; on its own clock, whether or not the socket can take
#    more data), so ACKs wait
#    in the socket backlog after they arrived: the endpoint delay rises and
#    the endpoint window shrinks; the fabric delay stays near the base RTT
#    and the fabric window stays above the endpoint window; the same hold
#    with tstamp=off is all fabric delay and cuts the fabric window;
#  - netem: the network delay rises by NETEM_MS in mid-flow: the fabric
#    delay rises and the fabric window shrinks; the endpoint delay stays
#    low and the endpoint window stays above the fabric window;
#  - host-wide effects once per module load: the probe on tcp_probe and
#    the software timestamps are taken by the first connection and kept
#    (a connect/close loop takes nothing again), as the module's debugfs
#    state file shows; unload removes it;
#  - tstamp= takes names, refuses others; tstamp=off counts nothing.
# Numbers from the tcp_swift:swift_update trace: fabric delay (delay_us),
# endpoint-delay EWMA (ep_us), windows (fcwnd, ecwnd) in milli-packets.
. "$(dirname "$0")/lib.sh"
require_root
require_cmd ss tc

RATE=${RATE:-1000}		# Mbit/s: no bottleneck but the hosts' CPUs
DELAY=${DELAY:-250}		# us, netem on the ACK path
LIMIT=${LIMIT:-1000}		# packets of FIFO at the bottleneck
SECS=${SECS:-5}
HOLD_MS=${HOLD_MS:-20}
EVERY_MS=${EVERY_MS:-20}
NETEM_MS=${NETEM_MS:-8}
EV=$TRACEFS/events/tcp_swift/swift_update
PORT=6000


# --- system state: probes on tcp_probe, software timestamping users ------

# tstate KEY: the module's own account of its host-wide effects
# (/sys/kernel/debug/tcp_swift/tstamp): probe attached|detached|unavailable,
# software_stamps held|released, connections, probe_attaches and
# software_stamp_holds (each at most once per module load).
TSTATE=/sys/kernel/debug/tcp_swift/tstamp
tstate() { awk -v k="$1" '$1 == k { print $2 }' "$TSTATE"; }

# --- one phase: a flow, its trace summary --------------------------------

swift_stat() { mod_stat "$NS_CLI" tcp_swift_stat "$1"; }

# phase NAME HOLD_MS NETEM_STEP_MS: one lockhold flow of SECS seconds; with
# a netem step, the ACK-path delay rises by that much after 1.5 s.  Over
# the trace events from 2 s on (settled), or from the step, prints
#   fabric_p50_us ep_p50_us ep_max_us fcwnd_min fcwnd_p50 ecwnd_min
#   ecwnd_p50 events fabric_cuts endpoint_cuts ep_max_flow_us flow_events
#   ep_max_early_us
# (delays in us, windows in 1/1000 packet; the cuts, the endpoint-delay
# EWMA's largest and the events over the whole flow; the EWMA's largest
# before the settled part).
phase() {
	local name=$1 hold=$2 step=$3 pid out fd0 ed0 all
	fd0=$(swift_stat SwiftDelayDecrease)
	ed0=$(swift_stat SwiftEndpointDecrease)
	trace_start "$EV" || return 1
	in_cli "$DCC_BIN/lockhold" -C swift -H "$hold" -i "$EVERY_MS" \
		-t "$SECS" "$SRV_IP" "$PORT" > "/tmp/lockhold.$$" 2>&1 &
	pid=$!
	sleep 1.5
	# With a step, from the step on (the fabric window falls to its
	# floor within a few RTTs and then changes rarely); else from 2 s.
	if [ "$step" -gt 0 ]; then
		in_rtr tc qdisc change dev rc0 root netem \
			delay "$((DELAY + step * 1000))us" limit 100000
	else
		sleep 0.5
	fi
	echo dcc_tstamp_mark > "$TRACEFS/trace_marker"
	wait $pid
	echo 0 > "$EV/enable"
	[ "$step" -gt 0 ] && in_rtr tc qdisc change dev rc0 root netem \
		delay "${DELAY}us" limit 100000
	log "$name: lockhold $(cat "/tmp/lockhold.$$")" >&2
	# The endpoint-delay EWMA over the whole flow: the trace shows it
	# only when a decision moved a window, and once the endpoint window
	# sits at its floor a cut moves nothing, so the settled events miss
	# most held ACKs; the first holds, while the flow still streams
	# ACKs into them, are where a hold's full delay is seen.
	all=$(awk 'BEGIN { on = 0 } /dcc_tstamp_mark/ { on = 1 }
		/swift_update:/ { n++; for (i = 1; i <= NF; i++)
		if ($i ~ /^ep_us=/ && substr($i, 7) + 0 > m[on])
			m[on] = substr($i, 7) + 0 }
		END { print (m[0] > m[1] ? m[0] : m[1]) + 0, n + 0, m[0] + 0 }' \
		"$TRACEFS/trace")
	awk '/dcc_tstamp_mark/ { on = 1; next }
	     on && /swift_update:/ {
		for (i = 1; i <= NF; i++) { split($i, p, "="); v[p[1]] = p[2] }
		split(v["fcwnd"], f, "->"); split(v["ecwnd"], e, "->")
		print v["delay_us"], v["ep_us"], f[2], e[2] }' \
		"$TRACEFS/trace" > "/tmp/trace.$$"
	out="$(p 1 50) $(p 2 50) $(p 2 100) $(p 3 0) $(p 3 50) $(p 4 0) $(p 4 50)"
	out="$out $(wc -l < "/tmp/trace.$$")"
	out="$out $(($(swift_stat SwiftDelayDecrease) - fd0))"
	out="$out $(($(swift_stat SwiftEndpointDecrease) - ed0))"
	out="$out $all"
	rm -f "/tmp/trace.$$" "/tmp/lockhold.$$"
	echo "$out"
}
p() { awk -v c="$1" '{ print $c }' "/tmp/trace.$$" | percentile "$2"; }

# show NAME VALUES...: log one phase's figures.
show() {
	local n=$1
	shift
	set -- "$@"
	log "$n: fabric delay p50 $1 us; endpoint delay (EWMA) p50 $2 max $3 us; fcwnd min/p50 $4/$5, ecwnd min/p50 $6/$7 mpkt; cuts: fabric $9, endpoint ${10} ($8 events)"
}

# --- setup -----------------------------------------------------------------

load_module tcp_swift tstamp=software || exit $KSFT_FAIL
check "tstamp reads back its name (software)" \
	test "$(get_param tcp_swift tstamp)" = software
check_bad_writes tcp_swift tstamp:bogus tstamp:4 tstamp:
set_param tcp_swift tstamp auto
check "tstamp=auto is taken" test "$(get_param tcp_swift tstamp)" = auto
set_param tcp_swift tstamp 3
check "tstamp=3 (the index of software) is taken" \
	test "$(get_param tcp_swift tstamp)" = software

check "before any connection: no probe, no software stamps ($(tr '\n' ' ' < "$TSTATE"))" \
	test "$(tstate probe)" = detached -a "$(tstate software_stamps)" = released

bed_dumbbell swift
in_srv "$DCC_BIN/incast" -s "$PORT" &
disown
sleep 0.3

sw0=$(swift_stat SwiftTstampSw)
miss0=$(swift_stat SwiftTstampMissing)
rej0=$(swift_stat SwiftTstampRejected)

# --- lock hold: endpoint delay ---------------------------------------------

read -r hf he hemax hfmin hfp50 hemin hep50 hn hfd hed heall hall heearly <<< \
	"$(phase hold "$HOLD_MS" 0)"
show "hold $HOLD_MS ms every $EVERY_MS ms" "$hf" "$he" "$hemax" \
	"$hfmin" "$hfp50" "$hemin" "$hep50" "$hn" "$hfd" "$hed"
sw=$(($(swift_stat SwiftTstampSw) - sw0))
miss=$(($(swift_stat SwiftTstampMissing) - miss0))
rej=$(($(swift_stat SwiftTstampRejected) - rej0))
log "samples: split on software stamps $sw, missing $miss, rejected $rej"

# --- the same hold without timestamps: it all looks like fabric delay -----

set_param tcp_swift tstamp off
read -r of oe oemax ofmin ofp50 oemin oep50 on ofd oed _ _ _ <<< \
	"$(phase hold-off "$HOLD_MS" 0)"
show "hold, tstamp=off" "$of" "$oe" "$oemax" "$ofmin" "$ofp50" "$oemin" \
	"$oep50" "$on" "$ofd" "$oed"
set_param tcp_swift tstamp software

# --- netem: fabric delay ---------------------------------------------------

read -r nf ne nemax nfmin nfp50 nemin nep50 nn nfd ned neall nall _ <<< \
	"$(phase netem 0 "$NETEM_MS")"
show "netem +$NETEM_MS ms" "$nf" "$ne" "$nemax" "$nfmin" "$nfp50" \
	"$nemin" "$nep50" "$nn" "$nfd" "$ned"

expect "trace events in every phase ($hn, $on, $nn)" \
	"$hn > 20 && $on > 20 && $nn > 0"
expect "most samples split on software stamps" "$sw > 4 * ($miss + $rej)"
# Lock hold: the delay is the host's.
# One ACK held through half the hold moves the EWMA by its weight (1 -
# ep_ewma_keep_permille / 1000) times that: the least a hold must show.
ew=$((1000 - $(get_param tcp_swift ep_ewma_keep_permille)))
# Over the whole flow: once the endpoint window sits at its floor the
# trace no longer shows the EWMA after each held ACK (settled max 1080,
# 2872, 5016 and 5017 us in four runs of the same module; a CI run failed on
# it), the first holds always do (4981-5021 us in three runs).
log "hold: endpoint delay (EWMA) max over the flow $heall us ($hall events): before 2 s $heearly, settled $hemax us"
expect "hold: endpoint delay (EWMA max) reaches one half-hold sample's weight ($ew/1000)" \
	"$heall >= $HOLD_MS * $ew / 2"
expect "hold: fabric delay p50 stays below half the hold" \
	"$hf < $HOLD_MS * 500"
# At the shipped defaults the fabric window makes its own AIMD cuts
# around its target (a few hundred us here) many times a second: they
# outnumber the hold's endpoint cuts, and hide the few fabric cuts the
# stamps save (1100 and 1162 with and without them in one run, 1145 and
# 930 in another).  Logged; what is asserted is where the hold goes: the
# endpoint window, and none without stamps.
log "hold: endpoint cuts $hed, fabric cuts $hfd"
expect "hold: the endpoint window shrinks below the fabric window (min)" \
	"$hemin < $hfmin"
# Without timestamps the same hold is all fabric delay.
log "hold, tstamp=off: fabric cuts $ofd (with stamps $hfd)"
expect "hold, tstamp=off: no endpoint cut" "$oed == 0"
# Netem: the delay is the network's.
expect "netem: fabric delay carries the added delay (p50 > half of it)" \
	"$nf > $NETEM_MS * 500"
expect "netem: endpoint cuts fewer than in the hold phase" "$ned < $hed"
log "netem: endpoint delay (EWMA) max over the flow $neall us ($nall events)"
expect "netem: endpoint delay (EWMA max) below the hold phase's" \
	"$neall < $heall"
expect "netem: the fabric window shrinks below the endpoint window (min)" \
	"$nfmin < $nemin"

# --- GSO bursts: their serialization out of the delay sample --------------
# (issue 15 item 15, include/dcc_gso.h).  TCP always builds GSO skbs
# (sk_setup_caps() adds NETIF_F_GSO for TCP), so the bed's "offloads off"
# only moves the segmentation from the device (TSO) to software before
# it: one bulk flow with the sender's TSO on, one with it off.  The
# module's debugfs state counts the samples whose burst was known, those
# corrected and the microseconds taken out (at line_rate_mbps, 10 Gbit/s).

gso_flow() {
	local k0 n0 u0
	k0=$(tstate gso_known_samples)
	n0=$(tstate gso_corrected_samples)
	u0=$(tstate gso_corrected_us)
	in_cli "$DCC_BIN/lockhold" -C swift -t 3 "$SRV_IP" "$PORT" > /dev/null
	echo "$(($(tstate gso_corrected_samples) - n0))" \
	     "$(($(tstate gso_corrected_us) - u0))" \
	     "$(($(tstate gso_known_samples) - k0))"
}
in_cli ethtool -K cli0 tso on gso on > /dev/null 2>&1
read -r gn gu gk <<< "$(gso_flow)"
in_cli ethtool -K cli0 tso off gso off > /dev/null 2>&1
read -r fn fu fk <<< "$(gso_flow)"
log "TSO on: $gn samples corrected, $gu us in all, burst known for $gk; TSO off (software GSO): $fn corrected, $fu us, known $fk"
expect "TSO on and off: samples are corrected" \
	"$gn > 100 && $gu > $gn && $fn > 100 && $fu > $fn"
# At most the rest of a 64 KB burst at 10 Gbit/s (52 us) per sample.
expect "at most one GSO skb's serialization per sample" \
	"$gu <= 52 * $gn && $fu <= 52 * $fn"

# --- tstamp=off: no split, nothing counted --------------------------------

set_param tcp_swift tstamp off
sw0=$(swift_stat SwiftTstampSw)
in_cli "$DCC_BIN/lockhold" -C swift -t 1 "$SRV_IP" "$PORT" > /dev/null
expect "tstamp=off: no sample split" "$(swift_stat SwiftTstampSw) == $sw0"
set_param tcp_swift tstamp software

# --- unload with timestamps in use ----------------------------------------

in_cli "$DCC_BIN/lockhold" -C swift -t 3 "$SRV_IP" "$PORT" > /dev/null &
pid=$!
sleep 1.5
log "in use: $(tr '\n' ' ' < "$TSTATE")"
check "in use: the probe is attached, software stamps held" \
	test "$(tstate probe)" = attached -a "$(tstate software_stamps)" = held
wait $pid
# Connections opened and closed one after another (any user could loop
# so) attach nothing again: the probe and the software stamps are taken
# once per module load, not at each 0 -> 1 connection.
for i in $(seq 20); do
	in_cli "$DCC_BIN/cc_sockopt" swift "$SRV_IP" "$PORT" 1000 > /dev/null
done
log "after 20 connections: $(tr '\n' ' ' < "$TSTATE")"
check "a connect/close loop attaches the probe and takes software stamps once" \
	test "$(tstate probe_attaches)" = 1 -a "$(tstate software_stamp_holds)" = 1
topo_cleanup
trap - EXIT
check "module unloads after the transfers" unload_module tcp_swift
check "unload removes the module's state file" test ! -e "$TSTATE"
finish
