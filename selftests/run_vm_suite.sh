#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run the avc_rcu kselftests in a guest, as root, with busybox.
#
# For each module load (AVC_RCU_LOADS: insmod avc_rcu.ko with its
# parameters; a fixed hash_seed, so that the eviction-order test can put
# its keys in one bucket and every run evicts the same entries), mount
# avcrcufs, run every test program and the in-kernel torture test
# (avc_torture.sh), at the first load also the programs whose subject does
# not depend on the mode (AVC_RCU_ONCE_TESTS: the avcstat test, the memory
# test and the tracepoints' test), umount, rmmod, and check that the
# kernel log gained no line matching bad-patterns (lib/bad-patterns, the
# list the QEMU runner scans the console with).  Then the wrap-around
# phase: for each of its programs a module loaded with the first load's
# parameters and seqno_start just below 2^32, so that their loads cross
# the seqno's wrap-around; its kernel log check.  Then the unload test
# once.  A lane of make check (tools/testing/lanes/) sets these.
#
# Prints TAP version 13 with each program's own TAP nested as "# " lines,
# kselftest style, and ends with exactly one line
#
#     AVC_RCU_SUITE passed=P failed=F skipped=S
#
# where P, F and S count the individual test cases (the ok / not ok lines
# of every program; "ok ... # SKIP" is skipped, not passed) and the kernel
# log checks.  Each program's plan is checked against what it printed: a
# program that crashes, times out or stops early counts its missing cases
# as failed, one that prints more cases than planned, no plan, or no TAP
# at all (even exiting 0) counts one failure more, as does one that exits
# non-zero without a failed case.  Exits non-zero if anything failed.
#
# Environment (defaults in brackets):
#   AVC_RCU_KO [/avc_rcu/avc_rcu.ko]   AVC_RCU_MNT [/sys/fs/avc_rcu]
#   AVC_RCU_LOADS [sync=rcu slots=512; sync=spinlock slots=64;
#                  sync=rwlock slots=16]
#                                      the module loads, ';' between two:
#                                      each the insmod parameters, sync,
#                                      slots, reclaim and hash_seed
#                                      defaulting to rcu, 512, lru and the
#                                      load's number; "PARAMS : PROGRAMS"
#                                      runs PROGRAMS at that load instead
#                                      of AVC_RCU_TESTS
#   AVCSTAT [/avc_rcu/avcstat]         AVC_TEST_TIMEOUT [900] per program
#   AVC_RCU_TESTS                      the programs run at every load
#                                      (empty: none)
#   AVC_RCU_ONCE_TESTS [avcstat_test.sh avc_memory avc_tracepoints.sh]
#                                      run at the first load only
#   AVC_RCU_FAULTS [0]: 1 adds avc_faults to the default
#                        AVC_RCU_ONCE_TESTS on a kernel with
#                        /proc/self/fail-nth (the debug kernel)
#   AVC_RCU_WRAP_TESTS [avc_wrap avc_concurrency avc_torture.sh]
#                                      run across the seqno wrap-around
#   AVC_RCU_WRAP_SEQNO [4294967293]    their seqno_start
#   AVC_RCU_UTIL_TEST [1], AVC_RCU_UNLOAD_TEST [1]: 0 leaves out
#                        avc_util_test (first) and avc_unload.sh (last);
#                        (avc_kselftest.sh runs one program at a time)
#   AVC_RCU_KUNIT [auto]: avc_kunit.sh, avc_rcu_kunit.ko's KUnit suites,
#                        second: auto when the module is staged beside
#                        this script (a kernel with KUnit), 1 always
#                        (failing without it), 0 never; then a kernel
#                        log check of its own
#   AVC_RCU_ALLOW_DEPMOD: passed to avc_unload.sh (its autoload case
#                        stages the module into /lib/modules only if 1;
#                        the QEMU guest's /init sets it)
#   AVC_RCU_BAD_PATTERNS [lib/bad-patterns next to this script]
#   AVC_STRESS_SECONDS, AVC_SEED, AVC_UNLOAD_CYCLES, AVC_TORTURE_SECONDS,
#   AVC_TORTURE_PARAMS, AVC_LARGE_POLICY:  passed to the tests
#   AVC_RCU_STOP_ON_FAIL [0]: 1 stops the suite at the first program or
#                        kernel log check that fails: its summary line
#                        ("stopped" added) and exit 1 at once, with
#                        the module perhaps still loaded (for
#                        tools/testing/mutate, whose guest ends there)
#   AVC_DEBUG_STRESS_SECONDS [6], AVC_DEBUG_TORTURE_SECONDS [20]: on a
#                        kernel with lockdep (the debug kernel), the
#                        defaults of AVC_STRESS_SECONDS and
#                        AVC_TORTURE_SECONDS, for longer stress there

