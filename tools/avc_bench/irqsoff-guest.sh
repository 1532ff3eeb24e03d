#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench's irqs-off measurement in its guest (tools/avc_bench/irqsoff),
# on the irqsoff kernel (tools/testing/debug-kernel/irqsoff.config): for
# each module and configuration, a cache filled to twice
# IRQSOFF_THRESHOLD (8192), then IRQSOFF_MISSES (2048) fresh-key misses
# into it hot (bench_hot, tools/avc_bench/avc_rcu_hot.c: every entry
# referenced before each miss), measured twice:
#
#  - the preemptirq events irq_disable and irq_enable, filtered to those
#    whose code (caller) or its caller (parent) is avc_rcu's text: each
#    section avc_rcu begins and ends, paired on its CPU (µs, the trace's
#    clock), as IRQSOFF lines, and the longest by the function that began
#    it as IRQSOFF_FN lines;
#  - the irqsoff tracer without function tracing, over a quarter as many
#    misses: tracing_max_latency, whoever's the section (IRQSOFF_TRACER
#    lines, with where it started and ended);
#
# and once per module, over an eighth as many, the events again with the
# function tracer on avc_rcu's functions, and the lines of the section
# that ran the most of them (TRACE lines), to show what runs in one.
#
# An IRQSOFF_TRACER line "idle" first: the kernel's own longest section in
# as long a sleep, for scale.
set -eu

cd "${BENCH_DIR:-/avc_rcu}"
F=/sys/fs/avc_rcu
T=/sys/kernel/tracing
E=$T/events/preemptirq
P=/sys/module/avc_rcu/parameters/bench_hot
thr=${IRQSOFF_THRESHOLD:-8192} misses=${IRQSOFF_MISSES:-2048}
# version:module:slots:reclaimer ("-": the module's only one).
configs=${IRQSOFF_CONFIGS:-"before:avc_rcu-before.ko:512:- \
before:avc_rcu-before.ko:8192:- after:avc_rcu-after.ko:512:inline \
after:avc_rcu-after.ko:512:background after:avc_rcu-after.ko:0:inline \
after:avc_rcu-after.ko:0:background"}

[ -f $T/trace ] || mount -t tracefs tracefs $T
[ -d $E/irq_disable ] && grep -qw irqsoff $T/available_tracers || {
	echo "irqsoff: this kernel has no irqsoff tracer or preemptirq events" >&2
	exit 1
}
echo 16384 >$T/buffer_size_kb
echo "IRQSOFF_META threshold=$thr misses=$misses kernel=$(uname -r)" \
	"cpus=$(grep -c '^processor' /proc/cpuinfo)"

# The sections of a trace of irq_disable/irq_enable (with context: task,
# [CPU], flags, timestamp), paired by CPU; "$1" names the configuration.
sections() {
	awk -v what="$1" '
		function us(t) { sub(":$", "", t); return t * 1000000 }
		function fn(s) { sub("^(caller|parent)=", "", s); sub("\\+.*", "", s); return s }
		/ irq_disable: / || / irq_enable: / {
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^\[[0-9]+\]$/) cpu = $i
				if ($i ~ /^[0-9]+\.[0-9]+:$/) ts = us($i)
				if ($i ~ /^caller=/) c = fn($i)
				if ($i ~ /^parent=/) p = fn($i)
			}
			if ($0 ~ / irq_disable: /) {
				if (cpu in open) unmatched++
				open[cpu] = ts
				at[cpu] = c " < " p
				next
			}
			if (!(cpu in open)) { unmatched++; next }
			d = int(ts - open[cpu] + 0.5)
			delete open[cpu]
			n++
			printf "%d\n", d | "sort -n >/tmp/irqsoff.d"
			k = at[cpu]
			gsub(" ", "", k)
			printf "%s %d\n", k, d >"/tmp/irqsoff.sd"
			if (d > max) { max = d; maxat = k }
		}
		END {
			close("sort -n >/tmp/irqsoff.d")
			while ((getline x <"/tmp/irqsoff.d") > 0) v[++m] = x
			q50 = m ? v[int(0.5 * m) + 1 > m ? m : int(0.5 * m) + 1] : "-"
			q99 = m ? v[int(0.99 * m) + 1 > m ? m : int(0.99 * m) + 1] : "-"
			for (o in open) unmatched++
			printf "IRQSOFF %s sections=%d p50_us=%s p99_us=%s max_us=%s max_at=%s unmatched=%d\n",
				what, n, q50, q99, n ? sprintf("%d", max) : "-",
				n ? maxat : "-", unmatched + 0
		}'
	# The same by where the section began.
	[ -s /tmp/irqsoff.sd ] || return 0
	sort -k1,1 -k2,2n /tmp/irqsoff.sd | awk -v what="$1" '
		function out() {
			if (!m)
				return
			i50 = int(0.5 * m) + 1; if (i50 > m) i50 = m
			i99 = int(0.99 * m) + 1; if (i99 > m) i99 = m
			printf "IRQSOFF_FN %s at=%s sections=%d p50_us=%d p99_us=%d max_us=%d\n",
				what, site, m, v[i50], v[i99], v[m]
		}
		$1 != site { out(); site = $1; m = 0 }
		{ v[++m] = $2 }
		END { out() }'
	rm -f /tmp/irqsoff.sd
}

