#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""What the kernel AVC's lookup writes, read from the built kernel.

A hit goes through avc_lookup() (security/selinux/avc.c), out of line in
the kernel make upstream builds, as in Debian's (the recorder probes it).
This reads its x86-64 disassembly in vmlinux and reports:

  * atomic read-modify-writes (a lock prefix, xchg with memory, cmpxchg,
    xadd): there must be none;
  * stores to memory other than the stack and this CPU's per-CPU area
    (%gs:, the statistics): with the series there must be exactly one, a
    byte store of 1 (the referenced bit) to the very byte a cmpb $0x0 or
    testb just read, reached only by the branch taken when it was zero;
    without it, none.

It prints one line, "avc_lookup: no store to shared memory" or
"avc_lookup: one store to shared memory, the referenced bit: ...", and
exits 1, naming the instructions, if the function breaks either rule.

  hitpath.py VMLINUX
"""

import os
import re
import subprocess
import sys

# The module's own hit-path inspector splits operands the same way.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'testing', 'static'))
from hitpath import split_operands  # noqa: E402  pylint: disable=C0413

FUNC = 'avc_lookup'
INSN_RE = re.compile(r'^\s*([0-9a-f]+):\s+(\S.*)$')
RMW = ('cmpxchg', 'xadd', 'xchg')
MEMDEST = re.compile(r'^(?:%gs:)?-?(?:0x[0-9a-f]+|\d+)?\(%(\w+)[,)]|^%gs:')


def disassemble(vmlinux):
    out = subprocess.run(
        ['objdump', '-d', '--no-show-raw-insn', '--disassemble=' + FUNC,
         vmlinux], check=True, capture_output=True, text=True).stdout
    insns = []
    for line in out.splitlines():
        m = INSN_RE.match(line)
        if m:
            text = re.sub(r'\s*#.*$', '', m.group(2)).strip()
            insns.append((int(m.group(1), 16), text))
    return insns


def operands(text):
    parts = text.split(None, 1)
    if len(parts) < 2:
        return parts[0], []
    return parts[0], split_operands(parts[1])


def low_byte(reg):
    """REG and its low byte's name: %edx and %dl, %esi and %sil, %r8d and
    %r8b; a test of either tests the loaded byte."""
    names = {reg}
    m = re.match(r'^%e([abcd])x$', reg)
    if m:
        names.add('%' + m.group(1) + 'l')
    m = re.match(r'^%e(si|di|bp|sp)$', reg)
    if m:
        names.add('%' + m.group(1) + 'l')
    m = re.match(r'^%(r\d+)[dwb]?$', reg)
    if m:
        names.add('%' + m.group(1) + 'b')
    return names


def shared_store(mnem, ops):
    """The memory operand a store writes, if not the stack or per-CPU."""
    if not ops or mnem.startswith(('cmp', 'test', 'j', 'call', 'push',
                                   'pop', 'lea', 'nop', 'bt', 'prefetch')):
        return None
    dest = ops[-1]
    if dest.startswith('%gs:'):
        return None
    m = MEMDEST.match(dest)
    if not m or not m.group(1):
        return None
    if m.group(1) in ('rsp', 'rbp'):
        return None
    return dest


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    insns = disassemble(sys.argv[1])
    if not insns:
        sys.exit('%s: no function %s (inlined?)' % (sys.argv[1], FUNC))
    bad, stores = [], []
    for i, (addr, text) in enumerate(insns):
        mnem, ops = operands(text)
        if text.startswith('lock') or mnem.startswith(RMW[:2]) or \
           (mnem.startswith('xchg') and any('(' in o for o in ops)):
            bad.append('%x: %s: an atomic read-modify-write' % (addr, text))
        dest = shared_store(mnem, ops)
        if dest:
            stores.append((i, addr, text, mnem, ops, dest))
    if len(stores) > 1:
        for _, addr, text, _, _, _ in stores:
            bad.append('%x: %s: a store to shared memory' % (addr, text))
    if len(stores) == 1:
        i, addr, text, mnem, ops, dest = stores[0]
        # The load-test-store: cmpb $0x0,DEST (or testb) shortly before,
        # or DEST loaded into a register (movzbl, movb) that is then
        # tested; then a conditional branch that jumps over the store.
        ok = mnem == 'movb' and ops[0] == '$0x1'
        test = None
        for j in range(i - 1, max(i - 6, -1), -1):
            m2, o2 = operands(insns[j][1])
            if m2 in ('cmpb', 'testb') and o2 and o2[-1] == dest:
                test = j
                break
            if m2 in ('movzbl', 'movzbw', 'movb') and len(o2) == 2 and \
               o2[0] == dest:
                regs = low_byte(o2[1])
                for k in range(j + 1, i):
                    m3, o3 = operands(insns[k][1])
                    if m3.startswith(('test', 'cmp')) and \
                       regs & set(o3):
                        test = k
                        break
                break
        ok = ok and test is not None
        if ok:
            ok = any(operands(insns[j][1])[0] in ('je', 'jne')
                     for j in range(test + 1, i))
        if not ok:
            bad.append('%x: %s: a store to shared memory, not the '
                       'conditional referenced bit' % (addr, text))
    for b in bad:
        print('avc_lookup: ' + b)
    if bad:
        return 1
    if stores:
        print('avc_lookup: one store to shared memory, the referenced bit: '
              '%x: %s, after %s (%d instructions in all)'
              % (stores[0][1], stores[0][2], insns[stores[0][0] - 1][1],
                 len(insns)))
    else:
        print('avc_lookup: no store to shared memory, no atomic '
              '(%d instructions)' % len(insns))
    return 0


if __name__ == '__main__':
    sys.exit(main())
