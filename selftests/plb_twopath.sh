#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# PLB on two equal-cost IPv6 paths, one of them congested.
#
# Topology (lib.sh topo_twopath): CLI -- RTR =(A, B)= R2 -- SRV, RTR
# hashing the IPv6 flow label over A and B.  Path A is slower (20 Mbit/s
# against 50) and a cubic IPv4 flow, pinned to A by its route, keeps A's
# 100-packet FIFO full: tens of ms of queue, where B has none.
#
#  1. RPC clients (on-off: 32 KB requests, 10 ms idle between them) with
#     swift and PLB on: connections that hash onto A repath, in their idle
#     gaps, and the IPv6 load shifts to B; the labels tcpdump sees change
#     only as often as PLB (or TCP's own RTO rehash) says; at the end no
#     connection is left on A (per connection: the path that carried most
#     of its last 2 s of data, from captures on RTR's two egresses), and
#     no flow label kept one on A for more than twice the forced rule's
#     time (a timeout on A is congestion: it pauses nothing).
#  2. Continuous bulk flows (8), idle repaths off: a flow on A repaths only
#     after rehash_rounds congested rounds in a row.  Then the same flows
#     at PLB's defaults (none left on A at the end, no label kept one on A
#     for long); PLB off.
#  3. PLB off: the same RPCs, no PLB repath, no label changes beyond TCP's
#     own RTO rehash; load split as the hash falls.
#  4. IPv4 connections with PLB on are repathed (as upstream): inside a
#     VXLAN tunnel the outer UDP source port changes with each repath.
#  5. timely uses PLB too: connections that start on A repath (none left
#     on A at the end, no label kept one on A for long).
# The completion times, load split, per-connection goodput and the
# connections left on A of 1 and 3 are logged for the record
# (Documentation/plb.rst), not asserted against each other.  All at the
# modules' shipped defaults, in virtual time, one run.
source "$(dirname "$0")/lib.sh"
require_root
require_cmd iperf3 tcpdump jq

# swift and timely run at their shipped defaults.
RPCS=60
RPC_BYTES=32768
RPC_GAP_US=10000
N_RPC=4

stat() { mod_stat "$NS_CLI" tcp_plb_stat "$1"; }
# PLB's repaths of every kind: idle, forced, long.
repaths_all() {
	echo $(($(stat PlbRepathIdle) + $(stat PlbRepathForced) +
		$(stat PlbRepathLong)))
}
kernel_rehash() {
	echo $(($(nstat_get "$NS_CLI" TcpExtTcpTimeoutRehash) +
		$(nstat_get "$NS_CLI" TcpExtTcpDuplicateDataRehash)))
}

# PLB's decisions per connection over a phase (tracepoint
# tcp_plb:plb_repath): plb_trace_begin clears and enables it;
# plb_trace_end TAG keeps the phase's events in $tmp/TAG.trace and sets
# RTO_PAUSE (timeouts judged a failure, which pause PLB) and RTO_CONG
# (timeouts on a congested path: no pause).
plb_trace_begin() {
	trace_start "$TRACEFS/events/tcp_plb/plb_repath" ||
		log "tracepoint tcp_plb:plb_repath not available"
}
plb_trace_end() {
	echo 0 > "$TRACEFS/events/tcp_plb/plb_repath/enable" 2>/dev/null
	grep plb_repath "$TRACEFS/trace" > "$tmp/$1.trace" 2>/dev/null
	RTO_PAUSE=$(grep -c 'event=rto_pause' "$tmp/$1.trace")
	RTO_CONG=$(grep -c 'event=rto_cong' "$tmp/$1.trace")
	log "$1: retransmit timeouts judged a failure (PLB paused) $RTO_PAUSE, on congestion (no pause) $RTO_CONG"
	grep 'event=rto_' "$tmp/$1.trace" | sed 's/^.*sport=/#   sport=/'
	# Per connection: repaths, and due repaths held on the best label
	# it went back to (path memory, Documentation/plb.rst).
	log "$1: per connection (port: repaths, held): $(awk '
		{ for (i = 1; i <= NF; i++) {
			if ($i ~ /^sport=/) p = substr($i, 7)
			if ($i ~ /^event=/) e = substr($i, 7) } }
		e ~ /^(idle|forced|long)$/ { r[p]++; seen[p] = 1 }
		e == "held" { h[p]++; seen[p] = 1 }
		END { for (p in seen) printf " %s:%d,%d", p, r[p], h[p] }' \
		"$tmp/$1.trace")"
}

