#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Where scenario 6's slow RPCs come from, from traced runs.

    tools/bench/s6tail.py DIR... [--cc CC] [--slow X] [--show N]

Each DIR is a bench result (BENCH_OUT) of scenario 6 run with S6_TRACE=1
(tools/bench/scenarios.sh keeps, per run CC.R: the clients' RPC_EACH
lines CC.R.cN.each, the ftrace text CC.R.cctrace.gz on the mono clock,
the client's capture CC.R.cli.pcap and the paths' CC.R.a.pcap and
CC.R.b.pcap).  For every run of CC (default: every traced row), every
RPC slower than X times the median of the row's RPCs (default 3) is
tied to where its time went, the first of these that its trace shows:

  A via ORIGIN[, timeout|, loss]
            some of its data packets left the router on path A, under
            labels that came from ORIGIN: the connection's first label,
            PLB's repath (a plb_repath event before the label's first
            packet) or TCP's timeout rehash; a retransmit timeout
            (kprobe on tcp_enter_loss beside a retransmission, or
            swift_update reason=rto) or other losses during it
  B, timeout / B, loss repaired
            on path B only, with a timeout or other losses
  B, paced (window < 2)
            swift's window below two packets when the RPC began: TCP
            sends it paced, a packet every rtt_p / cwnd
  B, window (rounds)
            its packets left the client in bursts over more than 3
            round trips
  B, queue  none of the above: its packets waited in path B's FIFO

