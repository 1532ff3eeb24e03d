#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Prove from the built module that the RCU hit path stays cheap.

The lookup a cache hit takes in rcu mode is the body of
avc_cache_has_perm(); the miss and the locked modes leave it through calls
to out-of-line functions.  This reads the x86-64 disassembly of the built
avc_rcu.ko and fails unless that body:

  * has no atomic read-modify-write: no lock prefix, no xchg with memory,
    no cmpxchg or xadd;
  * stores only to the stack, to this CPU's per-CPU area (%gs:) and through
    the caller's decision pointer (the sixth argument, %r9, and the
    registers it is copied to);
  * calls only the functions it is allowed to (RCU read-side markers, the
    out-of-line slow paths, ftrace and stack-protector hooks), never
    through a pointer;
  * never loads the sync-mode variable: the mode test is a static branch,
    and the module's __jump_table has an entry inside the function for
    avc_sync_locked_key, and one for avc_reclaim_lru_key (reclaim=lru's
    referenced bit);
  * stores to shared memory at most once, and only the LRU referenced
    bit: a byte store of 1 to the very byte just tested, reached only by
    the branch taken when that byte was 0 (the load-test-store of
    avc_node_touch()), never unconditionally.

  hitpath.py MODULE.ko        check the module
  hitpath.py --selftest       check that the checker rejects bad code
