#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Shared helpers for the selftests and the benchmark: checks, module
# loading, the emulated network (network namespaces, veth, tc) and the
# measurements (iperf3, ping, nstat).  Source it; it expects to run as root
# inside the test VM (tools/vm/run).

KSFT_PASS=0
KSFT_FAIL=1
KSFT_SKIP=4

DCC_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DCC_BIN=${DCC_BIN:-$DCC_ROOT/selftests/build}
DCC_FAILS=0
DCC_CHECKS=0

# --- reporting ---------------------------------------------------------

log() { echo "# $*"; }

# check DESC CMD...: run CMD, record and print the outcome.
check() {
	local desc=$1
	shift
	DCC_CHECKS=$((DCC_CHECKS + 1))
	if "$@"; then
		echo "# PASS: $desc"
	else
		echo "# FAIL: $desc"
		DCC_FAILS=$((DCC_FAILS + 1))
	fi
}

# expect DESC EXPR: like check, for an awk expression over numbers,
# e.g. expect "rtt below 2 ms" "$rtt < 2000".
expect() {
	check "$1 [$2]" awk "BEGIN { exit !($2) }"
}

# target ISSUE DESC EXPR: a target an open issue asks for and the module
# does not meet yet: reported as met or missed with its figure, not
# counted as a failure (targets live in make bench; make check asserts
# behaviour).  When it is met for good, make it an expect.
target() {
	if awk "BEGIN { exit !($3) }"; then
		echo "# TARGET met (issue $1): $2 [$3]"
	else
		echo "# TARGET missed (issue $1): $2 [$3]"
	fi
}

skip() {
	echo "# SKIP: $*"
	exit $KSFT_SKIP
}

# End a test: exit status from the checks made.
finish() {
	log "$DCC_CHECKS checks, $DCC_FAILS failed"
	[ "$DCC_FAILS" -eq 0 ] && exit $KSFT_PASS
	exit $KSFT_FAIL
}

require_root() {
	[ "$(id -u)" -eq 0 ] || skip "needs root (run in the VM: make selftests)"
}

# require_virtual_time: a test that asserts a throughput, delay, fairness,
# incast or PLB figure says which clock it measured with.  In the test VM
# (tools/vm/run) the default is virtual time: deterministic, immune to host
# load.  On a host clock the figures jitter; the test still runs.
require_virtual_time() {
	case ${DCC_VM_CLOCK:-} in
	virtual) log "clock: virtual (QEMU icount), deterministic" ;;
	"") log "clock: this host's (not the test VM): figures may jitter" ;;
	*) log "clock: the VM's host-timed clock: figures may jitter" ;;
	esac
}

require_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null || skip "needs $c"
	done
}

# --- modules -----------------------------------------------------------

# ko_path MOD: the module built in the tree, else the installed one.
ko_path() {
	if [ -f "$DCC_ROOT/$1.ko" ]; then
		echo "$DCC_ROOT/$1.ko"
	else
		modinfo -n "$1" 2>/dev/null
	fi
}

# load_module MOD [PARAM=VALUE...]: (re)load with the given parameters.
load_module() {
	local mod=$1 ko
	shift
	ko=$(ko_path "$mod")
	[ -n "$ko" ] || { echo "# no $mod.ko: run make first"; return 1; }
	unload_module "$mod"
	insmod "$ko" "$@"
}

# unload_module MOD: wait (up to 60 s) for its last sockets to close, then
# rmmod.  Connections that were torn down with their namespace may hold the
# module until their timers run out.
unload_module() {
	local i
	grep -q "^$1 " /proc/modules || return 0
	for i in $(seq 600); do
		[ "$(cat "/sys/module/$1/refcnt" 2>/dev/null)" = 0 ] && break
		sleep 0.1
	done
	[ "$i" -gt 10 ] && echo "# waited $((i / 10)) s for $1's sockets to close"
	rmmod "$1"
}

# rmmod_refused MOD: rmmod fails with "in use", the module stays.
rmmod_refused() {
	local err
	if err=$(rmmod "$1" 2>&1); then
		echo "# rmmod $1 succeeded"
		return 1
	fi
	grep -q "^$1 " /proc/modules || return 1
	case $err in
	*"in use"*) ;;
	*) echo "# unexpected rmmod message: $err"; return 1 ;;
	esac
}

# set_param MOD NAME VALUE: write a parameter at run time.
set_param() {
	echo "$3" > "/sys/module/$1/parameters/$2"
}

get_param() {
	cat "/sys/module/$1/parameters/$2"
}

# module_params MOD: every parameter of MOD as NAME=VALUE on one line.
module_params() {
	(cd "/sys/module/$1/parameters" && grep -H . -- * | sed 's/:/=/' |
		tr '\n' ' ')
}

# set_params MOD NAME=VALUE...: write several parameters at run time.
set_params() {
	local mod=$1 kv
	shift
	for kv in "$@"; do
		set_param "$mod" "${kv%%=*}" "${kv#*=}" || return 1
	done
}

