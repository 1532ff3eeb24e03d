#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The kernel AVC of linux 6.12, stock and with the series, as a model.

The replay (tools/native/run replay) plays a trace through avc_rcu, whose
bucket is a seeded jhash of the key: its prediction for the kernel is a
range over seeds.  This plays it through a model of security/selinux/avc.c
itself, with the kernel's own bucket function, (ssid ^ (tsid << 2) ^
(tclass << 4)) & 511, so that it can be compared with the kernel's counts
one for one:

  stock    avc_reclaim_node() as in 6.12: the hint moves one bucket a try,
           each bucket is emptied from its head (the newest entries) until
           16 are evicted; avc_update_node() (the trace's updates: a
           permissive grant) counts its node and reclaims like an insert.
  patched  the series: updates neither count nor reclaim, and the reclaim
           is the second chance of avc_reclaim_bucket(): per bucket, the
           unreferenced entries oldest first, the referenced ones' bits
           cleared, then a second pass by age if fewer than 16 went; a hit
           sets the bit.

Lookups, resets (avc_ss_reset(): everything flushed) and updates are
played in the trace's order, on one CPU.  Printed, one line per trace,
kernel and threshold:

  model NAME: kernel stock threshold 128: lookups L misses M reclaims R
  allocations A

  model.py [--threshold N[,N...]] [--kernel stock,patched]
           [--hash kernel|jhash:SEED] TRACE...

--hash jhash:SEED buckets a key as avc_rcu does (jhash_3words() of the
key seeded by SEED, masked to the 512 slots) instead of with the kernel's
function: the model is then the native replay's cache under that seed,
stock as reclaim=newest and patched as reclaim=lru, and must count what
the replay counts (report.py --self-test holds it to that).

TRACE is an avc_trace_format.h trace (version 1 or 2), plain or
xz-compressed.
"""

import argparse
import lzma
import struct
import sys

SLOTS = 512
RECLAIM = 16
SCAN = 512
HEADER = struct.Struct('<8sIIQII')
RECORD = struct.Struct('<IIIIHHB3x')
RECORD2 = struct.Struct('<QIIIIHHBBH24x')
F_GRANTED = 0x08
LOOKUP, RESET, UPDATE = 0, 1, 2


def avc_hash(ssid, tsid, tclass):
    return (ssid ^ (tsid << 2) ^ (tclass << 4)) & (SLOTS - 1)


def _rol32(word, shift):
    return ((word << shift) | (word >> (32 - shift))) & 0xffffffff


def jhash_3words(a, b, c, initval):
    """The kernel's jhash_3words() (lookup3's final() of the three words)."""
    m = 0xffffffff
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


def bucket_function(spec):
    """kernel: avc_hash() of 6.12; jhash:SEED: avc_rcu's bucket."""
    if spec == 'kernel':
        return avc_hash
    kind, sep, seed = spec.partition(':')
    if kind != 'jhash' or not sep or not seed.isdigit():
        raise ValueError('--hash: kernel or jhash:SEED, not %s' % spec)
    seed = int(seed)
    return lambda ssid, tsid, tclass: jhash_3words(
        ssid, tsid, tclass, seed) & (SLOTS - 1)


class Node:
    __slots__ = ('key', 'ref')

    def __init__(self, key):
        self.key = key
        self.ref = 0


class Avc:
    """One cache; a bucket is a list, its head (the newest) first."""

    def __init__(self, threshold, patched, bucket=avc_hash):
        self.threshold = threshold
        self.patched = patched
        self.bucket = bucket
        self.slots = [[] for _ in range(SLOTS)]
        self.active = 0
        self.hint = 0
        self.lookups = self.misses = self.reclaims = self.allocations = 0

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

    def bucket_newest(self, bucket, want):
        ecx = 0
        for node in list(bucket):
            self.evict(bucket, node)
            ecx += 1
            if ecx == want:
                break
        return ecx

    def bucket_clock(self, bucket, want, by_age):
        cold = sum(1 for n in bucket if by_age or not n.ref)
        keep = cold - want if cold > want else 0
        hand = not keep
        ecx = 0
        for node in list(bucket):
            if not by_age and node.ref:
                if hand:
                    node.ref = 0
            elif keep:
                keep -= 1
            else:
                hand = True
                self.evict(bucket, node)
                ecx += 1
        return ecx

    def reclaim(self):
        if not self.patched:
            ecx = 0
            for _ in range(SLOTS):
                self.hint += 1
                ecx += self.bucket_newest(self.slots[self.hint & (SLOTS - 1)],
                                          RECLAIM - ecx)
                if ecx >= RECLAIM:
                    break
            return
        ecx = tries = 0
        start = None
        while tries < SCAN and ecx < RECLAIM:
            self.hint += 1
            h = self.hint & (SLOTS - 1)
            if start is None:
                start = h
            tries += 1
            if self.slots[h]:
                ecx += self.bucket_clock(self.slots[h], RECLAIM - ecx, False)
        if ecx == RECLAIM:
            return
        h = start
        for i in range(tries):
            if ecx >= RECLAIM:
                break
            h = (start + i) & (SLOTS - 1)
            if self.slots[h]:
                ecx += self.bucket_clock(self.slots[h], RECLAIM - ecx, True)
        self.hint = h

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
        self.allocations += 1
        self.active += 1
        if self.active > self.threshold:
            self.reclaim()
        bucket = self.slots[self.bucket(*key)]
        old = self.find(key)
        if old:
            bucket[bucket.index(old)] = Node(key)
            self.active -= 1
        else:
            bucket.insert(0, Node(key))

    def update(self, key):
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


def play(records, threshold, patched, bucket=avc_hash):
    avc = Avc(threshold, patched, bucket)
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
    ap.add_argument('--kernel', default='stock,patched')
    ap.add_argument('--hash', default='kernel')
    ap.add_argument('traces', nargs='+')
    args = ap.parse_args()
    try:
        bucket = bucket_function(args.hash)
    except ValueError as e:
        sys.exit(str(e))
    for path in args.traces:
        name = path.rsplit('/', 1)[-1].split('.trace')[0]
        records = read_trace(path)
        for kernel in args.kernel.split(','):
            if kernel not in ('stock', 'patched'):
                sys.exit('--kernel: stock or patched, not %s' % kernel)
            for t in args.threshold.split(','):
                avc = play(records, int(t), kernel == 'patched', bucket)
                print('model %s: kernel %s threshold %s: lookups %d misses %d '
                      'reclaims %d allocations %d'
                      % (name, kernel, t, avc.lookups, avc.misses,
                         avc.reclaims, avc.allocations))
    return 0


if __name__ == '__main__':
    sys.exit(main())
