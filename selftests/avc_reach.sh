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
KEYS=${AVC_REACH_KEYS:-1500}
SLOTS=65536
THR=16
BUDGET=64
CHAIN=32

tst_module_load slots=$SLOTS
. "$(dirname "$0")/lib/reclaim_events.sh"
echo "1..2"

sync=$(cat /sys/module/avc_rcu/parameters/sync)
reclaim=$(cat /sys/module/avc_rcu/parameters/reclaim)
reclaimer=$(cat /sys/module/avc_rcu/parameters/reclaimer)

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
