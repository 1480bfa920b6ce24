#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run test programs the way the kernel's kselftest runner does: TAP 13,
# one result per program, exit 0 = pass, 4 = skip, anything else = fail,
# each program under the per-test timeout from ./settings (timeout=N;
# KSFT_TIMEOUT=N overrides it).
# Prints "selftests: N passed, N failed, N skipped" last; exit 1 on a failure.
set -u
cd "$(dirname "$0")" || exit 1

timeout_s=45
[ -f settings ] && timeout_s=$(sed -n 's/^timeout=//p' settings)
timeout_s=${KSFT_TIMEOUT:-$timeout_s}	# long variants need more

tests=("$@")
pass=0 fail=0 skip=0 n=0
echo "TAP version 13"
echo "1..${#tests[@]}"
for t in "${tests[@]}"; do
	n=$((n + 1))
	echo "# selftests: dcc: $t"
	start=$(date +%s)
	timeout --foreground -k 10 "$timeout_s" "./$t" 2>&1 | sed -u 's/^/# /'
	rc=${PIPESTATUS[0]}
	took=$(($(date +%s) - start))
	case $rc in
	0) echo "ok $n selftests: dcc: $t # ${took}s"; pass=$((pass + 1)) ;;
	4) echo "ok $n selftests: dcc: $t # SKIP"; skip=$((skip + 1)) ;;
	124) echo "not ok $n selftests: dcc: $t # TIMEOUT ${timeout_s} seconds"
	     fail=$((fail + 1)) ;;
	*) echo "not ok $n selftests: dcc: $t # exit=$rc"; fail=$((fail + 1)) ;;
	esac
done
echo "selftests: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
