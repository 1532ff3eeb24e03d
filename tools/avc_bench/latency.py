#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""make bench's native miss latencies (avc_native_latency's --csv) against
their two goals (Documentation/benchmarks.rst, "Miss latency").  --guest:
report.py's --reclaim-csv, drawn beside them by --plot; --check fails
unless every mode timed misses at every number of slots and threshold."""

import argparse
import csv
import sys

from report import log2_x, pyplot, verdict

MODES = ('lru', 'fifo', 'newest', '6.1')
GOAL = 2.0
# A mode and its guest policy share a colour; 6.1 is black and dashed.
COLOURS = {'lru': 'C0', 'fifo': 'C1', 'newest': 'C2', '6.1': 'k'}


def read(path, mode):
    """{(slots, threshold, @mode's value): row}"""
    with open(path) as f:
        return {(int(r['slots']), int(r['threshold']), r[mode]): r
                for r in csv.DictReader(f)}


def axes_of(rows):
    return (sorted({k[0] for k in rows}), sorted({k[1] for k in rows}),
            [m for m in MODES if any(k[2] == m for k in rows)])


def ratio(r):
    """p99 of reclaiming misses over p99 of the others, or None"""
    return r['r_p99'] / r['p99'] if r and r['r_p99'] and r['p99'] else None


def tables(rows):
    slots, thresholds, modes = axes_of(rows)
    print('p99 of a miss that reclaims (ns), natively, by slots; growth '
          '%d -> %d slots:' % (slots[0], slots[-1]))
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
    print('\np99 ratio, a miss that reclaims / one that does not (goal: at '
          'most %g; * met):' % GOAL)
    print('%6s %-7s' % ('thr', 'mode') + ''.join('%9d' % s for s in slots))
    met = {m: [] for m in modes}
    for t in thresholds:
        for m in modes:
            xs = [ratio(rows.get((s, t, m))) for s in slots]
            met[m] += [x <= GOAL for x in xs if x is not None]
            print('%6d %-7s' % (t, m) + ''.join(
                '%9s' % '-' if x is None else
                '%8.2f%s' % (x, '*' if x <= GOAL else ' ') for x in xs))
    for m in modes:
        print('%-7s goal met in %d of %d rows' % (m, sum(met[m]), len(met[m])))


def plot(rows, guest, png):
    matplotlib, plt = pyplot()
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
        # For scale, the lowest p99 of the misses that do not reclaim.
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
            for p in ('lru', 'fifo', 'newest'):
                for q, style in (('duration_p50', '-'), ('duration_p99', ':')):
                    pts = [(s, int(guest[(s, t, p)][q])) for s in slots
                           if guest.get((s, t, p), {}).get(q)]
                    if pts:
                        bot.plot(*zip(*pts), color=COLOURS[p], marker='s',
                                 linestyle=style, label='%s %s' % (p, q[-3:]))
            if bot.lines:
                bot.set_yscale('log')
            else:
                bot.text(0.5, 0.5, 'not measured\nin the guest',
                         ha='center', va='center', transform=bot.transAxes,
                         color='0.5')
        for ax in axes[:, col]:
            log2_x(ax, slots, matplotlib)
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
    for k in ((s, t, m) for s in slots for t in thresholds for m in MODES):
        r = rows.get(k)
        if not r:
            problems.append('no row for %d slots, threshold %d, %s' % k)
        elif not r['r_p99'] and not r['p99']:
            problems.append('no miss timed at %d slots, threshold %d, %s' % k)
    return problems


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--guest')
    p.add_argument('--plot')
    p.add_argument('--check', action='store_true')
    p.add_argument('csv')
    args = p.parse_args()
    # The numbers as ints, or None where a field is empty.
    rows = {k: {f: v if f == 'mode' else int(v) if v not in ('', None)
                else None for f, v in r.items()}
            for k, r in read(args.csv, 'mode').items()}
    if not rows:
        print('latency: no rows in %s' % args.csv)
        return 1
    tables(rows)
    if args.plot:
        plot(rows, read(args.guest, 'policy') if args.guest else None,
             args.plot)
        print('\nplot: %s' % args.plot)
    return verdict('latency', check(rows), 'every row measured') \
        if args.check else 0


if __name__ == '__main__':
    sys.exit(main())
