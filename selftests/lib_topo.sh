# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Part of lib.sh (tests source lib.sh, which sources this): the emulated
# network (network namespaces, veth, tc: the dumbbell and the two-path
# fabric), the bottleneck's counters, waiting for sockets.

# --- network -----------------------------------------------------------
#
# Dumbbell: CLI (senders) -- RTR -- SRV (receivers).
#   CLI cli0 10.0.1.1/24 fd00:1::1/64     RTR rc0 10.0.1.254 fd00:1::fe
#   SRV srv0 10.0.2.1/24 fd00:2::1/64     RTR rs0 10.0.2.254 fd00:2::fe
# The bottleneck is RTR's egress towards SRV (rs0): htb at RATE with a
# queue of LIMIT packets (drop tail) or a RED queue marking ECN.  The base
# delay is netem on RTR's egress towards CLI (rc0), so it delays the ACKs
# and never holds data packets: the forward queue is the only queue.

NS_PREFIX=${NS_PREFIX:-dcc$$}
NS_CLI=$NS_PREFIX-cli
NS_RTR=$NS_PREFIX-rtr
NS_SRV=$NS_PREFIX-srv
NS_R2=$NS_PREFIX-r2	# second router of the two-path topology
SRV_IP=10.0.2.1
CLI_IP=10.0.1.1
# shellcheck disable=SC2034 # for IPv6 tests
SRV_IP6=fd00:2::1

in_cli() { ip netns exec "$NS_CLI" "$@"; }
in_rtr() { ip netns exec "$NS_RTR" "$@"; }
in_srv() { ip netns exec "$NS_SRV" "$@"; }
in_r2() { ip netns exec "$NS_R2" "$@"; }

# Kill the test's processes, let their connections close while the links
# still exist (up to 5 s), then delete the namespaces.  Deleting first
# would strand FINs and leave sockets retransmitting into the void.
topo_cleanup() {
	local ns i
	for ns in "$NS_CLI" "$NS_RTR" "$NS_SRV" "$NS_R2"; do
		ip netns pids "$ns" 2>/dev/null | xargs -r kill 2>/dev/null
	done
	for i in $(seq 50); do
		[ -z "$(ip netns exec "$NS_CLI" ss -Htn state connected \
			exclude time-wait 2>/dev/null)" ] && break
		sleep 0.1
	done
	for ns in "$NS_CLI" "$NS_RTR" "$NS_SRV" "$NS_R2"; do
		ip netns del "$ns" 2>/dev/null
	done
	return 0
}

_veth_quiet() {
	# Offloads off, so that queue limits count real packets.
	ip netns exec "$1" ethtool -K "$2" tso off gso off gro off \
		>/dev/null 2>&1 || true
}

# topo_netns NS...: new namespaces with loopback up and no duplicate
# address detection (addresses are usable at once).
topo_netns() {
	local ns
	for ns in "$@"; do
		ip netns add "$ns"
		ip -n "$ns" link set lo up
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.accept_dad=0 \
			net.ipv6.conf.default.accept_dad=0
	done
}