# rpc_phase CC TAG: N_RPC RPC clients over IPv6 with a capture; sets
# B_SHARE, LABEL_CHANGES, CONNS, and logs completion times.
rpc_phase() {
	local cc=$1 tag=$2 a0 b0 a1 b1 pids='' i tdpid snap
	a0=$(path_bytes6 pa0)
	b0=$(path_bytes6 pb0)
	ns_capture "$NS_CLI" cli0 "$tmp/$tag.pcap" "ip6 and tcp dst port 7000"
	tdpid=$CAPTURE_PID
	paths_start "$tag" 7000
	plb_trace_begin
	for i in $(seq $N_RPC); do
		in_cli timeout 40 "$DCC_BIN/rpc" -c fd00:2::1 7000 $RPCS \
			$RPC_BYTES $RPC_GAP_US "$cc" > "$tmp/$tag.rpc$i" 2>&1 &
		pids="$pids $!"
	done
	# What the connections still open after 30 s look like (logged when
	# a client does not finish).
	rm -f "$tmp/$tag.ss"
	(sleep 30; in_cli ss -tinH dst "[$SRV_IP6]:7000" > "$tmp/$tag.ss";
	 for c in PlbRounds PlbCongestedRounds PlbRepathIdle PlbRepathForced \
		  PlbRepathLong PlbRepathPaused PlbRtoPause PlbRtoCongested; do
		echo "$c $(stat $c)"
	 done >> "$tmp/$tag.ss") &
	snap=$!
	# shellcheck disable=SC2086
	wait $pids
	kill $snap 2>/dev/null
	sleep 0.5
	ns_capture_stop "$tdpid"
	plb_trace_end "$tag"
	paths_stop "$tag"
	paths_per_flow "$tag"
	a1=$(path_bytes6 pa0)
	b1=$(path_bytes6 pb0)
	B_SHARE=$(awk -v a=$((a1 - a0)) -v b=$((b1 - b0)) \
		  'BEGIN { printf "%.2f", (a + b) ? b / (a + b) : 0 }')
	label_counts "$tmp/$tag.pcap" > "$tmp/$tag.labels"
	CONNS=$(wc -l < "$tmp/$tag.labels")
	LABEL_CHANGES=$(awk '{ s += $2 - 1 } END { print s + 0 }' \
			"$tmp/$tag.labels")
	RPC_DONE=$(cat "$tmp/$tag".rpc* | grep -c '^rpcs=')
	log "$tag: IPv6 bytes over A $((a1 - a0)), over B $((b1 - b0)) (B share $B_SHARE)"
	log "$tag: $CONNS connections, $LABEL_CHANGES label changes"
	for i in $(seq $N_RPC); do
		log "$tag: $(cat "$tmp/$tag.rpc$i")"
	done
	if [ "$RPC_DONE" -lt $N_RPC ] && [ -s "$tmp/$tag.ss" ]; then
		log "$tag: a client did not finish; at 30 s:"
		sed 's/^/#   /' "$tmp/$tag.ss"
	fi
	cat "$tmp/$tag".rpc* | awk '{ for (i = 1; i <= NF; i++) {
		split($i, kv, "="); v[kv[1]] = kv[2] }
		p50 += v["p50_us"]; p99 = v["p99_us"] > p99 ? v["p99_us"] : p99
		t = v["total_ms"] > t ? v["total_ms"] : t }
		END { if (NR) printf "# %s: RPC p50 (mean of clients) %d us, worst p99 %d us, slowest client %d ms\n",
		      tag, p50 / NR, p99, t }' tag="$tag"
}

# warm CC: the destination's base delay known to CC before a phase, as
# to a host that has talked to it before: one second of CC over the free
# path B alone (the congestion controls keep a floor per destination).
# Without it, a phase whose connections the hash all puts on A (one in 16
# with four) has no reference: A's queue never drains (the cubic flow
# keeps 43-120 ms there), the standing queue reads as the path's delay,
# and no round is judged congested (Documentation/plb.rst, "No
# reference"), a limit of any delay signal, not of PLB.
warm() {
	twopath_route6 b
	in_cli iperf3 -6 -c "$SRV_IP6" -p 5202 -C "$1" -t 1 >/dev/null 2>&1
	twopath_route6 ab
}

