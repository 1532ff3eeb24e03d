# SPDX-License-Identifier: GPL-2.0
"""avc-curve's caches against libCacheSim's, and the reference policies.

  policies.py --curve AVC-CURVE [--csv FILE] [--sizes LIST] TRACE...

Run by tools/avc_trace/policies in its libCacheSim venv.  Per trace, at
each size: the kernel's AVC (upstream_avc.c, 6.1's hash, 512 buckets),
then libCacheSim's LRU, FIFO, CLOCK (one bit), SIEVE, S3-FIFO and ARC with
their defaults, Belady's MIN, and the cold misses, each cache emptied at
each reset of the trace (one oracleGeneral file a stretch, each into a
new cache).  avc-curve's exact LRU, FIFO and MIN must equal libCacheSim's
miss for miss, or the run fails.  Then, per trace, what the policy is
worth beside the threshold: at the size where the kernel's AVC has the
most capacity misses per lookup worth curing (the default 512), the
spread of the online policies and what doubling the size does.
"""

import argparse
import csv
import lzma
import os
import subprocess
import sys
import tempfile

import libcachesim as lcs

SIZES = (64, 128, 256, 512, 1024, 2048, 4096, 8192)
POLICIES = (('lru', lcs.LRU), ('fifo', lcs.FIFO), ('clock', lcs.Clock),
            ('sieve', lcs.Sieve), ('s3fifo', lcs.S3FIFO), ('arc', lcs.ARC),
            ('min', lcs.Belady))
LABELS = {'kernel': 'kernel 6.1', 'lru': 'LRU', 'fifo': 'FIFO',
          'clock': 'CLOCK', 'sieve': 'SIEVE', 's3fifo': 'S3-FIFO',
          'arc': 'ARC', 'min': 'MIN'}
ONLINE = ('lru', 'fifo', 'clock', 'sieve', 's3fifo', 'arc')


def curve(prog, trace, sizes, odir):
    """avc-curve on the trace: {size: {lru, fifo, min, model}}, its trace
    line, and the oracleGeneral files in odir."""
    cmd = [prog, '--sizes', ','.join(map(str, sizes)), '--model', 'legacy',
           '--oracle-general', odir, '-']
    opener = lzma.open if trace.endswith('.xz') else open
    with opener(trace, 'rb') as f:
        p = subprocess.run(cmd, input=f.read(), capture_output=True)
    if p.returncode:
        sys.exit(f'{trace}: {p.stderr.decode().strip()}')
    res, head = {}, {}
    for line in p.stdout.decode().splitlines():
        w = line.split()
        kv = dict(x.split('=', 1) for x in w[1:] if '=' in x)
        if w[0] == 'trace':
            head = kv
        elif w[0] == 'size':
            res[int(w[1])] = {k: int(v) for k, v in kv.items()
                              if k in ('lru', 'fifo', 'min', 'model')}
    return res, head