# topo_dumbbell: build the namespaces and links (no shaping yet).
topo_dumbbell() {
	local ns
	modprobe -q veth
	topo_cleanup
	topo_netns "$NS_CLI" "$NS_RTR" "$NS_SRV"
	ip link add cli0 netns "$NS_CLI" type veth peer name rc0 netns "$NS_RTR"
	ip link add srv0 netns "$NS_SRV" type veth peer name rs0 netns "$NS_RTR"
	ip -n "$NS_CLI" addr add "$CLI_IP/24" dev cli0
	ip -n "$NS_CLI" addr add fd00:1::1/64 dev cli0 nodad
	ip -n "$NS_RTR" addr add 10.0.1.254/24 dev rc0
	ip -n "$NS_RTR" addr add fd00:1::fe/64 dev rc0 nodad
	ip -n "$NS_RTR" addr add 10.0.2.254/24 dev rs0
	ip -n "$NS_RTR" addr add fd00:2::fe/64 dev rs0 nodad
	ip -n "$NS_SRV" addr add 10.0.2.1/24 dev srv0
	ip -n "$NS_SRV" addr add fd00:2::1/64 dev srv0 nodad
	for ns in "$NS_CLI:cli0" "$NS_RTR:rc0" "$NS_RTR:rs0" "$NS_SRV:srv0"; do
		ip -n "${ns%%:*}" link set "${ns#*:}" up
		_veth_quiet "${ns%%:*}" "${ns#*:}"
	done
	ip -n "$NS_CLI" route add default via 10.0.1.254
	ip -n "$NS_CLI" -6 route add default via fd00:1::fe
	ip -n "$NS_SRV" route add default via 10.0.2.254
	ip -n "$NS_SRV" -6 route add default via fd00:2::fe
	in_rtr sysctl -qw net.ipv4.ip_forward=1 net.ipv6.conf.all.forwarding=1
	# Deep enough socket buffers for the emulated BDPs.
	for ns in "$NS_CLI" "$NS_SRV"; do
		ip netns exec "$ns" sysctl -qw net.ipv4.tcp_ecn=1 \
			net.ipv4.tcp_no_metrics_save=1
	done
}

# topo_ioam NS ID RATE_MBIT IFACE...: router NS fills IOAM pre-allocated
# traces (hpcc's telemetry, Documentation/hpcc.rst) in the IPv6 packets
# arriving on IFACE...: node id ID, IOAM namespace 1 (tcp_hpcc's default
# ioam_ns) whose data is the router's egress line rate RATE_MBIT.  Packets
# without a trace (every other cc) cross the router as before.
topo_ioam() {
	local ns=$1 id=$2 rate=$3 dev
	shift 3
	ip netns exec "$ns" sysctl -qw net.ipv6.ioam6_id="$id"
	for dev in "$@"; do
		ip netns exec "$ns" sysctl -qw \
			"net.ipv6.conf.$dev.ioam6_enabled=1"
	done
	ip -n "$ns" ioam namespace add 1 data "$rate"
}

# bed_cleanup: undo what a measuring test set up: its trace event $EV
# (if it names one) off, the dumbbell's namespaces and $NS_OTHER (if set)
# deleted.
bed_cleanup() {
	[ -n "${EV:-}" ] && [ -w "$EV/enable" ] && echo 0 > "$EV/enable"
	topo_cleanup 2>/dev/null
	[ -n "${NS_OTHER:-}" ] && ip netns del "$NS_OTHER" 2>/dev/null
	return 0
}

# bed_dumbbell [red KB] CC...: the measuring tests' bed: the dumbbell
# shaped by the test's RATE, DELAY and LIMIT (topo_shape; "red KB" for an
# ECN-marking queue), removed on exit (bed_cleanup), CC... allowed to
# every user.
bed_dumbbell() {
	local red=()
	if [ "${1:-}" = red ]; then
		red=(red "$2")
		shift 2
	fi
	topo_dumbbell
	trap bed_cleanup EXIT
	topo_shape "${RATE:?}" "${DELAY:?}" "${LIMIT:?}" "${red[@]}"
	allow_cc "$@"
}

# topo_keep_order: steer every packet arriving on the dumbbell's veths to
# one CPU (RPS).  A veth delivers a packet into the backlog of the CPU
# that sent it; paced senders transmit from timers on either CPU, so
# without this consecutive packets can overtake each other (hundreds of
# SACK reorderings and spurious fast retransmits a second in the VM,
# where a NIC's TX queue would keep them in order).
topo_keep_order() {
	local ns
	for ns in "$NS_CLI:cli0" "$NS_RTR:rc0" "$NS_RTR:rs0" "$NS_SRV:srv0"; do
		ip netns exec "${ns%%:*}" sh -c \
			"echo 1 > /sys/class/net/${ns#*:}/queues/rx-0/rps_cpus"
	done
}

