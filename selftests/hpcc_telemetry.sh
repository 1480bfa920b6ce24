#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# hpcc's telemetry end to end on the dumbbell, IPv6, at the shipped
# defaults (Documentation/hpcc.rst, "Wire format"):
#  - the sender's packets carry a blank IOAM pre-allocated trace (tcpdump
#    on the sender's link);
#  - the router (ioam6_enabled, namespace data = its egress rate in
#    Mbit/s) fills one record: the receiver's capture shows it, with the
#    rate, a queue depth and the port's transmitted bytes (tcp_hpcc's
#    router hook);
#  - the receiver echoes it in its ACKs (tcpdump on the sender's link)
#    and the sender reads it: HpccTraceReceived (receiver),
#    HpccEchoReceived and HpccUpdate (sender) move, ss shows hpcc's state;
#  - without telemetry (the router's IOAM off, or IPv4) the sender falls
#    back to Reno (HpccFallback moves, HpccUpdate does not) and the flow
#    still carries traffic.
. "$(dirname "$0")/lib.sh"
require_root
require_cmd iperf3 jq tcpdump ss

SECS=${SECS:-4}
RATE=100
MOD=tcp_hpcc

load_module $MOD || exit $KSFT_FAIL
require_virtual_time
tmp=$(mktemp -d)
cleanup() { topo_cleanup; rm -rf "$tmp"; }
trap cleanup EXIT
topo_dumbbell
topo_keep_order
topo_shape $RATE 250 100
allow_cc hpcc
in_srv sysctl -qw net.ipv4.tcp_congestion_control=hpcc
topo_ioam "$NS_RTR" 1 $RATE rc0
iperf_server 5201

st() { mod_stat "$1" tcp_hpcc_stat "$2"; }

