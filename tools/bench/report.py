#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Turn a benchmark run's raw measurements into tables and plots.

    tools/bench/report.py OUT           write OUT/sN.md, OUT/sN.tsv, OUT/*.png,
                                        OUT/results.rst
    tools/bench/report.py --check OUT   check those files are there and well
                                        formed (the smoke test of make check)

OUT is a results directory of tools/bench/bench.sh (raw/ from the guest,
params.env, run.txt, guest.txt).  Every table has one row per congestion
control; each figure is the median over the repeats with the range
(min-max) beside it; "x best stock" columns divide the median by the best
median among the stock congestion controls (best = highest goodput, lowest
delay).  Targets of the issue are reported (met / missed), not asserted.
Plots: matplotlib (Debian's python3-matplotlib, tools/deps.sh, hence
/usr/bin/python3), Agg backend: no display needed.
"""
import glob
import json
import math
import os
import re
import statistics
import sys

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker
except ImportError:
    plt = None

STOCK_ALL = ("cubic", "reno", "dctcp", "vegas", "nv", "cdg", "bbr", "htcp",
             "illinois", "westwood", "highspeed")
NAN = float("nan")


def isnan(x):
    return isinstance(x, float) and math.isnan(x)


def read_kv_file(path, sep="="):
    d = {}
    if not os.path.exists(path):
        return d
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if sep in line:
                k, v = line.split(sep, 1)
                d[k.strip()] = v.strip().strip('"')
    return d


def kv_line(s):
    """'a=1 b=2' -> {'a': '1', 'b': '2'}"""
    return dict(t.split("=", 1) for t in s.split() if "=" in t)


def percentile(vals, p):
    """Nearest rank, as selftests/lib.sh's percentile."""
    v = sorted(vals)
    if not v:
        return NAN
    i = int(len(v) * p / 100 + 0.999999)
    return v[min(max(i, 1), len(v)) - 1]


def med(vals):
    v = [x for x in vals if not isnan(x)]
    return statistics.median(v) if v else NAN


def read_nums(path):
    try:
        with open(path) as f:
            return [float(x) for x in f.read().split()]
    except OSError:
        return []


def read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def fmt(x, nd=1):
    if x is None or isnan(x):
        return "n/a"
    if nd == 0:
        return "%d" % round(x)
    return "%.*f" % (nd, x)


class Col:
    """A table column: metric key, heading, decimals, which way is better
    (for the ratio to the best stock peer), whether to show that ratio."""

    def __init__(self, key, head, nd=1, better=None, ratio=False):
        self.key, self.head, self.nd = key, head, nd
        self.better, self.ratio = better, ratio


class Table:
    def __init__(self, name, title, ccs, runs, cols):
        self.name, self.title, self.ccs, self.cols = name, title, ccs, cols
        self.runs = runs          # runs[cc] = [ {key: value}, ... ]
        self.notes = []
        self.targets = {}         # targets[cc] = "met" / "missed: ..."

    def values(self, cc, key):
        return [r.get(key, NAN) for r in self.runs.get(cc, [])]

    def stat(self, cc, key):
        v = [x for x in self.values(cc, key) if not isnan(x)]
        if not v:
            return NAN, NAN, NAN
        return statistics.median(v), min(v), max(v)

    def best_stock(self, col):
        best, who = NAN, None
        for cc in self.ccs:
            if cc.split("+")[0] not in STOCK_ALL:
                continue
            m = self.stat(cc, col.key)[0]
            if isnan(m):
                continue
            if isnan(best) or (m > best if col.better == "high" else m < best):
                best, who = m, cc
        return best, who

    def ratio(self, cc, col):
        best, _ = self.best_stock(col)
        m = self.stat(cc, col.key)[0]
        if isnan(best) or isnan(m) or best == 0:
            return NAN
        return m / best

    def nruns(self, cc):
        return len(self.runs.get(cc, []))

    # --- output ---------------------------------------------------------

    def tsv(self):
        head = ["cc", "runs"]
        for c in self.cols:
            head += [c.key + "_median", c.key + "_min", c.key + "_max"]
            if c.ratio:
                head.append(c.key + "_x_best_stock")
        head.append("target")
        lines = ["\t".join(head)]
        for cc in self.ccs:
            row = [cc, str(self.nruns(cc))]
            for c in self.cols:
                row += [fmt(x, max(c.nd, 1) if c.nd else 0)
                        for x in self.stat(cc, c.key)]
                if c.ratio:
                    row.append(fmt(self.ratio(cc, c), 2))
            row.append(self.targets.get(cc, "-"))
            lines.append("\t".join(row))
        return "\n".join(lines) + "\n"

    def cells(self):
        """Heading and rows of strings, for Markdown and reST."""
        head = ["cc"]
        for c in self.cols:
            head.append(c.head)
            if c.ratio:
                head.append("x best stock")
        has_t = bool(self.targets)
        if has_t:
            head.append("target")
        rows = []
        for cc in self.ccs:
            row = [cc]
            for c in self.cols:
                m, lo, hi = self.stat(cc, c.key)
                s = fmt(m, c.nd)
                if self.nruns(cc) > 1 and not isnan(m):
                    s += " (%s-%s)" % (fmt(lo, c.nd), fmt(hi, c.nd))
                row.append(s)
                if c.ratio:
                    row.append(fmt(self.ratio(cc, c), 2))
            if has_t:
                row.append(self.targets.get(cc, "-"))
            rows.append(row)
        return head, rows

    def markdown(self):
        head, rows = self.cells()
        out = ["### " + self.title, ""]
        out.append("| " + " | ".join(head) + " |")
        out.append("|" + "|".join("---" for _ in head) + "|")
        for r in rows:
            out.append("| " + " | ".join(r) + " |")
        out.append("")
        for n in self.notes:
            out.append("- " + n)
        return "\n".join(out) + "\n"

    def rst(self):
        head, rows = self.cells()
        out = [".. csv-table:: " + self.title, "   :header-rows: 1",
               "   :delim: |", ""]
        for r in [head] + rows:
            out.append("   " + "|".join('"%s"' % x.replace('"', "'")
                                         for x in r))
        out.append("")
        for n in self.notes:
            out.append("* " + n.replace("*", "\\*"))
        return "\n".join(out) + "\n"


# --- shared measures ---------------------------------------------------------

def jain(xs):
    s, q = sum(xs), sum(x * x for x in xs)
    return s * s / (len(xs) * q) if q > 0 else NAN


def per_flow(j):
    """Jain's index of the flows' goodputs and the slowest one's share
    of the mean, from an iperf3 -P result (receiver side)."""
    xs = [st.get("receiver", {}).get("bits_per_second", NAN)
          for st in j.get("end", {}).get("streams", [])]
    xs = [x for x in xs if not isnan(x)]
    if not xs or sum(xs) <= 0:
        return NAN, NAN
    return jain(xs), min(xs) / (sum(xs) / len(xs))


def receiver_intervals(j):
    """An iperf3 run's intervals at the receiver (--get-server-output),
    else the sender's."""
    j = j or {}
    return (j.get("server_output_json") or {}).get("intervals") or \
        j.get("intervals", [])


def tail_mbps(j, secs, last):
    """Mean goodput, Mbit/s, over the last `last` of `secs` seconds of an
    iperf3 run: the receiver's intervals (--get-server-output; the
    sender's count bytes written into its socket buffer, not delivered),
    else the sender's."""
    v = [i["sum"]["bits_per_second"] / 1e6 for i in receiver_intervals(j)
         if i["sum"]["start"] >= secs - last - 0.01]
    return sum(v) / len(v) if v else NAN


def verdict(t, cc, misses):
    """Record cc's target as met, or missed with the failed checks."""
    miss = [m for ok, m in misses if not ok]
    t.targets[cc] = "met" if not miss else "missed: " + "; ".join(miss)


def ours(t, *names):
    return [cc for cc in t.ccs if cc in names]


# --- the run ---------------------------------------------------------------

class Bench:
    """One results directory: its settings (params.env), what the guest
    recorded (guest.txt), the raw measurements, and the tables and plots
    made from them."""

    def __init__(self, out):
        self.out = out
        self.raw = os.path.join(out, "raw")
        self.P = read_kv_file(os.path.join(out, "params.env"))
        self.G = read_kv_file(os.path.join(out, "guest.txt"))
        self.shards = int(read_kv_file(os.path.join(out, "run.txt"),
                                       sep=": ").get("shards", "1"))
        self.nruns = int(self.P.get("BENCH_RUNS", "1"))
        self.ccs = self.G.get("ccs", "").split()
        self.rate = float(self.P.get("BENCH_RATE", "100"))
        self.tables = []
        self.plots = {}           # table name -> [png file names]
        self.warned = False       # no matplotlib, said once

    def p(self, k):
        return self.P[k]

    def scen_dir(self, tag):
        """raw/TAG, or None when the run did not record that scenario."""
        d = os.path.join(self.raw, tag)
        return d if os.path.isdir(d) else None

    def two_flow_runs(self, d, rows, sides, secs, last):
        """{row: [{side: Mbit/s, "util": %, "jain": index}, ...]} of two-flow
        runs recorded as d/ROW.RUN.SIDE.json, over each run's last seconds."""
        runs = {}
        for row in rows:
            runs[row] = []
            for r in range(1, self.nruns + 1):
                x = [tail_mbps(read_json(os.path.join(
                    d, "%s.%d.%s.json" % (row, r, side))), secs, last)
                     for side in sides]
                if any(isnan(v) for v in x):
                    continue
                m = dict(zip(sides, x))
                m["util"] = 100.0 * sum(x) / self.rate
                m["jain"] = jain(x)
                runs[row].append(m)
        return runs

    def build(self):
        for s in SCENARIOS:
            for t in s.tables(self):
                self.tables.append(t)
                with open(os.path.join(self.out, t.name + ".md"), "w") as f:
                    f.write(t.markdown())
                with open(os.path.join(self.out, t.name + ".tsv"), "w") as f:
                    f.write(t.tsv())
        self.write_rst()

    def family_note(self):
        """The dumbbell's address family (BENCH_IP), one sentence."""
        if self.P.get("BENCH_IP", "4") != "6":
            return "The dumbbell carries IPv4.  "
        return ("The dumbbell carries IPv6 for every cc (the payload of a "
                "1500-byte packet is 20 bytes smaller than over IPv4) and its "
                "router fills IOAM traces (lib.sh topo_ioam), which hpcc's "
                "sockets insert (a 56-byte Hop-by-Hop header) and read "
                "(Documentation/hpcc.rst); the other ccs' packets carry none.  ")

    def header_lines(self):
        run = {}
        try:
            for line in open(os.path.join(self.out, "run.txt")):
                if ": " in line and not line.startswith(" "):
                    k, v = line.rstrip("\n").split(": ", 1)
                    run[k] = v
        except OSError:
            pass
        g = self.G
        lines = ["Command: ``%s``" % run.get("command", "make bench"),
                 "Started %s; tree %s; host %s; VM %s; guest kernel %s." % (
                     run.get("started", "?"), run.get("tree", "?"),
                     run.get("host", "?"), run.get("vm", "?"), g.get("kernel", "?"))]
        shards = self.shards
        if "wall_secs" in run:
            lines.append("Wall-clock time, build to report: %s s%s." % (
                run["wall_secs"], "" if shards == 1 else
                " (the longest of %d shards run side by side, "
                "tools/bench/merge.py)" % shards))
        if "vm_secs" in g:
            lines.append("VM time (guest uptime at the end, boot included%s): "
                         "%s s." % ("" if shards == 1 else
                                    ", summed over the shards' boots",
                                    g["vm_secs"]))
        secs = ["%s %s s" % (k[:-5], v) for k, v in
                sorted(g.items(), key=lambda kv: int(kv[0][1:-5])
                       if re.match(r"s\d+_secs$", kv[0]) else 0)
                if re.match(r"s\d+_secs$", k)]
        if secs:
            lines.append("VM time per scenario: " + ", ".join(secs) + ".")
        lines.append("Repeats: %d per measurement, interleaved across the "
                     "congestion controls; figures are medians with the range "
                     "(min-max) of the repeats in brackets." % self.nruns)
        for m in ("tcp_swift", "tcp_timely", "tcp_plb", "tcp_dcqcn",
                  "tcp_hpcc"):
            if m in g:
                lines.append("``%s`` parameters: ``%s``" % (m, g[m]))
        return lines

    def write_rst(self):
        title = "Benchmark results"
        out = [".. SPDX-License-Identifier: GPL-2.0", "",
               "=" * len(title), title, "=" * len(title), "",
               "The latest ``make bench`` run (tools/bench/, settings in "
               "``tools/bench/params.sh``): our congestion controls against the "
               "kernel's own, in %s on one emulated network.  Ratios "
               "(\"x best stock\") divide a median by the best median among the "
               "stock congestion controls (cubic, dctcp, vegas, nv, cdg, bbr): "
               "highest goodput, lowest delay.  The issue's targets are "
               "reported, not asserted." % (
                   "one VM boot" if self.shards == 1 else
                   "%d VM boots side by side, each running some of the "
                   "scenarios (tools/bench/merge.py)" % self.shards), "",
               "Test bed", "========", ""]
        for line in self.header_lines():
            out += [line, ""]
        clock = self.G.get("clock", "unknown")
        out += ["The test bed is a QEMU VM booting Debian's kernel, on a clock "
                "that counts instructions (virtual time, ``-icount "
                "shift=0,sleep=off``, one vCPU; this run: %s): timing inside "
                "the guest is deterministic and does not depend on the host's "
                "load (idle RTT p50 = p99 = 0.27 ms on the dumbbell).  Every "
                "module runs at its shipped defaults: what ``modprobe`` gives "
                "a user.  Senders and "
                "receivers run the congestion control of the row (the "
                "receivers' ECN echo matters to dctcp and dcqcn); ECN is "
                "negotiated by every connection (net.ipv4.tcp_ecn=1).  On the "
                "dumbbell (every scenario but 6) RPS keeps packets in order on the "
                "veths (lib.sh topo_keep_order), as a NIC queue would.  %s"
                "Jain's "
                "index and the slowest flow's share of the mean judge every "
                "flow, not only the sum." % (clock, self.family_note()), ""]
        for t in self.tables:
            out += [t.title, "-" * len(t.title), "", t.rst()]
            for png in self.plots.get(t.name, []):
                out += [".. image:: results/" + png, "   :width: 90%", ""]
        ack = os.path.join(self.out, "ackcost.tsv")
        if os.path.exists(ack):
            rows = [l.split("\t") for l in open(ack).read().splitlines()]
            title = "Per-ACK cost of the algorithm cores"
            out += [title, "-" * len(title), "",
                    ".. csv-table:: instructions per call (callgrind)",
                    "   :header-rows: 1", "   :delim: |", "",
                    '   "core"|"instructions per call"|"what one call is"']
            for r in rows[1:]:
                out.append('   "%s"|"%s"|"%s"' % (r[0], r[1], r[3]))
            note = ""
            try:
                md = open(os.path.join(self.out, "ackcost.md")).read()
                note = md.strip().splitlines()[-1]
            except OSError:
                pass
            out += ["", note, ""]
        with open(os.path.join(self.out, "results.rst"), "w") as f:
            f.write("\n".join(out))


# --- plots -----------------------------------------------------------------
#
# matplotlib, Agg backend (no display).  One colour per congestion control
# in the order of the table's rows; ours solid and thicker, the kernel's
# dashed.

COLORS = ("tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple",
          "tab:brown", "tab:pink", "tab:gray", "tab:olive", "tab:cyan")


def cc_style(i, cc):
    stock = cc.split("+")[0] in STOCK_ALL
    return {"color": COLORS[i % len(COLORS)],
            "linestyle": ("--" if stock else "-") if i < len(COLORS) else ":",
            "linewidth": 1.5 if stock else 2.2}


def new_figure(rep, size=(8, 4.8), rows=1, cols=1):
    """A figure and its axes, or (None, None) without matplotlib."""
    if plt is None:
        if not rep.warned:
            sys.stderr.write("report: no matplotlib (python3-matplotlib, "
                             "tools/deps.sh): no plots\n")
            rep.warned = True
        return None, None
    fig, ax = plt.subplots(rows, cols, figsize=size, squeeze=False)
    return fig, ax


def save_figure(rep, fig, table, png):
    fig.savefig(os.path.join(rep.out, png), dpi=100)
    plt.close(fig)
    rep.plots.setdefault(table, []).append(png)


def log_axis(axis):
    """Log scale ticked at 1, 2, 5 x 10^k, labelled in plain numbers."""
    axis.set_major_locator(matplotlib.ticker.LogLocator(subs=(1.0, 2.0, 5.0)))
    axis.set_major_formatter(matplotlib.ticker.FuncFormatter(
        lambda v, _: "%g" % v))


def legend_outside(fig, ax):
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=9,
              borderaxespad=0)
    fig.tight_layout()


def plot_rtt_cdf(rep, scen, title):
    """RTT probes of every run pooled, one CDF per cc (log time axis)."""
    d = os.path.join(rep.raw, scen)
    series = []
    for cc in rep.ccs:
        v = []
        for r in range(1, rep.nruns + 1):
            v += read_nums(os.path.join(d, "%s.%d.rtt" % (cc, r)))
        if v:
            series.append((cc, sorted(v)))
    if not series:
        return
    fig, ax = new_figure(rep)
    if fig is None:
        return
    ax = ax[0][0]
    for i, (cc, v) in enumerate(series):
        n = len(v)
        ax.step([max(x, 1) / 1000.0 for x in v],
                [(k + 1) / n for k in range(n)], where="post", label=cc,
                **cc_style(rep.ccs.index(cc), cc))
    ax.set_xscale("log")
    log_axis(ax.xaxis)
    ax.set_ylim(0, 1)
    ax.set_title("%s: RTT CDF (all runs pooled)" % title.split(":")[0])
    ax.set_xlabel("RTT (ms, log scale)")
    ax.set_ylabel("fraction of probes")
    ax.grid(True, which="both", alpha=0.3)
    legend_outside(fig, ax)
    save_figure(rep, fig, scen, scen + "_rtt_cdf.png")


def plot_tput(rep, scen, title):
    """Goodput of all flows together over time, run 1, one line per cc."""
    d = os.path.join(rep.raw, scen)
    series = []
    for cc in rep.ccs:
        j = read_json(os.path.join(d, "%s.1.json" % cc))
        if not j or "intervals" not in j:
            continue
        series.append((cc, [iv["sum"]["end"] for iv in j["intervals"]],
                       [iv["sum"]["bits_per_second"] / 1e6
                        for iv in j["intervals"]]))
    if not series:
        return
    fig, ax = new_figure(rep)
    if fig is None:
        return
    ax = ax[0][0]
    for cc, x, y in series:
        ax.plot(x, y, marker="o", markersize=3, label=cc,
                **cc_style(rep.ccs.index(cc), cc))
    ax.axhline(rep.rate, color="black", linestyle=":", linewidth=1,
               label="capacity")
    ax.set_ylim(0, rep.rate * 1.2)
    ax.set_title("%s: goodput over time, all flows (run 1, sender side)"
                 % title.split(":")[0])
    ax.set_xlabel("time (s)")
    ax.set_ylabel("Mbit/s")
    ax.grid(True, alpha=0.3)
    legend_outside(fig, ax)
    save_figure(rep, fig, scen, scen + "_tput.png")


def plot_incast(rep, t, ns):
    """Last flow's completion / ideal per cc and N: bars at the median of
    the runs, whiskers over their range."""
    fig, ax = new_figure(rep)
    if fig is None:
        return
    ax = ax[0][0]
    w = 0.8 / len(ns)
    for k, n in enumerate(ns):
        xs, ys, lo, hi = [], [], [], []
        for i, cc in enumerate(t.ccs):
            m, a, b = t.stat(cc, "last%d" % n)
            if isnan(m):
                continue
            xs.append(i - 0.4 + w * (k + 0.5))
            ys.append(m)
            lo.append(m - a)
            hi.append(b - m)
        ax.bar(xs, ys, width=w, color=COLORS[k % len(COLORS)], alpha=0.7,
               edgecolor="black", linewidth=0.5, label="N=%d" % n)
        ax.errorbar(xs, ys, yerr=[lo, hi], fmt="none", ecolor="black",
                    capsize=2, linewidth=1)
    ax.axhline(1.3, color="black", linestyle="--", linewidth=1,
               label="1.3 x ideal")
    ax.set_xticks(range(len(t.ccs)))
    ax.set_xticklabels(t.ccs, rotation=30, ha="right")
    ax.set_xlim(-0.6, len(t.ccs) - 0.4)
    ax.set_ylim(bottom=0)
    ax.set_title("%s, last flow completion / ideal\n(median of the runs, "
                 "bars: range)" % t.title.split(" through")[0])
    ax.set_ylabel("last completion / ideal")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(loc="upper left", fontsize=9)
    fig.tight_layout()
    save_figure(rep, fig, t.name, t.name + "_incast.png")


def plot_flows(rep, t, series, binw, png="s4_flows.png", labels=None):
    """Goodput of every flow over time (run 1, at the receiver), one
    panel per cc: series[cc] is [(first bin, last bin, {bin: Mbit/s})],
    one a flow (scenarios 4 and 9)."""
    ccs = [cc for cc in rep.ccs if cc in series]
    if not ccs:
        return
    cols = 2
    rows = (len(ccs) + cols - 1) // cols
    fig, axs = new_figure(rep, size=(9, 2.6 * rows), rows=rows, cols=cols)
    if fig is None:
        return
    for i, cc in enumerate(ccs):
        ax = axs[i // cols][i % cols]
        for k, (lo, hi, v) in enumerate(series[cc]):
            ax.plot([(b + 0.5) * binw for b in range(lo, hi + 1)],
                    [v.get(b, 0.0) for b in range(lo, hi + 1)],
                    linewidth=1.8, color=COLORS[k % len(COLORS)],
                    label=labels[k] if labels else "flow %d" % (k + 1))
        ax.set_title(cc, fontsize=10)
        ax.set_ylim(0, rep.rate * 1.1)
        ax.set_xlabel("time (s)")
        ax.set_ylabel("Mbit/s")
        ax.grid(True, alpha=0.3)
    for i in range(len(ccs), rows * cols):
        axs[i // cols][i % cols].set_visible(False)
    axs[0][0].legend(loc="upper right", fontsize=8)
    fig.suptitle("%s: goodput per flow over time (run 1, at the receiver)"
                 % t.title.split(":")[0])
    fig.tight_layout()
    save_figure(rep, fig, t.name, png)


def receiver_series(j):
    """(first bin, last bin, {bin: Mbit/s}) of an iperf3 run's receiver
    intervals (else the sender's), bins of the interval length."""
    iv = receiver_intervals(j)
    if not iv:
        return None
    w = iv[0]["sum"]["end"] - iv[0]["sum"]["start"]
    if w <= 0:
        return None
    v = {int(round(i["sum"]["start"] / w)): i["sum"]["bits_per_second"] / 1e6
         for i in iv}
    return (min(v), max(v), v), w


def plot_jitter(rep, t, js):
    """Goodput and RTT p99 against the jitter, one line per cc."""
    for metric, ylabel, logy in (("util", "goodput (% of the link)", False),
                                 ("p99_", "RTT p99 (ms, log scale)", True)):
        lines = []
        for i, cc in enumerate(t.ccs):
            pts = [(j, t.stat(cc, "%s%d" % (metric, j))[0]) for j in js]
            pts = [(j, v / 1000.0 if logy else v) for j, v in pts if not isnan(v)]
            if pts:
                lines.append((i, cc, pts))
        if not lines:
            continue
        fig, ax = new_figure(rep)
        if fig is None:
            return
        ax = ax[0][0]
        for i, cc, pts in lines:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o",
                    markersize=4, label=cc, **cc_style(i, cc))
        if logy:
            ax.set_yscale("log")
            log_axis(ax.yaxis)
        else:
            ax.set_ylim(0, 105)
        ax.set_title(t.title)
        ax.set_xlabel("jitter J (us, uniform +-J)")
        ax.set_ylabel(ylabel)
        ax.grid(True, which="both", alpha=0.3)
        legend_outside(fig, ax)
        save_figure(rep, fig, t.name, "%s_%s.png" % (t.name, metric.rstrip("_")))


# --- scenarios -------------------------------------------------------------
#
# One class per scenario kind; SCENARIOS (at the end) lists every scenario
# of tools/bench/scenarios.sh once, in report order.  A scenario's
# tables(rep) reads raw/sN/ and returns its tables ([] when the run did not
# record it), adding its plots to rep.plots.

def scenario_names():
    """{number: name} from BENCH_NAMES in params.sh (beside this file)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "params.sh")
    m = re.search(r'^BENCH_NAMES="([^"]*)"', open(path).read(), re.M)
    return {int(w.split(":")[0]): w.split(":")[1] for w in m.group(1).split()}


NAMES = scenario_names()


class Scenario:
    """num: the scenario's number (raw/sN/, sN.md, sN.tsv, the SN_*
    settings of params.sh); its name comes from params.sh's BENCH_NAMES.
    what: the title after "Scenario N (name): ", or a function of the run
    giving it."""

    def __init__(self, num, what, ecn=False, targets=None):
        self.num, self.what = num, what
        self.name = NAMES[num]
        self.tag = "s%d" % num
        self.key = self.tag.upper()
        # ecn: through the RED queue; targets(rep, table, ...) judges rows
        self.ecn, self.targets = ecn, targets

    def queue(self, rep):
        """The bottleneck's queue, from the SN_LIMIT / SN_RED_KB settings."""
        if not self.ecn:
            return "drop-tail FIFO of %s packets" % rep.p(self.key + "_LIMIT")
        return "RED queue marking ECN from %s KB (a step, %s packets of buffer)" % (
            rep.p(self.key + "_RED_KB"), rep.p(self.key + "_LIMIT"))

    def title(self, rep, sub=""):
        what = self.what(rep) if callable(self.what) else self.what
        return "Scenario %d%s (%s): %s" % (self.num, sub, self.name, what)

    def tables(self, rep):
        raise NotImplementedError


# 1, 2, 8, 10: long flows through one bottleneck queue ----------------------

def payload_ceiling(rep):
    """A full segment's payload in % of the bottleneck's rate: 1500-byte
    packets with TCP timestamps in 1514-byte frames as htb counts them
    (94.3 % over IPv6, 95.6 % over IPv4)."""
    ip = 40 if rep.P.get("BENCH_IP", "4") == "6" else 20
    return 100.0 * (1500 - ip - 32) / 1514


def hpcc_ceiling(rep):
    """hpcc's payload in % of the bottleneck's rate: a full segment with
    its 56-byte Hop-by-Hop header (Documentation/hpcc.rst) in a 1514-byte
    frame as htb counts it (IPv6 40, TCP 20 + 12 of timestamps)."""
    ip = 40 if rep.P.get("BENCH_IP", "4") == "6" else 20
    return 100.0 * (1500 - ip - 56 - 32) / 1514


def targets_s1(rep, t, i99):
    c = t.stat("cubic", "util")[0] if "cubic" in t.ccs else NAN
    for cc in ours(t, "swift", "timely", "timely-patched"):
        u, p99 = t.stat(cc, "util")[0], t.stat(cc, "p99")[0]
        uw, pw = (0.99, 2) if cc == "swift" else (0.95, 4)
        verdict(t, cc, [
            (u >= uw * c, "util %.0f %% of cubic's" % (100 * u / c)),
            (p99 <= pw * i99, "RTT p99 %.1f x idle p99" % (p99 / i99))])
    d = t.stat("dctcp", "util")[0] if "dctcp" in t.ccs else NAN
    dd = t.stat("dctcp", "drops")[0] if "dctcp" in t.ccs else NAN
    for cc in ours(t, "dcqcn"):
        u, dr = t.stat(cc, "util")[0], t.stat(cc, "drops")[0]
        rto = t.stat(cc, "rtos")[2]
        verdict(t, cc, [
            (u >= 0.95 * d, "util %.0f %% of dctcp's" % (100 * u / d)),
            (dr <= 2 * dd, "drops %.0f vs dctcp's %.0f" % (dr, dd)),
            (rto <= 1, "RTOs in a run: up to %s" % fmt(rto, 0))])
    for cc in ours(t, "hpcc"):
        u, p99 = t.stat(cc, "util")[0], t.stat(cc, "p99")[0]
        verdict(t, cc, [
            (u >= 93, "util %.1f %% (its payload ceiling %.1f %%, at eta %.1f %%)"
             % (u, hpcc_ceiling(rep), 0.95 * hpcc_ceiling(rep))),
            (p99 <= 1.5 * i99, "RTT p99 %.1f x idle p99" % (p99 / i99))])
    t.notes.append(
        "Targets (issue 16): swift goodput >= 99 %% of cubic's and RTT p99 "
        "<= 2 x the idle p99 (%s us); timely (both variants) >= 95 %% and "
        "<= 4 x.  Issue 17: dcqcn (no ECN marks here) goodput >= 95 %% of "
        "dctcp's, drops <= 2 x dctcp's, no RTO storm (at most 1 RTO).  Issue "
        "18: hpcc goodput >= 93 %% (eta x the link, as the issue states it "
        "for a packet without telemetry) and RTT p99 <= 1.5 x the idle p99; "
        "hpcc's packets carry a 56-byte Hop-by-Hop header, so its payload is "
        "at most %.1f %% of the wire, %.1f %% at eta = 0.95 (the floor its "
        "design sets; Documentation/hpcc.rst)."
        % (fmt(i99, 0), hpcc_ceiling(rep), 0.95 * hpcc_ceiling(rep)))


def targets_s2(rep, t, i99):
    if "dcqcn" not in t.ccs or "dctcp" not in t.ccs:
        return
    d = {k: t.stat("dctcp", k)[0] for k in ("util", "p99", "drops")}
    q = {k: t.stat("dcqcn", k)[0] for k in ("util", "p99", "drops")}
    verdict(t, "dcqcn", [
        (q["util"] >= 0.95 * d["util"],
         "util %.0f %% of dctcp's" % (100 * q["util"] / d["util"])),
        (q["p99"] <= d["p99"], "RTT p99 %.0f us vs dctcp's %.0f" % (q["p99"], d["p99"])),
        (not q["drops"] > d["drops"], "drops %.0f vs dctcp's %.0f" % (q["drops"], d["drops"]))])
    t.notes.append(
        "Target (issue 17): dcqcn goodput >= 95 % of dctcp's, RTT p99 and "
        "drops no more than dctcp's.")


def targets_s8(rep, t, i99):
    for cc in ours(t, "swift", "timely", "timely-patched"):
        u, j = t.stat(cc, "util")[0], t.stat(cc, "jain")[0]
        rto, p99 = t.stat(cc, "rtos")[2], t.stat(cc, "p99")[0]
        sw = cc == "swift"
        checks = [(u >= (95 if sw else 90), "util %.1f %% (payload ceiling "
                   "%.1f %%)" % (u, payload_ceiling(rep))),
                  (rto == 0, "RTOs in a run: up to %s" % fmt(rto, 0)),
                  (j >= (0.95 if sw else 0.9), "Jain %.3f" % j)]
        if sw:
            checks.append((p99 <= 3 * i99, "RTT p99 %.1f x idle p99" % (p99 / i99)))
        verdict(t, cc, checks)
    t.notes.append(
        "Targets (issue 16): swift goodput >= 95 %% of capacity, 0 RTOs, "
        "Jain >= 0.95, RTT p99 <= 3 x the idle p99; timely >= 90 %%, 0 RTOs, "
        "Jain >= 0.9.  No cc's goodput goes much past %.1f %% here, a full "
        "segment's payload in its frame; the 95 %% was stated for IPv4 "
        "(95.6 %%)." % payload_ceiling(rep))


def targets_s10(rep, t, i99):
    if "dcqcn" not in t.ccs:
        return
    u, dr = t.stat("dcqcn", "util")[0], t.stat("dcqcn", "drops")[0]
    cd = t.stat("cubic", "drops")[0] if "cubic" in t.ccs else NAN
    verdict(t, "dcqcn", [
        (u >= 90, "util %.0f %%" % u),
        (dr <= 2 * cd, "drops %.0f vs cubic's %.0f" % (dr, cd))])
    t.notes.append("Target (issue 17): dcqcn goodput >= 90 % of capacity, "
                   "drops <= 2 x cubic's.")


class Bulk(Scenario):
    """SN_FLOWS long flows (iperf3 -P) for SN_SECS through a drop-tail FIFO
    of SN_LIMIT packets, or (ecn) a RED queue marking from SN_RED_KB:
    goodput, Jain's index, RTT under load (ping), losses.  targets(rep,
    table, idle RTT p99) judges the rows."""

    def tables(self, rep):
        scen, key = self.tag, self.key
        d = rep.scen_dir(scen)
        if d is None:
            return []
        title = self.title(rep)
        idle = read_nums(os.path.join(d, "idle.rtt"))
        base = percentile(idle, 50)
        idle99 = percentile(idle, 99)
        runs = {}
        for cc in rep.ccs:
            runs[cc] = []
            for r in range(1, rep.nruns + 1):
                pre = os.path.join(d, "%s.%d" % (cc, r))
                j = read_json(pre + ".json")
                if j is None or "end" not in j:
                    continue
                rtt = read_nums(pre + ".rtt")
                q = kv_line(open(pre + ".q").read()) if os.path.exists(pre + ".q") else {}
                mbps = j["end"].get("sum_received", {}).get("bits_per_second", NAN) / 1e6
                jn, slow = per_flow(j)
                m = {"goodput": mbps, "util": 100.0 * mbps / self.capacity(rep),
                     "jain": jn, "slowest": slow,
                     "p50": percentile(rtt, 50), "p99": percentile(rtt, 99),
                     "p999": percentile(rtt, 99.9),
                     "retrans": float(j["end"].get("sum_sent", {}).get("retransmits", 0)),
                     "drops": float(q.get("drops", "nan")),
                     "marks": float(q.get("marks", "nan")),
                     "rtos": float(q.get("rtos", "nan")),
                     "probes": float(len(rtt))}
                m["q99"] = m["p99"] - base
                runs[cc].append(m)
        cols = [Col("util", "goodput % of capacity", 1, "high", True),
                Col("jain", "Jain's index of the flows", 3),
                Col("slowest", "slowest flow / mean", 2),
                Col("p50", "RTT p50 us", 0), Col("p99", "RTT p99 us", 0),
                Col("p999", "RTT p99.9 us", 0),
                Col("q99", "queueing p99 us (RTT p99 - base)", 0, "low", True),
                Col("retrans", "retransmits", 0), Col("rtos", "RTOs", 0)]
        if self.ecn:
            cols.append(Col("marks", "CE marks", 0))
        else:
            cols.append(Col("drops", "drops", 0))
        self.extra(rep, d, runs, cols)
        t = Table(scen, title, rep.ccs, runs, cols)
        probes = med([m["probes"] for v in runs.values() for m in v])
        t.notes.append(self.network_note(rep, base))
        t.notes.append(
            "RTT: ping every %s ms (ECT(0)) through the bottleneck queue from "
            "%s s into the run to 1 s before its end (median %s probes a run; "
            "with fewer than 1000, p99.9 is the largest sample)." % (
                fmt(1000.0 / float(rep.p("BENCH_PROBE_HZ")), 0),
                rep.p(key + "_WARM"), fmt(probes, 0)))
        if self.targets:
            self.targets(rep, t, idle99)
        plot_rtt_cdf(rep, scen, title)
        plot_tput(rep, scen, title)
        return [t]

    def capacity(self, rep):
        """Mbit/s that goodput is a share of."""
        return rep.rate

    def network_note(self, rep, base):
        key = self.key
        return (
            "Network: %s Mbit/s bottleneck (htb), %s, %s us netem delay on the "
            "ACK path; %s flows for %s s per run; idle RTT p50 (base) %s us." % (
                fmt(rep.rate, 0), self.queue(rep), rep.p("BENCH_DELAY"), rep.p(key + "_FLOWS"), rep.p(key + "_SECS"),
                fmt(base, 0)))

    def extra(self, rep, d, runs, cols):
        """More columns: add them to cols and each run's dict."""


# 13: a parking lot -----------------------------------------------------------

def targets_s13(rep, t, i99):
    if "hpcc" in t.ccs:
        u, hop = t.stat("hpcc", "util")[0], t.stat("hpcc", "slowhop")[0]
        verdict(t, "hpcc", [
            (hop >= 95, "the slower hop the most loaded in %s %% of updates"
             % fmt(hop, 1)),
            (u >= 90, "goodput %.1f %% of the slower link (its payload "
             "ceiling at eta: %.1f %%)" % (u, 0.95 * hpcc_ceiling(rep)))])
    t.notes.append(
        "Target (issue 18): hpcc tracks the slower hop (the most loaded one "
        "in its tracepoint, here >= 95 % of the updates of a traced run of "
        "its own, apart from the measured ones) and gets >= 90 % of the "
        "slower link.")


class Parking(Bulk):
    """Bulk flows over two routers whose second hop is the slower one;
    goodput is a share of that hop's rate.  hpcc's row also gives the
    share of its window updates that followed the slower hop."""

    def capacity(self, rep):
        return float(rep.p("S13_RATE2"))

    def network_note(self, rep, base):
        return (
            "Network: a parking lot of two routers (lib.sh topo_twopath's "
            "fabric): %s Mbit/s from the first router (over two equal paths "
            "hashed on the flow label), then %s Mbit/s from the second to the "
            "receiver, each hop an htb with a drop-tail FIFO of %s packets; "
            "both routers fill IOAM traces with their own egress rate; %s us "
            "netem delay on the ACK path; %s flows for %s s per run; idle RTT "
            "p50 (base) %s us.  Goodput is a share of the slower hop; drops "
            "are both hops'." % (
                fmt(rep.rate, 0), rep.p("S13_RATE2"), rep.p("S13_LIMIT"),
                rep.p("BENCH_DELAY"), rep.p("S13_FLOWS"), rep.p("S13_SECS"),
                fmt(base, 0)))

    def extra(self, rep, d, runs, cols):
        # "N hops=2 hop=H" lines (uniq -c of the tracepoint's fields).
        two = slow = 0
        try:
            for line in open(os.path.join(d, "hpcc.hops")):
                f = line.split()
                if len(f) == 3 and f[1] == "hops=2":
                    two += int(f[0])
                    slow += int(f[0]) if f[2] == "hop=1" else 0
        except OSError:
            pass
        share = 100.0 * slow / two if two else NAN
        for cc, v in runs.items():
            for m in v:
                m["slowhop"] = share if cc == "hpcc" else NAN
        cols.append(Col("slowhop", "updates following the slower hop %", 1))


# 3, 11: incast -------------------------------------------------------------

def targets_s3(rep, t, ns):
    for cc in ours(t, "swift", "timely", "timely-patched"):
        checks = []
        for n in ns:
            last = t.stat(cc, "last%d" % n)[0]
            rto = t.stat(cc, "rto%d" % n)[2]
            drops = t.stat(cc, "drops%d" % n)[2]
            lim = (1.1 if n <= 16 else 1.3) if cc == "swift" else \
                (1.3 if n <= 16 else 1.5)
            checks.append((rto == 0, "%d: RTOs up to %s" % (n, fmt(rto, 0))))
            checks.append((last <= lim, "%d: last %.2f x ideal" % (n, last)))
            if cc == "swift" and n <= 16:
                checks.append((drops == 0, "%d: drops up to %s" % (n, fmt(drops, 0))))
        verdict(t, cc, checks)
    if "hpcc" in t.ccs and 64 in ns:
        verdict(t, "hpcc", [
            (t.stat("hpcc", "rto64")[2] == 0,
             "64: RTOs up to %s" % fmt(t.stat("hpcc", "rto64")[2], 0)),
            (t.stat("hpcc", "drops64")[2] == 0,
             "64: drops up to %s" % fmt(t.stat("hpcc", "drops64")[2], 0)),
            (t.stat("hpcc", "last64")[0] <= 1.2,
             "64: last %.2f x ideal" % t.stat("hpcc", "last64")[0])])
    t.notes.append(
        "Target (issue 18): hpcc 64-to-1 with 0 RTOs, 0 drops, last flow <= "
        "1.2 x ideal.  What the initial windows alone lose is the floor of "
        "every cc here (results.rst, \"Incast: what the initial windows "
        "alone lose\").")
    t.notes.append(
        "Targets (issue 16): swift 16-to-1 with 0 drops, 0 RTOs, last flow "
        "<= 1.1 x ideal, larger N 0 RTOs and <= 1.3 x; timely 0 RTOs, "
        "<= 1.3 x (16-to-1) and <= 1.5 x (larger N).  RTOs and drops: the "
        "worst run; completion: the median.")


def targets_s11(rep, t, ns):
    t.notes.append(
        "Target (issue 17): dcqcn with 0 RTOs and the last flow <= 1.3 x "
        "ideal (RTOs: the worst run; completion: the median).")
    if "dcqcn" in t.ccs:
        checks = []
        for n in ns:
            rto = t.stat("dcqcn", "rto%d" % n)[2]
            last = t.stat("dcqcn", "last%d" % n)[0]
            checks += [(rto == 0, "%d: RTOs up to %s" % (n, fmt(rto, 0))),
                       (last <= 1.3, "%d: last %.2f x ideal" % (n, last))]
        verdict(t, "dcqcn", checks)


class Incast(Scenario):
    """Rounds of N senders of S bytes each (SN_ROUNDS, N:S) at once to one
    receiver, through a drop-tail FIFO or (ecn) a RED queue: the last
    flow's completion against the ideal, RTOs, drops.  targets(rep,
    table, [N, ...]) judges the rows."""

    def tables(self, rep):
        scen, key = self.tag, self.key
        d = rep.scen_dir(scen)
        if d is None:
            return []
        if key + "_ROUNDS" in rep.P:
            rounds = [tuple(int(y) for y in x.split(":"))
                      for x in rep.p(key + "_ROUNDS").split()]
        else:   # runs from before S3_ROUNDS
            rounds = [(int(x), int(rep.p("S3_BYTES")))
                      for x in rep.p("S3_FLOWS").split()]
        ns = [n for n, _ in rounds]
        size = dict(rounds)
        runs = {}
        fails = {}
        for cc in rep.ccs:
            runs[cc] = []
            for r in range(1, rep.nruns + 1):
                m = {}
                for n in ns:
                    path = os.path.join(d, "%s.%d.%d" % (cc, n, r))
                    if not os.path.exists(path):
                        continue
                    kv = kv_line(open(path).read().replace("\n", " "))
                    ideal = n * size[n] * 8 / rep.rate
                    if "last_us" not in kv:
                        fails[cc] = fails.get(cc, 0) + 1
                        m["last%d" % n] = NAN
                    else:
                        m["last%d" % n] = float(kv["last_us"]) / ideal
                        m["med%d" % n] = float(kv["median_us"]) / ideal
                    m["rto%d" % n] = float(kv.get("rtos", "nan"))
                    m["drops%d" % n] = float(kv.get("drops", "nan"))
                if m:
                    runs[cc].append(m)
        cols = []
        for n in ns:
            cols += [Col("last%d" % n, "%d-to-1 last / ideal" % n, 2, "low", True),
                     Col("rto%d" % n, "%d-to-1 RTOs" % n, 0),
                     Col("drops%d" % n, "%d-to-1 drops" % n, 0)]
        t = Table(scen, self.title(rep), rep.ccs, runs, cols)
        t.notes.append(
            "N senders of S bytes each, all at once, through a %s Mbit/s %s; "
            "receivers (running the cc of the row) ACK at once (quickack).  "
            "Ideal = N x S / capacity (%s).  RTOs: the senders' "
            "TcpExtTCPTimeouts." % (
                fmt(rep.rate, 0), self.queue(rep),
                ", ".join("%d x %d KB: %.0f ms" % (
                    n, size[n] // 1024, n * size[n] * 8 / rep.rate / 1000)
                          for n in ns)))
        if fails:
            t.notes.append("Rounds that did not complete (60 s limit): " + ", ".join(
                "%s %d" % kv for kv in sorted(fails.items())))
        if self.targets:
            self.targets(rep, t, ns)
        plot_incast(rep, t, ns)
        return [t]


# 4: flows joining and leaving ----------------------------------------------

# A closing report this late after a tick (a fraction of the bin) still
# counts for the bin that ended at the tick when the flow had no report
# at it (s4_logs()).
S4_CLOSE_SLACK = 0.05


def s4_logs(path, binw):
    """{(cc, run): [flow, ...]} from the incast sink's log (a MARK line
    before each run, then "T_US SPORT BYTES" every binw seconds per
    flow); a flow is [first bin, last bin, {bin: Mbit/s}], flows in the
    order they started, bins counted from the run's first."""
    out = {}
    try:
        lines = open(path).read().splitlines()
    except OSError:
        return out
    key, rows = None, []

    def close():
        if not key or not rows:
            return
        t0 = min(t for t, p, n in rows) - binw * 1e6
        flows = {}
        for t, p, n in rows:
            x = (t - t0) / (binw * 1e6)
            i = max(int(math.ceil(x - 1e-6)) - 1, 0)
            # A flow's last report comes when it closes, off the ticks
            # (the others are written at a tick, for the flows that
            # received data in the bin it ends).  Closed just after a
            # tick, before that tick's report was written, it carries
            # the bin that ended at the tick: counted in the next bin,
            # it left the bin empty (the flow read 0 there) and made a
            # bin of its own.  A report at a tick after a bin without
            # data stays where it is: that flow had none.
            if (p in flows and i - 1 > flows[p][1] and
                    1e-6 < x - math.floor(x) < S4_CLOSE_SLACK):
                i -= 1
            f = flows.setdefault(p, [i, i, {}])
            f[0], f[1] = min(f[0], i), max(f[1], i)
            f[2][i] = f[2].get(i, 0.0) + n * 8 / binw / 1e6
        out[key] = sorted(flows.values(), key=lambda f: f[0])

    for line in lines:
        f = line.split()
        if len(f) == 3 and f[0] == "MARK":
            close()
            key, rows = (f[1], int(f[2])), []
        elif len(f) == 3 and key:
            try:
                rows.append((int(f[0]), int(f[1]), int(f[2])))
            except ValueError:
                pass
    close()
    return out


def s4_metrics(rate, flows, binw, settle, conv_j):
    nb = max(f[1] for f in flows) + 1
    # Rate of flow k in bin i: None outside its life, 0 when starved.
    rates = [[(f[2].get(i, 0.0) if f[0] <= i <= f[1] else None)
              for i in range(nb)] for f in flows]
    span = [(f[0] * binw, (f[1] + 1) * binw) for f in flows]
    end = nb * binw
    changes = sorted(set([s0 for s0, e in span if s0 > 0] +
                         [e for s0, e in span if e < end - 1e-9]))
    jains, convs = [], []

    def whole(act, i):
        """Bin i is a whole bin of every flow in act: a flow's first and
        last bins hold only part of its life (it started or stopped in
        them), and their bytes over the full bin read as a slow flow."""
        return all(flows[k][0] < i < flows[k][1] for k in act)

    for ci, c in enumerate(changes):
        nxt = changes[ci + 1] if ci + 1 < len(changes) else end
        act = [k for k, (s0, e) in enumerate(span)
               if s0 <= c + 1e-9 and e >= nxt - 1e-9]
        if len(act) < 2:
            continue
        lo = int(round((c + settle) / binw))
        hi = int(round(nxt / binw))
        bins = [i for i in range(lo, hi) if whole(act, i)]
        if bins:
            means = [sum(rates[k][i] for i in bins) / len(bins) for k in act]
            jains.append(jain(means))
        first = int(round(c / binw))
        per = [jain([rates[k][i] for k in act]) if whole(act, i) else None
               for i in range(first, hi)]
        conv = nxt - c
        for i in range(len(per)):
            if per[i] is not None and all(
                    x is None or (not isnan(x) and x >= conv_j)
                    for x in per[i:]):
                conv = i * binw
                break
        convs.append(conv)
    # Utilization over the bins where the schedule has flows (the
    # last, partial, bin left out).
    busy = [sum(r[i] for r in rates if r[i] is not None)
            for i in range(nb - 1)]
    return {"jain": min(jains) if jains else NAN,
            "conv": max(convs) if convs else NAN,
            "util": 100.0 * (sum(busy) / len(busy)) / rate if busy else NAN}


class Fairness(Scenario):
    """Flows joining and leaving on the S4_START/S4_STOP schedule: Jain's
    index after each change, time to converge, goodput."""

    def tables(self, rep):
        d = rep.scen_dir("s4")
        if d is None:
            return []
        binw = float(rep.p("S4_BIN"))
        settle = float(rep.p("S4_SETTLE"))
        conv_j = float(rep.p("S4_CONV_JAIN"))
        runs = {}
        series = {}
        logs = s4_logs(os.path.join(d, "sink.log"), binw)
        for cc in rep.ccs:
            runs[cc] = []
            for r in range(1, rep.nruns + 1):
                flows = logs.get((cc, r), [])
                if len(flows) < 2:
                    continue
                m = s4_metrics(rep.rate, flows, binw, settle, conv_j)
                runs[cc].append(m)
                if r == 1:
                    series[cc] = flows
        cols = [Col("jain", "Jain's index >= %g s after a change (worst change)"
                    % settle, 3, "high", True),
                Col("conv", "time to converge s (worst change)", 2, "low", True),
                Col("util", "goodput % of capacity", 1, "high", True)]
        t = Table("s4", self.title(rep), rep.ccs, runs, cols)
        step = float(rep.p("S4_STEP"))
        sched = ", ".join("flow %d %g-%g s" % (k + 1, float(a) * step, float(b) * step)
                          for k, (a, b) in enumerate(zip(rep.p("S4_START").split(),
                                                         rep.p("S4_STOP").split())))
        t.notes.append(
            "%s Mbit/s bottleneck, drop-tail FIFO of %s packets; %s (the changes are "
            "taken where the receivers saw them).  Jain's index over the flows' "
            "mean goodputs from %g s after each change to the next; converged = "
            "from the first %g s interval after which every interval's index "
            "stays >= %g until the next change (the full gap when never).  "
            "A flow's first and last intervals (it started or stopped within "
            "them) are left out of both." % (
                fmt(rep.rate, 0), rep.p("S4_LIMIT"), sched, settle, binw, conv_j))
        for cc, jmin, conv in (("swift", 0.99, 0.5), ("timely-patched", 0.98, 1.0),
                               ("dcqcn", 0.95, 1.0), ("hpcc", 0.99, binw)):
            if cc in rep.ccs:
                j, c = t.stat(cc, "jain")[0], t.stat(cc, "conv")[0]
                verdict(t, cc, [(j >= jmin, "Jain %s" % fmt(j, 3)),
                                (c <= conv, "converged after %s s" % fmt(c, 2))])
        t.notes.append(
            "Targets (issues 16, 17): Jain's index (>= %g s after each change) "
            ">= 0.99 and converged (index >= %g) within 0.5 s for swift; >= 0.98 "
            "within 1 s for patched timely; >= 0.95 within 1 s for dcqcn (medians "
            "of each run's worst change).  Issue 18: hpcc >= 0.99 within 5 RTTs "
            "of the base RTT (plus what the emulator adds), judged here as "
            ">= 0.99 and converged in the first %g s interval: the intervals "
            "cannot resolve 5 RTTs.  The paper variant of timely has no "
            "unique fixed point: its index is shown, not judged." % (
                settle, conv_j, binw))
        plot_flows(rep, t, series, binw)
        return [t]


# 5: RPC latency under load -------------------------------------------------

class Rpc(Scenario):
    """A closed-loop RPC client (rpc.c) beside long flows: RPC latency."""

    def tables(self, rep):
        d = rep.scen_dir("s5")
        if d is None:
            return []
        runs = {}
        for cc in rep.ccs:
            runs[cc] = []
            for r in range(1, rep.nruns + 1):
                pre = os.path.join(d, "%s.%d" % (cc, r))
                try:
                    kv = kv_line(open(pre + ".rpc").read())
                except OSError:
                    continue
                j = read_json(pre + ".json")
                mbps = NAN
                if j and "end" in j:
                    mbps = j["end"].get("sum_received", {}).get("bits_per_second", NAN) / 1e6
                m = {"util": 100.0 * mbps / rep.rate}
                for k in ("p50", "p90", "p99"):
                    m[k] = float(kv.get(k + "_us", "nan"))
                m["n"] = float(kv.get("rpcs", "nan"))
                runs[cc].append(m)
        idle = kv_line(open(os.path.join(d, "idle.rpc")).read()) \
            if os.path.exists(os.path.join(d, "idle.rpc")) else {}
        cols = [Col("p50", "RPC p50 us", 0, "low", True),
                Col("p90", "RPC p90 us", 0),
                Col("p99", "RPC p99 us", 0, "low", True),
                Col("n", "RPCs", 0),
                Col("util", "long flows goodput % of capacity", 1, "high", True)]
        t = Table("s5", self.title(rep), rep.ccs, runs, cols)
        t.notes.append(
            "%s long flows and one closed-loop RPC client (selftests/rpc.c: %s-byte "
            "request, 1-byte answer, %s us idle between requests, one outstanding), "
            "all with the cc of the row, through the %s-packet drop-tail FIFO; "
            "latency = request written to answer read.  Idle (cubic, no load): "
            "p50 %s us, p99 %s us." % (
                rep.p("S5_FLOWS"), rep.p("S5_RPC_BYTES"), rep.p("S5_RPC_GAP_US"),
                rep.p("S5_LIMIT"), idle.get("p50_us", "n/a"), idle.get("p99_us", "n/a")))
        i99 = float(idle.get("p99_us", "nan"))
        for cc in ours(t, "swift", "timely", "timely-patched"):
            p99 = t.stat(cc, "p99")[0]
            x = 3 if cc == "swift" else 4
            verdict(t, cc, [(p99 <= x * i99, "RPC p99 %.1f x idle p99" % (p99 / i99))])
        t.notes.append(
            "Target (issue 16): RPC p99 <= 3 x the unloaded RPC p99 (swift), "
            "<= 4 x (timely).")
        return [t]


# 6: two paths, one congested, PLB on and off -------------------------------

def plb_run_extra(pre):
    """Scenario 6, one cc's run: connections that started and ended on
    path A (PRE.flows, "PORT END_PATH MBPS FIRST_PATH"), PLB repaths and
    TCP's timeout rehashes (PRE.count0 / PRE.count1, "Name value")."""
    m = {}
    try:
        fl = [ln.split() for ln in open(pre + ".flows") if ln.strip()]
        m["first_a"] = float(sum(1 for f in fl if f[3] == "A"))
        m["left_a"] = float(sum(1 for f in fl if f[1] == "A"))
        mb = [float(f[2]) for f in fl]
        if mb:
            m["slow"] = min(mb)
            m["jain"] = jain(mb)
    except (OSError, IndexError, ValueError):
        pass
    try:
        c0, c1 = ({ln.split()[0]: float(ln.split()[1])
                   for ln in open(pre + x) if len(ln.split()) == 2}
                  for x in (".count0", ".count1"))
        m["repaths"] = sum(c1[k] - c0[k] for k in
                           ("PlbRepathIdle", "PlbRepathForced",
                            "PlbRepathLong")
                           if k in c0 and k in c1 and c0[k] >= 0)
        for k, name in (("TcpExtTcpTimeoutRehash", "rto_rehash"),
                        ("PlbRepathBack", "back"),
                        ("PlbRepathHeld", "held"),
                        ("PlbRtoPause", "rto_pause"),
                        ("PlbRtoCongested", "rto_cong")):
            if k in c0 and k in c1 and c0[k] >= 0:
                m[name] = c1[k] - c0[k]
    except (OSError, KeyError, ValueError):
        pass
    return m


class Plb(Scenario):
    """On-off RPC clients on a two-path IPv6 fabric, one path congested,
    with and without PLB (rows: S6_CCS)."""

    def tables(self, rep):
        d = rep.scen_dir("s6")
        if d is None:
            return []
        ccs = rep.G.get("s6_ccs", "").split()
        runs = {}
        ncl = int(rep.p("S6_CLIENTS"))

        def clients(pre):
            cl = []
            for i in range(1, ncl + 1):
                try:
                    kv = kv_line(open("%s.c%d" % (pre, i)).read())
                except OSError:
                    kv = {}
                if "p50_us" in kv:
                    cl.append(kv)
            return cl

        def worst_p99(cl):
            return max([float(c["p99_us"]) for c in cl] or [NAN]) / 1000

        # The quiet path (every client on path B, no competitor), each cc
        # without PLB: the worst client's RPC p99, median over the runs.
        quiet = {}
        for cc in ccs:
            base = cc[:-4] if cc.endswith("+plb") else cc
            q = [worst_p99(clients(os.path.join(d, "quiet.%s.%d" % (base, r))))
                 for r in range(1, rep.nruns + 1)]
            q = [x for x in q if not isnan(x)]
            quiet[cc] = med(q) if q else NAN
        for cc in ccs:
            runs[cc] = []
            for r in range(1, rep.nruns + 1):
                pre = os.path.join(d, "%s.%d" % (cc, r))
                if not os.path.exists(pre + ".paths"):
                    continue
                pa = kv_line(open(pre + ".paths").read())
                cl = clients(pre)
                a, b = float(pa.get("bytes_a", 0)), float(pa.get("bytes_b", 0))
                m = {"bshare": 100.0 * b / (a + b) if a + b else NAN,
                     "done": float(sum(int(c["rpcs"]) for c in cl)),
                     "p50": med([float(c["p50_us"]) for c in cl]) / 1000,
                     "p99": worst_p99(cl), "quiet": quiet[cc]}
                dur = max([float(c["total_ms"]) for c in cl] or [NAN])
                m["mbps_a"] = a * 8 / 1e3 / dur if dur else NAN
                m["mbps_b"] = b * 8 / 1e3 / dur if dur else NAN
                m.update(plb_run_extra(pre))
                runs[cc].append(m)
        cols = [Col("bshare", "IPv6 bytes on path B %", 0, "high", True),
                Col("mbps_a", "path A Mbit/s", 1), Col("mbps_b", "path B Mbit/s", 1),
                Col("p50", "RPC p50 ms (median client)", 1, "low", True),
                Col("p99", "RPC p99 ms (worst client)", 1, "low", True),
                Col("quiet", "quiet path RPC p99 ms (worst client, no PLB)", 1),
                Col("done", "RPCs completed", 0, "high"),
                Col("first_a", "connections starting on A", 0),
                Col("left_a", "connections ending on A", 0, "low"),
                Col("slow", "slowest connection Mbit/s", 2, "high"),
                Col("jain", "Jain (connections' goodput)", 3, "high"),
                Col("repaths", "PLB repaths", 0),
                Col("back", "of which back to the best label", 0),
                Col("held", "due, held on the best label", 0),
                Col("rto_rehash", "TCP timeout rehashes", 0),
                Col("rto_pause", "timeouts that paused PLB (failure)", 0),
                Col("rto_cong", "timeouts on congestion (no pause)", 0)]
        t = Table("s6", self.title(rep), ccs, runs, cols)
        paths = ""
        try:
            paths = open(os.path.join(d, "paths.txt")).read().replace("\n", "; ")
        except OSError:
            pass
        t.notes.append(
            "IPv6 fabric with two equal-cost paths hashed on the flow label "
            "(lib.sh topo_twopath): A %s Mbit/s, kept full by a cubic IPv4 flow "
            "pinned to it, B %s Mbit/s, %s-packet FIFOs.  %s RPC clients of the "
            "row's cc (rpc.c: %s KB requests, %s ms idle between them, at most %s "
            "RPCs or %s s).  +plb: PLB on in the senders' namespace; every module "
            "at its shipped defaults.  Idle path "
            "RTTs with the competitor running: %s" % (
                rep.p("S6_RATE_A"), rep.p("S6_RATE_B"), rep.p("S6_LIMIT"), ncl,
                int(rep.p("S6_RPC_BYTES")) // 1024,
                int(rep.p("S6_RPC_GAP_US")) // 1000, rep.p("S6_RPCS"),
                rep.p("S6_SECS"), paths))
        want = ncl * int(rep.p("S6_RPCS"))
        c99 = t.stat("cubic", "p99")[0] if "cubic" in t.ccs else NAN
        for cc in t.ccs:
            if not cc.endswith("+plb"):
                continue
            p99, off = t.stat(cc, "p99")[0], t.stat(cc[:-4], "p99")[0]
            done = t.stat(cc, "done")[1]
            q99 = quiet[cc]
            verdict(t, cc, [
                (done >= want, "RPCs completed %s of %d" % (fmt(done, 0), want)),
                (p99 <= 2 * q99, "quiet path not measured" if isnan(q99) else
                 "p99 %.1f ms vs 2 x the quiet path's %.1f" % (p99, q99)),
                (p99 < c99, "p99 %.1f ms vs cubic's %.1f" % (p99, c99)),
                (p99 < off, "p99 %.1f ms vs PLB off %.1f" % (p99, off))])
        t.notes.append(
            "Per connection (lib_topo.sh paths_per_flow, captures on the router's "
            "two egresses): the path of its first data packet, the path that "
            "carried most of its data packets in its last second, and its goodput "
            "from its first data packet to its last (slowest, Jain).  Repaths: PLB's "
            "idle, forced and long ones (/proc/net/tcp_plb_stat); TCP's own rehash on "
            "a retransmit timeout (TcpExtTcpTimeoutRehash), counted apart.")
        per = []
        for cc in ccs:
            try:
                fl = [ln.split() for ln in
                      open(os.path.join(d, "%s.1.flows" % cc)) if ln.strip()]
                per.append("%s: %s" % (cc, ", ".join(
                    "%s %s" % (f[1], f[2]) for f in fl)))
            except (OSError, IndexError):
                continue
        if per:
            t.notes.append(
                "Each connection's goodput in run 1, Mbit/s, after the path it "
                "ended on (issue 22): " + "; ".join(per) + ".")
        t.notes.append(
            "Target (issue 16), +plb rows: every RPC completes (%d) in every run, "
            "worst-client RPC p99 at most 2 x the quiet path's (the same "
            "clients of the cc without PLB, all routed over path B, before "
            "the competitor starts: where PLB should bring them; they load "
            "the path themselves), below cubic's and below the same cc "
            "without PLB." % want)
        return [t]


# 7: delay noise --------------------------------------------------------------

class Jitter(Scenario):
    """Scenario 1's long flows with uniform jitter J (S7_JITTERS) on the
    ACK path (table sN) and on the data path (table sNdata, "Nb"); rows:
    S7_CCS, repeats: S7_RUNS."""

    PATHS = (("ack", "", "the ACK path (netem DELAY +- J)"),
             ("data", "b", "the data path before the bottleneck (netem J +- J "
              "on the sender's link, the ACK path's delay cut by J)"),
             ("ack-reorder", "c", "the ACK path without netem's rate (each "
              "packet its own draw: the flow is reordered)"),
             ("data-reorder", "d", "the data path without netem's rate (each "
              "packet its own draw: the flow is reordered)"))

    def tables(self, rep):
        d = rep.scen_dir(self.tag)
        if d is None:
            return []
        return [self.table(rep, d, path, sub, where)
                for path, sub, where in self.PATHS
                if path in rep.P.get("S7_PATHS", "").split()]

    def table(self, rep, d, path, sub, where):
        js = [int(x) for x in rep.P.get("S7_JITTERS", "").split()]
        ccs = rep.G.get("s7_ccs", "").split()
        nruns = int(rep.P.get("S7_RUNS", "1"))
        runs = {cc: [] for cc in ccs}
        for cc in ccs:
            for r in range(1, nruns + 1):
                m = {}
                for j in js:
                    pre = os.path.join(d, "%s.%d.%s.%d" % (path, j, cc, r))
                    res = read_json(pre + ".json")
                    if res is None or "end" not in res:
                        continue
                    rtt = read_nums(pre + ".rtt")
                    mbps = res["end"].get("sum_received", {}).get(
                        "bits_per_second", NAN) / 1e6
                    m["util%d" % j] = 100.0 * mbps / rep.rate
                    m["p99_%d" % j] = percentile(rtt, 99)
                    m["jain%d" % j] = per_flow(res)[0]
                if m:
                    runs[cc].append(m)
        cols = [Col("util%d" % j, "goodput %% at %d us" % j, 1) for j in js]
        cols += [Col("p99_%d" % j, "RTT p99 us at %d us" % j, 0) for j in js]
        cols += [Col("jain%d" % j, "Jain at %d us" % j, 3) for j in js]
        name = self.tag if path == "ack" else self.tag + path
        t = Table(name, self.title(rep, sub) % path, ccs, runs, cols)
        idle = []
        for j in js:
            v = read_nums(os.path.join(d, "%s.%d.idle.rtt" % (path, j)))
            idle.append("%d us: %s/%s" % (j, fmt(percentile(v, 50), 0),
                                          fmt(percentile(v, 99), 0)))
        t.notes.append(
            "Network: scenario 1's (%s-packet drop-tail FIFO, %s flows for %s s "
            "a run) with uniform jitter J on %s%s.  Every "
            "module at its shipped defaults.  Idle RTT p50/p99 by J: %s." % (
                rep.P.get("S7_LIMIT"), rep.P.get("S7_FLOWS"),
                rep.P.get("S7_SECS"), where,
                "" if "reorder" in path else "; packets stay in order",
                ", ".join(idle)))
        variants = [cc for cc in ccs if "@" in cc]
        if variants:
            t.notes.append(
                "Rows NAME@PARAM=VALUE (%s): the module with that parameter "
                "set for the row's runs, a measured variant and not a "
                "default; no target is judged on them." % ", ".join(variants))
        t.notes.append(
            "Targets: no collapse below half the link at 100 us of jitter "
            "(issue 14); >= 90 % of the link at 200 us with RTT p99 <= J=0's "
            "+ 2 x 200 us (issue 25).")
        for cc in ccs:
            if cc.split("-")[0] not in ("swift", "timely") or "@" in cc:
                continue
            u100 = t.stat(cc, "util100")[0] if 100 in js else NAN
            u200 = t.stat(cc, "util200")[0] if 200 in js else NAN
            p0 = t.stat(cc, "p99_0")[0] if 0 in js else NAN
            p200 = t.stat(cc, "p99_200")[0] if 200 in js else NAN
            if isnan(u100):
                continue
            checks = [(u100 >= 50, "%.0f %% at 100 us" % u100)]
            if not isnan(u200):
                checks.append((u200 >= 90, "%.0f %% at 200 us" % u200))
            if not isnan(p200) and not isnan(p0):
                checks.append((p200 <= p0 + 400,
                               "p99 %s us at 200 us vs %s at 0" % (
                                   fmt(p200, 0), fmt(p0, 0))))
            verdict(t, cc, checks)
        plot_jitter(rep, t, js)
        return t


# 9: RTT fairness -------------------------------------------------------------

class RttFair(Scenario):
    """Two long flows, base RTTs S9_RTT_X apart: goodput of each, Jain."""

    def tables(self, rep):
        d = rep.scen_dir("s9")
        if d is None:
            return []
        setup = {}
        if os.path.exists(os.path.join(d, "setup")):
            setup = kv_line(open(os.path.join(d, "setup")).read())
        secs, last = float(rep.p("S9_SECS")), float(rep.p("S9_LAST"))
        runs = rep.two_flow_runs(d, rep.ccs, ("near", "far"), secs, last)
        for m in (m for v in runs.values() for m in v):
            m["ratio"] = m["far"] / m["near"] if m["near"] else NAN
        cols = [Col("util", "goodput % of capacity", 1, "high", True),
                Col("near", "short-RTT flow Mbit/s", 1),
                Col("far", "long-RTT flow Mbit/s", 1),
                Col("ratio", "long / short", 2),
                Col("jain", "Jain's index", 3, "high", True)]
        t = Table("s9", self.title(rep), rep.ccs, runs, cols)
        t.notes.append(
            "Two long flows through scenario 1's %s-packet FIFO for %s s to two "
            "addresses of the server, the far one's ACKs delayed %s us instead "
            "of %s us: idle RTT %s us (near) and %s us (far); goodput per flow "
            "over the last %s s (receiver side, 0.5 s intervals)." % (
                rep.p("S9_LIMIT"), rep.p("S9_SECS"), setup.get("far_delay_us", "?"),
                rep.p("BENCH_DELAY"), setup.get("base_us", "?"),
                setup.get("far_base_us", "?"), rep.p("S9_LAST")))
        for cc in ours(t, "swift", "timely-patched"):
            j = t.stat(cc, "jain")[0]
            verdict(t, cc, [(j >= 0.9, "Jain %.3f" % j)])
        t.notes.append("Target (issue 16): Jain >= 0.9 for swift and "
                       "timely-patched.")
        series, binw = {}, 0.5
        for cc in rep.ccs:
            got = [receiver_series(read_json(os.path.join(
                d, "%s.1.%s.json" % (cc, side)))) for side in ("near", "far")]
            if all(got):
                series[cc] = [g[0] for g in got]
                binw = got[0][1]
        plot_flows(rep, t, series, binw, "s9_flows.png",
                   ("near (short RTT)", "far (long RTT)"))
        return [t]


# 12: two ccs sharing a queue -------------------------------------------------

class Share(Scenario):
    """One long flow of A and one of B (S12_PAIRS, A:B) through scenario
    2's ECN-marking queue: each one's share."""

    def tables(self, rep):
        d = rep.scen_dir("s12")
        if d is None:
            return []
        pairs = rep.G.get("s12_ccs", "").split()
        secs, last = float(rep.p("S12_SECS")), float(rep.p("S12_LAST"))
        runs = rep.two_flow_runs(d, pairs, ("a", "b"), secs, last)
        for m in (m for v in runs.values() for m in v):
            m["ashare"] = 100.0 * m["a"] / rep.rate
            m["bshare"] = 100.0 * m["b"] / rep.rate
        cols = [Col("a", "A Mbit/s", 1), Col("b", "B Mbit/s", 1),
                Col("ashare", "A % of link", 0), Col("bshare", "B % of link", 0),
                Col("util", "together % of capacity", 1),
                Col("jain", "Jain's index", 3)]
        t = Table("s12", self.title(rep), pairs, runs, cols)
        t.notes.append(
            "One long flow of A and one of B at once, %s s, through scenario 2's "
            "queue (RED marking ECN from %s KB, %s packets); each receiver runs "
            "its sender's cc; goodput over the last %s s (receiver side)." % (
                rep.p("S12_SECS"), rep.p("S12_RED_KB"), rep.p("S12_LIMIT"),
                rep.p("S12_LAST")))
        if "dcqcn:dctcp" in pairs:
            a, b = t.stat("dcqcn:dctcp", "ashare")[0], t.stat("dcqcn:dctcp", "bshare")[0]
            verdict(t, "dcqcn:dctcp", [
                (a >= 100 / 3.0, "dcqcn %.0f %% of the link" % a),
                (b >= 100 / 3.0, "dctcp %.0f %% of the link" % b)])
            t.notes.append("Target (issue 17): neither dcqcn nor dctcp gets less "
                           "than a third of the link.")
        return [t]


# The registry: every scenario once, in report order.  A new scenario is a
# class above (or another instance of one), a line here, its NUMBER:name in
# params.sh's BENCH_NAMES and its case in scenarios.sh.  A new congestion
# control needs nothing here: the rows are the ccs guest.txt lists.
SCENARIOS = [
    Bulk(1, "deep drop-tail FIFO, long flows", targets=targets_s1),
    Bulk(2, "shallow ECN-marking queue, long flows", ecn=True, targets=targets_s2),
    Incast(3, "incast", targets=targets_s3),
    Fairness(4, "fairness and convergence"),
    Rpc(5, "RPC latency under load"),
    Plb(6, "two paths, one congested, PLB on and off"),
    Jitter(7, "jitter on the %s path, long flows"),
    Bulk(8, lambda rep: "%s long flows, windows below one packet"
         % rep.P.get("S8_FLOWS", "?"), targets=targets_s8),
    RttFair(9, lambda rep: "RTT fairness, two flows, base RTTs %sx apart"
            % rep.p("S9_RTT_X")),
    Bulk(10, "shallow drop-tail FIFO, long flows", targets=targets_s10),
    Incast(11, "incast through the ECN-marking queue", ecn=True,
           targets=targets_s11),
    Share(12, "two ccs sharing the ECN-marking queue (A:B)"),
    Parking(13, lambda rep: "parking lot, the second hop (%s Mbit/s) the "
            "slower" % rep.p("S13_RATE2"), targets=targets_s13),
]


# --- check (smoke test) ---------------------------------------------------

def check(out):
    P = read_kv_file(os.path.join(out, "params.env"))
    G = read_kv_file(os.path.join(out, "guest.txt"))
    errs = []
    num = {name: str(n) for n, name in NAMES.items()}
    scen = [num.get(s, s) for s in P.get("BENCH_SCENARIOS", "").split()]
    if not scen:
        errs.append("no BENCH_SCENARIOS in params.env")
    for s in scen:
        ccs = (G.get("s%s_ccs" % s) or G.get("ccs", "")).split()
        tsv = os.path.join(out, "s%s.tsv" % s)
        md = os.path.join(out, "s%s.md" % s)
        try:
            rows = [l.split("\t") for l in open(tsv).read().splitlines()]
        except OSError:
            errs.append("missing " + tsv)
            continue
        head = rows[0] if rows else []
        if not head or head[0] != "cc":
            errs.append(tsv + ": no header")
            continue
        if [r[0] for r in rows[1:]] != ccs:
            errs.append("%s: rows %s, expected %s" % (tsv, [r[0] for r in rows[1:]], ccs))
        for r in rows[1:]:
            if len(r) != len(head):
                errs.append("%s: %s has %d fields, header %d" % (tsv, r[0], len(r), len(head)))
                continue
            want = P.get("S7_RUNS") if s == "7" else P.get("BENCH_RUNS")
            if r[1] != want:
                errs.append("%s: %s has %s runs, expected %s" % (tsv, r[0], r[1], want))
            for h, v in zip(head[2:-1], r[2:-1]):
                try:
                    x = float(v)
                except ValueError:
                    errs.append("%s: %s %s = %r is not a number" % (tsv, r[0], h, v))
                    continue
                if h.endswith("_median") and math.isnan(x):
                    errs.append("%s: %s %s is missing" % (tsv, r[0], h))
        try:
            lines = [l for l in open(md).read().splitlines() if l.startswith("|")]
        except OSError:
            errs.append("missing " + md)
            continue
        if len(lines) != len(ccs) + 2:
            errs.append("%s: %d table lines, expected %d" % (md, len(lines), len(ccs) + 2))
        if len(set(l.count("|") for l in lines)) != 1:
            errs.append(md + ": rows with different numbers of columns")
    for png in glob.glob(os.path.join(out, "*.png")):
        with open(png, "rb") as f:
            if f.read(8) != b"\x89PNG\r\n\x1a\n":
                errs.append(png + " is not a PNG")
    if "1" in scen and not os.path.exists(os.path.join(out, "s1_rtt_cdf.png")):
        errs.append("no s1_rtt_cdf.png")
    if not os.path.exists(os.path.join(out, "results.rst")):
        errs.append("no results.rst")
    for e in errs:
        print("bench check: " + e)
    print("bench check: %s" % ("tables well formed" if not errs else "%d problems" % len(errs)))
    return 1 if errs else 0


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        return check(sys.argv[2])
    if len(sys.argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    Bench(sys.argv[1]).build()
    for f in sorted(glob.glob(os.path.join(sys.argv[1], "s*.md"))) + \
            glob.glob(os.path.join(sys.argv[1], "ackcost.md")):
        print(open(f).read())
    return 0


if __name__ == "__main__":
    sys.exit(main())
