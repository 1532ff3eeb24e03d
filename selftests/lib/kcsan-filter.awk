# SPDX-License-Identifier: GPL-2.0
#
# Kernel log in, the same log out without the KCSAN reports that are not
# avc_rcu's: read by tools/testing/vm/verdict (on the console) and by
# tools/testing/lanes/guest.sh (on dmesg, in the guest) before they scan
# with bad-patterns.
#
# KCSAN (the kcsan variant of the debug kernel) reports the core kernel's
# own data races too, and 6.1 has unannotated ones that are not avc_rcu's
# to fix.  A report is the lines from one row of '=' to the next.  It is
# avc_rcu's if one of avc_rcu's modules ("[avc_rcu]", "[avc_rcu_torture]",
# ...) is in its title (the two racing functions) or in the stack of
# either access above the first interrupt or exception entry
# (asm_sysvec_*, asm_common_interrupt, asm_exc_*): below that entry is
# the code the interrupt happened to interrupt, which made neither access
# (two timer interrupts racing while a CPU ran avc_rcu are the kernel's
# race).  A stack walk (arch_stack_walk, stack_trace_save,
# stack_depot_save: SLUB's, KASAN's, lockdep's records of who allocated)
# is such an entry too: the unwinder's accesses above it, to module
# metadata, are not made by the code being walked (the loader's write of
# a module's state racing with an unwinder called from avc_rcu's
# allocation is the kernel's race).  A report holding "BUG: KCSAN:" that is not avc_rcu's is left
# out, and its title is appended to the file named by -v ignored=FILE when
# given.  Every other report, and anything else between two rows of '='
# (KASAN's reports), is kept, as is an unterminated one.  POSIX awk: mawk
# and busybox awk run it, so no interval expressions.

function flush(keep,   i) {
	if (keep || !kcsan || mod) {
		for (i = 1; i <= n; i++)
			print buf[i]
	} else if (ignored != "") {
		print head >>ignored
	}
	n = 0
	kcsan = 0
	mod = 0
	own = 0
	head = ""
}

/====================/ {
	buf[++n] = $0
	if (n > 1)
		flush(0)
	next
}

n {
	buf[++n] = $0
	if ($0 ~ /BUG: KCSAN:/) {
		kcsan = 1
		head = $0
		if ($0 ~ /\[avc_rcu[a-z0-9_]*\]/)
			mod = 1
	} else if ($0 ~ /(read|write).* to 0x[0-9a-f]* of [0-9]* bytes by /) {
		own = 1
	} else if ($0 ~ / asm_(sysvec_|common_interrupt|exc_)/) {
		own = 0
	} else if ($0 ~ / (arch_stack_walk|stack_trace_save|stack_depot_save)\+/) {
		own = 0
	} else if (own && $0 ~ /\[avc_rcu[a-z0-9_]*\]/) {
		mod = 1
	}
	next
}

{ print }

END {
	if (n)
		flush(1)
}
