#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""make bench's native miss latencies and hit costs (avc_native_latency's
--csv and --hit-csv) against their goals (Documentation/benchmarks.rst,
"Miss latency"), each said plainly as met or NOT met from the ratios of one
run.  --guest: report.py's --reclaim-csv, its sections' nodes judged
against the node budget too; --plot draws the ratios; --check fails unless
every cell was measured (it judges no number)."""

import argparse
import csv
import sys

from report import log2_x, pyplot, verdict

RECLAIMERS = ('inline', 'background', '6.1')
TABLES = ('hot', 'cold')
# The goals: a crossing miss at most 1.2x a plain one at p99; no section
# examines more than AVC_NODE_BUDGET (avc/avc.h) nodes; a hit at 8192
# entries at most 1.1x one at 512 (the table following the threshold).
GOAL_MISS = 1.2
NODE_BUDGET = 64
GOAL_HIT = 1.1
COLOURS = {'inline': 'C0', 'background': 'C1', '6.1': 'k'}


def rows_of(f):
    """csv.DictReader of @f, its '#' lines (a recorded run's header) left
    out"""
    return csv.DictReader(line for line in f if not line.startswith('#'))


def num(v):
    return int(v) if v not in ('', None) else None


def read_misses(path):
    """{(slots, threshold, reclaimer, table): row}, numbers as ints"""
    with open(path) as f:
        return {(int(r['slots']), int(r['threshold']), r['reclaimer'],
                 r['table']): {k: v if k in ('reclaimer', 'table', 'policy')
                               else num(v) for k, v in r.items()}
                for r in rows_of(f)}


def read_hits(path):
    with open(path) as f:
        return {(int(r['entries']), int(r['slots'])):
                {k: float(v) for k, v in r.items()}
                for r in rows_of(f)}


def ratio(r):
    """p99 of crossing misses over p99 of the others, or None"""
    return r['c_p99'] / r['p99'] if r and r['c_p99'] and r['p99'] else None


def slots_name(s):
    return 'follow' if s == 0 else str(s)


def axes_of(rows):
    return (sorted({k[0] for k in rows}, key=lambda s: s or 1 << 30),
            sorted({k[1] for k in rows}),
            [m for m in RECLAIMERS if any(k[2] == m for k in rows)],
            [t for t in TABLES if any(k[3] == t for k in rows)])


def miss_tables(rows):
    slots, thresholds, recls, temps = axes_of(rows)
    cols = [(m, t) for m in recls for t in temps]
    print('p99 of a miss that crosses the watermark / p99 of one that does '
          'not (goal: at most %g; * met,' % GOAL_MISS)
    print('- no miss crossed): inline, a section ran in it; background, it '
          'woke the reclaimer or was not cached;')
    print('6.1, its reclaim ran')
    print('%7s %6s' % ('slots', 'thr') +
          ''.join('%12s' % ('%s %s' % (m[:4] if m != '6.1' else m, t))
                  for m, t in cols))
    met = {c: [] for c in cols}
    for s in slots:
        for th in thresholds:
            line = '%7s %6d' % (slots_name(s), th)
            for c in cols:
                r = rows.get((s, th) + c)
                x = ratio(r)
                if x is not None:
                    met[c].append(x <= GOAL_MISS)
                line += '%12s' % ('-' if x is None else '%.2f%s' % (
                    x, '*' if x <= GOAL_MISS else ' '))
            print(line.rstrip())
    allmet = sum(sum(v) for v in met.values())
    alln = sum(len(v) for v in met.values())
    print('\ngoal, a crossing miss at most %gx a plain one at p99 in every '
          'configuration: %s' % (GOAL_MISS, 'met' if allmet == alln
                                 else 'NOT met'))
    for c in cols:
        xs = [ratio(rows.get((s, th) + c)) for s in slots for th in thresholds]
        xs = [x for x in xs if x is not None]
        if xs:
            print('  %-10s %-4s met in %2d of %2d cells; ratios %.2f to %.2f'
                  % (c + (sum(met[c]), len(met[c]), min(xs), max(xs))))
    print('\nnot cached (% of the misses timed), by cell:')
    print('%7s %6s' % ('slots', 'thr') +
          ''.join('%12s' % ('%s %s' % (m[:4] if m != '6.1' else m, t))
                  for m, t in cols))
    for s in slots:
        for th in thresholds:
            line = '%7s %6d' % (slots_name(s), th)
            for c in cols:
                r = rows.get((s, th) + c)
                line += '%12s' % ('-' if not r or not r['misses'] else
                                  '%.1f' % (100.0 * r['full'] / r['misses']))
            print(line.rstrip())


def section_tables(rows, guest):
    slots, thresholds, recls, temps = axes_of(rows)
    print('\nreclaim sections during the timed misses, natively: duration_ns '
          'p50 / p99 / max, nodes max')
    print('%7s %6s %-10s %-4s %9s %8s %8s %9s %5s' % (
        'slots', 'thr', 'reclaimer', 'tbl', 'sections', 'p50', 'p99', 'max',
        'nodes'))
    worst = {}
    for s in slots:
        for th in thresholds:
            for m in recls:
                for t in temps:
                    r = rows.get((s, th, m, t))
                    if not r or not r['sections']:
                        continue
                    print('%7s %6d %-10s %-4s %9d %8s %8s %9s %5s' % (
                        slots_name(s), th, m, t, r['sections'], r['s_p50'],
                        r['s_p99'], r['s_max'], r['nodes_max']))
                    if m != '6.1':
                        worst[(m, t)] = max(worst.get((m, t), 0),
                                            r['nodes_max'] or 0)
    if guest:
        for r in guest.values():
            if r.get('nodes_max', '').isdigit():
                k = ('guest ' + r['reclaimer'], r['temp'])
                worst[k] = max(worst.get(k, 0), int(r['nodes_max']))
    if worst:
        most = max(worst.values())
        print('\ngoal, no section examines more than the node budget (%d): '
              '%s; the most nodes one section examined:' % (
                  NODE_BUDGET, 'met' if most <= NODE_BUDGET else 'NOT met'))
        for k in sorted(worst):
            print('  %-16s %-4s %3d' % (k + (worst[k],)))


def hit_tables(hits):
    ents = sorted({k[0] for k in hits})
    print('\nhits (ns a lookup, p50 of the batches), by entries; the table '
          'following the threshold and 512 pinned slots:')
    print('%8s %8s %8s %7s %8s %8s' % ('entries', 'slots', 'buckets',
                                        'chain', 'hot64', 'all'))
    for e in ents:
        for s in (0, 512):
            h = hits.get((e, s))
            if h:
                print('%8d %8s %8d %7d %8.1f %8.1f' % (
                    e, slots_name(s), h['table_slots'], h['longest_chain'],
                    h['hot64_p50'], h['all_p50']))
    base = hits.get((512, 0))
    if not base:
        return
    for e in ents:
        if e == 512:
            continue
        for s in (0, 512):
            h = hits.get((e, s))
            if not h:
                continue
            rs = [h[q + '_p50'] / base[q + '_p50'] for q in ('hot64', 'all')]
            goal = e == 8192 and s == 0
            print('%s%d entries on %s slots / 512 entries following: hot64 '
                  '%.2f%s, all %.2f%s' % (
                      'goal, a hit at ' if goal else '  ', e, slots_name(s),
                      rs[0], ' (%s)' % ('met' if rs[0] <= GOAL_HIT else
                                        'NOT met') if goal else '',
                      rs[1], ' (%s)' % ('met' if rs[1] <= GOAL_HIT else
                                        'NOT met') if goal else ''))


def plot(rows, hits, png):
    matplotlib, plt = pyplot()
    slots, thresholds, recls, temps = axes_of(rows)
    pinned = [s for s in slots if s]
    fig, axes = plt.subplots(1, len(thresholds) + (1 if hits else 0),
                             squeeze=False,
                             figsize=(3.6 * (len(thresholds) + 1), 3.4))
    axes = axes[0]
    top = GOAL_MISS
    for col, th in enumerate(thresholds):
        ax = axes[col]
        for m in recls:
            for t in temps:
                pts = [(s, ratio(rows.get((s, th, m, t)))) for s in pinned]
                pts = [p for p in pts if p[1] is not None]
                if pts:
                    top = max(top, max(p[1] for p in pts))
                    ax.plot(*zip(*pts), color=COLOURS[m], marker='o',
                            linestyle='-' if t == 'hot' else ':',
                            label='%s %s' % (m, t))
                f = ratio(rows.get((0, th, m, t)))
                if f is not None:
                    ax.plot([th if th >= 512 else 512], [f], color=COLOURS[m],
                            marker='*', markersize=10, linestyle='none')
        ax.axhline(GOAL_MISS, color='red', linewidth=1)
        ax.set_yscale('log')
        ax.set_title('threshold %d' % th)
        log2_x(ax, pinned, matplotlib)
        ax.set_xlabel('slots (star: following the threshold)')
        ax.grid(True, which='both', alpha=0.3)
    axes[0].set_ylabel('p99 crossing / not crossing')
    axes[0].legend(fontsize=7)
    if hits:
        ax = axes[-1]
        ents = sorted({k[0] for k in hits})
        for s, style in ((0, '-'), (512, '--')):
            for q, colour in (('hot64', 'C2'), ('all', 'C3')):
                pts = [(e, hits[(e, s)][q + '_p50']) for e in ents
                       if (e, s) in hits]
                if pts:
                    ax.plot(*zip(*pts), color=colour, linestyle=style,
                            marker='o', label='%s, %s slots' %
                            (q, slots_name(s)))
        log2_x(ax, ents, matplotlib)
        ax.set_yscale('log')
        ax.set_xlabel('entries')
        ax.set_ylabel('ns a hit (p50)')
        ax.set_title('hits')
        ax.grid(True, which='both', alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle('avc_rcu make bench: misses natively (one thread, liburcu; '
                 'red: the goal)')
    fig.tight_layout()
    fig.savefig(png, dpi=90)


def check(rows, hits):
    problems = []
    slots, thresholds, _, temps = axes_of(rows)
    for k in ((s, th, m, t) for s in slots for th in thresholds
              for m in RECLAIMERS for t in TABLES):
        if k[2] == '6.1' and k[0] == 0:
            continue
        r = rows.get(k)
        what = '%s slots, threshold %d, %s, %s' % ((slots_name(k[0]),) + k[1:])
        if not r:
            problems.append('no row for %s' % what)
        elif not r['plain'] and not r['crossing']:
            problems.append('no miss timed at %s' % what)
    if hits is not None:
        for e in sorted({k[0] for k in hits} | {512}):
            for s in (0, 512):
                if not hits.get((e, s), {}).get('hot64_p50'):
                    problems.append('no hit timed at %d entries, %s slots' %
                                    (e, slots_name(s)))
    return problems


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--guest')
    p.add_argument('--hits')
    p.add_argument('--plot')
    p.add_argument('--check', action='store_true')
    p.add_argument('csv')
    args = p.parse_args()
    rows = read_misses(args.csv)
    hits = read_hits(args.hits) if args.hits else None
    guest = None
    if args.guest:
        with open(args.guest) as f:
            guest = {i: r for i, r in enumerate(rows_of(f))}
    if not rows:
        print('latency: no rows in %s' % args.csv)
        return 1
    miss_tables(rows)
    section_tables(rows, guest)
    if hits:
        hit_tables(hits)
    if args.plot:
        plot(rows, hits, args.plot)
        print('\nplot: %s' % args.plot)
    return verdict('latency', check(rows, hits), 'every cell measured') \
        if args.check else 0


if __name__ == '__main__':
    sys.exit(main())
