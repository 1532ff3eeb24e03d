#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The kernel AVC of linux 7.x, stock and with the series, as a model.

The replay (tools/native/run replay) plays a trace through avc_rcu, whose
bucket is a seeded jhash of the key: its prediction for the kernel is a
range over seeds.  This plays it through a model of security/selinux/avc.c
itself, with the kernel's own bucket function, 6.19's av_hash() (the
MurmurHash3 of include/hash.h, masked to the slots), so that it can be
compared with the kernel's counts one for one:

  stock      avc_reclaim_node() as in 6.12 to 7.3: the hint moves one
             bucket a try, each bucket's lock is taken and the bucket
             emptied from its head (the newest entries) until 16 are
             evicted or AVC_CACHE_SLOTS buckets were tried;
             avc_update_node() (the trace's updates: a permissive grant)
             counts its node and reclaims like an insert.
  patched    the series: updates neither count nor reclaim; a hit sets
             the entry's referenced bit; reclaim reads an empty bucket's
             head without its lock, and examines at most 64 entries
             (BUDGET): a first pass (second chance) of at most 48 (CLOCK)
             from each bucket's head evicts the unreferenced entries and
             clears the others' bits; if it evicted fewer than 16, the
             walk goes on, evicting by position as stock does, within the
             rest of the budget; at most AVC_CACHE_SLOTS bucket heads in
             all.  An insert that replaces an entry keeps its bit.
  v1         the 6.12 series' third patch, for comparison: per bucket the
             unreferenced entries oldest first (two walks), then the same
             buckets again by age; no bound on the entries examined.
  setref     patched, but a new entry is born referenced (the bit set on
             insert), so that every entry survives one pass of the hand.
  module     avc_rcu's own cache with reclaim=lru, reclaimer=inline and a
             pinned table (avc/reclaim.c, avc/cache.c): buckets oldest
             first, at most AVC_CHAIN_MAX (32) entries each (a full one
             gives up its oldest unreferenced entry, else its oldest); a
             miss past the threshold runs one section (a CLOCK pass over
             at most 512 buckets and 48 entries examined, then by age
             from the same start within 64), and is not cached if the
             cache is still past its threshold; an update does nothing.

Lookups, resets (avc_ss_reset(): everything flushed) and updates are
played in the trace's order, on one CPU.  Printed, one line per trace,
kernel and threshold:

  model NAME: kernel stock threshold 512: lookups L misses M reclaims R
  allocations A

and with --work, the work of each reclaim (the entries it examined, the
bucket heads it read, the bucket locks it took), its mean and maximum:

  work NAME: kernel stock threshold 512 slots 512: reclaims N examined
  mean/max E/E heads H/H locks K/K

  model.py [--threshold N[,N...]] [--slots N] [--kernel K[,K...]]
           [--hash kernel|legacy|jhash:SEED] [--work] TRACE...

--slots is 1 << CONFIG_SECURITY_SELINUX_AVC_HASH_BITS (512 to 16384,
default 512).  --hash legacy buckets a key with 6.12's avc_hash(), (ssid
^ (tsid << 2) ^ (tclass << 4)) & (slots - 1); --hash jhash:SEED as
avc_rcu does (jhash_3words() of the key seeded by SEED, masked to the
slots): the model is then the native replay's cache under that seed,
stock as reclaim=newest and patched close to reclaim=lru (report.py
compares them).

