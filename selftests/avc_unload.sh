#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# avc_rcu load/unload cycles with nothing leaked, the module loaded by
# the test itself (lib/module.sh finds it; none may be loaded):
#
#  - insmod with bad parameters fails, leaves no trace, names the value;
#    cache_threshold= at load is taken as avc/cache_threshold takes it;
#  - with fault injection (the debug kernel), the setup's Nth allocation
#    failing, N = 1, 2, ...: ENOMEM and nothing left, or a working module;
#  - AVC_UNLOAD_CYCLES (10) cycles of insmod (slots, sync, reclaim,
#    reclaimer, hash_seed, cache_threshold), mount, fresh state, policy load, queries, slab objects ==
#    entries (AVC_RCU_SLAB), rmmod refused while mounted or while a file
#    is open, umount, rmmod; then no module, mount point, filesystem type
#    or slab cache;
#  - mount -t avcrcufs loads the module (AVC_RCU_ALLOW_DEPMOD, below).

set -eu

. "$(dirname "$0")/lib/tst.sh"
tst_module_find || tst_skip_all "$tst_module_why"
KO=$tst_ko
CYCLES=${AVC_UNLOAD_CYCLES:-10}
SLAB=${AVC_RCU_SLAB:-avc_rcu_node}

loaded() { [ -d /sys/module/avc_rcu ]; }

# Active objects of the slab cache, or nothing if it is not listed.
slab_active() { awk -v s="$SLAB" '$1 == s { print $2 }' /proc/slabinfo; }

# Everything the module made is gone.
gone() {
	rc=0
	! loaded || { echo "/sys/module/avc_rcu still there"; rc=1; }
	[ ! -e "$MNT" ] || { echo "$MNT still there"; rc=1; }
	! grep -qw avcrcufs /proc/filesystems ||
		{ echo "avcrcufs still in /proc/filesystems"; rc=1; }
	[ -z "$(slab_active)" ] || { echo "$SLAB still in /proc/slabinfo"; rc=1; }
	return $rc
}

# The state of a module just loaded with $1 slots (0: following the
# threshold, $2 or 512) (avc_tool state's first line is its seqno,
# threshold and hash_stats).
fresh_state() {
	tst_state || { cat "$TMP/state"; return 1; }
	got=$(sed -n 1p "$TMP/state")
	fs_thr=${2:-512}
	fs_slots=$1
	[ "$fs_slots" != 0 ] || fs_slots=$(follow_slots "$fs_thr")
	want="seqno=0 threshold=$fs_thr entries=0 used=0 slots=$fs_slots longest=0"
	[ "$got" = "$want" ] || { printf 'got  %s\nwant %s\n' "$got" "$want"; return 1; }
	[ "$st_lookups$st_hits$st_misses$st_allocations$st_reclaims$st_frees" = 000000 ] ||
		{ echo "counters not zero after insmod: $(sed -n 2p "$TMP/state")"; return 1; }
	rows=$(awk 'END { print NR - 1 }' "$MNT/avc/cache_stats")
	possible=$(tr ',' '\n' </sys/devices/system/cpu/possible |
		   awk -F- '{ n += ($2 == "" ? 1 : $2 - $1 + 1) } END { print n }')
	[ "$rows" = "$possible" ] ||
		{ echo "cache_stats has $rows rows for $possible possible CPUs"; return 1; }
}

# The buckets of a table that follows threshold $1: its power of two, at
# least 512, at most 65536.
follow_slots() {
	fw=512
	while [ "$fw" -lt "$1" ] && [ "$fw" -lt 65536 ]; do
		fw=$((fw * 2))
	done
	echo "$fw"
}

expect_reply() {
	got=$("$TOOL" access "$1" "$2" "$3" 0) || return 1
	[ "$got" = "$4" ] || { echo "access $1 $2 $3: got '$got', want '$4'"; return 1; }
}

# The slab cache holds exactly the live entries once idle.
slab_matches() {
	"$TOOL" quiesce || return 1
	tries=0
	while :; do
		tst_state || { cat "$TMP/state"; return 1; }
		[ ! -w "/sys/kernel/slab/$SLAB/shrink" ] ||
			echo 1 >"/sys/kernel/slab/$SLAB/shrink"
		active=$(slab_active)
		[ -n "$active" ] || { echo "$SLAB not in /proc/slabinfo while loaded"; return 1; }
		[ "$active" != "$st_entries" ] || return 0
		tries=$((tries + 1))
		[ $tries -lt 50 ] ||
			{ echo "$SLAB: $active active objects, $st_entries entries"; return 1; }
		sleep 0.2
	done
}

