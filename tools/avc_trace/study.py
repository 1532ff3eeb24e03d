#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The study of the shipped traces (Documentation/reports/study.rst), host side.

  study.py --check-meta TRACE...
  study.py --slots-sweep LOG [--slots-sweep LOG ...] --csv FILE TRACE...
  study.py [--replay-log LOG] [--seed-log SEED=LOG ...] [--plots DIR]
           [--thresholds LIST] TRACE...

TRACE is an AVC trace (tools/avcstat/avc_trace_format.h), plain or .xz,
with its NAME.meta beside it.  Per trace: what the trace itself says
(lookups, keys, the working set), the misses of an exact LRU and of
Belady's MIN of each threshold's capacity (fully associative, emptied at
each reset: avc-advise's engine, tools/avcstat/avc-curve, computes
both), and with the logs of tools/native/run replay, avc_rcu's under
each policy and hash seed, and the capacity misses' CPU time.
--slots-sweep: only the slots sweep's table and CSV.  --check-meta: only
check each trace against its metadata and the compressed traces' budget.
"""

import argparse
import csv
import lzma
import os
import re
import statistics
import struct
import subprocess
import sys

HEADER = struct.Struct('<8sIIQII')
RECORD = struct.Struct('<IIIIHHB3x')		# version 1
RECORD2 = struct.Struct('<QIIIIHHBBHIIIIII')	# version 2
F_HIT, F_DECIDED = 1, 2
MAGIC = b'AVCTRACE'
LOOKUP, RESET, UPDATE = 0, 1, 2
POLICIES = ('lru', 'fifo', 'newest')
THRESHOLDS = tuple(2 ** i for i in range(4, 14))	# 16 .. 8192
WINDOWS = (1000, 10000, 100000)
SEED = 2004		# the main replay's hash_seed (tools/avc_trace/replay)
INF = float('inf')


class Trace:
    """One trace: its lookups as key numbers, where it resets, its meta."""

    def __init__(self, path):
        self.path = path
        self.name = re.sub(r'\.trace(\.xz)?$', '', os.path.basename(path))
        opener = lzma.open if path.endswith('.xz') else open
        with opener(path, 'rb') as f:
            data = f.read()
        magic, version, size, nrecords, flags, reserved = \
            HEADER.unpack_from(data)
        rec = {1: RECORD, 2: RECORD2}.get(version)
        if (magic != MAGIC or not rec or size != rec.size or
                flags or reserved):
            sys.exit(f'{path}: not a version 1 or 2 AVC trace')
        if len(data) != HEADER.size + nrecords * rec.size:
            sys.exit(f'{path}: {len(data)} bytes, the header announces '
                     f'{nrecords} records')
        self.version, self.records = version, nrecords
        # The key number of each lookup, the lookups before each reset;
        # version 2: the time of each lookup (ns) and the kernel's hits.
        self.keys, self.resets, self.times = [], [], []
        self.updates = self.kernel_hits = self.kernel_decided = 0
        ids = {}
        body = memoryview(data)[HEADER.size:]
        if version == 1:
            rows = ((seq, ssid, tsid, tclass, kind, 0, 0)
                    for seq, ssid, tsid, _req, tclass, _cpu, kind
                    in RECORD.iter_unpack(body))
        else:
            rows = ((seq, ssid, tsid, tclass, kind, ts, fl)
                    for ts, seq, ssid, tsid, _req, tclass, _cpu, kind, fl,
                    *_rest in RECORD2.iter_unpack(body))
        for i, (seq, ssid, tsid, tclass, kind, ts, fl) in enumerate(rows):
            if seq != i & 0xffffffff:
                sys.exit(f'{path}: record {i} has seq {seq}')
            if kind == LOOKUP:
                self.keys.append(ids.setdefault((ssid, tsid, tclass),
                                                len(ids)))
                if version == 2:
                    self.times.append(ts)
                    self.kernel_hits += bool(fl & F_HIT)
                    self.kernel_decided += bool(fl & F_DECIDED)
            elif kind == RESET:
                self.resets.append(len(self.keys))
            elif kind == UPDATE:
                self.updates += 1
            else:
                sys.exit(f'{path}: record {i} of unknown kind {kind}')
        self.distinct = len(ids)
        with open(re.sub(r'\.trace(\.xz)?$', '.meta', path)) as f:
            self.meta = dict(line.rstrip('\n').partition('=')[::2]
                             for line in f)

    def segments(self):
        """The lookups between resets, as (start, end) index pairs."""
        edges = [0] + self.resets + [len(self.keys)]
        return list(zip(edges, edges[1:]))


def cold_misses(trace):
    """Misses of any cache that never evicts: distinct keys per segment."""
    return sum(len(set(trace.keys[a:b])) for a, b in trace.segments())


def curve(trace, capacities):
    """avc-advise's exact LRU and Belady's MIN of each capacity, from its
    engine (tools/avcstat/avc-curve: the one copy of both): {capacity:
    (lru, min)}, and its cold misses."""
    here = os.path.dirname(os.path.abspath(__file__))
    tools = os.path.join(here, '..', 'avcstat')
    prog = os.path.join(tools, 'avc-curve')
    if subprocess.run(['make', '-s', '-C', tools, 'avc-curve']).returncode:
        sys.exit('make -C tools/avcstat avc-curve failed')
    opener = lzma.open if trace.path.endswith('.xz') else open
    with opener(trace.path, 'rb') as f:
        p = subprocess.run([prog, '--sizes',
                            ','.join(map(str, sorted(set(capacities)))),
                            '-'], input=f.read(), capture_output=True)
    if p.returncode:
        sys.exit(f'{trace.path}: {p.stderr.decode().strip()}')
    res, cold = {}, None
    for line in p.stdout.decode().splitlines():
        w = line.split()
        kv = dict(x.split('=', 1) for x in w[1:] if '=' in x)
        if w[0] == 'size':
            res[int(w[1])] = (int(kv['lru']), int(kv['min']))
        elif w[0] == 'trace':
            cold = int(kv['cold'])
    return res, cold


def working_set(trace, w):
    """Distinct keys in each window of w lookups (ending at each lookup)."""
    keys, count, out = trace.keys, {}, []
    for i, k in enumerate(keys):
        count[k] = count.get(k, 0) + 1
        if i >= w:
            old = keys[i - w]
            count[old] -= 1
            if not count[old]:
                del count[old]
        if i >= w - 1:
            out.append(len(count))
    return out


# A replay line of avc_rcu (tools/avc_trace/replay, tools/native/run
# replay), and of the model of upstream's AVC (--model upstream).
RCU_LINE = re.compile(r'^replay (\S+): slots (\d+) threshold (\d+) '
                      r'reclaim=(\w+): lookups (\d+) hits (\d+) '
                      r'misses (\d+) reclaims (\d+) ')
UPSTREAM_LINE = re.compile(r'^replay (\S+): upstream hash=(\w+) slots (\d+) '
                           r'threshold (\d+): lookups (\d+) hits (\d+) '
                           r'misses (\d+) reclaims (\d+) ')


def parse_replays(path):
    """{(trace, policy, threshold): (lookups, misses, reclaims)}, and the
    validation lines."""
    res, valid = {}, []
    with open(path) as f:
        for line in f:
            m = RCU_LINE.match(line)
            if m:
                res[(m[1], m[4], int(m[3]))] = (int(m[5]), int(m[7]),
                                                int(m[8]))
            elif line.startswith('validation '):
                valid.append(line.rstrip('\n'))
    return res, valid


def sweep_label(cache):
    """A cache of the slots sweep, (model, hash, reclaim), as labeled."""
    return {'legacy': '6.1 legacy', 'murmur3': '6.19 murmur3'}.get(
        cache[1], f'{cache[0]} {cache[2] or cache[1]}')


def parse_sweep(paths):
    """{(trace, cache, slots): (threshold, lookups, hits, misses,
    reclaims)}, and the caches (model, hash, reclaim) in their order."""
    res, caches = {}, []
    for path in paths:
        with open(path) as f:
            for line in f:
                m = RCU_LINE.match(line)
                if m:
                    name, slots, thr, pol = m[1], m[2], m[3], m[4]
                    cache = ('avc_rcu', 'jhash', pol)
                else:
                    m = UPSTREAM_LINE.match(line)
                    if not m:
                        continue
                    name, hsh, slots, thr = m[1], m[2], m[3], m[4]
                    cache = ('upstream', hsh, '')
                if cache not in caches:
                    caches.append(cache)
                res[(name, cache, int(slots))] = (int(thr),) + tuple(
                    int(m[i]) for i in range(5, 9))
    return res, caches


def report_sweep(traces, res, caches, csv_path):
    """The slots sweep's table per trace, and its CSV."""
    rows = []
    for trace in traces:
        n = len(trace.keys)
        cold = cold_misses(trace)
        slots = sorted({s for (name, _, s) in res if name == trace.name})
        if not slots:
            sys.exit(f'{trace.name}: no replay of the slots sweep')
        print(f'== {trace.name}: lookups {n}, distinct keys '
              f'{trace.distinct}, cold misses {cold} (the floor: '
              f'{ratio(n, cold):.3f} %)')
        print(f'{trace.name}: hit ratio % (misses) by slots, threshold '
              f'as replayed (= slots)')
        labels = [sweep_label(c) for c in caches]
        print(f'{"slots":>9}' + ''.join(f'{lb:>18}' for lb in labels))
        for sl in slots:
            cells = []
            for c, lb in zip(caches, labels):
                r = res.get((trace.name, c, sl))
                if r is None:
                    cells.append('-')
                    continue
                thr, lookups, hits, misses, reclaims = r
                if lookups != n:
                    sys.exit(f'{trace.name} {lb} {sl}: replayed {lookups} '
                             f'lookups, the trace has {n}')
                cells.append(f'{ratio(n, misses):.3f} ({misses})')
                rows.append([trace.name, lb, c[0], c[1], c[2],
                             SEED if c[1] == 'jhash' else '', sl, thr,
                             lookups, hits, misses, reclaims,
                             f'{ratio(n, misses):.3f}', cold,
                             misses - cold])
            print(f'{sl:>9}' + ''.join(f'{c:>18}' for c in cells))
        print(f'{trace.name}: reclaims by slots: ' + '; '.join(
            lb + ' ' + ' '.join(
                f'{sl}:{res[(trace.name, c, sl)][4]}' for sl in slots
                if (trace.name, c, sl) in res)
            for c, lb in zip(caches, labels)))
    with open(csv_path, 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(['trace', 'cache', 'model', 'hash', 'reclaim', 'seed',
                    'slots', 'threshold', 'lookups', 'hits', 'misses',
                    'reclaims', 'hit_ratio_pct', 'cold_misses',
                    'capacity_misses'])
        w.writerows(rows)


# What the shipped traces may weigh together, xz-compressed (traces.rst).
TRACE_BUDGET = 20 * 2**20


def check_meta(trace):
    """Problems between a trace and its metadata, as strings."""
    bad = []
    for key, have in (('records', trace.records),
                      ('lookups', len(trace.keys)),
                      ('resets', len(trace.resets)),
                      ('updates', trace.updates),
                      ('distinct_keys', trace.distinct)):
        want = trace.meta.get(key)
        if want is None or int(want) != have:
            bad.append(f'{key} {have}, the metadata says {want}')
    if trace.version == 2:
        # Every lookup has the kernel's answer: its hits as it counted
        # them, and a decision for all but the misses it did not insert.
        want = trace.meta.get('recorded_hits')
        if want is None or int(want) != trace.kernel_hits:
            bad.append(f'recorded_hits: the trace has {trace.kernel_hits}, '
                       f'the metadata says {want}')
        # The kernel's own counters, within the recorder's completeness
        # (its window's edges: 0.1 %).
        for key, have in (('kernel_hits', trace.kernel_hits),
                          ('kernel_misses', len(trace.keys) -
                           trace.kernel_hits)):
            want = int(trace.meta.get(key, '-1'))
            if abs(want - have) * 1000 > max(len(trace.keys), 1):
                bad.append(f'{key}: the trace has {have}, the kernel '
                           f'counted {want}')
        undecided = len(trace.keys) - trace.kernel_decided
        if str(undecided) != trace.meta.get('undecided_lookups'):
            bad.append(f'{undecided} lookups without a decision, the '
                       f'metadata says {trace.meta.get("undecided_lookups")}')
        if any(b < a for a, b in zip(trace.times, trace.times[1:])):
            bad.append('time goes back between two lookups')
    cold = cold_misses(trace)
    if not trace.resets and cold != trace.distinct:
        bad.append(f'cold misses {cold} != distinct keys {trace.distinct}')
    big = max(b - a for a, b in trace.segments()) + 1
    res, ccold = curve(trace, (big,))
    lru, opt = res[big]
    if ccold != cold:
        bad.append(f'avc-curve counts {ccold} cold misses, this reader '
                   f'{cold}')
    if lru != cold or opt != cold:
        bad.append(f'a cache of {big} misses LRU {lru}, MIN {opt}, '
                   f'not the {cold} cold misses')
    return bad


def ratio(lookups, misses):
    return 100.0 * (lookups - misses) / lookups


def report_seeds(trace, replays, seeded):
    """The misses under other hash seeds beside the main replay's, per
    policy: each seed's with three seeds or fewer, else their range."""
    seeds = [SEED] + sorted(seeded)
    runs = [replays] + [seeded[sd] for sd in seeds[1:]]
    ts = sorted({t for (name, p, t) in seeded[seeds[1]] if name == trace.name})
    pols = [p for p in POLICIES
            if all((trace.name, p, t) in r for r in runs for t in ts)]
    if not ts or not pols:
        return
    n = len(trace.keys)
    few = len(seeds) <= 3
    which = ', '.join(map(str, seeds)) if few else \
        f'{len(seeds)} seeds: {SEED} and {seeds[1]} to {seeds[-1]}'

    def cell(ms):
        if few:
            return '/'.join(map(str, ms)) + f' ({max(ms) - min(ms)})'
        return f'{min(ms)}-{max(ms)} ({max(ms) - min(ms)})'

    print(f'{trace.name}: misses by hash seed ({which}), avc_rcu per '
          f'policy; {"each seed" if few else "smallest-largest"} '
          f'(spread = largest - smallest)')
    print(f'{"threshold":>9}' + ''.join(f'{p:>26}' for p in pols))
    for t in ts:
        cells = []
        for p in pols:
            ms = [r[(trace.name, p, t)][1] for r in runs]
            if any(r[(trace.name, p, t)][0] != n for r in runs):
                sys.exit(f'{trace.name} {p} {t}: a seeded replay is short')
            cells.append(cell(ms))
        print(f'{t:>9}' + ''.join(f'{c:>26}' for c in cells))
    if 'lru' in pols and 'newest' in pols:
        print(f'{trace.name}: misses lru saves over newest, '
              f'{"by seed" if few else "smallest-largest over the seeds"}: '
              + '; '.join(
                  f'{t}: ' + cell([r[(trace.name, 'newest', t)][1] -
                                   r[(trace.name, 'lru', t)][1]
                                   for r in runs]).split(' ')[0]
                  for t in ts))


def read_misscost(trace):
    """traces/misscost-MAJOR.MINOR.txt for the trace's kernel:
    (miss_extra_mean_us, ratio_mean, its guest line), or None."""
    kernel = trace.meta.get('kernel', '')
    mm = '.'.join(kernel.split('.')[:2])
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, 'traces', f'misscost-{mm}.txt')
    if not mm or not os.path.exists(path):
        return None
    with open(path) as f:	# "KEY VALUE" lines, and "KEY=VALUE" ones
        vals = dict(line.strip().partition(
            '=' if '=' in line and not line.startswith('#') else ' ')[::2]
            for line in f)
    try:
        return (float(vals['miss_extra_mean_us']), float(vals['ratio_mean']),
                vals.get('guest', '?'))
    except (KeyError, ValueError):
        return None


