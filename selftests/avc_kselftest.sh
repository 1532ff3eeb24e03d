#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# One avc_rcu kselftest on a test machine: what each test of tests.mk's
# KSFT_NAMES runs when kselftest (or anyone) runs it outside
# run_vm_suite.sh, which sets AVC_RCU_IN_SUITE: the test hands itself over
# (exec avc_kselftest.sh NAME).  kselftest's conventions: TAP on stdout,
# exit 0 pass, 1 fail, 4 skip.
#
# Skips (exit 4) when not root, when no avc_rcu.ko is found, and when
# avc_rcu is already loaded (a module someone is using is not unloaded
# from under them).  Otherwise runs NAME through run_vm_suite.sh, the
# runner the QEMU guests use: it loads the module in each sync mode,
# mounts avcrcufs, runs NAME, unmounts, unloads and checks the kernel log.
# avc_unload.sh, which loads and unloads the module itself, runs alone;
# avc_util_test needs no module and runs anywhere.
#
# Nothing is written outside a temporary directory unless asked: the
# autoload case of avc_unload.sh stages the module into /lib/modules and
# runs depmod only with AVC_RCU_ALLOW_DEPMOD=1 (or when the module is
# installed there already, e.g. by make install; then it writes nothing).
#
# The module: $AVC_RCU_KO, else avc_rcu.ko next to this script, else
# ../avc_rcu.ko (the source tree), else the installed one (modinfo -n).
# avcstat: $AVCSTAT, else avcstat next to this script, else
# ../tools/avcstat/avcstat.  Every variable of run_vm_suite.sh applies
# (AVC_RCU_LOADS, AVC_STRESS_SECONDS, ...).
#
#   avc_kselftest.sh NAME

set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
KSFT_SKIP=4

if [ $# -ne 1 ]; then
	echo "usage: $0 NAME" >&2
	exit 2
fi
name=$1

skip() {
	echo "TAP version 13"
	echo "1..0 # SKIP $name: $*"
	exit $KSFT_SKIP
}

if [ "$name" = avc_util_test ]; then
	AVC_RCU_IN_SUITE=1 exec "$HERE/avc_util_test"
fi

[ "$(id -u)" = 0 ] || skip "must run as root"

if [ -n "${AVC_RCU_KO:-}" ]; then
	ko=$AVC_RCU_KO
	[ -f "$ko" ] || skip "no module at AVC_RCU_KO=$ko"
elif [ -f "$HERE/avc_rcu.ko" ]; then
	ko=$HERE/avc_rcu.ko
elif [ -f "$HERE/../avc_rcu.ko" ]; then
	ko=$(cd "$HERE/.." && pwd)/avc_rcu.ko
elif ko=$(modinfo -n avc_rcu 2>/dev/null) && [ -f "$ko" ]; then
	:
else
	skip "no avc_rcu.ko (build it, install it or set AVC_RCU_KO)"
fi
case $ko in
*.ko) ;;
*) skip "$ko is compressed: insmod needs the plain .ko (set AVC_RCU_KO)" ;;
esac
[ ! -d /sys/module/avc_rcu ] ||
	skip "avc_rcu is loaded: unload it to run the tests"

if [ -z "${AVCSTAT:-}" ]; then
	for c in "$HERE/avcstat" "$HERE/../tools/avcstat/avcstat"; do
		if [ -x "$c" ]; then
			AVCSTAT=$(cd "$(dirname "$c")" && pwd)/avcstat
			break
		fi
	done
fi
if [ "$name" = avcstat_test.sh ] && [ -z "${AVCSTAT:-}" ]; then
	skip "no avcstat built (make -C tools/avcstat) and AVCSTAT unset"
fi

if [ "$name" = avc_torture.sh ] && [ -z "${AVC_RCU_TORTURE_KO:-}" ]; then
	for c in "$HERE/avc_rcu_torture.ko" "$HERE/torture/avc_rcu_torture.ko"; do
		if [ -f "$c" ]; then
			AVC_RCU_TORTURE_KO=$c
			export AVC_RCU_TORTURE_KO
			break
		fi
	done
	[ -n "${AVC_RCU_TORTURE_KO:-}" ] ||
		skip "no avc_rcu_torture.ko (make selftests KDIR=... after make)"
fi

export AVC_RCU_KO="$ko" AVCSTAT="${AVCSTAT:-}"
export AVC_RCU_ALLOW_DEPMOD="${AVC_RCU_ALLOW_DEPMOD:-0}"

case $name in
avc_unload.sh)
	AVC_RCU_IN_SUITE=1 exec sh "$HERE/avc_unload.sh"
	;;
avc_memory | avc_tracepoints.sh)
	export AVC_RCU_TESTS="" AVC_RCU_ONCE_TESTS="$name" \
		AVC_RCU_WRAP_TESTS="" AVC_RCU_LOADS="${AVC_RCU_LOADS:-sync=rcu}"
	;;
avc_wrap)
	export AVC_RCU_TESTS="" AVC_RCU_ONCE_TESTS="" \
		AVC_RCU_WRAP_TESTS="$name" AVC_RCU_LOADS="${AVC_RCU_LOADS:-sync=rcu}"
	;;
*)
	export AVC_RCU_TESTS="$name" AVC_RCU_ONCE_TESTS="" \
		AVC_RCU_WRAP_TESTS=""
	;;
esac
export AVC_RCU_UTIL_TEST=0 AVC_RCU_UNLOAD_TEST=0
exec sh "$HERE/run_vm_suite.sh"