# topo_shape RATE_MBIT DELAY_US LIMIT_PKTS [red KB]: bottleneck and delay.
# With "red KB", the bottleneck queue is RED marking ECN from KB kilobytes
# (min = max - 1 packet, so it acts as a step at KB, the way DCTCP wants).
topo_shape() {
	local rate=$1 delay=$2 limit=$3 aqm=${4:-fifo} kb=${5:-30}
	# A burst of tens of KB: the emulated timers are late, and htb with a
	# one-packet burst loses 10-20 % of its rate to them.
	in_rtr tc qdisc replace dev rs0 root handle 1: htb default 1
	in_rtr tc class replace dev rs0 parent 1: classid 1:1 htb \
		rate "${rate}mbit" ceil "${rate}mbit" burst 30k cburst 30k
	if [ "$aqm" = red ]; then
		local max=$((kb * 1000)) min=$((kb * 1000 - 1500))
		in_rtr tc qdisc replace dev rs0 parent 1:1 handle 10: red \
			limit $((limit * 1514)) min $min max $((max + 1)) \
			avpkt 1500 burst $(((min + max) / 3000 + 1)) \
			probability 1.0 bandwidth "${rate}mbit" ecn
	else
		in_rtr tc qdisc replace dev rs0 parent 1:1 handle 10: pfifo \
			limit "$limit"
	fi
	in_rtr tc qdisc replace dev rc0 root netem delay "${delay}us" \
		limit 100000
	TOPO_DELAY_US=$delay
}

# topo_jitter J_US [ack|data]: add uniform jitter of +-J_US microseconds to
# the dumbbell's path without reordering packets (netem with a rate sends
# each packet after the one before it, so a late draw delays its
# successors instead of being overtaken).  Host noise a real sender sees:
# interrupt coalescing and scheduling on the receiver (ack) or on the
# sender's transmit path (data).
#   ack   the ACK path's netem (rc0): DELAY +- J, mean unchanged.
#   data  the data path before the bottleneck (CLI's cli0): J +- J, and the
#         ACK path's delay is cut by J, so the mean RTT is unchanged (while
#         J <= DELAY).
#   ack-reorder, data-reorder  the same without netem's rate: each packet
#         keeps its own draw, so a packet drawn short overtakes the one
#         before it (the flow is reordered).
# J_US 0 restores topo_shape's plain delay.  netem draws the jitter from
# the kernel's random numbers (no seed in 6.1): runs differ in the draws.
topo_jitter() {
	local j=$1 path=${2:-ack} d=${TOPO_DELAY_US:-250} order="rate 10gbit"
	case $path in
	*-reorder) path=${path%-reorder}; order= ;;
	esac
	in_cli tc qdisc del dev cli0 root 2>/dev/null
	if [ "$j" = 0 ]; then
		in_rtr tc qdisc replace dev rc0 root netem delay "${d}us" \
			limit 100000
	elif [ "$path" = ack ]; then
		# shellcheck disable=SC2086 # $order: netem's words or none
		in_rtr tc qdisc replace dev rc0 root netem delay "${d}us" \
			"${j}us" $order limit 100000
	else
		in_rtr tc qdisc replace dev rc0 root netem \
			delay "$((d > j ? d - j : 0))us" limit 100000
		# shellcheck disable=SC2086
		in_cli tc qdisc replace dev cli0 root netem delay "${j}us" \
			"${j}us" $order limit 100000
	fi
}

