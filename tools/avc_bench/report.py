#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the BENCH lines of a make bench run into a table of medians and
ratios.

  report.py [--check] [--plot PNG] RAW_LOG

Two tables: throughput (BENCH lines: medians, scaling, spread and the
ratios between sync modes and builds) and hit ratios (HITRATIO lines: for
each synthetic stream and cache_threshold, hits / lookups under each
reclaim policy).

--check: also fail unless every cell of both tables was measured (make
check runs make bench briefly and checks it this way; the numbers
themselves are never judged).
--plot PNG: draw the hit ratios, one panel per stream, hit ratio against
threshold, one line per policy (needs python3-matplotlib).
"""

import re
import statistics
import sys


POLICIES = ('lru', 'fifo', 'newest')
STREAMS = ('uniform', 'zipf0.8', 'zipf1.0', 'hotscan', 'shift')
THRESHOLDS = (64, 256, 512, 1024, 4096)


def parse_hitratio(path):
    """{(stream, threshold, policy): (hits, lookups)}"""
    cells = {}
    for line in open(path, errors='replace'):
        if not line.startswith('HITRATIO '):
            continue
        f = dict(re.findall(r'(\w+)=(\S+)', line))
        cells[(f['stream'], int(f['threshold']), f['policy'])] = \
            (int(f['hits']), int(f['lookups']))
    return cells


def hitratio_table(cells):
    if not cells:
        return
    print()
    print('hit ratio (%) by reclaim policy, single thread, fixed hash seed, '
          '512 slots:')
    print('%-9s %9s' % ('stream', 'threshold') +
          ''.join('%9s' % p for p in POLICIES) + '   lru - best other')
    for stream in STREAMS:
        for t in THRESHOLDS:
            row = [cells.get((stream, t, p)) for p in POLICIES]
            pct = [100.0 * h / n if n else None
                   for h, n in (r or (0, 0) for r in row)]
            line = '%-9s %9d' % (stream, t) + ''.join(
                '%9.1f' % x if x is not None else '%9s' % '-' for x in pct)
            if all(x is not None for x in pct):
                line += '   %+6.1f' % (pct[0] - max(pct[1:]))
            print(line)


def hitratio_plot(cells, png):
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, len(STREAMS), figsize=(4 * len(STREAMS), 3.6),
                             sharey=True)
    for ax, stream in zip(axes, STREAMS):
        for p in POLICIES:
            pts = [(t, 100.0 * cells[(stream, t, p)][0] /
                    cells[(stream, t, p)][1])
                   for t in THRESHOLDS if cells.get((stream, t, p), (0, 0))[1]]
            if pts:
                ax.plot([x for x, _ in pts], [y for _, y in pts],
                        marker='o', label=p)
        ax.set_xscale('log', base=2)
        ax.set_title(stream)
        ax.set_xlabel('cache_threshold')
        ax.grid(True, alpha=0.3)
    axes[0].set_ylabel('hit ratio (%)')
    axes[0].legend()
    fig.suptitle('avc_rcu: hit ratio by reclaim policy (make bench)')
    fig.tight_layout()
    fig.savefig(png, dpi=90)


def parse(path):
    runs, meta = {}, {}
    for line in open(path, errors='replace'):
        if not line.startswith('BENCH '):
            continue
        f = dict(re.findall(r'(\w+)=(\S+)', line))
        if 'rate' not in f:
            meta.update(f)
            continue
        rate = f['rate']
        scale = 1000.0 if rate.endswith('K') else 1.0
        key = (f['variant'], f['sync'], f['path'], f['op'],
               int(f['threads']))
        runs.setdefault(key, []).append(float(rate.rstrip('K')) * scale)
    return runs, meta


def fmt(rate):
    if rate >= 1e6:
        return '%7.2f M/s' % (rate / 1e6)
    return '%7.1f K/s' % (rate / 1e3)


# Every (variant, sync, path, op) the guest script measures.
EXPECTED = [('std', sync, 'kernel', 'hit')
            for sync in ('rcu', 'spinlock', 'rwlock')] + \
    [('std', 'rcu', 'kernel', 'null'), ('std', 'rcu', 'kernel', 'compute')] + \
    [('std', sync, 'syscall', 'access')
     for sync in ('rcu', 'spinlock', 'rwlock')] + \
    [('rcuonly', 'rcu', 'kernel', 'hit'), ('fifo', 'rcu', 'kernel', 'hit')]


def check(med, meta, cells):
    """Problems with a run's completeness: missing or zero cells."""
    cpus = int(meta.get('cpus', '0'))
    problems = []
    for stream in STREAMS:
        for t in THRESHOLDS:
            for p in POLICIES:
                if not cells.get((stream, t, p), (0, 0))[1]:
                    problems.append('no hit ratio for %s at threshold %d '
                                    'with reclaim=%s' % (stream, t, p))
    if cpus < 1:
        problems.append('no "BENCH cpus=" line')
    for key in EXPECTED:
        for t in sorted({1, cpus}) if cpus else [1]:
            if not med.get(key + (t,)):
                problems.append('no positive rate for %s at %d thread%s'
                                % (' '.join(key), t, 's' if t > 1 else ''))
    return problems