Per mechanism it counts the slow RPCs, those over the target (2 x the
quiet runs' worst-client p99) and the clients whose p99 they are, and
with several DIRs the total; --show N prints the N slowest RPCs'
timelines (packets, paths, ACKs, swift's and PLB's events).  python3
stdlib only.
"""
import glob
import gzip
import os
import re
import statistics
import struct
import sys

LINE = re.compile(r'^\s*(.*?)-(\d+)\s+\[(\d+)\]\s+(?:\S+\s+)?([\d.]+):\s+'
                  r'([\w]+):\s+(.*)$')
KV = re.compile(r'(\w+)=(\S+)')
PORT = 7000


def read_pcap(path):
    """[(t_s, sport, dport, seq, ack, paylen, flags, flowlabel)] of the
    IPv6 TCP packets of an Ethernet capture (timestamps real time)."""
    out = []
    if not os.path.exists(path):
        return out
    with open(path, 'rb') as f:
        data = f.read()
    if len(data) < 24:
        return out
    magic = struct.unpack('<I', data[:4])[0]
    if magic in (0xa1b2c3d4, 0xa1b23c4d):
        end = '<'
    else:
        end = '>'
        magic = struct.unpack('>I', data[:4])[0]
    div = 1e9 if magic == 0xa1b23c4d else 1e6
    off = 24
    while off + 16 <= len(data):
        sec, frac, incl, _ = struct.unpack(end + 'IIII', data[off:off + 16])
        pkt = data[off + 16:off + 16 + incl]
        off += 16 + incl
        if len(pkt) < 14 + 40 or pkt[12:14] != b'\x86\xdd':
            continue
        ip = pkt[14:]
        label = struct.unpack('>I', ip[:4])[0] & 0xfffff
        plen = struct.unpack('>H', ip[4:6])[0]
        nh = ip[6]
        o = 40
        while nh in (0, 43, 60) and o + 2 <= len(ip):
            nh, hl = ip[o], (ip[o + 1] + 1) * 8
            plen -= hl
            o += hl
        if nh != 6 or o + 20 > len(ip):
            continue
        sp, dp, seq, ack, doff = struct.unpack('>HHIIB', ip[o:o + 13])
        flags = ip[o + 13]
        paylen = plen - (doff >> 4) * 4
        out.append((sec + frac / div, sp, dp, seq, ack, paylen, flags,
                    label))
    return out


def read_trace(path, plain=None):
    """{sport: [(t_s, event, {k: v})]} of the client sockets' events,
    and the kprobe events [(t_s, name, cpu)]: from the gzipped ftrace
    text at path, or if that has no event, PLB's repaths alone from the
    plain text at plain (the run's CC.R.trace)."""
    per = {}
    kp = []
    lines = []
    if os.path.exists(path):
        with gzip.open(path, 'rt', errors='replace') as f:
            lines = f.readlines()
    if not lines and plain and os.path.exists(plain):
        with open(plain, errors='replace') as f:
            lines = f.readlines()
    if lines:
        for line in lines:
            m = LINE.match(line)
            if not m:
                continue
            t = float(m.group(4))
            ev = m.group(5)
            kv = dict(KV.findall(m.group(6)))
            if ev in ('rto', 'tlp'):
                kp.append((t, ev, m.group(3)))
                continue
            if ev == 'tcp_probe':
                sp = kv.get('src', '').rsplit(':', 1)[-1]
                dp = kv.get('dest', '').rsplit(':', 1)[-1]
            else:
                sp, dp = kv.get('sport'), kv.get('dport')
            if dp != str(PORT) or not sp:
                continue
            per.setdefault(int(sp), []).append((t, ev, kv))
    for v in per.values():
        v.sort(key=lambda e: e[0])
    return per, kp


def read_each(path):
    """(port, [(index, mono_s, real_s, dur_s)]) of one client."""
    port = None
    rpcs = []
    with open(path) as f:
        for line in f:
            if line.startswith('port='):
                port = int(line[5:])
                continue
            p = line.split()
            if len(p) == 4:
                rpcs.append((int(p[0]), int(p[1]) / 1e6, int(p[2]) / 1e6,
                             int(p[3]) / 1e6))
    return port, rpcs


def seq_after(a, b):
    return ((a - b) & 0xffffffff) < 0x80000000 and a != b


class Run:
    """One traced run CC.R of scenario 6."""

    def __init__(self, d, tag):
        self.tag = tag
        self.clients = {}
        for p in sorted(glob.glob(os.path.join(d, tag + '.c*.each'))):
            port, rpcs = read_each(p)
            if port:
                self.clients[port] = rpcs
        self.ev, self.kp = read_trace(os.path.join(d, tag + '.cctrace.gz'),
                                      os.path.join(d, tag + '.trace'))
        # real - mono, from the clients' lines (the same instant).
        offs = [r[2] - r[1] for rp in self.clients.values() for r in rp]
        self.off = statistics.median(offs) if offs else 0.0
        self.cli = read_pcap(os.path.join(d, tag + '.cli.pcap'))
        self.path = {}
        for p in ('a', 'b'):
            for pk in read_pcap(os.path.join(d, '%s.%s.pcap' % (tag, p))):
                if pk[5] > 0:
                    self.path.setdefault(pk[1], []).append(
                        (pk[0], p.upper(), pk[3], pk[7]))
        for v in self.path.values():
            v.sort()

    def mono(self, real):
        return real - self.off

    def events(self, port, t0, t1):
        return [e for e in self.ev.get(port, []) if t0 <= e[0] <= t1]

    def last_swift(self, port, t):
        last = None
        for e in self.ev.get(port, []):
            if e[0] > t:
                break
            # Not the handshake's sample (the windows not set yet).
            if e[1] == 'swift_update' and \
                    not e[2].get('fcwnd', '').startswith('0->'):
                last = e
        return last

    def analyse(self, port, rpc):
        """The evidence of one RPC: a dict."""
        _, m0, r0, dur = rpc
        m1 = m0 + dur
        r1 = r0 + dur
        out = {'port': port, 'idx': rpc[0], 'start': m0, 'dur': dur,
               'r0': r0, 'r1': r1}
        ev = self.events(port, m0, m1)
        out['retx'] = [e for e in ev if e[1] == 'tcp_retransmit_skb']
        # A kprobe (any socket) within 50 us before one of this
        # connection's retransmissions: the timeout or probe that sent it.
        rto = []
        tlp = []
        for e in out['retx']:
            for k in self.kp:
                if e[0] - 50e-6 <= k[0] <= e[0]:
                    (rto if k[1] == 'rto' else tlp).append(e[0])
        out['rto'] = sorted(set(rto))
        out['tlp'] = sorted(set(tlp))
        out['swift_rto'] = [e for e in ev if e[1] == 'swift_update' and
                            e[2].get('reason') in ('rto', 'rto_reset')]
        out['recov'] = [e for e in ev if e[1] == 'swift_update' and
                        e[2].get('reason') == 'recovery']
        out['repath'] = [e for e in ev if e[1] == 'plb_repath']
        out['updates'] = [e for e in ev if e[1] == 'swift_update']
        out['probes'] = [e for e in ev if e[1] == 'tcp_probe']
        before = self.last_swift(port, m0)
        out['before'] = before
        # The data packets as they left RTR, by path (real time).
        pk = [p for p in self.path.get(port, []) if r0 <= p[0] <= r1 + 0.001]
        out['paths'] = ''.join(sorted({p[1] for p in pk}))
        out['labels'] = sorted({'%05x' % p[3] for p in pk})
        out['n_a'] = sum(1 for p in pk if p[1] == 'A')
        out['n_b'] = sum(1 for p in pk if p[1] == 'B')
        # The client's own view: its data packets out, ACKs and the reply in.
        sent = [p for p in self.cli if p[1] == port and p[2] == PORT and
                p[5] > 0 and r0 - 0.0005 <= p[0] <= r1]
        acks = [p for p in self.cli if p[2] == port and p[1] == PORT and
                r0 - 0.0005 <= p[0] <= r1 + 0.0005]
        out['sent'] = sent
        out['acks'] = acks
        if sent:
            gaps = [b[0] - a[0] for a, b in zip(sent, sent[1:])]
            out['send_span'] = sent[-1][0] - sent[0][0]
            out['max_gap'] = max(gaps) if gaps else 0.0
            hi = sent[0][3]
            re_n = 0
            for p in sent[1:]:
                if seq_after(p[3] + 1, hi) or p[3] == hi:
                    hi = p[3] if seq_after(p[3], hi) else hi
                else:
                    re_n += 1
            out['wire_retx'] = re_n
            out['first_out'] = sent[0][0] - r0
            out['last_out'] = sent[-1][0] - r0
        else:
            out['send_span'] = out['max_gap'] = 0.0
            out['wire_retx'] = 0
            out['first_out'] = out['last_out'] = float('nan')
        out['npk'] = len(sent)
        # Packets the paths' FIFOs dropped: sent by the client more often
        # than RTR sent them on (a retransmission is a send more).
        n_c = {}
        for p in sent:
            n_c[p[3]] = n_c.get(p[3], 0) + 1
        n_p = {}
        for p in self.path.get(port, []):
            if r0 - 0.0005 <= p[0] <= r1 + 0.2:
                n_p[p[2]] = n_p.get(p[2], 0) + 1
        out['drops'] = sum(max(0, n - n_p.get(q, 0)) for q, n in n_c.items())
        # Its time: to the first retransmission, to its last packet on A,
        # and from there (on B) to the answer.
        seen = set()
        out['t_retx'] = None
        for p in sent:
            if p[3] in seen:
                out['t_retx'] = p[0] - r0
                break
            seen.add(p[3])
        on_a = [p[0] for p in pk if p[1] == 'A']
        out['t_a_end'] = (max(on_a) - r0) if on_a else None
        return out


def label_origin(run, port, label):
    """How the connection came to send under label (a flow label, int):
    'connect' (its first), 'rto' (TCP's rehash on a retransmit timeout,
    or on a SYN's), 'plb' (a plb_repath event just before), '?'."""
    pk = [p for p in run.cli if p[1] == port and p[2] == PORT]
    if not pk:
        return '?'
    if pk[0][7] == label:
        return 'connect'
    first = next((p for p in pk if p[7] == label), None)
    if first is None:
        return '?'
    tm = run.mono(first[0])
    best = None
    for e in run.ev.get(port, []):
        if e[0] > tm + 1e-4:
            break
        if e[1] == 'plb_repath':
            best = ('plb', e[0])
        if e[1] == 'tcp_retransmit_skb':
            if any(e[0] - 50e-6 <= k[0] <= e[0] and k[1] == 'rto'
                   for k in run.kp):
                best = ('rto', e[0])
    if best and tm - best[1] < 0.5:
        if best[0] == 'plb':
            # Where the label it left took the connection's packets.
            prev = [p[7] for p in pk if p[0] < first[0] and p[7] != label]
            paths = {q[1] for q in run.path.get(port, [])
                     if prev and q[3] == prev[-1]}
            return 'plb' + (''.join(sorted(paths)) if paths else '')
        return best[0]
    return '?'


ORIGIN = {'connect': 'first label', 'plb': "PLB's repath",
          'plbA': "PLB's repath from A", 'plbB': "PLB's repath from B",
          'plbAB': "PLB's repath from A and B",
          'rto': "TCP's timeout rehash", '?': 'label of unknown origin'}


def classify(run, a, paced_mpkt=2000):
    """Where the RPC's time went (module docstring)."""
    rto = bool(a['rto'] or a['swift_rto'])
    loss = bool(a['drops'] or a['retx'] or a['wire_retx'])
    if a['n_a']:
        labs = [p[3] for p in run.path.get(a['port'], [])
                if p[1] == 'A' and a['r0'] <= p[0] <= a['r1'] + 0.001]
        org = []
        for lb in labs:
            o = label_origin(run, a['port'], lb)
            if o not in org:
                org.append(o)
        return 'A via %s%s' % (' then '.join(ORIGIN[o] for o in org),
                               ', timeout' if rto else
                               (', loss' if loss else ''))
    if rto:
        return 'B, timeout'
    if loss or a['recov']:
        return 'B, loss repaired'
    b = a['before']
    if b is not None:
        kv = b[2]
        w = min(int(kv['fcwnd'].split('->')[1]),
                int(kv['ecwnd'].split('->')[1]))
        if w < paced_mpkt:
            return 'B, paced (window < 2)'
    srtts = [int(p[2]['srtt']) for p in a['probes'] if 'srtt' in p[2]]
    rtt = (min(srtts) / 1e6) if srtts else 0.0005
    if a['send_span'] > 3 * max(rtt, 0.0005) and a['max_gap'] > rtt:
        return 'B, window (rounds)'
    return 'B, queue'


def win(e):
    if e is None:
        return '-'
    kv = e[2]
    return 'f %s e %s d %s t %s' % (kv['fcwnd'].split('->')[1],
                                    kv['ecwnd'].split('->')[1],
                                    kv.get('delay_us'), kv.get('target_us'))


def show(run, a):
    print('  %s port %d rpc %d at %.6f: %.1f ms, %d pkts, first out '
          '+%.2f ms, last out +%.2f ms, max gap %.2f ms, paths %s %s' %
          (run.tag, a['port'], a['idx'], a['start'], a['dur'] * 1e3,
           a['npk'], a['first_out'] * 1e3, a['last_out'] * 1e3,
           a['max_gap'] * 1e3, a['paths'] or '-', ','.join(a['labels'])))
    print('    window before: %s' % win(a['before']))
    evs = sorted(a['updates'] + a['retx'] + a['repath'] + a['probes'],
                 key=lambda e: e[0])
    # The client's packets (real time to mono), with the path that
    # carried each data packet (the first RTR sent after it).
    port = a['port']
    isn = None
    for p in run.cli:
        if p[1] == port and p[2] == PORT and p[6] & 2:
            isn = p[3]
    for p in run.cli:
        if port not in (p[1], p[2]) or not \
                a['r0'] - 0.0002 <= p[0] <= a['r1'] + 0.0002:
            continue
        if p[1] == port:
            if p[5] <= 0:
                continue
            where = '?'
            for q in run.path.get(port, []):
                if q[2] == p[3] and q[0] >= p[0]:
                    where = '%s after %.1f ms' % (q[1], (q[0] - p[0]) * 1e3)
                    break
            evs.append((run.mono(p[0]), 'out', {'txt': 'seq %d len %d '
                        'label %05x %s' % ((p[3] - (isn or 0)) & 0xffffffff,
                                           p[5], p[7], where)}))
        else:
            evs.append((run.mono(p[0]), 'in', {'txt': 'ack %d len %d' % (
                (p[4] - (isn or 0)) & 0xffffffff, p[5])}))
    for k in a['rto']:
        evs.append((k, 'RTO', {}))
    for k in a['tlp']:
        evs.append((k, 'TLP', {}))
    evs.sort(key=lambda e: e[0])
    for e in evs:
        kv = e[2]
        if e[1] == 'swift_update':
            s = '%s fcwnd=%s ecwnd=%s delay=%s target=%s base=%s ep=%s' % (
                kv['reason'], kv['fcwnd'], kv['ecwnd'], kv['delay_us'],
                kv['target_us'], kv['base_us'], kv['ep_us'])
        elif e[1] == 'tcp_probe':
            s = 'cwnd=%s srtt=%s una=%s nxt=%s' % (
                kv.get('snd_cwnd'), kv.get('srtt'), kv.get('snd_una'),
                kv.get('snd_nxt'))
        elif e[1] == 'plb_repath':
            s = '%s %s' % (kv.get('event'), kv.get('txhash'))
        elif 'txt' in kv:
            s = kv['txt']
        else:
            s = ' '.join('%s=%s' % x for x in kv.items()
                         if x[0] in ('state',))
        print('    +%8.3f ms %-18s %s' % ((e[0] - a['start']) * 1e3, e[1], s))


def one_dir(d, ccs, slow_x, nshow, total):
    """Print one bench result's traced rows; add its counts to total
    ({cc: {mechanism: [slow, over target, p99s]}})."""
    raw = os.path.join(d, 'raw', 's6')
    if not os.path.isdir(raw):
        raw = d
    tags = sorted({os.path.basename(p)[:-len('.cctrace.gz')] for p in
                   glob.glob(os.path.join(raw, '*.cctrace.gz'))})
    rows = {}
    for t in tags:
        cc = t.rsplit('.', 1)[0]
        if ccs and cc not in ccs:
            continue
        rows.setdefault(cc, []).append(t)
    quiet = quiet_p99(raw)
    print('== %s' % d)
    for cc, ts in rows.items():
        runs = [Run(raw, t) for t in ts]
        allrpc = [r[3] for run in runs for rp in run.clients.values()
                  for r in rp]
        if not allrpc:
            continue
        med = statistics.median(allrpc)
        qp = quiet.get(cc.split('+')[0].split('@')[0])
        target = 2 * qp if qp else float('inf')
        print('%s: %d runs, %d RPCs, median %.2f ms; slow: > %.1f x = '
              '%.2f ms; target: 2 x the quiet path\'s p99 (%s) = %.1f ms' %
              (cc, len(runs), len(allrpc), med * 1e3, slow_x,
               slow_x * med * 1e3, '%.1f ms' % (qp * 1e3) if qp else '-',
               target * 1e3))
        counts = total.setdefault(cc, {})
        slow = []
        b_only = total.setdefault(cc + ' never on A', [])
        mine = {}
        for run in runs:
            p99 = []
            for port, rp in sorted(run.clients.items()):
                ts_ = sorted(r[3] for r in rp)
                n = len(ts_)
                p99.append((ts_[(n * 99 - 1) // 100] if n else 0, port))
                for r in rp:
                    if r[3] > slow_x * med:
                        a = run.analyse(port, r)
                        a['cls'] = classify(run, a)
                        a['p99'] = n and r[3] == ts_[(n * 99 - 1) // 100]
                        slow.append((run, a))
                        for m in (counts, mine):
                            c = m.setdefault(a['cls'], [0, 0, 0])
                            c[0] += 1
                            c[1] += r[3] > target
                            c[2] += bool(a['p99'])
            total.setdefault(cc + ' draws', []).append(max(p99)[0])
            print('  %s: worst client p99 %.1f ms (port %d); clients\' p99 '
                  '%s ms (* never on A)' %
                  (run.tag, max(p99)[0] * 1e3, max(p99)[1],
                   ' '.join('%.1f%s' % (x[0] * 1e3, '' if any(
                       q[1] == 'A' for q in run.path.get(x[1], []))
                       else '*') for x in p99)))
            never = [x[0] for x in p99 if not any(
                q[1] == 'A' for q in run.path.get(x[1], []))]
            b_only.extend(never)
        table(mine)
        print('  (slow: RPCs over %.1f x the median; >tgt: over the target; '
              'p99s: clients whose p99 it is)' % slow_x)
        for run, a in slow:
            ms = (lambda x: '-' if x is None else '%.0f' % (x * 1e3))
            print('  %7.1f ms %s port %d rpc %2d: %s; pkts %d drops %d '
                  'retx %d rto %d repath %d maxgap %.1f ms; 1st retx +%s, '
                  'last on A +%s ms; before: %s' %
                  (a['dur'] * 1e3, run.tag, a['port'], a['idx'], a['cls'],
                   a['npk'], a['drops'], len(a['retx']),
                   len(a['rto']) + len(a['swift_rto']), len(a['repath']),
                   a['max_gap'] * 1e3, ms(a['t_retx']), ms(a['t_a_end']),
                   win(a['before'])))
        slow.sort(key=lambda x: -x[1]['dur'])
        for run, a in slow[:nshow]:
            show(run, a)


def table(counts):
    print('  %-60s %6s %6s %6s' % ('mechanism', 'slow', '>tgt', 'p99s'))
    for k, v in sorted(counts.items(), key=lambda x: (-x[1][1], -x[1][0])):
        print('  %-60s %6d %6d %6d' % (k, v[0], v[1], v[2]))


def main(argv):
    args = argv[1:]
    dirs = []
    ccs = None
    slow_x = 3.0
    nshow = 0
    while args:
        a = args.pop(0)
        if a == '--cc':
            ccs = args.pop(0).split(',')
        elif a == '--slow':
            slow_x = float(args.pop(0))
        elif a == '--show':
            nshow = int(args.pop(0))
        else:
            dirs.append(a)
    if not dirs:
        print(__doc__)
        return 2
    total = {}
    for d in dirs:
        one_dir(d, ccs, slow_x, nshow, total)
    if len(dirs) < 2:
        return 0
    for cc in sorted(k for k in total if ' ' not in k):
        draws = sorted(total[cc + ' draws'])
        never = total[cc + ' never on A']
        print('== %s, all %d draws: worst client p99 %s ms' %
              (cc, len(draws), ' '.join('%.0f' % (x * 1e3) for x in draws)))
        if never:
            print('  clients never on A: %d, p99 %.1f-%.1f ms' %
                  (len(never), min(never) * 1e3, max(never) * 1e3))
        table(total[cc])
    return 0


def quiet_p99(raw):
    """{cc: median over the quiet runs of the worst client's p99 (s)}."""
    per = {}
    for p in glob.glob(os.path.join(raw, 'quiet.*.c[0-9]*')):
        b = os.path.basename(p)
        if b.endswith('.each'):
            continue
        parts = b.split('.')
        cc, r = '.'.join(parts[1:-2]), parts[-2]
        with open(p) as f:
            kv = dict(KV.findall(f.read()))
        if 'p99_us' in kv:
            k = (cc, r)
            per[k] = max(per.get(k, 0), int(kv['p99_us']) / 1e6)
    out = {}
    for (cc, _), v in per.items():
        out.setdefault(cc, []).append(v)
    return {cc: statistics.median(v) for cc, v in out.items()}


if __name__ == '__main__':
    sys.exit(main(sys.argv))