def report_cost(trace, replays, seeded, thresholds):
    """Capacity misses per hour of the window and their CPU time at the
    kernel's miss cost, for newest and lru; with seeds, their range."""
    dur = float(trace.meta.get('duration_s', 0) or 0)
    if dur <= 0:
        return
    cold = cold_misses(trace)
    cost = read_misscost(trace)
    runs = [replays] + [seeded[sd] for sd in sorted(seeded)]
    pols = [p for p in ('newest', 'lru')
            if any((trace.name, p, t) in replays for t in thresholds)]
    if not pols:
        return
    wb = trace.meta.get('whole_boot_lookups')
    if wb:
        print(f'{trace.name}: the window holds {len(trace.keys)} of the '
              f'{wb} lookups the kernel counted since boot; its '
              f'{dur:.1f} s scale to an hour below')
    if cost:
        print(f'{trace.name}: a miss costs {cost[0]:.1f} µs more than a '
              f'hit ({cost[1]:.0f} hits\' time) in the kernel\'s AVC '
              f'(traces/misscost, {cost[2]}: TCG-emulated time, the ratio '
              f'carries over better than the µs)')
    print(f'{trace.name}: capacity misses (misses - {cold} cold) per hour'
          + (', and their CPU time (ms per hour)' if cost else '')
          + (', smallest-largest over the seeds' if seeded else ''))
    print(f'{"threshold":>9}' + ''.join(f'{p:>34}' for p in pols))
    for t in thresholds:
        if t < 256:
            continue
        cells = []
        for p in pols:
            ms = [r[(trace.name, p, t)][1] - cold for r in runs
                  if (trace.name, p, t) in r]
            if not ms:
                cells.append('-')
                continue
            lo, hi = (min(ms) * 3600 / dur, max(ms) * 3600 / dur)
            c = f'{lo:.0f}' if lo == hi else f'{lo:.0f}-{hi:.0f}'
            if cost:
                c += ' (' + (f'{lo * cost[0] / 1000:.0f}' if lo == hi else
                             f'{lo * cost[0] / 1000:.0f}-'
                             f'{hi * cost[0] / 1000:.0f}') + ' ms)'
            cells.append(c)
        print(f'{t:>9}' + ''.join(f'{c:>34}' for c in cells))


