#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the BENCH lines of a make bench run into a table of medians and
ratios.

  report.py [--check] [--plot PNG] [--sweep PREFIX] [--reclaim-csv CSV]
            RAW_LOG

Four tables: throughput (BENCH lines: medians, scaling, spread and the
ratios between sync modes and builds), the same medians in the layout of
the 2004 announcement, in Kcalls/s by CPU count beside Kaigai Kohei's
published numbers, hit ratios (HITRATIO lines: for each synthetic
stream and cache_threshold, hits / lookups under each reclaim policy),
and the reclaims the guest traced (RECLAIM lines: for each number of
slots, reclaim policy and threshold, the buckets each reclaim visited,
its duration, the entries it evicted, the inserts not cached).

--check: also fail unless every cell of the tables was measured, every
configuration of the reclaim table the run's latency setting asks for
among them (make check runs make bench briefly and checks it this way;
the numbers themselves are never judged).
--plot PNG: draw the hit ratios, one panel per stream, hit ratio against
threshold, one line per policy (needs python3-matplotlib).
--sweep PREFIX: write the 2004-layout table as PREFIX.csv and draw it as
PREFIX.png, Kcalls/s against CPU count (needs python3-matplotlib).
--reclaim-csv CSV: write the reclaim table as CSV (tools/avc_bench/
latency.py draws it beside the native latencies).
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


# The reclaim table's configurations, by the guest's BENCH_LATENCY
# setting (bench-guest.sh): (slots, policy, threshold).
RECLAIM_CONFIGS = {
    'full': [(s, p, t) for s in (512, 4096, 65536) for p in POLICIES
             for t in (16, 512, 8192)],
    'quick': [(4096, 'lru', 512)],
    'off': [],
}
RECLAIM_FIELDS = ('slots', 'policy', 'threshold', 'keys', 'reclaims',
                  'visited_p50', 'visited_max', 'duration_p50',
                  'duration_p99', 'duration_max', 'evicted', 'full', 'lost',
                  'kcalls')


def parse_reclaim(path):
    """{(slots, policy, threshold): {field: value}} from RECLAIM lines"""
    rows = {}
    for line in open(path, errors='replace'):
        if not line.startswith('RECLAIM '):
            continue
        f = dict(re.findall(r'(\w+)=(\S+)', line))
        rows[(int(f['slots']), f['policy'], int(f['threshold']))] = f
    return rows


def reclaim_table(rows):
    if not rows:
        return
    keys = {r['keys'] for r in rows.values()}
    print()
    print('reclaims traced in the guest (avc_rcu_reclaim), %s fresh keys a '
          'row through the access file,' % '/'.join(sorted(keys)))
    print('one pinned thread; duration_ns includes waiting for the reclaim '
          'lock; "not cached": inserts full')
    print('%6s %-7s %5s %8s %12s %22s %9s  %s' % (
        '', '', '', '', 'visited', 'duration_ns', 'not', 'evicted'))
    print('%6s %-7s %5s %8s %6s %5s %7s %7s %7s %9s  %s' % (
        'slots', 'policy', 'thr', 'reclaims', 'p50', 'max', 'p50', 'p99',
        'max', 'cached', '(size:count)'))
    for key in sorted(rows, key=lambda k: (k[0], POLICIES.index(k[1])
                                           if k[1] in POLICIES else 9, k[2])):
        r = rows[key]
        line = '%6d %-7s %5d %8s %6s %5s %7s %7s %7s %9s  %s' % (
            key[0], key[1], key[2], r.get('reclaims', '-'),
            r.get('visited_p50', '-'), r.get('visited_max', '-'),
            r.get('duration_p50', '-'), r.get('duration_p99', '-'),
            r.get('duration_max', '-'), r.get('full', '-'),
            r.get('evicted', '-'))
        if r.get('lost', '0') != '0':
            line += '  (%s events lost)' % r['lost']
        print(line)


def reclaim_csv(rows, csv_path):
    with open(csv_path, 'w') as f:
        f.write(','.join(RECLAIM_FIELDS) + '\n')
        for key in sorted(rows):
            r = rows[key]
            vals = [r.get(k, '') for k in RECLAIM_FIELDS]
            # "16:1020,15:4" holds commas: spaces in the CSV.
            vals = [v.replace(',', ' ') for v in vals]
            f.write(','.join('' if v == '-' else v for v in vals) + '\n')


# Kaigai Kohei's parallel write() test on a 32-way machine, in Kcalls/s by
# CPU count, copied exactly from "Testing by KaiGai on a 32-way system
# during development", table "write() system call [Kcalls/sec]", in James
# Morris's announcement of the RCU AVC patches, "[PATCH 0/3] SELinux
# scalability and analysis patches." (linux-kernel, 15 November 2004).
KAIGAI_CPUS = (1, 2, 4, 8, 16, 32)
KAIGAI = (
    ('2.6.9(disable)', 'SELinux off',
     (773.6, 1611.4, 3160.5, 6301.0, 12605.0, 24296.4)),
    ('2.6.9(enable)', 'global avc_lock',
     (535.8, 655.8, 241.8, 127.7, 62.9, 30.2)),
    ('2.6.9.RCU', 'RCU',
     (542.5, 1042.9, 2301.6, 4518.0, 8963.5, 18033.6)),
)