def simulate(odir, sizes):
    """libCacheSim's misses: {size: {policy: misses}}, each stretch's
    file into an empty cache."""
    files = sorted((f for f in os.listdir(odir) if f.endswith('.bin')),
                   key=lambda f: int(f[:-4]))
    out = {s: {p: 0 for p, _ in POLICIES} for s in sizes}
    for f in files:
        path = os.path.join(odir, f)
        n = os.path.getsize(path) // 24
        if not n:
            continue
        for s in sizes:
            for name, cls in POLICIES:
                r = lcs.TraceReader(path, lcs.TraceType.ORACLE_GENERAL_TRACE,
                                    lcs.ReaderInitParam(ignore_obj_size=True))
                ratio, _ = cls(s).process_trace(r)
                out[s][name] += round(ratio * n)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--curve', required=True)
    ap.add_argument('--csv')
    ap.add_argument('--sizes', default=','.join(map(str, SIZES)))
    ap.add_argument('traces', nargs='+')
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(',')]
    version = getattr(lcs, '__version__', None)
    if version is None:
        from importlib.metadata import version as v
        version = v('libcachesim')
    print(f'libCacheSim {version} (PyPI libcachesim) against avc-curve: '
          f'LRU, FIFO and MIN miss for miss; CLOCK, SIEVE, S3-FIFO and ARC '
          f'(libCacheSim\'s defaults) and the kernel\'s AVC (6.1, 512 '
          f'buckets) beside them; misses, each cache emptied at each reset')
    rows, bad, lever = [], [], []
    for trace in args.traces:
        name = os.path.basename(trace).split('.trace')[0]
        with tempfile.TemporaryDirectory(prefix='policies.') as odir:
            ours, head = curve(args.curve, trace, sizes, odir)
            lib = simulate(odir, sizes)
        n, cold = int(head['lookups']), int(head['cold'])
        print(f'\n== {name}: {n} lookups, {head["keys"]} keys, '
              f'{head["resets"]} resets, floor (cold misses) {cold}')
        cols = ('kernel',) + tuple(p for p, _ in POLICIES)
        print(f'{"size":>6}' + ''.join(f'{LABELS[c]:>11}' for c in cols))
        for s in sizes:
            m = dict(lib[s], kernel=ours[s]['model'])
            for k in ('lru', 'fifo', 'min'):
                if ours[s][k] != lib[s][k]:
                    bad.append(f'{name} at {s}: {k} avc-curve {ours[s][k]}, '
                               f'libCacheSim {lib[s][k]}')
            print(f'{s:>6}' + ''.join(f'{m[c]:>11}' for c in cols))
            rows.append([name, s, n, cold] + [m[c] for c in cols] +
                        [ours[s]['lru'], ours[s]['fifo'], ours[s]['min']])
        # The lever at 512, the default: the online policies' spread,
        # against what doubling the size does to LRU's misses.
        if 512 in sizes and 1024 in sizes:
            at = {c: lib[512][c] for c in ONLINE}
            best = min(at, key=at.get)
            worst = max(at, key=at.get)
            cap = at['lru'] - cold
            dbl = lib[1024]['lru']
            line = (name, n, cold, at['lru'], best, at[best], worst,
                    at[worst], dbl, ours[512]['model'], lib[512]['min'])
            lever.append(line)
            if cap > 0:
                print(f'{name} at 512: the online policies from '
                      f'{LABELS[best]} {at[best]} to {LABELS[worst]} '
                      f'{at[worst]} misses ({100 * (at[worst] - at[best]) / at["lru"]:.1f} % of LRU\'s); '
                      f'LRU at 1024: {dbl} ({100 * (dbl - at["lru"]) / at["lru"]:+.1f} %, '
                      f'{100 * (dbl - at["lru"]) / cap:+.0f} % of its capacity misses)')
            else:
                print(f'{name} at 512: every policy at the floor')
    print('\nThe lever, at 512 (the default): misses of the best and the '
          'worst of LRU, FIFO, CLOCK, SIEVE, S3-FIFO and ARC, of the '
          'kernel\'s AVC, of LRU at 1024, and of MIN at 512')
    print(f'{"trace":<20}{"floor":>7}{"LRU":>8}{"best online":>20}'
          f'{"worst online":>20}{"kernel":>8}{"LRU@1024":>9}{"MIN":>7}')
    for name, n, cold, lru, best, b, worst, w, dbl, kern, opt in lever:
        print(f'{name:<20}{cold:>7}{lru:>8}{LABELS[best] + " " + str(b):>20}'
              f'{LABELS[worst] + " " + str(w):>20}{kern:>8}{dbl:>9}'
              f'{opt:>7}')
    if args.csv:
        with open(args.csv, 'w', newline='') as f:
            w = csv.writer(f, lineterminator='\n')
            w.writerow(['trace', 'size', 'lookups', 'cold', 'kernel61'] +
                       [p for p, _ in POLICIES] +
                       ['avc_curve_lru', 'avc_curve_fifo', 'avc_curve_min'])
            w.writerows(rows)
    for b in bad:
        print(f'policies: DIFFERS: {b}')
    if bad:
        print(f'policies: avc-curve and libCacheSim differ ({len(bad)})')
        return 1
    print(f'policies: avc-curve\'s LRU, FIFO and MIN equal libCacheSim '
          f'{version}\'s on {len(args.traces)} traces at {len(sizes)} sizes, '
          f'miss for miss')
    return 0


if __name__ == '__main__':
    sys.exit(main())