TRACE is an avc_trace_format.h trace (version 1 or 2), plain or
xz-compressed.
"""

import argparse
import lzma
import struct
import sys

SLOTS = 512
RECLAIM = 16
# The series' bound on one reclaim: entries examined, in all and in its
# first (second-chance) pass.
BUDGET = 4 * RECLAIM
CLOCK_BUDGET = 3 * RECLAIM
# avc_rcu's own (avc/avc.h): AVC_RECLAIM_CHUNK, AVC_NODE_BUDGET,
# AVC_CLOCK_BUDGET, AVC_RECLAIM_BUCKETS, AVC_CHAIN_MAX.
MODULE_CHUNK = 16
MODULE_BUDGET = 64
MODULE_CLOCK = MODULE_BUDGET - MODULE_CHUNK
MODULE_BUCKETS = 512
MODULE_CHAIN_MAX = 32
KERNELS = ('stock', 'patched', 'v1', 'setref', 'module')
HEADER = struct.Struct('<8sIIQII')
RECORD = struct.Struct('<IIIIHHB3x')
RECORD2 = struct.Struct('<QIIIIHHBBH24x')
F_GRANTED = 0x08
LOOKUP, RESET, UPDATE = 0, 1, 2
M32 = 0xffffffff


def _rol32(word, shift):
    return ((word << shift) | (word >> (32 - shift))) & M32


def av_hash(ssid, tsid, tclass, mask=SLOTS - 1):
    """6.19's av_hash() (security/selinux/include/hash.h): MurmurHash3's
    mixing of the three words, its finalizer, masked."""
    h = 0
    for v in (ssid, tsid, tclass):
        v = (v * 0xcc9e2d51) & M32
        v = _rol32(v, 15)
        v = (v * 0x1b873593) & M32
        h ^= v
        h = _rol32(h, 13)
        h = (h * 5 + 0xe6546b64) & M32
    h ^= h >> 16
    h = (h * 0x85ebca6b) & M32
    h ^= h >> 13
    h = (h * 0xc2b2ae35) & M32
    h ^= h >> 16
    return h & mask


def legacy_hash(ssid, tsid, tclass, mask=SLOTS - 1):
    """avc_hash() before 6.19."""
    return (ssid ^ (tsid << 2) ^ (tclass << 4)) & mask


# Kept for the callers that name it: the kernel's bucket function.
avc_hash = av_hash


def jhash_3words(a, b, c, initval):
    """The kernel's jhash_3words() (lookup3's final() of the three words)."""
    m = M32
    init = (0xdeadbeef + (3 << 2) + initval) & m
    a, b, c = (a + init) & m, (b + init) & m, (c + init) & m
    c ^= b
    c = (c - _rol32(b, 14)) & m
    a ^= c
    a = (a - _rol32(c, 11)) & m
    b ^= a
    b = (b - _rol32(a, 25)) & m
    c ^= b
    c = (c - _rol32(b, 16)) & m
    a ^= c
    a = (a - _rol32(c, 4)) & m
    b ^= a
    b = (b - _rol32(a, 14)) & m
    c ^= b
    c = (c - _rol32(b, 24)) & m
    return c


def bucket_function(spec, slots=SLOTS):
    """kernel: 6.19's av_hash(); legacy: 6.12's avc_hash(); jhash:SEED:
    avc_rcu's bucket."""
    mask = slots - 1
    if spec == 'kernel':
        return lambda ssid, tsid, tclass: av_hash(ssid, tsid, tclass, mask)
    if spec == 'legacy':
        return lambda ssid, tsid, tclass: legacy_hash(ssid, tsid, tclass,
                                                      mask)
    kind, sep, seed = spec.partition(':')
    if kind != 'jhash' or not sep or not seed.isdigit():
        raise ValueError('--hash: kernel, legacy or jhash:SEED, not %s'
                         % spec)
    seed = int(seed)
    return lambda ssid, tsid, tclass: jhash_3words(
        ssid, tsid, tclass, seed) & mask


class Node:
    __slots__ = ('key', 'ref')

    def __init__(self, key, ref=0):
        self.key = key
        self.ref = ref


