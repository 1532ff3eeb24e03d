#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""make bench's tables (Documentation/benchmarks.rst) from its raw log's
BENCH, HITRATIO and RECLAIM lines.  --check fails unless every cell was
measured; --plot draws the hit ratios; --sweep writes PREFIX.csv and .png;
--reclaim-csv writes the guest's reclaims for latency.py."""

import argparse
import re
import statistics
import sys

POLICIES = ('lru', 'fifo', 'newest')
STREAMS = ('uniform', 'zipf0.8', 'zipf1.0', 'hotscan', 'shift')
THRESHOLDS = (64, 256, 512, 1024, 4096)
SYNCS = ('rcu', 'spinlock', 'rwlock')
# The reclaim table's configurations by BENCH_LATENCY: (slots, reclaimer,
# table), 0 slots: the table follows cache_threshold (bench-guest.sh).
RECLAIM_CONFIGS = {'full': [(s, r, t) for s in (512, 0)
                            for r in ('inline', 'background')
                            for t in ('hot', 'cold')],
                   'quick': [(0, 'inline', 'hot')]}
RECLAIM_FIELDS = ('slots', 'table', 'reclaimer', 'temp', 'threshold',
                  'misses', 'sections', 'nodes_p50', 'nodes_max',
                  'buckets_max', 'duration_p50', 'duration_p99',
                  'duration_max', 'evicted', 'full', 'lost', 'unreferenced',
                  'run_ms')
# What no section may exceed: AVC_NODE_BUDGET (avc/avc.h).
NODE_BUDGET = 64
# Kaigai Kohei's write() Kcalls/s on 32 CPUs, from James Morris's "[PATCH
# 0/3] SELinux scalability and analysis patches." (linux-kernel, 2004-11-15).
KAIGAI_CPUS = (1, 2, 4, 8, 16, 32)
KAIGAI = (('2.6.9(disable)', 'SELinux off',
           (773.6, 1611.4, 3160.5, 6301.0, 12605.0, 24296.4)),
          ('2.6.9(enable)', 'global avc_lock',
           (535.8, 655.8, 241.8, 127.7, 62.9, 30.2)),
          ('2.6.9.RCU', 'RCU',
           (542.5, 1042.9, 2301.6, 4518.0, 8963.5, 18033.6)))
# The sweep's own rows: (path, op, sync) of variant std.
SWEEP_ROWS = ([('syscall', 'access', s) for s in SYNCS] +
              [('kernel', 'hit', s) for s in SYNCS] +
              [('kernel', 'compute', 'rcu'), ('kernel', 'null', 'rcu')])
SWEEP_NOTE = '''\
2004: write() with SELinux off, with the global avc_lock, with RCU.
syscall: avc_workload, a write() and a read() of the access file per call.
kernel: avc_rcu_has_perm() from a kthread per CPU; no cache: avc_rcu_compute_av(),
        the policy on every call; no check: an empty call, the loop alone.'''
# A mode and its 2004 counterpart share a colour.
COLOURS = {'SELinux off': 'C0', 'no check': 'C0', 'global avc_lock': 'C1',
           'spinlock': 'C1', 'RCU': 'C2', 'rcu': 'C2', 'rwlock': 'C3',
           'no cache': 'C4'}
# Every (variant, sync, path, op) the guest measures, in --check's order.
EXPECTED = ([('std', s, 'kernel', 'hit') for s in SYNCS] +
            [('std', 'rcu', 'kernel', op) for op in ('null', 'compute')] +
            [('std', s, 'syscall', 'access') for s in SYNCS] +
            [(v, 'rcu', 'kernel', 'hit') for v in ('rcuonly', 'fifo')])


def pyplot():
    """matplotlib (for its ticker) and pyplot, drawing into files"""
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    return matplotlib, plt


def log2_x(ax, ticks, matplotlib):
    ax.set_xscale('log', base=2)
    ax.set_xticks(ticks)
    ax.get_xaxis().set_major_formatter(matplotlib.ticker.ScalarFormatter())


def verdict(name, problems, ok):
    """--check's end: the problems, or that there are none"""
    for p in problems or [ok]:
        print('%s: %s' % (name, p))
    return 1 if problems else 0


def thr(t):
    return '%d thread%s' % (t, 's' if t > 1 else '')


def fields(path, tag):
    """The key=value fields of each line of @path that starts with @tag"""
    return [dict(re.findall(r'(\w+)=(\S+)', line))
            for line in open(path, errors='replace')
            if line.startswith(tag + ' ')]