"""

import re
import subprocess
import sys

FUNC = 'avc_cache_has_perm'
AVD_ARG_REG = 'r9'
STATIC_KEYS = ('avc_sync_locked_key', 'avc_reclaim_lru_key')
MODE_VAR = 'avc_sync_mode'
ALLOWED_CALLS = {
    '__fentry__', '__rcu_read_lock', '__rcu_read_unlock', '__stack_chk_fail',
    '__x86_return_thunk', 'avc_miss', 'avc_locked_has_perm',
}
NO_WRITE = {'cmp', 'test', 'bt', 'nop', 'jmp', 'call', 'ret', 'push', 'pop',
            'ud2', 'int3', 'lea', 'prefetcht0', 'prefetchw', 'endbr64'}

INSN_RE = re.compile(r'^\s*([0-9a-f]+):\s+(.*)$')
RELOC_RE = re.compile(r'^\s*([0-9a-f]+):\s+(R_X86_64_\w+)\s+(\S+)$')
MEM_RE = re.compile(r'^(?:%(?P<seg>[a-z]s):)?(?:-?(?:0x)?[0-9a-f]*)?'
                    r'(?:\((?P<base>%[a-z0-9]+)?(?:,%[a-z0-9]+)?(?:,\d)?\))?$')
REG64 = {
    'rax': 'rax', 'eax': 'rax', 'ax': 'rax', 'al': 'rax',
    'rbx': 'rbx', 'ebx': 'rbx', 'bx': 'rbx', 'bl': 'rbx',
    'rcx': 'rcx', 'ecx': 'rcx', 'cx': 'rcx', 'cl': 'rcx',
    'rdx': 'rdx', 'edx': 'rdx', 'dx': 'rdx', 'dl': 'rdx',
    'rsi': 'rsi', 'esi': 'rsi', 'si': 'rsi', 'sil': 'rsi',
    'rdi': 'rdi', 'edi': 'rdi', 'di': 'rdi', 'dil': 'rdi',
    'rbp': 'rbp', 'ebp': 'rbp', 'bp': 'rbp', 'bpl': 'rbp',
    'rsp': 'rsp', 'esp': 'rsp',
}
for n in range(8, 16):
    for suffix in ('', 'd', 'w', 'b'):
        REG64['r%d%s' % (n, suffix)] = 'r%d' % n


def split_operands(text):
    """Split 'op1,op2' at commas outside parentheses."""
    ops, depth, cur = [], 0, ''
    for ch in text:
        if ch == '(':
            depth += 1
        elif ch == ')':
            depth -= 1
        if ch == ',' and depth == 0:
            ops.append(cur.strip())
            cur = ''
        else:
            cur += ch
    if cur.strip():
        ops.append(cur.strip())
    return ops


def is_mem(op):
    return '(' in op or ':' in op


def reg_of(op):
    if op.startswith('%'):
        return REG64.get(op[1:])
    return None


def parse_function(listing, func):
    """Return ([(addr, insn)], {addr: (type, target)}) for one function."""
    insns, relocs, inside = [], {}, False
    for line in listing.splitlines():
        if re.match(r'^[0-9a-f]+ <.*>:$', line):
            inside = line.endswith('<%s>:' % func)
            continue
        if not inside:
            continue
        m = RELOC_RE.match(line)
        if m:
            relocs[int(m.group(1), 16)] = (m.group(2), m.group(3))
            continue
        m = INSN_RE.match(line)
        if m:
            text = m.group(2).split('#')[0].strip()
            insns.append((int(m.group(1), 16), text))
    return insns, relocs


BIT_STORE_RE = re.compile(r'^movb \$0x1,(\S+)$')
JCC_RE = re.compile(r'^(j[a-z]+) +([0-9a-f]+)\b')


def norm(text):
    return ' '.join(text.split())


def tests_byte_zero(insns, j, mem):
    """Whether the instructions before insns[j] (a conditional jump) set
    the flags from 'is the byte at mem zero': cmpb $0x0,mem, or a
    test of a register loaded from mem by the instruction before."""
    if j < 1:
        return False
    prev = norm(insns[j - 1][1])
    if prev in ('cmpb $0x0,%s' % mem,):
        return True
    m = re.match(r'^test %(\w+),%(\w+)$', prev)
    if not m or m.group(1) != m.group(2) or j < 2:
        return False
    reg = REG64.get(m.group(1))
    load = re.match(r'^(movzbl|movzbw|movb|movzbq) (\S+),%(\w+)$',
                    norm(insns[j - 2][1]))
    return bool(load and load.group(2) == mem and
                REG64.get(load.group(3)) == reg)


def guarded_bit_store(insns, relocs, i):
    """Whether insns[i] is 'movb $0x1,M' that runs only when the byte at M
    was just found to be 0.  A jump with a relocation goes elsewhere (its
    shown target is a placeholder)."""
    addr = insns[i][0]
    m = BIT_STORE_RE.match(norm(insns[i][1]))
    if not m:
        return False
    mem = m.group(1)
    after = insns[i + 1][0] if i + 1 < len(insns) else addr + 1
    ends = [a for a, _ in insns[1:]] + [insns[-1][0] + 16]
    jumps = [(j, JCC_RE.match(norm(t))) for j, (_, t) in enumerate(insns)
             if not reloc_for(insns[j][0], ends[j] - insns[j][0], relocs)]
    into = [(j, jm.group(1)) for j, jm in jumps
            if jm and int(jm.group(2), 16) == addr]
    prev = norm(insns[i - 1][1]).split(' ')[0] if i else ''
    if into:
        # Out of line: every jump to it is "je/jz" after the zero test,
        # and nothing falls into it.
        return (prev.startswith('jmp') or prev.startswith('ret')) and \
            all(op in ('je', 'jz') and tests_byte_zero(insns, j, mem)
                for j, op in into)
    # In line: the instruction before skips exactly the store unless the
    # byte was zero.
    jm = JCC_RE.match(norm(insns[i - 1][1])) if i else None
    return bool(jm and jm.group(1) in ('jne', 'jnz') and
                int(jm.group(2), 16) == after and
                tests_byte_zero(insns, i - 1, mem))


def reloc_for(addr, size_hint, relocs):
    for off in range(addr, addr + size_hint):
        if off in relocs:
            return relocs[off]
    return None


def check_function(insns, relocs):
    """Return a list of problems found in the hit-path function."""
    problems = []
    if not insns:
        return ['function %s not found' % FUNC]
    avd_regs = {AVD_ARG_REG}
    bit_stores = 0
    addrs = [a for a, _ in insns] + [insns[-1][0] + 16]
    for i, (addr, text) in enumerate(insns):
        size = addrs[i + 1] - addr
        rel = reloc_for(addr, size, relocs)
        parts = text.split(None, 1)
        if not parts or 'nop' in text:
            continue
        mnem = parts[0]
        if mnem in ('lock', 'rep', 'repz', 'repnz', 'notrack', 'bnd',
                    'cs', 'ds'):
            if mnem == 'lock':
                problems.append('%x: locked instruction: %s' % (addr, text))
                continue
            parts = parts[1].split(None, 1) if len(parts) > 1 else []
            if not parts:
                continue
            mnem = parts[0]
        ops = split_operands(parts[1]) if len(parts) > 1 else []
        base = re.sub(r'[bwlq]$', '', mnem) if mnem not in NO_WRITE else mnem

        if rel and (rel[1].startswith(MODE_VAR + '-') or
                    rel[1].startswith(MODE_VAR + '+') or rel[1] == MODE_VAR):
            problems.append('%x: reads the sync mode: %s' % (addr, text))

        if mnem.startswith('call') or mnem.startswith('jmp'):
            if ops and ops[0].startswith('*'):
                problems.append('%x: indirect branch: %s' % (addr, text))
                continue
            if rel:
                target = re.split(r'[-+]', rel[1])[0]
                if target.startswith('__x86_indirect_thunk'):
                    problems.append('%x: indirect call: %s' % (addr, text))
                elif mnem.startswith('call') and target not in ALLOWED_CALLS:
                    problems.append('%x: call to %s' % (addr, target))
                elif mnem.startswith('jmp') and target not in ALLOWED_CALLS:
                    problems.append('%x: tail call to %s' % (addr, target))
            continue

        if base in ('xchg', 'cmpxchg', 'xadd', 'cmpxchg8b', 'cmpxchg16b'):
            if base != 'xchg' or any(is_mem(o) for o in ops):
                problems.append('%x: atomic exchange: %s' % (addr, text))
                continue

        if mnem in NO_WRITE or base in NO_WRITE or mnem.startswith('j'):
            continue
        if not ops:
            continue
        dest = ops[-1]
        if dest.startswith('%') and ':' not in dest and '(' not in dest:
            reg = reg_of(dest)
            if reg:
                src = reg_of(ops[0]) if len(ops) == 2 else None
                if base == 'mov' and src in avd_regs and \
                        dest[1:] == reg and len(dest) > 3:
                    avd_regs.add(reg)
                elif reg in avd_regs:
                    avd_regs.discard(reg)
            continue
        if dest.startswith('$'):
            continue
        m = MEM_RE.match(dest)
        if not m:
            problems.append('%x: unrecognised operand: %s' % (addr, text))
            continue
        if m.group('seg') == 'gs':
            continue
        b = m.group('base')
        b = reg_of(b) if b else None
        if b == 'rsp':
            continue
        if b in avd_regs:
            continue
        if guarded_bit_store(insns, relocs, i):
            bit_stores += 1
            if bit_stores == 1:
                continue
        problems.append('%x: store to shared memory: %s' % (addr, text))
    return problems


def check_jump_table(ko, start, end, static_key):
    out = subprocess.run(['objdump', '-r', '-j', '__jump_table', ko],
                         check=True, capture_output=True, text=True).stdout
    rows = [l.split() for l in out.splitlines() if 'R_X86_64' in l]
    for i in range(0, len(rows) - 2, 3):
        code, key = rows[i][2], rows[i + 2][2]
        m = re.match(r'\.text\+0x([0-9a-f]+)$', code)
        if m and key.startswith(static_key) and \
                start <= int(m.group(1), 16) < end:
            return True
    return False


def check_module(ko):
    listing = subprocess.run(['objdump', '-dr', '--no-show-raw-insn', ko],
                             check=True, capture_output=True,
                             text=True).stdout
    insns, relocs = parse_function(listing, FUNC)
    problems = check_function(insns, relocs)
    for key in STATIC_KEYS:
        if insns and not check_jump_table(ko, insns[0][0], insns[-1][0] + 1,
                                          key):
            problems.append('no static branch on %s in %s' % (key, FUNC))
    return insns, problems


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
    'bit store after the wrong test': ' 86a:\tmovzbl 0x1b(%rax),%edx\n'
                                      ' 86c:\ttest   %dl,%dl\n'
                                      ' 86e:\tjne    878 <x>\n'
                                      ' 870:\tmovb   $0x1,0x1a(%rax)\n'
                                      ' 874:\tnop\n',
    'bit store on the referenced branch': ' 86a:\tmovzbl 0x1a(%rax),%edx\n'
                                          ' 86c:\ttest   %dl,%dl\n'
                                          ' 86e:\tje     874 <x>\n'
                                          ' 870:\tmovb   $0x1,0x1a(%rax)\n'
                                          ' 874:\tnop\n',
    'second bit store': ' 86a:\tmovzbl 0x1a(%rax),%edx\n'
                        ' 86c:\ttest   %dl,%dl\n'
                        ' 86e:\tjne    874 <x>\n'
                        ' 870:\tmovb   $0x1,0x1a(%rax)\n'
                        ' 874:\tnop\n',
    'bit store reached by fall-through too': ' 859:\tmov    %eax,%eax\n',
}


def selftest():
    failures = 0
    insns, relocs = parse_function(GOOD, FUNC)
    problems = check_function(insns, relocs)
    print('%s - a clean hit path passes%s' %
          ('ok' if not problems else 'not ok',
           '' if not problems else ': ' + '; '.join(problems)))
    failures += bool(problems)
    for name, snippet in BAD.items():
        if name == 'bit store reached by fall-through too':
            # in place of the jmp before the out-of-line store
            listing = GOOD.replace(
                ' 847:\tjmp    84c <avc_cache_has_perm+0x13c>\n'
                '\t\t\t848: R_X86_64_PLT32\t__x86_return_thunk-0x4\n',
                snippet)
        else:
            listing = GOOD.replace(' 875:\tret\n',
                                   snippet + ' 875:\tret\n')
        insns, relocs = parse_function(listing, FUNC)
        problems = check_function(insns, relocs)
        print('%s - rejects %s' % ('ok' if problems else 'not ok', name))
        failures += not problems
    return failures


def main():
    if len(sys.argv) == 2 and sys.argv[1] == '--selftest':
        return 1 if selftest() else 0
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-2].strip(), file=sys.stderr)
        return 2
    insns, problems = check_module(sys.argv[1])
    for p in problems:
        print('hitpath: %s: %s' % (FUNC, p))
    if problems:
        return 1
    print('hitpath: %s: %d instructions, no atomic RMW, no indirect call, '
          'no shared store but the guarded referenced bit, sync mode and '
          'LRU behind static branches' % (FUNC, len(insns)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