rmmod_refused() {
	! rmmod avc_rcu 2>"$TMP/err" || { echo "rmmod succeeded while $1"; return 1; }
	cat "$TMP/err"
	loaded || { echo "module gone after a refused rmmod"; return 1; }
}

# rmmod, retried briefly: the last reference can drop asynchronously.
rmmod_now() {
	tries=0
	until rmmod avc_rcu; do
		tries=$((tries + 1))
		[ $tries -lt 10 ] || return 1
		sleep 0.2
	done
	[ $tries -eq 0 ] || echo "# rmmod needed $((tries + 1)) attempts"
}

diag "module $KO, mount point $MNT, $CYCLES cycles"
check "not loaded at start" gone

for p in slots=15 slots=100 slots=8 slots=131072 slots=-1 \
	 slots=abc sync=bogus sync= sync=rcu,spinlock reclaim=bogus reclaim= \
	 reclaim=lru,fifo reclaim=LRU reclaimer=bogus reclaimer= \
	 reclaimer=Inline hash_seed=-1 hash_seed=abc hash_seed=4294967296 \
	 cache_threshold=0 cache_threshold=1048577 cache_threshold=-1 \
	 cache_threshold=abc cache_threshold= cache_threshold=0x200 \
	 "cache_threshold= 512" cache_threshold=+512 \
	 cache_threshold=99999999999999999999; do
	if insmod "$KO" "$p" 2>"$TMP/err"; then
		not_ok "insmod $p refused"
		umount "$MNT" 2>/dev/null || true
		rmmod avc_rcu || true
	else
		ok "insmod $p refused"
	fi
	check "insmod $p left nothing behind" gone
done

# A refused value is named in the kernel log, as sync='s is.
logged() {
	dmesg | grep -qF -- "$1" || { echo "no '$1' in the kernel log"; return 1; }
}
check "reclaim=bogus named in the log" \
	logged "reclaim=bogus: must be lru, fifo or newest"
check "reclaimer=bogus named in the log" \
	logged "reclaimer=bogus: must be inline or background"
check "cache_threshold=0x200 named in the log" \
	logged "cache_threshold=0x200: must be a decimal number from 1 to 1048576"

# The setup with its Nth fault-injectable allocation failing, for N = 1,
# 2, ... until the module says the injection was not reached:
# init_fail_nth arms /proc/<pid>/fail-nth around the module's own setup
# only (see selinuxfs/main.c).  The injectors are made quiet and sleeping
# allocations injectable, as avc_faults does, and put back after.
FI=/sys/kernel/debug
FI_KNOBS="failslab/verbose failslab/ignore-gfp-wait fail_page_alloc/verbose
fail_page_alloc/ignore-gfp-wait fail_page_alloc/min-order"
FAULT_MAX=${AVC_FAULTS_MAX_N:-400}

fi_save() {
	for k in $FI_KNOBS; do
		printf '%s %s\n' "$k" "$(cat "$FI/$k")" || return 1
	done >"$TMP/fi.saved"
}

fi_set() {	# knob value
	echo "$2" >"$FI/$1" || { echo "cannot write $2 to $FI/$1"; return 1; }
}

fi_quiet() {
	fi_set failslab/verbose 0 && fi_set failslab/ignore-gfp-wait N &&
		fi_set fail_page_alloc/verbose 0 &&
		fi_set fail_page_alloc/ignore-gfp-wait N &&
		fi_set fail_page_alloc/min-order 0
}

fi_restore() {
	while read -r k v; do
		fi_set "$k" "$v"
	done <"$TMP/fi.saved"
}

# What the module logged for init_fail_nth=$1, in fault_said.
fault_said=
fault_log() {
	fault_said=$(dmesg | grep -F "avc_rcu: init_fail_nth=$1: " | tail -n 1 |
		     sed 's/.*init_fail_nth=[0-9]*: //')
	[ -n "$fault_said" ] || { echo "no init_fail_nth=$1 line in the log"; return 1; }
}