# cc_use NAME: prepare the congestion control a benchmark or demo NAME
# stands for and print the kernel's name for it.  NAME is a kernel name, or
#   timely / timely-patched   tcp_timely with variant 0 (paper) / 1
#   CC+plb                    CC with PLB on in CLI's namespace (off for
#                             any NAME without +plb; needs tcp_plb)
cc_use() {
	local cc=${1%+plb} plb=0
	[ "$cc" = "$1" ] || plb=1
	if [ -d /sys/module/tcp_plb ] && [ -e "/run/netns/$NS_CLI" ]; then
		in_cli sysctl -qw net.dcc_plb.enabled=$plb
	fi
	case $cc in
	timely) set_param tcp_timely variant 0 ;;
	timely-patched) set_param tcp_timely variant 1; cc=timely ;;
	esac
	echo "$cc"
}

# klog_mark: a line of our own in the kernel log; klog_since prints what
# the kernel logged after the latest mark.  (A test on a real host must
# not wipe the host's log with dmesg -C.)
KLOG_N=0
KLOG_MARK=
klog_mark() {
	KLOG_N=$((KLOG_N + 1))
	KLOG_MARK="dcc-selftest: mark $$.$KLOG_N"
	echo "$KLOG_MARK" > /dev/kmsg
}
klog_since() {
	dmesg | awk -v m="$KLOG_MARK" 'f { print } index($0, m) { f = 1 }'
}

# bad_write MOD PARAM VALUE: the write is refused, the old value kept and
# a kernel message names the parameter.
bad_write() {
	local mod=$1 param=$2 val=$3 old
	old=$(get_param "$mod" "$param")
	klog_mark
	if set_param "$mod" "$param" "$val" 2>/dev/null; then
		echo "# $param=$val was accepted"
		return 1
	fi
	[ "$(get_param "$mod" "$param")" = "$old" ] || return 1
	klog_since | grep -q "$mod: $param" ||
		{ echo "# no message for $param=$val"; return 1; }
}

# check_bad_writes MOD PARAM:VALUE...: a check per refused write.
check_bad_writes() {
	local mod=$1 pv
	shift
	for pv in "$@"; do
		check "bad value ${pv#*:} for ${pv%%:*} is refused, old value kept" \
			bad_write "$mod" "${pv%%:*}" "${pv#*:}"
	done
}

