#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The in-kernel torture test of avc_rcu's exported API, avc_rcu_torture.ko
# (AVC_RCU_TORTURE_KO), on the module the test loads.  Every case needs
# the torture module's PASS line in the kernel log (each answer it checked
# was right); Documentation/testing.rst says more of each.
#
#  1. torture: a busy reader on every online CPU, a flusher, policy loads
#     (AVC_TORTURE_SECONDS) and threshold moves (AVC_TORTURE_PARAMS)
#  2. compute_av bypasses the cache: 4096 answers, no counter moved
#  3. reclaim bound under in-kernel hits: at most 17 entries at threshold 16
#  4. CLOCK sweeps under in-kernel hits (reclaim=lru only), for KCSAN
#  5. size bound, hot set four times the threshold (48): at most 48 entries
#  6. size bound, inserting tasks eight per CPU, one place short
#  7. a herd of M misses evicts fewer than M + 16 (2 CPUs or more; in the
#     background, no more than the cache holds above the low watermark
#     plus 15)

set -eu

. "$(dirname "$0")/lib/tst.sh"
tst_module_load
TKO=${AVC_RCU_TORTURE_KO:-$tst_dir/avc_rcu_torture.ko}
SECS=${AVC_TORTURE_SECONDS:-${AVC_STRESS_SECONDS:-10}}
PARAMS=${AVC_TORTURE_PARAMS:-}
PROBE=4096
THR=$MNT/avc/cache_threshold
mpid=

cleanup() {
	if [ -n "$mpid" ]; then
		kill "$mpid" 2>/dev/null || true
		wait "$mpid" 2>/dev/null || true
	fi
	[ ! -d /sys/module/avc_rcu_torture ] || rmmod avc_rcu_torture || true
}

# Mark the kernel log; klog puts what was logged after it in $TMP/klog,
# and shows it; passed: it has the torture module's PASS line, no FAIL.
mark() {
	marker="avc_torture.sh: $1 $$ $(date +%s)"
	echo "<6>$marker" >/dev/kmsg
}

klog() {
	dmesg | awk -v m="$marker" 'index($0, m) { f = 1; next } f' >"$TMP/klog"
	sed 's/^/# /' "$TMP/klog"
}

passed() {
	! grep -q 'avc_rcu_torture: FAIL' "$TMP/klog" &&
		grep -q 'avc_rcu_torture: PASS ' "$TMP/klog"
}

# Move the threshold until $TMP/stop exists; one '.' in $TMP/moves per
# move.
move_threshold() {
	while :; do
		for v in 1 16 512 1048576; do
			[ ! -e "$TMP/stop" ] || return 0
			echo "$v" >"$THR" || return 1
			printf . >>"$TMP/moves"
			usleep 2000
		done
	done
}

# The changes of cache_stats columns between two `avc_tool state` outputs.
stats_delta() {
	awk 'NR == FNR { for (i = 1; i <= NF; i++) { split($i, a, "=")
				b[a[1]] = a[2] } next }
	     { for (i = 1; i <= NF; i++) { split($i, a, "=")
				v[a[1]] = a[2] } }
	     END { n = split("lookups hits misses allocations reclaims", k, " ")
		   for (i = 1; i <= n; i++)
			printf "%s%s+%.0f", (i > 1 ? " " : ""), k[i],
			       (v[k[i]] - b[k[i]] + 4294967296) % 4294967296
		   printf "\n" }' "$1" "$2"
}

# traced_inserts TSID: the results of the inserts of 8 fresh keys of TSID,
# counted from the avc_rcu_insert event in AVC_RCU_TRACEFS, as the other
# tests read it (a diagnostic: "?" without tracefs).
traced_inserts() {
	tr_dir=${AVC_RCU_TRACEFS:-/sys/kernel/tracing}
	[ -f "$tr_dir/events/avc_rcu/avc_rcu_insert/enable" ] ||
		{ echo "?"; return 0; }
	: >"$tr_dir/trace"
	echo 1 >"$tr_dir/events/avc_rcu/avc_rcu_insert/enable"
	"$TOOL" fill 8 "$1" 2>/dev/null || true
	echo 0 >"$tr_dir/events/avc_rcu/avc_rcu_insert/enable"
	sed -n "s/.* tsid=$1 .*result=\([^ ]*\) active=\([0-9-]*\).*/\1 active=\2/p" \
		"$tr_dir/trace" | sort | uniq -c | tr -s ' \n' ' '
	: >"$tr_dir/trace"
}