def hitratio_table(pct):
    print('\nhit ratio (%) by reclaim policy, single thread, fixed hash seed, '
          '512 slots:')
    print('%-9s %9s' % ('stream', 'threshold') +
          ''.join('%9s' % p for p in POLICIES) + '   lru - best other')
    for stream in STREAMS:
        for t in THRESHOLDS:
            row = [pct.get((stream, t, p)) for p in POLICIES]
            line = '%-9s %9d' % (stream, t) + ''.join(
                '%9.1f' % x if x is not None else '%9s' % '-' for x in row)
            if None not in row:
                line += '   %+6.1f' % (row[0] - max(row[1:]))
            print(line)


def hitratio_plot(pct, png):
    _, plt = pyplot()
    fig, axes = plt.subplots(1, len(STREAMS), figsize=(4 * len(STREAMS), 3.6),
                             sharey=True)
    for ax, stream in zip(axes, STREAMS):
        for p in POLICIES:
            pts = [(t, pct[(stream, t, p)]) for t in THRESHOLDS
                   if (stream, t, p) in pct]
            if pts:
                ax.plot(*zip(*pts), marker='o', label=p)
        ax.set_xscale('log', base=2)
        ax.set_title(stream)
        ax.set_xlabel('cache_threshold')
        ax.grid(True, alpha=0.3)
    axes[0].set_ylabel('hit ratio (%)')
    axes[0].legend()
    fig.suptitle('avc_rcu: hit ratio by reclaim policy (make bench)')
    fig.tight_layout()
    fig.savefig(png, dpi=90)


def reclaim_table(rows):
    print('\nreclaims traced in the guest (avc_rcu_reclaim sections), '
          'threshold %s, %s fresh-key' % (
              '/'.join(sorted({r['threshold'] for r in rows.values()})),
              '/'.join(sorted({r['misses'] for r in rows.values()}))))
    print('misses a row from one kernel thread; hot: every entry referenced '
          'before each miss;')
    print('duration_ns includes waiting for the reclaim lock; "not cached": '
          'inserts full')
    print('%6s %6s %-10s %-4s %8s %10s %23s %6s  %s' % (
        '', '', '', '', '', 'nodes', 'duration_ns', 'not', 'evicted'))
    print('%6s %6s %-10s %-4s %8s %4s %5s %7s %7s %7s %6s  %s' % (
        'slots', 'table', 'reclaimer', 'tbl', 'sections', 'p50', 'max',
        'p50', 'p99', 'max', 'cached', '(size:count)'))
    for key in sorted(rows, key=lambda k: (-k[0], k[1], k[2])):
        r = rows[key]
        line = '%6s %6s %-10s %-4s' % (
            key[0] or 'follow', r.get('table', '-'), key[1], key[2]) + \
            ' %8s %4s %5s %7s %7s %7s %6s  %s' % tuple(r.get(f, '-') for f in (
                'sections', 'nodes_p50', 'nodes_max', 'duration_p50',
                'duration_p99', 'duration_max', 'full', 'evicted'))
        if r.get('lost', '0') != '0':
            line += '  (%s events lost)' % r['lost']
        print(line)
    nodes = [int(r['nodes_max']) for r in rows.values()
             if r.get('nodes_max', '-').isdigit()]
    if nodes:
        print('node budget (%d nodes a section at most): %s, the most any '
              'section examined: %d' % (
                  NODE_BUDGET, 'met' if max(nodes) <= NODE_BUDGET
                  else 'NOT met', max(nodes)))


def reclaim_csv(rows, path):
    with open(path, 'w') as f:
        f.write(','.join(RECLAIM_FIELDS) + '\n')
        for key in sorted(rows):
            # "16:1020,15:4" holds commas: spaces in the CSV.
            vals = [rows[key].get(k, '').replace(',', ' ')
                    for k in RECLAIM_FIELDS]
            f.write(','.join('' if v == '-' else v for v in vals) + '\n')


def sweep_cells(med, threads):
    """[(label, source, path, mode, {cpus: Kcalls/s})]: Kaigai's, ours"""
    rows = [('2004 ' + name, 'kaigai2004', 'write()', what,
             dict(zip(KAIGAI_CPUS, vals))) for name, what, vals in KAIGAI]
    for path, op, sync in SWEEP_ROWS:
        mode = {'compute': 'no cache', 'null': 'no check'}.get(op, sync)
        rows.append(('%s %s' % (path, mode), 'avc_rcu', path, mode,
                     {t: med[('std', sync, path, op, t)] / 1e3 for t in threads
                      if med.get(('std', sync, path, op, t))}))
    return rows