# dwell_expect WHAT: PLB on, no flow label kept a connection on the
# congested path A longer than DWELL_MAX_MS (paths_per_flow's
# DWELL_A_MS: every label counts, PATHS_RTO_GAP below).  Where a
# connection ends is chance (each repath draws a random label, which
# lands on A again one time in two); that PLB moves it off A is not: a
# label on A sees rehash_rounds congested rounds in a row (the hog keeps
# A's FIFO full: 100 packets at 20 Mbit/s, a round of 61 ms) and is
# repathed, 0.74 s at the defaults, sooner at an idle moment.  The bound
# is twice that.  A retransmit timeout on A is the queue's loss, which
# PLB sees as congestion and does not pause for (Documentation/plb.rst,
# "Timeouts: failure or congestion"); upstream's pause after every
# timeout held one RPC connection 20.2 s on one label there.
DWELL_MAX_MS=$((2 * 12 * 61))
# A label's silences count in its dwell: no exception for timeouts.
# shellcheck disable=SC2034 # read by paths_per_flow (lib_topo.sh)
PATHS_RTO_GAP=1000000
dwell_expect() {
	expect "$1, PLB on: no flow label kept a connection on the congested path A for over $DWELL_MAX_MS ms (longest ${DWELL_A_MS} ms, port $DWELL_PORT)" \
		"$DWELL_A_MS <= $DWELL_MAX_MS"
}

tmp=$(mktemp -d)
load_module tcp_plb enabled=1 || skip "tcp_plb.ko not built"
load_module tcp_swift
allow_cc swift
topo_twopath 50 250 100
in_rtr tc class replace dev pa0 parent 1: classid 1:1 htb \
	rate 20mbit ceil 20mbit burst 30k cburst 30k

check "a new namespace starts from the module's defaults" \
	test "$(in_cli sysctl -n net.dcc_plb.enabled)" = 1
check "net.dcc_plb has the upstream defaults" \
	test "$(in_cli sysctl -n net.dcc_plb.rehash_rounds \
		net.dcc_plb.idle_rehash_rounds net.dcc_plb.suspend_rto_sec \
		net.dcc_plb.cong_thresh | tr '\n' ' ')" = "12 3 60 128 "
for bad in enabled:2 rehash_rounds:32 idle_rehash_rounds:-1 \
	   suspend_rto_sec:256 cong_thresh:257 cong_thresh:abc; do
	name=${bad%%:*}
	old=$(in_cli sysctl -n "net.dcc_plb.$name")
	klog_mark
	in_cli sh -c "echo ${bad#*:} > /proc/sys/net/dcc_plb/$name" 2>/dev/null
	rc=$?
	check "net.dcc_plb.$name=${bad#*:} refused, $old kept, message logged" \
		test $rc -ne 0 -a "$(in_cli sysctl -n "net.dcc_plb.$name")" = "$old" \
		-a -n "$(klog_since | grep "net.dcc_plb.$name")"
done
in_srv sysctl -qw net.dcc_plb.rehash_rounds=5
check "settings are per namespace" \
	test "$(in_srv sysctl -n net.dcc_plb.rehash_rounds)" = 5 -a \
	"$(in_cli sysctl -n net.dcc_plb.rehash_rounds)" = 12 -a \
	"$(sysctl -n net.dcc_plb.rehash_rounds)" = 12

in_srv iperf3 -s -D -p 5201 >/dev/null 2>&1
in_srv iperf3 -s -D -p 5202 >/dev/null 2>&1
in_srv "$DCC_BIN/rpc" -s 7000 &
sleep 0.3
# The hogs run under ip netns exec itself (it execs iperf3), not in_cli:
# $! of a backgrounded shell function is a subshell, and killing it left
# iperf3 running (the IPv6 hog on B, -t 30, went on into phase 5: both
# paths congested, nowhere for timely's connections to go).
ip netns exec "$NS_CLI" iperf3 -4 -c "$SRV_IP" -p 5201 -C cubic -t 200 \
	>/dev/null 2>&1 &
comp=$!
sleep 3
log "path A: $(in_rtr ping -c 10 -i 0.1 fd00:a::2 | tail -n 1)"
log "path B: $(in_rtr ping -c 10 -i 0.1 fd00:b::2 | tail -n 1)"