def advice(trace):
    """avc-advise's recommendation for the trace (its rule, the one the
    study's answers use), as its lines say it."""
    here = os.path.dirname(os.path.abspath(__file__))
    cmd = [os.path.join(here, '..', 'avcstat', 'avc-advise'), '--trace',
           trace.path]
    cost = read_misscost(trace)
    if cost:
        cmd += ['--miss-cost', str(cost[0])]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        sys.exit(f'{trace.path}: avc-advise: {p.stderr.strip()}')
    return [line.strip() for line in p.stdout.splitlines()
            if line.startswith(('recommendation:', '  at '))]


def report(trace, thresholds, replays, plots, seeded=None):
    n = len(trace.keys)
    m = trace.meta
    print(f'== {trace.name}: {m.get("workload_context", "?")}')
    print(f'{trace.name}: lookups {n}, distinct keys {trace.distinct}, '
          f'resets {len(trace.resets)} (at lookup '
          f'{", ".join(map(str, trace.resets)) or "-"}), updates '
          f'{trace.updates}; window {m.get("duration_s", "?")} s; '
          f'kernel AVC hit ratio '
          f'{ratio(int(m["kernel_lookups"]), int(m["kernel_misses"])):.3f} % '
          f'(misses {m["kernel_misses"]}, reclaims {m["kernel_reclaims"]})')
    cold = cold_misses(trace)
    print(f'{trace.name}: cold misses {cold} (distinct keys per segment '
          f'between resets), the floor of any cache: hit ratio at most '
          f'{ratio(n, cold):.3f} %')
    ws = {}
    for w in WINDOWS:
        if w > n:
            continue
        ws[w] = working_set(trace, w)
        print(f'{trace.name}: working set, distinct keys in a window of '
              f'{w} lookups: median {statistics.median(ws[w]):.0f}, '
              f'90th percentile {sorted(ws[w])[len(ws[w]) * 9 // 10]}, '
              f'max {max(ws[w])}')
    res, _ = curve(trace, thresholds)
    lru = {c: res[c][0] for c in thresholds}
    opt = {c: res[c][1] for c in thresholds}
    pols = [p for p in POLICIES
            if any((trace.name, p, t) in replays for t in thresholds)]
    print(f'{trace.name}: hit ratio % (misses) by cache_threshold; '
          f'avc_rcu (slots 512) under each reclaim policy, then the host\'s '
          f'fully associative LRU and MIN of that capacity')
    cols = [f'avc {p}' for p in pols] + ['host LRU', 'host MIN']
    print(f'{"threshold":>9}' + ''.join(f'{c:>18}' for c in cols))
    for t in thresholds:
        cells = []
        for p in pols:
            r = replays.get((trace.name, p, t))
            if r is None:
                cells.append('-')
                continue
            if r[0] != n:
                sys.exit(f'{trace.name} {p} {t}: replayed {r[0]} lookups, '
                         f'the trace has {n}')
            cells.append(f'{ratio(n, r[1]):.3f} ({r[1]})')
        cells += [f'{ratio(n, lru[t]):.3f} ({lru[t]})',
                  f'{ratio(n, opt[t]):.3f} ({opt[t]})']
        print(f'{t:>9}' + ''.join(f'{c:>18}' for c in cells))
    if pols:
        print(f'{trace.name}: reclaims by cache_threshold (avc_rcu), '
              f'per policy: ' + '; '.join(
                  p + ' ' + ' '.join(
                      f'{t}:{replays[(trace.name, p, t)][2]}'
                      for t in thresholds if (trace.name, p, t) in replays)
                  for p in pols))
    if seeded:
        report_seeds(trace, replays, seeded)
    if trace.version == 2:
        report_cost(trace, replays, seeded or {}, thresholds)
    for line in advice(trace):
        print(f'{trace.name}: avc-advise: {line}')
    if plots:
        plot(trace, thresholds, replays, pols, lru, opt, ws, plots)


