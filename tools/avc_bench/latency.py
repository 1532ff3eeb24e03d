#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Read the miss latencies of a make bench run against their two goals,
and draw them.

  latency.py [--guest RECLAIM_CSV] [--plot PNG] [--check] LATENCY_CSV

LATENCY_CSV is avc_native_latency's --csv (the native misses, one row per
number of slots, threshold and mode: lru, fifo, newest, and 6.1, the
rewrite of Linux 6.1's insert and reclaim).  Two tables:

- the p99 of a miss that reclaims, by number of slots, and its growth from
  the fewest slots to the most: a reclaim's cost should not grow with the
  table;
- the ratio of that p99 to the p99 of a miss that does not reclaim, by
  number of slots, against the goal of at most 2 ("*" marks a row that
  meets it).

--guest RECLAIM_CSV: report.py's --reclaim-csv (the reclaims traced in the
guest), drawn as a third row of panels: the p50 and p99 of each
reclaim's duration_ns by number of slots.
--plot PNG: draw them, one column of panels per threshold (needs
python3-matplotlib).
--check: fail unless LATENCY_CSV has a row for every mode at every number
of slots and threshold it names, each with misses of both kinds or, where
every miss reclaimed, of the one; the numbers themselves are never
judged.
"""

import csv
import sys

MODES = ('lru', 'fifo', 'newest', '6.1')
GOAL = 2.0
# A mode and its guest policy share a colour; 6.1 is black and dashed.
COLOURS = {'lru': 'C0', 'fifo': 'C1', 'newest': 'C2', '6.1': 'k'}


def num(v):
    return int(v) if v not in ('', None) else None


def read_native(path):
    """{(slots, threshold, mode): row}, the numbers as ints or None"""
    rows = {}
    with open(path) as f:
        for r in csv.DictReader(f):
            key = (int(r['slots']), int(r['threshold']), r['mode'])
            rows[key] = {k: (v if k == 'mode' else num(v))
                         for k, v in r.items()}
    return rows


def read_guest(path):
    """{(slots, threshold, policy): row} from report.py's --reclaim-csv"""
    rows = {}
    with open(path) as f:
        for r in csv.DictReader(f):
            key = (int(r['slots']), int(r['threshold']), r['policy'])
            rows[key] = r
    return rows


def axes_of(rows):
    slots = sorted({k[0] for k in rows})
    thresholds = sorted({k[1] for k in rows})
    modes = [m for m in MODES if any(k[2] == m for k in rows)]
    return slots, thresholds, modes


def ratio(r):
    """p99 of reclaiming misses over p99 of the others, or None"""
    if not r or not r['r_p99'] or not r['p99']:
        return None
    return r['r_p99'] / r['p99']


def tables(rows):
    slots, thresholds, modes = axes_of(rows)
    lo, hi = slots[0], slots[-1]
    print('p99 of a miss that reclaims (ns), natively, by slots; growth '
          '%d -> %d slots:' % (lo, hi))
    print('%6s %-7s' % ('thr', 'mode') + ''.join('%9d' % s for s in slots) +
          '%9s' % 'growth')
    for t in thresholds:
        for m in modes:
            v = [rows.get((s, t, m), {}).get('r_p99') for s in slots]
            line = '%6d %-7s' % (t, m) + ''.join(
                '%9s' % (x if x is not None else '-') for x in v)
            if v[0] and v[-1]:
                line += '%8.2fx' % (v[-1] / v[0])
            print(line)
    print()
    print('p99 ratio, a miss that reclaims / one that does not (goal: at most '
          '%g; * met):' % GOAL)
    print('%6s %-7s' % ('thr', 'mode') + ''.join('%9d' % s for s in slots))
    met = {}
    for t in thresholds:
        for m in modes:
            line = '%6d %-7s' % (t, m)
            for s in slots:
                x = ratio(rows.get((s, t, m)))
                if x is None:
                    line += '%9s' % '-'
                    continue
                ok = x <= GOAL
                met.setdefault(m, []).append(ok)
                line += '%8.2f%s' % (x, '*' if ok else ' ')
            print(line)
    for m in modes:
        print('%-7s goal met in %d of %d rows' % (m, sum(met.get(m, [])),
                                                  len(met.get(m, []))))


