#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# avc_rcu's tracepoints (avc/avc_rcu_trace.h), through tracefs.  Runs as
# root (busybox ash in the guests) on the module it loads (lib/module.sh);
# mounts tracefs on /sys/kernel/tracing unless it is there, enables each
# event of the avc_rcu system by its own enable file, provokes it through
# the module's files and checks the fields of what the trace shows against
# what the test asked for and what the files say.  Prints TAP version 13:
#
#   1. tracefs is mounted and events/avc_rcu/ has the seven events
#   2. each event's enable file takes 1 and reads back 1
#   3. policy_load: a policy written to the load file: err=0, the seqno the
#      seqno file shows, the rules and permissive SIDs the text has
#   4. reset: the load's reset, from the old seqno to the new, with as many
#      entries as hash_stats counted before it
#   5. policy_load of a load that fails at the last close (a bad last line
#      without a newline): err=-22, the seqno unchanged, no reset
#   6. miss: an access query: its key and requested permissions, the
#      allowed bits and seqno the reply carries; a permissive source's flag
#   7. insert: the missed key linked, in a bucket below slots
#   8. a hit is not traced: the same query again adds no miss or insert
#   9. threshold: old and new values of a write to avc/cache_threshold
#  10. reclaim: keys beyond a threshold of 16: every reclaim of at most a
#      chunk, with the module's reclaim policy and the threshold, the hand
#      within two rounds of the table, and the evictions adding up to the
#      reclaims column of cache_stats
#  11. a hist trigger on the miss event keyed by tclass (the admin guide's
#      "misses per class") counts those 64 misses under their class
#  12. flush: avc_rcu_flush() from the torture module (readers=0, a flush
#      every millisecond): the seqno in force, the first flush's entries
#      what hash_stats counted
#
# Not root: "1..0 # SKIP", exit 4.  A kernel without tracefs (none in
# /proc/filesystems): the same.  A kernel with tracefs where the avc_rcu
# events are missing fails.
#
# Environment: AVC_TOOL (default: avc_tool next to this
# script), AVC_RCU_TORTURE_KO (default: avc_rcu_torture.ko next to this
# script), AVC_RCU_TRACEFS (default /sys/kernel/tracing).

set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=selftests/lib/module.sh
. "$HERE/lib/module.sh"
tst_module_load
TOOL=${AVC_TOOL:-$HERE/avc_tool}
TKO=${AVC_RCU_TORTURE_KO:-$HERE/avc_rcu_torture.ko}
T=${AVC_RCU_TRACEFS:-/sys/kernel/tracing}
THR=$MNT/avc/cache_threshold
PARAMS=/sys/module/avc_rcu/parameters
SYS=avc_rcu
EVENTS="avc_rcu_miss avc_rcu_insert avc_rcu_reclaim avc_rcu_flush \
avc_rcu_reset avc_rcu_policy_load avc_rcu_threshold"

# shellcheck source=selftests/lib/ktap.sh
. "$HERE/lib/ktap.sh"

echo "TAP version 13"
if [ ! -f "$T/trace" ] && ! grep -qw tracefs /proc/filesystems; then
	tst_module_unload
	echo "1..0 # SKIP no tracefs in this kernel"
	exit 4
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/avc_tracepoints.XXXXXX")
mounted=
hist=
thr0=
on0=

cleanup() {
	if [ -d "$T/events/$SYS" ]; then
		echo 0 >"$T/events/$SYS/enable" || true
	fi
	if [ -n "$hist" ]; then
		echo "!$hist" >"$T/events/$SYS/avc_rcu_miss/trigger" || true
	fi
	[ -z "$on0" ] || echo "$on0" >"$T/tracing_on" || true
	[ ! -f "$T/trace" ] || : >"$T/trace" || true
	[ ! -d /sys/module/avc_rcu_torture ] || rmmod avc_rcu_torture || true
	[ -z "$thr0" ] || echo "$thr0" >"$THR" || true
	[ -z "$mounted" ] || umount "$T" || true
	rm -rf "$TMP"
	tst_module_unload || exit 1
}
trap cleanup EXIT

