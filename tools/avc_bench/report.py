#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the BENCH lines of a make bench run into a table of medians and
ratios.

  report.py [--check] RAW_LOG

--check: also fail unless every row of the table has a positive rate at
one thread and at one per CPU (make check runs make bench briefly and
checks the table this way; the rates themselves are never judged).
"""

import re
import statistics
import sys


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
    [('rcuonly', 'rcu', 'kernel', 'hit')]


def check(med, meta):
    """Problems with a run's completeness: missing or zero cells."""
    cpus = int(meta.get('cpus', '0'))
    problems = []
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
    want_check = bool(args) and args[0] == '--check'
    if want_check:
        args = args[1:]
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

    print('avc_rcu bench: %s vCPUs (QEMU TCG), median of %s runs of %s ms'
          % (meta.get('cpus', '?'), meta.get('reps', '?'),
             meta.get('ms', '?')))
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
    if want_check:
        problems = check(med, meta)
        for p in problems:
            print('report: %s' % p)
        if problems:
            return 1
        print('report: every cell of the table measured')
    return 0


if __name__ == '__main__':
    sys.exit(main())
