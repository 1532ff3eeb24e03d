#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The node budget where it is hardest to keep, from the avc_rcu_reclaim
# and avc_rcu_insert events recorded in tracefs (AVC_RCU_TRACEFS), avc_rcu
# loaded with $AVC_RCU_PARAMS but 512 slots (a table fixed at upstream's
# size, as OpenShift's and tuned's 8192 entries meet it):
#
#  1. hot: cache_threshold 8192, every entry hit again between rounds of
#     fresh keys, so that each section meets a table whose every entry
#     is referenced: every section examined at most 64 nodes, and the
#     sections evicted (lru's by-age pass);
#  2. full buckets: cache_threshold 65536, 16384 keys: no bucket longer
#     than 32 entries, inserts into full buckets evicting one of them
#     (result=chain);
#  3. then, every entry hit, the threshold lowered to 8192: every section
#     over those chains examined at most 64 nodes;
#  4. the cache within the threshold when the write returns (background),
#     a section a miss past it (inline).
#
# The inserts not cached (result=full) are counted, not checked.

set -eu

. "$(dirname "$0")/lib/tst.sh"
BUDGET=64
CHAIN=32

tst_module_load slots=512
. "$(dirname "$0")/lib/reclaim_events.sh"
echo "1..4"

reclaimer=$(cat /sys/module/avc_rcu/parameters/reclaimer)
diag "$(cat /sys/module/avc_rcu/parameters/sync)/$(cat /sys/module/avc_rcu/parameters/reclaim)/$reclaimer, 512 slots"

# 1. Hot, chains of 16 on average.
echo 8192 >"$MNT/avc/cache_threshold"
"$TOOL" fill 8192 11 2>"$TMP/err" || why="fill: $(cat "$TMP/err")"
trace_on
for r in 1 2 3; do
	"$TOOL" fill 8192 11 2>>"$TMP/err" || why="fill: $(cat "$TMP/err")"
	"$TOOL" fill 64 $((20 + r)) 2>>"$TMP/err" || why="fill: $(cat "$TMP/err")"
done
echo 8192 >"$MNT/avc/cache_threshold"
trace_off
set -- $(summary)
diag "hot, 512 slots, threshold 8192: $1 sections, at most $2 nodes," \
	"$5 evicted something, at most $4; $6 of $8 inserts not cached"
[ "$1" -gt 0 ] || addwhy "no section recorded"
[ "$5" -gt 0 ] || addwhy "no section evicted anything on a hot table"
[ "$2" -le "$BUDGET" ] || addwhy "a section examined $2 nodes, more than $BUDGET"
verdict "budget: at most $BUDGET nodes a section, every entry referenced, 8192 entries in 512 buckets"

# 2. Full buckets: 65536 asked of 512 buckets.
echo 65536 >"$MNT/avc/cache_threshold"
trace_on
"$TOOL" fill 16384 31 2>"$TMP/err" || why="fill: $(cat "$TMP/err")"
trace_off
set -- $(summary)
tst_state || why="avc_tool state: $(cat "$TMP/state")"
diag "512 slots, threshold 65536, 16384 keys: $st_entries entries," \
	"longest chain $st_longest; $7 inserts into a full bucket"
[ "${st_longest:-99}" -le "$CHAIN" ] ||
	addwhy "a bucket of $st_longest entries, more than $CHAIN"
[ "$7" -gt 0 ] || addwhy "no insert met a full bucket"
verdict "chains: at most $CHAIN entries a bucket, an insert into a full one evicts"

# 3. Every entry hit, the threshold lowered over the full buckets.
"$TOOL" fill 16384 31 2>"$TMP/err" || why="fill: $(cat "$TMP/err")"
trace_on
echo 8192 >"$MNT/avc/cache_threshold"
"$TOOL" fill 64 41 2>>"$TMP/err" || why="fill: $(cat "$TMP/err")"
echo 8192 >"$MNT/avc/cache_threshold"
trace_off
set -- $(summary)
diag "lowered to 8192 over chains of $CHAIN: $1 sections, at most $2 nodes," \
	"$5 evicted something"
[ "$1" -gt 0 ] || addwhy "no section recorded"
[ "$2" -le "$BUDGET" ] || addwhy "a section examined $2 nodes, more than $BUDGET"
verdict "budget: at most $BUDGET nodes a section over full buckets"

tst_state || why="avc_tool state: $(cat "$TMP/state")"
if [ "$reclaimer" = background ]; then
	[ "${st_entries:-0}" -le 8192 ] ||
		addwhy "$st_entries entries after the write of 8192 returned"
else
	[ "$1" -ge 64 ] ||
		addwhy "64 inserts past the threshold, $1 sections"
fi
verdict "threshold lowered: the cache within it when the write returns (background), a section a miss past it (inline)"

[ "$failed" -eq 0 ]