# Two paths (PLB): CLI -- RTR =(path A, path B)= R2 -- SRV.
#   CLI cli0 10.0.1.1 fd00:1::1        RTR rc0 10.0.1.254 fd00:1::fe
#   RTR pa0 fd00:a::1 10.0.10.1  ==  R2 pa1 fd00:a::2 10.0.10.2  (path A)
#   RTR pb0 fd00:b::1            ==  R2 pb1 fd00:b::2            (path B)
#   R2 rs0 10.0.2.254 fd00:2::fe       SRV srv0 10.0.2.1 fd00:2::1
# RTR reaches SRV's IPv6 prefix by a multipath route over A and B that
# hashes the flow label (fib_multipath_hash_policy=0), and SRV's IPv4
# prefix over A only, so IPv4 traffic (a competitor) is pinned to A.
# Everything returns over A.
# topo_twopath RATE_MBIT DELAY_US LIMIT_PKTS: each path is an htb at RATE
# with a drop-tail FIFO of LIMIT packets (RTR's egress pa0 / pb0); DELAY
# is netem on R2's egress back towards RTR (the ACK path).
topo_twopath() {
	local rate=$1 delay=$2 limit=$3 ns dev
	modprobe -q veth
	topo_cleanup
	topo_netns "$NS_CLI" "$NS_RTR" "$NS_R2" "$NS_SRV"
	ip link add cli0 netns "$NS_CLI" type veth peer name rc0 netns "$NS_RTR"
	ip link add pa0 netns "$NS_RTR" type veth peer name pa1 netns "$NS_R2"
	ip link add pb0 netns "$NS_RTR" type veth peer name pb1 netns "$NS_R2"
	ip link add srv0 netns "$NS_SRV" type veth peer name rs0 netns "$NS_R2"
	ip -n "$NS_CLI" addr add "$CLI_IP/24" dev cli0
	ip -n "$NS_CLI" addr add fd00:1::1/64 dev cli0 nodad
	ip -n "$NS_RTR" addr add 10.0.1.254/24 dev rc0
	ip -n "$NS_RTR" addr add fd00:1::fe/64 dev rc0 nodad
	ip -n "$NS_RTR" addr add 10.0.10.1/24 dev pa0
	ip -n "$NS_RTR" addr add fd00:a::1/64 dev pa0 nodad
	ip -n "$NS_RTR" addr add fd00:b::1/64 dev pb0 nodad
	ip -n "$NS_R2" addr add 10.0.10.2/24 dev pa1
	ip -n "$NS_R2" addr add fd00:a::2/64 dev pa1 nodad
	ip -n "$NS_R2" addr add fd00:b::2/64 dev pb1 nodad
	ip -n "$NS_R2" addr add 10.0.2.254/24 dev rs0
	ip -n "$NS_R2" addr add fd00:2::fe/64 dev rs0 nodad
	ip -n "$NS_SRV" addr add 10.0.2.1/24 dev srv0
	ip -n "$NS_SRV" addr add fd00:2::1/64 dev srv0 nodad
	for dev in "$NS_CLI:cli0" "$NS_RTR:rc0" "$NS_RTR:pa0" "$NS_RTR:pb0" \
		   "$NS_R2:pa1" "$NS_R2:pb1" "$NS_R2:rs0" "$NS_SRV:srv0"; do
		ip -n "${dev%%:*}" link set "${dev#*:}" up
		_veth_quiet "${dev%%:*}" "${dev#*:}"
	done
	ip -n "$NS_CLI" route add default via 10.0.1.254
	ip -n "$NS_CLI" -6 route add default via fd00:1::fe
	ip -n "$NS_SRV" route add default via 10.0.2.254
	ip -n "$NS_SRV" -6 route add default via fd00:2::fe
	ip -n "$NS_RTR" route add 10.0.2.0/24 via 10.0.10.2
	twopath_route6 ab
	ip -n "$NS_R2" route add 10.0.1.0/24 via 10.0.10.1
	ip -n "$NS_R2" -6 route add fd00:1::/64 via fd00:a::1 dev pa1
	for ns in "$NS_RTR" "$NS_R2"; do
		ip netns exec "$ns" sysctl -qw net.ipv4.ip_forward=1 \
			net.ipv6.conf.all.forwarding=1 \
			net.ipv6.fib_multipath_hash_policy=0
	done
	for ns in "$NS_CLI" "$NS_SRV"; do
		ip netns exec "$ns" sysctl -qw net.ipv4.tcp_no_metrics_save=1
	done
	for dev in pa0 pb0; do
		in_rtr tc qdisc replace dev $dev root handle 1: htb default 1
		in_rtr tc class replace dev $dev parent 1: classid 1:1 htb \
			rate "${rate}mbit" ceil "${rate}mbit" burst 30k cburst 30k
		in_rtr tc qdisc replace dev $dev parent 1:1 handle 10: pfifo \
			limit "$limit"
	done
	in_r2 tc qdisc replace dev pa1 root netem delay "${delay}us" \
		limit 100000
}

