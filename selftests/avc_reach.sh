#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The reclaim's reach: one reclaim visits at most AVC_RCU_RECLAIM_SCAN
# (512) buckets, each at most twice with reclaim=lru, whatever the number
# of slots.  Runs as root in the guest (busybox ash) with avc_rcu loaded
# and avcrcufs mounted, in any mode; prints TAP version 13.
#
# It reloads avc_rcu with the sync mode, reclaim policy and hash seed of
# the module it found, but 65536 slots, sets cache_threshold to 16 (a
# table 4096 times larger than the cache: most buckets a reclaim passes
# are empty), records the avc_rcu_reclaim and avc_rcu_insert events in
# tracefs while AVC_REACH_KEYS (default 1500) fresh keys go through the
# access file, then puts back the module it found (same parameters,
# mounted again; its policy and statistics start afresh).
#
#  1. every reclaim visited at most 512 buckets (1024 with lru) and
#     evicted at most a chunk, and there were reclaims;
#  2. quiescent afterwards, hash_stats counts at most 16 entries, as many
#     as allocations - frees.
#
# The inserts the reclaim could not make room for (avc_rcu_insert
# result=full: the reach held nothing to evict) are counted in a
# diagnostic, not checked: at this density most are.
#
# Environment: AVC_RCU_KO (default /avc_rcu/avc_rcu.ko), AVC_RCU_MNT,
# AVC_TOOL (default: avc_tool next to this script), AVC_RCU_TRACEFS
# (default /sys/kernel/tracing), AVC_REACH_KEYS.

set -eu

# A kselftest entry: run by kselftest (or by hand), not by run_vm_suite.sh,
# it hands itself to avc_kselftest.sh, which loads the module for it.
[ -n "${AVC_RCU_IN_SUITE:-}" ] ||
	exec sh "$(dirname "$0")/avc_kselftest.sh" "$(basename "$0")"

KO=${AVC_RCU_KO:-/avc_rcu/avc_rcu.ko}
MNT=${AVC_RCU_MNT:-/sys/fs/avc_rcu}
HERE=$(cd "$(dirname "$0")" && pwd)
TOOL=${AVC_TOOL:-$HERE/avc_tool}
T=${AVC_RCU_TRACEFS:-/sys/kernel/tracing}
KEYS=${AVC_REACH_KEYS:-1500}
P=/sys/module/avc_rcu/parameters
SLOTS=65536
THR=16
TMP=$(mktemp -d "${TMPDIR:-/tmp}/avc_reach.XXXXXX")
export AVC_RCU_MNT="$MNT"

# shellcheck source=selftests/lib/ktap.sh
. "$HERE/lib/ktap.sh"

echo "TAP version 13"
if [ "$(id -u)" -ne 0 ]; then
	echo "1..0 # SKIP not root"
	exit 4
fi
if [ ! -d $P ]; then
	echo "1..0 # SKIP avc_rcu is not loaded"
	exit 4
fi
[ -f "$T/trace" ] || mount -t tracefs nodev "$T" 2>/dev/null || true
if [ ! -d "$T/events/avc_rcu/avc_rcu_reclaim" ]; then
	echo "1..0 # SKIP no avc_rcu events in tracefs"
	exit 4
fi
echo "1..2"

# The module as found, to put back.
args=
for p in slots sync reclaim hash_seed seqno_start access_unprivileged; do
	[ -f "$P/$p" ] || continue
	v=$(cat "$P/$p")
	case $v in
	Y) v=1 ;;
	N) v=0 ;;
	esac
	args="$args $p=$v"
done
sync=$(cat $P/sync)
reclaim=$(cat $P/reclaim)
seed=$(cat $P/hash_seed)

reload() {
	umount "$MNT" && rmmod avc_rcu &&
		# shellcheck disable=SC2086 # a list of parameters
		insmod "$KO" $1 && mount -t avcrcufs avcrcufs "$MNT"
}

restore() {
	echo 0 >"$T/events/avc_rcu/enable" 2>/dev/null || true
	if [ -n "$args" ]; then
		reload "$args" ||
			{ diag "could not put back avc_rcu$args"; failed=$((failed + 1)); }
		args=
	fi
	rm -rf "$TMP"
}
trap restore EXIT

why=
if ! reload "slots=$SLOTS sync=$sync reclaim=$reclaim hash_seed=$seed"; then
	why="reload with slots=$SLOTS failed"
else
	echo "$THR" >"$MNT/avc/cache_threshold"
	: >"$T/trace"
	echo 1 >"$T/events/avc_rcu/avc_rcu_reclaim/enable"
	echo 1 >"$T/events/avc_rcu/avc_rcu_insert/enable"
	"$TOOL" fill "$KEYS" 4242 2>"$TMP/err" ||
		why="fill: $(cat "$TMP/err")"
	echo 0 >"$T/events/avc_rcu/enable"
	cp "$T/trace" "$TMP/trace"
fi

cap=512
[ "$reclaim" != lru ] || cap=1024
# reclaims, most visited, most evicted, overruns of the buffer; full inserts
set -- $(awk '/avc_rcu_reclaim:/ {
		n++
		for (i = 1; i <= NF; i++) {
			split($i, a, "=")
			if (a[1] == "visited" && a[2] + 0 > v) v = a[2] + 0
			if (a[1] == "evicted" && a[2] + 0 > e) e = a[2] + 0
		}
	}
	/avc_rcu_insert:.* result=full/ { full++ }
	/avc_rcu_insert:/ { ins++ }
	END { printf "%d %d %d %d %d\n", n, v, e, full, ins }' \
	"$TMP/trace" 2>/dev/null || echo "0 0 0 0 0")
diag "$sync/$reclaim, $SLOTS slots, threshold $THR, $KEYS fresh keys:" \
	"$1 reclaims, at most $2 buckets visited (cap $cap), at most $3 evicted;" \
	"$4 of $5 inserts not cached (full)"
if [ -n "$why" ]; then
	:
elif [ "$1" -eq 0 ]; then
	why="no reclaim recorded"
elif [ "$2" -gt "$cap" ]; then
	why="a reclaim visited $2 buckets, more than $cap"
elif [ "$3" -gt 16 ]; then
	why="a reclaim evicted $3 entries, more than a chunk"
fi
if [ -z "$why" ]; then
	ok "reach: at most $cap buckets and a chunk per reclaim at $SLOTS slots"
else
	diag "$why"
	not_ok "reach: at most $cap buckets and a chunk per reclaim at $SLOTS slots"
fi

why=
if ! "$TOOL" quiesce 5000 2>"$TMP/err"; then
	why="$(cat "$TMP/err")"
elif ! "$TOOL" state >"$TMP/state" 2>&1; then
	why="avc_tool state: $(cat "$TMP/state")"
else
	entries=$(sed -n 's/.*entries=\([0-9]*\).*/\1/p' "$TMP/state")
	[ "${entries:-99}" -le "$THR" ] ||
		why="$entries entries at threshold $THR"
fi
if [ -z "$why" ]; then
	ok "reach: at most $THR entries at $SLOTS slots"
else
	diag "$why"
	not_ok "reach: at most $THR entries at $SLOTS slots"
fi

restore
trap - EXIT
[ "$failed" -eq 0 ]
