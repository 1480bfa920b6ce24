#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make -C sim figures: the datacenter-scale scenarios of
# Documentation/simulation.rst, each a table (every cc on the same topology
# and seed) and a plot (plot.py).  Tables and plot data in $OUT.
# Sizes are set for minutes on a shared 2-core machine; each is a variable:
#   FCT_MS   open-loop arrival window (ms), fat-tree k=4, 10 Gbit/s
#   LOADS    open-loop loads (%)
#   INCASTS  incast fan-ins at 100 Gbit/s
#   Q95_MS   95 %-load arrival window at 10 Gbit/s (100 Gbit/s: a tenth,
#            rounded up to whole ms)
#   PLB_SEEDS  seeds (ECMP hash salts) of the fat-tree PLB off/on runs
#   PLB_MS   their simulated time
#   JL_STEP  joinleave: ms between one flow joining (or leaving) and the next
#   SCEN     which scenarios: fct incast q95 plb jl
set -euo pipefail
cd "$(dirname "$0")"
SIM=build/dccsim
OUT=${OUT:-out}
FCT_MS=${FCT_MS:-10}
LOADS=${LOADS:-30 50 70}
INCASTS=${INCASTS:-10 100 1000}
Q95_MS=${Q95_MS:-5}
PLB_SEEDS=${PLB_SEEDS:-1 2 3 4 5}
PLB_MS=${PLB_MS:-10}
JL_STEP=${JL_STEP:-5}
SCEN=${SCEN:-fct incast q95 plb jl}
CCS=${CCS:-swift,timely,dcqcn,dctcp,cubic,bbr}
mkdir -p "$OUT"
t0=$(date +%s)
for s in $SCEN; do
	case $s in
	fct)
		for l in $LOADS; do
			echo "== fat-tree k=4, 10 Gbit/s, web search at $l % load, $FCT_MS ms of arrivals"
			$SIM --topo=fattree --k=4 --workload=open --cdf=websearch --load="$l" \
				--duration="$FCT_MS" --cc="$CCS" --dump="$OUT/fct-$l" | tee "$OUT/fct-$l.txt"
		done ;;
	incast)
		for n in $INCASTS; do
			echo "== 100 Gbit/s dumbbell, $n:1 incast of 64 KB, 2000-packet ports"
			$SIM --topo=dumbbell --workload=incast --rate=100 --buffer=2000 --hosts="$n" \
				--incast-kb=64 --cc="$CCS" | tee "$OUT/incast-$n.txt"
		done ;;
	q95)
		for r in 10 100; do
			ms=$((r == 100 ? (Q95_MS + 9) / 10 : Q95_MS))
			echo "== fat-tree k=4, $r Gbit/s, web search at 95 % load, $ms ms of arrivals"
			$SIM --topo=fattree --k=4 --workload=open --cdf=websearch --load=95 --rate="$r" \
				--buffer=$((r == 100 ? 2000 : 600)) --duration="$ms" --cc="$CCS" \
				--dump="$OUT/q95-$r" | tee "$OUT/q95-$r.txt"
		done ;;
	plb)
		# ECMP collisions: 8 swift flows on a k=4 fat-tree (two per pod,
		# each to the host half the tree away), half the core's capacity:
		# a collision-free placement exists, the hash finds it or not.
		echo "== fat-tree k=4, 10 Gbit/s, 8 swift flows, $PLB_MS ms, PLB off and on"
		for seed in $PLB_SEEDS; do
			for plb in off on; do
				echo "# seed $seed PLB $plb"
				$SIM -q --topo=fattree --k=4 --hosts=8 --duration="$PLB_MS" --cc=swift \
					--seed="$seed" --plb=$plb
			done
		done | tee "$OUT/plb-fattree8.txt" ;;
	jl)
		echo "== 10 Gbit/s dumbbell, 4 flows joining and leaving $JL_STEP ms apart"
		$SIM --topo=dumbbell --workload=joinleave --hosts=4 --step="$JL_STEP" \
			--cc="$CCS,timely-patched" --dump="$OUT/jl" | tee "$OUT/joinleave.txt" ;;
	*) echo "figures.sh: unknown scenario $s (fct incast q95 plb jl)" >&2; exit 2 ;;
	esac
done
echo "sim: figure scenarios in $(( $(date +%s) - t0 )) s of wall time"
if /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
	/usr/bin/python3 plot.py "$OUT"
else
	echo "sim: no matplotlib for /usr/bin/python3: tables only (tools/deps.sh installs it)"
fi
