# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Part of lib.sh (tests source lib.sh, which sources this): loading our
# modules and the stock ones, their parameters, the kernel log (a
# /dev/kmsg marker, never dmesg -C), per-module parameter and unload
# checks, choosing a congestion control.

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
#   CC@PARAM=VALUE            CC with its module's PARAM at VALUE (e.g.
#                             swift@tstamp=off): a measured variant, not
#                             a default; the next cc_use puts it back
#                             (so one variant at a time: not for two
#                             ccs that run side by side)
# cc_use runs in command substitutions: the parameter to put back is kept
# in a file.  cc_base NAME prints the congestion control NAME is a
# variant of (NAME without +plb and @PARAM=VALUE), e.g. to load it.
cc_base() {
	local cc=${1%+plb}
	echo "${cc%%@*}"
}
CC_USE_UNDO=${CC_USE_UNDO:-/run/dcc-cc-use.undo}
cc_use() {
	local cc=${1%+plb} plb=0 var='' mod undo
	[ "$cc" = "$1" ] || plb=1
	if [ -s "$CC_USE_UNDO" ]; then
		read -r undo < "$CC_USE_UNDO"
		# shellcheck disable=SC2086 # "MOD PARAM VALUE"
		set_param $undo
		rm -f "$CC_USE_UNDO"
	fi
	case $cc in
	*@*=*) var=${cc#*@}; cc=${cc%%@*} ;;
	esac
	if [ -d /sys/module/tcp_plb ] && [ -e "/run/netns/$NS_CLI" ]; then
		in_cli sysctl -qw net.dcc_plb.enabled=$plb
	fi
	case $cc in
	timely) set_param tcp_timely variant 0 ;;
	timely-patched) set_param tcp_timely variant 1; cc=timely ;;
	esac
	if [ -n "$var" ]; then
		mod=tcp_$cc
		if [ ! -e "/sys/module/$mod/parameters/${var%%=*}" ]; then
			echo "cc_use: $1: $mod (loaded: $([ -d "/sys/module/$mod" ] &&
				echo yes || echo no)) has no parameter ${var%%=*}" >&2
			return 1
		fi
		echo "$mod ${var%%=*} $(get_param "$mod" "${var%%=*}")" \
			> "$CC_USE_UNDO"
		set_param "$mod" "${var%%=*}" "${var#*=}" >&2 || return 1
	fi
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
