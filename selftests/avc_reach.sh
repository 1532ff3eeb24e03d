#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The reclaim's reach: one reclaim visits at most AVC_RCU_RECLAIM_SCAN
# (512) buckets, each at most twice with reclaim=lru, whatever the number
# of slots.  Runs as root (busybox ash in the guests), in any mode: it
# loads avc_rcu with $AVC_RCU_PARAMS but 65536 slots (lib/module.sh),
# sets cache_threshold to 16 (a table 4096 times larger than the cache:
# most buckets a reclaim passes are empty), and records the
# avc_rcu_reclaim and avc_rcu_insert events in tracefs while
# AVC_REACH_KEYS (default 1500) fresh keys go through the access file.
# Prints TAP version 13:
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
# Environment: AVC_TOOL (default: avc_tool next to this script),
# AVC_RCU_TRACEFS (default /sys/kernel/tracing), AVC_REACH_KEYS.

set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
TOOL=${AVC_TOOL:-$HERE/avc_tool}
T=${AVC_RCU_TRACEFS:-/sys/kernel/tracing}
KEYS=${AVC_REACH_KEYS:-1500}
P=/sys/module/avc_rcu/parameters
SLOTS=65536
THR=16

# shellcheck source=selftests/lib/ktap.sh
. "$HERE/lib/ktap.sh"
# shellcheck source=selftests/lib/module.sh
. "$HERE/lib/module.sh"

tst_module_load slots=$SLOTS
[ -f "$T/trace" ] || mount -t tracefs nodev "$T" 2>/dev/null || true
TMP=$(mktemp -d "${TMPDIR:-/tmp}/avc_reach.XXXXXX")

restore() {
	echo 0 >"$T/events/avc_rcu/enable" 2>/dev/null || true
	rm -rf "$TMP"
	tst_module_unload || exit 1
}
trap restore EXIT

echo "TAP version 13"
if [ ! -d "$T/events/avc_rcu/avc_rcu_reclaim" ]; then
	echo "1..0 # SKIP no avc_rcu events in tracefs"
	exit 4
fi
echo "1..2"

sync=$(cat $P/sync)
reclaim=$(cat $P/reclaim)

why=
echo "$THR" >"$MNT/avc/cache_threshold"
: >"$T/trace"
echo 1 >"$T/events/avc_rcu/avc_rcu_reclaim/enable"
echo 1 >"$T/events/avc_rcu/avc_rcu_insert/enable"
"$TOOL" fill "$KEYS" 4242 2>"$TMP/err" || why="fill: $(cat "$TMP/err")"
echo 0 >"$T/events/avc_rcu/enable"
cp "$T/trace" "$TMP/trace"

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

[ "$failed" -eq 0 ]
