# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Part of lib.sh (tests source lib.sh, which sources this): every module
# in the tree at once, kernel memory for leak checks, checked transfers
# (xfer), bad parameter input at run time and at load time.

# --- robustness: every module in the tree ------------------------------
#
# The robustness tests (robust_*.sh) iterate over the modules built in the
# tree, so a new module is covered as soon as it builds.  A module tcp_NAME
# that registers the congestion control NAME is a "CC module"; the others
# (tcp_plb) are libraries the CC modules use when loaded.

# ROBUST_LONG=1: the long variants (more connections, longer, more faults).
ROBUST_LONG=${ROBUST_LONG:-0}

# dcc_modules: our modules built in the tree, one a line (tcp_plb first:
# connections use it only if it is loaded before they start); without a
# source tree (a kernel tree's kselftest), the installed ones.
dcc_modules() {
	local ko
	[ -n "$DCC_ROOT" ] || { dcc_installed_modules; return; }
	for ko in "$DCC_ROOT"/tcp_plb.ko "$DCC_ROOT"/tcp_*.ko; do
		[ -f "$ko" ] && basename "$ko" .ko
	done | awk '!seen[$0]++'
}

# dcc_installed_modules: our modules installed for the running kernel
# (modules.dep's tcp_* whose author is ours), tcp_plb first.
dcc_installed_modules() {
	local m
	for m in tcp_plb $(sed -n 's|^\([^:]*/\)\{0,1\}\(tcp_[a-z0-9_]*\)\.ko[.a-z]*:.*|\2|p' \
			"/lib/modules/$(uname -r)/modules.dep" 2>/dev/null | sort); do
		[ "$(modinfo -F author "$m" 2>/dev/null)" = \
		  "Datacenter congestion control authors" ] && echo "$m"
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
	klog_mark
	# shellcheck disable=SC2086
	check "$mod with $bad_set fails to load" \
		sh -c "! insmod $(ko_path "$mod") $bad_set 2>/dev/null"
	check "$mod: and leaves nothing loaded" \
		sh -c "! grep -q '^$mod ' /proc/modules"
	check "$mod: the log says '$msg'" \
		grep -qF "$mod: $msg" <<< "$(klog_since)"
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