# A module that loaded under injection works as a fresh one, and goes.
works_fresh() {
	mount -t avcrcufs avcrcufs "$MNT" || return 1
	wf_rc=0
	fresh_state 512 &&
		printf 'allow 1 2 3 0x7\npermissive 5\n' >"$TMP/fpolicy" &&
		"$TOOL" load "$TMP/fpolicy" &&
		expect_reply 1 2 3 "7 ffffffff 0 ffffffff 1 0" &&
		expect_reply 5 9 9 "0 ffffffff 0 ffffffff 1 1" || wf_rc=1
	umount "$MNT" || wf_rc=1
	rmmod_now || wf_rc=1
	gone || wf_rc=1
	return $wf_rc
}

# One insmod with allocation $1 failing; sets fault_outcome to enomem,
# loaded or reached_end.
fault_outcome=
insmod_faulted() {
	fi_n=$1
	fault_outcome=
	if insmod "$KO" "init_fail_nth=$fi_n" 2>"$TMP/err"; then
		fault_log "$fi_n" || { rmmod avc_rcu; return 1; }
		case $fault_said in
		"not reached"*)	fault_outcome=reached_end ;;
		injected*)	fault_outcome=loaded ;;
		*)		echo "log: $fault_said"; rmmod avc_rcu; return 1 ;;
		esac
		works_fresh
		return
	fi
	cat "$TMP/err"
	grep -q "Cannot allocate memory" "$TMP/err" ||
		{ echo "insmod failed, not with ENOMEM"; gone; return 1; }
	fault_log "$fi_n" || return 1
	case $fault_said in
	"injected (error -12)") ;;
	*) echo "insmod failed with ENOMEM, but the log says: $fault_said"; gone
	   return 1 ;;
	esac
	fault_outcome=enomem
	gone
}

fault_sweep() {
	fi_n=1 fi_failed=0 fi_survived=0
	while [ "$fi_n" -le "$FAULT_MAX" ]; do
		if ! insmod_faulted "$fi_n" >"$TMP/fout" 2>&1; then
			sed 's/^/# /' "$TMP/fout"
			not_ok "insmod, setup allocation $fi_n failing: ENOMEM and nothing left, or a working module"
			return
		fi
		case $fault_outcome in
		reached_end)
			ok "insmod, setup allocation $fi_n failing: not reached, a working module"
			diag "the setup: $((fi_n - 1)) fault-injectable allocations; $fi_failed made insmod fail with ENOMEM, $fi_survived were survived ($fault_said)"
			[ "$fi_failed" -gt 0 ] && ok "some setup allocation failures fail insmod" ||
				not_ok "some setup allocation failures fail insmod"
			return ;;
		enomem)	fi_failed=$((fi_failed + 1))
			ok "insmod, setup allocation $fi_n failing: ENOMEM, nothing left" ;;
		loaded)	fi_survived=$((fi_survived + 1))
			ok "insmod, setup allocation $fi_n failing: survived, a working module" ;;
		esac
		fi_n=$((fi_n + 1))
	done
	not_ok "insmod fault sweep: still injected at N = $FAULT_MAX (AVC_FAULTS_MAX_N)"
}

# Which allocation is the Nth moves between boots, so the sweep may not
# reach the mount point's failure: made on purpose too, with only the
# caches slub_debug marked (avc_rcu_node, kernfs_node_cache) injectable
# and no page: allocation 1 is then the mount point's kernfs node.
FI_KNOBS="$FI_KNOBS failslab/cache-filter"
kernfs_fails() {
	fi_set failslab/cache-filter Y && fi_set fail_page_alloc/min-order 64 ||
		return 1
	rc_k=0
	insmod_faulted 1 || rc_k=1
	[ "$fault_outcome" = enomem ] ||
		{ echo "insmod with the mount point's node failing: ${fault_outcome:-failed} ($fault_said)"; rc_k=1; }
	dmesg | tail -n 20 | grep -q "avc_rcu: cannot create /sys/fs/avc_rcu: -12" ||
		{ echo "no 'cannot create /sys/fs/avc_rcu: -12' in the log"; rc_k=1; }
	fi_set failslab/cache-filter N && fi_set fail_page_alloc/min-order 0 ||
		rc_k=1
	return $rc_k
}