# check_params_readable MOD: every parameter is readable and a number
# (or, for an enumerated one such as tstamp, a name).
check_params_readable() {
	local p
	for p in /sys/module/"$1"/parameters/*; do
		check "parameter $(basename "$p") is readable" \
			grep -qE '^([0-9]+|[a-z]+)$' "$p"
	done
}

# check_unload_in_use MOD CC [PORT]: rmmod is refused while a connection
# uses CC, the connection survives it, and the module unloads afterwards.
check_unload_in_use() {
	local mod=$1 cc=$2 port=${3:-5301} cli rc
	load_module "$mod"
	iperf3 -s -1 -D -B 127.0.0.1 -p "$port" >/dev/null 2>&1
	wait_listen "$port" -
	iperf3 -c 127.0.0.1 -p "$port" -C "$cc" -t 3 >/dev/null 2>&1 &
	cli=$!
	# iperf3 opens a control connection, then the data one: both up.
	slowwait 10 sh -c "[ \$(ss -Htn state established 'dport = :$port' | wc -l) -ge 2 ]"
	check "rmmod while a connection uses $cc is refused" \
		sh -c "! rmmod $mod 2>/dev/null"
	check "the connection survives it" kill -0 $cli
	wait $cli
	rc=$?
	check "the transfer completed" test $rc -eq 0
	check "unload after the sockets closed" unload_module "$mod"
}

# check_cc_selection CC MOD [PARAMS...]: CC can be chosen by the namespace
# sysctl, by setsockopt(TCP_CONGESTION) and per route ("ip route ...
# congctl"), and a connection really uses it (ss); back to cubic after.
# SRV_CC, if set, is the receivers' congestion control (for algorithms
# that both ends must run, like dctcp and dcqcn).
check_cc_selection() {
	local cc=$1 mod=$2 got out
	shift 2
	load_module "$mod" "$@" || { check "load $mod" false; return; }
	# Like upstream's dctcp, none of ours is open to every user: a user
	# without CAP_NET_ADMIN may choose it only once the administrator
	# lists it in net.ipv4.tcp_allowed_congestion_control.
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$DCC_BIN/cc_sockopt" "$cc" >/dev/null 2>&1
	check "an unprivileged user may not choose $cc by default (EPERM)" \
		test $? -eq 3
	topo_dumbbell
	allow_cc "$cc"
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$DCC_BIN/cc_sockopt" "$cc" >/dev/null 2>&1
	check "...and may once it is in tcp_allowed_congestion_control" \
		test $? -eq 0
	[ -n "${SRV_CC:-}" ] &&
		in_srv sysctl -qw net.ipv4.tcp_congestion_control="$SRV_CC"
	iperf_server 5201
	in_srv "$DCC_BIN/incast" -s 6000 &

	in_cli sysctl -qw net.ipv4.tcp_congestion_control="$cc"
	check "sysctl net.ipv4.tcp_congestion_control=$cc is taken" \
		test "$(in_cli sysctl -n net.ipv4.tcp_congestion_control)" = "$cc"
	got=$(_flow_cc)
	check "a new connection uses the sysctl default (ss says '$got')" \
		test "$got" = "$cc"
	in_cli sysctl -qw net.ipv4.tcp_congestion_control=cubic
	got=$(_flow_cc)
	check "back to cubic after the sysctl changes (ss says '$got')" \
		test "$got" = cubic

	out=$(in_cli "$DCC_BIN/cc_sockopt" "$cc" $SRV_IP 6000 1000000)
	log "$out"
	check "setsockopt(TCP_CONGESTION, $cc) holds after a transfer" \
		test "${out%% *}" = "cc=$cc"
	in_cli "$DCC_BIN/cc_sockopt" no_such_cc >/dev/null 2>&1
	check "setsockopt with an unknown name fails with ENOENT" test $? -eq 2

	in_cli ip route add 10.0.2.0/24 via 10.0.1.254 congctl "$cc"
	check "route with congctl $cc is installed" \
		sh -c "ip -n $NS_CLI route show 10.0.2.0/24 | grep -q 'congctl $cc'"
	got=$(_flow_cc)
	check "a connection on that route uses $cc (ss says '$got')" \
		test "$got" = "$cc"
	in_cli ip route del 10.0.2.0/24
	got=$(_flow_cc)
	check "without the route it is cubic again (ss says '$got')" \
		test "$got" = cubic

	topo_cleanup
	check "module unloads after the test" unload_module "$mod"
}

# _flow_cc: start a 4 s transfer CLI -> SRV and print the congestion
# control ss reports for it, polling for up to 4 s (starting iperf3 in a
# namespace can take over a second on a busy host); then let it finish so
# the iperf3 server is free for the next one.
_flow_cc() {
	local pid cc=
	in_cli iperf3 -c "$SRV_IP" -p 5201 -t 4 >/dev/null 2>&1 &
	pid=$!
	for _ in $(seq 20); do
		sleep 0.2
		cc=$(in_cli ss -tin state established dst "$SRV_IP" | awk '
			/^[ \t]/ { for (i = 1; i <= NF; i++)
				if ($i ~ /^(swift|timely|dcqcn|cubic|reno|dctcp)$/) {
					print $i; exit } }')
		[ -n "$cc" ] && break
	done
	echo "$cc"
	wait "$pid"
	return 0
}

TRACEFS=/sys/kernel/tracing

# trace_start EVENTDIR: clear the trace buffer and enable one event;
# fails if the event is not in tracefs.
trace_start() {
	[ -w "$1/enable" ] || return 1
	echo 0 > "$TRACEFS/tracing_on"
	echo > "$TRACEFS/trace"
	echo 4096 > "$TRACEFS/buffer_size_kb"
	echo 1 > "$1/enable"
	echo 1 > "$TRACEFS/tracing_on"
}

# ss_during_flow CC SECS: run a bulk flow CLI -> SRV (port 5201) and print
# the info line ss shows for it half-way through (the one with bbr:(...)).
ss_during_flow() {
	local cc=$1 secs=$2 pid line
	iperf_flow "$cc" "$secs" 5201 > /dev/null &
	pid=$!
	sleep $((secs / 2))
	line=$(in_cli ss -tine state established dst "$SRV_IP" dport = :5201 |
	       tee "${SS_SAVE:-/dev/null}" |
	       grep -E "^[[:space:]].*$cc.*bbr:\\(" | head -n 1)
	# CCINFO_SAVE=FILE: the same moment through tools/cc_info.c -s,
	# which decodes what the BBR layout means for our modules.
	[ -z "${CCINFO_SAVE:-}" ] ||
		in_cli "$DCC_BIN/cc_info" -s "$cc" > "$CCINFO_SAVE" 2>&1
	wait $pid
	echo "$line"
}

# mod_stat NS FILE NAME: a counter from /proc/net/FILE in a namespace
# (-1 if absent).
mod_stat() {
	ip netns exec "$1" cat "/proc/net/$2" |
		awk -v n="$3" '$1 == n { print $2; f = 1 } END { if (!f) print -1 }'
}

# mod_nstat NS FILE HIST ARGS...: iproute2's nstat over a module's counter
# file, as admin-guide.rst tells operators to run it (the file has
# /proc/net/snmp6's "Name value" layout, so PROC_NET_SNMP6 points nstat at
# it; the kernel's own tables are left out; HIST is the history file that
# keeps the deltas apart from the user's default one).
mod_nstat() {
	local ns=$1 file=$2 hist=$3
	shift 3
	ip netns exec "$ns" env NSTAT_HISTORY="$hist" \
		PROC_NET_SNMP6="/proc/net/$file" PROC_NET_NETSTAT=/dev/null \
		PROC_NET_SNMP=/dev/null nstat "$@"
}

# check_perf_event SYSTEM:EVENT CC: perf stat counts the tracepoint during
# a short CC transfer CLI -> SRV (sink on port 6000).  Skipped when perf is
# missing or does not match the running kernel.
check_perf_event() {
	local ev=$1 cc=$2 cnt
	if ! command -v perf >/dev/null ||
	   ! perf stat -e "$ev" -a -x, -o /dev/null true >/dev/null 2>&1; then
		log "perf unavailable or not matching the kernel: perf check skipped"
		return 0
	fi
	cnt=$(perf stat -e "$ev" -a -x, -- \
	      ip netns exec "$NS_CLI" "$DCC_BIN/cc_info" "$cc" \
	      "$SRV_IP" 6000 2000000 2>&1 >/dev/null |
	      awk -F, -v e="${ev#*:}" '$0 ~ e { print $1 + 0 }')
	expect "perf stat counts $ev (${cnt:-none})" "${cnt:-0} > 0"
}

# check_bpftrace_recipe EVENT CC: admin-guide.rst's bpftrace one-liner
# (events per socket cookie) sees EVENT during a short CC flow CLI -> SRV.
check_bpftrace_recipe() {
	local ev=$1 cc=$2 out pid n
	if ! command -v bpftrace >/dev/null; then
		log "SKIP bpftrace recipe: bpftrace not installed"
		return 0
	fi
	out=$(mktemp)
	bpftrace -e "tracepoint:$ev { @events[args->sock_cookie] = count(); }" \
		> "$out" 2>&1 &
	pid=$!
	if ! slowwait 120 grep -q '^Attaching' "$out"; then
		log "bpftrace did not attach: $(head -c 300 "$out")"
		kill -INT $pid 2>/dev/null
		wait $pid
		check "bpftrace attaches to $ev" false
		rm -f "$out"
		return
	fi
	iperf_flow "$cc" 1 5201 > /dev/null
	kill -INT $pid
	wait $pid
	# @events[COOKIE]: COUNT, one line per connection
	n=$(awk -F': ' '/^@events\[/ { s += $2 } END { print s + 0 }' "$out")
	log "bpftrace: $(grep -c '^@events' "$out") sockets, $n events"
	expect "bpftrace one-liner counts $ev per socket cookie ($n)" "$n > 0"
	rm -f "$out"
}

# Let every namespace use the named congestion controls.
allow_cc() {
	local cur
	cur=$(sysctl -n net.ipv4.tcp_allowed_congestion_control)
	sysctl -qw net.ipv4.tcp_allowed_congestion_control="$cur $*"
}

# Load the stock modules a comparison needs (cubic is built in).
load_stock_cc() {
	local m
	for m in "$@"; do
		[ "$m" = cubic ] || [ "$m" = reno ] || modprobe "tcp_$m"
	done
}

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

# topo_dumbbell: build the namespaces and links (no shaping yet).
topo_dumbbell() {
	local ns
	modprobe -q veth
	topo_cleanup
	for ns in "$NS_CLI" "$NS_RTR" "$NS_SRV"; do
		ip netns add "$ns"
		ip -n "$ns" link set lo up
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.accept_dad=0 \
			net.ipv6.conf.default.accept_dad=0
	done
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
# J_US 0 restores topo_shape's plain delay.  netem draws the jitter from
# the kernel's random numbers (no seed in 6.1): runs differ in the draws.
topo_jitter() {
	local j=$1 path=${2:-ack} d=${TOPO_DELAY_US:-250}
	in_cli tc qdisc del dev cli0 root 2>/dev/null
	if [ "$j" = 0 ]; then
		in_rtr tc qdisc replace dev rc0 root netem delay "${d}us" \
			limit 100000
	elif [ "$path" = ack ]; then
		in_rtr tc qdisc replace dev rc0 root netem delay "${d}us" \
			"${j}us" rate 10gbit limit 100000
	else
		in_rtr tc qdisc replace dev rc0 root netem \
			delay "$((d > j ? d - j : 0))us" limit 100000
		in_cli tc qdisc replace dev cli0 root netem delay "${j}us" \
			"${j}us" rate 10gbit limit 100000
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
	for ns in "$NS_CLI" "$NS_RTR" "$NS_R2" "$NS_SRV"; do
		ip netns add "$ns"
		ip -n "$ns" link set lo up
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.accept_dad=0 \
			net.ipv6.conf.default.accept_dad=0
	done
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
	ip -n "$NS_RTR" -6 route add fd00:2::/64 \
		nexthop via fd00:a::2 dev pa0 nexthop via fd00:b::2 dev pb0
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

# path_bytes6 DEV: IPv6 bytes RTR has sent on DEV (pa0 or pb0) so far.
path_bytes6() {
	in_rtr awk '$1 == "Ip6OutOctets" { print $2 }' \
		"/proc/net/dev_snmp6/$1"
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

# Packets dropped and ECN-marked at the bottleneck so far.
bottleneck_drops() {
	in_rtr tc -s qdisc show dev rs0 | awk '/dropped/ {
		for (i = 1; i <= NF; i++) if ($i == "(dropped") d += $(i + 1) + 0
	} END { print d + 0 }'
}

# bottleneck_counts: "DROPS MARKS" so far, from one look at the qdiscs.
bottleneck_counts() {
	in_rtr tc -s qdisc show dev rs0 | awk '{
		for (i = 1; i < NF; i++) {
			if ($i == "(dropped") d += $(i + 1) + 0
			if ($i == "marked") m += $(i + 1) + 0
		}
	} END { print d + 0, m + 0 }'
}

# --- measurements -------------------------------------------------------

# percentile P: print the P-th percentile of numbers on stdin.
percentile() {
	sort -n | awk -v p="$1" '{ v[NR] = $1 }
		END { if (!NR) { print "nan"; exit }
		      i = int(NR * p / 100 + 0.999999); if (i < 1) i = 1
		      if (i > NR) i = NR; print v[i] }'
}

# ping_rtts COUNT INTERVAL [TOS]: RTTs in microseconds, CLI -> SRV, one a
# line.  TOS 2 sends the probes as ECT(0), so that an ECN-marking queue
# marks them as it marks the flows instead of dropping them.
ping_rtts() {
	in_cli ping -n -c "$1" -i "$2" -W 1 ${3:+-Q "$3"} "$SRV_IP" 2>/dev/null |
		awk -F'time=' '/time=/ { split($2, a, " "); printf "%d\n", a[1] * 1000 }'
}

iperf_server() {
	in_srv iperf3 -s -D -p "${1:-5201}" >/dev/null 2>&1
	wait_listen "${1:-5201}"
}

# iperf_flow CC SECONDS [PORT] [extra iperf3 args]: JSON on stdout.
iperf_flow() {
	local cc=$1 secs=$2 port=${3:-5201}
	shift 3 2>/dev/null || shift $#
	in_cli iperf3 -c "$SRV_IP" -p "$port" -C "$cc" -t "$secs" -J "$@"
}

# Receiver goodput (Mbit/s) and sender retransmits from iperf3 JSON.
iperf_mbps() { jq -r '.end.sum_received.bits_per_second / 1e6'; }
iperf_retrans() { jq -r '.end.sum_sent.retransmits // 0'; }

# nstat_get NS COUNTER: absolute value of a TCP MIB counter in a namespace.
nstat_get() {
	ip netns exec "$1" nstat -az "$2" 2>/dev/null |
		awk -v c="$2" '$1 == c { print $2; f = 1 } END { if (!f) print 0 }'
}

# bulk_run CC SECS FLOWS OUT [HZ] [WARM] [PORT]: FLOWS bulk flows (one
# iperf3 -P FLOWS, 0.5 s intervals) CLI -> SRV for SECS seconds, and from
# WARM seconds (default 2) until 1 s before the end an RTT probe through
# the same queue: ping at HZ per second (default 50), ECT(0).  Writes
# OUT.json (iperf3) and OUT.rtt (us, one a line).  Needs iperf_server.
bulk_run() {
	local cc=$1 secs=$2 flows=$3 out=$4 hz=${5:-50} warm=${6:-2}
	local port=${7:-5201} pid n
	iperf_flow "$cc" "$secs" "$port" -P "$flows" -i 0.5 > "$out.json" &
	pid=$!
	sleep "$warm"
	n=$(awk -v s="$secs" -v w="$warm" -v h="$hz" \
		'BEGIN { n = int((s - w - 1) * h); print n < 1 ? 1 : n }')
	ping_rtts "$n" "$(awk -v h="$hz" 'BEGIN { print 1 / h }')" 2 > "$out.rtt"
	wait $pid
}

# measure_bulk CC SECS [PORT]: one bulk flow CLI -> SRV for SECS seconds
# with a 50 Hz ping through the same queue after a 2 s warm-up.  Prints
# "goodput_mbps rtt_p50_us rtt_p99_us retransmits".  Needs iperf_server.
measure_bulk() {
	local cc=$1 secs=$2 port=${3:-5201} tmp p50 p99
	tmp=$(mktemp -d)
	bulk_run "$cc" "$secs" 1 "$tmp/b" 50 2 "$port"
	p50=$(percentile 50 < "$tmp/b.rtt")
	p99=$(percentile 99 < "$tmp/b.rtt")
	echo "$(iperf_mbps < "$tmp/b.json") $p50 $p99 $(iperf_retrans < "$tmp/b.json")"
	rm -rf "$tmp"
}

# incast_round N BYTES CC [PORT]: one N-to-1 incast (BYTES a flow, all
# starting at once, congestion control CC) to the incast sink on SRV
# (PORT, default 6000).  Prints incast's line and, for the round, CLI's
# retransmit timeouts and retransmitted segments and the bottleneck's
# drops: "... rtos=R retrans=X drops=D".  Exit status: incast's.
incast_round() {
	local n=$1 bytes=$2 cc=$3 port=${4:-6000} rto0 rtx0 d0 rto1 rtx1 out rc
	read -r rto0 rtx0 <<< "$(_rto_retrans)"
	d0=$(bottleneck_drops)
	out=$(in_cli timeout 60 "$DCC_BIN/incast" -c "$SRV_IP" "$port" "$n" \
		"$bytes" "$cc")
	rc=$?
	read -r rto1 rtx1 <<< "$(_rto_retrans)"
	echo "$out rtos=$((rto1 - rto0)) retrans=$((rtx1 - rtx0))" \
	     "drops=$(($(bottleneck_drops) - d0))"
	return $rc
}

# _rto_retrans: CLI's "TcpExtTCPTimeouts TcpRetransSegs" (one nstat).
_rto_retrans() {
	in_cli nstat -az TcpExtTCPTimeouts TcpRetransSegs 2>/dev/null | awk '
		$1 == "TcpExtTCPTimeouts" { t = $2 } $1 == "TcpRetransSegs" { r = $2 }
		END { print t + 0, r + 0 }'
}

# iperf_server_log PORT FILE [INTERVAL]: an iperf3 server on SRV (run it
# in the background; topo_cleanup ends it) that reports what it received
# every INTERVAL seconds (default 0.25), each line stamped with the
# guest's clock when it was printed ($EPOCHREALTIME), appended to FILE:
# the flows of several servers can be put on one time line.
iperf_server_log() {
	in_srv iperf3 -s -p "$1" -i "${3:-0.25}" --forceflush 2>&1 |
		while IFS= read -r l; do echo "$EPOCHREALTIME $l"; done >> "$2"
}

# ss_acked_log NS DPORT INTERVAL OUT: until killed, every INTERVAL seconds
# append to OUT one line per established connection of NS to port DPORT
# whose congestion control is not cubic (iperf3's control connection is):
# "TIME SPORT BYTES_ACKED", TIME the guest's clock ($EPOCHREALTIME).  What
# the kernel says each flow delivered, where iperf3's client intervals
# count what the application wrote (128 KB at a time).
ss_acked_log() {
	local ns=$1 dport=$2 ival=$3 out=$4
	while :; do
		ip netns exec "$ns" ss -tinH state established "dport = :$dport" |
			awk -v t="$EPOCHREALTIME" '
			$1 ~ /^[0-9]+$/ && $3 ~ /:/ { n = split($3, a, ":"); p = a[n]; next }
			/bytes_acked:/ && !/ cubic / {
				for (i = 1; i <= NF; i++)
					if ($i ~ /^bytes_acked:/) {
						sub(/bytes_acked:/, "", $i)
						print t, p, $i
					}
			}' >> "$out"
		sleep "$ival"
	done
}

# --- robustness: every module in the tree ------------------------------
#
# The robustness tests (robust_*.sh) iterate over the modules built in the
# tree, so a new module is covered as soon as it builds.  A module tcp_NAME
# that registers the congestion control NAME is a "CC module"; the others
# (tcp_plb) are libraries the CC modules use when loaded.

# ROBUST_LONG=1: the long variants (more connections, longer, more faults).
ROBUST_LONG=${ROBUST_LONG:-0}

# dcc_modules: our modules built in the tree, one a line (tcp_plb first:
# connections use it only if it is loaded before they start).
dcc_modules() {
	local ko
	for ko in "$DCC_ROOT"/tcp_plb.ko "$DCC_ROOT"/tcp_*.ko; do
		[ -f "$ko" ] && basename "$ko" .ko
	done | awk '!seen[$0]++'
}

# load_dcc_modules: (re)load every module in the tree at its shipped
# defaults and allow its congestion control in every namespace; prints
# the congestion controls registered, one a line.
load_dcc_modules() {
	local m
	for m in $(dcc_modules); do
		load_module "$m" >&2 || return 1
	done
	# shellcheck disable=SC2046
	allow_cc $(dcc_ccs_loaded)
	dcc_ccs_loaded
}

# dcc_ccs_loaded: the congestion controls of our modules now registered.
dcc_ccs_loaded() {
	local m
	for m in $(dcc_modules); do
		grep -qw "${m#tcp_}" /proc/sys/net/ipv4/tcp_available_congestion_control &&
			echo "${m#tcp_}"
	done
	return 0
}

# unload_dcc_modules: unload them all (CC modules first, then tcp_plb).
unload_dcc_modules() {
	local m rc=0
	for m in $(dcc_modules | tac); do
		unload_module "$m" || rc=1
	done
	return $rc
}

# Kernel memory figures for leak checks: "slab_kb tcp_objs" where
# slab_kb is SUnreclaim + SReclaimable and tcp_objs the active objects of
# the TCP socket caches (TCP, TCPv6, request and time-wait socks).
kmem_snapshot() {
	local slab objs
	slab=$(awk '/^(SUnreclaim|SReclaimable):/ { s += $2 } END { print s }' /proc/meminfo)
	objs=$(awk '$1 ~ /^(TCP|TCPv6|request_sock_TCP|request_sock_TCPv6|tw_sock_TCP|tw_sock_TCPv6)$/ { s += $2 }
		END { print s + 0 }' /proc/slabinfo 2>/dev/null)
	echo "$slab ${objs:-0}"
}

# settle_kmem: wait for dead namespaces and closed sockets to be freed
# (network namespaces are torn down by a work queue), then drop caches
# and flush the slab caches' per-CPU free objects.
settle_kmem() {
	local i c
	for i in $(seq 40); do
		[ "$(ip netns list | grep -c "^$NS_PREFIX")" = 0 ] && break
		sleep 0.25
	done
	sleep 1
	echo 3 > /proc/sys/vm/drop_caches
	# Free objects cached per CPU count as active in /proc/slabinfo
	# (SLUB): flush them, so the counts compare like with like.
	for c in /sys/kernel/slab/*/shrink; do
		echo 1 > "$c" 2>/dev/null
	done
}