# The sweep's rows of our own: (label, path, op, sync), each a key of the
# BENCH medians with variant std.
SWEEP_ROWS = (
    ('syscall rcu', 'syscall', 'access', 'rcu'),
    ('syscall spinlock', 'syscall', 'access', 'spinlock'),
    ('syscall rwlock', 'syscall', 'access', 'rwlock'),
    ('kernel rcu', 'kernel', 'hit', 'rcu'),
    ('kernel spinlock', 'kernel', 'hit', 'spinlock'),
    ('kernel rwlock', 'kernel', 'hit', 'rwlock'),
    ('kernel no cache', 'kernel', 'compute', 'rcu'),
    ('kernel no check', 'kernel', 'null', 'rcu'),
)


def sweep_cells(med, threads):
    """[(label, source, path, mode, {cpus: Kcalls/s})] for our rows, then
    Kaigai's at the CPU counts he published among @threads."""
    rows = []
    for name, what, vals in KAIGAI:
        rows.append(('2004 ' + name, 'kaigai2004', 'write()', what,
                     dict(zip(KAIGAI_CPUS, vals))))
    for label, path, op, sync in SWEEP_ROWS:
        vals = {t: med[('std', sync, path, op, t)] / 1e3 for t in threads
                if med.get(('std', sync, path, op, t))}
        mode = {'compute': 'no cache', 'null': 'no check'}.get(op, sync)
        rows.append((label, 'avc_rcu', path, mode, vals))
    return rows


def sweep_table(rows, threads, meta):
    lo, hi = threads[0], threads[-1]
    print()
    print('---- Kcalls/sec by CPU count (the layout of the 2004 announcement)'
          ' ----')
    print('avc_rcu: %s CPUs, one thread pinned to each CPU used; 2004: '
          'Kaigai Kohei, write(), 32-way' % meta.get('cpus', '?'))
    head = '%-22s' % 'Num of CPUs' + ''.join(
        '%11s' % ('-%dCPU-' % t) for t in threads)
    if hi > lo:
        head += '%9s' % ('%d/%d' % (hi, lo))
    print(head)
    for label, source, _, _, vals in rows:
        if source == 'kaigai2004':
            shown = [t for t in threads if t in vals]
            if not shown:
                continue
        line = '%-22s' % label + ''.join(
            '%11.1f' % vals[t] if t in vals else '%11s' % '' for t in threads)
        if hi > lo and vals.get(lo) and vals.get(hi):
            line += '%8.2fx' % (vals[hi] / vals[lo])
        print(line)
    print('2004: write() with SELinux off, with the global avc_lock, with '
          'RCU.\n'
          'syscall: avc_workload, a write() and a read() of the access file '
          'per call.\n'
          'kernel: avc_rcu_has_perm() from a kthread per CPU; no cache: '
          'avc_rcu_compute_av(),\n'
          '        the policy on every call; no check: an empty call, the '
          'loop alone.')


def sweep_csv(rows, csv_path):
    with open(csv_path, 'w') as f:
        f.write('source,path,mode,cpus,kcalls_per_s\n')
        for _, source, path, mode, vals in rows:
            for t in sorted(vals):
                f.write('%s,%s,%s,%d,%.1f\n' % (source, path, mode, t,
                                                vals[t]))


# A mode and its 2004 counterpart share a colour.
SWEEP_COLOURS = {'SELinux off': 'C0', 'no check': 'C0', 'global avc_lock': 'C1',
                 'spinlock': 'C1', 'RCU': 'C2', 'rcu': 'C2', 'rwlock': 'C3',
                 'no cache': 'C4'}


def sweep_plot(rows, threads, meta, png):
    """Draw the sweep into @png; False without python3-matplotlib (a test
    machine running bench-host may lack it; make bench's deps have it)."""
    try:
        import matplotlib
    except ImportError:
        return False
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    panels = (('write() / access file system calls', ('syscall', 'write()')),
              ('in-kernel lookups', ('kernel',)))
    for ax, (title, paths) in zip(axes, panels):
        for label, source, path, mode, vals in rows:
            if path not in paths or not vals:
                continue
            xs = sorted(vals)
            style = '--' if source == 'kaigai2004' else '-'
            name = ('Kaigai 2004, ' + mode if source == 'kaigai2004'
                    else 'avc_rcu ' + mode)
            ax.plot(xs, [vals[x] for x in xs], style, marker='o', label=name,
                    color=SWEEP_COLOURS[mode])
        ax.set_xscale('log', base=2)
        ax.set_yscale('log')
        ax.set_xticks(sorted(set(threads) | (set(KAIGAI_CPUS)
                                             if 'write()' in paths else set())))
        ax.get_xaxis().set_major_formatter(
            matplotlib.ticker.ScalarFormatter())
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


def placed(med, variant, t):
    """The rcu hit rates of a build at each code placement measured: the
    build itself and its placement twins (VARIANT@a32, VARIANT@a64)."""
    return [r for r in (med.get((v, 'rcu', 'kernel', 'hit', t))
                        for v in (variant, variant + '@a32',
                                  variant + '@a64')) if r]