# 1. PLB on, on-off traffic.  In virtual time the run is deterministic:
# one run, no retry.
warm swift
idle0=$(stat PlbRepathIdle)
forced0=$(stat PlbRepathForced)
long0=$(stat PlbRepathLong)
cong0=$(stat PlbCongestedRounds)
kr0=$(kernel_rehash)
rpc_phase swift plb_on
idle1=$(stat PlbRepathIdle)
forced1=$(stat PlbRepathForced)
long1=$(stat PlbRepathLong)
kr1=$(kernel_rehash)
repaths=$((idle1 - idle0 + forced1 - forced0 + long1 - long0))
log "plb_on: repaths idle $((idle1 - idle0)), forced $((forced1 - forced0)), long $((long1 - long0)); TCP's RTO/DSACK rehashes $((kr1 - kr0)); congested rounds $(($(stat PlbCongestedRounds) - cong0))"
target 16 "every RPC client completed" "$RPC_DONE == $N_RPC"
# Where each connection starts is the kernel's random label: with N_RPC
# clients, none starts on A one run in 2^N_RPC, and then none has a reason
# to move (said, not counted as a pass or a failure of PLB).
[ "$FIRST_A" -gt 0 ] ||
	log "plb_on: no connection started on A: nothing for PLB to move"
expect "PLB repathed connections between their bursts (idle repaths; $FIRST_A started on A)" \
	"$FIRST_A == 0 || $idle1 - $idle0 > 0"
expect "the flow labels on the wire changed ($LABEL_CHANGES times; $FIRST_A started on A)" \
	"$FIRST_A == 0 || $LABEL_CHANGES > 0"
expect "labels changed only when PLB or TCP's RTO rehash said so" \
	"$LABEL_CHANGES <= $repaths + $kr1 - $kr0"
# Each repath draws a random label (the kernel's RNG cannot be seeded)
# and lands on A again one time in two; a connection on A keeps counting
# congested rounds and repaths again (a timeout there is congestion, and
# pauses nothing), so none is left there (issue 22).
expect "most IPv6 bytes moved to the uncongested path B (share $B_SHARE)" \
	"$B_SHARE > 0.6"
expect "PLB on: no RPC connection left on the congested path A ($ON_A)" \
	"$ON_A == 0"
dwell_expect "RPC"
on_share=$B_SHARE
on_flows=$PER_FLOW
on_left=$ON_A

# 2. Continuous flows: the forced rule, after rehash_rounds.  A paced
# flow empties its pipe between packets whenever its pacing rate is below
# what the path delivers (swift on the idle path B), and PLB rightly takes
# that as an idle moment (a repath cannot reorder then); to see the forced
# rule alone, idle repaths are turned off for this phase.
in_cli sysctl -qw net.dcc_plb.idle_rehash_rounds=0
n=$(in_cli sysctl -n net.dcc_plb.rehash_rounds)
idle0=$(stat PlbRepathIdle)
forced0=$(stat PlbRepathForced)
long0=$(stat PlbRepathLong)
cong0=$(stat PlbCongestedRounds)
paths_start bulk 5202
# 8 flows: the hash leaves A empty 1 time in 256.
in_cli iperf3 -6 -c "$SRV_IP6" -p 5202 -C swift -P 8 -t 6 >/dev/null 2>&1
paths_stop bulk
paths_per_flow bulk
idle1=$(stat PlbRepathIdle)
forced1=$(stat PlbRepathForced)
long1=$(stat PlbRepathLong)
cong1=$(stat PlbCongestedRounds)
log "bulk: forced $((forced1 - forced0)), idle $((idle1 - idle0)), long $((long1 - long0)), congested rounds $((cong1 - cong0))"
expect "a continuous flow that started on the congested path ($FIRST_A) was repathed (forced)" \
	"$FIRST_A == 0 || $forced1 - $forced0 > 0"
expect "each forced repath came after $n congested rounds in a row" \
	"$cong1 - $cong0 >= $n * ($forced1 - $forced0)"
expect "idle_rehash_rounds=0: no idle repath, no long one" \
	"$idle1 - $idle0 + $long1 - $long0 == 0"
in_cli sysctl -qw net.dcc_plb.idle_rehash_rounds=3

# 2b. The same bulk flows at PLB's defaults (idle repaths on: a paced
# flow has nothing in flight between two packets), then with PLB off: per
# flow, where it ends and what it got (issue 22).
bulk_phase() {
	paths_start "$1" 5202
	plb_trace_begin
	in_cli iperf3 -6 -c "$SRV_IP6" -p 5202 -C swift -P 8 -t 8 >/dev/null 2>&1
	plb_trace_end "$1"
	paths_stop "$1"
	paths_per_flow "$1"
}
bulk_phase bulk_on
expect "bulk, PLB on: no flow left on the congested path A at the end ($ON_A of 8; $FIRST_A started there)" \
	"$ON_A == 0"