# setup: a policy of the torture family loaded (answers are verified
# from its seqno, $st_seqno), the state in $TMP/state0; tinsmod PARAM...:
# the torture module loaded to verify them; trmmod: unloaded; finish: the
# threshold put back and the kernel log since the mark shown, with a PASS
# line.  Each failure is a reason in $why.
setup() {
	"$TOOL" torture-load 0 >"$TMP/load" 2>&1 ||
		{ why="torture-load 0 failed: $(cat "$TMP/load")"; return 1; }
	tst_state "$TMP/state0" ||
		{ why="avc_tool state: $(cat "$TMP/state0")"; return 1; }
}

tinsmod() {
	insmod "$TKO" "$@" verify_from="$st_seqno" 2>"$TMP/err" && return 0
	why="insmod failed: $(cat "$TMP/err")"
	return 1
}

trmmod() {
	rmmod avc_rcu_torture 2>"$TMP/err" ||
		addwhy "rmmod failed: $(cat "$TMP/err")"
}

finish() {
	echo "$thr0" >"$THR" || true
	klog
	passed || addwhy "no PASS line"
}

# rose WHAT: cache_stats' changes since $TMP/state0 shown; a reason in
# $why unless reclaims and hits rose (1 if the state cannot be read).
rose() {
	tst_state "$TMP/state1" || return 1
	delta=$(stats_delta "$TMP/state0" "$TMP/state1")
	diag "$1, cache_stats: $delta"
	case " $delta " in *" reclaims+0 "*) addwhy "no reclaim" ;; esac
	case " $delta " in *" hits+0 "*) addwhy "no hit" ;; esac
}

echo "1..7"

if [ ! -f "$TKO" ]; then
	diag "$TKO missing: build it with make selftests (needs KDIR and avc_rcu.ko)"
	for d in "torture" "compute_av bypasses the cache" \
		 "reclaim bound under in-kernel hits" \
		 "CLOCK sweeps under in-kernel hits" \
		 "size bound, hot set four times the threshold" \
		 "size bound, inserting tasks eight per CPU" \
		 "a herd of M misses evicts fewer than M + 16"; do
		not_ok "$d # module missing"
	done
	exit 1
fi
thr0=$(cat "$THR")
cpus=$(grep -c ^processor /proc/cpuinfo)
diag "$cpus CPUs, $SECS s of torture-load, parameters '${PARAMS}'"

# 1. torture
tst_state "$TMP/state0" || true
mark torture
t0=$(tst_now)
# shellcheck disable=SC2086 # PARAMS is a list of parameters
if ! insmod "$TKO" $PARAMS 2>"$TMP/err"; then
	why="insmod failed: $(cat "$TMP/err")"
else
	t_insmod=$(tst_since "$t0")
	: >"$TMP/moves"
	move_threshold &
	mpid=$!
	"$TOOL" torture-load "$SECS" >"$TMP/load" 2>&1 ||
		why="torture-load failed: $(cat "$TMP/load")"
	: >"$TMP/stop"
	mrc=0
	wait "$mpid" || mrc=$?
	mpid=
	[ "$mrc" -eq 0 ] || addwhy "threshold mover exited $mrc"
	t1=$(tst_now)
	trmmod
	diag "insmod $t_insmod s, rmmod $(tst_since "$t1") s"
	diag "torture-load: $(cat "$TMP/load")"
	diag "loads per second: $(awk -F'[= ]' '{ if ($4 > 0)
		printf "%.1f", $2 * 1000 / $4 }' "$TMP/load")"
	diag "threshold moves: $(wc -c <"$TMP/moves")"
	! tst_state "$TMP/state1" ||
		diag "cache_stats: $(stats_delta "$TMP/state0" "$TMP/state1")"
