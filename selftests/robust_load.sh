#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Load, for every congestion control module in the tree: 1000 concurrent
# connections (both ends running the module) opening, exchanging and
# closing for a sustained period through the dumbbell.  Every connection
# completes (none fails, none stalls), none is left open afterwards, the
# module's reference count returns to zero and it unloads, and kernel
# memory (slab, TCP socket objects) returns to where it was, with a
# generous tolerance.  ROBUST_LONG=1: 2000 connections for 40 s each.
. "$(dirname "$0")/lib.sh"
require_root
require_cmd ss

if [ "$ROBUST_LONG" = 1 ]; then
	CONNS=${LOAD_CONNS:-2000} SECS=${LOAD_SECS:-40}
else
	CONNS=${LOAD_CONNS:-1000} SECS=${LOAD_SECS:-4}
fi
# Tolerances: slab moves by a few MB with caches and per-CPU pages; a
# leak of one socket per connection would be 10 MB and more.
SLAB_TOL_KB=6144
OBJ_TOL=300

# shellcheck disable=SC2207
CCS=($(load_dcc_modules)) || { check "load the modules" false; finish; }
[ ${#CCS[@]} -gt 0 ] || skip "no congestion control module built"

for cc in "${CCS[@]}"; do
	mod=tcp_$cc
	settle_kmem
	read -r slab0 objs0 <<< "$(kmem_snapshot)"

	topo_dumbbell
	in_rtr tc qdisc replace dev rc0 root netem delay 1ms limit 100000
	in_cli sysctl -qw net.ipv4.ip_local_port_range="1024 65535" \
		net.ipv4.tcp_tw_reuse=1
	in_srv sysctl -qw net.core.somaxconn=8192 \
		net.ipv4.tcp_max_syn_backlog=8192
	(in_srv "$DCC_BIN/churn" -s 8000 -C "$cc" &)
	wait_listen 8000
	out=$(in_cli "$DCC_BIN/churn" -c "$SRV_IP" 8000 -C "$cc" -n "$CONNS" \
		-t "$SECS" -k 4 -q 1000 -R 20000 -g 500 -T 20)
	rc=$?
	log "$cc: $out"
	kv() { tr ' ' '\n' <<< "$out" | sed -n "s/^$1=//p"; }
	check "$cc: $CONNS connections for $SECS s: none failed or stalled" \
		test $rc -eq 0 -a "$(kv failed)" = 0 -a "$(kv stalled)" = 0
	expect "$cc: $CONNS connections held at once (max $(kv held_max), min $(kv held_min))" \
		"$(kv held_max) >= $CONNS"
	expect "$cc: connections completed ($(kv completed))" "$(kv completed) >= $CONNS"
	left=$(in_cli ss -Htn state connected exclude time-wait | wc -l)
	check "$cc: no connection left open on the client ($left)" test "$left" = 0
	topo_cleanup
	settle_kmem
	read -r slab1 objs1 <<< "$(kmem_snapshot)"
	log "$cc: slab ${slab0} -> ${slab1} kB, TCP socket objects ${objs0} -> ${objs1}"
	[ "$((objs1 - objs0))" -lt $OBJ_TOL ] || grep -E '^(TCP|tw_sock|request_sock)' /proc/slabinfo
	expect "$cc: slab back within $SLAB_TOL_KB kB (${slab0} -> ${slab1} kB)" \
		"$slab1 - $slab0 < $SLAB_TOL_KB"
	expect "$cc: TCP socket objects back within $OBJ_TOL (${objs0} -> ${objs1})" \
		"$objs1 - $objs0 < $OBJ_TOL"
	# the last sockets may still be closing
	slowwait 10 grep -qx 0 "/sys/module/$mod/refcnt"
	check "$cc: module reference count back to 0" \
		test "$(cat "/sys/module/$mod/refcnt")" = 0
done
check "modules unload afterwards" unload_dcc_modules
finish