# xfer_sum BYTES SEED: the sha256 of the stream "xfer -c" sends.
xfer_sum() {
	"$DCC_BIN/xfer" -g "$1" -S "$2" | sha256sum | cut -d' ' -f1
}

# xfer_start DIR NAME CC ADDR PORT BYTES SEED TIMEOUT [SENDER_OPTS [RECEIVER_OPTS]]:
# a checked transfer CLI -> SRV in the background, both ends running CC
# (XFER_SENDER_CC= leaves the sender on its namespace's default).
# The receiver's sha256 goes to DIR/NAME.rx, the sender's report to
# DIR/NAME.tx, the expected sha256 to DIR/NAME.want; xfer_verify checks.
xfer_start() {
	local dir=$1 name=$2 cc=$3 addr=$4 port=$5 bytes=$6 seed=$7 tmo=$8
	local sopt=${9:-} ropt=${10:-}
	xfer_sum "$bytes" "$seed" > "$dir/$name.want"
	# shellcheck disable=SC2086 # options are words
	(in_srv timeout "$tmo" "$DCC_BIN/xfer" -s "$port" -C "$cc" $ropt \
		2> "$dir/$name.rxlog" | sha256sum | cut -d' ' -f1 > "$dir/$name.rx") &
	echo $! > "$dir/$name.rxpid"
	wait_listen "$port"
	# shellcheck disable=SC2086
	(in_cli timeout "$tmo" "$DCC_BIN/xfer" -c "$addr" "$port" "$bytes" \
		-C "${XFER_SENDER_CC-$cc}" -S "$seed" $sopt > "$dir/$name.tx" 2>&1; \
	 echo "rc=$?" >> "$dir/$name.tx") &
	echo $! > "$dir/$name.txpid"
}