def sweep_table(rows, threads, meta):
    lo, hi = threads[0], threads[-1]
    print('\n---- Kcalls/sec by CPU count (the layout of the 2004 '
          'announcement) ----')
    print('avc_rcu: %s CPUs, one thread pinned to each CPU used; 2004: '
          'Kaigai Kohei, write(), 32-way' % meta.get('cpus', '?'))
    print('%-22s' % 'Num of CPUs' + ''.join('%11s' % ('-%dCPU-' % t)
                                            for t in threads) +
          ('%9s' % ('%d/%d' % (hi, lo)) if hi > lo else ''))
    for label, source, _, _, vals in rows:
        if source == 'kaigai2004' and not any(t in vals for t in threads):
            continue
        line = '%-22s' % label + ''.join(
            '%11.1f' % vals[t] if t in vals else '%11s' % '' for t in threads)
        if hi > lo and vals.get(lo) and vals.get(hi):
            line += '%8.2fx' % (vals[hi] / vals[lo])
        print(line)
    print(SWEEP_NOTE)


def sweep_csv(rows, path):
    with open(path, 'w') as f:
        f.write('source,path,mode,cpus,kcalls_per_s\n')
        for _, source, path, mode, vals in rows:
            for t in sorted(vals):
                f.write('%s,%s,%s,%d,%.1f\n' % (source, path, mode, t,
                                                vals[t]))