fi
finish
diag "torture case: $(tst_since "$t0") s"
# A reader bound to every online CPU (unless the parameters choose), and
# every one of them looked up.
seen=$(sed -n 's/.*avc_rcu_torture: PASS .* cpus=\([0-9]*\).*/\1/p' "$TMP/klog")
case " $PARAMS " in
*" readers="*) ;;
*) [ -n "$why" ] || [ "${seen:-0}" -eq "$cpus" ] ||
	why="lookups on ${seen:-no} CPUs of $cpus" ;;
esac
# The contexts the readers promise (unless the parameters choose): lookups
# holding a lock, and irq_work batches in hard interrupt context, which on
# PREEMPT_RT (/sys/kernel/realtime, or uname -v) run in the irq_work
# thread instead.
ctx=$(sed -n 's/.*avc_rcu_torture: readers=.* hardirq=\([0-9]*\) irq-thread=\([0-9]*\) lock-held=\([0-9]*\).*/\1 \2 \3/p' \
	"$TMP/klog")
rt=0
[ "$(cat /sys/kernel/realtime 2>/dev/null)" != 1 ] || rt=1
case " $(uname -v) " in
*" PREEMPT_RT "*) rt=1 ;;
esac
case " $PARAMS " in
*" irq_every="* | *" irqoff_every="*) ;;
*)
	# shellcheck disable=SC2086 # three numbers, or none
	set -- $ctx
	hard=${1:-} thr=${2:-} held=${3:-}
	if [ -n "$why" ]; then
		:
	elif [ -z "$ctx" ]; then
		why="no hardirq=, irq-thread=, lock-held= in the summary"
	elif [ "$held" -eq 0 ]; then
		why="no lookup made holding a lock"
	elif [ $rt -eq 0 ] && { [ "$hard" -eq 0 ] || [ "$thr" -ne 0 ]; }; then
		why="irq_work: $hard checks in hard irq, $thr in a thread (not RT)"
	elif [ $rt -eq 1 ] && { [ "$hard" -ne 0 ] || [ "$thr" -eq 0 ]; }; then
		why="irq_work: $hard checks in hard irq, $thr in a thread (PREEMPT_RT)"
	fi
	diag "contexts: hardirq=${hard:-?} irq-thread=${thr:-?}" \
		"lock-held=${held:-?} (PREEMPT_RT: $rt)"
	;;
esac
verdict "torture"

# 2. compute_av bypasses the cache, on a policy of the torture family
if setup; then
	mark probe
	if ! tinsmod readers=0 flush_ms=0 probe=$PROBE; then
		:
	elif ! rmmod avc_rcu_torture 2>"$TMP/err"; then
		why="rmmod failed: $(cat "$TMP/err")"
	elif ! tst_state "$TMP/state1"; then
		why="avc_tool state: $(cat "$TMP/state1")"
	else
		delta=$(stats_delta "$TMP/state0" "$TMP/state1")
		[ "$delta" = "lookups+0 hits+0 misses+0 allocations+0 reclaims+0" ] ||
			why="cache_stats moved: $delta"
	fi
	klog
	passed || addwhy "no PASS line"
	grep -q "PASS checked=$PROBE verified=$PROBE " "$TMP/klog" ||
		addwhy "not $PROBE answers verified"
fi
verdict "compute_av bypasses the cache"

[ "$failed" -eq 0 ]

