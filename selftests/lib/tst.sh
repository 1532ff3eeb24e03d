#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What the shell kselftests share, sourced first by each (POSIX sh, for
# busybox ash): it prints "TAP version 13", sources lib/module.sh, sets
# TOOL (AVC_TOOL, else avc_tool beside the test) and TMP (a scratch
# directory), and at exit runs the test's cleanup(), removes TMP and
# unloads the module the test loaded (exit 1 if that fails).
#
#   ok DESC, not_ok DESC, skip DESC [WHY], diag TEXT: TAP lines ($n: the
#                       last case's number, $failed: the failed cases)
#   check DESC CMD...   a case from CMD's status, its output shown if not 0
#   addwhy TEXT         a reason more in $why, the current case's failures
#   verdict DESC        a case from $why: ok if empty, else not ok with the
#                       reasons shown; $why is emptied for the next case
#   tst_state [FILE]    `avc_tool state` into FILE ($TMP/state), its values
#                       into st_seqno, st_entries, ... (1 if it fails)
#   tst_now, tst_since T0   seconds since boot; since T0, to a hundredth

. "$(dirname "$0")/lib/module.sh"
echo "TAP version 13"
tst_tap=1
TOOL=${AVC_TOOL:-$tst_dir/avc_tool}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/${0##*/}.XXXXXX")
n=0
failed=0
why=

ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP ${2:-}"; }
diag() { echo "# $*"; }

check() {
	tst_desc=$1
	shift
	if "$@" >"$TMP/out" 2>&1; then
		ok "$tst_desc"
	else
		sed 's/^/# /' "$TMP/out"
		not_ok "$tst_desc"
	fi
}

addwhy() { why="${why:+$why; }$*"; }

verdict() {
	if [ -z "$why" ]; then
		ok "$1"
	else
		diag "$why"
		not_ok "$1"
	fi
	why=
}

tst_state() {
	"$TOOL" state >"${1:-$TMP/state}" 2>&1 &&
		eval "$(sed 's/\([a-z]*\)=/st_\1=/g' "${1:-$TMP/state}")"
}

tst_now() { cut -d ' ' -f 1 /proc/uptime; }

tst_since() { awk -v a="$1" -v b="$(tst_now)" 'BEGIN { printf "%.2f", b - a }'; }

cleanup() { :; }

tst_exit() {
	cleanup || :
	rm -rf "$TMP"
	[ -z "${tst_loaded:-}" ] || tst_module_unload || exit 1
}
trap tst_exit EXIT