# hexdump PCAP: each IPv6 packet with a Hop-by-Hop header as one line of
# hex bytes from the IPv6 header on.
hexdump() {
	tcpdump -n -x -r "$1" 2>/dev/null | awk '
		/^[^ \t]/ { if (h != "") print h; h = ""; next }
		{ for (i = 2; i <= NF; i++) h = h $i }
		END { if (h != "") print h }'
}
# byte HEX OFF [N]: N bytes (default 1) at OFF as a number.
byte() { echo $((16#${1:$((2 * $2)):$((2 * ${3:-1}))})); }

# flow FAMILY: an hpcc flow to SRV; prints its goodput in Mbit/s.
flow() {
	local dst=$SRV_IP6
	[ "$1" = 4 ] && dst=$SRV_IP
	in_cli iperf3 -"$1" -c "$dst" -C hpcc -t "$SECS" -J > "$tmp/j"
	iperf_mbps < "$tmp/j"
}

# 1. Telemetry on: captures on both ends, counters, ss.
in_cli tcpdump -U -i cli0 -n -s 200 -c 400 -w "$tmp/cli.pcap" \
	"ip6[6] == 0 and ip6[40] == 6" 2>/dev/null &
in_srv tcpdump -U -i srv0 -n -s 200 -c 200 -w "$tmp/srv.pcap" \
	"ip6[6] == 0 and ip6[40] == 6 and ip6[4:2] > 1000" 2>/dev/null &
sleep 2
c_echo0=$(st "$NS_CLI" HpccEchoReceived)
c_upd0=$(st "$NS_CLI" HpccUpdate)
c_fb0=$(st "$NS_CLI" HpccFallback)
s_tr0=$(st "$NS_SRV" HpccTraceReceived)
(sleep 2; in_cli ss -tin state established dst "[$SRV_IP6]" > "$tmp/ss") &
mbps=$(flow 6)
wait
c_echo=$(($(st "$NS_CLI" HpccEchoReceived) - c_echo0))
c_upd=$(($(st "$NS_CLI" HpccUpdate) - c_upd0))
c_fb=$(($(st "$NS_CLI" HpccFallback) - c_fb0))
s_tr=$(($(st "$NS_SRV" HpccTraceReceived) - s_tr0))
log "telemetry on: ${mbps} Mbit/s; receiver HpccTraceReceived +$s_tr; sender HpccEchoReceived +$c_echo HpccUpdate +$c_upd HpccFallback +$c_fb"
log "ss: $(grep -o 'hpcc.*' "$tmp/ss" | head -1 | cut -c1-160)"

# The sender's data: a blank trace (namespace 1, 5 words a record,
# 2 records free); the receiver's copy: one record filled by the router,
# at 76: clock, rate, queue depth, transmitted bytes (64 bits).
hexdump "$tmp/cli.pcap" > "$tmp/cli.hex"
hexdump "$tmp/srv.pcap" > "$tmp/srv.hex"
# pick PRED FILE: the first line for which PRED HEX succeeds.
pick() {
	local h
	while read -r h; do
		"$1" "$h" && { echo "$h"; return; }
	done < "$2"
}
is_data() { [ "$(byte "$1" 4 2)" -gt 1000 ]; }
is_echo() { [ "$(byte "$1" 4 2)" -lt 200 ] && [ "$(byte "$1" 96)" = 30 ]; }
tx=$(pick is_data "$tmp/cli.hex")
rx=$(head -1 "$tmp/srv.hex")
check "sender's data carry an IOAM pre-allocated trace" \
	test -n "$tx" -a "$(byte "$tx" 44)" = $((0x31)) -a \
	"$(byte "$tx" 48 2)" = 1 -a "$(byte "$tx" 51)" = 10
check "the receiver's copy has the router's record (remlen 10 -> 5)" \
	test -n "$rx" -a "$(byte "$rx" 44)" = $((0x31)) -a "$(byte "$rx" 51)" = 5
[ -n "$rx" ] && log "router's record: usec $(byte "$rx" 76 4) rate $(byte "$rx" 80 4) Mbit/s queue $(byte "$rx" 84 4) B tx bytes 0x${rx:176:16}"
check "the record carries the router's line rate ($RATE Mbit/s)" \
	test -n "$rx" -a "$(byte "${rx:-00}" 80 4)" = $RATE
# The port's transmitted bytes: written by the router hook (all ones
# without it), growing from record to record.
txs=$(while read -r h; do echo "${h:176:16}"; done < "$tmp/srv.hex")
check "the record carries the port's transmitted bytes (not all ones)" \
	test -n "$rx" -a "${rx:176:16}" != ffffffffffffffff
check "the transmitted bytes grow along the capture" \
	test "$(echo "$txs" | head -1)" '<' "$(echo "$txs" | tail -1)"
qmax=$(while read -r h; do byte "$h" 84 4; done < "$tmp/srv.hex" | sort -n | tail -1)
log "largest queue depth in the receiver's first $(wc -l < "$tmp/srv.hex") records: $qmax B"
expect "queue depths are available (not 0xffffffff)" "${qmax:-0} < 4294967295"
# The ACKs coming back: the echo option (0x1e) after the trace, 1 record.
ack=$(pick is_echo "$tmp/cli.hex")
check "the receiver's ACKs echo the record (option 0x1e, 1 hop)" \
	test -n "$ack" -a "$(byte "${ack:-00}" 98)" = 1
check "the echoed record has the router's rate" \
	test -n "$ack" -a "$(byte "${ack:-00}" 104 4)" = $RATE
expect "the receiver saw filled traces" "$s_tr > 100"
expect "the sender read echoes" "$c_echo > 100"
expect "the sender's window followed them" "$c_upd > 100"
check "ss shows hpcc's state (bw, U)" grep -q "bbr:(bw:" "$tmp/ss"
expect "telemetry on: the flow uses the link (>= 80 % of $RATE Mbit/s)" \
	"$mbps >= 0.80 * $RATE"

# 2. A path without telemetry: the router's IOAM is off, the trace stays
# blank, nothing is echoed: Reno.
in_rtr sysctl -qw net.ipv6.conf.rc0.ioam6_enabled=0
c_upd0=$(st "$NS_CLI" HpccUpdate)
c_fb0=$(st "$NS_CLI" HpccFallback)
s_tr0=$(st "$NS_SRV" HpccTraceReceived)
mbps=$(flow 6)
c_upd=$(($(st "$NS_CLI" HpccUpdate) - c_upd0))
c_fb=$(($(st "$NS_CLI" HpccFallback) - c_fb0))
s_tr=$(($(st "$NS_SRV" HpccTraceReceived) - s_tr0))
log "IOAM off on the router: ${mbps} Mbit/s; HpccTraceReceived +$s_tr HpccUpdate +$c_upd HpccFallback +$c_fb"
expect "no filled trace reaches the receiver" "$s_tr == 0"
expect "the sender falls back (HpccFallback moves, HpccUpdate does not)" \
	"$c_fb > 100 && $c_upd == 0"
expect "the fallback carries traffic (>= 80 % of $RATE Mbit/s)" \
	"$mbps >= 0.80 * $RATE"

# 3. IPv4: no Hop-by-Hop header at all, Reno.
none0=$(st "$NS_CLI" HpccHeaderNone)
c_fb0=$(st "$NS_CLI" HpccFallback)
mbps=$(flow 4)
none=$(($(st "$NS_CLI" HpccHeaderNone) - none0))
c_fb=$(($(st "$NS_CLI" HpccFallback) - c_fb0))
log "IPv4: ${mbps} Mbit/s; HpccHeaderNone +$none HpccFallback +$c_fb"
expect "an IPv4 connection gets no header (HpccHeaderNone)" "$none >= 1"
expect "and falls back, carrying traffic (>= 80 % of $RATE Mbit/s)" \
	"$c_fb > 100 && $mbps >= 0.80 * $RATE"
trap - EXIT
cleanup
finish
