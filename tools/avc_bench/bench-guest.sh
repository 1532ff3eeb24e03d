#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench's measurements (Documentation/benchmarks.rst) in its guest, or
# bench-host's on a test machine, as BENCH, HITRATIO and RECLAIM lines for
# report.py.  From bench or bench-host: BENCH_DIR (the modules and tools),
# BENCH_THREADS (default 1 and every CPU), BENCH_REPS, BENCH_MS,
# BENCH_LATENCY, BENCH_WHERE, BENCH_SWEEP_ONLY=1 (the sync modes only) and
# BENCH_ONLY=latency (the reclaim sections only).
set -eu

cd "${BENCH_DIR:-/avc_rcu}"
F=/sys/fs/avc_rcu
reps=${BENCH_REPS:-5} ms=${BENCH_MS:-1000}
ncpu=$(grep -c '^processor' /proc/cpuinfo)
threads=1
[ "$ncpu" -eq 1 ] || threads="1 $ncpu"
threads=${BENCH_THREADS:-$threads}
for n in $reps $ms $threads; do
	case $n in *[!0-9]* | 0*) echo "bench: not a count: $n" >&2; exit 2 ;; esac
done
for t in $threads; do
	[ "$t" -le "$ncpu" ] ||
		{ echo "bench: $t threads but only $ncpu CPUs" >&2; exit 2; }
done
sweep_only=${BENCH_SWEEP_ONLY:-0}
latency=${BENCH_LATENCY:-off}
[ "$sweep_only" != 1 ] || latency=off
# The reclaim sections' configurations: slots:reclaimer:table, at one
# threshold, and the misses timed in each (tools/avc_bench/avc_rcu_hot.c).
case $latency in
full) lat_configs="512:inline:hot 512:inline:cold 512:background:hot
	512:background:cold 0:inline:hot 0:inline:cold 0:background:hot
	0:background:cold" lat_threshold=8192 lat_misses=4096 ;;
quick) lat_configs=0:inline:hot lat_threshold=512 lat_misses=256 ;;
*) latency=off ;;
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

measure() {	# variant sync op threads: a warm-up, then $reps runs
	kbench "$@" warm-up
	r=0
	while [ $r -lt "$reps" ]; do
		kbench "$@"
		r=$((r + 1))
		[ "$1 $3" = "std hit" ] || continue
		# The system-call rows: whole seconds, 2 (1 on a quick run).
		out=$(./avc_workload -p -t "$4" -d $((ms < 1000 ? 1 : 2)) -k 64 2>&1)
		echo "BENCH variant=std sync=$2 path=syscall op=access threads=$4" \
			"rate=$(echo "$out" | sed -n 's/.* \([0-9.]*\) Kcalls\/s$/\1/p')K"
	done
}

run_variant() {	# ko variant "params" syncs...
	ko=$1 variant=$2 params=$3
	shift 3
	for sync in "$@"; do
		# shellcheck disable=SC2086
		insmod "$ko" sync="$sync" $params
		mount -t avcrcufs avcrcufs $F
		for t in $threads; do
			measure "$variant" "$sync" hit "$t"
		done
		umount $F
		rmmod avc_rcu
	done
}

# Reclaim sections: fresh keys looked up in the kernel, one after the
# other, by the bench_hot parameter of the copy of the module that links
# tools/avc_bench/avc_rcu_hot.c (avc_rcu-hot.ko), into a cache filled to
# twice its threshold; hot: every entry referenced before each miss.
# Every avc_rcu_reclaim is traced, and every avc_rcu_insert that could
# not cache (result "full").
T=/sys/kernel/tracing
E=$T/events/avc_rcu
P=/sys/module/avc_rcu/parameters/bench_hot

# A RECLAIM line's fields from a trace without context (each line the
# event's name, then its fields as name=value).
lat_summary() {
	awk '
		function sorted(a, file,  x, k) {
			close("sort -n >" file)
			while ((getline x <file) > 0)
				a[++k] = x
		}
		function q(a, x,  i) {	# nearest rank, as avc_native_latency
			i = int(x * n) + 1
			return n ? a[(i > n ? n : i)] : "-"
		}
		$1 == "avc_rcu_reclaim:" {
			for (i = 2; i <= NF; i++) {
				split($i, kv, "=")
				f[kv[1]] = kv[2]
			}
			n++
			evicted[f["evicted"]]++
			if (f["buckets"] > bmax)
				bmax = f["buckets"]
			print f["nodes"] | "sort -n >/tmp/lat.nodes"
			print f["duration_ns"] | "sort -n >/tmp/lat.duration"
		}
		$1 == "avc_rcu_insert:" { full++ }
		END {
			sorted(v, "/tmp/lat.nodes")
			sorted(d, "/tmp/lat.duration")
			printf "sections=%d nodes_p50=%s nodes_max=%s buckets_max=%d evicted=",
				n, q(v, 0.5), q(v, 1), bmax
			for (e = 0; e <= 64; e++)
				if (evicted[e])
					printf "%s%d:%d", sep++ ? "," : "", e, evicted[e]
			printf "%s full=%d duration_p50=%s duration_p99=%s " \
				"duration_max=%s\n", n ? "" : "-", full + 0,
				q(d, 0.5), q(d, 0.99), q(d, 1)
		}'
}

