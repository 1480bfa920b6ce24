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
import bisect
import gzip
import os
import re
import statistics
import sys

LINE = re.compile(r'^\s*(.*?)-(\d+)\s+\[(\d+)\]\s+(?:\S+\s+)?([\d.]+):\s+'
                  r'([\w]+):\s+(.*)$')
KV = re.compile(r'(\w+)=(\S+)')
PKT_US = 1514 * 8 / 100.0  # one full frame at 100 Mbit/s: 121.1 us

# The bench report's nearest-rank percentile (as selftests/lib.sh's).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import percentile as pct  # noqa: E402


def backlog_every(backlog, t0, t1, dt):
    """The backlog (a list of (time, packets), in time order) as it
    stood every dt us from t0 to t1."""
    out = []
    k = 0
    cur = 0
    t = t0
    while t < t1:
        while k < len(backlog) and backlog[k][0] <= t:
            cur = backlog[k][1]
            k += 1
        out.append(cur)
        t += dt
    return out


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
    samp = backlog_every(backlog, p0, p1, 10)
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
    print('all flows: delay sample %s' % fmt([e[4] for e in allw]))
    rel = [e[4] - e[5] for e in allw]
    print('all flows: sample - target %s; %.0f %% at or above' %
          (fmt(rel), 100.0 * sum(1 for x in rel if x >= 0) / len(rel)))
    cycle(backlog, allw, prows, p0, p1)

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

    top = sorted(prows, key=lambda r: -r[1])
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


def cycle(backlog, allw, prows, p0, p1, dt=50):
    """The backlog's cycle: its 0.5 ms mean sampled every dt us, peaks
    and troughs at least a packet apart, the decisions between them,
    and where the highest pings fell in it."""
    s = backlog_every(backlog, p0, p1, dt)
    w = 500 // dt
    sm = []
    for i in range(len(s)):
        part = s[max(0, i - w // 2):i + w // 2]
        sm.append(sum(part) / len(part))
    pk, tr = [], []
    up = True
    ei = 0
    for i, v in enumerate(sm):
        if up:
            if v > sm[ei]:
                ei = i
            elif v < sm[ei] - 1.0:
                pk.append(ei)
                up, ei = False, i
        else:
            if v < sm[ei]:
                ei = i
            elif v > sm[ei] + 1.0:
                tr.append(ei)
                up, ei = True, i
    if len(pk) < 3 or len(tr) < 3:
        print('no cycle found')
        return
    print('cycle: %d peaks in %.2f s; period us %s' %
          (len(pk), (p1 - p0) / 1e6,
           fmt([(pk[i + 1] - pk[i]) * dt for i in range(len(pk) - 1)])))
    print('  backlog (0.5 ms mean) at peaks %s' % fmt([sm[i] for i in pk]))
    print('  backlog (0.5 ms mean) at troughs %s' % fmt([sm[i] for i in tr]))
    print('  highest backlog of each cycle %s' %
          fmt([max(s[tr[j]:tr[j + 1]]) for j in range(len(tr) - 1)]))
    allw = sorted(allw)
    times = [e[0] for e in allw]
    rise, rai, add, cut = [], [], [], []
    for j in range(len(tr) - 1):
        nxt = [i for i in pk if tr[j] < i < tr[j + 1]]
        if not nxt:
            continue
        ta, tp, tb = (p0 + x * dt for x in (tr[j], nxt[0], tr[j + 1]))
        a = bisect.bisect_left(times, ta)
        b = bisect.bisect_left(times, tp)
        c = bisect.bisect_left(times, tb)
        rise.append(tp - ta)
        rai.append(sum(1 for e in allw[a:b] if e[1] == 'ai'))
        add.append(sum(e[3] - e[2] for e in allw[a:c] if e[1] == 'ai') /
                   1000)
        cut.append(sum(e[2] - e[3] for e in allw[a:c] if e[1] == 'md') /
                   1000)
    print('  rise (trough to peak) us %s' % fmt(rise))
    print('  increases in the rise %s' % fmt(rai))
    print('  packets added per cycle %s' % fmt(add, (10, 50, 90)))
    print('  packets cut per cycle %s' % fmt(cut, (10, 50, 90)))
    print('highest pings: RTT, FIFO wait, packets ahead, us to the '
          'nearest peak (- before it), 0.5 ms backlog then, '
          'increases and cuts in the 2 ms before:')
    for te, rtt, wt, q0, seq in sorted(prows, key=lambda r: -r[1])[:8]:
        i = int((te - p0) / dt)
        near = min(pk, key=lambda x: abs(x - i))
        na = sum(1 for e in allw if te - 2000 <= e[0] < te and
                 e[1] == 'ai')
        nm = sum(1 for e in allw if te - 2000 <= e[0] < te and
                 e[1] == 'md')
        print('  seq %d: %.0f %.0f %d %+d %.1f ai %d md %d' %
              (seq, rtt, wt, q0, (i - near) * dt,
               sm[min(i, len(sm) - 1)], na, nm))


if __name__ == '__main__':
    main()