# slowwait SECONDS CMD...: until CMD succeeds, polled every 0.1 s, for up
# to SECONDS (upstream kselftests' net/lib.sh has the same name and use).
slowwait() {
	local i n=$(($1 * 10))
	shift
	for ((i = 0; i < n; i++)); do
		"$@" && return 0
		sleep 0.1
	done
	return 1
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

# xfer_wait DIR NAME: wait for both ends of a transfer.
xfer_wait() {
	wait "$(cat "$1/$2.txpid")" "$(cat "$1/$2.rxpid")" 2>/dev/null
	return 0
}

# xfer_verify DIR NAME CC: the transfer completed in time, byte-exact, and
# the connection used CC (or CC's own fallback, CC-something: dcqcn falls
# back to dcqcn-reno when ECN was not negotiated, e.g. its SYN was lost).
xfer_verify() {
	local dir=$1 name=$2 cc=$3 tx
	tx=$(tr '\n' ' ' < "$dir/$name.tx")
	if ! grep -q '^rc=0$' "$dir/$name.tx"; then
		echo "# $name: sender failed or timed out: $tx"
		return 1
	fi
	if [ "$(cat "$dir/$name.rx")" != "$(cat "$dir/$name.want")" ]; then
		echo "# $name: checksum mismatch ($(cat "$dir/$name.rxlog"))"
		return 1
	fi
	case $tx in
	*"cc=$cc "*) ;;
	*"cc=$cc-"*)	# a module's own fallback (dcqcn-reno without ECN)
		echo "# $name: $cc fell back to ${tx#*cc=}" ;;
	*) echo "# $name: the connection did not use $cc: $tx"; return 1 ;;
	esac
}