# The trace's lines from the irq_disable to the irq_enable of the section
# (each paired on its CPU) that ran the most functions of avc_rcu: the
# most work, which a vCPU stalled by the host does not fake as it fakes
# time.  As TRACE lines: the first 30 and the last 5.
busiest() {
	awk -v what="$1" '
		function us(t) { sub(":$", "", t); return t * 1000000 }
		{
			cpu = ""
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^\[[0-9]+\]$/) cpu = $i
				if ($i ~ /^[0-9]+\.[0-9]+:$/) { ts = us($i); break }
			}
			if (cpu == "") next
		}
		/ irq_disable: / {
			open[cpu] = ts
			buf[cpu] = $0
			cnt[cpu] = 0
			next
		}
		!(cpu in open) { next }
		{ buf[cpu] = buf[cpu] "\n" $0 }
		!/ irq_enable: / { cnt[cpu]++; next }
		{
			if (cnt[cpu] >= most) {
				most = cnt[cpu]
				best = buf[cpu]
				d = int(ts - open[cpu] + 0.5)
			}
			delete open[cpu]
		}
		END {
			printf "TRACE %s functions=%d us=%d\n", what, most, d
			n = split(best, l, "\n")
			for (i = 1; i <= n; i++)
				if (i <= 31 || i > n - 5)
					print "TRACE " l[i]
				else if (i == 32)
					print "TRACE ..."
		}'
}

# The irqsoff tracer's longest section over one command, and where.
tracer() {	# what command...
	tw=$1
	shift
	echo 0 >$T/tracing_on
	echo nop >$T/current_tracer
	echo 0 >$T/options/function-trace
	echo irqsoff >$T/current_tracer
	echo 0 >$T/tracing_max_latency
	echo 1 >$T/tracing_on
	"$@"
	echo 0 >$T/tracing_on
	lat=$(cat $T/tracing_max_latency)
	start=$(sed -n 's/^#* *=> *started at: *//p' $T/trace | head -n 1 |
		tr -d ' ')
	end=$(sed -n 's/^#* *=> *ended at: *//p' $T/trace | head -n 1 |
		tr -d ' ')
	echo nop >$T/current_tracer
	echo 1 >$T/tracing_on
	echo "IRQSOFF_TRACER $tw max_us=$lat started=${start:--}" \
		"ended=${end:--}"
}

tracer "version=idle" sleep 5

ssid=1
traced=
for c in $configs; do
	version=${c%%:*} rest=${c#*:}
	ko=${rest%%:*} rest=${rest#*:}
	slots=${rest%%:*} reclaimer=${rest#*:}
	params="slots=$slots"
	[ "$reclaimer" = - ] || params="$params reclaimer=$reclaimer"
	# shellcheck disable=SC2086
	insmod "$ko" $params
	mount -t avcrcufs avcrcufs $F
	echo "$thr" >$F/avc/cache_threshold
	echo "$((2 * thr)) $ssid 2 0" >$P
	ssid=$((ssid + 2 * thr))
	what="version=$version slots=$slots reclaimer=$reclaimer"
	what="$what table=$(sed -n 's|^buckets used: [0-9]*/||p' $F/avc/hash_stats)"

	# avc_rcu's text, as offsets from _stext (the events' caller_offs,
	# parent_offs): the module's core, from /proc/modules.  Both in the
	# top 4 GiB of the address space, where the kernel and its modules
	# are: their low 32 bits, which the shell's arithmetic holds.
	set -- $(awk '$1 == "avc_rcu" { print $2, $6 }' /proc/modules)
	stext=$(awk '$3 == "_stext" { print $1; exit }' /proc/kallsyms)
	case "${2#0x} $stext" in
	ffffffff???????[0-9a-f]\ ffffffff???????[0-9a-f]) ;;
	*) echo "irqsoff: avc_rcu at $2, _stext at $stext?" >&2; exit 1 ;;
	esac
	lo=$((0x${2#0xffffffff} - 0x${stext#ffffffff}))
	hi=$((lo + $1))
	f="(caller_offs >= $lo && caller_offs < $hi) ||"
	f="$f (parent_offs >= $lo && parent_offs < $hi)"
	echo "$f" >$E/irq_disable/filter
	echo "$f" >$E/irq_enable/filter
	echo >$T/trace
	echo 1 >$E/irq_disable/enable
	echo 1 >$E/irq_enable/enable
	echo "$misses $ssid 2 1" >$P
	ssid=$((ssid + misses))
	echo 0 >$E/irq_enable/enable
	echo 0 >$E/irq_disable/enable
	echo 0 >$E/irq_disable/filter
	echo 0 >$E/irq_enable/filter
	lost=$(cat $T/per_cpu/cpu*/stats |
		awk '/^overrun:/ { n += $2 } END { print n + 0 }')
	sections "$what lost=$lost" <$T/trace

	tracer "$what misses=$((misses / 4))" \
		sh -c "echo '$((misses / 4)) $ssid 2 1' >$P"
	ssid=$((ssid + misses / 4))

	# Once a module: the events again with avc_rcu's functions traced
	# (the function tracer, which slows them), and the lines of the
	# section that ran the most of them, to show what runs in one.
	case " $traced " in
	*" $version "*) ;;
	*)
		traced="$traced $version"
		echo ":mod:avc_rcu" >$T/set_ftrace_filter
		echo function >$T/current_tracer
		echo "$f" >$E/irq_disable/filter
		echo "$f" >$E/irq_enable/filter
		echo >$T/trace
		echo 1 >$E/irq_disable/enable
		echo 1 >$E/irq_enable/enable
		echo "$((misses / 8)) $ssid 2 1" >$P
		ssid=$((ssid + misses / 8))
		echo 0 >$E/irq_enable/enable
		echo 0 >$E/irq_disable/enable
		echo 0 >$E/irq_disable/filter
		echo 0 >$E/irq_enable/filter
		# Read before the tracer changes, which empties the buffer.
		busiest "$what" <$T/trace
		echo nop >$T/current_tracer
		echo >$T/set_ftrace_filter
		;;
	esac

	umount $F
	rmmod avc_rcu
done
echo "IRQSOFF_META done"
