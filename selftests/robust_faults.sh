#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Data integrity and no stalls under faults, for every congestion control
# module in the tree: checked transfers (sha256 at the receiver) CLI -> SRV
# through the dumbbell, both ends running the module (ECN on), through
# netem loss 1 % and 10 %, reordering, duplication, corruption, a link
# that goes down for seconds and comes back, an IPv6 path with MTU 1280
# (PMTU discovery), a receiver that stops reading (zero window) and
# resumes, application-limited and idle-restart flows.  tcp_plb is loaded
# and enabled, so the PLB paths of the modules run too.  Each fault runs
# one transfer per module at once; every transfer must complete
# byte-exact within a generous timeout.  ROBUST_LONG=1: bigger transfers
# and more faults (combined faults, repeated link flaps, IPv6 with loss).
. "$(dirname "$0")/lib.sh"
require_root
require_cmd tc sha256sum

# shellcheck disable=SC2207
CCS=($(load_dcc_modules)) || { check "load the modules" false; finish; }
[ ${#CCS[@]} -gt 0 ] || skip "no congestion control module built"
log "congestion controls: ${CCS[*]}"

MB=1000000
if [ "$ROBUST_LONG" = 1 ]; then
	BYTES=$((6 * MB)) TMO=240
else
	BYTES=$((2 * MB)) TMO=90
fi
RATE=100mbit
tmp=$(mktemp -d)

topo_dumbbell
for ns in "$NS_CLI" "$NS_SRV"; do
	ip netns exec "$ns" sysctl -qw net.dcc_plb.enabled=1 2>/dev/null
done

# faults NETEM_DATA NETEM_ACK: the data path (RTR -> SRV, shaped at RATE)
# and the ACK path (RTR -> CLI, 250 us base delay) each get a netem.
faults() {
	# shellcheck disable=SC2086 # netem options are words
	in_rtr tc qdisc replace dev rs0 root netem rate $RATE limit 1000 $1
	# shellcheck disable=SC2086
	in_rtr tc qdisc replace dev rc0 root netem delay 250us limit 10000 $2
}

declare -A survived
nscen=0
port=7000
# scenario NAME DATA ACK [ADDR [BYTES [SENDER_OPTS [RECEIVER_OPTS [ACTION]]]]]:
# one transfer per congestion control at once; ACTION runs meanwhile.
scenario() {
	local name=$1 data=$2 ack=$3 addr=${4:-$SRV_IP} bytes=${5:-$BYTES}
	local sopt=${6:-} ropt=${7:-} action=${8:-} cc i=0 t0 ms ok
	nscen=$((nscen + 1))
	faults "$data" "$ack"
	t0=$(date +%s%N)
	for cc in "${CCS[@]}"; do
		i=$((i + 1)) port=$((port + 1))
		xfer_start "$tmp" "$name.$cc" "$cc" "$addr" $port "$bytes" $i \
			"$TMO" "$sopt" "$ropt"
	done
	[ -z "$action" ] || $action
	for cc in "${CCS[@]}"; do
		xfer_wait "$tmp" "$name.$cc"
	done
	for cc in "${CCS[@]}"; do
		ms=$(xfer_field "$tmp" "$name.$cc" ms)
		ok=0
		xfer_verify "$tmp" "$name.$cc" "$cc" && ok=1
		survived[$cc]=$((${survived[$cc]:-0} + ok))
		check "$name: $cc transfers $((bytes / 1000)) KB byte-exact (${ms:-?} ms, retrans $(xfer_field "$tmp" "$name.$cc" retrans))" \
			test $ok = 1
	done
	log "$name: $((($(date +%s%N) - t0) / 1000000)) ms"
}

# The link towards SRV goes down for 2 s, once the transfers run.
# Every transfer is connected first: a connect during the outage fails at
# once (RTR answers net unreachable), which is not the fault under test.
# (One ss per try: ss is slow in the emulated VM.)
link_flap() {
	local n=${1:-1} want=${#CCS[@]} c=0
	local ports="( dport >= :$((port - want + 1)) and dport <= :$port )"
	for _ in $(seq 40); do
		c=$(in_cli ss -Htn state established "$ports" | wc -l)
		[ "$c" -ge "$want" ] && break
		sleep 0.1
	done
	log "link goes down with $c of $want transfers connected"
	for _ in $(seq "$n"); do
		sleep 0.5
		in_rtr ip link set rs0 down
		sleep 2
		in_rtr ip link set rs0 up
	done
}
link_flaps() { link_flap 3; }

# IPv6 with a 1280-byte MTU on RTR's link towards SRV only: SRV announces
# an MSS for 1500, CLI learns the path MTU from ICMPv6 Packet Too Big.
mtu1280() {
	in_rtr ip link set rs0 mtu 1280
}
mtu_back() {
	in_rtr ip link set rs0 mtu 1500
}

scenario loss1 "loss 1%" "loss 1%"
scenario loss10 "loss 10%" "" "$SRV_IP" $((2 * MB))
scenario reorder "delay 1ms reorder 75% 50%" "delay 250us reorder 75% 50%"
scenario duplicate "duplicate 5%" "duplicate 5%"
scenario corrupt "corrupt 1%" "corrupt 1%"
mtu1280
scenario ipv6-mtu1280 "" "" "$SRV_IP6"
mtu_back
scenario zero-window "" "" "$SRV_IP" "" "" "-r 65536 -p 500000:2000"
scenario app-limited "" "" "$SRV_IP" $((2 * MB)) "-a 16384:2000"
scenario idle-restart "" "" "$SRV_IP" "" "-i 1000000:800"
if [ "$ROBUST_LONG" = 1 ]; then
	mtu1280
	scenario ipv6-mtu1280-loss "loss 2% delay 500us reorder 80% 50%" "loss 2%" "$SRV_IP6"
	mtu_back
	scenario loss20 "loss 20%" "loss 5%" "$SRV_IP" $((2 * MB))
	scenario storm "loss 2% duplicate 2% corrupt 1% delay 1ms reorder 80% 50%" \
		"loss 2% duplicate 2% delay 250us reorder 80% 50%"
	scenario zero-window-small-buf "" "" "$SRV_IP" "" "-i 2000000:500" "-r 16384 -p 4000000:5000"
	scenario app-limited-idle-loss "loss 2%" "" "$SRV_IP" "" "-a 8192:1000 -i 3000000:2000"
fi
# Slower, and pausing 1 s after every 500 KB, so the transfers are still
# running when the link goes down (last: a link going down flushes its
# IPv6 addresses).
RATE=20mbit scenario linkdown "" "" "$SRV_IP" $((2 * MB)) "-i 500000:1000" "" link_flap
if [ "$ROBUST_LONG" = 1 ]; then
	RATE=20mbit scenario linkflaps "" "" "$SRV_IP" "" "-i 500000:1000" "" link_flaps
fi

for cc in "${CCS[@]}"; do
	log "faults survived: $cc ${survived[$cc]:-0} of $nscen"
done

topo_cleanup
rm -rf "$tmp"
check "modules unload afterwards" unload_dcc_modules
finish
