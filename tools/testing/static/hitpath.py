#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Prove from the built code that an AVC hit path stays cheap.

The x86-64 disassembly of avc_cache_has_perm() in avc_rcu.ko has no
atomic read-modify-write, no store to shared memory but the guarded LRU
referenced bit, no call but the allowed ones, and the sync mode and
reclaim=lru behind static branches (each rule in full:
Documentation/testing.rst).  With --vmlinux, the same rules on the kernel
AVC's avc_lookup() in a built vmlinux (make upstream's kernels): no
atomic, no call but __fentry__, and at most the one guarded store of the
referenced bit; it prints "avc_lookup: no store to shared memory ..." or
"avc_lookup: one store to shared memory, the referenced bit: ...".

  hitpath.py MODULE.ko        check the module
  hitpath.py --vmlinux VMLINUX
                              check the kernel's avc_lookup()
  hitpath.py --selftest       check that the checker rejects bad code
"""

import re
import subprocess
import sys

FUNC = 'avc_cache_has_perm'
KFUNC = 'avc_lookup'
KALLOWED_CALLS = {'__fentry__', '__x86_return_thunk', '__stack_chk_fail'}
STATIC_KEYS = ('avc_sync_locked_key', 'avc_reclaim_lru_key')
MODE_VAR = 'avc_sync_mode'
ALLOWED_CALLS = {
    '__fentry__', '__rcu_read_lock', '__rcu_read_unlock', '__stack_chk_fail',
    '__x86_return_thunk', 'avc_miss', 'avc_locked_has_perm',
}
NO_WRITE = {'cmp', 'test', 'bt', 'nop', 'jmp', 'call', 'ret', 'push', 'pop',
            'ud2', 'int3', 'lea', 'prefetcht0', 'prefetchw', 'endbr64'}
PREFIXES = ('lock', 'rep', 'repz', 'repnz', 'notrack', 'bnd', 'cs', 'ds')

INSN_RE = re.compile(r'^\s*([0-9a-f]+):\s+(.*)$')
RELOC_RE = re.compile(r'^\s*([0-9a-f]+):\s+(R_X86_64_\w+)\s+(\S+)$')
MEM_RE = re.compile(r'^(?:%(?P<seg>[a-z]s):)?(?:-?(?:0x)?[0-9a-f]*)?'
                    r'(?:\((?P<base>%[a-z0-9]+)?(?:,%[a-z0-9]+)?(?:,\d)?\))?$')
BIT_STORE_RE = re.compile(r'^movb \$0x1,(\S+)$')
JCC_RE = re.compile(r'^(j[a-z]+) +([0-9a-f]+)\b')
# Every name of a general register, to its 64-bit name.
REG64 = {'rsp': 'rsp', 'esp': 'rsp'}
for r, low in (('ax', 'al'), ('bx', 'bl'), ('cx', 'cl'), ('dx', 'dl'),
               ('si', 'sil'), ('di', 'dil'), ('bp', 'bpl')):
    REG64.update(dict.fromkeys(('r' + r, 'e' + r, r, low), 'r' + r))
REG64.update({'r%d%s' % (n, s): 'r%d' % n
              for n in range(8, 16) for s in ('', 'd', 'w', 'b')})


def split_operands(text):
    """Split 'op1,op2' at commas outside parentheses."""
    ops, depth, cur = [], 0, ''
    for ch in text:
        depth += {'(': 1, ')': -1}.get(ch, 0)
        if ch == ',' and depth == 0:
            ops.append(cur.strip())
            cur = ''
        else:
            cur += ch
    if cur.strip():
        ops.append(cur.strip())
    return ops


def reg_of(op):
    return REG64.get(op[1:]) if op.startswith('%') else None


def norm(text):
    return ' '.join(text.split())


def parse_function(listing, func, linked=False):
    """Return ([(addr, insn)], {addr: (type, target)}) for one function.
    In a linked listing (vmlinux) a call or jump to another function
    names it as <sym>: that is its relocation, at the next byte."""
    insns, relocs, inside = [], {}, False
    for line in listing.splitlines():
        if re.match(r'^[0-9a-f]+ <.*>:$', line):
            inside = line.endswith('<%s>:' % func)
        elif inside and (m := RELOC_RE.match(line)):
            relocs[int(m.group(1), 16)] = (m.group(2), m.group(3))
        elif inside and (m := INSN_RE.match(line)):
            text = m.group(2).split('#')[0].strip()
            insns.append((int(m.group(1), 16), text))
            sym = re.search(r'<([^>+]+)(?:\+0x[0-9a-f]+)?>$', text)
            if linked and sym and sym.group(1) != func:
                relocs[int(m.group(1), 16) + 1] = ('linked', sym.group(1))
    return insns, relocs


def tests_byte_zero(insns, j, mem):
    """Whether the instructions before insns[j] (a conditional jump) set
    the flags from 'is the byte at mem zero': cmpb $0x0,mem, or a
    test of a register loaded from mem by the instruction before."""
    prev = norm(insns[j - 1][1]) if j >= 1 else ''
    test = re.match(r'^test %(\w+),%\1$', prev)
    load = j >= 2 and re.match(r'^(?:movzbl|movzbw|movb|movzbq) (\S+),%(\w+)$',
                               norm(insns[j - 2][1]))
    return prev == 'cmpb $0x0,%s' % mem or bool(
        test and load and load.group(1) == mem and
        REG64.get(load.group(2)) == REG64.get(test.group(1)))


def guarded_bit_store(insns, rels, i):
    """Whether insns[i] is 'movb $0x1,M' that runs only when the byte at M
    was just found to be 0.  A jump with a relocation goes elsewhere (its
    shown target is a placeholder)."""
    addr = insns[i][0]
    m = BIT_STORE_RE.match(norm(insns[i][1]))
    if not m:
        return False
    into = [(j, jm.group(1)) for j, (_, text) in enumerate(insns)
            if (jm := JCC_RE.match(norm(text))) and not rels[j] and
            int(jm.group(2), 16) == addr]
    prev = norm(insns[i - 1][1]) if i else ''
    if into:
        # Out of line: every jump to it is "je/jz" after the zero test,
        # and nothing falls into it.
        return prev.startswith(('jmp', 'ret')) and all(
            op in ('je', 'jz') and tests_byte_zero(insns, j, m.group(1))
            for j, op in into)
    # In line: the jump before goes past the store unless the byte was
    # zero (to the next instruction, or to a copy of what follows).
    jm = JCC_RE.match(prev)
    return bool(jm and jm.group(1) in ('jne', 'jnz') and
                int(jm.group(2), 16) > addr and
                tests_byte_zero(insns, i - 1, m.group(1)))


def check_function(insns, relocs, func=FUNC, out_regs=('r9',),
                   allowed=frozenset(ALLOWED_CALLS)):
    """Return (problems, index of the guarded bit store or None) for the
    hit-path function FUNC: OUT_REGS hold its out-parameter (stores
    through them are its caller's), ALLOWED the calls it may make."""
    if not insns:
        return ['function %s not found' % func], None
    problems, avd_regs, bit_store = [], set(out_regs), None
    ends = [a for a, _ in insns[1:]] + [insns[-1][0] + 16]
    rels = [next((relocs[o] for o in range(a, end) if o in relocs), None)
            for (a, _), end in zip(insns, ends)]
    for i, (addr, text) in enumerate(insns):
        parts, rel = text.split(None, 1), rels[i]
        if not parts or 'nop' in text:
            continue
        if parts[0] == 'lock':
            problems.append('%x: locked instruction: %s' % (addr, text))
            continue
        if parts[0] in PREFIXES:
            parts = parts[1].split(None, 1) if len(parts) > 1 else []
            if not parts:
                continue
        mnem = parts[0]
        ops = split_operands(parts[1]) if len(parts) > 1 else []
        base = re.sub(r'[bwlq]$', '', mnem) if mnem not in NO_WRITE else mnem
        target = re.split(r'[-+]', rel[1])[0] if rel else None

        if target == MODE_VAR:
            problems.append('%x: reads the sync mode: %s' % (addr, text))
        if mnem.startswith(('call', 'jmp')):
            if ops and ops[0].startswith('*'):
                problems.append('%x: indirect branch: %s' % (addr, text))
            elif rel and target.startswith('__x86_indirect_thunk'):
                problems.append('%x: indirect call: %s' % (addr, text))
            elif rel and target not in allowed:
                problems.append('%x: %s to %s' % (
                    addr, 'call' if mnem.startswith('call') else 'tail call',
                    target))
            continue
        if base in ('cmpxchg', 'xadd', 'cmpxchg8b', 'cmpxchg16b') or \
                (base == 'xchg' and any('(' in o or ':' in o for o in ops)):
            problems.append('%x: atomic exchange: %s' % (addr, text))
            continue
        if mnem in NO_WRITE or base in NO_WRITE or mnem.startswith('j') or \
                not ops or ops[-1].startswith('$'):
            continue
        dest = ops[-1]
        if dest.startswith('%') and ':' not in dest and '(' not in dest:
            reg = reg_of(dest)
            if base == 'mov' and len(ops) == 2 and dest[1:] == reg and \
                    len(dest) > 3 and reg_of(ops[0]) in avd_regs:
                avd_regs.add(reg)
            else:
                avd_regs.discard(reg)
            continue
        m = MEM_RE.match(dest)
        if not m:
            problems.append('%x: unrecognised operand: %s' % (addr, text))
            continue
        if m.group('seg') == 'gs' or \
                reg_of(m.group('base') or '') in avd_regs | {'rsp'}:
            continue
        if bit_store is None and guarded_bit_store(insns, rels, i):
            bit_store = i
            continue
        problems.append('%x: store to shared memory: %s' % (addr, text))
    return problems, bit_store


def check_module(ko):
    """The problems of FUNC in KO, and each of STATIC_KEYS branched on."""
    def objdump(*args):
        return subprocess.run(['objdump', *args, ko], check=True,
                              capture_output=True, text=True).stdout
    insns, relocs = parse_function(objdump('-dr', '--no-show-raw-insn'), FUNC)
    problems, _ = check_function(insns, relocs)
    if insns:
        rows = [l.split() for l in objdump('-r', '-j', '__jump_table')
                .splitlines() if 'R_X86_64' in l]
        entries = [(int(m.group(1), 16), rows[i + 2][2])
                   for i in range(0, len(rows) - 2, 3)
                   for m in [re.match(r'\.text\+0x([0-9a-f]+)$', rows[i][2])]
                   if m]
        problems += ['no static branch on %s in %s' % (key, FUNC)
                     for key in STATIC_KEYS
                     if not any(insns[0][0] <= a <= insns[-1][0] and
                                k.startswith(key) for a, k in entries)]
    return insns, problems


def check_linked(listing):
    """avc_lookup() in a linked listing (objdump -d of a vmlinux): the
    lines make upstream reads (the problems, else what it stores), and
    whether there were problems."""
    insns, relocs = parse_function(listing, KFUNC, linked=True)
    problems, bit_store = check_function(insns, relocs, KFUNC, (),
                                         KALLOWED_CALLS)
    if problems:
        return ['%s: %s' % (KFUNC, p) for p in problems], True
    if bit_store is None:
        return ['%s: no store to shared memory, no atomic (%d instructions)'
                % (KFUNC, len(insns))], False
    return ['%s: one store to shared memory, the referenced bit: %x: %s, '
            'after %s (%d instructions in all)'
            % (KFUNC, insns[bit_store][0], insns[bit_store][1],
               insns[bit_store - 1][1], len(insns))], False


GOOD = """\
0000000000000710 <avc_cache_has_perm>:
 710:	call   715 <avc_cache_has_perm+0x5>
			711: R_X86_64_PLT32	__fentry__-0x4
 715:	push   %r12
 717:	mov    %r9,%r12
 71a:	sub    $0x18,%rsp
 738:	mov    %esi,0x4(%rsp)
 74a:	nopl   0x0(%rax,%rax,1)
 74f:	call   754 <avc_cache_has_perm+0x44>
			750: R_X86_64_PLT32	__rcu_read_lock-0x4
 7f6:	mov    0x1c(%rax),%rdx
 7fa:	mov    %rdx,(%r12)
 802:	mov    %rdx,0x8(%r12)
 806:	xchg   %ax,%ax
 808:	movzbl 0x1a(%rax),%edx
 80c:	test   %dl,%dl
 80e:	je     85a <avc_cache_has_perm+0x14a>
 810:	call   815 <avc_cache_has_perm+0x112>
			811: R_X86_64_PLT32	__rcu_read_unlock-0x4
 814:	mov    0x10(%rbp),%rax
 818:	incl   %gs:(%rax)
 847:	jmp    84c <avc_cache_has_perm+0x13c>
			848: R_X86_64_PLT32	__x86_return_thunk-0x4
 85a:	movb   $0x1,0x1a(%rax)
 85e:	jmp    810 <avc_cache_has_perm+0x10d>
 870:	call   30 <avc_miss>
			871: R_X86_64_PLT32	avc_miss-0x4
 875:	ret
"""

# A test of the byte at OFFSET(%rax), a conditional JUMP, the bit store.
TESTED_STORE = (' 86a:\tmovzbl %s(%%rax),%%edx\n 86c:\ttest   %%dl,%%dl\n'
                ' 86e:\t%s <x>\n 870:\tmovb   $0x1,0x1a(%%rax)\n 874:\tnop\n')
BAD = {
    'lock prefix': ' 800:\tlock incl 0x10(%rbp)\n',
    'global store': ' 800:\tmov    %eax,0x0(%rip)\n'
                    '\t\t\t802: R_X86_64_PC32\t.bss-0x4\n',
    'store through another pointer': ' 800:\tmov    %eax,0x8(%rbp)\n',
    'avd register reused': ' 800:\tmov    %rbp,%r12\n'
                           ' 803:\tmov    %eax,(%r12)\n',
    'xchg with memory': ' 800:\txchg   %eax,(%rbp)\n',
    'string store': ' 800:\trep stos %rax,%es:(%rdi)\n',
    'indirect call': ' 800:\tcall   *%rax\n',
    'retpoline call': ' 800:\tcall   805 <x>\n'
                      '\t\t\t801: R_X86_64_PLT32\t__x86_indirect_thunk_rax-0x4\n',
    'unexpected call': ' 800:\tcall   805 <x>\n'
                       '\t\t\t801: R_X86_64_PLT32\t_raw_spin_lock-0x4\n',
    'sync mode read': ' 800:\tmov    0x0(%rip),%eax\n'
                      '\t\t\t802: R_X86_64_PC32\tavc_sync_mode-0x4\n',
    'unconditional referenced-bit store': ' 800:\tmovb   $0x1,0x1a(%rax)\n',
    'bit store after the wrong test': TESTED_STORE % ('0x1b', 'jne    878'),
    'bit store on the referenced branch': TESTED_STORE % ('0x1a', 'je     874'),
    'second bit store': TESTED_STORE % ('0x1a', 'jne    874'),
    'bit store reached by fall-through too': ' 859:\tmov    %eax,%eax\n',
}


# The series' avc_lookup() as built in a vmlinux (7.3-rc7), its hash cut:
# the bit store in line, its jne to a second copy of the ret.
KGOOD = """\
ffffffff81333520 <avc_lookup>:
ffffffff81333520:	call   ffffffff81046e10 <__fentry__>
ffffffff81333525:	mov    %edi,%ecx
ffffffff81333529:	incl   %gs:0x997750(%rip)        # ffffffff81ccac80 <avc_cache_stats>
ffffffff813335ac:	mov    -0x7e2ef6d8(,%rax,8),%rax
ffffffff813335b4:	lea    -0x28(%rax),%rdx
ffffffff813335b8:	test   %rax,%rax
ffffffff813335bb:	cmovne %rdx,%rax
ffffffff813335bf:	jmp    ffffffff813335ce <avc_lookup+0xae>
ffffffff813335c1:	mov    0x28(%rax),%rax
ffffffff813335c5:	test   %rax,%rax
ffffffff813335c8:	je     ffffffff813335f0 <avc_lookup+0xd0>
ffffffff813335ca:	sub    $0x28,%rax
ffffffff813335ce:	test   %rax,%rax
ffffffff813335d1:	je     ffffffff813335f0 <avc_lookup+0xd0>
ffffffff813335d3:	cmp    (%rax),%ecx
ffffffff813335d5:	jne    ffffffff813335c1 <avc_lookup+0xa1>
ffffffff813335e2:	movzbl 0xa(%rax),%edx
ffffffff813335e6:	test   %dl,%dl
ffffffff813335e8:	jne    ffffffff813335ef <avc_lookup+0xcf>
ffffffff813335ea:	movb   $0x1,0xa(%rax)
ffffffff813335ee:	ret
ffffffff813335ef:	ret
ffffffff813335f0:	incl   %gs:0x99768d(%rip)        # ffffffff81ccac84 <avc_cache_stats+0x4>
ffffffff813335f7:	xor    %eax,%eax
ffffffff813335f9:	ret
"""
KSTORE = 'ffffffff813335ea:\tmovb   $0x1,0xa(%rax)\n'
KBAD = {
    'an unguarded store': KGOOD.replace(
        'ffffffff813335e8:\tjne    ffffffff813335ef <avc_lookup+0xcf>\n',
        ''),
    'a call': KGOOD.replace(
        'ffffffff813335f7:\txor', 'ffffffff813335f5:\tcall   '
        'ffffffff81a00000 <_raw_spin_lock>\nffffffff813335f7:\txor'),
    'a locked increment': KGOOD.replace(
        'ffffffff813335f7:\txor', 'ffffffff813335f5:\tlock incl 0x10(%rax)'
        '\nffffffff813335f7:\txor'),
}


def selftest():
    """GOOD must pass, and GOOD with any snippet of BAD added must fail;
    so for KGOOD and KBAD, avc_lookup() in a vmlinux."""
    problems, _ = check_function(*parse_function(GOOD, FUNC))
    print('%s - a clean hit path passes%s' % (
        ('not ok', ': ' + '; '.join(problems)) if problems else ('ok', '')))
    failures = bool(problems)
    for name, snippet in BAD.items():
        if name == 'bit store reached by fall-through too':
            # in place of the jmp before the out-of-line store
            listing = GOOD.replace(
                ' 847:\tjmp    84c <avc_cache_has_perm+0x13c>\n'
                '\t\t\t848: R_X86_64_PLT32\t__x86_return_thunk-0x4\n', snippet)
        else:
            listing = GOOD.replace(' 875:\tret\n', snippet + ' 875:\tret\n')
        problems, _ = check_function(*parse_function(listing, FUNC))
        print('%s - rejects %s' % ('ok' if problems else 'not ok', name))
        failures += not problems
    for name, listing, want in (
            ('the series\' avc_lookup: one guarded store', KGOOD,
             'avc_lookup: one store to shared memory, the referenced bit: '
             'ffffffff813335ea: movb   $0x1,0xa(%rax), after jne    '
             'ffffffff813335ef <avc_lookup+0xcf> (25 instructions in all)'),
            ('stock\'s avc_lookup: no store',
             KGOOD.replace(KSTORE, ''),
             'avc_lookup: no store to shared memory, no atomic '
             '(24 instructions)')):
        got = check_linked(listing)[0][0]
        print('%s - vmlinux: %s' % ('ok' if got == want else 'not ok', name))
        failures += got != want
    for name, listing in KBAD.items():
        bad = not check_linked(listing)[1]
        print('%s - vmlinux: rejects %s' % ('not ok' if bad else 'ok', name))
        failures += bad
    return failures


def main():
    if sys.argv[1:] == ['--selftest']:
        return 1 if selftest() else 0
    if len(sys.argv) == 3 and sys.argv[1] == '--vmlinux':
        lines, bad = check_linked(subprocess.run(
            ['objdump', '-d', '--no-show-raw-insn',
             '--disassemble=' + KFUNC, sys.argv[2]],
            check=True, capture_output=True, text=True).stdout)
        print('\n'.join(lines))
        return 1 if bad else 0
    if len(sys.argv) != 2:
        print(__doc__.strip().split('\n\n')[-1], file=sys.stderr)
        return 2
    insns, problems = check_module(sys.argv[1])
    for p in problems:
        print('hitpath: %s: %s' % (FUNC, p))
    if not problems:
        print('hitpath: %s: %d instructions, no atomic RMW, no indirect call, '
              'no shared store but the guarded referenced bit, sync mode and '
              'LRU behind static branches' % (FUNC, len(insns)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
