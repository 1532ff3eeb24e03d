#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What avc_reach.sh and avc_budget.sh share: the reclaim's work read from
# the avc_rcu_reclaim and avc_rcu_insert events in tracefs (POSIX sh,
# sourced after lib/tst.sh and after the module was loaded).  It sets T
# (AVC_RCU_TRACEFS, else /sys/kernel/tracing, mounted if it is not),
# defines cleanup() to switch the events off, and skips the whole test
# (tst_skip_all) when the module has no events there.
#
#   trace_on            empty the trace, switch both events on
#   trace_off           switch avc_rcu's events off, copy the trace to
#                       $TMP/trace
#   summary             one line from $TMP/trace: sections, most nodes,
#                       most buckets, most evicted, sections that evicted,
#                       inserts not cached (full), inserts into a full
#                       bucket (chain), inserts; all 0 without a trace

T=${AVC_RCU_TRACEFS:-/sys/kernel/tracing}
[ -f "$T/trace" ] || mount -t tracefs nodev "$T" 2>/dev/null || true

cleanup() {
	echo 0 >"$T/events/avc_rcu/enable" 2>/dev/null || true
}

[ -d "$T/events/avc_rcu/avc_rcu_reclaim" ] ||
	tst_skip_all "no avc_rcu events in tracefs"

trace_on() {
	: >"$T/trace"
	echo 1 >"$T/events/avc_rcu/avc_rcu_reclaim/enable"
	echo 1 >"$T/events/avc_rcu/avc_rcu_insert/enable"
}

trace_off() {
	echo 0 >"$T/events/avc_rcu/enable"
	cp "$T/trace" "$TMP/trace"
}

summary() {
	awk '/avc_rcu_reclaim:/ {
		n++
		for (i = 1; i <= NF; i++) {
			split($i, a, "=")
			if (a[1] == "nodes" && a[2] + 0 > nd) nd = a[2] + 0
			if (a[1] == "buckets" && a[2] + 0 > b) b = a[2] + 0
			if (a[1] == "evicted" && a[2] + 0 > e) e = a[2] + 0
			if (a[1] == "evicted" && a[2] + 0 > 0) ev++
		}
	}
	/avc_rcu_insert:.* result=full/ { full++ }
	/avc_rcu_insert:.* result=chain/ { chain++ }
	/avc_rcu_insert:/ { ins++ }
	END { printf "%d %d %d %d %d %d %d %d\n", n, nd, b, e, ev, full, chain, ins }' \
	"$TMP/trace" 2>/dev/null || echo "0 0 0 0 0 0 0 0"
}