set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
# The tests run as they are here, not handed to avc_kselftest.sh as they
# hand themselves when kselftest runs them (avc_test.h).
export AVC_RCU_IN_SUITE=1
KO=${AVC_RCU_KO:-/avc_rcu/avc_rcu.ko}
MNT=${AVC_RCU_MNT:-/sys/fs/avc_rcu}
LOADS=${AVC_RCU_LOADS:-sync=rcu slots=512; sync=spinlock slots=64; sync=rwlock slots=16}
AVCSTAT=${AVCSTAT:-/avc_rcu/avcstat}
TIMEOUT=${AVC_TEST_TIMEOUT:-900}
# avc_threshold first: it checks the default value of a fresh module.
TESTS=${AVC_RCU_TESTS-avc_threshold avc_formats avc_functional avc_policy \
avc_load avc_reclaim avc_eviction avc_concurrency avc_torture.sh \
avc_reach.sh}
# avcstat reads files whose format is the same in every mode (about 30 s
# of intervals on the stock kernel, 80 on the debug kernel), and the
# trace calls are the same in every mode (after the locked and the
# lockless branch alike): once a guest is enough.
ONCE_TESTS=${AVC_RCU_ONCE_TESTS-avcstat_test.sh avc_memory avc_tracepoints.sh}
# AVC_RCU_FAULTS=1 and a kernel with fault injection (the debug kernel):
# the allocation failure sweeps too.  Elsewhere they could only skip.
if [ -z "${AVC_RCU_ONCE_TESTS+set}" ] && [ "${AVC_RCU_FAULTS:-0}" = 1 ] &&
	[ -e /proc/self/fail-nth ]; then
	ONCE_TESTS="$ONCE_TESTS avc_faults"
fi
WRAP_TESTS=${AVC_RCU_WRAP_TESTS-avc_wrap avc_concurrency avc_torture.sh}
WRAP_SEQNO=${AVC_RCU_WRAP_SEQNO:-4294967293}
UTIL_TEST=${AVC_RCU_UTIL_TEST:-1}
UNLOAD_TEST=${AVC_RCU_UNLOAD_TEST:-1}
KUNIT=${AVC_RCU_KUNIT:-auto}
if [ "$KUNIT" = auto ]; then
	KUNIT=0
	[ ! -f "$HERE/avc_rcu_kunit.ko" ] || KUNIT=1
fi
STOP_ON_FAIL=${AVC_RCU_STOP_ON_FAIL:-0}
# The debug kernel (lockdep) runs the stress longer, unless told otherwise.
if [ -e /proc/lockdep ]; then
	: "${AVC_STRESS_SECONDS:=${AVC_DEBUG_STRESS_SECONDS:-6}}"
	: "${AVC_TORTURE_SECONDS:=${AVC_DEBUG_TORTURE_SECONDS:-20}}"
	export AVC_STRESS_SECONDS AVC_TORTURE_SECONDS
fi
FSTYPE=avcrcufs
# Kernel log lines that fail a mode: the list tools/testing/vm/run scans
# the guest's console with, in the test library (lib/, here as in the
# source tree: make install copies it beside this script).
BAD_PATTERNS=${AVC_RCU_BAD_PATTERNS:-$HERE/lib/bad-patterns}
# And the KCSAN reports that are not avc_rcu's (the core kernel's own, on
# the KCSAN kernel) taken out of the log before the scan, as the runner
# takes them out of the console: kcsan-filter.awk, found the same way.
# Without it nothing is taken out, which is only stricter.
KCSAN_FILTER=$(dirname "$BAD_PATTERNS")/kcsan-filter.awk

export AVC_RCU_KO="$KO" AVC_RCU_MNT="$MNT" AVCSTAT