# twopath_route6 a|b|ab: RTR's route to SRV's IPv6 prefix over path A
# only, path B only, or both (the multipath route topo_twopath sets).
twopath_route6() {
	case $1 in
	a) in_rtr ip -6 route replace fd00:2::/64 via fd00:a::2 dev pa0 ;;
	b) in_rtr ip -6 route replace fd00:2::/64 via fd00:b::2 dev pb0 ;;
	ab) in_rtr ip -6 route replace fd00:2::/64 \
		nexthop via fd00:a::2 dev pa0 nexthop via fd00:b::2 dev pb0 ;;
	*) echo "twopath_route6: a, b or ab, not '$1'" >&2; return 1 ;;
	esac
}

# path_bytes6 DEV: IPv6 bytes RTR has sent on DEV (pa0 or pb0) so far.
path_bytes6() {
	in_rtr awk '$1 == "Ip6OutOctets" { print $2 }' \
		"/proc/net/dev_snmp6/$1"
}

# ns_capture NS IFACE FILE FILTER: capture FILTER's packets on IFACE in
# namespace NS (headers only, 100 bytes) to FILE until ns_capture_stop;
# sets CAPTURE_PID.  It runs as "ip netns exec ... &" from the caller's
# shell, so call it as a command, not in "$(...)" nor as "in_ns ... &": a
# shell function put in the background runs in a subshell that waits for
# its command, so $! was that subshell, the kill ended it and left
# tcpdump running, and the capture was read without its last buffer (4
# KB: all of path A's few packets in most runs of paths_start's) while
# tcpdump ran on until topo_cleanup, capturing the runs after its own.
ns_capture() {
	ip netns exec "$1" tcpdump -i "$2" -n -s 100 -w "$3" "$4" \
		2>/dev/null &
	CAPTURE_PID=$!
}

# ns_capture_stop PID...: stop those captures and wait until each has
# written its last buffer.
ns_capture_stop() {
	kill "$@" 2>/dev/null
	wait "$@" 2>/dev/null
}

# paths_start TAG PORT: capture the IPv6 data packets to PORT that RTR
# sends on path A and on path B of topo_twopath (headers only), until
# paths_stop; the captures and what paths_per_flow makes of them go to
# PATHS_DIR (default: the caller's $tmp).
paths_start() {
	local d=${PATHS_DIR:-$tmp}
	ns_capture "$NS_RTR" pa0 "$d/$1.a.pcap" "ip6 and tcp dst port $2"
	echo "$CAPTURE_PID" > "$d/$1.apid"
	ns_capture "$NS_RTR" pb0 "$d/$1.b.pcap" "ip6 and tcp dst port $2"
	echo "$CAPTURE_PID" > "$d/$1.bpid"
	sleep 1
}

paths_stop() {
	local d=${PATHS_DIR:-$tmp}
	sleep 0.5
	ns_capture_stop "$(cat "$d/$1.apid")" "$(cat "$d/$1.bpid")"
}

