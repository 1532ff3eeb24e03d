#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The module an avc_rcu kselftest runs against: each test loads its own,
# as the kernel's kselftest/module.sh does, and unloads it at its end.
# Sourced by the scripts (POSIX sh: busybox ash in the guests); the C
# programs run it, "sh lib/module.sh load" and "... unload" (avc_test.h).
#
#   tst_module_load [PARAM...]
#       insmod avc_rcu.ko with $AVC_RCU_PARAMS then PARAMs (a later one
#       wins), mount avcrcufs at $AVC_RCU_MNT (/sys/fs/avc_rcu).  The
#       test is skipped (TAP "1..0 # SKIP", exit 4) when not root, when
#       no module is found, or when avc_rcu is loaded already: a module
#       someone is using is not unloaded from under them.
#   tst_module_try_load [PARAM...]
#       the same, but returns 1 with the reason in $tst_module_why
#       instead of skipping (a test with cases that need no module).
#   tst_module_unload
#       umount and rmmod; 1 with the reason on stderr if either fails.
#
# The module: $AVC_RCU_KO, else avc_rcu.ko beside the test, else the one
# installed for the running kernel (modinfo -n avc_rcu; tst_module_find
# names it, for a test that loads it itself).  AVC_RCU_LOADED=1:
# the one loaded and mounted already, as it is, loading and unloading
# nothing (a test run by another test, with the module it set up).

MNT=${AVC_RCU_MNT:-/sys/fs/avc_rcu}
export AVC_RCU_MNT="$MNT"
# The test's directory: the script's, or the program's that runs this.
tst_dir=$(cd "$(dirname "$0")" && pwd)
[ "${0##*/}" != module.sh ] || tst_dir=${tst_dir%/lib}

# tst_module_find: the module file into $tst_ko; 1, with the reason in
# $tst_module_why, if the test cannot load one.
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
}

tst_module_load() {
	tst_rc=0
	tst_module_try_load "$@" || tst_rc=$?
	case $tst_rc in
	0) return 0 ;;
	1)
		echo "TAP version 13"
		echo "1..0 # SKIP $tst_module_why"
		exit 4
		;;
	esac
	echo "Bail out! $tst_module_why"
	exit 1
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
