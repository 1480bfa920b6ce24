#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Rewrite selftests/durations from a VM run's log, so that
# selftests/vm_run.sh orders its queue by what the tests take now:
#   tools/durations.sh LOG [LABEL]
# LOG: a run's selftests.log (tools/check.sh keeps it in its logs
# directory; the "# TEST: N s" lines ksft_run.sh writes after each result,
# the test's virtual seconds).  LABEL names the run in the header.
# Only the virtual-clock VMs' lines are read (the "# VM N of M" sections);
# a test missing from LOG keeps its old figure.
set -eu
log=${1:?usage: tools/durations.sh LOG [LABEL]}
label=${2:-$(basename "$log")}
cd "$(dirname "$0")/.."
out=selftests/durations
new=$(awk '/^# VM on the host/ { exit }
	   /^# VM [0-9]+ of / { vm = 1 }
	   vm && /^# [a-z0-9_]+\.sh: [0-9]+ s$/ { sub(":", "", $2); print $2, $3 }' "$log")
[ -n "$new" ] || { echo "durations: no '# TEST: N s' lines in $log" >&2; exit 1; }
{
	echo "# Virtual seconds each selftest takes in the VM ($label), for"
	echo "# selftests/vm_run.sh to order its queue (longest first); a test not listed counts 30."
	echo "# Made by tools/durations.sh."
	{ echo "$new"; grep -v '^#' "$out"; } | awk '!seen[$1]++' | sort
} > "$out.tmp"
mv "$out.tmp" "$out"
echo "durations: $(echo "$new" | wc -l) tests from $log"
