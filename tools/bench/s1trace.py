#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarize selftests/swift_s1trace.sh's trace of bench scenario 1.

    tools/bench/s1trace.py DIR [--around N]

DIR holds trace.txt (or trace.txt.gz: tracefs text, mono clock),
ping.txt (ping -D) and idle.rtt.  Prints, over the ping's window:
the ping RTTs and each one's wait in the bottleneck (net_dev_queue to
net_dev_xmit on rs0), the FIFO's backlog, every flow's targets, delay
samples, cuts and increases, the cycle of the backlog (drain to empty,
peak), and where in that cycle the highest pings fell.  --around N
prints the events of the N highest pings' last 3 ms.
"""
import gzip
import os
import re
import statistics
import sys

LINE = re.compile(r'^\s*(.*?)-(\d+)\s+\[(\d+)\]\s+(?:\S+\s+)?([\d.]+):\s+'
                  r'([\w]+):\s+(.*)$')
KV = re.compile(r'(\w+)=(\S+)')
PKT_US = 1514 * 8 / 100.0  # one full frame at 100 Mbit/s: 121.1 us


def pct(v, p):
    """Nearest-rank percentile, as selftests/lib_measure.sh's."""
    if not v:
        return float('nan')
    s = sorted(v)
    i = int(len(s) * p / 100 + 0.999999)
    return s[min(max(i, 1), len(s)) - 1]


def fmt(v, p=(10, 50, 90, 99)):
    return ' '.join('p%d %.0f' % (q, pct(v, q)) for q in p) + \
        ' max %.0f n %d' % (max(v) if v else float('nan'), len(v))


def load(d):
    path = os.path.join(d, 'trace.txt')
    op = open
    if not os.path.exists(path):
        path += '.gz'
        op = gzip.open
    ev = []
    marks = {}
    with op(path, 'rt') as f:
        for ln in f:
            m = LINE.match(ln)
            if not m:
                continue
            t = float(m.group(4)) * 1e6   # us
            name, rest = m.group(5), m.group(6)
            if name == 'tracing_mark_write':
                w = rest.split()
                if len(w) >= 3 and w[0] == 's1trace':
                    marks[w[1]] = (t, float(w[2]) * 1e6)
                continue
            ev.append((t, name, rest))
    return ev, marks


def load_ping(d, off_us):
    """Pings as (send time in trace us, rtt us, seq), the first 5 left
    out as ping_rtts does."""
    out = []
    with open(os.path.join(d, 'ping.txt')) as f:
        for ln in f:
            m = re.match(r'\[([\d.]+)\].*icmp_seq=(\d+).*time=([\d.]+) ms',
                         ln)
            if not m:
                continue
            seq = int(m.group(2))
            if seq <= 5:
                continue
            rtt = float(m.group(3)) * 1000
            recv = float(m.group(1)) * 1e6 - off_us
            out.append((recv - rtt, rtt, seq))
    return out


