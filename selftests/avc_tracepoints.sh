#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# avc_rcu's tracepoints (avc/avc_rcu_events.h) through tracefs
# (AVC_RCU_TRACEFS, mounted on /sys/kernel/tracing unless it is): each
# event provoked through the module's files, its fields checked against
# the request and what the files say:
#
#   1. tracefs has the eight avc_rcu events;  2. each enable file takes 1
#   3. policy_load: err, seqno, rules, permissive;  4. reset: its seqnos
#      and entries;  5. policy_load of a load failing at its last close
#   6. miss: key, requested, allowed, seqno, flags;  7. insert: key,
#      bucket;  8. a hit is not traced;  9. threshold: old and new
#  10. reclaim at threshold 16: each section at most a chunk and the node
#      budget, adding up to cache_stats;  11. a hist trigger keyed by
#      tclass counts the misses
#  12. flush, by the torture module (AVC_RCU_TORTURE_KO): seqno, entries
#  13. resize: a table that follows cache_threshold (slots=0) resized by
#      a write, its entries moved; a table of fixed size never resized
#
# No tracefs: a skip; tracefs without the avc_rcu events: a failure.

set -eu

. "$(dirname "$0")/lib/tst.sh"
tst_module_load
TKO=${AVC_RCU_TORTURE_KO:-$tst_dir/avc_rcu_torture.ko}
T=${AVC_RCU_TRACEFS:-/sys/kernel/tracing}
EV=$T/events/avc_rcu
THR=$MNT/avc/cache_threshold
PARAMS=/sys/module/avc_rcu/parameters
EVENTS="avc_rcu_miss avc_rcu_insert avc_rcu_reclaim avc_rcu_flush \
avc_rcu_reset avc_rcu_policy_load avc_rcu_threshold avc_rcu_resize"

[ -f "$T/trace" ] || grep -qw tracefs /proc/filesystems ||
	tst_skip_all "no tracefs in this kernel"
mounted=
hist=
thr0=
on0=

cleanup() {
	[ ! -d "$EV" ] || echo 0 >"$EV/enable" || true
	[ -z "$hist" ] || echo "!$hist" >"$EV/avc_rcu_miss/trigger" || true
	[ -z "$on0" ] || echo "$on0" >"$T/tracing_on" || true
	[ ! -f "$T/trace" ] || : >"$T/trace" || true
	[ ! -d /sys/module/avc_rcu_torture ] || rmmod avc_rcu_torture || true
	[ -z "$thr0" ] || echo "$thr0" >"$THR" || true
	[ -z "$mounted" ] || umount "$T" || true
}

echo "1..13"

# events NAME...: the fields of every NAME event in the trace, one line
# each, oldest first, into $TMP/NAME; shown NAME...: the same, shown.
events() {
	for e; do
		sed -n "s/^.* $e: //p" "$T/trace" >"$TMP/$e"
	done
}

shown() {
	events "$@"
	for e; do
		sed "s/^/# $e: /" "$TMP/$e"
	done
}