def sweep_plot(rows, threads, meta, png):
    """False without python3-matplotlib (a bench-host machine may lack it)"""
    try:
        matplotlib, plt = pyplot()
    except ImportError:
        return False
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    panels = (('write() / access file system calls', ('syscall', 'write()')),
              ('in-kernel lookups', ('kernel',)))
    for ax, (title, paths) in zip(axes, panels):
        for label, source, path, mode, vals in rows:
            if path in paths and vals:
                xs = sorted(vals)
                kaigai = source == 'kaigai2004'
                ax.plot(xs, [vals[x] for x in xs], '--' if kaigai else '-',
                        marker='o', color=COLOURS[mode], label=(
                            'Kaigai 2004, ' if kaigai else 'avc_rcu ') + mode)
        ax.set_yscale('log')
        log2_x(ax, sorted(set(threads) | (set(KAIGAI_CPUS) if 'write()' in paths
                                          else set())), matplotlib)
        ax.set_xlabel('CPUs (threads, one per CPU)')
        ax.set_ylabel('Kcalls/s')
        ax.set_title(title)
        ax.grid(True, which='both', alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle('avc_rcu make bench sweep: %s %s (dashed: Kaigai Kohei, '
                 '32-way, 2004)' % (meta.get('cpus', '?'),
                                    'CPUs' if meta.get('where') == 'host'
                                    else 'vCPUs, QEMU TCG'))
    fig.tight_layout()
    fig.savefig(png, dpi=90)
    return True


def fmt(rate):
    return ('%7.2f M/s' % (rate / 1e6) if rate >= 1e6 else
            '%7.1f K/s' % (rate / 1e3))


def placed(med, variant, t):
    """The rcu hit rates of a build and of its placement twins"""
    return [r for r in (med.get((v, 'rcu', 'kernel', 'hit', t)) for v in
                        (variant, variant + '@a32', variant + '@a64')) if r]


def placement_note(std, ctl):
    """How far each build's placements spread: the ratio's noise floor"""
    if len(std) < 2 or len(ctl) < 2:
        return ''
    return ' (medians over %d placements; placements spread %.0f%% and ' \
        '%.0f%%)' % (min(len(std), len(ctl)),
                     100 * (max(std) - min(std)) / statistics.median(std),
                     100 * (max(ctl) - min(ctl)) / statistics.median(ctl))


def check(med, meta, threads, pct, reclaims):
    """Problems with a run's completeness: missing or zero cells"""
    sweep_only = meta.get('sweep_only') == '1'
    problems = []
    for key in RECLAIM_CONFIGS.get(meta.get('latency'), ()):
        r = reclaims.get(key)
        what = 'slots=%d reclaimer=%s, %s' % key
        if not r:
            problems.append('no reclaim trace for %s' % what)
        elif not r.get('sections', '0').isdigit() or r['sections'] == '0':
            problems.append('no reclaim traced for %s' % what)
        elif r.get('lost') != '0':
            problems.append('%s trace events lost for %s' % (r.get('lost'),
                                                             what))
    problems += ['no hit ratio for %s at threshold %d with reclaim=%s' % k
                 for k in ((s, t, p) for s in STREAMS for t in THRESHOLDS
                           for p in POLICIES)
                 if not sweep_only and k not in pct]
    if int(meta.get('cpus', '0')) < 1:
        problems.append('no "BENCH cpus=" line')
    problems += ['no positive rate for %s at %s' % (' '.join(key), thr(t))
                 for key in EXPECTED if key[0] == 'std' or not sweep_only
                 for t in threads if not med.get(key + (t,))]
    return problems


def main():
    p = argparse.ArgumentParser()
    for opt in ('--plot', '--sweep', '--reclaim-csv'):
        p.add_argument(opt)
    p.add_argument('--check', action='store_true')
    p.add_argument('log')
    args = p.parse_args()
    runs, meta = {}, {}
    for f in fields(args.log, 'BENCH'):
        if 'rate' not in f:
            meta.update(f)
            continue
        scale = 1000.0 if f['rate'].endswith('K') else 1.0
        key = (f['variant'], f['sync'], f['path'], f['op'], int(f['threads']))
        runs.setdefault(key, []).append(float(f['rate'].rstrip('K')) * scale)
    reclaims = {(int(f['slots']), f['reclaimer'], f['temp']): f
                for f in fields(args.log, 'RECLAIM')}
    if not runs and not reclaims:
        print('report: no BENCH results in %s' % args.log)
        return 1
    if not runs:  # BENCH_ONLY=latency
        reclaim_table(reclaims)
        if args.reclaim_csv:
            reclaim_csv(reclaims, args.reclaim_csv)
            print('\nreclaims: %s' % args.reclaim_csv)
        return 0
    med = {k: statistics.median(v) for k, v in runs.items()}
    spread = {k: (max(v) - min(v)) / med[k] if med[k] else 0
              for k, v in runs.items()}
    threads = sorted({k[4] for k in med})
    lo, hi = threads[0], threads[-1]

    cpus = meta.get('cpus', '?')
    print('avc_rcu bench: %s, median of %s runs of %s ms\n' % (
        '%s CPUs (no QEMU)' % cpus if meta.get('where') == 'host' else
        '%s vCPUs (QEMU %s)' % (cpus, meta.get('accel', 'tcg').upper()),
        meta.get('reps', '?'), meta.get('ms', '?')))
    print('%-9s %-8s %-8s' % ('variant', 'sync', 'path') +
          ''.join('%16s' % thr(t) for t in threads) +
          ('%10s' % 'scaling' if hi > lo else '') + '   spread')
    for key in sorted({k[:4] for k in med}):
        row = [med.get(key + (t,)) for t in threads]
        line = '%-9s %-8s %-8s' % (key[0], key[1], key[2] if key[3] in
                                   ('hit', 'access') else key[3])
        line += ''.join('%16s' % (fmt(r) if r else '-') for r in row)
        if hi > lo and row[0] and row[-1]:
            line += '%9.2fx' % (row[-1] / row[0])
        print(line + '   %4.0f%%' % (100 * max(spread.get(key + (t,), 0)
                                               for t in threads)))

    print('\nratios at %s:' % thr(hi))
    for path, op in (('kernel', 'hit'), ('syscall', 'access')):
        rcu = med.get(('std', 'rcu', path, op, hi))
        for other in ('spinlock', 'rwlock'):
            o = med.get(('std', other, path, op, hi))
            if rcu and o:
                print('  %-7s rcu / %-8s = %5.2f' % (path, other, rcu / o))
    for t in threads:
        std, ctl = placed(med, 'std', t), placed(med, 'rcuonly', t)
        if std and ctl:
            print('  cost of the sync choice, %s: rcu / rcu-only build = '
                  '%5.3f%s' % (thr(t), statistics.median(std) /
                               statistics.median(ctl),
                               placement_note(std, ctl)))
    for t in threads:
        lru = med.get(('std', 'rcu', 'kernel', 'hit', t))
        fifo = med.get(('fifo', 'rcu', 'kernel', 'hit', t))
        if lru and fifo:
            print('  cost of the referenced bit, %s: reclaim=lru / '
                  'reclaim=fifo = %5.3f' % (thr(t), lru / fifo))
    rows = sweep_cells(med, threads)
    sweep_table(rows, threads, meta)
    if args.sweep:
        sweep_csv(rows, args.sweep + '.csv')
        print('\nsweep: %s.csv' % args.sweep)
        print('plot: %s.png' % args.sweep
              if sweep_plot(rows, threads, meta, args.sweep + '.png')
              else 'no python3-matplotlib: no plot')
    cells = {(f['stream'], int(f['threshold']), f['policy']):
             (int(f['hits']), int(f['lookups']))
             for f in fields(args.log, 'HITRATIO')}
    pct = {k: 100.0 * h / n for k, (h, n) in cells.items() if n}
    if cells:
        hitratio_table(pct)
        if args.plot:
            hitratio_plot(pct, args.plot)
            print('\nplot: %s' % args.plot)
    if reclaims:
        reclaim_table(reclaims)
        if args.reclaim_csv:
            reclaim_csv(reclaims, args.reclaim_csv)
            print('\nreclaims: %s' % args.reclaim_csv)
    if not args.check:
        return 0
    # The thread counts measured; a log from before the sweep: 1 and all.
    n = int(meta.get('cpus', '0'))
    want = (sorted(int(t) for t in meta['threads'].split(','))
            if 'threads' in meta else sorted({1, n}) if n else [1])
    return verdict('report', check(med, meta, want, pct, reclaims),
                   'every cell of the table measured')


if __name__ == '__main__':
    sys.exit(main())