def plot(rows, guest, png):
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    slots, thresholds, modes = axes_of(rows)
    nrows = 3 if guest else 2
    fig, axes = plt.subplots(nrows, len(thresholds), squeeze=False,
                             figsize=(3.4 * len(thresholds), 3.1 * nrows),
                             sharex=True, sharey='row')
    for col, t in enumerate(thresholds):
        top, mid = axes[0][col], axes[1][col]
        for m in modes:
            style = dict(color=COLOURS.get(m), marker='o',
                         linestyle='--' if m == '6.1' else '-', label=m)
            pts = [(s, rows[(s, t, m)]['r_p99']) for s in slots
                   if rows.get((s, t, m), {}).get('r_p99')]
            if pts:
                top.plot(*zip(*pts), **style)
            pts = [(s, ratio(rows.get((s, t, m)))) for s in slots
                   if ratio(rows.get((s, t, m))) is not None]
            if pts:
                mid.plot(*zip(*pts), **style)
        # For scale, the p99 of misses that do not reclaim, the lowest
        # of the modes at each number of slots.
        plain = [[rows[(s, t, m)]['p99'] for m in modes
                  if rows.get((s, t, m), {}).get('p99')] for s in slots]
        pts = [(s, min(p)) for s, p in zip(slots, plain) if p]
        if pts:
            top.plot(*zip(*pts), color='0.6', linestyle=':',
                     label='no reclaim')
        top.set_title('threshold %d' % t)
        top.set_yscale('log')
        mid.axhline(GOAL, color='red', linewidth=1, label='goal: 2x')
        if guest:
            bot = axes[2][col]
            drawn = False
            for p in ('lru', 'fifo', 'newest'):
                for q, style in (('duration_p50', '-'), ('duration_p99', ':')):
                    pts = [(s, int(guest[(s, t, p)][q])) for s in slots
                           if guest.get((s, t, p), {}).get(q)]
                    if pts:
                        bot.plot(*zip(*pts), color=COLOURS[p], marker='s',
                                 linestyle=style, label='%s %s' %
                                 (p, q[-3:]))
                        drawn = True
            if drawn:
                bot.set_yscale('log')
            else:
                bot.text(0.5, 0.5, 'not measured\nin the guest',
                         ha='center', va='center', transform=bot.transAxes,
                         color='0.5')
        for ax in axes[:, col]:
            ax.set_xscale('log', base=2)
            ax.set_xticks(slots)
            ax.get_xaxis().set_major_formatter(
                matplotlib.ticker.ScalarFormatter())
            ax.grid(True, which='both', alpha=0.3)
        axes[-1][col].set_xlabel('slots')
    # Plain numbers on the log scales, at 1, 2 and 5 of each decade.
    for row in [0] + ([2] if guest else []):
        ax = axes[row][0]
        ax.yaxis.set_major_locator(
            matplotlib.ticker.LogLocator(subs=(1, 2, 5)))
        ax.yaxis.set_major_formatter(matplotlib.ticker.ScalarFormatter())
        ax.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    top = max([ratio(r) or 0 for r in rows.values()] + [GOAL])
    axes[1][0].set_ylim(0, top * 1.05)
    axes[0][0].set_ylabel('reclaiming miss, p99 (ns)\nnative')
    axes[1][0].set_ylabel('p99 reclaiming / not\nnative')
    axes[0][0].legend(fontsize=7)
    axes[1][0].legend(fontsize=7)
    if guest:
        axes[2][0].set_ylabel('one reclaim (ns), p50 and p99\nguest, QEMU TCG')
        axes[2][0].legend(fontsize=7)
    fig.suptitle('avc_rcu make bench: miss latency by slots (native: one '
                 'thread, liburcu; 6.1 dashed)')
    fig.tight_layout()
    fig.savefig(png, dpi=90)


def check(rows):
    slots, thresholds, _ = axes_of(rows)
    problems = []
    for s in slots:
        for t in thresholds:
            for m in MODES:
                r = rows.get((s, t, m))
                if not r:
                    problems.append('no row for %d slots, threshold %d, %s'
                                    % (s, t, m))
                elif not r['r_p99'] and not r['p99']:
                    problems.append('no miss timed at %d slots, threshold '
                                    '%d, %s' % (s, t, m))
    return problems


def main():
    args = sys.argv[1:]
    guest_csv, png, want_check = None, None, False
    while args and args[0].startswith('--'):
        if args[0] == '--guest' and len(args) > 1:
            guest_csv = args[1]
            args = args[2:]
        elif args[0] == '--plot' and len(args) > 1:
            png = args[1]
            args = args[2:]
        elif args[0] == '--check':
            want_check = True
            args = args[1:]
        else:
            break
    if len(args) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    rows = read_native(args[0])
    if not rows:
        print('latency: no rows in %s' % args[0])
        return 1
    tables(rows)
    guest = read_guest(guest_csv) if guest_csv else None
    if png:
        plot(rows, guest, png)
        print('\nplot: %s' % png)
    if want_check:
        problems = check(rows)
        for p in problems:
            print('latency: %s' % p)
        if problems:
            return 1
        print('latency: every row measured')
    return 0


if __name__ == '__main__':
    sys.exit(main())