# xfer_field DIR NAME KEY: a key=value of the sender's report.
xfer_field() {
	tr ' ' '\n' < "$1/$2.tx" | sed -n "s/^$3=//p" | head -n 1
}

# param_ranges MOD: "PARAM MIN MAX" for every parameter of MOD, from the
# messages the module logs for refused writes (dcc_param.h prints the
# range): each parameter is written a non-numeric value, which changes
# nothing.
param_ranges() {
	local p
	klog_mark
	for p in /sys/module/"$1"/parameters/*; do
		echo "not-a-number" > "$p" 2>/dev/null
	done
	klog_since | sed -n "s/.*$1: \([a-z0-9_]*\): 'not-a-number' .* in \[\([0-9]*\), \([0-9]*\)\].*/\1 \2 \3/p"
}

# check_params_bad_input MOD: every parameter of MOD is written with
# non-numeric, empty, negative, huge, 32-bit-wrapping and out-of-range
# values (an enumerated one, e.g. tstamp, all but the out-of-range ones); each write must be refused with a message naming the parameter
# and the value, and the old value kept.  One check per parameter.  (The
# writes are shell builtins and the kernel log is read once: fast under
# emulation.)
check_params_bad_input() {
	local mod=$1 p name min max old cur v klog errs
	local -A lo=() hi=() olds=() bads=() badlist=()
	local bad=()
	while read -r name min max; do
		lo[$name]=$min hi[$name]=$max
	done < <(param_ranges "$mod")
	klog_mark
	for p in /sys/module/"$mod"/parameters/*; do
		name=${p##*/}
		bad=("abc" "" "-1" "4294967296" "99999999999999999999" "1 2" "0x")
		if [ -n "${lo[$name]:-}" ]; then
			min=${lo[$name]} max=${hi[$name]}
			[ "$min" -gt 0 ] && bad+=("$((min - 1))")
			[ "$max" -lt 4294967295 ] && bad+=("$((max + 1))")
		fi
		read -r old < "$p"
		olds[$name]=$old
		errs=""
		for v in "${bad[@]}"; do
			if echo "$v" > "$p" 2>/dev/null; then
				errs+=" '$v' accepted;"
			fi
			read -r cur < "$p"
			[ "$cur" = "$old" ] || { errs+=" '$v' changed it to $cur;"
						 echo "$old" > "$p"; }
		done
		bads[$name]=$errs
		badlist[$name]=$(printf '%s\n' "${bad[@]}")
	done
	klog=$(klog_since)
	for p in /sys/module/"$mod"/parameters/*; do
		name=${p##*/}
		errs=${bads[$name]}
		while IFS= read -r v; do
			case $klog in
			*"$mod: $name: '$v' is not"* | *"$mod: $name=$v is out of range"*) ;;
			*) errs+=" no message for '$v';" ;;
			esac
		done <<< "${badlist[$name]}"
		[ -z "$errs" ] || log "$mod $name:$errs"
		check "$mod $name [${lo[$name]:-names}${hi[$name]:+, ${hi[$name]}}]: $(wc -l <<< "${badlist[$name]}") bad values refused with a message, ${olds[$name]} kept" \
			test -z "$errs"
	done
}