TMP=$(mktemp -d "${TMPDIR:-/tmp}/avc_suite.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# One extended regular expression a line; blank lines and lines starting
# with '#' are not patterns (an empty pattern would match every line).
# $TMP/bad is what grep -E -f reads, empty if the list is unusable: then
# every kernel log check fails rather than pass on an empty list or a
# pattern this grep cannot compile (it dies on the first).  Two reports
# it must catch and a line it must not prove the list loaded.
bad_patterns_err=""
if ! grep -v -e '^#' -e '^$' "$BAD_PATTERNS" >"$TMP/bad" 2>"$TMP/err"; then
	bad_patterns_err="no patterns in $BAD_PATTERNS $(cat "$TMP/err")"
elif [ "$(printf '%s\n' 'WARNING: CPU: 0 PID: 1 at x' \
	  'INFO: task sh:1 blocked for more than 120 seconds.' |
	  grep -c -E -f "$TMP/bad" 2>&1)" != 2 ] ||
     [ "$(echo 'avc_rcu: bad-patterns self-check' |
	  grep -c -E -f "$TMP/bad" 2>&1)" != 0 ]; then
	bad_patterns_err="grep -E -f cannot use $BAD_PATTERNS"
fi
if [ -n "$bad_patterns_err" ]; then
	: >"$TMP/bad"
fi

num=0		# top-level TAP number
passed=0	# test cases
failed=0
skipped=0	# not in passed
c_pass=0 c_fail=0 c_skip=0 c_why=
any_failed=0

if command -v timeout >/dev/null 2>&1; then
	TMO="timeout -k 10 $TIMEOUT"
else
	TMO=""
fi

top() {
	num=$((num + 1))
	echo "$1 $num selftests: avc_rcu: $2"
	[ "$1" = ok ] && return
	any_failed=1
	if [ "$STOP_ON_FAIL" = 1 ]; then
		echo "AVC_RCU_SUITE passed=$passed failed=$failed" \
			"skipped=$skipped stopped"
		exit 1
	fi
}

# Count the test cases in a program's TAP output ($1), its exit status ($2).
# Sets c_pass c_fail c_skip, and c_why to what was wrong besides failed
# cases.  Only unindented lines count: nested TAP is "# "-prefixed.
count_cases() {
	# shellcheck disable=SC2016
	eval "$(awk -v rc="$2" '
		function why(w) { whys = whys (whys == "" ? "" : "; ") w }
		/^ok / {
			n++
			if ($0 ~ /#[ \t]*[Ss][Kk][Ii][Pp]/)
				s++
			else
				p++
		}
		/^not ok / { n++; f++ }
		/^1\.\.[0-9]+/ {
			split($0, a, /[. ]+/)
			if (hp)
				why("a second plan")
			plan = a[2] + 0; hp = 1
			planskip = $0 ~ /#[ \t]*[Ss][Kk][Ii][Pp]/
		}
		/^Bail out!/ { bail = 1 }
		END {
			n += 0; p += 0; f += 0; s += 0
			if (!hp && !n) {
				why("no TAP"); f++
			} else if (!hp) {
				why("no plan"); f++
			} else if (plan == 0 && planskip && !n) {
				s++
			} else if (n < plan) {
				why(n " of " plan " planned cases ran")
				f += plan - n
			} else if (n > plan) {
				why(n " cases for a plan of " plan); f++
			}
			if (bail) {
				why("bailed out"); f++
			}
			if (rc != 0 && !f) {
				why("exit " rc " and no case failed"); f++
			}
			gsub(/\047/, "", whys)
			printf "c_pass=%d c_fail=%d c_skip=%d c_why=\047%s\047\n",
				p, f, s, whys
		}' "$1")"
}

# run_prog NAME LABEL COMMAND...: one top-level test from one program.
run_prog() {
	name=$1
	label=$2
	shift 2
	echo "# selftests: avc_rcu: $label"
	rc=0
	t0=$(cut -d ' ' -f 1 /proc/uptime)
	# shellcheck disable=SC2086
	$TMO "$@" >"$TMP/out" 2>&1 </dev/null || rc=$?
	sed 's/^/# /' "$TMP/out"
	echo "# selftests: avc_rcu: $label: $(awk -v a="$t0" \
		-v b="$(cut -d ' ' -f 1 /proc/uptime)" \
		'BEGIN { printf "%.1f", b - a }') s"
	count_cases "$TMP/out" "$rc"
	passed=$((passed + c_pass))
	failed=$((failed + c_fail))
	skipped=$((skipped + c_skip))
	[ -z "$c_why" ] || echo "# selftests: avc_rcu: $label: $c_why"
	[ "$c_skip" -eq 0 ] ||
		echo "# selftests: avc_rcu: $label: $c_skip skipped, not passed"
	if [ "$rc" -eq 0 ] && [ "$c_fail" -eq 0 ]; then
		top ok "$label"
	elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ] || [ "$rc" -eq 143 ]; then
		top "not ok" "$label # TIMEOUT ${TIMEOUT}s (exit $rc)"
	else
		top "not ok" "$label # exit=$rc"
	fi
	: "$name"
}

# A program that could not run: one failed case.
fail_prog() {
	echo "# selftests: avc_rcu: $1: $2"
	failed=$((failed + 1))
	top "not ok" "$1 # $2"
}

# The kernel log, less the KCSAN reports that are not avc_rcu's.
kernel_log() {
	if [ -f "$KCSAN_FILTER" ]; then
		dmesg 2>/dev/null | awk -f "$KCSAN_FILTER"
	else
		dmesg 2>/dev/null
	fi
}

kernel_bad_count() {
	kernel_log | grep -c -E -f "$TMP/bad" || true
}

# The kernel log gained no line matching a bad pattern since count $2.
check_kernel_log() {
	label=$1
	now=$(kernel_bad_count)
	if [ -n "$bad_patterns_err" ]; then
		echo "# selftests: avc_rcu: $label: $bad_patterns_err"
		failed=$((failed + 1))
		top "not ok" "$label # $bad_patterns_err"
	elif [ "$now" -gt "$2" ]; then
		echo "# selftests: avc_rcu: $label"
		kernel_log | grep -E -f "$TMP/bad" | tail -n $((now - $2)) |
			sed 's/^/# /'
		failed=$((failed + 1))
		top "not ok" "$label"
	else
		passed=$((passed + 1))
		top ok "$label"
	fi
}

unload_module() {
	# A torture test that timed out may have left its module behind.
	if [ -d /sys/module/avc_rcu_torture ]; then
		rmmod avc_rcu_torture || return 1
	fi
	if awk -v m="$MNT" '$2 == m { f = 1 } END { exit !f }' /proc/mounts
	then
		umount "$MNT" || return 1
	fi
	if [ -d /sys/module/avc_rcu ]; then
		rmmod avc_rcu || return 1
	fi
}

# load_params N: the Nth load's parameters ($LOADS), the defaults filled
# in; sets params, programs (its own, else $TESTS) and tag (the test
# names' suffix: "[MODE slots=N reclaim=P ...]", the seed left out).
load_params() {
	entry=$(echo "$LOADS" | awk -v n="$1" 'BEGIN { RS = ";" } NR == n')
	programs=$TESTS
	case $entry in
	*:*) programs=${entry#*:} entry=${entry%%:*} ;;
	esac
	eval "$(echo "$entry" | awk -v n="$1" '{
		v["sync"] = "rcu"; v["slots"] = 512; v["reclaim"] = "lru"
		v["hash_seed"] = n
		for (i = 1; i <= NF; i++) {
			k = $i; sub(/=.*/, "", k)
			if (!(k in v))
				rest = rest " " $i
			v[k] = substr($i, length(k) + 2)
		}
		printf "sync=\047%s\047 slots=\047%s\047 ", v["sync"], v["slots"]
		printf "params=\047sync=%s slots=%s reclaim=%s hash_seed=%s%s\047 ",
			v["sync"], v["slots"], v["reclaim"], v["hash_seed"], rest
		printf "tag=\047[%s slots=%s reclaim=%s%s]\047\n",
			v["sync"], v["slots"], v["reclaim"], rest
	}')"
}

