#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# In a guest on the debug kernel (busybox ash), staged by run-suite as
# /avc_rcu/guest-suite.sh: run the kselftest suite, then look for leaks.
#
# kmemleak: the leaks boot left behind are forgotten first (scan, clear);
# after the suite, which unloaded the module, two scans, and any object
# still unreferenced fails the run. Its report goes to the output and a
# warning to the kernel log, where tools/testing/vm/run finds it.
#
#   sh guest-suite.sh [SUITE [ARGS...]]   (default selftests/run_vm_suite.sh)

set -u

KMEMLEAK=/sys/kernel/debug/kmemleak
HERE=$(cd "$(dirname "$0")" && pwd)

[ $# -gt 0 ] || set -- "$HERE/selftests/run_vm_suite.sh"

leak_check=0
if [ -w "$KMEMLEAK" ]; then
	echo "# kmemleak: forgetting what boot left"
	echo scan >"$KMEMLEAK" && echo clear >"$KMEMLEAK" && leak_check=1
else
	echo "# kmemleak: $KMEMLEAK not there: no leak check"
fi

rc=0
sh "$@" || rc=$?

if [ "$leak_check" -eq 1 ]; then
	# Objects younger than 5 s are never reported; the module's last
	# frees are RCU callbacks, done by now (rmmod ran rcu_barrier()).
	sleep 6
	echo scan >"$KMEMLEAK"
	echo scan >"$KMEMLEAK"
	n=$(grep -c '^unreferenced object' "$KMEMLEAK")
	if [ "$n" -gt 0 ]; then
		echo "not ok - kmemleak: $n unreferenced objects"
		sed 's/^/# /' "$KMEMLEAK"
		echo "<4>avc_rcu debug suite: kmemleak: $n unreferenced objects" \
			>/dev/kmsg
		rc=1
	else
		echo "ok - kmemleak: no unreferenced object"
	fi
fi
exit "$rc"
