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
#   run_kselftest.sh [-l] [TEST ...]
#
# Without TESTs, those listed in kselftest-list.txt next to this script
# ("avc_rcu:NAME" lines, written by make install).  -l lists them.

set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
COLLECTION=avc_rcu
KSFT_SKIP=4

list=0
if [ "${1:-}" = -l ]; then
	list=1
	shift
fi
if [ $# -eq 0 ]; then
	if [ ! -f "$HERE/kselftest-list.txt" ]; then
		echo "$0: no TEST given and no $HERE/kselftest-list.txt" >&2
		exit 2
	fi
	set -- $(sed -n "s/^$COLLECTION://p" "$HERE/kselftest-list.txt")
fi
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
