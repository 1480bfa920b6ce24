#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ECN negotiation with peers that do not run dcqcn (Documentation/dcqcn.rst,
# "ECN negotiation and fallback"), at the shipped defaults, through a
# drop-tail FIFO of 100 packets (no marks), 4 flows each:
#  - a cubic receiver with tcp_ecn=1 (iperf3 -C sets dcqcn after the
#    handshake began, so the SYN is not ECT and ECN is negotiated as for
#    any tcp_ecn=1 pair): dcqcn runs against an RFC 3168 receiver; either
#    way (dcqcn or dcqcn-reno) goodput and drops are Reno's (reno itself
#    in the same run);
#  - a cubic receiver with tcp_ecn=0: no ECN, the sender falls back to
#    dcqcn-reno, counted in DcqcnFallback, Reno's goodput;
#  - a dctcp receiver (it needs ECN too): ECN is negotiated and dcqcn
#    runs; the loss response holds its drops to Reno's level.
. "$(dirname "$0")/lib.sh"
require_root
require_cmd iperf3 jq

SECS=${SECS:-4}
FLOWS=${FLOWS:-4}
MOD=tcp_dcqcn

load_module $MOD || exit $KSFT_FAIL
load_stock_cc dctcp
require_virtual_time
topo_dumbbell
trap topo_cleanup EXIT
topo_keep_order
topo_shape 100 250 100
allow_cc dcqcn dctcp reno
in_srv sysctl -qw net.ipv4.tcp_congestion_control=cubic
iperf_server 5201			# cubic receiver, ECN on
in_srv sysctl -qw net.ipv4.tcp_congestion_control=dctcp
iperf_server 5202			# dctcp receiver
in_srv sysctl -qw net.ipv4.tcp_congestion_control=cubic

stat_cli() { mod_stat "$NS_CLI" tcp_dcqcn_stat "$1"; }

# run CC PORT: FLOWS flows; prints "goodput drops cc_seen".
run() {
	local cc=$1 port=$2 tmp d0 seen
	tmp=$(mktemp -d)
	d0=$(bottleneck_drops)
	(sleep 1; in_cli ss -tin state established dst "$SRV_IP" \
		"dport = :$port" > "$tmp/ss") &
	iperf_flow "$cc" "$SECS" "$port" -P "$FLOWS" > "$tmp/j"
	wait
	seen=$(grep -oE '\b(dcqcn(-reno)?|reno|cubic|dctcp)\b' "$tmp/ss" |
	       sort | uniq -c | sort -rn | awk 'NR == 1 { print $2 }')
	echo "$(iperf_mbps < "$tmp/j") $(($(bottleneck_drops) - d0)) ${seen:-none}"
	rm -rf "$tmp"
}

fb0=$(stat_cli DcqcnFallback)
read -r q_mbps q_drops q_cc <<< "$(run dcqcn 5201)"
fb1=$(stat_cli DcqcnFallback)
read -r r_mbps r_drops r_cc <<< "$(run reno 5201)"
log "to a cubic receiver (tcp_ecn=1): dcqcn ran as '$q_cc': ${q_mbps} Mbit/s, ${q_drops} drops; reno: ${r_mbps} Mbit/s, ${r_drops} drops; DcqcnFallback +$((fb1 - fb0))"
check "to a cubic receiver the connection is dcqcn or dcqcn-reno" \
	sh -c "echo '$q_cc' | grep -qE '^dcqcn(-reno)?$'"
expect "not worse than Reno: goodput >= 90 % of reno's" \
	"$q_mbps >= 0.90 * $r_mbps"
expect "and drops at most 1.5 x reno's + 20" \
	"$q_drops <= 1.5 * $r_drops + 20"

# A cubic receiver that refuses ECN (tcp_ecn=0: neither asks nor accepts).
in_srv sysctl -qw net.ipv4.tcp_ecn=0
iperf_server 5203
fb0=$(stat_cli DcqcnFallback)
read -r n_mbps n_drops n_cc <<< "$(run dcqcn 5203)"
fb1=$(stat_cli DcqcnFallback)
in_srv sysctl -qw net.ipv4.tcp_ecn=1
log "to a cubic receiver with tcp_ecn=0: '$n_cc', ${n_mbps} Mbit/s, ${n_drops} drops; DcqcnFallback +$((fb1 - fb0))"
check "without ECN at the receiver: dcqcn-reno" test "$n_cc" = dcqcn-reno
expect "DcqcnFallback counts each of the $FLOWS connections" \
	"$fb1 - $fb0 >= $FLOWS"
expect "the fallback is not worse than Reno: goodput >= 90 % of reno's" \
	"$n_mbps >= 0.90 * $r_mbps"
expect "and drops at most 1.5 x reno's + 20" \
	"$n_drops <= 1.5 * $r_drops + 20"

# A dctcp receiver: ECN is negotiated, dcqcn runs (no marks here: loss).
rc0=$(stat_cli DcqcnRecoveryCut)
read -r t_mbps t_drops t_cc <<< "$(run dcqcn 5202)"
rc1=$(stat_cli DcqcnRecoveryCut)
log "to a dctcp receiver: '$t_cc', ${t_mbps} Mbit/s, ${t_drops} drops, recovery cuts +$((rc1 - rc0))"
check "a dctcp receiver negotiates ECN: dcqcn runs" test "$t_cc" = dcqcn
expect "goodput >= 90 % of reno's" "$t_mbps >= 0.90 * $r_mbps"
expect "drops at most 2 x reno's + 20 (loss response)" \
	"$t_drops <= 2 * $r_drops + 20"

topo_cleanup
trap - EXIT
unload_module $MOD
finish