def plot(trace, thresholds, replays, pols, lru, opt, ws, outdir):
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt

    n = len(trace.keys)
    cold = cold_misses(trace)
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(12, 4.5))
    series = []
    for p in pols:
        ts = [t for t in thresholds if (trace.name, p, t) in replays]
        series.append((ts, [replays[(trace.name, p, t)][1] for t in ts],
                       dict(marker='o', label=f'avc_rcu reclaim={p}')))
    series.append((thresholds, [lru[t] for t in thresholds],
                   dict(ls='--', marker='x',
                        label='host LRU (fully associative)')))
    series.append((thresholds, [opt[t] for t in thresholds],
                   dict(ls=':', marker='x', label='host MIN (Belady)')))
    for ts, misses, style in series:
        ax.plot(ts, [ratio(n, m) for m in misses], **style)
        bx.plot(ts, misses, **style)
    ax.set_ylabel('hit ratio (%)')
    ax.set_title(f'{trace.name}: {n} lookups, {trace.distinct} distinct '
                 f'keys')
    bx.axhline(cold, color='black', lw=0.8,
               label=f'cold misses ({cold}): the floor')
    bx.set_yscale('log')
    bx.set_ylabel('misses')
    bx.set_title(f'{trace.name}: misses (log scale)')
    for a in (ax, bx):
        a.axvline(512, color='grey', lw=0.8)
        a.set_xscale('log', base=2)
        a.set_xticks(thresholds)
        a.set_xticklabels([str(t) for t in thresholds], rotation=45)
        a.set_xlabel('cache_threshold (entries)')
        a.grid(True, alpha=0.3)
    bx.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(outdir, f'{trace.name}-hitratio.png'), dpi=100)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(7, 4.5))
    seen, cum = set(), []
    for k in trace.keys:
        seen.add(k)
        cum.append(len(seen))
    step = max(1, n // 2000)
    ax.plot(range(0, n, step), cum[::step], label='distinct keys so far')
    for w, s in ws.items():
        ax.plot(range(w - 1, n, step), s[::step],
                label=f'distinct keys in the last {w} lookups')
    for i, r in enumerate(trace.resets):
        ax.axvline(r, color='red', lw=0.8,
                   label='reset (policy load)' if i == 0 else None)
    ax.set_xlabel('lookup')
    ax.set_ylabel('keys')
    ax.set_title(f'{trace.name}: working set over the trace')
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(outdir, f'{trace.name}-workingset.png'),
                dpi=100)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split('\n\n')[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--check-meta', action='store_true')
    ap.add_argument('--replay-log')
    ap.add_argument('--seed-log', action='append', default=[],
                    metavar='SEED=LOG',
                    help='a replay log of another hash seed')
    ap.add_argument('--plots')
    ap.add_argument('--slots-sweep', action='append', default=[],
                    metavar='LOG', help='a replay log of the slots sweep')
    ap.add_argument('--csv', help="the slots sweep's CSV")
    ap.add_argument('--thresholds',
                    default=','.join(map(str, THRESHOLDS)))
    ap.add_argument('traces', nargs='+')
    args = ap.parse_args()
    thresholds = sorted(int(t) for t in args.thresholds.split(','))

    if args.check_meta:
        fail = 0
        for path in args.traces:
            trace = Trace(path)
            bad = check_meta(trace)
            for b in bad:
                print(f'study: {trace.name}: {b}')
            print(f'study: {trace.name}: lookups {len(trace.keys)}, '
                  f'distinct keys {trace.distinct}, resets '
                  f'{len(trace.resets)}: '
                  f'{"does not agree" if bad else "agrees"} with its '
                  f'metadata')
            fail |= bool(bad)
        # The shipped traces' budget: together, compressed, at most 20
        # MiB (make check gives every shipped trace at once).
        packed = [p for p in args.traces if p.endswith('.xz')]
        if packed:
            total = sum(os.path.getsize(p) for p in packed)
            over = total > TRACE_BUDGET
            print(f'study: {len(packed)} compressed traces, '
                  f'{total / 2**20:.2f} MiB of the '
                  f'{TRACE_BUDGET / 2**20:.0f} MiB budget'
                  f'{": over it" if over else ""}')
            fail |= over
        return fail

    if args.slots_sweep:
        if not args.csv:
            sys.exit('--slots-sweep needs --csv FILE')
        res, caches = parse_sweep(args.slots_sweep)
        if not res:
            sys.exit('--slots-sweep: no replay lines')
        report_sweep([Trace(p) for p in args.traces], res, caches,
                     args.csv)
        return 0

    replays, valid = ({}, [])
    if args.replay_log:
        replays, valid = parse_replays(args.replay_log)
        if not replays:
            sys.exit(f'{args.replay_log}: no replay lines')
    seeded = {}
    for arg in args.seed_log:
        sd, _, log = arg.partition('=')
        seeded[int(sd)] = parse_replays(log)[0]
        if not seeded[int(sd)]:
            sys.exit(f'{log}: no replay lines')
    if args.plots:
        os.makedirs(args.plots, exist_ok=True)
    for path in args.traces:
        report(Trace(path), thresholds, replays, args.plots, seeded)
    for v in valid:
        print(v)
    return 0


if __name__ == '__main__':
    sys.exit(main())
