#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ksft_run.sh BASE TEST...: the kernel's kselftest runner (BASE/kselftest/
# runner.sh, as lib.mk calls it) over BASE/dcc/TEST..., with each test's
# guest-clock seconds on a TAP comment line after its result:
#   ok 3 selftests: dcc: swift_fair.sh
#   # swift_fair.sh: 212 s
# In the test VM the clock is virtual, so the figure does not depend on the
# host's load.
base=$1
shift
cd "$base/dcc" || exit 2
# shellcheck disable=SC2034 # read by runner.sh
BASE_DIR=$base
# shellcheck source=/dev/null
. "$base/kselftest/runner.sh" || exit 2
eval "ksft_$(declare -f run_one)"
run_one() {
	local t0 rc

	t0=$(date +%s)
	ksft_run_one "$@"
	rc=$?
	echo "# ${2##*/}: $(($(date +%s) - t0)) s"
	return $rc
}
run_many "$@"