# load_module PARAMS...: insmod and mount; sets setup_err on failure.
load_module() {
	setup_err=""
	# shellcheck disable=SC2068
	if ! insmod "$KO" $@ 2>"$TMP/err"; then
		setup_err="insmod $KO $* failed: $(cat "$TMP/err")"
	elif ! mount -t "$FSTYPE" "$FSTYPE" "$MNT" 2>"$TMP/err"; then
		setup_err="mount -t $FSTYPE $FSTYPE $MNT failed: $(cat "$TMP/err")"
	fi
}

# run_test NAME LABEL FRESH: one program against the loaded module; FRESH=1
# tells a C program that the module was just loaded.
run_test() {
	if [ -n "$setup_err" ]; then
		fail_prog "$2" "$setup_err"
		return
	fi
	case $1 in
	*.sh)
		if [ -f "$HERE/$1" ]; then
			run_prog "$1" "$2" sh "$HERE/$1"
		else
			fail_prog "$2" "missing"
		fi
		;;
	*)
		if [ ! -x "$HERE/$1" ]; then
			fail_prog "$2" "missing"
		elif [ "$3" -eq 1 ]; then
			run_prog "$1" "$2" env AVC_RCU_FRESH=1 "$HERE/$1"
		else
			run_prog "$1" "$2" "$HERE/$1"
		fi
		;;
	esac
}

