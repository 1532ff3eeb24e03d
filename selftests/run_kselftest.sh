#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run the avc_rcu kselftests on a test machine, as the kernel's
# run_kselftest.sh and kselftest/runner.sh do, for a tree without them:
# make -C selftests run_tests calls it in the source tree, and
# make -C selftests install INSTALL_PATH=DIR puts it in DIR with the tests.
#
# Prints TAP version 13, the plan, and for each test its output as "# "
# lines and one line
#
#     ok N selftests: avc_rcu: NAME [# SKIP]
#     not ok N selftests: avc_rcu: NAME # exit=RC | # TIMEOUT S seconds
#
# (exit status 4 is a skip).  Each test is killed after the timeout= of
# the "settings" file next to this script (kselftest's format; 45 s if
# none), or AVC_KSFT_TIMEOUT seconds.  Exits 1 if any test failed.
#
#   run_kselftest.sh [-l] [-t avc_rcu:TEST]... [-c avc_rcu]... [TEST ...]
#
# As the kernel's runner: -l lists the tests as "avc_rcu:NAME", and each
# line it prints is accepted back by -t; -t COLLECTION:TEST runs one test
# (repeatable), -c COLLECTION all of a collection's.  Without a TEST, -t or
# -c: every test listed in kselftest-list.txt next to this script
# ("avc_rcu:NAME" lines, written by make install).  A test of another
# collection is refused (exit 2); an unknown test of this one is reported
# "not ok N ... # missing", as the kernel's runner reports a missing file.

set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
COLLECTION=avc_rcu
KSFT_SKIP=4

usage() {
	echo "usage: $0 [-l] [-t $COLLECTION:TEST]... [-c $COLLECTION]... [TEST ...]" >&2
	exit 2
}

# all: every test of the list file (or, in the source tree without one,
# tests.mk's KSFT_PROGS and KSFT_SCRIPTS, the entries make emit_tests
# lists).
all() {
	if [ -f "$HERE/kselftest-list.txt" ]; then
		sed -n "s/^$COLLECTION://p" "$HERE/kselftest-list.txt"
	elif [ -f "$HERE/tests.mk" ]; then
		awk '/\\$/ { sub(/\\$/, ""); line = line $0; next }
		     { line = line $0 }
		     line ~ /^KSFT_(PROGS|SCRIPTS) *:=/ {
			sub(/^[^=]*= */, "", line); n = split(line, w, /[ \t]+/)
			for (i = 1; i <= n; i++) if (w[i] != "") print w[i]
		     }
		     { line = "" }' "$HERE/tests.mk"
	fi
}

list=0
tests=
while getopts lt:c:h opt; do
	case $opt in
	l) list=1 ;;
	t)
		case $OPTARG in
		"$COLLECTION":?*) tests="$tests ${OPTARG#"$COLLECTION":}" ;;
		*)
			echo "$0: -t $OPTARG: not a test of $COLLECTION (COLLECTION:TEST)" >&2
			exit 2
			;;
		esac
		;;
	c)
		[ "$OPTARG" = "$COLLECTION" ] || {
			echo "$0: -c $OPTARG: no such collection (only $COLLECTION)" >&2
			exit 2
		}
		tests="$tests $(all | tr '\n' ' ')"
		;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
# shellcheck disable=SC2086
set -- $tests "$@"
if [ $# -eq 0 ]; then
	# shellcheck disable=SC2046
	set -- $(all)
	if [ $# -eq 0 ]; then
		echo "$0: no TEST given and no $HERE/kselftest-list.txt" >&2
		exit 2
	fi
fi
for t; do
	case $t in
	*/* | .* | "")
		echo "$0: $t: not a test name" >&2
		exit 2
		;;
	esac
done
if [ $list -eq 1 ]; then
	for t; do
		echo "$COLLECTION:$t"
	done
	exit 0
fi

timeout=45
if [ -f "$HERE/settings" ]; then
	t=$(sed -n 's/^timeout=\([0-9][0-9]*\)$/\1/p' "$HERE/settings")
	[ -z "$t" ] || timeout=$t
fi
timeout=${AVC_KSFT_TIMEOUT:-$timeout}
tmo=
if command -v timeout >/dev/null 2>&1 && [ "$timeout" -gt 0 ]; then
	tmo="timeout -k 10 $timeout"
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/avc_ksft.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

echo "TAP version 13"
echo "1..$#"
echo "# timeout set to $timeout"
n=0
failed=0
for t; do
	n=$((n + 1))
	echo "# selftests: $COLLECTION: $t"
	if [ ! -x "$HERE/$t" ]; then
		echo "# Warning: file $t is missing or not executable"
		echo "not ok $n selftests: $COLLECTION: $t # missing"
		failed=1
		continue
	fi
	rc=0
	# The output, nested as kselftest does; the status survives the pipe
	# in a file, since sh has no pipefail.
	rm -f "$TMP/rc"
	{ (cd "$HERE" && $tmo "./$t" </dev/null 2>&1; echo $? >"$TMP/rc") |
		sed 's/^/# /'; } || true
	rc=$(cat "$TMP/rc" 2>/dev/null || echo 1)
	if [ "$rc" -eq 0 ]; then
		echo "ok $n selftests: $COLLECTION: $t"
	elif [ "$rc" -eq $KSFT_SKIP ]; then
		echo "ok $n selftests: $COLLECTION: $t # SKIP"
	elif [ "$rc" -eq 124 ]; then
		echo "not ok $n selftests: $COLLECTION: $t # TIMEOUT $timeout seconds"
		failed=1
	else
		echo "not ok $n selftests: $COLLECTION: $t # exit=$rc"
		failed=1
	fi
done
[ $failed -eq 0 ]