def main():
    d = sys.argv[1]
    around = 0
    if '--around' in sys.argv:
        around = int(sys.argv[sys.argv.index('--around') + 1])
    ev, marks = load(d)
    t_mono, t_real = marks['ping']
    off = t_real - t_mono          # realtime - trace clock
    p0, p1 = marks['ping'][0], marks['pingend'][0]
    idle = [int(x) for x in open(os.path.join(d, 'idle.rtt')) if x.strip()]
    pings = load_ping(d, off)

    # --- the bottleneck: backlog at every packet, each packet's wait ---
    q = 0
    qbytes = 0
    enq = {}
    backlog = []       # (t, packets after the change)
    waits = []         # (t_enq, wait_us, len, backlog_at_enq)
    ping_enq = []
    for t, name, rest in ev:
        if name not in ('net_dev_queue', 'net_dev_xmit'):
            continue
        kv = dict(KV.findall(rest))
        skb, ln = kv['skbaddr'], int(kv['len'])
        if name == 'net_dev_queue':
            enq[skb] = (t, ln, q)
            q += 1
            qbytes += ln
            if ln < 200:
                ping_enq.append((t, skb))
        else:
            if skb in enq:
                te, l0, q0 = enq.pop(skb)
                waits.append((te, t - te, l0, q0))
            q = max(q - 1, 0)
            qbytes = max(qbytes - ln, 0)
        backlog.append((t, q))
    # Ping requests: the small packets, matched to ping's send times.
    wait_of = {}
    for te, w, ln, q0 in waits:
        if ln < 200:
            wait_of[te] = (w, q0)
    pe = sorted(wait_of)
    prows = []
    j = 0
    for ts, rtt, seq in pings:
        while j + 1 < len(pe) and abs(pe[j + 1] - ts) < abs(pe[j] - ts):
            j += 1
        if pe and abs(pe[j] - ts) < 2000:
            w, q0 = wait_of[pe[j]]
            prows.append((pe[j], rtt, w, q0, seq))
    print('idle RTT (ping, 100 probes): %s' % fmt(idle))
    rtts = [r for _, r, _ in pings]
    print('ping RTT under load: %s' % fmt(rtts))
    print('ping wait in the FIFO: %s' % fmt([w for _, _, w, _, _ in prows]))
    print('ping RTT less its FIFO wait: %s' %
          fmt([r - w for _, r, w, _, _ in prows]))
    print('ping: packets ahead at arrival: %s' %
          fmt([q0 for _, _, _, q0, _ in prows]))

    # Backlog over the ping window, time-weighted, sampled every 10 us.
    samp = []
    k = 0
    cur = 0
    t = p0
    while t < p1:
        while k < len(backlog) and backlog[k][0] <= t:
            cur = backlog[k][1]
            k += 1
        samp.append(cur)
        t += 10
    print('FIFO backlog, packets (every 10 us of the ping window): %s' %
          fmt(samp, (1, 10, 50, 90, 99)))
    print('  as wait: p50 %.0f us p90 %.0f us p99 %.0f us (x %.1f us)' %
          (pct(samp, 50) * PKT_US, pct(samp, 90) * PKT_US,
           pct(samp, 99) * PKT_US, PKT_US))
    print('  link idle (backlog 0): %.1f %% of the window' %
          (100.0 * samp.count(0) / len(samp)))
    # Data packets' own waits (what swift's samples see, less the path).
    dw = [w for te, w, ln, _ in waits if ln > 1000 and p0 <= te < p1]
    print('data packets\' FIFO wait: %s' % fmt(dw))

    # Cycle: an episode is a busy period of the FIFO (backlog > 0 with
    # gaps below 300 us bridged), its peak and length.
    eps = []
    start = None
    peak = 0
    last_zero = None
    for t, b in backlog:
        if t < p0 or t >= p1:
            continue
        if b > 0:
            if start is None:
                if last_zero is not None and eps and \
                        t - last_zero < 300:
                    start, peak = eps.pop()[:2]
                else:
                    start, peak = t, 0
            peak = max(peak, b)
        elif start is not None:
            eps.append((start, peak, t))
            start = None
            last_zero = t
    if eps:
        lens = [e - s for s, _, e in eps]
        gaps = [eps[i + 1][0] - eps[i][2] for i in range(len(eps) - 1)]
        print('busy periods (idle gaps < 300 us bridged): %d in %.2f s' %
              (len(eps), (p1 - p0) / 1e6))
        print('  length us: %s' % fmt(lens))
        print('  peak backlog: %s' % fmt([p for _, p, _ in eps]))
        print('  idle gap us: %s' % fmt(gaps))

    # --- swift's decisions -------------------------------------------
    flows = {}
    for t, name, rest in ev:
        if name != 'swift_update':
            continue
        kv = dict(KV.findall(rest))
        if kv['dport'] != '5201':
            continue
        f = flows.setdefault(kv['sport'], [])
        o, n = (int(x) for x in kv['fcwnd'].split('->'))
        f.append((t, kv['reason'], o, n, int(kv['delay_us']),
                  int(kv['target_us']), int(kv['base_us']),
                  int(kv['lift_us'])))
    win = p1 - p0
    allw = []
    print('per flow, over the ping window (fcwnd in packets):')
    for sp in sorted(flows):
        f = [e for e in flows[sp] if p0 <= e[0] < p1]
        if not f:
            continue
        ai = [e for e in f if e[1] == 'ai']
        md = [e for e in f if e[1] == 'md']
        oth = [e for e in f if e[1] not in ('ai', 'md')]
        tg = [e[5] for e in f]
        print(' sport %s: %d ai, %d md (%.0f/s), other %s' %
              (sp, len(ai), len(md), len(md) / win * 1e6,
               sorted(set(e[1] for e in oth))))
        print('   target us: %s; base %s lift %s' %
              (fmt(tg, (1, 50, 99)), sorted(set(e[6] for e in f))[:4],
               sorted(set(e[7] for e in f))[:4]))
        print('   delay at ai: %s' % fmt([e[4] for e in ai]))
        print('   delay at md: %s' % fmt([e[4] for e in md]))
        print('   fcwnd: %s' % fmt([e[3] / 1000 for e in f]))
        print('   cut factor %%: %s' %
              fmt([100.0 * e[3] / e[2] for e in md if e[2]]))
        print('   ai step mpkt: %s' % fmt([e[3] - e[2] for e in ai]))
        allw.extend(f)
    # Sum of the windows over time.
    last = {}
    sums = []
    for sp in flows:
        for e in flows[sp]:
            pass
    merged = sorted((e[0], sp, e) for sp in flows for e in flows[sp])
    for t, sp, e in merged:
        last[sp] = e[3]
        if p0 <= t < p1 and len(last) == len(flows):
            sums.append(sum(last.values()) / 1000)
    print('sum of fcwnd (at each event): %s' % fmt(sums))
    tgt_all = [e[5] for e in allw]
    bases = [e[6] for e in allw]
    print('all flows: target %s; base %s' % (fmt(tgt_all, (1, 50, 99)),
                                            fmt(bases, (1, 50, 99))))

    # In flight per flow at each ACK (tcp_probe) and their sum.
    infl = {}
    isum = []
    for t, name, rest in ev:
        if name != 'tcp_probe':
            continue
        kv = dict(KV.findall(rest))
        sp = kv['src'].rsplit(':', 1)[1]
        if sp not in flows:
            continue
        n = (int(kv['snd_nxt'], 16) - int(kv['snd_una'], 16)) % (1 << 32)
        infl[sp] = n / 1428.0
        if p0 <= t < p1 and len(infl) == len(flows):
            isum.append(sum(infl.values()))
    if isum:
        print('packets in flight, sum over flows (at each ACK): %s' %
              fmt(isum))

    # --- where the highest pings fell ---------------------------------
    # For each ping: backlog then, time since the FIFO was last empty,
    # the busy period's peak, and the decisions in the 1 ms before.
    zeros = [t for t, b in backlog if b == 0]
    import bisect
    print('highest pings (RTT, FIFO wait, packets ahead, us since the '
          'FIFO was last empty, that busy period\'s peak, ai/md in the '
          '1 ms before):')
    top = sorted(prows, key=lambda r: -r[1])
    for te, rtt, w, q0, seq in top[:8]:
        i = bisect.bisect_left(zeros, te)
        since = te - zeros[i - 1] if i > 0 else float('nan')
        pk = 0
        for s, p, e in eps:
            if s <= te <= e:
                pk = p
        na = sum(1 for e in allw if te - 1000 <= e[0] < te and
                 e[1] == 'ai')
        nm = sum(1 for e in allw if te - 1000 <= e[0] < te and
                 e[1] == 'md')
        print('  seq %d at %.1f ms: rtt %.0f wait %.0f ahead %d since-empty '
              '%.0f peak %d ai %d md %d' %
              (seq, (te - p0) / 1000, rtt, w, q0, since, pk, na, nm))
    for te, rtt, w, q0, seq in top[:around]:
        print('--- events in the 3 ms before ping seq %d (rtt %.0f):' %
              (seq, rtt))
        for t, sp, e in merged:
            if te - 3000 <= t <= te + 500:
                print('   %+8.0f %s %s %d->%d d %d t %d' %
                      (t - te, sp, e[1], e[2], e[3], e[4], e[5]))
        print('   backlog:', ' '.join('%+.0f:%d' % (t - te, b)
                                      for t, b in backlog
                                      if te - 3000 <= t <= te + 500))


if __name__ == '__main__':
    main()
