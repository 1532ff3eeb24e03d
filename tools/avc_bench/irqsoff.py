#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""make bench's irqs-off table (tools/avc_bench/irqsoff) from its guest's
raw log: avc_rcu's sections with interrupts off (the preemptirq events,
each paired on its CPU), and the irqsoff tracer's longest section of each
run, before and after the bounded reclaim.  --check fails unless every
configuration was measured (it judges no number)."""

import argparse
import re
import sys

from report import fields, verdict


def key(f):
    return (f['version'], f['slots'], f['reclaimer'])


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--check', action='store_true')
    p.add_argument('log')
    args = p.parse_args()
    meta = {}
    for f in fields(args.log, 'IRQSOFF_META'):
        meta.update(f)
    secs = {key(f): f for f in fields(args.log, 'IRQSOFF')}
    tracer = {key(f) if 'slots' in f else ('idle', '', ''): f
              for f in fields(args.log, 'IRQSOFF_TRACER')}
    fns = {}
    for f in fields(args.log, 'IRQSOFF_FN'):
        fns.setdefault(key(f), []).append(f)
    print('interrupts-off sections begun and ended in avc_rcu (preemptirq '
          'events), %s fresh-key misses' % meta.get('misses', '?'))
    print('into a hot cache of threshold %s; kernel %s, %s vCPUs under '
          'QEMU TCG; µs of the trace clock' % (
              meta.get('threshold', '?'), meta.get('kernel', '?'),
              meta.get('cpus', '?')))
    print('%-7s %6s %6s %-10s %8s %5s %5s %6s  %-40s %8s' % (
        'version', 'slots', 'table', 'reclaimer', 'sections', 'p50', 'p99',
        'max', 'longest begun at < called from', 'tracer'))
    for k, f in secs.items():
        t = tracer.get(k, {})
        print('%-7s %6s %6s %-10s %8s %5s %5s %6s  %-40s %8s' % (
            k[0], 'follow' if k[1] == '0' else k[1], f.get('table', '-'),
            k[2], f['sections'], f['p50_us'], f['p99_us'], f['max_us'],
            f['max_at'].replace('<', ' < '), t.get('max_us', '-')))
        if f.get('unmatched', '0') != '0' or f.get('lost', '0') != '0':
            print('%34s(%s unmatched events, %s lost)' % (
                '', f.get('unmatched'), f.get('lost')))
    print('\nthe irqsoff tracer\'s longest section of each run, anywhere in '
          'the kernel (µs; started at, ended at):')
    for k, t in tracer.items():
        print('  %-30s %6s  %s, %s' % (' '.join(x for x in k if x),
                                        t.get('max_us', '-'),
                                        t.get('started', '-'),
                                        t.get('ended', '-')))
    print('\nby where they began (µs):')
    print('  %-7s %6s %-10s %-46s %8s %5s %5s %6s' % (
        'version', 'slots', 'reclaimer', 'begun at < called from',
        'sections', 'p50', 'p99', 'max'))
    for k, fl in fns.items():
        for f in sorted(fl, key=lambda f: -int(f['max_us'])):
            print('  %-7s %6s %-10s %-46s %8s %5s %5s %6s' % (
                k[0], 'follow' if k[1] == '0' else k[1], k[2],
                f['at'].replace('<', ' < '), f['sections'], f['p50_us'],
                f['p99_us'], f['max_us']))
    # Before against after, on tables of as many buckets: the longest
    # section, and the reclaim's (begun in avc_reclaim*()).
    def reclaim(k):
        fl = [f for f in fns.get(k, ()) if '<avc_reclaim' in f['at']]
        return max(fl, key=lambda f: int(f['max_us'])) if fl else None

    print('\nbefore / after, on tables of as many buckets (µs): the longest '
          'avc_rcu section, and the reclaim\'s sections p50, p99, max:')
    for k, f in secs.items():
        b = [bk for bk, bf in secs.items() if bk[0] == 'before' and
             bf.get('table') == f.get('table')]
        if k[0] != 'after' or not b or f['max_us'] in ('-', '0'):
            continue
        b = b[0]
        line = '  %-6s %-10s longest %5s / %5s = %5.1fx' % (
            'follow' if k[1] == '0' else k[1], k[2], secs[b]['max_us'],
            f['max_us'], int(secs[b]['max_us']) / int(f['max_us']))
        rb, ra = reclaim(b), reclaim(k)
        if rb and ra:
            line += ';  reclaim %s %s %s / %s %s %s' % (
                rb['p50_us'], rb['p99_us'], rb['max_us'], ra['p50_us'],
                ra['p99_us'], ra['max_us'])
        print(line)
    if not args.check:
        return 0
    problems = []
    if meta.get('done') is None and 'IRQSOFF_META done' not in \
            open(args.log, errors='replace').read():
        problems.append('the guest did not finish')
    for k in (('before', '512', '-'), ('before', '8192', '-'),
              ('after', '512', 'inline'), ('after', '512', 'background'),
              ('after', '0', 'inline'), ('after', '0', 'background')):
        if not re.match(r'^\d+$', secs.get(k, {}).get('max_us', '')):
            problems.append('no section measured for %s' % ' '.join(k))
    return verdict('irqsoff', problems, 'every configuration measured')


if __name__ == '__main__':
    sys.exit(main())
