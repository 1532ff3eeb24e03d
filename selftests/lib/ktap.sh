#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# TAP 13 helpers for the shell selftests, sourced by each (POSIX sh, for
# busybox ash in the guests).  The caller prints the version and plan.
#
#   ok DESC            a passed test case
#   not_ok DESC        a failed one ($failed counts them)
#   skip DESC [WHY]    a skipped one ("ok ... # SKIP"), counted as skipped
#   diag TEXT          a diagnostic line
#
# $n is the number of the last test case.

n=0
failed=0

ok() {
	n=$((n + 1))
	echo "ok $n - $*"
}

not_ok() {
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n - $*"
}

skip() {
	n=$((n + 1))
	echo "ok $n - $1 # SKIP ${2:-}"
}

diag() {
	echo "# $*"
}