def main():
    args = sys.argv[1:]
    want_check, png = False, None
    while args and args[0].startswith('--'):
        if args[0] == '--check':
            want_check = True
            args = args[1:]
        elif args[0] == '--plot' and len(args) > 1:
            png = args[1]
            args = args[2:]
        else:
            break
    if len(args) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    runs, meta = parse(args[0])
    if not runs:
        print('report: no BENCH results in %s' % args[0])
        return 1
    med = {k: statistics.median(v) for k, v in runs.items()}
    spread = {k: (max(v) - min(v)) / statistics.median(v) if
              statistics.median(v) else 0 for k, v in runs.items()}
    threads = sorted({k[4] for k in med})
    lo, hi = threads[0], threads[-1]

    # Results from before the guest said its accelerator were all TCG.
    print('avc_rcu bench: %s vCPUs (QEMU %s), median of %s runs of %s ms'
          % (meta.get('cpus', '?'), meta.get('accel', 'tcg').upper(),
             meta.get('reps', '?'), meta.get('ms', '?')))
    print()
    print('%-9s %-8s %-8s' % ('variant', 'sync', 'path') +
          ''.join('%16s' % ('%d thread%s' % (t, 's' if t > 1 else ''))
                  for t in threads) +
          ('%10s' % 'scaling' if hi > lo else '') + '   spread')
    for key in sorted({k[:4] for k in med}):
        row = [med.get(key + (t,)) for t in threads]
        line = '%-9s %-8s %-8s' % (key[0], key[1],
                                   key[2] if key[3] in ('hit', 'access')
                                   else key[3])
        line += ''.join('%16s' % (fmt(r) if r else '-') for r in row)
        if hi > lo and row[0] and row[-1]:
            line += '%9.2fx' % (row[-1] / row[0])
        line += '   %4.0f%%' % (100 * max(spread.get(key + (t,), 0)
                                          for t in threads))
        print(line)

    print()
    print('ratios at %d thread%s:' % (hi, 's' if hi > 1 else ''))
    for path, op in (('kernel', 'hit'), ('syscall', 'access')):
        rcu = med.get(('std', 'rcu', path, op, hi))
        for other in ('spinlock', 'rwlock'):
            o = med.get(('std', other, path, op, hi))
            if rcu and o:
                print('  %-7s rcu / %-8s = %5.2f' % (path, other, rcu / o))
    for t in threads:
        std = med.get(('std', 'rcu', 'kernel', 'hit', t))
        ctl = med.get(('rcuonly', 'rcu', 'kernel', 'hit', t))
        if std and ctl:
            print('  cost of the sync choice, %d thread%s: rcu / rcu-only '
                  'build = %5.3f' % (t, 's' if t > 1 else '', std / ctl))
    for t in threads:
        lru = med.get(('std', 'rcu', 'kernel', 'hit', t))
        fifo = med.get(('fifo', 'rcu', 'kernel', 'hit', t))
        if lru and fifo:
            print('  cost of the referenced bit, %d thread%s: reclaim=lru / '
                  'reclaim=fifo = %5.3f' % (t, 's' if t > 1 else '',
                                            lru / fifo))
    cells = parse_hitratio(args[0])
    hitratio_table(cells)
    if png and cells:
        hitratio_plot(cells, png)
        print('\nplot: %s' % png)
    if want_check:
        problems = check(med, meta, cells)
        for p in problems:
            print('report: %s' % p)
        if problems:
            return 1
        print('report: every cell of the table measured')
    return 0


if __name__ == '__main__':
    sys.exit(main())
