#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# PLB's interface check (Documentation/plb.rst, "Loading it and turning it
# on"): a congestion control finds tcp_plb with symbol_get(), which checks
# no modversions CRC, so it checks the interface itself.  A stand-in
# (selftests/kmod/plb_stub.ko) exports dcc_plb_ops as a tcp_plb "from
# another tree" would: the unversioned version 1 object, a wrong magic, a
# wrong version, a wrong ops size, a wrong state size.  For each, swift and
# timely must refuse it (drop the reference at once, never call into it),
# say so once in the kernel log, and carry their transfers without PLB.
# The stand-in with the current interface must be used (positive control),
# and rmmod of it, and of the real tcp_plb, is refused while a connection
# uses it.
source "$(dirname "$0")/lib.sh"
require_root
require_cmd iperf3

STUB=$DCC_SELFTESTS/kmod/plb_stub.ko
NS=plbabi
PORT=5201
MSG="tcp_plb's interface does not match"

[ -f "$STUB" ] || skip "no $STUB (make -C selftests kmods)"
grep -q '^tcp_plb ' /proc/modules && unload_module tcp_plb
ip netns del $NS 2>/dev/null
ip netns add $NS
ip -n $NS link set lo up
trap 'ip netns del $NS 2>/dev/null' EXIT
ip netns exec $NS iperf3 -s -D -p $PORT >/dev/null 2>&1
sleep 0.3

stub_calls() { get_param plb_stub calls; }
stub_refs() { cat /sys/module/plb_stub/refcnt; }

# conn_acked CC: the namespace has an established CC connection to PORT
# that has had data acknowledged.
conn_acked() {
	ip netns exec $NS ss -Htin state established "( dport = :$PORT )" |
		grep -Eq "(^|[[:space:]])$1[[:space:]].*bytes_acked:[1-9]"
}

# conn CC: a 3 s transfer over the namespace's loopback in the background
# (pid in $conn_pid), returning once its data connection runs CC and has
# had data acknowledged.  Not a fixed sleep: the client's start (exec,
# control connection, parameter exchange) took over a second of the
# guest's clock in a CI run whose host was loaded, and the positive
# control read no reference before the connection existed.
conn() {
	ip netns exec $NS iperf3 -c 127.0.0.1 -p $PORT -C "$1" -b 200M -t 3 \
		>/dev/null 2>&1 &
	conn_pid=$!
	slowwait 10 conn_acked "$1" ||
		log "conn $1: no established $1 connection with data acked within 10 s"
	sleep 0.2
}

# The interface version of this tree; the stand-in claims the one before
# and the one after it.
abi=$(awk '$2 == "DCC_PLB_ABI_VERSION" { print $3 + 0 }' \
	"$DCC_ROOT/include/dcc_plb.h" 2>/dev/null)
[ -n "$abi" ] || skip "no source tree: include/dcc_plb.h not found"
for cc in swift timely; do
	for bad in layout=1 magic=0 version=1 version=$((abi - 1)) \
		   version=$((abi + 1)) ops_size=8 state_size=20; do
		# Fresh: the refusal is said once per load of the module.
		load_module "tcp_$cc" || { check "load tcp_$cc" false; continue; }
		mark=$(dmesg | wc -l)
		unload_module plb_stub
		insmod "$STUB" $bad || { check "load plb_stub $bad" false; continue; }
		conn $cc
		refs=$(stub_refs)
		check "$cc, stand-in with $bad: no reference kept ($refs)" \
			test "$refs" = 0
		wait $conn_pid
		rc=$?
		check "$cc, stand-in with $bad: the transfer completed without PLB (rc $rc)" \
			test $rc -eq 0
		calls=$(stub_calls)
		check "$cc, stand-in with $bad: never called into ($calls calls)" \
			test "$calls" = 0
		said=$(dmesg | tail -n +$((mark + 1)) | grep -c "tcp_$cc: $MSG")
		check "$cc, stand-in with $bad: the refusal is logged once ($said)" \
			test "$said" = 1
	done
	dmesg | grep "tcp_$cc: $MSG" | tail -1 | sed 's/^/# /'

	# Positive control: the current interface is taken, and pins it.
	load_module "tcp_$cc"
	mark=$(dmesg | wc -l)
	unload_module plb_stub
	insmod "$STUB"
	conn $cc
	refs=$(stub_refs)
	check "$cc, stand-in with the current interface: pinned ($refs references)" \
		test "$refs" -gt 0
	check "$cc: rmmod of the stand-in while a connection uses it is refused" \
		rmmod_refused plb_stub
	wait $conn_pid
	rc=$?
	check "$cc: the transfer completed (rc $rc)" test $rc -eq 0
	calls=$(stub_calls)
	check "$cc, current interface: called ($calls calls)" test "$calls" -gt 0
	said=$(dmesg | tail -n +$((mark + 1)) | grep -c "$MSG")
	check "$cc, current interface: no refusal logged ($said)" test "$said" = 0
	check "$cc: the stand-in unloads after the connection closed" \
		unload_module plb_stub
done

# The real tcp_plb: rmmod refused while a swift connection holds it.
load_module tcp_plb || skip "tcp_plb.ko not built"
load_module tcp_swift
conn swift
refs=$(cat /sys/module/tcp_plb/refcnt)
check "tcp_plb: pinned by the swift connection ($refs references)" \
	test "$refs" -gt 0
check "tcp_plb: rmmod while a swift connection uses it is refused" \
	rmmod_refused tcp_plb
check "tcp_plb: the connection survives it" kill -0 $conn_pid
wait $conn_pid
rc=$?
check "tcp_plb: the transfer completed (rc $rc)" test $rc -eq 0
said=$(dmesg | grep -c "$MSG")
log "refusals logged in this boot: $said"

ip netns del $NS
check "tcp_plb unloads after the connection closed" unload_module tcp_plb
check "tcp_swift unloads" unload_module tcp_swift
check "tcp_timely unloads" unload_module tcp_timely
finish