dwell_expect "bulk"
bulk_on_flows=$PER_FLOW
bulk_on_left=$ON_A
in_cli sysctl -qw net.dcc_plb.enabled=0
bulk_phase bulk_off
in_cli sysctl -qw net.dcc_plb.enabled=1
log "bulk, 8 flows: left on A with PLB on $bulk_on_left, off $ON_A"
log "bulk per-flow Mbit/s: PLB on $bulk_on_flows; off $PER_FLOW"

# 3. PLB off.
in_cli sysctl -qw net.dcc_plb.enabled=0
s0=$(stat PlbRounds)
r0=$(repaths_all)
kr0=$(kernel_rehash)
rpc_phase swift plb_off
kr1=$(kernel_rehash)
# Not asserted: a swift connection left on A by the hash competes with
# cubic's full FIFO and may not finish in 40 s (that is what PLB is for).
log "PLB off: $RPC_DONE of $N_RPC RPC clients completed within 40 s"
check "PLB off: no PLB round judged, no repath" \
	test "$(stat PlbRounds)" = "$s0" -a \
	"$(repaths_all)" = "$r0"
expect "PLB off: no label changes beyond TCP's own RTO rehash ($LABEL_CHANGES)" \
	"$LABEL_CHANGES <= $kr1 - $kr0"
log "B share with PLB on $on_share, off $B_SHARE"
log "RPC connections left on A: PLB on $on_left, off $ON_A"
log "RPC goodput per connection (Mbit/s): PLB on $on_flows; off $PER_FLOW"
# Clients killed by their timeout leave orphaned connections still sending
# on A: end them before PLB is back on, so they are not repathed below.
in_cli ss -K dst "[$SRV_IP6]" >/dev/null 2>&1
in_cli sysctl -qw net.dcc_plb.enabled=1

# 4. IPv4 with PLB on is repathed, as upstream does: inside a VXLAN
# tunnel (over IPv6 between CLI and SRV) the new hash is the outer UDP
# source port, which RTR now hashes (policy 1, 5-tuple, as fabrics that
# carry VXLAN do); plain IPv4 (pinned to A by its route) is rehashed too,
# with nothing on the wire to show for it.  The tunnelled connections
# start on quiet paths (A's cubic flow stopped), so they learn the paths'
# base delay; then cubic flows pinned to A and to B fill both queues, so
# that the connections are congested on whichever path their hash picks
# (a random one) and repath in every run.  (Started into full queues they
# would take the standing queue for base delay: a delay signal has no
# reference there.)  The counters are per namespace; the tracepoint tells
# the families apart.
kill $comp 2>/dev/null
wait $comp 2>/dev/null
pin6_path fd00:2::99 b
in_srv iperf3 -s -D -p 5203 >/dev/null 2>&1
sleep 1
in_cli ip link add vx0 type vxlan id 42 local fd00:1::1 remote fd00:2::1 \
	dstport 4789
in_srv ip link add vx0 type vxlan id 42 local fd00:2::1 remote fd00:1::1 \
	dstport 4789
for ns in "$NS_CLI:10.9.0.1" "$NS_SRV:10.9.0.2"; do
	ip -n "${ns%%:*}" link set vx0 mtu 1400
	ip -n "${ns%%:*}" addr add "${ns#*:}/24" dev vx0
	ip -n "${ns%%:*}" link set vx0 up
	_veth_quiet "${ns%%:*}" vx0
done
in_rtr sysctl -qw net.ipv6.fib_multipath_hash_policy=1
ns_capture "$NS_RTR" pa0 "$tmp/vx.a.pcap" \
	"ip6 src fd00:1::1 and udp dst port 4789"
vxa=$CAPTURE_PID
ns_capture "$NS_RTR" pb0 "$tmp/vx.b.pcap" \
	"ip6 src fd00:1::1 and udp dst port 4789"
vxb=$CAPTURE_PID
sleep 1
skipped0=$(stat PlbRepathSkipped)
trace_start "$TRACEFS/events/tcp_plb/plb_repath"
kr0=$(kernel_rehash)
in_cli iperf3 -4 -c 10.9.0.2 -p 5202 -C swift -P 2 -t 8 -J > "$tmp/vx" 2>&1 &
vxc=$!
sleep 2
ip netns exec "$NS_CLI" iperf3 -4 -c "$SRV_IP" -p 5201 -C cubic -t 200 \
	>/dev/null 2>&1 &