# paths_per_flow TAG: one line per connection (client port): "SPORT
# PATH MBPS FIRST", PATH the path that carried most of its data packets
# in its last PATHS_END_SECS seconds (default 2; A or B), MBPS its
# goodput from its first to its last data packet on either path, FIRST
# the path of its first.
# Sets ON_A (connections that ended on A so judged), FIRST_A (... whose
# first packet went over A) and PER_FLOW (the goodputs, in Mbit/s).
# Per flow label: DWELL_A_MS the longest time one label of a connection
# carried its data over A (ms, from its first to its last packet
# there) among the labels with no silence of PATHS_RTO_GAP seconds or
# more between two of those packets (default 0.2: TCP's minimum RTO; a
# timeout pauses PLB), DWELL_PORT that connection, PAUSED_A the labels
# on A with such a silence.  A label is one path, and a dwell is what
# one repath decision left a connection on A: a repath that lands on A
# again draws a new label, and one that goes back to a label left before
# (PLB's path memory, dcc_plb_choose()) starts a new visit of it, told
# by the connection's packets under another label in between and a
# silence on A of more than PATHS_BACK_GAP seconds (default 0.1: what
# was queued on A under the label, at most A's 61 ms FIFO, still leaves
# after the repath).  Counted as one, a return was the time spent on B
# between the visits: plb_twopath.sh's timely phase, traced, 1.68 s on
# one label = 0.10 s on A, 1.44 s on B, 0.15 s back on A.  Not
# the path of the last packet alone: a connection on the quiet path may
# try the congested one at its very end and leave it again within a few
# rounds; one that stays on A sends its last seconds there.
paths_per_flow() {
	local t d=${PATHS_DIR:-$tmp} end=${PATHS_END_SECS:-2}
	for t in a b; do
		tcpdump -tt -v -n -r "$d/$1.$t.pcap" 2>/dev/null |
			awk -v p="${t^^}" '{
				len = 0; port = ""; lab = "-"
				for (i = 2; i < NF; i++) {
					if ($i == "length") len = $(i + 1) + 0
					if ($i == "(flowlabel") {
						lab = $(i + 1); sub(",", "", lab)
					}
					if ($(i + 1) == ">") {
						n = split($i, a, "."); port = a[n]
					}
				}
				if (len > 0 && port != "") print $1, port, p, len, lab }'
	done | sort -n > "$d/$1.pkts"
	awk -v end="$end" '
		NR == FNR { if (!($2 in t0)) { t0[$2] = $1; first[$2] = $3 }
			    t1[$2] = $1; b[$2] += $4; next }
		$1 >= t1[$2] - end { n[$2]++; if ($3 == "A") na[$2]++ }
		END { for (p in t0) {
			if (b[p] < 10000) continue	# iperf3 control
			d = t1[p] - t0[p]
			printf "%s %s %.2f %s\n", p, (na[p] * 2 > n[p] ? "A" : "B"),
			       (d > 0 ? b[p] * 8 / 1e6 / d : 0), first[p] } }' \
		"$d/$1.pkts" "$d/$1.pkts" | sort -n > "$d/$1.flows"
	awk -v gap="${PATHS_RTO_GAP:-0.2}" -v back="${PATHS_BACK_GAP:-0.1}" '
		function done(k) {
			printf "%s %.3f %s\n", k, t1[k] - t0[k],
			       (g[k] >= gap ? "paused" : "-")
			delete t0[k]
		}
		NR == FNR { conn[$1] = 1; next }
		!($2 in conn) { next }
		# A label is one path: the connection was away from this
		# label when its previous packet was under another one.
		{ away = ($2 in lab) && lab[$2] != $5; lab[$2] = $5 }
		$3 == "A" {
			k = $2 " " $5
			if ((k in t0) && away && $1 - t1[k] > back)
				done(k)
			if (k in t0) { if ($1 - t1[k] > g[k]) g[k] = $1 - t1[k] }
			else { t0[k] = $1; g[k] = 0 }
			t1[k] = $1 }
		END { for (k in t0) done(k) }' \
		"$d/$1.flows" "$d/$1.pkts" | sort -n > "$d/$1.dwell"
	DWELL_A_MS=$(awk '$4 == "-" && $3 > m { m = $3 } END { printf "%d", m * 1000 }' "$d/$1.dwell")
	DWELL_PORT=$(awk '$4 == "-" && $3 > m { m = $3; p = $1 } END { print p + 0 }' "$d/$1.dwell")
	PAUSED_A=$(awk '$4 == "paused"' "$d/$1.dwell" | wc -l)
	ON_A=$(awk '$2 == "A"' "$d/$1.flows" | wc -l)
	FIRST_A=$(awk '$4 == "A"' "$d/$1.flows" | wc -l)
	# shellcheck disable=SC2034 # read by the caller
	PER_FLOW=$(awk '{ printf "%s%s", (NR > 1 ? " " : ""), $3 }' "$d/$1.flows")
	log "$1: per connection (port, path of its last ${end} s, Mbit/s):" \
		"$(awk '{ printf " %s:%s:%s", $1, $2, $3 }' "$d/$1.flows")"
	log "$1: $FIRST_A of $(wc -l < "$d/$1.flows") connections started on the congested path A, $ON_A ended on it"
	log "$1: labels on A: $(wc -l < "$d/$1.dwell"), the longest dwell ${DWELL_A_MS} ms (port $DWELL_PORT), $PAUSED_A with a silence of ${PATHS_RTO_GAP:-0.2} s or more:" \
		"$(awk '{ printf " %s:%s:%s%s", $1, $2, $3, ($4 == "paused" ? ":paused" : "") }' "$d/$1.dwell")"
}

