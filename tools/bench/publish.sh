#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Put a benchmark run's tables and plots into the documentation:
#   tools/bench/publish.sh bench-results/<run>
# rebuilds the report (so that it carries the run's wall-clock time), then
# copies results.rst to Documentation/results.rst and the plots it shows
# to Documentation/results/.
set -euo pipefail
cd "$(dirname "$0")/../.."
run=${1:?usage: tools/bench/publish.sh RESULTS_DIR}
tools/bench/report.py "$run" >/dev/null
mkdir -p Documentation/results
# Only the bench's own plots (sN_*.png): sim_*.png are make sim-figures'.
rm -f Documentation/results/s[0-9]*.png
for png in $(sed -n 's|^\.\. image:: results/||p' "$run/results.rst"); do
	cp "$run/$png" Documentation/results/
done
# The simulator's section (from its marker comment to the end) holds
# make sim-figures' measurements, not the bench's: it is kept.
sim=$(sed -n '/^\.\. sim-results:/,$p' Documentation/results.rst 2>/dev/null || true)
cp "$run/results.rst" Documentation/results.rst
if [ -n "$sim" ]; then
	printf '\n%s\n' "$sim" >> Documentation/results.rst
fi
echo "publish: Documentation/results.rst and $(ls Documentation/results/s[0-9]*.png | wc -l) plots from $run"
