#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""make upstream's table and verdicts, from what tools/upstream/run left.

  report.py OUT

OUT is build/upstream/: for each kernel K (stock, patched) and threshold
T, K-T/boot-service.meta (the kernel AVC's cache_stats over the window,
its hash_stats at the end); replay.log (tools/native/run replay of each
trace, one line per hash seed, policy and threshold); model.log
(model.py); and, if they ran, K-enforcing/ (the audited decisions) and
K-hitpath-C.log (the hit-path loops at C vCPUs).

The table is in the layout of the 2004 announcement: one row a kernel
(or a prediction), one column group a cache_threshold.  The verdicts:

  misses    each kernel's misses within the replay's range over the hash
            seeds, for its policy (newest for stock, lru for patched), on
            the trace recorded in the same run;
  identity  the cache_stats identities: hits + misses = lookups, entries
            at the end <= cache_threshold, reclaims <= frees;
  denials   the enforcing runs' audited denials: the same distinct
            (scontext, tcontext, tclass, denied) tuples on both kernels;
  hitpath   patched / stock Kcalls/s of each loop within the run-to-run
            spread (the larger of the two kernels' (max - min) / median).

A part that did not run is said so, and is no verdict.  Exits 1 if any
verdict fails.
"""

import glob
import os
import re
import statistics
import sys

KERNELS = ('stock', 'patched')
POLICY = {'stock': 'newest', 'patched': 'lru'}


def meta(path):
    d = {}
    with open(path) as f:
        for line in f:
            k, sep, v = line.rstrip('\n').partition('=')
            if sep:
                d[k] = v
    return d


def matches(path, pat):
    """The matches of pat on the lines of the file at path, if it exists."""
    if not os.path.exists(path):
        return
    with open(path) as f:
        for line in f:
            m = pat.match(line)
            if m:
                yield m


def replay_ranges(path):
    """{(trace, threshold, policy): [(misses, reclaims) per seed]}"""
    r = {}
    pat = re.compile(r'^replay seed (\S+) (\S+): slots \d+ threshold (\d+) '
                     r'reclaim=(\w+): lookups \d+ hits \d+ misses (\d+) '
                     r'reclaims (\d+)')
    for m in matches(path, pat):
        key = (m.group(2), int(m.group(3)), m.group(4))
        r.setdefault(key, []).append((int(m.group(5)), int(m.group(6))))
    return r


def model_counts(path):
    r = {}
    pat = re.compile(r'^model (\S+): kernel (\w+) threshold (\d+): '
                     r'lookups (\d+) misses (\d+) reclaims (\d+)')
    for m in matches(path, pat):
        r[(m.group(1), m.group(2), int(m.group(3)))] = (
            int(m.group(5)), int(m.group(6)))
    return r


def denial_keys(path):
    keys = set()
    n = denied = 0
    with open(path) as f:
        for line in f:
            n += 1
            d = dict(re.findall(r'(\w+)=(\S+)', line))
            if d.get('denied', '0x0') == '0x0':
                continue
            denied += 1
            keys.add((d.get('scontext'), d.get('tcontext'),
                      d.get('tclass'), d.get('denied')))
    return n, denied, keys


def hitpath(path):
    """{(mode, threads): ([Kcalls/s per repetition], AVC lookups a call)}"""
    r = {}
    pat = re.compile(r'^hitpath (\w+) threads (\d+) rep \d+: .* '
                     r'([0-9.]+) Kcalls/s, AVC lookups ([0-9.]+) a call')
    with open(path, errors='replace') as f:
        for line in f:
            m = pat.match(line)
            if m:
                v = r.setdefault((m.group(1), int(m.group(2))), ([], 0.0))
                v[0].append(float(m.group(3)))
                r[(m.group(1), int(m.group(2)))] = (v[0], float(m.group(4)))
    return r


def name(k, w, t):
    """A run's directory and trace name: boot-service's are K-T."""
    return '%s-%d' % (k, t) if w == 'boot-service' else '%s-%s-%d' % (k, w, t)


def section(out, w, replays, models, verdicts):
    """One workload's table, and its misses and identity verdicts."""
    thresholds = sorted({int(m.group(1)) for p in glob.glob(
        os.path.join(out, '*-*/%s.meta' % w))
        for m in [re.search(r'^(?:stock|patched)-%s(\d+)$' % (
            '' if w == 'boot-service' else re.escape(w) + '-'),
            os.path.basename(os.path.dirname(p)))] if m})
    metas = {}
    for k in KERNELS:
        for t in thresholds:
            p = os.path.join(out, name(k, w, t), '%s.meta' % w)
            if os.path.exists(p):
                metas[(k, t)] = meta(p)
    any_meta = next(iter(metas.values()), {})
    rule = '-' * 79
    print('System: %s' % any_meta.get('guest', '?'))
    print('Kernels: %s, stock and with the series (tools/upstream/series)'
          % ', '.join(sorted({m.get('kernel', '?') for m in metas.values()})))
    if w == 'boot-service':
        print('Workload: systemd\'s boot to multi-user.target, then the '
              'service')
        print('workload, from an empty cache; permissive; one window each.')
    else:
        print('Workload: make trace\'s %s: the boot, then %s minute(s) of it,'
              % (w, any_meta.get('minutes', '?')))
        print('from an empty cache; permissive; one window each.')
    print()
    lw = 23

    def rng(v, i):
        return '%d-%d' % (min(x[i] for x in v), max(x[i] for x in v))

    print(rule)
    head = '%-*s' % (lw, 'cache_threshold')
    sub = '%-*s' % (lw, '')
    for t in thresholds:
        head += '%28s' % t
        sub += '%8s%10s%10s' % ('lookups', 'misses', 'reclaims')
    print(head)
    print(sub)
    print(rule)
    for k in KERNELS:
        row = '%-*s' % (lw, '%s kernel' % k)
        for t in thresholds:
            m = metas.get((k, t))
            if m:
                row += '%8s%10s%10s' % (m['kernel_lookups'],
                                        m['kernel_misses'],
                                        m['kernel_reclaims'])
            else:
                row += '%28s' % 'not run'
        print(row)
    print(rule)
    nseeds = max([len(v) for v in replays.values()] or [0])
    print('Predictions, on the trace each kernel recorded in the same boot:')
    print('the replay under %d hash seeds (min-max); model.py, the 6.12 AVC'
          % nseeds)
    print('(stock, or with the series) with the kernel\'s own hash:')
    print(rule)
    for k in KERNELS:
        for pol in ('newest', 'lru'):
            row = '%-*s' % (lw, '%s: replay %s' % (k, pol))
            for t in thresholds:
                v = replays.get((name(k, w, t), t, pol))
                row += ('%8s%10s%10s' % ('', rng(v, 0), rng(v, 1)) if v
                        else '%28s' % '-')
            print(row)
        row = '%-*s' % (lw, '%s: model' % k)
        for t in thresholds:
            v = models.get((name(k, w, t), k, t))
            row += '%8s%10d%10d' % (('',) + v) if v else '%28s' % '-'
        print(row)
    print(rule)
    print('hash_stats at the end: entries/buckets used/longest chain')
    for k in KERNELS:
        row = '%-*s' % (lw, '%s kernel' % k)
        for t in thresholds:
            m = metas.get((k, t))
            row += '%28s' % ('%s/%s/%s' % (
                m['kernel_end_entries'], m['kernel_end_buckets_used'],
                m['kernel_end_longest_chain']) if m else '-')
        print(row)
    print(rule)
    print()

    # The verdicts.
    for k in KERNELS:
        for t in thresholds:
            m = metas.get((k, t))
            if not m:
                verdicts.append(('misses', None,
                                 '%s %s at %d: not run' % (w, k, t)))
                continue
            misses = int(m['kernel_misses'])
            v = replays.get((name(k, w, t), t, POLICY[k]))
            if not v:
                verdicts.append(('misses', None,
                                 '%s %s at %d: no replay' % (w, k, t)))
            else:
                lo, hi = min(x[0] for x in v), max(x[0] for x in v)
                mo = models.get((name(k, w, t), k, t))
                verdicts.append(('misses', lo <= misses <= hi,
                                 '%s %s at %d: %d misses, replay %s '
                                 '%d-%d%s' % (w, k, t, misses, POLICY[k],
                                              lo, hi,
                                              ', model %d' % mo[0] if mo
                                              else '')))
            lookups = int(m['kernel_lookups'])
            hits = int(m['kernel_hits'])
            entries = int(m['kernel_end_entries'])
            reclaims = int(m['kernel_reclaims'])
            frees = int(m['kernel_frees'])
            bad = []
            if hits + misses != lookups:
                bad.append('hits + misses != lookups')
            if entries > t:
                bad.append('%d entries > threshold' % entries)
            if reclaims > frees:
                bad.append('reclaims %d > frees %d' % (reclaims, frees))
            verdicts.append(('identity', not bad, '%s %s at %d: %s' % (
                w, k, t, '; '.join(bad) or
                'hits + misses = lookups, %d entries <= %d, reclaims %d '
                '<= frees %d' % (entries, t, reclaims, frees))))
    # Patched against stock: the prediction's direction.
    for t in thresholds:
        s, p = metas.get(('stock', t)), metas.get(('patched', t))
        if s and p:
            print('%s at %d: misses per 1000 lookups, stock %.2f, '
                  'patched %.2f' % (
                      w, t, 1e3 * int(s['kernel_misses']) /
                      int(s['kernel_lookups']),
                      1e3 * int(p['kernel_misses']) /
                      int(p['kernel_lookups'])))

    print(rule)
    print()


def main():
    out = sys.argv[1]
    replays = replay_ranges(os.path.join(out, 'replay.log'))
    models = model_counts(os.path.join(out, 'model.log'))
    verdicts = []
    workloads = ['boot-service'] + sorted({
        m.group(1) for p in glob.glob(os.path.join(out, '*-*-*/*.meta'))
        for m in [re.search(r'/(?:stock|patched)-(.+)-\d+/\1\.meta$', p)]
        if m})
    print('=' * 79)
    print()
    for w in workloads:
        section(out, w, replays, models, verdicts)

    den, mode = {}, {}
    for k in KERNELS:
        d = os.path.join(out, '%s-enforcing' % k)
        files = glob.glob(os.path.join(d, '*.denials'))
        metas_e = glob.glob(os.path.join(d, '*.meta'))
        if files:
            den[k] = denial_keys(files[0])
            mode[k] = meta(metas_e[0]).get('guest', '') if metas_e else ''
    if len(den) == 2:
        (ns, ds, ks), (np_, dp, kp) = den['stock'], den['patched']
        enforcing = all(m.endswith('enforcing=1') for m in mode.values())
        verdicts.append(('denials', ks == kp and enforcing,
                         '%saudited stock %d patched %d, denied stock %d '
                         'patched %d, distinct denials stock %d patched %d, '
                         '%d in only one' % (
                             '' if enforcing else 'NOT ENFORCING: ',
                             ns, np_, ds, dp, len(ks), len(kp),
                             len(ks ^ kp))))
    else:
        verdicts.append(('denials', None, 'not run'))

    hp = {}
    for p in glob.glob(os.path.join(out, '*-hitpath-*.log')):
        m = re.search(r'/(\w+)-hitpath-(\d+)\.log$', p)
        if m:
            hp[(m.group(1), int(m.group(2)))] = hitpath(p)
    cpus = sorted({c for (_, c) in hp})
    if not cpus:
        verdicts.append(('hitpath', None, 'not run'))
    for c in cpus:
        s, p = hp.get(('stock', c), {}), hp.get(('patched', c), {})
        for key in sorted(set(s) & set(p)):
            (vs, ls), (vp, lp) = s[key], p[key]
            ms, mp = statistics.median(vs), statistics.median(vp)
            spread = max((max(v) - min(v)) / statistics.median(v)
                         for v in (vs, vp))
            ratio = mp / ms
            # The 2004 write() loop: 6.12's selinux_file_permission()
            # answers from the file's own cache, without the AVC.
            ok = abs(ratio - 1) <= spread if ls or lp else None
            verdicts.append(('hitpath', ok,
                             '%d vCPU %s x%d: stock %.1f patched %.1f '
                             'Kcalls/s (medians of %d), patched/stock %.3f, '
                             'spread %.3f, AVC lookups a call %.2f/%.2f'
                             % (c, key[0], key[1], ms, mp, len(vs), ratio,
                                spread, ls, lp) +
                             ('' if ok is not None else
                              ': the loop does not reach the AVC')))

    fail = False
    for what, ok, text in verdicts:
        word = {True: 'PASS', False: 'FAIL', None: 'NO VERDICT'}[ok]
        fail |= ok is False
        print('%-10s %-9s %s' % (word, what, text))
    print('=' * 79)
    return 1 if fail else 0


if __name__ == '__main__':
    sys.exit(main())