echo "1..12"

# Clear the trace buffer, of every CPU.
trace_clear() {
	: >"$T/trace"
}

# events NAME: the fields of every NAME event in the trace, one line each,
# oldest first, into $TMP/NAME.
events() {
	sed -n "s/^.* $1: //p" "$T/trace" >"$TMP/$1"
}

# field KEY LINE: the value of KEY=value in LINE.
field() {
	echo "$2" | awk -v k="$1" '{
		for (i = 1; i <= NF; i++)
			if (index($i, k "=") == 1) {
				print substr($i, length(k) + 2)
				exit
			}
	}'
}

# state_get KEY: KEY's value in the output of `avc_tool state`, now.
state_get() {
	"$TOOL" state | awk -v k="$1" '{
		for (i = 1; i <= NF; i++) {
			split($i, a, "=")
			if (a[1] == k)
				print a[2]
		}
	}'
}

# Seconds since boot, to a hundredth.
now() {
	cut -d ' ' -f 1 /proc/uptime
}

# check DESC: ok if $why is empty, else not ok with $why as diagnostic.
check() {
	if [ -z "$why" ]; then
		ok "$1"
	else
		diag "$why"
		not_ok "$1"
	fi
}

# want WHAT GOT EXPECTED: add to $why unless GOT is EXPECTED.
want() {
	[ "$2" = "$3" ] || why="${why:+$why; }$1: '$2', expected '$3'"
}

# show NAME: the NAME events as diagnostics.
show() {
	sed "s/^/# $1: /" "$TMP/$1"
}

# 1. tracefs and the events
t0=$(now)
why=
if [ ! -f "$T/trace" ]; then
	mkdir -p "$T"
	if mount -t tracefs nodev "$T" 2>"$TMP/err"; then
		mounted=1
	else
		why="mount -t tracefs nodev $T: $(cat "$TMP/err")"
	fi
fi
if [ -z "$why" ]; then
	for e in $EVENTS; do
		[ -f "$T/events/$SYS/$e/enable" ] ||
			why="${why:+$why; }no $T/events/$SYS/$e"
	done
fi
check "tracefs at $T with the $SYS events"
if [ -n "$why" ]; then
	for c in "enable" "policy_load" "reset" "failed policy_load" "miss" \
		 "insert" "hit untraced" "threshold" "reclaim" "hist trigger" \
		 "flush"; do
		not_ok "$c # no tracefs or no events"
	done
	exit 1
fi

# 2. enable each event
why=
on0=$(cat "$T/tracing_on")
echo 1 >"$T/tracing_on"
echo nop >"$T/current_tracer"
for e in $EVENTS; do
	echo 1 >"$T/events/$SYS/$e/enable" ||
		why="${why:+$why; }cannot enable $e"
	want "$e/enable" "$(cat "$T/events/$SYS/$e/enable")" 1
done
check "each event enables"

thr0=$(cat "$THR")
slots=$(cat "$PARAMS/slots")
policy=$(cat "$PARAMS/reclaim")
diag "slots $slots, reclaim $policy, threshold $thr0"

# 3. and 4. a load through the load file, after a few lookups
cat >"$TMP/policy" <<'EOF'
# three keys, one permissive source
allow 7001 7002 3 0x7
allow 7001 7002 3 0x10
allow 7001 7003 4 0x1
auditallow 7001 7003 4 0x1
dontaudit 7004 7002 3 0x2
permissive 7005
EOF
why=
"$TOOL" fill 5 7100
s0=$(state_get seqno)
entries=$(state_get entries)
trace_clear
cat "$TMP/policy" >"$MNT/load"
seqno=$(cat "$MNT/seqno")
events avc_rcu_policy_load
events avc_rcu_reset
show avc_rcu_policy_load
show avc_rcu_reset
want "policy_load events" "$(wc -l <"$TMP/avc_rcu_policy_load")" 1
line=$(head -n 1 "$TMP/avc_rcu_policy_load")
want "seqno file" "$seqno" "$(((s0 + 1) % 4294967296))"
want err "$(field err "$line")" 0
want seqno "$(field seqno "$line")" "$seqno"
want rules "$(field rules "$line")" 3
want permissive "$(field permissive "$line")" 1
ns=$(field duration_ns "$line")
[ "${ns:-0}" -gt 0 ] || why="${why:+$why; }duration_ns '$ns'"
check "policy_load: err, seqno, rules, permissive, duration"

