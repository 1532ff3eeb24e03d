#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# avc_rcu_kunit.ko's KUnit suites (avc/cache_kunit.c, avc/ss/ss_kunit.c,
# selinuxfs/threshold_kunit.c) as TAP, on a kernel with KUnit and its
# debugfs results (the debug kernel; elsewhere it skips).  Runs as root
# (busybox ash in the guests); prints TAP version 13 with one case per KUnit test case, named
# SUITE.CASE, and the plan last (the number of cases is known once the
# suites have run).
#
# The suites run while insmod loads the module; each one's KTAP is then
# read from /sys/kernel/debug/kunit/SUITE/results, and the module is
# removed.  A failed load, an expected suite that did not run, a suite of
# ours not expected here, a suite whose case results are fewer or more
# than its plan (KUnit keeps 512 bytes of log a case: a case with many
# failures can lose its result line), and a failed case each fail.
#
# Environment: AVC_RCU_KUNIT_KO (default avc_rcu_kunit.ko next to this
# script).

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
KO=${AVC_RCU_KUNIT_KO:-$HERE/avc_rcu_kunit.ko}
DBG=/sys/kernel/debug
# The suites the module defines, each of which must have run.
SUITES="avc_rcu_evict avc_rcu_insert avc_rcu_order avc_rcu_ss avc_rcu_threshold"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/avc_kunit.XXXXXX")

# shellcheck source=selftests/lib/ktap.sh
. "$HERE/lib/ktap.sh"

trap 'rm -rf "$TMP"' EXIT

bail() {
	not_ok "$1"
	echo "1..$n"
	exit 1
}

echo "TAP version 13"
grep -q " $DBG debugfs " /proc/mounts ||
	mount -t debugfs none "$DBG" 2>/dev/null || true
if [ "$(id -u)" != 0 ] || [ ! -d "$DBG/kunit" ]; then
	echo "1..0 # SKIP not root, or a kernel without KUnit's debugfs results"
	exit 4
fi
[ -f "$KO" ] || bail "no $KO (Kbuild builds it for a kernel with KUnit)"
if [ -d /sys/module/avc_rcu_kunit ]; then
	rmmod avc_rcu_kunit || bail "a leftover avc_rcu_kunit would not unload"
fi

t0=$(cut -d ' ' -f 1 /proc/uptime)
insmod "$KO" 2>"$TMP/err" || bail "insmod $KO: $(cat "$TMP/err")"
diag "insmod ran the suites in $(awk -v a="$t0" \
	-v b="$(cut -d ' ' -f 1 /proc/uptime)" 'BEGIN { printf "%.1f", b - a }') s"

# Every suite of ours that ran, and every expected one, ran or not.
found=$(cd "$DBG/kunit" && for d in avc_rcu_*; do
	[ -d "$d" ] && echo "$d"
done)
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
		END { printf "N %d %d\n", plan, cases }' "$TMP/res" >"$TMP/cases"
	while read -r what name; do
		case $what in
		P) ok "$name" ;;
		S) skip "$name" "skipped by KUnit" ;;
		F) not_ok "$name" ;;
		N)
			# shellcheck disable=SC2086
			set -- $name
			[ "$1" -gt 0 ] && [ "$1" -eq "$2" ] ||
				not_ok "$suite: $2 case results for a plan of $1"
			;;
		esac
	done <"$TMP/cases"
	# The whole KTAP of a suite with a failure, expectations and all.
	if grep -q '^    not ok\|EXPECTATION FAILED\|ASSERTION FAILED' \
		"$TMP/res"; then
		sed 's/^/# /' "$TMP/res"
	fi
done

rmmod avc_rcu_kunit || not_ok "rmmod avc_rcu_kunit"
[ ! -d /sys/module/avc_rcu_kunit ] || not_ok "avc_rcu_kunit still loaded"
echo "1..$n"
[ "$failed" -eq 0 ]
