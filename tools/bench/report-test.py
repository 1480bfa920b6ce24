#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Checks of tools/bench/report.py's reading of scenario 4's sink log
(s4_logs(), s4_metrics()) on synthetic logs.  Ends with
"bench-report: N passed, N failed"."""

import importlib.util
import os
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("report",
                                              os.path.join(here, "report.py"))
report = importlib.util.module_from_spec(spec)
spec.loader.exec_module(report)

BIN_US = 250000
passed = failed = 0


def check(name, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
        print("ok: " + name)
    else:
        failed += 1
        print("FAIL: %s %s" % (name, detail))


def sink_log(flows, closes):
    """flows: {port: (first tick, last tick, bytes a tick)}, reports at
    every tick from first to last (the report at tick k is bin k's);
    closes: {port: (tick, ms after it, bytes)}, the closing report."""
    rows = []
    for port, (a, b, n) in flows.items():
        rows += [(1000000 + k * BIN_US, port, n) for k in range(a, b + 1)]
        if port in closes:
            k, ms, m = closes[port]
            rows.append((1000000 + k * BIN_US + int(ms * 1000), port, m))
    rows.sort()
    return "MARK cc 1\n" + "".join("%d %d %d\n" % r for r in rows)


def read(text):
    with tempfile.NamedTemporaryFile("w", suffix=".log") as f:
        f.write(text)
        f.flush()
        return report.s4_logs(f.name, 0.25)[("cc", 1)]


# Scenario 4's schedule as a sink logs it: flow 1 from tick 0, flow 2
# from tick 6, flow 3 from 13 to 18, all at the same rate.  Flow 1
# closes 0.7 ms after tick 24, before writing tick 24's report: its last
# bin's bytes come with the close and belong to the bin that ended at
# the tick.  Flows 2 and 3 close after their last tick's report.
n = 1500000
flows = read(sink_log({1: (0, 23, n), 2: (6, 24, n), 3: (13, 18, n)},
                      {1: (24, 0.7, n), 2: (24, 8.1, 1000),
                       3: (18, 31.4, 20000)}))
spans = [(f[0], f[1]) for f in flows]
check("a close just after a tick fills the bin that ended at it",
      spans == [(0, 24), (6, 25), (13, 19)], "spans %s" % spans)
check("... with the bin's bytes",
      abs(flows[0][2].get(24, 0) - n * 8 / 0.25 / 1e6) < 1e-9,
      str(flows[0][2].get(24)))
m = report.s4_metrics(100, flows, 0.25, 1.0, 0.9)
check("equal flows read equal after every change (no flow read at 0)",
      abs(m["jain"] - 1.0) < 1e-9, "jain %s" % m["jain"])

# A close 8 ms after a tick whose report was written: the close's few
# bytes are the next bin's (the flow's last, partial, bin).
flows = read(sink_log({1: (0, 24, n)}, {1: (24, 8.1, 1000)}))
check("a close after the tick's own report starts the next bin",
      (flows[0][0], flows[0][1]) == (0, 25) and
      abs(flows[0][2][25] - 1000 * 8 / 0.25 / 1e6) < 1e-9,
      str((flows[0][0], flows[0][1])))

# A flow that received nothing in bin 10 has no report at tick 10 (the
# sink writes only flows with data); its report at tick 11 is bin 11's,
# and bin 10 reads 0, as every later report stays in its own bin.
rows = sink_log({1: (0, 9, n), 2: (0, 24, n)}, {})
rows += "".join("%d 1 %d\n" % (1000000 + k * BIN_US, n)
                for k in range(11, 25))
flows = read(rows)
f1 = [f for f in flows if 11 in f[2]][0]
check("a starved bin stays at 0 and later reports keep their bins",
      10 not in f1[2] and sorted(f1[2]) == list(range(0, 10)) +
      list(range(11, 25)), str(sorted(f1[2])))

print("bench-report: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