why=
want "reset events" "$(wc -l <"$TMP/avc_rcu_reset")" 1
want "reset" "$(head -n 1 "$TMP/avc_rcu_reset")" \
	"old_seqno=$s0 seqno=$seqno entries=$entries"
check "reset: old and new seqno, entries flushed"

# 5. a load that fails at its last close
why=
trace_clear
printf 'allow 1 2 3' >"$MNT/load" || true
events avc_rcu_policy_load
events avc_rcu_reset
show avc_rcu_policy_load
want "seqno file" "$(cat "$MNT/seqno")" "$seqno"
want "policy_load" "$(cat "$TMP/avc_rcu_policy_load")" \
	"err=-22 seqno=$seqno rules=0 permissive=0 duration_ns=$(field \
	duration_ns "$(cat "$TMP/avc_rcu_policy_load")")"
want "reset events" "$(wc -l <"$TMP/avc_rcu_reset")" 0
check "policy_load of a failed load: err=-22, seqno unchanged, no reset"

# 6. 7. 8. a miss, its insert, then a hit
why=
trace_clear
reply=$("$TOOL" access 7001 7002 3 0x5)
preply=$("$TOOL" access 7005 7002 3 0x1)
events avc_rcu_miss
events avc_rcu_insert
show avc_rcu_miss
show avc_rcu_insert
diag "replies: '$reply', '$preply'"
want "reply" "$reply" "17 ffffffff 0 ffffffff $seqno 0"
want "permissive reply" "$preply" "0 ffffffff 0 ffffffff $seqno 1"
want "miss events" "$(wc -l <"$TMP/avc_rcu_miss")" 2
want "miss" "$(sed -n 1p "$TMP/avc_rcu_miss")" \
	"ssid=7001 tsid=7002 tclass=3 requested=0x5 allowed=0x17 seqno=$seqno flags=0x0"
want "permissive miss" "$(sed -n 2p "$TMP/avc_rcu_miss")" \
	"ssid=7005 tsid=7002 tclass=3 requested=0x1 allowed=0x0 seqno=$seqno flags=0x1"
check "miss: key, requested, allowed, seqno, flags"

why=
want "insert events" "$(wc -l <"$TMP/avc_rcu_insert")" 2
line=$(head -n 1 "$TMP/avc_rcu_insert")
bucket=$(field bucket "$line")
[ -n "$bucket" ] && [ "$bucket" -lt "$slots" ] ||
	why="bucket '$bucket' of $slots"
want "insert" "$line" \
	"ssid=7001 tsid=7002 tclass=3 seqno=$seqno bucket=$bucket result=linked active=1"
want "second insert" "$(field active "$(sed -n 2p "$TMP/avc_rcu_insert")")" 2
check "insert: key, seqno, bucket, linked, active"

why=
trace_clear
hits=$(state_get hits)
reply=$("$TOOL" access 7001 7002 3 0x5)
want "hits" "$(state_get hits)" "$(((hits + 1) % 4294967296))"
events avc_rcu_miss
events avc_rcu_insert
want "miss events on a hit" "$(wc -l <"$TMP/avc_rcu_miss")" 0
want "insert events on a hit" "$(wc -l <"$TMP/avc_rcu_insert")" 0
check "a hit is not traced"