unload_or_fail() {
	if ! unload_module 2>"$TMP/err"; then
		echo "# unloading after $1 failed: $(cat "$TMP/err")"
		failed=$((failed + 1))
		any_failed=1
	fi
}

words() {
	echo "$1" | awk '{ print NF }'
}

nloads=$(echo "$LOADS" | awk 'BEGIN { RS = ";" } NF { n = NR } END { print n + 0 }')
ncases=0
i=0
while [ $i -lt "$nloads" ]; do
	i=$((i + 1))
	load_params $i
	ncases=$((ncases + $(words "$programs") + 1))	# and its log check
done
nonce=$(words "$ONCE_TESTS")
nwrap=$(words "$WRAP_TESTS")
[ "$nwrap" -eq 0 ] || nwrap=$((nwrap + 1))	# and its kernel log check
[ "$nloads" -gt 0 ] || { nonce=0; nwrap=0; }

echo "TAP version 13"
nextra=0
[ "$UTIL_TEST" = 0 ] || nextra=$((nextra + 1))
[ "$UNLOAD_TEST" = 0 ] || nextra=$((nextra + 1))
[ "$KUNIT" = 0 ] || nextra=$((nextra + 2))	# and its kernel log check
echo "1..$((nextra + ncases + nonce + nwrap))"
echo "# avc_rcu suite: loads '$LOADS', module $KO"
echo "# kernel $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPUs online"
echo "# once: '$ONCE_TESTS'; across the seqno wrap from $WRAP_SEQNO:" \
	"'$WRAP_TESTS'; stress ${AVC_STRESS_SECONDS:-default} s," \
	"torture ${AVC_TORTURE_SECONDS:-default} s"

if [ "$UTIL_TEST" = 0 ]; then
	:
elif [ -x "$HERE/avc_util_test" ]; then
	run_prog avc_util_test avc_util_test "$HERE/avc_util_test"
else
	fail_prog avc_util_test "missing"
fi

# A report from a KUnit case's kthreads (KASAN's use after free in a
# reader, lockdep) fails no KUnit case: the kernel log is checked here,
# not only at the end of the first mode, which starts after it.
if [ "$KUNIT" != 0 ]; then
	log0=$(kernel_bad_count)
	if [ -f "$HERE/avc_kunit.sh" ]; then
		run_prog avc_kunit.sh avc_kunit.sh sh "$HERE/avc_kunit.sh"
	else
		fail_prog avc_kunit.sh "missing"
	fi
	check_kernel_log "kernel log after avc_kunit.sh" "$log0"
fi

if [ "$(id -u)" != 0 ]; then
	echo "# not root: every module test fails"
fi
unload_module || echo "# could not unload a leftover avc_rcu"

i=0
while [ $i -lt "$nloads" ]; do
	i=$((i + 1))
	load_params $i
	log0=$(kernel_bad_count)
	export AVC_RCU_SYNC="$sync" AVC_RCU_SLOTS="$slots"

	# shellcheck disable=SC2086
	load_module $params
	first=1
	tests=$programs
	[ $i -gt 1 ] || tests="$programs $ONCE_TESTS"
	for t in $tests; do
		run_test "$t" "$t $tag" $first
		first=0
	done

	unload_or_fail "$tag"
	check_kernel_log "kernel log $tag" "$log0"
done

# Across the wrap-around: each program on a module of its own whose policy
# seqno starts just below 2^32, with the first load's parameters.
if [ "$nwrap" -gt 0 ]; then
	load_params 1
	tag="${tag%]} seqno_start=$WRAP_SEQNO]"
	log0=$(kernel_bad_count)
	export AVC_RCU_SYNC="$sync" AVC_RCU_SLOTS="$slots"
	for t in $WRAP_TESTS; do
		# shellcheck disable=SC2086
		load_module $params seqno_start=$WRAP_SEQNO
		run_test "$t" "$t $tag" 1
		unload_or_fail "$t $tag"
	done
	check_kernel_log "kernel log $tag" "$log0"
fi

unset AVC_RCU_SYNC AVC_RCU_SLOTS
if [ "$UNLOAD_TEST" = 0 ]; then
	:
elif [ -f "$HERE/avc_unload.sh" ]; then
	run_prog avc_unload.sh avc_unload.sh sh "$HERE/avc_unload.sh"
else
	fail_prog avc_unload.sh "missing"
fi

echo "AVC_RCU_SUITE passed=$passed failed=$failed skipped=$skipped"
[ $failed -eq 0 ] && [ $any_failed -eq 0 ]
