# SPDX-License-Identifier: GPL-2.0
#
# Kernel log in, the same log out without the KCSAN reports that are not
# avc_rcu's (6.1's own races), for tools/testing/vm/verdict (the console)
# and tools/testing/lanes/guest.sh (dmesg) before they scan with
# bad-patterns; Documentation/testing.rst, "The KCSAN kernel", says why.
# A report (the lines from one row of '=' to the next) is avc_rcu's if one
# of its modules ("[avc_rcu]", "[avc_rcu_torture]", ...) is in its title or
# in the stack of either access above the first interrupt or exception
# entry or stack walk.  A KCSAN report not avc_rcu's is left out, its title
# appended to -v ignored=FILE if given; every other one (KASAN's), an
# unterminated one and all else is kept.  POSIX awk: mawk and busybox awk
# run it, so no interval expressions.

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
