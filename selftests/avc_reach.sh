#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The reclaim's reach: avc_rcu with $AVC_RCU_PARAMS but 65536 slots at
# cache_threshold 16, AVC_REACH_KEYS (1500) fresh keys through the access
# file, the reclaim and insert events recorded in tracefs (AVC_RCU_TRACEFS):
#
#  1. every reclaim visited at most 512 buckets (1024 with lru) and
#     evicted at most a chunk, and there were reclaims;
#  2. quiescent afterwards, at most 16 entries.
#
# The inserts not cached (result=full) are counted, not checked.

set -eu

. "$(dirname "$0")/lib/tst.sh"
T=${AVC_RCU_TRACEFS:-/sys/kernel/tracing}
KEYS=${AVC_REACH_KEYS:-1500}
SLOTS=65536
THR=16

tst_module_load slots=$SLOTS
[ -f "$T/trace" ] || mount -t tracefs nodev "$T" 2>/dev/null || true

cleanup() {
	echo 0 >"$T/events/avc_rcu/enable" 2>/dev/null || true
}

[ -d "$T/events/avc_rcu/avc_rcu_reclaim" ] ||
	tst_skip_all "no avc_rcu events in tracefs"
echo "1..2"

sync=$(cat /sys/module/avc_rcu/parameters/sync)
reclaim=$(cat /sys/module/avc_rcu/parameters/reclaim)
echo "$THR" >"$MNT/avc/cache_threshold"
: >"$T/trace"
echo 1 >"$T/events/avc_rcu/avc_rcu_reclaim/enable"
echo 1 >"$T/events/avc_rcu/avc_rcu_insert/enable"
"$TOOL" fill "$KEYS" 4242 2>"$TMP/err" || why="fill: $(cat "$TMP/err")"
echo 0 >"$T/events/avc_rcu/enable"
cp "$T/trace" "$TMP/trace"

cap=512
[ "$reclaim" != lru ] || cap=1024
# reclaims, most visited, most evicted; inserts not cached (full), inserts
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
[ "$1" -gt 0 ] || addwhy "no reclaim recorded"
[ "$2" -le "$cap" ] || addwhy "a reclaim visited $2 buckets, more than $cap"
[ "$3" -le 16 ] || addwhy "a reclaim evicted $3 entries, more than a chunk"
verdict "reach: at most $cap buckets and a chunk per reclaim at $SLOTS slots"

if ! "$TOOL" quiesce 5000 2>"$TMP/err"; then
	why="$(cat "$TMP/err")"
elif ! tst_state; then
	why="avc_tool state: $(cat "$TMP/state")"
elif [ "$st_entries" -gt "$THR" ]; then
	why="$st_entries entries at threshold $THR"
fi
verdict "reach: at most $THR entries at $SLOTS slots"

[ "$failed" -eq 0 ]