# 3. the reclaim bound while every CPU hits in the kernel
bound=$((16 + 1))
rounds=0
max=0
if setup; then
	mark bound
	echo 16 >"$THR"
	if tinsmod hot_keys=1 busy_readers=0 flush_ms=0 compute_every=0 \
	     irqoff_every=0 irq_every=0; then
		reclaims=$st_reclaims
		end=$(($(date +%s) + (SECS > 5 ? 5 : SECS)))
		tsid=1000
		cp "$TMP/state0" "$TMP/round0"
		while [ "$(date +%s)" -lt "$end" ] || [ $rounds -lt 3 ]; do
			"$TOOL" fill 64 $tsid 2>"$TMP/err" ||
				{ why="fill failed: $(cat "$TMP/err")"; break; }
			# Returns once a background reclaimer is done.
			echo 16 >"$THR"
			tsid=$((tsid + 1))
			rounds=$((rounds + 1))
			tst_state ||
				{ why="avc_tool state: $(cat "$TMP/state")"; break; }
			[ "$st_entries" -le "$max" ] || max=$st_entries
			[ "$st_entries" -le "$bound" ] ||
				{ why="$st_entries entries at threshold 16, bound $bound"; break; }
			[ "$st_reclaims" != "$reclaims" ] ||
				{ why="64 fresh keys, no reclaim"; break; }
			reclaims=$st_reclaims
			cp "$TMP/state" "$TMP/round0"
		done
		# What the failing round's misses did, and the table after it;
		# then what became of 8 more fresh keys' inserts, and memory.
		if [ -n "$why" ]; then
			diag "round $rounds: $(stats_delta \
				"$TMP/round0" "$TMP/state"); $(tr "\n" " " <"$TMP/state")"
			diag "inserts of 8 fresh keys: $(traced_inserts $tsid)"
			diag "$(grep -E '^(MemFree|MemAvailable|Slab):' /proc/meminfo |
				tr -s ' \n' ' ')"
		fi
		trmmod
	fi
	finish
fi
diag "bound: $rounds rounds of 64 fresh keys, at most $max entries (bound $bound)"
verdict "reclaim bound under in-kernel hits"

[ "$failed" -eq 0 ]

# 4. CLOCK's sweeps clearing the bits of entries that every CPU hits: 32
# hot keys, and one lookup in 8 a random key of the policy's key space,
# at threshold 48, for KCSAN's sake longer on its kernel
reclaim=$(cat /sys/module/avc_rcu/parameters/reclaim 2>/dev/null || echo '?')
csecs=${AVC_TORTURE_CLOCK_SECONDS:-2}
[ ! -e /sys/kernel/debug/kcsan ] || csecs=${AVC_TORTURE_CLOCK_SECONDS:-10}
if [ "$reclaim" != lru ]; then
	skip "CLOCK sweeps under in-kernel hits" "reclaim=$reclaim, not lru"
else
	if setup; then
		mark clock
		echo 48 >"$THR"
		# KCSAN watches one access in skip_watch (4000 in kcsan.config):
		# ten times as many here, where the race is.  A clearing store is
		# caught only if a hit on the same entry comes while it is watched.
		kw=/sys/module/kcsan/parameters/skip_watch
		kw0=
		if [ -w "$kw" ]; then
			kw0=$(cat "$kw")
			[ "$kw0" -le 400 ] || echo 400 >"$kw"
			diag "clock: KCSAN skip_watch $(cat "$kw") (was $kw0)"
		fi
		if tinsmod hot_keys=32 churn=8 busy_readers=0 flush_ms=0 \
		     compute_every=0 irqoff_every=0 irq_every=0; then
			sleep "$csecs"
			trmmod
		fi
		[ -z "$kw0" ] || echo "$kw0" >"$kw" ||
			addwhy "cannot put skip_watch back"
		rose "clock: $csecs s" ||
			addwhy "avc_tool state: $(cat "$TMP/state1")"
		finish
	fi
	verdict "CLOCK sweeps under in-kernel hits"
fi

# The events of tracefs, mounted if need be; empty if there are none.
T=${AVC_RCU_TRACEFS:-/sys/kernel/tracing}
[ -f "$T/trace" ] || mount -t tracefs nodev "$T" 2>/dev/null || true
EV=
[ ! -d "$T/events/avc_rcu/avc_rcu_insert" ] ||
	EV=$T/events/avc_rcu/avc_rcu_insert