lat_measure() {	# slots reclaimer table ssid
	full=$(sed -n 's/.*{ *\([0-9]*\), "full" }.*/\1/p' \
		$E/avc_rcu_insert/format)
	[ -n "$full" ] ||
		{ echo "bench: no result \"full\" in $E/avc_rcu_insert" >&2; exit 1; }
	hot=0
	[ "$3" != hot ] || hot=1
	echo "$((2 * lat_threshold)) $4 2 0" >$P	# the fill
	table=$(sed -n 's|^buckets used: [0-9]*/||p' $F/avc/hash_stats)
	echo >$T/trace
	echo "result == $full" >$E/avc_rcu_insert/filter
	echo 1 >$E/avc_rcu_insert/enable
	echo 1 >$E/avc_rcu_reclaim/enable
	echo "$lat_misses $(($4 + 2 * lat_threshold)) 2 $hot" >$P
	echo 0 >$E/avc_rcu_reclaim/enable
	echo 0 >$E/avc_rcu_insert/enable
	echo 0 >$E/avc_rcu_insert/filter
	summary=$(lat_summary <$T/trace)
	run=$(cat $P)
	# Events lost: those the ring buffer overwrote.
	lost=$(cat $T/per_cpu/cpu*/stats | awk '/^overrun:/ { n += $2 } END { print n + 0 }')
	echo "RECLAIM slots=$1 table=$table reclaimer=$2 temp=$3" \
		"threshold=$lat_threshold misses=$lat_misses $summary" \
		"lost=$lost unreferenced=$(echo "$run" |
		sed -n 's/.*unreferenced=\([0-9]*\).*/\1/p')" \
		"run_ms=$(($(echo "$run" | sed -n 's/.* ns=\([0-9]*\).*/\1/p') / 1000000))"
}

latency_part() {
	[ "$latency" != off ] || return 0
	[ -f $T/trace ] || mount -t tracefs tracefs $T
	# Room for every event of a measurement on every CPU (KiB): the
	# background reclaimer runs on any.
	echo 4096 >$T/buffer_size_kb
	echo 0 >$T/options/context-info
	ssid=1
	for c in $lat_configs; do
		slots=${c%%:*} reclaimer=${c#*:}
		table=${reclaimer#*:} reclaimer=${reclaimer%%:*}
		insmod avc_rcu-hot.ko slots="$slots" reclaimer="$reclaimer" \
			cache_threshold="$lat_threshold"
		mount -t avcrcufs avcrcufs $F
		lat_measure "$slots" "$reclaimer" "$table" $ssid
		ssid=$((ssid + 2 * lat_threshold + lat_misses))
		umount $F
		rmmod avc_rcu
	done
	echo 1 >$T/options/context-info
}

accel=tcg
dmesg | grep -q "Hypervisor detected: KVM" && accel=kvm
echo "BENCH cpus=$ncpu reps=$reps ms=$ms threads=$(echo $threads | tr ' ' ,)" \
	"sweep_only=$sweep_only where=${BENCH_WHERE:-guest} accel=$accel" \
	"latency=$latency"
# BENCH_ONLY=latency: the reclaim sections alone.
[ "${BENCH_ONLY:-}" != latency ] || { latency_part; echo BENCH done; exit 0; }
insmod avc_rcu.ko
for t in $threads; do
	measure std rcu null "$t"
	measure std rcu compute "$t"
done
rmmod avc_rcu
run_variant avc_rcu.ko std "" rcu spinlock rwlock
[ "$sweep_only" != 1 ] || { echo BENCH done; exit 0; }
run_variant avc_rcu-rcuonly.ko rcuonly "" rcu
# The placement twins, when bench built them, with at most 3 repetitions.
all=$reps
reps=$((reps > 3 ? 3 : reps))
for a in 32 64; do
	[ -f "avc_rcu-std-a$a.ko" ] || continue
	run_variant "avc_rcu-std-a$a.ko" "std@a$a" "" rcu
	run_variant "avc_rcu-rcuonly-a$a.ko" "rcuonly@a$a" "" rcu
done
reps=$all
run_variant avc_rcu.ko fifo reclaim=fifo rcu

# Hit ratios: synthetic streams replayed through avc_rcu_replay.ko, the
# hash seed fixed so that every run evicts exactly the same entries.
sum_stats() {	# lookups hits misses reclaims, summed over CPUs
	awk 'NR > 1 { l += $1; h += $2; m += $3; r += $5 }
		END { printf "%d %d %d %d\n", l, h, m, r }' $F/avc/cache_stats
}

streams="uniform:uniform_8192 zipf0.8:zipf_0.8_16384 zipf1.0:zipf_1.0_16384
hotscan:hotscan_200_600_100 shift:shift_128_2048_4_60"
for s in $streams; do
	# shellcheck disable=SC2046
	./avc_tracegen -n $((ms < 1000 ? 20000 : 200000)) -s 1 \
		$(echo "${s#*:}" | tr _ ' ') >"/tmp/${s%%:*}.trace"
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

latency_part
echo BENCH done
