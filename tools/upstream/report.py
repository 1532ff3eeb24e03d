#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""make upstream's table and verdicts, from what tools/upstream/run left.

  report.py OUT
  report.py --self-test

OUT is build/upstream/: for each kernel K (stock, patched) and threshold
T, K-T/boot-service.meta (the kernel AVC's cache_stats over the window,
its hash_stats at the end) and K-T/boot-service.trace (the version 2
trace of the window: every lookup, and whether the kernel's AVC hit);
replay.log (tools/native/run replay of each trace, one line per hash
seed, policy and threshold); model.log (upstream_model, the kernel's hash);
model-jhash.log (upstream_model with the replay's hash and first seed); and,
if they ran, K-enforcing/ (the audited decisions) and K-hitpath-C.log
(the hit-path loops at C vCPUs).

The table is in the layout of the 2004 announcement: one row a kernel
(or a prediction), one column group a number of slots and a
cache_threshold.  The kernels are stock and patched at 512 slots and, if
run, at 8192 (CONFIG_SECURITY_SELINUX_AVC_HASH_BITS=13: stock13-...,
patched13-...).  The verdicts (Documentation/reports/upstream.rst, "The
verdicts"):

  misses    counted from the trace's first reset (the policy load, which
            empties the kernel's cache and the model's alike): the
            kernel's cache_stats misses less those it made before the
            load (the trace's lookups there without a hit) and less its
            misses on an insert still in flight on another CPU (which a
            one-CPU model cannot make), an interval as wide as the
            lookups it counted and the trace lacks, must meet the
            prediction, widened by the margin of data/misses-margin.txt
            (the kernel's own run-to-run spread about it, a fraction):
            for stock, the replay under each hash seed (newest) and
            upstream_model with the kernel's own hash; for patched,
            upstream_model alone (the replay has no policy that is the
            series' bounded reclaim); each less the keys asked before
            the load;
  model     upstream_model's module (avc_rcu's own lru, inline, on a pinned
            table) with the replay's hash and first seed counts what the
            replay's lru counts: the model's machinery is the replay's
            cache, the module's core, under another hash;
  counters  cache_stats against the trace's record of the same window:
            every recorded lookup counted (recorded <= counted, at most
            0.1 % unrecorded, the recorder's completeness rule), every
            hit and miss the probes saw counted, entries at the end <=
            cache_threshold, reclaims <= frees;
  denials   the enforcing runs' audited denials: the same distinct
            (scontext, tcontext, tclass, denied) tuples on both kernels;
  hitpath   one-sided: each loop that reaches the AVC (lookups a call >
            0 on both kernels; else no verdict) must not be slower on
            the patched kernel than stock by more than the placement
            band, what rebuilding the same source with another function
            alignment moves the stock kernel's rate (the twin's runs);
            no verdict if that band is 0.2 or wider (a 20 % slowdown
            could then pass).
            The hit path's property itself (no atomic, one conditional
            store) is hitpath.py's, on the built vmlinux.

A part that did not run is said so, and is no verdict.  Exits 1 if any
verdict fails.  --self-test holds the rules to crafted numbers that
must pass and must fail, and to shipped traces (Debian's 6.1 and 6.12
kernels', with 6.12's hash); exits 1 if one is judged otherwise.
"""

import functools
import glob
import lzma
import math
import os
import re
import statistics
import struct
import subprocess
import sys

# The kernels make upstream boots: stock and patched at the default
# CONFIG_SECURITY_SELINUX_AVC_HASH_BITS (9: 512 slots), and the same
# with 13 (8192 slots), whose runs are named stock13-..., patched13-...
KERNELS = ('stock', 'patched', 'stock13', 'patched13')
HERE = os.path.dirname(os.path.abspath(__file__))
MARGIN = os.path.join(HERE, 'data', 'misses-margin.txt')
# tools/upstream/Makefile's program, built once a run (model_built()).
MODEL = os.path.join(HERE, '..', '..', 'build', 'upstream-model',
                     'upstream_model')


def kslots(k):
    """The slots of kernel K's AVC."""
    return 8192 if k.endswith('13') else 512


def kpatched(k):
    return k.startswith('patched')


def kpolicy(k):
    """The native replay's policy closest to kernel K's reclaim: newest
    is stock's; lru is the module's (upstream_model's module), which the
    series' bounded reclaim is not exactly, so the patched kernels are
    judged against upstream_model alone."""
    return 'lru' if kpatched(k) else 'newest'


def load_margin(path=MARGIN):
    """The misses verdict's margin, a fraction of the prediction, from
    the data file that records how it was measured (margin=F)."""
    with open(path) as f:
        for line in f:
            k, sep, v = line.strip().partition('=')
            if sep and k == 'margin':
                return float(v)
    raise ValueError('%s: no margin=' % path)

# tools/avcstat/avc_trace_format.h's header (upstream_model reads the
# records).
HEADER = struct.Struct('<8sIIQII')


def trace_present(path):
    """Whether there is a trace file at path at least a header long
    (unpacked if xz): upstream_model reads and checks the rest."""
    if not os.path.exists(path):
        return False
    with open(path, 'rb') as f:
        xz = f.read(6) == b'\xfd7zXZ\x00'
    with (lzma.open if xz else open)(path, 'rb') as f:
        return len(f.read(HEADER.size)) == HEADER.size


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
    """{(trace, threshold, policy): {seed: (misses, reclaims)}}"""
    r = {}
    pat = re.compile(r'^replay seed (\S+) (\S+): slots \d+ threshold (\d+) '
                     r'reclaim=(\w+): lookups \d+ hits \d+ misses (\d+) '
                     r'reclaims (\d+)')
    for m in matches(path, pat):
        key = (m.group(2), int(m.group(3)), m.group(4))
        r.setdefault(key, {})[m.group(1)] = (int(m.group(5)),
                                             int(m.group(6)))
    return r


def model_counts(path):
    r = {}
    pat = re.compile(r'^model (\S+): kernel (\w+) threshold (\d+): '
                     r'lookups (\d+) misses (\d+) reclaims (\d+)')
    for m in matches(path, pat):
        r[(m.group(1), m.group(2), int(m.group(3)))] = (
            int(m.group(5)), int(m.group(6)))
    return r


def model_seed_counts(path):
    """model-jhash.log: {(trace, kernel, threshold): (seed, misses,
    reclaims)}"""
    r = {}
    pat = re.compile(r'^model seed (\S+) (\S+): kernel (\w+) threshold '
                     r'(\d+): lookups \d+ misses (\d+) reclaims (\d+)')
    for m in matches(path, pat):
        r[(m.group(2), m.group(3), int(m.group(4)))] = (
            m.group(1), int(m.group(5)), int(m.group(6)))
    return r


@functools.lru_cache(maxsize=None)
def model_built():
    """MODEL, made up to date once a run."""
    subprocess.run(['make', '-s', '-C', HERE, 'O=' + os.path.dirname(MODEL)],
                   check=True)
    return MODEL


def upstream_model(*args):
    """tools/upstream/upstream_model's output for ARGS (the model of
    upstream's AVC, tools/avcstat/upstream_avc.c), built on first use."""
    return subprocess.run((model_built(),) + args, check=True,
                          stdout=subprocess.PIPE,
                          universal_newlines=True).stdout


def model_misses(path, threshold, kernel, slots=512, hash='kernel'):
    """upstream_model's (misses, reclaims) for the trace at PATH, one kernel
    (stock, patched, v1, setref or module) at one threshold."""
    line = upstream_model('--kernel', kernel, '--threshold', str(threshold),
                     '--slots', str(slots), '--hash', hash, path).split()
    return int(line[line.index('misses') + 1]), \
        int(line[line.index('reclaims') + 1])


def kernel_answers(path, threshold=None, kernel='stock', slots=512,
                   hash='kernel'):
    """What a version 2 trace says of the kernel's answers.

    Before the first reset (the policy load, when the window opens
    before it, as make upstream's do at systemd's exec): 'lookups', their
    distinct 'keys', and 'kernel_misses', those the kernel's AVC did not
    answer from its cache (no AVC_TRACE_F_HIT); 'reset', whether there is
    one; 'keys_after', the distinct keys looked up after the last reset
    (0 without one).  With a threshold, from the first reset on (or the
    whole trace if it has none): 'inflight', the kernel's misses that a
    one-CPU cache could not make: the kernel missed, upstream_model
    (KERNEL: stock, patched, v1 or setref, at that threshold, SLOTS and
    HASH, in the trace's order) hit, the key's previous lookup was a miss
    of the kernel on another CPU, and that CPU recorded nothing since (its
    insert still in flight).  upstream_model --answers counts them.  None
    if there is no version 2 trace at path (a version 1 trace does not say
    what the kernel hit).
    """
    if not trace_present(path):
        return None
    out = upstream_model('--answers', '--kernel', kernel, '--threshold',
                    str(threshold or 512), '--slots', str(slots),
                    '--hash', hash, path).split('\n')
    w = out[0].split()
    if w[2] == 'version':
        return None
    r = {'reset': w[3] == '1', 'lookups': int(w[5]), 'keys': int(w[7]),
         'kernel_misses': int(w[9]), 'keys_after': int(w[11]),
         'inflight': 0}
    if threshold is not None:
        r['inflight'] = int(out[1].split()[-1])
    return r


def misses_verdict(what, policy, kernel_misses, kernel_lookups,
                   trace_lookups, pre, threshold, seeds, own_hash,
                   margin=0.0):
    """The misses verdict of one kernel at one threshold.

    kernel_misses, kernel_lookups: cache_stats over the window;
    trace_lookups: the lookups the trace recorded; pre: kernel_answers()
    of the trace; seeds: the replay's whole-window misses under each
    seed, for the kernel's policy (may be empty when own_hash is given);
    own_hash: upstream_model's, with the kernel's hash (or None); margin: the
    fraction of the range's top by which the kernel may miss beyond
    either end of the range (load_margin(): the kernel's own run-to-run
    spread about the model on its own trace, measured).  Returns (ok,
    text), ok True, False or None (no verdict).
    """
    if pre is None:
        return False, ('%s: no version 2 trace of the window, so no count '
                       'of what the kernel missed before the policy load'
                       % what)
    if not seeds and own_hash is None:
        return None, '%s: no replay and no model' % what
    unrecorded = kernel_lookups - trace_lookups
    if unrecorded < 0:
        return False, ('%s: the trace holds %d lookup(s) more than the '
                       'kernel counted' % (what, -unrecorded))
    if pre['keys'] > threshold:
        return None, ('%s: %d keys before the policy load, over the '
                      'threshold: the caches may have reclaimed before it, '
                      'so they do not meet empty there' % (what, pre['keys']))
    inflight = pre.get('inflight', 0)
    kfrom = kernel_misses - pre['kernel_misses'] - inflight
    klo = kfrom - unrecorded
    pred = [x - pre['keys'] for x in seeds]
    parts = []
    if pred:
        parts.append('%d seed%s %d-%d' % (
            len(pred), 's' if len(pred) > 1 else '', min(pred), max(pred)))
    if own_hash is not None:
        own = own_hash - pre['keys']
        pred.append(own)
        parts.append('upstream_model, the kernel\'s hash, %d' % own)
    lo, hi = min(pred), max(pred)
    m = int(math.ceil(margin * hi))
    if m:
        parts.append('margin %d (%.2f %%)' % (m, 100 * margin))
    parts = ', '.join(parts)
    ok = kfrom >= lo - m and klo <= hi + m
    less = ''
    if pre['reset']:
        less = ', less %d of the %d lookups before it' % (
            pre['kernel_misses'], pre['lookups'])
    if inflight:
        less += ', less %d of an insert in flight' % inflight
    if pre['reset']:
        text = ('%s: from the policy load %s misses (cache_stats %d%s), '
                '%s %d-%d (%s; each less the %d keys before the load)'
                % (what, '%d' % kfrom if not unrecorded else
                   '%d-%d' % (klo, kfrom), kernel_misses, less, policy, lo,
                   hi, parts, pre['keys']))
    else:
        text = ('%s: no reset in the window: %s misses (cache_stats %d%s), '
                '%s %d-%d (%s)'
                % (what, '%d' % kfrom if not unrecorded else
                   '%d-%d' % (klo, kfrom), kernel_misses, less, policy, lo,
                   hi, parts))
    if unrecorded:
        text += '; %d lookup%s counted, not recorded' % (
            unrecorded, '' if unrecorded == 1 else 's')
    return ok, text


def counters_verdict(what, m, threshold):
    """cache_stats against the trace's own record of the window, and the
    cache's shape at its end.  m: the window's .meta.  Returns (ok,
    text)."""
    bad, good = [], []

    def need(ok, yes, no):
        (good if ok else bad).append(yes if ok else no)

    lookups, hits = int(m['kernel_lookups']), int(m['kernel_hits'])
    misses = int(m['kernel_misses'])
    entries = int(m['kernel_end_entries'])
    reclaims, frees = int(m['kernel_reclaims']), int(m['kernel_frees'])
    rec = int(m['lookups'])
    need(rec <= lookups and (lookups - rec) * 1000 <= lookups,
         'lookups %d, %d recorded' % (lookups, rec),
         'lookups %d against %d recorded (recorded <= counted <= 0.1 %% '
         'more)' % (lookups, rec))
    if m.get('trace_version') != '2' or 'recorded_hits' not in m:
        bad.append('the trace does not say what the kernel hit')
    else:
        rh, rm = int(m['recorded_hits']), int(m['recorded_misses'])
        need(rh <= hits, 'hits %d >= %d recorded' % (hits, rh),
             'hits %d < %d recorded' % (hits, rh))
        need(rm <= misses, 'misses %d >= %d recorded' % (misses, rm),
             'misses %d < %d recorded' % (misses, rm))
    need(entries <= threshold, '%d entries <= %d' % (entries, threshold),
         '%d entries > threshold %d' % (entries, threshold))
    need(reclaims <= frees, 'reclaims %d <= frees %d' % (reclaims, frees),
         'reclaims %d > frees %d' % (reclaims, frees))
    return not bad, '%s: %s' % (what, '; '.join(bad) if bad else
                                ', '.join(good))


def spread(v):
    """(max - min) / median of a loop's repetitions."""
    return (max(v) - min(v)) / statistics.median(v)


def placement_band(pairs):
    """The timing band of a run: over its loops, the stock kernel against
    its placement twin (the same source built with another function
    alignment, tools/upstream/build's twin), |twin / stock - 1| plus the
    larger run-to-run spread of the two; the largest.  pairs: (stock
    Kcalls/s, twin Kcalls/s) lists.  None if there is none."""
    band = None
    for vs, vt in pairs:
        b = abs(statistics.median(vt) / statistics.median(vs) - 1) + \
            max(spread(vs), spread(vt))
        band = b if band is None else max(band, b)
    return band


# The widest placement band a run may judge with: beyond it a 20 %
# slowdown could pass, and the run says nothing about the hit path.
MAX_BAND = 0.2


def timing_verdict(what, stock, patched, band):
    """One hit-path loop: is the patched kernel slower than stock beyond
    what code placement alone moves a TCG guest's rate?  One-sided: a
    faster patched kernel is no finding, and a slower one within the band
    is none either.

    stock, patched: (Kcalls/s per repetition, AVC lookups a call); band:
    placement_band() of the run (None: no twin was measured).  A loop
    that makes no AVC lookup on either kernel measures nothing: no
    verdict.  Returns (ok, text)."""
    (vs, ls), (vp, lp) = stock, patched
    ms, mp = statistics.median(vs), statistics.median(vp)
    ratio = mp / ms
    text = ('%s: stock %.1f patched %.1f Kcalls/s (medians of %d), '
            'patched/stock %.3f, AVC lookups a call %.2f/%.2f'
            % (what, ms, mp, len(vs), ratio, ls, lp))
    if ls <= 0 or lp <= 0:
        return None, text + ': the loop does not reach the AVC'
    if band is None:
        return None, text + ': no placement twin measured, no band'
    if band >= MAX_BAND:
        return None, text + (': the placement band %.3f is %.2f or wider, '
                             'so this run cannot tell a 20 %% slowdown '
                             'from code placement' % (band, MAX_BAND))
    ok = ratio >= 1 - band
    return ok, text + ', %s the placement band %.3f' % (
        'within or above' if ok else 'BELOW', band)


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


def section(out, w, replays, models, jhash_models, verdicts, margin):
    """One workload's table, and its misses, model and counters
    verdicts."""
    cells = {}
    for p in glob.glob(os.path.join(out, '*-*/%s.meta' % w)):
        m = re.search(r'^(%s)-%s(\d+)$' % ('|'.join(KERNELS), (
            '' if w == 'boot-service' else re.escape(w) + '-')),
            os.path.basename(os.path.dirname(p)))
        if m:
            cells[(m.group(1), int(m.group(2)))] = meta(p)
    kernels = [k for k in KERNELS if any(c[0] == k for c in cells)]
    # A column is a cache_threshold and a number of slots.
    cols = sorted({(kslots(k), t) for k, t in cells})
    any_meta = next(iter(cells.values()), {})
    rule = '-' * 79
    print('System: %s' % any_meta.get('guest', '?'))
    print('Kernels: %s, stock and with the series (tools/upstream/series)'
          % ', '.join(sorted({m.get('kernel', '?') for m in cells.values()})))
    if w == 'boot-service':
        print('Workload: systemd\'s boot to multi-user.target, then the '
              'service')
        print('workload; permissive; one window each, from systemd\'s exec '
              '(before')
        print('the policy load, which empties the cache).')
    else:
        print('Workload: make trace\'s %s; permissive; one window each, from'
              % w)
        print('systemd\'s exec (before the policy load, which empties the '
              'cache).')
    print()
    lw = 23

    def rng(v, i):
        return '%d-%d' % (min(x[i] for x in v), max(x[i] for x in v))

    print(rule)
    head = '%-*s' % (lw, 'slots/cache_threshold')
    sub = '%-*s' % (lw, '')
    for sl, t in cols:
        head += '%28s' % ('%d/%d' % (sl, t))
        sub += '%8s%10s%10s' % ('lookups', 'misses', 'reclaims')
    print(head)
    print(sub)
    print(rule)

    def kern(k, sl):
        """The kernel of a column: the stock or patched build of its
        slots."""
        return k if kslots(k) == sl else None

    for base in ('stock', 'patched'):
        row = '%-*s' % (lw, '%s kernel' % base)
        for sl, t in cols:
            k = base + ('13' if sl == 8192 else '')
            m = cells.get((k, t))
            row += ('%8s%10s%10s' % (m['kernel_lookups'], m['kernel_misses'],
                                     m['kernel_reclaims']) if m
                    else '%28s' % 'not run')
        print(row)
    print(rule)
    nseeds = max([len(v) for v in replays.values()] or [0])
    print('Predictions, on the trace each kernel recorded in the same boot,')
    print('over the whole window: upstream_model, the 7.x AVC (stock, or '
          'with the')
    print('series) with the kernel\'s own hash; the native replay under %d'
          % nseeds)
    print('hash seeds (min-max): newest is stock\'s reclaim, lru the module\'s')
    print('CLOCK, close to the series\' (the misses verdicts count from the')
    print('policy load):')
    print(rule)
    for base in ('stock', 'patched'):
        row = '%-*s' % (lw, '%s: model' % base)
        for sl, t in cols:
            k = base + ('13' if sl == 8192 else '')
            v = models.get((name(k, w, t), base, t))
            row += '%8s%10d%10d' % (('',) + v) if v else '%28s' % '-'
        print(row)
        for pol in ('newest', 'lru'):
            row = '%-*s' % (lw, '%s: replay %s' % (base, pol))
            for sl, t in cols:
                k = base + ('13' if sl == 8192 else '')
                v = replays.get((name(k, w, t), t, pol))
                row += ('%8s%10s%10s' % ('', rng(list(v.values()), 0),
                                         rng(list(v.values()), 1)) if v
                        else '%28s' % '-')
            print(row)
    print(rule)
    print('hash_stats at the end: entries/buckets used/longest chain')
    for base in ('stock', 'patched'):
        row = '%-*s' % (lw, '%s kernel' % base)
        for sl, t in cols:
            m = cells.get((base + ('13' if sl == 8192 else ''), t))
            row += '%28s' % ('%s/%s/%s' % (
                m['kernel_end_entries'], m['kernel_end_buckets_used'],
                m['kernel_end_longest_chain']) if m else '-')
        print(row)
    print(rule)
    print()

    # The verdicts.
    for k, t in sorted(cells):
        m = cells[(k, t)]
        base = 'patched' if kpatched(k) else 'stock'
        what = '%s %s at %d/%d' % (w, base, kslots(k), t)
        n = name(k, w, t)
        v = replays.get((n, t, kpolicy(k)), {})
        mo = models.get((n, base, t))
        seeds = [] if kpatched(k) else [x[0] for x in v.values()]
        verdicts.append(('misses',) + misses_verdict(
            what, 'model' if kpatched(k) else 'newest/model',
            int(m['kernel_misses']), int(m['kernel_lookups']),
            int(m['lookups']),
            kernel_answers(os.path.join(out, n, '%s.trace' % w), t,
                           base, kslots(k)), t,
            seeds, mo[0] if mo else None, margin))
        js = jhash_models.get((n, 'module', t))
        if js:
            r = replays.get((n, t, 'lru'), {}).get(js[0])
            verdicts.append(('model', r == js[1:], '%s: upstream_model\'s '
                             'module with the replay\'s hash, '
                             'seed %s: %d misses %d reclaims, the replay\'s '
                             'lru %s' % (what, js[0], js[1], js[2],
                                         '%d misses %d reclaims' % r if r
                                         else 'not run')))
        verdicts.append(('counters',) + counters_verdict(what, m, t))
    # Patched against stock: the prediction's direction.  Per 1000
    # lookups and, in parentheses, the window's misses: a timed window
    # (tenants) holds more or fewer lookups from one boot to the next, its
    # compulsory misses the same.
    def rate(m):
        return '%.2f (%d)' % (1e3 * int(m['kernel_misses']) /
                              int(m['kernel_lookups']),
                              int(m['kernel_misses']))

    for sl, t in cols:
        bits = '13' if sl == 8192 else ''
        s = cells.get(('stock' + bits, t))
        p = cells.get(('patched' + bits, t))
        if s and p:
            # Stock at twice the threshold, when it ran: what raising
            # cache_threshold alone buys, against what the series buys.
            s2 = cells.get(('stock' + bits, 2 * t))
            print('%s at %d/%d: misses per 1000 lookups, stock %s, '
                  'patched %s%s' % (
                      w, sl, t, rate(s), rate(p),
                      ', stock at %d %s' % (2 * t, rate(s2)) if s2 else ''))

    print(rule)
    print()


def percentile(v, q):
    """The q-quantile of the sorted list v, nearest rank."""
    return v[min(len(v) - 1, max(0, int(math.ceil(q * len(v))) - 1))]


def reclaim_durations(path):
    """churn.reclaims: the durations (µs) of the kprobe pair on
    avc_reclaim_node(), and the events lost."""
    durs, ecx, lost = [], [], None
    for line in open(path):
        f = line.split()
        if f[0] == 'avc-reclaim' and len(f) == 4:
            durs.append((float(f[3]) - float(f[2])) * 1e6)
        elif f[0] == 'avc-reclaim-lost' and len(f) == 2:
            lost = int(f[1])
    return sorted(durs), ecx, lost


def reclaim_table(out):
    """The churn runs' reclaim durations, stock against patched, and
    their capacity misses (misses from the policy load less the distinct
    keys asked from it)."""
    rows = []
    for p in sorted(glob.glob(os.path.join(out, '*-churn-*', 'churn.reclaims'))):
        n = os.path.basename(os.path.dirname(p))
        m = re.match(r'^(%s)-(churn|churn-cold)-(\d+)$' % '|'.join(KERNELS),
                     n)
        if not m:
            continue
        k, w, t = m.group(1), m.group(2), int(m.group(3))
        durs, ecx, lost = reclaim_durations(p)
        tr = os.path.join(out, n, '%s.trace' % w)
        pre = kernel_answers(tr)
        mp = os.path.join(out, n, '%s.meta' % w)
        mt = meta(mp) if os.path.exists(mp) else {}
        cap = None
        if pre and mt:
            cap = (int(mt['kernel_misses']) - pre['kernel_misses'] -
                   pre['keys_after'])
        rows.append((kslots(k), t, 'hot' if w == 'churn' else 'cold',
                     'patched' if kpatched(k) else 'stock',
                     durs, ecx, lost, cap))
    if not rows:
        return
    print('Reclaim, make trace\'s churn workload: hot, a set of 3/4 of the '
          'threshold')
    print('stat()ed every round (its entries referenced), cold, none; keys')
    print('asked for once streaming through; avc_reclaim_node() timed by a')
    print('kprobe pair (µs, TCG), and the capacity misses (misses from the')
    print('policy load less its distinct keys):')
    print('-' * 79)
    print('%-10s %-5s %-8s %7s %7s %7s %7s %7s %5s %8s' % (
        'slots/thr', 'table', 'kernel', 'reclaims', 'p50', 'p99', 'p99.9',
        'max', 'lost', 'capacity'))
    for sl, t, table, base, durs, ecx, lost, cap in sorted(
            rows, key=lambda r: (r[0], r[1], r[2] != 'hot', r[3])):
        if durs:
            q = [percentile(durs, x) for x in (0.5, 0.99, 0.999)] + [durs[-1]]
            print('%-10s %-5s %-8s %7d %7.0f %7.0f %7.0f %7.0f %5s %8s' % (
                '%d/%d' % (sl, t), table, base, len(durs), *q,
                '-' if lost is None else lost,
                '-' if cap is None else cap))
        else:
            print('%-10s %-5s %-8s %7d %36s %8s' % (
                '%d/%d' % (sl, t), table, base, 0, 'no reclaim timed',
                '-' if cap is None else cap))
    print('-' * 79)
    print()


def kcsan_verdict(console):
    """The KCSAN kernel's console: its boot self-test passed, and no KCSAN
    report has a frame of the AVC (security/selinux/avc.c's functions,
    avc_*; the core kernel's own races are counted, not judged).
    Returns (ok, text)."""
    if not os.path.exists(console):
        return None, 'not run'
    if not glob.glob(os.path.join(os.path.dirname(console), '*.meta')):
        return False, ('the workload did not run to its end (no recording '
                       'beside %s): no verdict on its races' %
                       os.path.basename(console))
    text = open(console, errors='replace').read().replace('\r', '')
    if not re.search(r'kcsan: selftest: (\d+)/\1 tests passed', text):
        return False, 'no passed KCSAN self-test on the console: KCSAN ' \
            'did not run'
    reports = [r for r in re.split(r'\n[^\n]*={20,}[^\n]*\n', text)
               if 'BUG: KCSAN:' in r]
    avc = [r for r in reports if re.search(r'\bavc_\w+\+0x', r)]
    titles = sorted({re.search(r'BUG: KCSAN: [^\n]*', r).group(0)
                     for r in avc})
    return not avc, ('%d KCSAN report(s), %d in the AVC%s' % (
        len(reports), len(avc), ': ' + '; '.join(titles) if titles else ''))


def self_test():
    """The misses and counters rules on crafted numbers and on shipped
    traces; each case says what it must be judged.  Returns 0 if every
    case is judged so."""
    word = {True: 'PASS', False: 'FAIL', None: 'NO VERDICT'}
    bad, cases = [], []

    def expect(label, want, got):
        ok, text = got
        cases.append(label)
        if ok is not want:
            bad.append(label)
        print('%s %s: must %s, %s: %s' % (
            'ok ' if ok is want else 'BAD', label, word[want], word[ok],
            text))

    # The cell that failed the whole-window rule: patched, tenants-4,
    # 512; the lookups before the load as in every shipped trace that
    # opens before it (874 of 11 keys, the kernel missing 1).
    pre = {'reset': True, 'lookups': 874, 'keys': 11, 'kernel_misses': 1,
           'inflight': 0}
    whole = {'reset': False, 'lookups': 0, 'keys': 0, 'kernel_misses': 0,
             'inflight': 0}
    seeds = [1965, 1971, 1978, 1985]
    n = 271000

    def mv(kmisses, klookups=n + 1, p=pre, s=seeds, own=1973,
           threshold=512):
        return misses_verdict('crafted', 'lru', kmisses, klookups, n, p,
                              threshold, s, own)

    expect('misses: 1963, seeds 1965-1985, model 1973, from the load',
           True, mv(1963))
    expect('misses: the same over the whole window (the old rule)', False,
           mv(1963, p=whole))
    expect('misses: 1950, below the range from the load', False, mv(1950))
    expect('misses: 1990, above it', False, mv(1990))
    expect('misses: 1976 with one lookup unrecorded: 1974-1975 meets '
           '1954-1974', True, mv(1976))
    expect('misses: 1976 with none unrecorded: 1975 above 1974', False,
           mv(1976, klookups=n))
    expect('misses: the trace holds a lookup the kernel did not count',
           False, mv(1963, klookups=n - 1))
    expect('misses: 11 keys before the load, threshold 8', None,
           mv(1963, threshold=8))
    expect('misses: no version 2 trace', False, mv(1963, p=None))
    expect('misses: no replay, the model alone (a patched kernel)', True,
           mv(1963, s=[]))
    expect('misses: 1980, within the kernel\'s hash (1990), not the seeds',
           True, mv(1980, klookups=n, own=1990))
    expect('misses: 1980 without the model', False,
           mv(1980, klookups=n, own=None))
    expect('misses: 1977, 2 of them an insert in flight', True,
           mv(1977, p=dict(pre, inflight=2)))
    expect('misses: 1977, none in flight', False, mv(1977))

    # The margin: the kernel's own run-to-run spread about the prediction,
    # a fraction of it (load_margin()); 0.6 % of 1974 is 12 misses.
    def mm(kmisses, margin, s=seeds, own=1973):
        return misses_verdict('crafted', 'lru', kmisses, n, n, pre, 512, s,
                              own, margin)

    seeds31 = list(range(1955, 1986))
    expect('misses: 5 above a 31-seed range (1979 against 1944-1974), '
           'margin 0.6 %', True, mm(1980, 0.006, s=seeds31))
    expect('misses: the same without a margin', False,
           mm(1980, 0.0, s=seeds31))
    expect('misses: 5 % above the range (2073 against 1954-1974), '
           'margin 0.6 %', False, mm(2074, 0.006))
    expect('misses: 5 % below it (1856), margin 0.6 %', False,
           mm(1857, 0.006))
    expect('misses: the model alone (a patched kernel), 8 above it, '
           'margin 0.6 %', True, mm(1962 + 1 + 8, 0.006, s=[]))
    expect('misses: the model alone, 20 above it, margin 0.6 %', False,
           mm(1962 + 1 + 20, 0.006, s=[]))
    expect('misses: neither replay nor model', None, mm(1973, 0.006, s=[],
                                                         own=None))
    expect('misses: the shipped margin reads (%s)' % MARGIN, True,
           (0 < load_margin() < 0.05, 'margin %.4f' % load_margin()))

    # The timing rule: one-sided, against the placement band.
    def reps(x, sp):
        return [x * (1 - sp / 2), x * (1 - sp / 4), x, x * (1 + sp / 4),
                x * (1 + sp / 2)]

    band = placement_band([(reps(200, 0.02), reps(196, 0.02))])
    expect('hitpath: the band of a twin 2 %% slower, spreads of 2 %%: %.3f'
           % band, True, (abs(band - 0.04) < 1e-9, 'must be 0.040'))
    expect('hitpath: patched 4 % faster, spread 2 %', True,
           timing_verdict('crafted', (reps(200, 0.02), 1.0),
                          (reps(208, 0.02), 1.0), band))
    expect('hitpath: patched 3 % slower, within the band', True,
           timing_verdict('crafted', (reps(200, 0.02), 1.0),
                          (reps(194, 0.02), 1.0), band))
    expect('hitpath: patched 20 % slower', False,
           timing_verdict('crafted', (reps(200, 0.02), 1.0),
                          (reps(160, 0.02), 1.0), band))
    expect('hitpath: a loop with no AVC lookup', None,
           timing_verdict('crafted', (reps(200, 0.02), 0.0),
                          (reps(100, 0.02), 0.0), band))
    expect('hitpath: a band of 0.5 (a loaded host): no verdict', None,
           timing_verdict('crafted', (reps(200, 0.02), 1.0),
                          (reps(100, 0.02), 1.0), 0.5))
    expect('hitpath: no placement twin', None,
           timing_verdict('crafted', (reps(200, 0.02), 1.0),
                          (reps(160, 0.02), 1.0), None))

    good = {'kernel_lookups': '430351', 'kernel_hits': '427572',
            'kernel_misses': '2779', 'kernel_reclaims': '1712',
            'kernel_frees': '2463', 'kernel_end_entries': '440',
            'lookups': '430350', 'trace_version': '2',
            'recorded_hits': '427572', 'recorded_misses': '2778'}

    def cv(**change):
        m = dict(good)
        m.update({k: str(v) for k, v in change.items()})
        return counters_verdict('crafted', m, 512)

    expect('counters: tenants-8-6.12\'s', True, cv())
    expect('counters: 513 entries at 512', False, cv(kernel_end_entries=513))
    expect('counters: reclaims > frees', False, cv(kernel_frees=1711))
    expect('counters: a recorded miss not counted', False,
           cv(kernel_misses=2777, kernel_hits=427574))
    expect('counters: a recorded hit not counted', False,
           cv(kernel_misses=2780, kernel_hits=427571))
    expect('counters: fewer lookups counted than recorded', False,
           cv(kernel_lookups=430349))
    expect('counters: 0.2 % of the lookups unrecorded', False,
           cv(kernel_lookups=431211, kernel_hits=428432))
    m = dict(good)
    del m['recorded_hits']
    expect('counters: a trace without the kernel\'s answers', False,
           counters_verdict('crafted', m, 512))

    # Recorded traces, from systemd's exec at threshold 512: what they
    # hold before the load (and the distinct keys after the last), and
    # the model of 6.12 (its hash, one CPU) against the kernel's count.
    # tenants-8-6.12: Debian's 6.12 kernel; tenants-8-enforcing: 6.1,
    # whose reclaim is 6.12's, two inserts in flight on the other vCPU.
    for trace, inflight, after in (('tenants-8-6.12', 0, 430),
                                   ('tenants-8-enforcing', 2, 602)):
        base = os.path.join(HERE, '..', 'avc_trace', 'traces', 'hosts',
                            trace)
        pre = kernel_answers(base + '.trace.xz', 512, 'stock',
                             hash='legacy')
        want = {'reset': True, 'lookups': 874 + (trace != 'tenants-8-6.12'),
                'keys': 11, 'kernel_misses': 1, 'keys_after': after,
                'inflight': inflight}
        expect('%s: the kernel\'s answers: %s' % (trace, pre), True,
               (pre == want, 'must be %s' % want))
        m = meta(base + '.meta')
        own = model_misses(base + '.trace.xz', 512, 'stock',
                           hash='legacy')[0]

        def rv(p, m=m, own=own, trace=trace):
            return misses_verdict(trace, 'the model',
                                  int(m['kernel_misses']),
                                  int(m['kernel_lookups']),
                                  int(m['lookups']), p, 512, [own], None)

        expect('%s: the kernel against the model, from the load' % trace,
               True, rv(pre))
        expect('%s: the same over the whole window' % trace, False,
               rv(whole))
        if inflight:
            expect('%s: from the load, the inserts in flight counted' %
                   trace, False, rv(dict(pre, inflight=0)))
    # A model that is not the kernel's (the series' reclaim against a stock
    # 6.1 kernel's answers) parts from it at every reclaim; those misses
    # are not inserts in flight.
    pre = kernel_answers(os.path.join(HERE, '..', 'avc_trace', 'traces',
                                      'hosts', 'tenants-1.trace.xz'),
                         512, 'v1', hash='legacy')
    expect('tenants-1 against the patched model: inserts in flight %s'
           % (pre or {}).get('inflight'), True,
           (pre is not None and pre['inflight'] == 0, 'must be 0'))
    # upstream_model's module counts what the module's replay counts on the
    # shipped traces (traces/replay.expected, hash seed 2004, 512 slots):
    # the model verdict's partner is the module's core as it is.
    traces = os.path.join(HERE, '..', 'avc_trace', 'traces')
    want = {}
    with open(os.path.join(traces, 'replay.expected')) as f:
        for line in f:
            w = line.split()
            if len(w) == 8 and w[2] == 'lru' and w[1] in ('boot', 'service'):
                want[(w[1], int(w[3]))] = (int(w[6]), int(w[7]))
    for (name, t), mr in sorted(want.items()):
        got = model_misses(os.path.join(traces, name + '.trace.xz'), t,
                           'module', hash='jhash:2004')
        expect('%s at %d: upstream_model\'s module as the replay\'s lru, '
               '%d misses %d reclaims' % (name, t, mr[0], mr[1]), True,
               (got == mr, 'model %d misses %d reclaims' % got))
    expect('the module model is checked on shipped traces', True,
           (len(want) >= 4, '%d cells' % len(want)))
    # The KCSAN console: a report in the AVC fails, the core kernel's
    # own do not, and no self-test is no KCSAN.
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        c = os.path.join(d, 'x.console')

        def kv(body, done=True):
            with open(c, 'w') as f:
                f.write(body)
            m = os.path.join(d, 'x.meta')
            if done:
                open(m, 'w').close()
            elif os.path.exists(m):
                os.unlink(m)
            return kcsan_verdict(c)

        ok = '[    0.5] kcsan: selftest: 3/3 tests passed\r\n'
        rule = '=' * 66 + '\n'

        def report(frame):
            return (rule + 'BUG: KCSAN: data-race in %s / x\n\nwrite to 0x1 '
                    'of 1 bytes by task 1 on cpu 0:\n %s+0x1f/0x40\n' % (
                        frame, frame) + rule)

        expect('kcsan: a report in avc_lookup', False,
               kv(ok + report('avc_lookup')))
        expect('kcsan: a report in the core kernel only', True,
               kv(ok + report('tick_sched_timer')))
        expect('kcsan: no self-test on the console', False,
               kv(report('tick_sched_timer')))
        expect('kcsan: a guest that did not finish its workload', False,
               kv(ok + report('tick_sched_timer'), done=False))
    print('self-test: %d cases, %d judged as they must be%s' % (
        len(cases), len(cases) - len(bad),
        '' if not bad else '; MISJUDGED: ' + '; '.join(bad)))
    return 1 if bad else 0


def main():
    if sys.argv[1:] == ['--self-test']:
        return self_test()
    if len(sys.argv) != 2 or sys.argv[1].startswith('-'):
        sys.exit(__doc__)
    out = sys.argv[1]
    replays = replay_ranges(os.path.join(out, 'replay.log'))
    models = model_counts(os.path.join(out, 'model.log'))
    jhash_models = model_seed_counts(os.path.join(out, 'model-jhash.log'))
    verdicts = []
    workloads = ['boot-service'] + sorted({
        m.group(1) for p in glob.glob(os.path.join(out, '*-*-*/*.meta'))
        for m in [re.search(r'/(?:%s)-(.+)-\d+/\1\.meta$' % '|'.join(
            KERNELS), p)] if m})
    margin = load_margin()
    print('=' * 79)
    print()
    for w in workloads:
        section(out, w, replays, models, jhash_models, verdicts, margin)

    reclaim_table(out)
    for p in sorted(glob.glob(os.path.join(out, 'kcsan-*', '*.console'))):
        verdicts.append(('kcsan',) + kcsan_verdict(p))

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
    # The band: the stock kernel against its placement twin, every loop
    # that reaches the AVC at every vCPU count of the run.
    pairs = []
    for c in cpus:
        s, t = hp.get(('stock', c), {}), hp.get(('twin', c), {})
        pairs += [(s[key][0], t[key][0]) for key in sorted(set(s) & set(t))
                  if s[key][1] > 0 and t[key][1] > 0]
    band = placement_band(pairs)
    if cpus:
        print('hit path: placement band %s (the stock kernel against its '
              'placement twin, %d loop(s))' % (
                  '%.3f' % band if band is not None else 'not measured',
                  len(pairs)))
    for c in cpus:
        s, p = hp.get(('stock', c), {}), hp.get(('patched', c), {})
        for key in sorted(set(s) & set(p)):
            verdicts.append(('hitpath',) + timing_verdict(
                '%d vCPU %s x%d' % (c, key[0], key[1]), s[key], p[key],
                band))

    fail = False
    for what, ok, text in verdicts:
        word = {True: 'PASS', False: 'FAIL', None: 'NO VERDICT'}[ok]
        fail |= ok is False
        print('%-10s %-9s %s' % (word, what, text))
    print('=' * 79)
    return 1 if fail else 0


if __name__ == '__main__':
    sys.exit(main())
