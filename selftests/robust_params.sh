#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Bad input, for every module in the tree and every one of its parameters
# (as listed in /sys/module/MOD/parameters, so new ones are covered):
# non-numeric, empty, negative, huge, 32-bit-wrapping and out-of-range
# writes are refused with a message naming the parameter and the value is
# kept; loading with a bad value of any parameter fails cleanly.  The
# valid ranges come from the modules' own messages (dcc_param.h).
# Checks between two parameters (a lower against an upper bound) judge
# the final load-time combination, whatever the order the values come in.
. "$(dirname "$0")/lib.sh"
require_root

mods=$(dcc_modules)
[ -n "$mods" ] || skip "no module built"
for mod in $mods; do
	if ! load_module "$mod"; then
		check "$mod loads" false
		continue
	fi
	check_params_readable "$mod"
	check_params_bad_input "$mod"
	check_load_bad_params "$mod"
	check "$mod is not loaded afterwards" \
		sh -c "! grep -q '^$mod ' /proc/modules"
done

# Cross-parameter checks at load time: order-independent, and a final
# inconsistent pair is refused with a message naming both.
if grep -qx tcp_swift <<< "$mods"; then
	check_load_cross tcp_swift "min_cwnd_mpkt=300000 max_cwnd_pkts=512" \
		"max_cwnd_pkts=512 min_cwnd_mpkt=600000" \
		"min_cwnd_mpkt (600000) must not exceed max_cwnd_pkts (512) * 1000"
	check_load_cross tcp_swift "fs_min_cwnd_mpkt=300000 fs_max_cwnd_pkts=512" \
		"fs_min_cwnd_mpkt=300000 fs_max_cwnd_pkts=300" \
		"fs_min_cwnd_mpkt (300000) must be below fs_max_cwnd_pkts (300) * 1000"
fi
if grep -qx tcp_timely <<< "$mods"; then
	check_load_cross tcp_timely "t_low_us=1000 t_high_us=3000" \
		"t_high_us=3000 t_low_us=4000" \
		"t_low_us (4000) must be below t_high_us (3000)"
	check_load_cross tcp_timely "max_rate_mbps=20000 line_rate_mbps=40000" \
		"line_rate_mbps=100 max_rate_mbps=200" \
		"max_rate_mbps (200) must not exceed line_rate_mbps (100)"
fi
if grep -qx tcp_dcqcn <<< "$mods"; then
	check_load_cross tcp_dcqcn "min_rate_kbps=20000 line_rate_mbps=100" \
		"line_rate_mbps=10 min_rate_kbps=20000" \
		"min_rate_kbps (20000) must not exceed line_rate_mbps (10 Mbit/s)"
fi
finish
