#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tools/avc_trace/replay, inside the guest:
#
#   sh replay-guest.sh "MODULE PARAMS" "RECLAIMS" "THRESHOLDS" TRACE...
#
# One REPLAY line per trace, policy and threshold (lists separated by
# spaces), each on a freshly loaded avc_rcu with its own counters over
# the replay; REPLAY-ACCESS lines through the access file at the first
# pair; then the bad traces, each refused by both replayers.
set -eu

cd /avc_rcu
F=/sys/fs/avc_rcu
params=$1
reclaims=$2
thresholds=$3
shift 3
first=${1:-}
traces=$*	# the names have no blanks; "$@" is reused below

sum_stats() {	# lookups hits misses reclaims, summed over CPUs
	awk 'NR > 1 { l += $1; h += $2; m += $3; r += $5 }
		END { printf "%d %d %d %d\n", l, h, m, r }' $F/avc/cache_stats
}

# replay_once TAG RECLAIM THRESHOLD TRACE CMD...: on a freshly loaded
# avc_rcu, run CMD, which replays TRACE, and print one TAG line with the
# cache's counters over it and CMD's time, then what CMD printed, each
# key prefixed "cmd_".  A failed CMD ends the script with its output.
replay_once() {
	tag=$1
	reclaim=$2
	threshold=$3
	t=$4
	shift 4
	# shellcheck disable=SC2086 # the parameters are words
	insmod avc_rcu.ko $params reclaim="$reclaim"
	mount -t avcrcufs avcrcufs $F
	echo "$threshold" >$F/avc/cache_threshold
	before=$(sum_stats)
	s0=$(date +%s)
	"$@" >/tmp/replay.out 2>&1 ||
		{ echo "$tag failed trace=${t%.trace}"; cat /tmp/replay.out; exit 1; }
	s1=$(date +%s)
	# shellcheck disable=SC2046 # eight numbers
	set -- $before $(sum_stats)
	echo "$tag trace=${t%.trace} reclaim=$reclaim" \
		"threshold=$threshold lookups=$(($5 - $1))" \
		"hits=$(($6 - $2)) misses=$(($7 - $3))" \
		"reclaims=$(($8 - $4)) seconds=$((s1 - s0))" \
		"$(sed 's/\([a-z_]*\)=/cmd_\1=/g' /tmp/replay.out | tr '\n' ' ')"
	umount $F
	rmmod avc_rcu
}

# Through avc_rcu_replay.ko: the exported API, at full speed.
module_replay() {	# TRACE
	insmod avc_rcu_replay.ko
	dd if="$1" of=/sys/kernel/debug/avc_rcu_replay bs=1M 2>/tmp/dd.err ||
		{ cat /tmp/dd.err; rmmod avc_rcu_replay; return 1; }
	rmmod avc_rcu_replay
}

for r in $reclaims; do
	for th in $thresholds; do
		for t in $traces; do
			replay_once REPLAY "$r" "$th" "$t" module_replay "$t"
		done
	done
done
# End to end, at the first pair (avc_replay_access: a write and a read
# per lookup, a policy load per reset).
set -- $reclaims
r=$1
set -- $thresholds
for t in $traces; do
	replay_once REPLAY-ACCESS "$r" "$1" "$t" ./avc_replay_access -m $F "$t"
done
[ -n "$first" ] || { echo "REPLAY done"; exit 0; }
# The bad traces: the first trace cut one byte short of its last record,
# given version 2 (byte 8 of the header, little-endian), its record 5
# given kind 9 (byte 20 of the record) and seq 99 (byte 0); records start
# at byte 32, 24 bytes each.  Each FILE:PATTERN, PATTERN the log line.
size=$(wc -c <"$first")
head -c $((size - 1)) "$first" >/tmp/cut.trace
{ head -c 8 "$first"; printf '\002'; tail -c +10 "$first"; } >/tmp/v2.trace
{ head -c 172 "$first"; printf '\011'; tail -c +174 "$first"; } >/tmp/kind.trace
{ head -c 152 "$first"; printf 'c'; tail -c +154 "$first"; } >/tmp/seq.trace
set -- "cut.trace:trace truncated" "v2.trace:bad header" \
	"kind.trace:record 5: unknown kind 9" \
	"seq.trace:record 5: seq 99, expected 5"
# By the module: a header is refused by its write(2), an early end only
# at close(2), which busybox's dd does not check: the log line decides.
for bad; do
	insmod avc_rcu.ko
	insmod avc_rcu_replay.ko
	dmesg -c >/dev/null
	dd if="/tmp/${bad%%:*}" of=/sys/kernel/debug/avc_rcu_replay bs=1M 2>/dev/null || :
	if dmesg | grep -q "avc_rcu_replay: .*${bad#*:}"; then
		echo "REPLAY refused: ${bad#*:}"
	else
		echo "REPLAY bad trace not refused: ${bad#*:}"
	fi
	rmmod avc_rcu_replay
	rmmod avc_rcu
done
# By the access file's replayer: a header or size before it opens any
# file, a bad record when it reaches it (so avc_rcu is mounted).
# shellcheck disable=SC2086 # the parameters are words
insmod avc_rcu.ko $params
mount -t avcrcufs avcrcufs $F
for bad; do
	if ./avc_replay_access -m $F "/tmp/${bad%%:*}" 2>/tmp/ra.err
	then
		echo "REPLAY bad trace not refused by avc_replay_access: ${bad#*:}"
	elif grep -q "${bad#*:}" /tmp/ra.err; then
		echo "REPLAY refused by avc_replay_access: $(cat /tmp/ra.err)"
	else
		echo "REPLAY bad trace not refused by avc_replay_access: ${bad#*:}: $(cat /tmp/ra.err)"
	fi
done
umount $F
rmmod avc_rcu
echo "REPLAY bad traces 4"
echo "REPLAY done"