# pin6_path ADDR PATH: add ADDR to SRV, routed over path PATH (a or b)
# only, so a competitor sent to it loads that one path.
pin6_path() {
	ip -n "$NS_SRV" addr add "$1/128" dev srv0 nodad
	ip -n "$NS_RTR" -6 route add "$1/128" via "fd00:$2::2" dev "p${2}0"
}

# label_counts PCAP: "SPORT LABELS" per IPv6 connection from CLI in a
# capture: how many distinct flow labels its data packets carried (resets
# and time-wait ACKs are sent without the socket's hash; not counted).
label_counts() {
	tcpdump -n -v -r "$1" 2>/dev/null | awk '
		$NF == 0 || $(NF - 1) != "length" { next }
		{ l = ""; p = ""
		  for (i = 1; i <= NF; i++) {
			if ($i == "(flowlabel") l = $(i + 1)
			if ($i ~ /^fd00:1::1\./) { n = split($i, a, "."); p = a[n] }
		  }
		  if (p == "" || l == "") next
		  if (!((p, l) in seen)) { seen[p, l] = 1; cnt[p]++ } }
		END { for (p in cnt) print p, cnt[p] }'
}

# qdisc_counts: "DROPS MARKS" from `tc -s qdisc show` output on stdin:
# the drops of each root qdisc only (htb counts its leaf's drops as its
# own: summing both counted every drop twice), the marks of every qdisc.
qdisc_counts() {
	awk '/^qdisc/ { root = / root / }
	{ for (i = 1; i < NF; i++) {
		if (root && $i == "(dropped") d += $(i + 1) + 0
		if ($i == "marked") m += $(i + 1) + 0
	} } END { print d + 0, m + 0 }'
}

# bottleneck_counts: "DROPS MARKS" at the bottleneck so far, from one
# look at its qdiscs.
bottleneck_counts() {
	in_rtr tc -s qdisc show dev rs0 | qdisc_counts
}

# Packets dropped at the bottleneck so far.
bottleneck_drops() {
	local d _

	read -r d _ <<< "$(bottleneck_counts)"
	echo "$d"
}

_listening() { "${@:2}" ss -Hltn "sport = :$1" | grep -q .; }
_connected() { "${@:2}" ss -Htn state established "dport = :$1" | grep -q .; }

# _wait_sock SECS PRED DEFAULT PORT [WRAP...]: slowwait for PRED on PORT
# run through WRAP (DEFAULT without one; "-" for the root namespace).
_wait_sock() {
	local secs=$1 pred=$2 def=$3 port=$4
	shift 4
	[ $# -eq 0 ] && set -- "$def"
	[ "$1" = "-" ] && set --
	slowwait "$secs" "$pred" "$port" "$@"
}

# wait_listen PORT [WRAP]: until SRV (or WRAP) listens on PORT (5 s).
wait_listen() { _wait_sock 5 _listening in_srv "$@"; }

# wait_conn PORT [WRAP]: until CLI (or WRAP) has a connection to PORT (10 s).
wait_conn() { _wait_sock 10 _connected in_cli "$@"; }
