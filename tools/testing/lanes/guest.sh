#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A lane's plan in its guest (busybox ash), staged by lanes/run: for each
# "PARAMS : TEST..." line the kernel's run_kselftest.sh with
# AVC_RCU_PARAMS=PARAMS, then the kernel log since scanned with
# selftests/lib/bad-patterns and nothing of avc_rcu left loaded;
# "check kmemleak" and "check kcsan" lines, the debug kernels' checks
# (README).  Exits 1 if anything failed (the host counts the cases);
# --stop-on-fail stops at the first test that fails.
#
#   sh guest.sh [--stop-on-fail] PLAN

KSFT=/avc_rcu/selftests
LIB=$KSFT/avc_rcu/lib
KMEMLEAK=/sys/kernel/debug/kmemleak
KCSAN=/sys/kernel/debug/kcsan
export AVC_RCU_KO=/avc_rcu/avc_rcu.ko

stop=0
[ "${1:-}" != --stop-on-fail ] || { stop=1; shift; }
plan=$1
rc=0
n=0
leaks=0
kcsan=

# The kernel log, less the KCSAN reports that are not avc_rcu's.
klog() {
	dmesg | awk -f "$LIB/kcsan-filter.awk"
}

grep -v -e '^#' -e '^$' "$LIB/bad-patterns" >/tmp/bad-patterns
[ "$(printf '%s\n' 'WARNING: CPU: 0 PID: 1 at x' 'avc_rcu: loaded' |
	grep -c -E -f /tmp/bad-patterns)" = 1 ] ||
	{ echo "not ok - $LIB/bad-patterns does not load"; exit 1; }

while read -r params; do
	case $params in
	'' | '#'*) continue ;;
	'check kmemleak')
		echo scan >"$KMEMLEAK" && echo clear >"$KMEMLEAK" && leaks=1 ||
			{ echo "not ok - kmemleak: no $KMEMLEAK"; rc=1; }
		continue
		;;
	'check kcsan')
		if ! dmesg | grep -q 'kcsan: selftest: \([0-9]*\)/\1 tests passed' ||
			! grep -q '^enabled: 1$' "$KCSAN"; then
			echo "not ok - KCSAN: boot self-test passed, enabled"
			rc=1
		fi
		kcsan=$(sed -n 's/^setup_watchpoints: //p' "$KCSAN")
		kcsan=${kcsan:-0}
		continue
		;;
	esac
	n=$((n + 1))
	tests=
	for t in ${params#*:}; do
		tests="$tests -t avc_rcu:$t"
	done
	params=$(echo ${params%%:*})
	echo "# run $n: AVC_RCU_PARAMS='$params'"
	bad0=$(klog | grep -c -E -f /tmp/bad-patterns)
	# With --stop-on-fail (make mutate), one test a runner, up to the
	# first that fails.
	[ "$stop" -eq 0 ] || tests=$(echo $tests | sed 's/ -t /\n-t /g')
	rm -f /tmp/failed
	echo "$tests" | while read -r t; do
		# shellcheck disable=SC2086 # a list of options
		AVC_RCU_PARAMS=$params sh $KSFT/run_kselftest.sh $t |
			tee /tmp/run.tap
		! grep -q '^not ok' /tmp/run.tap || { touch /tmp/failed; break; }
	done
	[ ! -e /tmp/failed ] || rc=1
	bad=$(klog | grep -c -E -f /tmp/bad-patterns)
	if [ "$bad" -gt "$bad0" ]; then
		klog | grep -E -f /tmp/bad-patterns | tail -n $((bad - bad0)) |
			sed 's/^/# /'
		echo "not ok - kernel log after run $n"
		rc=1
	else
		echo "ok - kernel log after run $n"
	fi
	if [ -d /sys/module/avc_rcu ]; then
		echo "not ok - run $n left avc_rcu loaded"
		rmmod avc_rcu_torture 2>/dev/null
		umount /sys/fs/avc_rcu 2>/dev/null
		rmmod avc_rcu
		rc=1
	fi
	[ "$rc" -eq 0 ] || [ "$stop" -eq 0 ] || exit 1
done <"$plan"

if [ -n "$kcsan" ]; then
	w=$(sed -n 's/^setup_watchpoints: //p' "$KCSAN")
	if [ "$w" -gt "$kcsan" ]; then
		echo "ok - KCSAN: $((w - kcsan)) watchpoints set up during the runs"
	else
		echo "not ok - KCSAN: no watchpoint set up during the runs"
		rc=1
	fi
fi
if [ "$leaks" -eq 1 ]; then
	# Objects younger than 5 s are never reported; the module's last
	# frees are RCU callbacks, done by now (rmmod ran rcu_barrier()).
	sleep 6
	echo scan >"$KMEMLEAK"
	echo scan >"$KMEMLEAK"
	leaked=$(grep -c '^unreferenced object' "$KMEMLEAK")
	if [ "$leaked" -gt 0 ]; then
		sed 's/^/# /' "$KMEMLEAK"
		echo "not ok - kmemleak: $leaked unreferenced objects"
		rc=1
	else
		echo "ok - kmemleak: no unreferenced object"
	fi
fi
exit "$rc"
