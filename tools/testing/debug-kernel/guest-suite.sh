#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# In a guest on the debug kernel or the KCSAN kernel (busybox ash), staged
# by run-suite as /avc_rcu/guest-suite.sh: run the kselftest suite, then
# look for leaks (debug) or make sure the race detector was at work
# (KCSAN).
#
# kmemleak: the leaks boot left behind are forgotten first (scan, clear);
# after the suite, which unloaded the module, two scans, and any object
# still unreferenced fails the run. Its report goes to the output and a
# warning to the kernel log, where tools/testing/vm/run finds it.
#
# KCSAN: its boot self-test must have passed and it must be enabled
# before the suite, and it must have set up watchpoints during it (else
# the suite ran uninstrumented and proved nothing); its counters are
# printed.  Its reports go to the kernel log, where tools/testing/vm/run
# fails the run on any that has a frame in avc_rcu's modules.
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

KCSAN=/sys/kernel/debug/kcsan
kcsan_check=0
if [ -r "$KCSAN" ]; then
	kcsan_check=1
	if ! dmesg | grep -q 'kcsan: selftest: \([0-9]*\)/\1 tests passed'; then
		echo "not ok - KCSAN: its boot self-test did not pass"
		dmesg | grep 'kcsan:' | sed 's/^/# /'
		exit 1
	fi
	if ! grep -q '^enabled: 1$' "$KCSAN"; then
		echo "not ok - KCSAN is not enabled"
		exit 1
	fi
	w0=$(sed -n 's/^setup_watchpoints: //p' "$KCSAN")
	echo "# KCSAN: self-test passed, enabled, $w0 watchpoints set up in boot"
fi

rc=0
sh "$@" || rc=$?

if [ "$kcsan_check" -eq 1 ]; then
	w1=$(sed -n 's/^setup_watchpoints: //p' "$KCSAN")
	sed -n '/^[a-z_]*: [0-9-]*$/s/^/# KCSAN /p' "$KCSAN"
	if [ "$w1" -gt "$w0" ]; then
		echo "ok - KCSAN: $((w1 - w0)) watchpoints set up during the suite"
	else
		echo "not ok - KCSAN: no watchpoint set up during the suite"
		rc=1
	fi
fi

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
