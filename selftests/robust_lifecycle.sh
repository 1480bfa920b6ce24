#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Module lifecycle, for every congestion control module in the tree:
#  - rmmod while a connection uses the module is refused (the connection
#    carries on and completes byte-exact), and succeeds once it closed;
#  - a namespace default (net.ipv4.tcp_congestion_control) pins the
#    module too; switching the default while connections are open leaves
#    them on the module and puts new ones on the new default;
#  - load / use / unload cycles while other traffic runs (which completes
#    byte-exact);
#  - tcp_plb: rmmod refused while connections of a module using it are
#    open.
# ROBUST_LONG=1: 10 cycles instead of 2.
. "$(dirname "$0")/lib.sh"
require_root

CYCLES=1
[ "$ROBUST_LONG" = 1 ] && CYCLES=10
MB=1000000
TMO=90
tmp=$(mktemp -d)

# shellcheck disable=SC2207
CCS=($(load_dcc_modules)) || { check "load the modules" false; finish; }
[ ${#CCS[@]} -gt 0 ] || skip "no congestion control module built"

topo_dumbbell
# 20 Mbit/s; transfers that must be open while something happens pause.
in_rtr tc qdisc replace dev rs0 root netem rate 20mbit limit 1000
in_rtr tc qdisc replace dev rc0 root netem delay 250us limit 10000

# reload MOD: load MOD with its test-bed parameters, allow its CC.
reload() {
	load_module "$1" && allow_cc "${1#tcp_}"
}

port=9000
for cc in "${CCS[@]}"; do
	mod=tcp_$cc

	# In use by a connection.
	port=$((port + 1))
	# (idle 2 s after 300 KB: surely open when rmmod runs)
	xfer_start "$tmp" "inuse.$cc" "$cc" "$SRV_IP" $port $MB 1 $TMO \
		"-i 300000:1500"
	wait_conn $port
	check "$cc: rmmod while a connection uses it is refused (in use)" \
		rmmod_refused "$mod"
	check "$cc: still registered" \
		grep -qw "$cc" /proc/sys/net/ipv4/tcp_available_congestion_control
	xfer_wait "$tmp" "inuse.$cc"
	check "$cc: the connection completed byte-exact" \
		xfer_verify "$tmp" "inuse.$cc" "$cc"
	check "$cc: unloads once the connection closed" unload_module "$mod"
	check "$cc: reloads" reload "$mod"

	# Pinned by a namespace default; switching it with connections open.
	in_cli sysctl -qw net.ipv4.tcp_congestion_control="$cc"
	check "$cc: rmmod while it is a namespace's default is refused" \
		rmmod_refused "$mod"
	port=$((port + 1))
	XFER_SENDER_CC="" xfer_start "$tmp" "dflt.$cc" "$cc" "$SRV_IP" $port \
		$MB 2 $TMO "-i 300000:3000"
	wait_conn $port
	in_cli sysctl -qw net.ipv4.tcp_congestion_control=cubic
	port=$((port + 1))
	XFER_SENDER_CC="" xfer_start "$tmp" "dflt-cubic.$cc" cubic "$SRV_IP" \
		$port $MB 3 $TMO
	check "$cc: rmmod while the open connection uses it is refused" \
		rmmod_refused "$mod"
	xfer_wait "$tmp" "dflt.$cc"
	xfer_wait "$tmp" "dflt-cubic.$cc"
	check "$cc: the connection opened before the switch stays on $cc, byte-exact" \
		xfer_verify "$tmp" "dflt.$cc" "$cc"
	check "$cc: the one opened after it uses cubic, byte-exact" \
		xfer_verify "$tmp" "dflt-cubic.$cc" cubic
	check "$cc: unloads after the switch and the close" unload_module "$mod"

	# Load / use / unload cycles while a cubic transfer runs.
	port=$((port + 1))
	# (application limited at 800 KB/s, so it lasts as long as the cycles)
	xfer_start "$tmp" "bg.$cc" cubic "$SRV_IP" $port \
		$((CYCLES * 2 * MB)) 4 $((TMO + CYCLES * 10)) "-a 16384:20000"
	wait_conn $port
	ok=0
	for i in $(seq $CYCLES); do
		port=$((port + 1))
		reload "$mod" || break
		xfer_start "$tmp" "cycle$i.$cc" "$cc" "$SRV_IP" $port $MB \
			$((10 + i)) $TMO
		xfer_wait "$tmp" "cycle$i.$cc"
		xfer_verify "$tmp" "cycle$i.$cc" "$cc" || break
		unload_module "$mod" || break
		ok=$i
	done
	check "$cc: $ok of $CYCLES load / transfer / unload cycles under traffic" \
		test "$ok" = "$CYCLES"
	xfer_wait "$tmp" "bg.$cc"
	check "$cc: the transfer running meanwhile completed byte-exact" \
		xfer_verify "$tmp" "bg.$cc" cubic
	reload "$mod"
done

# tcp_plb is pinned by the connections of the modules that use it (swift
# and timely; dcqcn does not): rmmod is refused while one is open.
if grep -q '^tcp_plb ' /proc/modules; then
	users=0
	for cc in "${CCS[@]}"; do
		port=$((port + 1))
		xfer_start "$tmp" "plb.$cc" "$cc" "$SRV_IP" $port $MB 5 $TMO \
			"-i 300000:1000"
		wait_conn $port
		refs=$(cat /sys/module/tcp_plb/refcnt)
		if [ "$refs" -gt 0 ]; then
			users=$((users + 1))
			check "tcp_plb: rmmod while a $cc connection uses it ($refs references) is refused" \
				rmmod_refused tcp_plb
		else
			log "$cc does not use tcp_plb"
		fi
		xfer_wait "$tmp" "plb.$cc"
		check "tcp_plb: the $cc connection completed byte-exact" \
			xfer_verify "$tmp" "plb.$cc" "$cc"
	done
	check "tcp_plb: some module uses it ($users)" test "$users" -gt 0
	check "tcp_plb: unloads once they closed" unload_module tcp_plb
fi

topo_cleanup
rm -rf "$tmp"
check "modules unload afterwards" unload_dcc_modules
finish
