#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench, inside the guest.  For each sync mode, in-kernel lookups per
# second (avc_rcu_bench.ko, no system call) and access-file calls per
# second (avc_workload, KaiGai's parallel write()), with each thread count
# of BENCH_THREADS (default: one thread and one per CPU), each thread
# pinned to its own CPU; then the same rcu measurements on the control
# build that has no sync modes at all, and on the placement twins of both
# when staged (avc_rcu-std-a32.ko ...: the same code at other addresses).  Every measurement is repeated and
# printed as a BENCH line; the host makes the table.
#
# BENCH_DIR (default /avc_rcu) holds the modules and tools; BENCH_WHERE
# (default guest) says where it runs, for the report.
# BENCH_SWEEP_ONLY=1 measures the sync modes only (no control build, no
# reclaim=fifo row, no hit ratios, no reclaim latency): the host mode
# (bench-host) runs this on a test machine, where only avc_rcu.ko,
# avc_rcu_bench.ko and avc_workload are at hand.
# BENCH_LATENCY (full, quick or off; default full, quick when BENCH_MS is
# under 1000) sets how much of the reclaim latency is measured: full is
# slots 512, 4096 and 65536, thresholds 16, 512 and 8192, every reclaim
# policy, 8192 fresh keys each; quick one configuration (4096 slots,
# threshold 512, lru, 1024 keys); off none.
set -eu

cd "${BENCH_DIR:-/avc_rcu}"
F=/sys/fs/avc_rcu
reps=${BENCH_REPS:-5}
ms=${BENCH_MS:-1000}
ncpu=$(grep -c '^processor' /proc/cpuinfo)
threads="1"
[ "$ncpu" -gt 1 ] && threads="1 $ncpu"
if [ -n "${BENCH_THREADS:-}" ]; then
	threads=$BENCH_THREADS
	for t in $threads; do
		case $t in
		'' | *[!0-9]* | 0*)
			echo "bench: not a thread count: $t" >&2
			exit 2 ;;
		esac
		if [ "$t" -gt "$ncpu" ]; then
			echo "bench: $t threads but only $ncpu CPUs" >&2
			exit 2
		fi
	done
fi

# How much of the reclaim latency to measure (see the end).
latency=${BENCH_LATENCY:-full}
[ "$ms" -ge 1000 ] || latency=${BENCH_LATENCY:-quick}
[ "${BENCH_SWEEP_ONLY:-0}" = 1 ] && latency=off
case $latency in
full)
	lat_slots="512 4096 65536"
	lat_policies="lru fifo newest"
	lat_thresholds="16 512 8192"
	lat_keys=8192 ;;
quick)
	lat_slots=4096
	lat_policies=lru
	lat_thresholds=512
	lat_keys=1024 ;;
off)
	lat_slots= ;;
*)
	echo "bench: BENCH_LATENCY: full, quick or off, not $latency" >&2
	exit 2 ;;
esac

kbench() {	# variant sync op threads [warm-up]
	insmod avc_rcu_bench.ko op="$3" threads="$4" ms="$ms"
	rmmod avc_rcu_bench
	# QEMU translates code on first use: the first run only warms up.
	[ -z "${5:-}" ] || return 0
	rate=$(dmesg | grep 'avc_rcu_bench: op=' | tail -n 1 |
	       sed 's/.* rate=\([0-9]*\)\/s.*/\1/')
	echo "BENCH variant=$1 sync=$2 path=kernel op=$3 threads=$4 rate=$rate"
}

# The system-call rows run for whole seconds: 2, or 1 on a quick run.
useconds=2
[ "$ms" -ge 1000 ] || useconds=1

ubench() {	# variant sync threads
	out=$(./avc_workload -p -t "$2" -d $useconds -k 64 2>&1)
	rate=$(echo "$out" | sed -n 's/.* \([0-9.]*\) Kcalls\/s$/\1/p')
	echo "BENCH variant=$1 sync=$3 path=syscall op=access threads=$2 rate=${rate}K"
}

run_variant() {	# ko variant "params" syncs...
	ko=$1
	variant=$2
	params=$3
	shift 3
	for sync in "$@"; do
		# shellcheck disable=SC2086
		insmod "$ko" sync="$sync" $params
		mount -t avcrcufs avcrcufs $F
		for t in $threads; do
			kbench "$variant" "$sync" hit "$t" warm-up
			r=0
			while [ $r -lt "$reps" ]; do
				kbench "$variant" "$sync" hit "$t"
				[ "$variant" = std ] && ubench "$variant" "$t" "$sync"
				r=$((r + 1))
			done
		done
		umount $F
		rmmod avc_rcu
	done
}