# 9. the threshold
why=
trace_clear
echo 16 >"$THR"
events avc_rcu_threshold
show avc_rcu_threshold
want "threshold" "$(cat "$TMP/avc_rcu_threshold")" "old=$thr0 new=16"
check "threshold: old and new"

# 10. reclaims at threshold 16; 11. the misses, by class, in a hist
# trigger
why=
trace_clear
hist_err=
hist=hist:keys=tclass
echo "$hist" >"$T/events/$SYS/avc_rcu_miss/trigger" 2>"$TMP/err" ||
	hist_err="cannot set $hist: $(cat "$TMP/err")"
r0=$(state_get reclaims)
"$TOOL" fill 64 7200
r1=$(state_get reclaims)
cat "$T/events/$SYS/avc_rcu_miss/hist" >"$TMP/hist" 2>&1 || true
echo "!$hist" >"$T/events/$SYS/avc_rcu_miss/trigger" && hist=
events avc_rcu_reclaim
cnt=$(wc -l <"$TMP/avc_rcu_reclaim")
diag "$cnt reclaims, cache_stats reclaims $r0 -> $r1; the first three:"
head -n 3 "$TMP/avc_rcu_reclaim" | sed 's/^/# avc_rcu_reclaim: /'
[ "$cnt" -gt 0 ] || why="no reclaim event"
bad=$(awk -v p="$policy" -v slots="$slots" '{
	for (i = 1; i <= NF; i++) {
		split($i, a, "=")
		v[a[1]] = a[2]
	}
	if (v["evicted"] !~ /^[0-9]+$/ || v["evicted"] + 0 > 16 ||
	    v["visited"] + 0 < 1 || v["visited"] + 0 > 2 * slots ||
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
echo "$bad" | grep -q -v '^evicted ' && why="${why:+$why; }bad fields"
want "evicted in all" "$(echo "$bad" | sed -n 's/^evicted //p')" \
	"$(((r1 - r0 + 4294967296) % 4294967296))"
check "reclaim: evicted, visited, policy, threshold; adds up to cache_stats"

# Hist triggers are a kernel option (CONFIG_HIST_TRIGGERS): Debian's
# kernels have it, the debug kernel's config may not; without the event's
# hist file the case is skipped, not failed.
if [ ! -e "$T/events/$SYS/avc_rcu_miss/hist" ]; then
	skip "hist trigger: misses per class" \
		"no hist file: a kernel without CONFIG_HIST_TRIGGERS"
else
	why=$hist_err
	grep '^{' "$TMP/hist" | sed 's/^/# hist: /'
	want "tclass 7 in the hist" "$(sed -n \
		's/^{ tclass: *7 } hitcount: *\([0-9]*\).*/\1/p' "$TMP/hist")" 64
	want "classes in the hist" "$(grep -c '^{' "$TMP/hist")" 1
	check "hist trigger: misses per class"
fi
echo "$thr0" >"$THR"

# 12. flushes by the torture module, on a policy of the torture family so
# that its one probe is verified and it logs PASS
why=
if [ ! -f "$TKO" ]; then
	skip "flush" "$TKO missing (make selftests builds it)"
else
	"$TOOL" torture-load 0 >/dev/null
	"$TOOL" fill 8 7300
	seqno=$(cat "$MNT/seqno")
	entries=$(state_get entries)
	trace_clear
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
	[ "$cnt" -gt 0 ] || why="${why:+$why; }no flush event"
	want "first flush" "$(head -n 1 "$TMP/avc_rcu_flush")" \
		"seqno=$seqno entries=$entries"
	other=$(awk -v s="$seqno" '$0 != "seqno=" s " entries=0"' \
		"$TMP/avc_rcu_flush" | sed 1d)
	[ -z "$other" ] ||
		why="${why:+$why; }later flushes not of an empty cache: $other"
	check "flush: seqno, entries"
fi

diag "$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }') s"
[ "$failed" -eq 0 ]