class Avc:
    """One cache; a bucket is a list, its head (the newest) first.

    patched: False or 'stock', True or 'patched', 'v1' or 'setref'
    (the module's docstring).  self.work holds one (examined, heads,
    locks) a reclaim."""

    def __init__(self, threshold, patched, bucket=None, slots=SLOTS):
        if patched is True:
            patched = 'patched'
        self.kind = patched or 'stock'
        if self.kind not in KERNELS:
            raise ValueError('no kernel %s' % self.kind)
        self.patched = self.kind != 'stock'
        self.threshold = threshold
        self.nslots = slots
        self.mask = slots - 1
        self.bucket = bucket or bucket_function('kernel', slots)
        self.slots = [[] for _ in range(slots)]
        self.active = 0
        self.hint = 0
        self.lookups = self.misses = self.reclaims = self.allocations = 0
        self.work = []

    def find(self, key):
        for node in self.slots[self.bucket(*key)]:
            if node.key == key:
                return node
        return None

    # -- reclaim ----------------------------------------------------------

    def evict(self, bucket, node):
        bucket.remove(node)
        self.active -= 1
        self.reclaims += 1

    def reclaim(self):
        {'stock': self.reclaim_stock, 'patched': self.reclaim_budget,
         'setref': self.reclaim_budget, 'module': self.reclaim_module,
         'v1': self.reclaim_v1}[self.kind]()

    def _module_pass(self, sec, start, span, clock, budget):
        """avc_reclaim_pass(): returns (buckets entered, the last)."""
        i, n = start, 0
        while n < span:
            if sec[1] == MODULE_CHUNK or sec[0] >= budget:
                break
            i = (i + 1) & self.mask
            sec[2] += 1
            bucket = self.slots[i]
            for node in list(bucket):
                if sec[1] == MODULE_CHUNK or sec[0] == budget:
                    break
                sec[0] += 1
                if clock and node.ref:
                    node.ref = 0
                else:
                    self.evict(bucket, node)
                    sec[1] += 1
            n += 1
        return n, i

    def reclaim_module(self):
        """avc_reclaim_sweep(), lru: a CLOCK pass, then by age."""
        sec = [0, 0, 0]     # nodes examined, evicted, bucket heads
        start = self.hint & self.mask
        span = min(self.nslots, MODULE_BUCKETS)
        passed, stop = self._module_pass(sec, start, span, True,
                                         MODULE_CLOCK)
        if sec[1] < MODULE_CHUNK:
            self._module_pass(sec, start, passed, False, MODULE_BUDGET)
        self.hint = stop
        self.work.append((sec[0], sec[2], sec[2]))

    def reclaim_stock(self):
        """Every bucket tried is locked; each entry examined goes."""
        ecx = heads = 0
        for _ in range(self.nslots):
            self.hint += 1
            bucket = self.slots[self.hint & self.mask]
            heads += 1
            for node in list(bucket):
                self.evict(bucket, node)
                ecx += 1
                if ecx == RECLAIM:
                    break
            if ecx >= RECLAIM:
                break
        self.work.append((ecx, heads, heads))

    def reclaim_budget(self):
        """The series: at most BUDGET entries examined, CLOCK_BUDGET of
        them second chance, from each bucket's head; empty heads read
        without the lock, at most nslots of them."""
        budget, clock = BUDGET, True
        ecx = heads = locks = examined = 0
        for _ in range(self.nslots):
            if ecx >= RECLAIM or budget == 0:
                break
            if clock and BUDGET - budget >= CLOCK_BUDGET:
                clock = False
            self.hint += 1
            bucket = self.slots[self.hint & self.mask]
            heads += 1
            if not bucket:
                continue
            locks += 1
            for node in list(bucket):
                if clock and BUDGET - budget >= CLOCK_BUDGET:
                    # The first pass's share is spent: the rest of this
                    # bucket by position.
                    clock = False
                if budget == 0:
                    break
                budget -= 1
                examined += 1
                if clock and node.ref:
                    node.ref = 0
                    continue
                self.evict(bucket, node)
                ecx += 1
                if ecx == RECLAIM:
                    break
        self.work.append((examined, heads, locks))

    def _bucket_v1(self, bucket, want, by_age):
        cold = sum(1 for n in bucket if by_age or not n.ref)
        keep = cold - want if cold > want else 0
        hand = not keep
        ecx = examined = 0
        examined += len(bucket)
        for node in list(bucket):
            examined += 1
            if not by_age and node.ref:
                if hand:
                    node.ref = 0
            elif keep:
                keep -= 1
            else:
                hand = True
                self.evict(bucket, node)
                ecx += 1
        return ecx, examined

    def reclaim_v1(self):
        ecx = tries = examined = locks = 0
        start = None
        while tries < self.nslots and ecx < RECLAIM:
            self.hint += 1
            h = self.hint & self.mask
            if start is None:
                start = h
            tries += 1
            if self.slots[h]:
                locks += 1
                got, ex = self._bucket_v1(self.slots[h], RECLAIM - ecx,
                                          False)
                ecx += got
                examined += ex
        heads = tries
        if ecx < RECLAIM:
            h = start
            for i in range(tries):
                if ecx >= RECLAIM:
                    break
                h = (start + i) & self.mask
                heads += 1
                if self.slots[h]:
                    locks += 1
                    got, ex = self._bucket_v1(self.slots[h], RECLAIM - ecx,
                                              True)
                    ecx += got
                    examined += ex
            self.hint = h
        self.work.append((examined, heads, locks))

    # -- the AVC's entry points ---------------------------------------------

    def lookup(self, key):
        self.lookups += 1
        node = self.find(key)
        if node:
            node.ref = 1
            return
        self.misses += 1
        self.insert(key)

    def insert(self, key):
        if self.kind == 'module':
            self.insert_module(key)
            return
        self.allocations += 1
        self.active += 1
        if self.active > self.threshold:
            self.reclaim()
        bucket = self.slots[self.bucket(*key)]
        old = self.find(key)
        new = Node(key, 1 if self.kind == 'setref' else 0)
        if old:
            # The series keeps the bit of the entry replaced.
            if self.kind in ('patched', 'setref'):
                new.ref = old.ref
            bucket[bucket.index(old)] = new
            self.active -= 1
        else:
            bucket.insert(0, new)

    def insert_module(self, key):
        """avc_take_place() and avc_insert(), one CPU, a miss's key."""
        self.active += 1
        if self.active > self.threshold:
            self.reclaim()
            if self.active > self.threshold:
                self.active -= 1
                return
        self.allocations += 1
        bucket = self.slots[self.bucket(*key)]
        if len(bucket) >= MODULE_CHAIN_MAX:
            victim = next((n for n in bucket if not n.ref), bucket[0])
            self.evict(bucket, victim)
        bucket.append(Node(key))

    def update(self, key):
        if self.kind == 'module':
            return
        self.allocations += 1
        if not self.patched:
            self.active += 1
            if self.active > self.threshold:
                self.reclaim()
            self.active -= 1
        old = self.find(key)
        if old:
            new = Node(key)
            if self.patched:
                new.ref = old.ref
            bucket = self.slots[self.bucket(*key)]
            bucket[bucket.index(old)] = new

    def reset(self):
        for bucket in self.slots:
            self.active -= len(bucket)
            bucket.clear()