# field KEY TEXT: the value of KEY=value in TEXT; st KEY: in the output
# of `avc_tool state`, now.
field() { echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p" | head -n 1; }
st() { field "$1" "$("$TOOL" state)"; }

# want WHAT GOT EXPECTED: a reason in $why unless GOT is EXPECTED.
want() { [ "$2" = "$3" ] || addwhy "$1: '$2', expected '$3'"; }

# 1. tracefs and the events
t0=$(tst_now)
if [ ! -f "$T/trace" ]; then
	mkdir -p "$T"
	mount -t tracefs nodev "$T" 2>"$TMP/err" && mounted=1 ||
		why="mount -t tracefs nodev $T: $(cat "$TMP/err")"
fi
if [ -z "$why" ]; then
	for e in $EVENTS; do
		[ -f "$EV/$e/enable" ] || addwhy "no $EV/$e"
	done
fi
verdict "tracefs at $T with the avc_rcu events"
if [ "$failed" -gt 0 ]; then
	for c in "enable" "policy_load" "reset" "failed policy_load" "miss" \
		 "insert" "hit untraced" "threshold" "reclaim" "hist trigger" \
		 "flush" "resize"; do
		not_ok "$c # no tracefs or no events"
	done
	exit 1
fi

# 2. enable each event
on0=$(cat "$T/tracing_on")
echo 1 >"$T/tracing_on"
echo nop >"$T/current_tracer"
for e in $EVENTS; do
	echo 1 >"$EV/$e/enable" || addwhy "cannot enable $e"
	want "$e/enable" "$(cat "$EV/$e/enable")" 1
done
verdict "each event enables"

thr0=$(cat "$THR")
slots_param=$(cat "$PARAMS/slots")
slots=$(sed -n 's|^buckets used: [0-9]*/\([0-9]*\)$|\1|p' "$MNT/avc/hash_stats")
policy=$(cat "$PARAMS/reclaim")
diag "slots $slots (parameter $slots_param), reclaim $policy, threshold $thr0"

# 3. and 4. a load through the load file, after a few lookups
"$TOOL" fill 5 7100
s0=$(st seqno)
entries=$(st entries)
: >"$T/trace"
cat >"$MNT/load" <<'EOF_POLICY'
# three keys, one permissive source
allow 7001 7002 3 0x7
allow 7001 7002 3 0x10
allow 7001 7003 4 0x1
auditallow 7001 7003 4 0x1
dontaudit 7004 7002 3 0x2
permissive 7005
EOF_POLICY
seqno=$(cat "$MNT/seqno")
shown avc_rcu_policy_load avc_rcu_reset
want "policy_load events" "$(wc -l <"$TMP/avc_rcu_policy_load")" 1
line=$(head -n 1 "$TMP/avc_rcu_policy_load")
want "seqno file" "$seqno" "$(((s0 + 1) % 4294967296))"
want err "$(field err "$line")" 0
want seqno "$(field seqno "$line")" "$seqno"
want rules "$(field rules "$line")" 3
want permissive "$(field permissive "$line")" 1
ns=$(field duration_ns "$line")
[ "${ns:-0}" -gt 0 ] || addwhy "duration_ns '$ns'"
verdict "policy_load: err, seqno, rules, permissive, duration"

want "reset events" "$(wc -l <"$TMP/avc_rcu_reset")" 1
want "reset" "$(head -n 1 "$TMP/avc_rcu_reset")" \
	"old_seqno=$s0 seqno=$seqno entries=$entries"
verdict "reset: old and new seqno, entries flushed"

# 5. a load that fails at its last close
: >"$T/trace"
printf 'allow 1 2 3' >"$MNT/load" || true
events avc_rcu_reset
shown avc_rcu_policy_load
line=$(cat "$TMP/avc_rcu_policy_load")
want "seqno file" "$(cat "$MNT/seqno")" "$seqno"
want "policy_load" "$line" "err=-22 seqno=$seqno rules=0 permissive=0 duration_ns=$(field duration_ns "$line")"
want "reset events" "$(wc -l <"$TMP/avc_rcu_reset")" 0
verdict "policy_load of a failed load: err=-22, seqno unchanged, no reset"

# 6. 7. 8. a miss, its insert, then a hit
: >"$T/trace"
reply=$("$TOOL" access 7001 7002 3 0x5)
preply=$("$TOOL" access 7005 7002 3 0x1)
shown avc_rcu_miss avc_rcu_insert
diag "replies: '$reply', '$preply'"
want "reply" "$reply" "17 ffffffff 0 ffffffff $seqno 0"
want "permissive reply" "$preply" "0 ffffffff 0 ffffffff $seqno 1"
want "miss events" "$(wc -l <"$TMP/avc_rcu_miss")" 2
want "miss" "$(sed -n 1p "$TMP/avc_rcu_miss")" \
	"ssid=7001 tsid=7002 tclass=3 requested=0x5 allowed=0x17 seqno=$seqno flags=0x0"
want "permissive miss" "$(sed -n 2p "$TMP/avc_rcu_miss")" \
	"ssid=7005 tsid=7002 tclass=3 requested=0x1 allowed=0x0 seqno=$seqno flags=0x1"
verdict "miss: key, requested, allowed, seqno, flags"

want "insert events" "$(wc -l <"$TMP/avc_rcu_insert")" 2
line=$(head -n 1 "$TMP/avc_rcu_insert")
bucket=$(field bucket "$line")
[ -n "$bucket" ] && [ "$bucket" -lt "$slots" ] ||
	addwhy "bucket '$bucket' of $slots"
want "insert" "$line" \
	"ssid=7001 tsid=7002 tclass=3 seqno=$seqno bucket=$bucket result=linked active=1"
want "second insert" "$(field active "$(sed -n 2p "$TMP/avc_rcu_insert")")" 2
verdict "insert: key, seqno, bucket, linked, active"

: >"$T/trace"
hits=$(st hits)
reply=$("$TOOL" access 7001 7002 3 0x5)
want "hits" "$(st hits)" "$(((hits + 1) % 4294967296))"
events avc_rcu_miss avc_rcu_insert
want "miss events on a hit" "$(wc -l <"$TMP/avc_rcu_miss")" 0
want "insert events on a hit" "$(wc -l <"$TMP/avc_rcu_insert")" 0
verdict "a hit is not traced"

# 9. the threshold
: >"$T/trace"
echo 16 >"$THR"
shown avc_rcu_threshold
want "threshold" "$(cat "$TMP/avc_rcu_threshold")" "old=$thr0 new=16"
verdict "threshold: old and new"

# 10. reclaims at threshold 16; 11. the misses, by class, in a hist
# trigger
: >"$T/trace"
hist_err=
hist=hist:keys=tclass
echo "$hist" >"$EV/avc_rcu_miss/trigger" 2>"$TMP/err" ||
	hist_err="cannot set $hist: $(cat "$TMP/err")"
r0=$(st reclaims)
"$TOOL" fill 64 7200
# The write returns once the background reclaimer, if any, is done.
echo 16 >"$THR"
r1=$(st reclaims)
cat "$EV/avc_rcu_miss/hist" >"$TMP/hist" 2>&1 || true
echo "!$hist" >"$EV/avc_rcu_miss/trigger" && hist=
events avc_rcu_reclaim
cnt=$(wc -l <"$TMP/avc_rcu_reclaim")
diag "$cnt reclaims, cache_stats reclaims $r0 -> $r1; the first three:"
head -n 3 "$TMP/avc_rcu_reclaim" | sed 's/^/# avc_rcu_reclaim: /'
[ "$cnt" -gt 0 ] || addwhy "no reclaim event"
bad=$(awk -v p="$policy" -v slots="$slots" '{
	for (i = 1; i <= NF; i++) {
		split($i, a, "=")
		v[a[1]] = a[2]
	}
	if (v["evicted"] !~ /^[0-9]+$/ || v["evicted"] + 0 > 16 ||
	    v["buckets"] + 0 > 2 * slots || v["nodes"] + 0 > 64 ||
	    v["nodes"] + 0 < v["evicted"] + 0 ||
	    (v["nodes"] + 0 > 0 && v["buckets"] + 0 < 1) ||
	    v["policy"] != p || v["threshold"] + 0 != 16)
		print "line " NR ": " $0
	sum += v["evicted"]
	if (v["evicted"] + 0 > 0)
		some = 1
} END {
	if (NR && !some)
		print "no reclaim evicted anything"
	print "evicted " sum + 0
}' "$TMP/avc_rcu_reclaim")
echo "$bad" | grep -v '^evicted ' | sed 's/^/# /' || true
echo "$bad" | grep -q -v '^evicted ' && addwhy "bad fields"
want "evicted in all" "$(echo "$bad" | sed -n 's/^evicted //p')" \
	"$(((r1 - r0 + 4294967296) % 4294967296))"
verdict "reclaim: evicted, nodes, buckets, policy, threshold; adds up to cache_stats"

# Hist triggers are a kernel option (CONFIG_HIST_TRIGGERS), which the
# debug kernel's config may not have: without the hist file, a skip.
if [ ! -e "$EV/avc_rcu_miss/hist" ]; then
	skip "hist trigger: misses per class" \
		"no hist file: a kernel without CONFIG_HIST_TRIGGERS"
else
	why=$hist_err
	grep '^{' "$TMP/hist" | sed 's/^/# hist: /'
	want "tclass 7 in the hist" "$(sed -n \
		's/^{ tclass: *7 } hitcount: *\([0-9]*\).*/\1/p' "$TMP/hist")" 64
	want "classes in the hist" "$(grep -c '^{' "$TMP/hist")" 1
	verdict "hist trigger: misses per class"
fi
echo "$thr0" >"$THR"

# 12. flushes by the torture module, on a policy of the torture family so
# that its one probe is verified and it logs PASS
if [ ! -f "$TKO" ]; then
	skip "flush" "$TKO missing (make selftests builds it)"
else
	"$TOOL" torture-load 0 >/dev/null
	"$TOOL" fill 8 7300
	seqno=$(cat "$MNT/seqno")
	entries=$(st entries)
	: >"$T/trace"
	if ! insmod "$TKO" readers=0 flush_ms=1 probe=1 \
	     verify_from="$seqno" 2>"$TMP/err"; then
		why="insmod failed: $(cat "$TMP/err")"
	else
		usleep 200000
		rmmod avc_rcu_torture 2>"$TMP/err" ||
			why="rmmod failed: $(cat "$TMP/err")"
	fi
	events avc_rcu_flush
	cnt=$(wc -l <"$TMP/avc_rcu_flush")
	diag "$cnt flushes; the first three:"
	head -n 3 "$TMP/avc_rcu_flush" | sed 's/^/# avc_rcu_flush: /'
	[ "$cnt" -gt 0 ] || addwhy "no flush event"
	want "first flush" "$(head -n 1 "$TMP/avc_rcu_flush")" \
		"seqno=$seqno entries=$entries"
	other=$(awk -v s="$seqno" '$0 != "seqno=" s " entries=0"' \
		"$TMP/avc_rcu_flush" | sed 1d)
	[ -z "$other" ] ||
		addwhy "later flushes not of an empty cache: $other"
	verdict "flush: seqno, entries"
fi

# 13. resize
: >"$T/trace"
entries=$(st entries)
echo 4096 >"$THR"
echo "$thr0" >"$THR"
shown avc_rcu_resize
if [ "$slots_param" = 0 ]; then
	want "resize events" "$(wc -l <"$TMP/avc_rcu_resize")" 2
	line=$(sed -n 1p "$TMP/avc_rcu_resize")
	want "resize" "$line" \
		"old_slots=$slots slots=4096 moved=$entries dropped=0 duration_ns=$(field duration_ns "$line")"
	line=$(sed -n 2p "$TMP/avc_rcu_resize")
	want "resize back" "$line" \
		"old_slots=4096 slots=$slots moved=$entries dropped=0 duration_ns=$(field duration_ns "$line")"
else
	want "resize events with slots=$slots_param" \
		"$(wc -l <"$TMP/avc_rcu_resize")" 0
fi
verdict "resize: old and new slots, entries moved"

diag "$(tst_since "$t0") s"
[ "$failed" -eq 0 ]
