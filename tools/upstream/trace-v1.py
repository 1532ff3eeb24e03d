#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Write a version 2 AVC trace as version 1: the keys, without decisions.

  trace-v1.py IN OUT

make upstream replays the traces its kernels record for their counts.
A version 2 trace carries the kernel's decisions, and the native replay
then checks every decision it makes against them, through a policy it
infers per stretch between resets (trace_oracle.c).  The kernels of make
upstream inline avc_node_populate(), so their misses carry no decision,
and a decision computed under the previous policy that is inserted just
after a reset is one the inference does not expect.  The counts do not
depend on the decisions: a version 1 trace of the same records (seq,
ssid, tsid, requested, tclass, cpu, kind) replays to the same counts
without the check.  A version 1 IN is copied as it is.
"""

import lzma
import struct
import sys

HEADER = struct.Struct('<8sIIQII')
RECORD1 = struct.Struct('<IIIIHHB3x')
RECORD2 = struct.Struct('<QIIIIHHBBH24x')


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1], 'rb') as f:
        data = f.read()
    if data[:6] == b'\xfd7zXZ\x00':
        data = lzma.decompress(data)
    magic, version, size, n, flags, reserved = HEADER.unpack_from(data)
    rec = {1: RECORD1, 2: RECORD2}.get(version)
    if magic != b'AVCTRACE' or not rec or size != rec.size or flags or \
       len(data) != HEADER.size + n * rec.size:
        sys.exit('%s: not a well-formed version 1 or 2 AVC trace'
                 % sys.argv[1])
    with open(sys.argv[2], 'wb') as f:
        if version == 1:
            f.write(data)
            return 0
        f.write(HEADER.pack(magic, 1, RECORD1.size, n, 0, 0))
        out = bytearray()
        for _, seq, ssid, tsid, req, tclass, cpu, kind, _, _ in \
                RECORD2.iter_unpack(data[HEADER.size:]):
            out += RECORD1.pack(seq, ssid, tsid, req, tclass, cpu, kind)
        f.write(out)
    return 0


if __name__ == '__main__':
    sys.exit(main())