def read_trace(path):
    with open(path, 'rb') as f:
        data = f.read()
    if data[:6] == b'\xfd7zXZ\x00':
        data = lzma.decompress(data)
    magic, version, size, n, flags, _ = HEADER.unpack_from(data)
    rec = {1: RECORD, 2: RECORD2}.get(version)
    if magic != b'AVCTRACE' or not rec or size != rec.size or flags:
        sys.exit('%s: not a version 1 or 2 AVC trace' % path)
    if len(data) != HEADER.size + n * rec.size:
        sys.exit('%s: %d bytes, the header announces %d records'
                 % (path, len(data), n))
    body = data[HEADER.size:]
    if version == 1:
        return [(kind, (ssid, tsid, tclass))
                for _, ssid, tsid, _, tclass, _, kind
                in RECORD.iter_unpack(body)]
    # Version 2: an update the kernel refused (enforcing) changed nothing.
    return [(kind if kind != UPDATE or fl & F_GRANTED else None,
             (ssid, tsid, tclass))
            for _, _, ssid, tsid, _, tclass, _, kind, fl, _
            in RECORD2.iter_unpack(body)]


def play(records, threshold, patched, bucket=None, slots=SLOTS):
    avc = Avc(threshold, patched, bucket, slots)
    for kind, key in records:
        if kind == LOOKUP:
            avc.lookup(key)
        elif kind == RESET:
            avc.reset()
        elif kind == UPDATE:
            avc.update(key)
    return avc


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--threshold', default='512')
    ap.add_argument('--slots', type=int, default=SLOTS)
    ap.add_argument('--kernel', default='stock,patched')
    ap.add_argument('--hash', default='kernel')
    ap.add_argument('--work', action='store_true')
    ap.add_argument('traces', nargs='+')
    args = ap.parse_args()
    if args.slots < 1 or args.slots & (args.slots - 1):
        sys.exit('--slots: a power of two, not %d' % args.slots)
    try:
        bucket = bucket_function(args.hash, args.slots)
    except ValueError as e:
        sys.exit(str(e))
    for kernel in args.kernel.split(','):
        if kernel not in KERNELS:
            sys.exit('--kernel: one of %s, not %s' % (', '.join(KERNELS),
                                                      kernel))
    for path in args.traces:
        name = path.rsplit('/', 1)[-1].split('.trace')[0]
        records = read_trace(path)
        for kernel in args.kernel.split(','):
            for t in args.threshold.split(','):
                avc = play(records, int(t), kernel, bucket, args.slots)
                print('model %s: kernel %s threshold %s: lookups %d misses %d '
                      'reclaims %d allocations %d'
                      % (name, kernel, t, avc.lookups, avc.misses,
                         avc.reclaims, avc.allocations))
                if args.work and avc.work:
                    cols = list(zip(*avc.work))
                    print('work %s: kernel %s threshold %s slots %d: reclaims '
                          '%d examined mean/max %.1f/%d heads %.1f/%d locks '
                          '%.1f/%d' % ((name, kernel, t, args.slots,
                                        len(avc.work)) + tuple(
                              x for c in cols
                              for x in (sum(c) / len(c), max(c)))))
    return 0


if __name__ == '__main__':
    sys.exit(main())
