#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The module an avc_rcu kselftest tests, loaded by the test and unloaded
# at its end, as the kernel's kselftest/module.sh does: sourced by the
# scripts (lib/tst.sh), run by the C programs ("sh lib/module.sh load",
# "... unload": avc_test.h).  POSIX sh, for busybox ash.
#
#   tst_module_load [PARAM...]  insmod avc_rcu.ko with $AVC_RCU_PARAMS,
#       then PARAMs (a later one wins), and mount avcrcufs at $AVC_RCU_MNT
#       (/sys/fs/avc_rcu); or skip the test (tst_skip_all WHY: "1..0 #
#       SKIP WHY", exit 4) when not root, with no module, or with avc_rcu
#       loaded already (someone's, not to be unloaded from under them)
#   tst_module_try_load [PARAM...]  the same, but 1 and $tst_module_why
#   tst_module_unload   umount and rmmod; 1 if either fails
#   tst_module_find     the module into $tst_ko: $AVC_RCU_KO, else
#       avc_rcu.ko beside the test, else the installed one (modinfo -n)
#
# AVC_RCU_LOADED=1: the module loaded and mounted already, as it is,
# loading and unloading nothing (a test run by another, with its module).

MNT=${AVC_RCU_MNT:-/sys/fs/avc_rcu}
export AVC_RCU_MNT="$MNT"
# The test's directory: the script's, or the program's that runs this.
tst_dir=$(cd "$(dirname "$0")" && pwd)
[ "${0##*/}" != module.sh ] || tst_dir=${tst_dir%/lib}

tst_skip_all() {
	[ -n "${tst_tap:-}" ] || echo "TAP version 13"
	echo "1..0 # SKIP $*"
	exit 4
}

tst_module_find() {
	tst_module_why=
	if [ "$(id -u)" != 0 ]; then
		tst_module_why="must run as root"
	elif [ -d /sys/module/avc_rcu ]; then
		tst_module_why="avc_rcu is loaded: rmmod it (each test loads its own)"
	else
		tst_ko=${AVC_RCU_KO:-$tst_dir/avc_rcu.ko}
		[ -f "$tst_ko" ] || [ -n "${AVC_RCU_KO:-}" ] ||
			tst_ko=$(modinfo -n avc_rcu 2>/dev/null) || tst_ko=
		case $tst_ko in
		'') tst_module_why="no avc_rcu.ko beside the test, none installed: set AVC_RCU_KO" ;;
		*.ko) [ -f "$tst_ko" ] || tst_module_why="no module at $tst_ko" ;;
		*) tst_module_why="$tst_ko is compressed: insmod needs a .ko (set AVC_RCU_KO)" ;;
		esac
	fi
	[ -z "$tst_module_why" ]
}

tst_module_try_load() {
	if [ "${AVC_RCU_LOADED:-0}" = 1 ]; then
		grep -q " $MNT avcrcufs " /proc/mounts && return 0
		tst_module_why="AVC_RCU_LOADED=1, but no avcrcufs at $MNT"
		return 2
	fi
	tst_module_find || return 1
	# shellcheck disable=SC2086 # lists of parameters
	insmod "$tst_ko" ${AVC_RCU_PARAMS:-} "$@" || {
		tst_module_why="insmod $tst_ko ${AVC_RCU_PARAMS:-} $* failed"
		return 2
	}
	mount -t avcrcufs avcrcufs "$MNT" || {
		tst_module_why="cannot mount avcrcufs at $MNT"
		rmmod avc_rcu
		return 2
	}
	tst_loaded=1
}

tst_module_load() {
	tst_rc=0
	tst_module_try_load "$@" || tst_rc=$?
	[ $tst_rc != 1 ] || tst_skip_all "$tst_module_why"
	[ $tst_rc = 0 ] || { echo "Bail out! $tst_module_why"; exit 1; }
}

tst_module_unload() {
	[ "${AVC_RCU_LOADED:-0}" != 1 ] || return 0
	if grep -q " $MNT avcrcufs " /proc/mounts; then
		umount "$MNT" || return 1
	fi
	[ ! -d /sys/module/avc_rcu ] || rmmod avc_rcu
}

# Run, not sourced: the C programs' entry points.
if [ "${0##*/}" = module.sh ]; then
	case ${1:-} in
	load) tst_module_load ;;
	unload) tst_module_unload ;;
	*) echo "usage: sh $0 load | unload" >&2; exit 2 ;;
	esac
fi
