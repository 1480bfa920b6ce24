#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/bench/merge.py's checks on a finished bench run (make check runs it
# on the smoke run): two shards made from RUN (its scenario 1, and the same
# measurements filed as scenario 2, whose raw data have the same form)
# merge into tables equal to RUN's own; a shard overlapping another, or
# built from another tree (unless --mixed-trees, and then not with other
# modules), is refused.
#   tools/bench/merge-test.sh RUN
set -euo pipefail
run=${1:?usage: tools/bench/merge-test.sh RUN (a bench run of scenario 1)}
here=$(cd "$(dirname "$0")" && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() { echo "merge-test: $*" >&2; exit 1; }

cp -r "$run" "$t/a"
grep -q '^BENCH_SCENARIOS="1"$' "$t/a/params.env" ||
	fail "$run is not a run of scenario 1 alone"
cp -r "$run" "$t/b"
sed -i 's/^BENCH_SCENARIOS=.*/BENCH_SCENARIOS="2"/' "$t/b/params.env"
sed -i 's/^s1_secs=/s2_secs=/' "$t/b/guest.txt"
mv "$t/b/raw/s1" "$t/b/raw/s2"

"$here/merge.py" "$t/m" "$t/a" "$t/b" >/dev/null
cmp -s "$t/m/s1.tsv" "$run/s1.tsv" || fail "scenario 1's table changed"
[ -s "$t/m/s2.tsv" ] || fail "no scenario 2 table"
grep -q "2 VM boots" "$t/m/results.rst" || fail "the report does not say 2 boots"

if "$here/merge.py" "$t/x" "$t/a" "$t/a" 2>"$t/err"; then
	fail "overlapping shards merged"
fi
grep -q "scenario 1 is in" "$t/err" || fail "overlap: $(cat "$t/err")"
sed -i 's/^tree: .*/tree: 0000000/' "$t/b/run.txt"
if "$here/merge.py" "$t/y" "$t/a" "$t/b" 2>"$t/err"; then
	fail "shards of two trees merged"
fi
grep -q "differ in run.txt tree" "$t/err" || fail "tree: $(cat "$t/err")"
"$here/merge.py" --mixed-trees "$t/z" "$t/a" "$t/b" >/dev/null
grep -q "^tree: .*(scenario 1), 0000000 (scenario 2)$" "$t/z/run.txt" ||
	fail "--mixed-trees: $(grep '^tree' "$t/z/run.txt")"
sed -i 's/^module: tcp_swift.ko .*/module: tcp_swift.ko 0/' "$t/b/run.txt"
if "$here/merge.py" --mixed-trees "$t/w" "$t/a" "$t/b" 2>"$t/err"; then
	fail "shards of two builds of a module merged"
fi
echo "merge-test: ok"