# Which accelerator the numbers are of: KVM's CPUID signature, else TCG
# (tools/testing/vm/run chose it).
accel=tcg
dmesg | grep -q "Hypervisor detected: KVM" && accel=kvm
sweep_only=${BENCH_SWEEP_ONLY:-0}
echo "BENCH cpus=$ncpu reps=$reps ms=$ms threads=$(echo $threads | tr ' ' ,)" \
	"sweep_only=$sweep_only where=${BENCH_WHERE:-guest} accel=$accel" \
	"latency=$latency"
insmod avc_rcu.ko
for t in $threads; do
	for op in null compute; do
		kbench std rcu $op "$t" warm-up
		r=0
		while [ $r -lt "$reps" ]; do
			kbench std rcu $op "$t"
			r=$((r + 1))
		done
	done
done
rmmod avc_rcu
run_variant avc_rcu.ko std "" rcu spinlock rwlock
if [ "$sweep_only" = 1 ]; then
	echo BENCH done
	exit 0
fi
run_variant avc_rcu-rcuonly.ko rcuonly "" rcu
# The placement twins of the std module and of the control (bench: the
# same code at other addresses), fewer repetitions.
for a in 32 64; do
	[ -f "avc_rcu-std-a$a.ko" ] || continue
	reps_all=$reps
	reps=$(( reps > 3 ? 3 : reps ))
	run_variant "avc_rcu-std-a$a.ko" "std@a$a" "" rcu
	run_variant "avc_rcu-rcuonly-a$a.ko" "rcuonly@a$a" "" rcu
	reps=$reps_all
done
# reclaim=lru's referenced bit against fifo, which has none.
run_variant avc_rcu.ko fifo reclaim=fifo rcu

# Hit ratios: which entries each reclaim policy keeps, on synthetic key
# streams replayed single-threaded through avc_rcu_replay.ko, with a fixed
# hash seed so that every run replays exactly the same evictions.
sum_stats() {	# lookups hits misses reclaims, summed over CPUs
	awk 'NR > 1 { l += $1; h += $2; m += $3; r += $5 }
		END { printf "%d %d %d %d\n", l, h, m, r }' $F/avc/cache_stats
}

lookups=200000
[ "$ms" -ge 1000 ] || lookups=20000
streams="uniform:uniform_8192 zipf0.8:zipf_0.8_16384 zipf1.0:zipf_1.0_16384
hotscan:hotscan_200_600_100 shift:shift_128_2048_4_60"
for s in $streams; do
	# shellcheck disable=SC2046
	./avc_tracegen -n $lookups -s 1 $(echo "${s#*:}" | tr _ ' ') \
		>"/tmp/${s%%:*}.trace"
done
for policy in lru fifo newest; do
	insmod avc_rcu.ko reclaim=$policy hash_seed=2004
	insmod avc_rcu_replay.ko
	mount -t avcrcufs avcrcufs $F
	for s in $streams; do
		for threshold in 64 256 512 1024 4096; do
			echo "$threshold" >$F/avc/cache_threshold
			printf 'allow 1 1 1 1\n' >$F/load	# an empty cache
			set -- $(sum_stats)
			dd if="/tmp/${s%%:*}.trace" bs=1M \
				of=/sys/kernel/debug/avc_rcu_replay 2>/dev/null
			set -- "$@" $(sum_stats)
			echo "HITRATIO policy=$policy stream=${s%%:*}" \
				"threshold=$threshold lookups=$(($5 - $1))" \
				"hits=$(($6 - $2)) misses=$(($7 - $3))" \
				"reclaims=$(($8 - $4))"
		done
	done
	umount $F
	rmmod avc_rcu_replay
	rmmod avc_rcu
done

# Reclaim latency: for each number of slots and reclaim policy (load-time
# parameters, so one module load each) and each threshold, fresh keys
# through the access file, one pinned thread, while the avc_rcu_reclaim
# tracepoint records every reclaim (the buckets it visited, the entries
# it evicted, its duration) and avc_rcu_insert every decision not cached
# for want of room (result=full).  The cache is emptied, then filled to
# its threshold and beyond by half as many keys again as are measured, so
# that the measured keys find it in its steady state, the hand anywhere;
# only then is the trace cleared and switched on.  One RECLAIM line per
# configuration, its distributions summarised here.
T=/sys/kernel/tracing
E=$T/events/avc_rcu

