#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The work of reclaim, from the avc_rcu_reclaim and avc_rcu_insert events
# recorded in tracefs (AVC_RCU_TRACEFS), avc_rcu loaded with
# $AVC_RCU_PARAMS but the slots below:
#
#  1. sparse: 65536 slots at cache_threshold 16, AVC_REACH_KEYS (1500)
#     fresh keys: every section read at most 512 bucket heads a pass (two
#     passes with lru), examined at most 64 nodes and evicted at most a
#     chunk, and there were sections; quiescent afterwards, at most 16
#     entries;
#
# The inserts not cached (result=full) are counted, not checked.  The
# same bounds on hot tables and full buckets: avc_budget.sh.

set -eu

. "$(dirname "$0")/lib/tst.sh"
T=${AVC_RCU_TRACEFS:-/sys/kernel/tracing}
KEYS=${AVC_REACH_KEYS:-1500}
SLOTS=65536
THR=16
BUDGET=64
CHAIN=32

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
reclaimer=$(cat /sys/module/avc_rcu/parameters/reclaimer)

trace_on() {
	: >"$T/trace"
	echo 1 >"$T/events/avc_rcu/avc_rcu_reclaim/enable"
	echo 1 >"$T/events/avc_rcu/avc_rcu_insert/enable"
}

trace_off() {
	echo 0 >"$T/events/avc_rcu/enable"
	cp "$T/trace" "$TMP/trace"
}

# sections, most nodes, most buckets, most evicted, sections that evicted,
# inserts not cached (full), inserts into a full bucket (chain), inserts
summary() {
	awk '/avc_rcu_reclaim:/ {
		n++
		for (i = 1; i <= NF; i++) {
			split($i, a, "=")
			if (a[1] == "nodes" && a[2] + 0 > nd) nd = a[2] + 0
			if (a[1] == "buckets" && a[2] + 0 > b) b = a[2] + 0
			if (a[1] == "evicted" && a[2] + 0 > e) e = a[2] + 0
			if (a[1] == "evicted" && a[2] + 0 > 0) ev++
		}
	}
	/avc_rcu_insert:.* result=full/ { full++ }
	/avc_rcu_insert:.* result=chain/ { chain++ }
	/avc_rcu_insert:/ { ins++ }
	END { printf "%d %d %d %d %d %d %d %d\n", n, nd, b, e, ev, full, chain, ins }' \
	"$TMP/trace" 2>/dev/null || echo "0 0 0 0 0 0 0 0"
}

# 1. Sparse.
cap=512
[ "$reclaim" != lru ] || cap=1024
echo "$THR" >"$MNT/avc/cache_threshold"
trace_on
"$TOOL" fill "$KEYS" 4242 2>"$TMP/err" || why="fill: $(cat "$TMP/err")"
trace_off
set -- $(summary)
diag "$sync/$reclaim/$reclaimer, $SLOTS slots, threshold $THR, $KEYS fresh keys:" \
	"$1 sections, at most $2 nodes, $3 buckets (cap $cap), $4 evicted;" \
	"$6 of $8 inserts not cached (full)"
[ "$1" -gt 0 ] || addwhy "no section recorded"
[ "$3" -le "$cap" ] || addwhy "a section read $3 bucket heads, more than $cap"
[ "$2" -le "$BUDGET" ] || addwhy "a section examined $2 nodes, more than $BUDGET"
[ "$4" -le 16 ] || addwhy "a section evicted $4 entries, more than a chunk"
verdict "reach: at most $cap buckets, $BUDGET nodes and a chunk a section at $SLOTS slots"

if ! "$TOOL" quiesce 5000 2>"$TMP/err"; then
	why="$(cat "$TMP/err")"
elif ! tst_state; then
	why="avc_tool state: $(cat "$TMP/state")"
elif [ "$st_entries" -gt "$THR" ]; then
	why="$st_entries entries at threshold $THR"
fi
verdict "reach: at most $THR entries at $SLOTS slots"

[ "$failed" -eq 0 ]