if [ -e /proc/self/fail-nth ] && [ -w "$FI/failslab/verbose" ]; then
	if ! grep -q "parm=init_fail_nth:" "$KO"; then
		not_ok "insmod fault sweep: $KO has no init_fail_nth on a kernel with fault injection"
	elif fi_save && fi_quiet; then
		fault_sweep
		if [ "$(cat /sys/kernel/slab/kernfs_node_cache/failslab 2>/dev/null)" = 1 ]; then
			check "insmod, the mount point's node failing: ENOMEM, logged, nothing left" \
				kernfs_fails
		else
			skip "insmod, the mount point's node failing" \
				"kernfs_node_cache not marked (boot with slub_debug=A,kernfs_node_cache)"
		fi
		check "fault injectors put back" fi_restore
	else
		not_ok "insmod fault sweep: cannot set the injectors"
		fi_restore || true
	fi
else
	skip "insmod fault sweep" "no fault injection (/proc/self/fail-nth, $FI/failslab)"
fi

# The load parameters as given, read-only in sysfs; cache_threshold reads
# as the threshold in force.  hash_seed, with which anyone allowed to query
# could choose keys that share a bucket, is readable by root only, reads
# as the seed in use (a random one is never 0), and the load's log line
# does not give it.
params_shown() {	# sync reclaim reclaimer seed threshold
	d=/sys/module/avc_rcu/parameters
	ps_seed=$4
	for kv in "sync $1" "reclaim $2" "reclaimer $3" "cache_threshold $5"; do
		ps_name=${kv% *} ps_want=${kv#* }
		got=$(cat "$d/$ps_name") || return 1
		[ "$got" = "$ps_want" ] ||
			{ echo "$d/$ps_name: '$got', want '$ps_want'"; return 1; }
		mode=$(stat -c %a "$d/$ps_name")
		[ "$mode" = 444 ] || { echo "$d/$ps_name: mode $mode, want 444"; return 1; }
	done
	set -- "$ps_seed"
	got=$(cat "$d/hash_seed") || return 1
	mode=$(stat -c %a "$d/hash_seed")
	[ "$mode" = 400 ] || { echo "$d/hash_seed: mode $mode, want 400"; return 1; }
	if [ "$1" = 0 ]; then
		[ "$got" != 0 ] || { echo "$d/hash_seed: a random seed of 0"; return 1; }
		line=$(dmesg | grep 'avc_rcu: .* slots (' | tail -n 1)
		case $line in
		*"hash_seed random,"*) ;;
		*) echo "load line: '$line', want 'hash_seed random'"; return 1 ;;
		esac
		case $line in
		*"$got"*) echo "the load line gives the seed $got: '$line'"; return 1 ;;
		esac
	else
		[ "$got" = "$1" ] || { echo "$d/hash_seed: '$got', want '$1'"; return 1; }
	fi
}