# The $2 quantile (0..1) of the sorted numbers in file $1, nearest rank,
# as avc_native_latency takes them; "-" if there are none.
quantile() {
	awk -v q="$2" '{ v[NR] = $1 }
		END {
			if (!NR) { print "-"; exit }
			i = int(q * NR) + 1
			print v[i > NR ? NR : i]
		}' "$1"
}

# One pass over a trace of avc_rcu_reclaim and avc_rcu_insert events
# without context (options/context-info off, so each line is the event's
# name and its fields in TP_printk()'s order): each reclaim's duration_ns
# to file $1, and the visits and evictions counted by value (a reclaim
# visits at most 1024 buckets and evicts at most a chunk) to print
# "visited_p50= visited_max= evicted=SIZE:COUNT,... full=N".
lat_summary() {
	: >"$1"
	awk -F '[ =]+' -v durations="$1" '
		$1 == "avc_rcu_reclaim:" {
			visited[$5]++
			evicted[$3]++
			print $13 >durations
			n++
			if ($5 > vmax)
				vmax = $5
		}
		$1 == "avc_rcu_insert:" { full++ }
		END {
			for (v = 0; v <= vmax && n; v++) {
				seen += visited[v]
				if (!p50 && seen > int(n / 2)) {
					p50 = 1
					printf "visited_p50=%d ", v
				}
			}
			if (!n)
				printf "visited_p50=- "
			printf "visited_max=%s evicted=", n ? vmax : "-"
			sep = ""
			for (e = 0; e <= 64; e++)
				if (evicted[e]) {
					printf "%s%d:%d", sep, e, evicted[e]
					sep = ","
				}
			printf "%s full=%d\n", n ? "" : "-", full
		}'
	sort -n "$1" -o "$1"
}

lat_measure() {	# slots policy threshold tsid
	# Only the inserts not cached for want of room are traced: result
	# "full", whose number the event's format gives.
	full=$(sed -n 's/.*{ *\([0-9]*\), "full" }.*/\1/p' \
		$E/avc_rcu_insert/format)
	if [ -z "$full" ]; then
		echo "bench: no result \"full\" in $E/avc_rcu_insert/format" >&2
		exit 1
	fi
	echo "$3" >$F/avc/cache_threshold
	printf 'allow 1 1 1 1\n' >$F/load	# an empty cache
	./avc_workload -p -t 1 -n $(($3 + lat_keys / 2)) \
		-k $(($3 + lat_keys / 2)) -T "$4" >/dev/null
	echo >$T/trace
	echo "result == $full" >$E/avc_rcu_insert/filter
	echo 1 >$E/avc_rcu_insert/enable
	echo 1 >$E/avc_rcu_reclaim/enable
	out=$(./avc_workload -p -t 1 -n $lat_keys -k $lat_keys -T $(($4 + 1)))
	echo 0 >$E/avc_rcu_reclaim/enable
	echo 0 >$E/avc_rcu_insert/enable
	echo 0 >$E/avc_rcu_insert/filter
	summary=$(lat_summary /tmp/lat.duration <$T/trace)
	# Events lost: those the ring buffer overwrote.
	lost=$(sed -n 's/^overrun: //p' $T/per_cpu/cpu0/stats)
	echo "RECLAIM slots=$1 policy=$2 threshold=$3 keys=$lat_keys" \
		"reclaims=$(wc -l </tmp/lat.duration) $summary" \
		"duration_p50=$(quantile /tmp/lat.duration 0.5)" \
		"duration_p99=$(quantile /tmp/lat.duration 0.99)" \
		"duration_max=$(quantile /tmp/lat.duration 1)" \
		"lost=${lost:-?}" \
		"kcalls=$(echo "$out" | sed -n 's/.* \([0-9.]*\) Kcalls\/s$/\1/p')"
}

if [ -n "$lat_slots" ]; then
	[ -f $T/trace ] || mount -t tracefs tracefs $T
	# Every event of a measurement, with room to spare: all on the first
	# CPU, where avc_workload -p runs its one thread (KiB).
	echo 8192 >$T/per_cpu/cpu0/buffer_size_kb
	echo 0 >$T/options/context-info
	tsid=100
	for slots in $lat_slots; do
		for policy in $lat_policies; do
			insmod avc_rcu.ko slots="$slots" reclaim="$policy"
			mount -t avcrcufs avcrcufs $F
			for threshold in $lat_thresholds; do
				lat_measure "$slots" "$policy" "$threshold" $tsid
				tsid=$((tsid + 2))
			done
			umount $F
			rmmod avc_rcu
		done
	done
	echo 1 >$T/options/context-info
fi
echo BENCH done
