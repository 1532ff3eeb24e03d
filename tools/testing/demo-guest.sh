#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The demo, inside the guest: a working set larger than cache_threshold
# (1024) reclaims every second; raised past it (2048), every lookup hits.
# avcstat -o csv 1 records both, printed at the end between two marker
# lines for tools/testing/demo.
set -eu

cd /avc_rcu
F=/sys/fs/avc_rcu
keys=1500
rows=${DEMO_ROWS:-5}

say() { printf '\n# %s\n' "$*"; }
# mark TEXT: a line at this time of day in the plot (tools/testing/demo).
mark() { echo "AVC_RCU_DEMO_MARK $(date +%H:%M:%S) $*"; }

say insmod avc_rcu.ko
insmod avc_rcu.ko
params=
for p in slots sync reclaim hash_seed cache_threshold; do
	f=/sys/module/avc_rcu/parameters/$p
	[ ! -r $f ] || params="$params $p=$(cat $f)"
done
echo "AVC_RCU_DEMO_PARAMS${params}"
say mount -t avcrcufs avcrcufs $F
mount -t avcrcufs avcrcufs $F
say cat $F/avc/cache_threshold
cat $F/avc/cache_threshold
say echo 1024 '>' $F/avc/cache_threshold
echo 1024 > $F/avc/cache_threshold
cat $F/avc/cache_threshold

# A rule for every key of the working set, in one write as load requires.
awk -v n=$keys 'BEGIN { for (i = 1; i <= n; i++)
	printf "allow %d 2 3 0x%x\n", i, i % 7 + 1 }' > /tmp/policy
say "load a $keys-rule policy (dd, one write)"
dd if=/tmp/policy of=$F/load bs=1M 2>/dev/null
echo "seqno $(cat $F/seqno)"

# watch: the workload, and avcstat 1 for $rows rows, kept in /tmp/rows;
# the first row, the totals since the load, labelled as such.
watch() {
	./avc_workload -d $((rows + 2)) -k $keys &
	workload=$!
	sleep 1
	say "avcstat 1: the totals since the load, then the changes over each second"
	./avcstat 1 "$rows" | tee /tmp/rows |
		awk 'NR == 2 { print $0 "  <- totals since the load"; next } 1'
	wait $workload
}

say "avcstat -o csv 1 > /tmp/recording.csv &: the whole run, recorded"
./avcstat -o csv 1 >/tmp/recording.csv &
recorder=$!

# column NAME: that column of the avcstat rows after the totals.
column() {
	awk -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i }
		NR > 2 { print $c }' /tmp/rows
}

say "avc_workload -k $keys: working set $keys keys > threshold 1024"
mark "workload starts"
watch
# avcstat's first row is the totals so far; each later one is a second.
seconds=$(column reclaims | wc -l)
thrash=$(column reclaims | awk '$1 > 0 { n++ } END { print n + 0 }')

say echo 2048 '>' $F/avc/cache_threshold: the working set fits
echo 2048 > $F/avc/cache_threshold
watch
mark "workload ends"
last_misses=$(column misses | tail -n 1)
last_reclaims=$(column reclaims | tail -n 1)
# One more second in the recording at 2048, then it stops (SIGINT: its
# last row is whole).
sleep 1
kill -s INT $recorder
wait $recorder
say "the recording: $(($(wc -l </tmp/recording.csv) - 1)) rows"
echo AVC_RCU_DEMO_CSV_BEGIN
cat /tmp/recording.csv
echo AVC_RCU_DEMO_CSV_END

say cat $F/avc/hash_stats
cat $F/avc/hash_stats
umount $F
rmmod avc_rcu
say "unloaded; nothing left behind"

if [ "$seconds" -lt 1 ] || [ "$thrash" -ne "$seconds" ]; then
	echo "demo: FAIL: reclaims in $thrash of $seconds seconds at threshold 1024"
	exit 1
fi
if [ "$last_misses" != 0 ] || [ "$last_reclaims" != 0 ]; then
	echo "demo: FAIL: at threshold 2048 the last second had $last_misses misses, $last_reclaims reclaims"
	exit 1
fi
echo "demo: reclaims every second at 1024; no miss, no reclaim at 2048"