comp=$!
ip netns exec "$NS_CLI" iperf3 -6 -c fd00:2::99 -p 5203 -C cubic -t 30 \
	>/dev/null 2>&1 &
compb=$!
wait $vxc
vx_kr=$(($(kernel_rehash) - kr0))
in_cli iperf3 -4 -c "$SRV_IP" -p 5202 -C swift -P 2 -t 5 -J > "$tmp/v4" 2>&1
echo 0 > "$TRACEFS/events/tcp_plb/plb_repath/enable"
sleep 0.5
ns_capture_stop "$vxa" "$vxb"
kill $compb 2>/dev/null
wait $compb 2>/dev/null
in_rtr sysctl -qw net.ipv6.fib_multipath_hash_policy=0
check "IPv4 transfer in VXLAN with PLB on completed" \
	test "$(jq -r '.end.sum_received.bytes // 0' "$tmp/vx")" -gt 0
check "plain IPv4 transfer with PLB on completed" \
	test "$(jq -r '.end.sum_received.bytes // 0' "$tmp/v4")" -gt 0
v4_repaths=$(grep -cE 'family=AF_INET .*event=(idle|forced|long)' "$TRACEFS/trace")
v4_skipped=$(grep -c 'family=AF_INET .*event=skipped' "$TRACEFS/trace")
# Outer source ports per path: the VXLAN packets of the two connections
# (plus iperf3's control connection) under each hash they had.
for t in a b; do
	tcpdump -n -r "$tmp/vx.$t.pcap" 2>/dev/null |
		awk '$2 == "IP6" { n = split($3, a, "."); print a[n] }' |
		sort -u > "$tmp/vx.$t.ports"
done
vx_ports=$(sort -u "$tmp/vx.a.ports" "$tmp/vx.b.ports" | wc -l)
log "IPv4: PLB repaths traced $v4_repaths, skipped $v4_skipped (counter $(($(stat PlbRepathSkipped) - skipped0)))"
log "IPv4 in VXLAN: TCP's own RTO/DSACK rehashes $vx_kr"
log "IPv4 in VXLAN: outer source ports $vx_ports (A $(wc -l < "$tmp/vx.a.ports"), B $(wc -l < "$tmp/vx.b.ports")), goodput $(jq -r '.end.sum_received.bits_per_second / 1e6' "$tmp/vx") Mbit/s; plain IPv4 $(jq -r '.end.sum_received.bits_per_second / 1e6' "$tmp/v4") Mbit/s"
check "IPv4 connections were repathed by PLB ($v4_repaths traced)" \
	test "$v4_repaths" -gt 0
check "no IPv4 repath was skipped ($v4_skipped)" test "$v4_skipped" = 0
# Three connections (two data, one control): each rehash of a data
# connection shows a new outer source port on the wire.  TCP's own
# rehashes (RTO, duplicate data) change it too: PLB must account for more
# (before PLB rehashed IPv4, a run saw 4 ports for 3 connections).
check "IPv4 in VXLAN: new outer source ports ($vx_ports - 3) beyond TCP's own rehashes ($vx_kr)" \
	test $((vx_ports - 3)) -gt "$vx_kr"

# 5. timely calls PLB too.
load_module tcp_timely
allow_cc timely
warm timely
r0=$(repaths_all)
rpc_phase timely timely_on
target 16 "timely: every RPC client completed" "$RPC_DONE == $N_RPC"
# Whether a timely connection needs a repath depends on where the hash
# first put it (4 connections all on path B: none; seen once in 3 runs):
# the count is logged.  A connection that starts on A counts its
# thresholds from the destination's RTT floor, which warm and the
# connections on B set (without it, from A's queue: it never saw the
# queue, 0 repaths, 2 of 2 left on A at 1 Mbit/s).
log "timely: PLB repaths $(($(repaths_all) - r0)), timely connections left on A: $ON_A (of $FIRST_A started there)"
expect "timely, PLB on: no RPC connection left on the congested path A ($ON_A)" \
	"$ON_A == 0"
dwell_expect "timely"

kill $comp 2>/dev/null
topo_cleanup
rm -rf "$tmp"
check "tcp_timely unloads" unload_module tcp_timely
check "tcp_swift unloads" unload_module tcp_swift
check "tcp_plb unloads once no connection uses it" unload_module tcp_plb
finish
