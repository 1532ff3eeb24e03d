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
    # Before against after, the same slots: the longest avc_rcu section.
    print('\nlongest avc_rcu section, before / after (the same slots):')
    for k, f in secs.items():
        if k[0] != 'after':
            continue
        b = secs.get(('before', k[1], '-'))
        if b and b['max_us'] != '-' and f['max_us'] not in ('-', '0'):
            print('  slots %-6s %-10s %6s / %6s = %.1fx' % (
                'follow' if k[1] == '0' else k[1], k[2], b['max_us'],
                f['max_us'], int(b['max_us']) / int(f['max_us'])))
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
