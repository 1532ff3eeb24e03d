#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# avc_rcu_kunit.ko's KUnit suites (avc/cache_kunit.c, avc/ss/ss_kunit.c,
# selinuxfs/threshold_kunit.c), run by its insmod, on a kernel with
# KUnit's debugfs results (the debug kernel; elsewhere a skip): a case per
# KUnit case, SUITE.CASE, the plan last.  A failed load, an expected suite
# that did not run, a suite of ours not expected, a suite with fewer or
# more case results than its plan (KUnit keeps 512 bytes of log a case:
# a case with many failures can lose its result line), and a failed case
# each fail.  AVC_RCU_KUNIT_KO: the module (avc_rcu_kunit.ko beside this).

set -u

. "$(dirname "$0")/lib/tst.sh"
KO=${AVC_RCU_KUNIT_KO:-$tst_dir/avc_rcu_kunit.ko}
DBG=/sys/kernel/debug
# The suites the module defines, each of which must have run.
SUITES="avc_rcu_evict avc_rcu_insert avc_rcu_order avc_rcu_resize avc_rcu_ss avc_rcu_threshold"

bail() {
	not_ok "$1"
	echo "1..$n"
	exit 1
}

grep -q " $DBG debugfs " /proc/mounts ||
	mount -t debugfs none "$DBG" 2>/dev/null || true
[ "$(id -u)" = 0 ] && [ -d "$DBG/kunit" ] ||
	tst_skip_all "not root, or a kernel without KUnit's debugfs results"
[ -f "$KO" ] || bail "no $KO (Kbuild builds it for a kernel with KUnit)"
[ ! -d /sys/module/avc_rcu_kunit ] || rmmod avc_rcu_kunit ||
	bail "a leftover avc_rcu_kunit would not unload"

t0=$(tst_now)
insmod "$KO" 2>"$TMP/err" || bail "insmod $KO: $(cat "$TMP/err")"
diag "insmod ran the suites in $(tst_since "$t0") s"

# Every suite of ours that ran, and every expected one, ran or not.
found=$(cd "$DBG/kunit" && for d in avc_rcu_*; do [ -d "$d" ] && echo "$d"; done)
# shellcheck disable=SC2086
for suite in $(printf '%s\n' $SUITES $found | sort -u); do
	case " $SUITES " in
	*" $suite "*) ;;
	*) not_ok "$suite: a suite this script does not expect (add it)" ;;
	esac
	res=$DBG/kunit/$suite/results
	if ! cat "$res" >"$TMP/res" 2>/dev/null; then
		not_ok "$suite: did not run (no $res)"
		continue
	fi
	# Case lines are indented once (four spaces); a parameterised case's
	# parameters, deeper, are not cases of their own.
	awk -v suite="$suite" '
		/^    1\.\.[0-9]+$/ { plan = substr($1, 4) + 0 }
		/^    (not )?ok [0-9]+ / {
			bad = $1 == "not"
			printf "%s %s.%s\n",
				bad ? "F" : ($0 ~ /# SKIP/ ? "S" : "P"),
				suite, bad ? $4 : $3
			cases++
		}
		END {
			if (!(plan > 0 && plan == cases))
				printf "X %d case results for a plan of %d\n", cases, plan
		}' "$TMP/res" >"$TMP/cases"
	while read -r what name; do
		case $what in
		P) ok "$name" ;;
		S) skip "$name" "skipped by KUnit" ;;
		F) not_ok "$name" ;;
		X) not_ok "$suite: $name" ;;
		esac
	done <"$TMP/cases"
	# The whole KTAP of a suite with a failure, expectations and all.
	! grep -q '^    not ok\|EXPECTATION FAILED\|ASSERTION FAILED' "$TMP/res" ||
		sed 's/^/# /' "$TMP/res"
done

rmmod avc_rcu_kunit || not_ok "rmmod avc_rcu_kunit"
[ ! -d /sys/module/avc_rcu_kunit ] || not_ok "avc_rcu_kunit still loaded"
echo "1..$n"
[ "$failed" -eq 0 ]
