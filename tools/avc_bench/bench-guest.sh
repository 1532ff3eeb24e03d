#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench, inside the guest.  For each sync mode, in-kernel lookups per
# second (avc_rcu_bench.ko, no system call) and access-file calls per
# second (avc_workload, KaiGai's parallel write()), with each thread count
# of BENCH_THREADS (default: one thread and one per CPU), each thread
# pinned to its own CPU; then the same rcu measurements on the control
# build that has no sync modes at all.  Every measurement is repeated and
# printed as a BENCH line; the host makes the table.
#
# BENCH_DIR (default /avc_rcu) holds the modules and tools; BENCH_WHERE
# (default guest) says where it runs, for the report.
# BENCH_SWEEP_ONLY=1 measures the sync modes only (no control build, no
# reclaim=fifo row, no hit ratios): the host mode (bench-host) runs this
# on a test machine, where only avc_rcu.ko, avc_rcu_bench.ko and
# avc_workload are at hand.
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
	"sweep_only=$sweep_only where=${BENCH_WHERE:-guest} accel=$accel"
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
echo BENCH done