# check_load_cross MOD "GOOD" "BAD" MESSAGE: checks between parameters do
# not depend on the order of load-time parameters.  GOOD is a consistent
# pair whose first value is inconsistent with the second's default (so a
# check applied as each value arrives would refuse it): the load succeeds
# and applies both.  BAD is a pair that ends inconsistent: the load fails,
# leaves nothing loaded, and the kernel log says MESSAGE (fixed string,
# after "MOD: ").
check_load_cross() {
	local mod=$1 good_set=$2 bad_set=$3 msg=$4 pv ok=true
	# shellcheck disable=SC2086 # parameters are words
	check "$mod loads with $good_set" load_module "$mod" $good_set
	for pv in $good_set; do
		[ "$(get_param "$mod" "${pv%%=*}")" = "${pv#*=}" ] || ok=false
	done
	check "$mod: $good_set applied" $ok
	unload_module "$mod"
	dmesg -C
	# shellcheck disable=SC2086
	check "$mod with $bad_set fails to load" \
		sh -c "! insmod $(ko_path "$mod") $bad_set 2>/dev/null"
	check "$mod: and leaves nothing loaded" \
		sh -c "! grep -q '^$mod ' /proc/modules"
	check "$mod: the log says '$msg'" \
		sh -c "dmesg | grep -qF '$mod: $msg'"
}

