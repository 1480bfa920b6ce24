#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Per-ACK cost of the algorithm cores: instructions per update, counted by
# callgrind (a repeatable count, not a timing) on tools/bench/ackcost.c
# built as the kernel builds (gcc -O2).  Host only, no VM.
#
#   tools/bench/ackcost.sh [OUTDIR]     writes OUTDIR/ackcost.md and .tsv
#                                       (default: print the table)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-}
N=${ACKCOST_N:-100000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

command -v valgrind >/dev/null || { echo "ackcost: needs valgrind (make deps)" >&2; exit 1; }
${CC:-gcc} -std=gnu11 -O2 -Wall -Wextra -Werror -Iinclude \
	-o "$tmp/ackcost" tools/bench/ackcost.c

# case|function counted|what one call is
cases=(
	"swift|cost_swift|swift: swift_on_ack() (one ACK)"
	"swift_ack|cost_swift_ack|swift: all the core work of one ACK (delayed-ACK guess, floor, update, PLB sample, window, pacing rate)"
	"timely|cost_timely|timely (paper): timely_on_completion() (one update)"
	"timely_patched|cost_timely|timely (patched): timely_on_completion() (one update)"
	"timely_ack|cost_timely_ack|timely (patched): one ACK (engine RTT, byte count; an update every 16 KB completion)"
	"plb_ack|cost_plb_ack|plb: one ACK (count a sample and its length, end of round)"
	"plb_round|cost_plb_round|plb: one round end (update, repath check)"
)
[ -f include/dcc_dcqcn.h ] && cases+=(
	"dcqcn_ack|cost_dcqcn_ack|dcqcn: one ACK (ECE edge; cut on a fresh notification, else lazy timers and byte counter; ECE on 1 ACK in 20)"
	"dcqcn_cnp|cost_dcqcn_cnp|dcqcn: dcqcn_on_cnp() (one notification)"
)

tsv="case	instructions_per_call	calls	what"
md="| core | instructions per call | what one call is |
|---|---|---|"
for c in "${cases[@]}"; do
	IFS='|' read -r name fn what <<< "$c"
	valgrind --tool=callgrind --toggle-collect="$fn" \
		--callgrind-out-file="$tmp/cg.$name" \
		"$tmp/ackcost" "$name" "$N" >/dev/null 2>&1
	ir=$(awk '/^summary:/ { print $2 }' "$tmp/cg.$name")
	per=$(awk -v i="$ir" -v n="$N" 'BEGIN { printf "%.1f", i / n }')
	tsv="$tsv
$name	$per	$N	$what"
	md="$md
| $name | $per | $what |"
done
note="Instructions (callgrind Ir) per call, mean over $N calls on a synthetic
trace (tools/bench/ackcost.c), $(${CC:-gcc} --version | head -n 1), -O2, $(uname -m); the
cores only, without the glue's kernel work (socket fields, counters,
tracepoints, writing sk_pacing_rate).  Includes the call itself (about 5
instructions)."
if [ -n "$out" ]; then
	echo "$tsv" > "$out/ackcost.tsv"
	printf '### Per-ACK cost of the algorithm cores\n\n%s\n\n%s\n' "$md" \
		"$(echo "$note" | tr '\n' ' ')" > "$out/ackcost.md"
else
	echo "$md"
	echo
	echo "$note"
fi