i=0
while [ $i -lt "$CYCLES" ]; do
	i=$((i + 1))
	set -- $(printf '%s\n' "16 512 65536 0 32 512 16 0 4096 512 0" \
		"rcu spinlock rwlock" "lru fifo newest lru" "0 7 4294967295" \
		"background inline" "512 8192 1 512 100000" |
		awk -v i=$i '{ print $(1 + (i - 1) % NF) }')
	slots=$1 sync=$2 reclaim=$3 seed=$4 reclaimer=$5 thr=$6
	c="cycle $i (slots=$slots sync=$sync reclaim=$reclaim reclaimer=$reclaimer hash_seed=$seed cache_threshold=$thr)"

	if ! insmod "$KO" "slots=$slots" "sync=$sync" "reclaim=$reclaim" \
		"reclaimer=$reclaimer" "hash_seed=$seed" \
		"cache_threshold=$thr" 2>"$TMP/err"; then
		sed 's/^/# /' "$TMP/err"
		not_ok "$c: insmod"
		continue
	fi
	ok "$c: insmod"
	check "$c: parameters shown read-only" params_shown "$sync" "$reclaim" \
		"$reclaimer" "$seed" "$thr"
	check "$c: mount point created" test -d "$MNT"
	if ! mount -t avcrcufs avcrcufs "$MNT" 2>"$TMP/err"; then
		sed 's/^/# /' "$TMP/err"
		not_ok "$c: mount"
		rmmod avc_rcu || true
		continue
	fi
	ok "$c: mount"
	check "$c: fresh state" fresh_state "$slots" "$thr"
	check "$c: deny all before any load" \
		expect_reply 1 2 3 "0 ffffffff 0 ffffffff 0 0"

	awk -v i=$i 'BEGIN {
		printf "# cycle %d\nallow 1 2 3 %d\nauditallow 1 2 3 0x10\npermissive 5\n", i, i
		for (k = 1; k <= 50; k++)
			print "allow " k " 7 7 0x" k
	}' >"$TMP/policy"
	check "$c: load" "$TOOL" load "$TMP/policy"
	check "$c: decision" expect_reply 1 2 3 \
		"$(printf '%x' "$i") ffffffff 10 ffffffff 1 0"
	check "$c: permissive" expect_reply 5 9 9 "0 ffffffff 0 ffffffff 1 1"
	check "$c: queries" "$TOOL" fill $((i * 100))
	if grep -qw slab_nomerge /proc/cmdline; then
		check "$c: $SLAB objects == entries" slab_matches
	else
		skip "$c: slab check" "needs slab_nomerge on the kernel command line"
	fi

	check "$c: rmmod refused while mounted" rmmod_refused "mounted"
	check "$c: usable after refused rmmod" expect_reply 1 2 3 \
		"$(printf '%x' "$i") ffffffff 10 ffffffff 1 0"

	if [ $((i % 2)) -eq 0 ] && [ -r "$MNT/seqno" ]; then
		# Lazily unmounted but a file still open: still busy.
		exec 3<"$MNT/seqno"
		check "$c: lazy umount" umount -l "$MNT"
		check "$c: rmmod refused while a file is open" \
			rmmod_refused "a file was open"
		exec 3<&-
	else
		check "$c: umount" umount "$MNT"
	fi
	check "$c: rmmod" rmmod_now
	check "$c: nothing left" gone
done

# `mount -t avcrcufs` with the module not loaded asks modprobe for
# "fs-avcrcufs" (MODULE_ALIAS_FS).  The module is staged into
# /lib/modules/$(uname -r)/extra for this, and taken away after, only if
# none is installed and AVC_RCU_ALLOW_DEPMOD is 1 (the guests' /init sets
# it); else the case skips: a machine's module tree is not the test's.
installed() {
	[ -n "$(find "/lib/modules/$(uname -r)" -name 'avc_rcu.ko*' \
		2>/dev/null)" ]
}

autoload() {
	r=$(uname -r)
	staged=
	if ! installed; then
		mkdir -p "/lib/modules/$r/extra" &&
			cp "$KO" "/lib/modules/$r/extra/avc_rcu.ko" &&
			staged="/lib/modules/$r/extra/avc_rcu.ko" &&
			depmod || return 1
	fi
	mkdir -p "$TMP/mnt"
	rc=0
	if ! mount -t avcrcufs avcrcufs "$TMP/mnt"; then
		echo "mount -t avcrcufs did not load the module"
		rc=1
	elif ! loaded || [ ! -r "$TMP/mnt/avc/cache_threshold" ]; then
		echo "mounted, but the module or its files are missing"
		rc=1
	fi
	umount "$TMP/mnt" 2>/dev/null
	loaded && { rmmod_now || rc=1; }
	[ -z "$staged" ] || { rm -f "$staged"; depmod; }
	return $rc
}

if ! command -v depmod >/dev/null 2>&1 || ! command -v modprobe >/dev/null 2>&1; then
	skip "mount -t avcrcufs loads the module" "no depmod/modprobe"
	skip "nothing left after the autoloaded module" "no depmod/modprobe"
elif ! installed && [ "${AVC_RCU_ALLOW_DEPMOD:-0}" != 1 ]; then
	skip "mount -t avcrcufs loads the module" \
		"avc_rcu is not installed; AVC_RCU_ALLOW_DEPMOD=1 stages it"
	skip "nothing left after the autoloaded module" "not autoloaded"
else
	check "mount -t avcrcufs loads the module" autoload
	check "nothing left after the autoloaded module" gone
fi

if awk -v m="$MNT" '$2 == m && $3 == "avcrcufs" { f = 1 } END { exit !f }' \
	/proc/mounts; then
	umount "$MNT" || true
fi
! loaded || rmmod avc_rcu || true

echo "1..$n"
[ $failed -eq 0 ]