def placement_note(std, ctl):
    """How far the placements of each build spread, when there are
    several: the noise floor of the ratio under TCG."""
    if len(std) < 2 or len(ctl) < 2:
        return ''
    return ' (medians over %d placements; placements spread %.0f%% and ' \
        '%.0f%%)' % (min(len(std), len(ctl)),
                     100 * (max(std) - min(std)) / statistics.median(std),
                     100 * (max(ctl) - min(ctl)) / statistics.median(ctl))


def check(med, meta, cells, reclaims):
    """Problems with a run's completeness: missing or zero cells."""
    cpus = int(meta.get('cpus', '0'))
    threads = thread_counts(meta)
    sweep_only = meta.get('sweep_only') == '1'
    problems = []
    # Logs from before the reclaim table have no latency= field.
    for key in RECLAIM_CONFIGS.get(meta.get('latency', 'off'), ()):
        r = reclaims.get(key)
        what = 'slots=%d reclaim=%s threshold %d' % key
        if not r:
            problems.append('no reclaim trace for %s' % what)
        elif not r.get('reclaims', '0').isdigit() or r['reclaims'] == '0':
            problems.append('no reclaim traced for %s' % what)
        elif r.get('lost') != '0':
            problems.append('%s trace events lost for %s' %
                            (r.get('lost'), what))
    for stream in STREAMS if not sweep_only else ():
        for t in THRESHOLDS:
            for p in POLICIES:
                if not cells.get((stream, t, p), (0, 0))[1]:
                    problems.append('no hit ratio for %s at threshold %d '
                                    'with reclaim=%s' % (stream, t, p))
    if cpus < 1:
        problems.append('no "BENCH cpus=" line')
    for key in EXPECTED:
        if sweep_only and key[0] != 'std':
            continue
        for t in threads:
            if not med.get(key + (t,)):
                problems.append('no positive rate for %s at %d thread%s'
                                % (' '.join(key), t, 's' if t > 1 else ''))
    return problems


def thread_counts(meta):
    """The thread counts the guest measured: its threads= list, else (a
    log from before the sweep) one thread and one per CPU."""
    if 'threads' in meta:
        return sorted(int(t) for t in meta['threads'].split(','))
    cpus = int(meta.get('cpus', '0'))
    return sorted({1, cpus}) if cpus else [1]


def main():
    args = sys.argv[1:]
    want_check, png, sweep, rcsv = False, None, None, None
    while args and args[0].startswith('--'):
        if args[0] == '--check':
            want_check = True
            args = args[1:]
        elif args[0] == '--plot' and len(args) > 1:
            png = args[1]
            args = args[2:]
        elif args[0] == '--sweep' and len(args) > 1:
            sweep = args[1]
            args = args[2:]
        elif args[0] == '--reclaim-csv' and len(args) > 1:
            rcsv = args[1]
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
    print('avc_rcu bench: %s, median of %s runs of %s ms'
          % ('%s CPUs (no QEMU)' % meta.get('cpus', '?')
             if meta.get('where') == 'host' else
             '%s vCPUs (QEMU %s)' % (meta.get('cpus', '?'),
                                     meta.get('accel', 'tcg').upper()),
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
        std = placed(med, 'std', t)
        ctl = placed(med, 'rcuonly', t)
        if std and ctl:
            print('  cost of the sync choice, %d thread%s: rcu / rcu-only '
                  'build = %5.3f%s' % (t, 's' if t > 1 else '',
                                       statistics.median(std) /
                                       statistics.median(ctl),
                                       placement_note(std, ctl)))
    for t in threads:
        lru = med.get(('std', 'rcu', 'kernel', 'hit', t))
        fifo = med.get(('fifo', 'rcu', 'kernel', 'hit', t))
        if lru and fifo:
            print('  cost of the referenced bit, %d thread%s: reclaim=lru / '
                  'reclaim=fifo = %5.3f' % (t, 's' if t > 1 else '',
                                            lru / fifo))
    rows = sweep_cells(med, threads)
    sweep_table(rows, threads, meta)
    if sweep:
        sweep_csv(rows, sweep + '.csv')
        print('\nsweep: %s.csv' % sweep)
        if sweep_plot(rows, threads, meta, sweep + '.png'):
            print('plot: %s.png' % sweep)
        else:
            print('no python3-matplotlib: no plot')
    cells = parse_hitratio(args[0])
    hitratio_table(cells)
    if png and cells:
        hitratio_plot(cells, png)
        print('\nplot: %s' % png)
    reclaims = parse_reclaim(args[0])
    reclaim_table(reclaims)
    if rcsv and reclaims:
        reclaim_csv(reclaims, rcsv)
        print('\nreclaims: %s' % rcsv)
    if want_check:
        problems = check(med, meta, cells, reclaims)
        for p in problems:
            print('report: %s' % p)
        if problems:
            return 1
        print('report: every cell of the table measured')
    return 0


if __name__ == '__main__':
    sys.exit(main())