# 5. the size bound while every CPU looks up a hot set 4 x threshold
thr5=48
bound5=$((thr5 + 2 * cpus))
if setup; then
	mark hot
	echo "$thr5" >"$THR"
	if [ -n "$EV" ]; then
		echo "active > $bound5" >"$EV/filter"
		: >"$T/trace"
		echo 1 >"$EV/enable"
	fi
	if tinsmod hot_keys=$((4 * thr5)) busy_readers=0 flush_ms=0; then
		sleep "${AVC_TORTURE_HOT_SECONDS:-1}"
		trmmod
	fi
	if [ -n "$EV" ]; then
		echo 0 >"$EV/enable"
		over=$(grep -c 'avc_rcu_insert:' "$T/trace" || true)
		grep -m 3 'avc_rcu_insert:' "$T/trace" | sed 's/^/# /' || true
		echo 0 >"$EV/filter"
		[ "$over" -eq 0 ] ||
			addwhy "$over inserts left more than $bound5 places taken"
	else
		diag "hot: no avc_rcu_insert event in tracefs: the in-run check is left out"
	fi
	# hash_stats after a quiesce (allocations - frees = entries twice in
	# a row: nothing in flight)
	"$TOOL" quiesce 5000 >/dev/null 2>"$TMP/err" ||
		addwhy "quiesce: $(cat "$TMP/err")"
	tst_state && entries=$st_entries ||
		{ entries=0; addwhy "avc_tool state: $(cat "$TMP/state")"; }
	[ "$entries" -le "$thr5" ] ||
		addwhy "$entries entries at threshold $thr5"
	rose "hot: 192 hot keys at threshold $thr5, $entries entries after" ||
		true
	finish
fi
verdict "size bound, hot set four times the threshold"

# 6. many more inserting tasks than CPUs, in rounds
tasks6=$((8 * cpus))
[ "$tasks6" -le 256 ] || tasks6=256
thr6=$((2 * tasks6))
res6=
collide=
if setup; then
	mark burst
	echo "$thr6" >"$THR"
	# All their keys in one bucket when the hash seed is known: the
	# inserts then wait for one another at its lock (a sleeping lock on
	# PREEMPT_RT), between reading the count and linking.
	hseed=$(cat /sys/module/avc_rcu/parameters/hash_seed 2>/dev/null || echo 0)
	hslots=$(cat /sys/module/avc_rcu/parameters/slots 2>/dev/null || echo 0)
	[ "$hseed" = 0 ] || [ "$hslots" -gt 4096 ] ||
		collide="collide_seed=$hseed collide_slots=$hslots"
	# shellcheck disable=SC2086 # $collide is a list of parameters
	if tinsmod readers=0 flush_ms=0 burst_tasks="$tasks6" burst_keys=1 \
	     $collide; then
		res6=$("$TOOL" bursts "${AVC_TORTURE_BURST_ROUNDS:-12}" \
		       "$thr6" "$tasks6" 2>"$TMP/err") || why="$(cat "$TMP/err")"
		trmmod
	fi
	finish
fi
diag "burst: $tasks6 tasks, a fresh key each${collide:+ in one bucket}, one place too few, threshold $thr6: $res6"
verdict "size bound, inserting tasks eight per CPU"

# 7. a herd of misses of one key at the threshold
res7=
if [ "$cpus" -lt 2 ]; then
	skip "a herd of M misses evicts fewer than M + 16" "one CPU"
	[ "$failed" -eq 0 ]
	exit
fi
if setup; then
	mark herd
	echo 64 >"$THR"
	if tinsmod readers=0 flush_ms=0 burst_tasks="$cpus" burst_herd=1; then
		res7=$("$TOOL" herds "${AVC_TORTURE_HERD_ROUNDS:-32}" 64 \
		       2>"$TMP/err") || why="$(cat "$TMP/err")"
		trmmod
	fi
	finish
fi
diag "herd: $cpus CPUs, cache_threshold 64: $res7"
# No herd with two misses at once: the vCPUs never ran the misses
# together (single-threaded TCG runs one vCPU at a time), nothing tested.
if [ -z "$why" ] && case " $res7 " in *" overlapped=0 "*) ;; *) false ;; esac; then
	skip "a herd of M misses evicts fewer than M + 16" "no herd had two misses at once"
else
	verdict "a herd of M misses evicts fewer than M + 16"
fi

[ "$failed" -eq 0 ]