# check_load_bad_params MOD [GOOD_PARAMS...]: loading MOD with a bad value
# of a parameter (out of range where the range allows, else not a number)
# fails with a message, leaves nothing loaded and registers no congestion
# control.  Every parameter with ROBUST_LONG=1, else the first, the last
# and one not-a-number (each load costs about a second in the emulated
# VM).  Needs MOD loaded to learn the ranges; unloads it.
check_load_bad_params() {
	local mod=$1 name min max v fails="" avail n=0 tries=()
	shift
	load_module "$mod" "$@" || { check "load $mod" false; return; }
	while read -r name min max; do
		if [ "$max" -lt 4294967295 ]; then
			tries+=("$name=$((max + 1))")
		else
			tries+=("$name=-1")
		fi
	done < <(param_ranges "$mod")
	unload_module "$mod"
	[ ${#tries[@]} -gt 0 ] || { check "$mod: parameter ranges known" false; return; }
	if [ "$ROBUST_LONG" != 1 ]; then
		tries=("${tries[0]}" "${tries[-1]}" "${tries[0]%%=*}=many")
	fi
	avail=$(cat /proc/sys/net/ipv4/tcp_available_congestion_control)
	for v in "${tries[@]}"; do
		n=$((n + 1))
		klog_mark
		if insmod "$(ko_path "$mod")" "$@" "$v" 2>/dev/null; then
			fails+=" $v loaded;"
			unload_module "$mod"
			continue
		fi
		grep -q "^$mod " /proc/modules && fails+=" $v left it loaded;"
		klog_since | grep -q "$mod: ${v%%=*}" || fails+=" no message for $v;"
	done
	[ "$(cat /proc/sys/net/ipv4/tcp_available_congestion_control)" = "$avail" ] ||
		fails+=" the available congestion controls changed;"
	[ -z "$fails" ] || log "$mod:$fails"
	check "$mod: loading with a bad parameter fails cleanly ($n tried: ${tries[*]})" \
		test -z "$fails"
}
