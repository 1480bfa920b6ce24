#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Bad input, for every module in the tree and every one of its parameters
# (as listed in /sys/module/MOD/parameters, so new ones are covered):
# non-numeric, empty, negative, huge, 32-bit-wrapping and out-of-range
# writes are refused with a message naming the parameter and the value is
# kept; loading with a bad value of any parameter fails cleanly.  The
# valid ranges come from the modules' own messages (dcc_param.h).
. "$(dirname "$0")/lib.sh"
require_root

mods=$(dcc_modules)
[ -n "$mods" ] || skip "no module built"
for mod in $mods; do
	# shellcheck disable=SC2046 # parameters are words
	if ! load_module "$mod" $(vm_params "$mod"); then
		check "$mod loads" false
		continue
	fi
	check_params_readable "$mod"
	check_params_bad_input "$mod"
	# shellcheck disable=SC2046
	check_load_bad_params "$mod" $(vm_params "$mod")
	check "$mod is not loaded afterwards" \
		sh -c "! grep -q '^$mod ' /proc/modules"
done
finish
