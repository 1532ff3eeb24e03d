# SPDX-License-Identifier: GPL-2.0
#
# The lab's goals, included by the top Makefile (as WireGuard's includes
# its tests' makefile) before it chooses a kernel: what builds and runs
# the test harness, the benchmarks and the research tools.  The product's
# goals (make, make install, make modules_install) run none of them.
#
#   make selftests       the kselftests, built and installed into build/ksft
#                        by the kernel's own kselftest rules, and the
#                        torture module (selftests/Makefile)
#   make lab-tools       the lab's userspace tools: the access-file
#                        workload, the trace generator and the replay
#                        through the access file
#   make check           static checks, then the kselftests in QEMU guests
#   make bench           the 2004 comparison, measured in a QEMU guest,
#                        then the miss latency (each reclaim traced in the
#                        guest, misses timed natively), build/bench/latency.*
#                        (BENCH_LATENCY=full|quick|off); BENCH_IRQSOFF=1:
#                        then avc_rcu's longest interrupts-off section, on
#                        a kernel of its own, build/bench/irqsoff/
#   make bench CPUS="1 2 4 8 16 32"
#                        the same, sweeping the thread count in one guest
#                        with the largest count of vCPUs; the table beside
#                        Kaigai Kohei's 2004 numbers, build/bench/sweep.*
#   make demo            boot a guest, load the module, show avcstat 1
#   make trace           record a real SELinux system's AVC lookups in a
#                        labeled Debian 12 guest (tools/avc_trace/trace)
#   make mirror          avc_rcu_mirror.ko in the labeled guest: avc_rcu's
#                        lookups beside the kernel AVC's on live traffic
#                        (tools/avc_trace/trace --workload mirror)
#   make study           replay the shipped traces at thresholds 16..8192
#                        under every reclaim policy; avc-advise checked
#                        against libCacheSim and validated live in a
#                        guest; tables and plots in build/study/
#                        (Documentation/reports/study.rst)
#   make upstream        the reclaim series of tools/upstream/series/ in the
#                        kernel's own AVC: Debian's newest linux-source
#                        (7.x, fetched with apt) built stock and patched,
#                        each booted in the labeled guest, its counters
#                        beside the model's prediction, its reclaims
#                        timed (tools/upstream/run, Documentation/reports/upstream.rst)
#   make native          the core in userspace: benchmark against a plain
#                        loop, callgrind's instructions per hit, TSan
#   make fuzz            every libFuzzer target FUZZ_SECONDS (60) each
#   make mutate          mutation testing: each mutation of
#                        tools/testing/mutations in a copy of the tree, which
#                        the tests must kill (MUTATIONS="ID..." for some)

.PHONY: selftests lab-tools lab-clean check bench demo trace mirror study \
	upstream native fuzz mutate

# The goals that need no kernel tree chosen: they choose their kernels
# themselves (the guests') or run no module build.
LAB_NO_KDIR_GOALS := check bench demo native fuzz trace mirror study \
	upstream mutate lab-tools

# The kselftests, built and installed by the kernel's own kselftest rules
# (lib.mk): selftests/ and the uapi header copied into the kernel source
# tree tools/testing/ksrc extracts, as tools/testing/selftests/avc_rcu,
# built in build/ksft-obj and installed into build/ksft (run_kselftest.sh,
# kselftest-list.txt, avc_rcu/), with the torture module, which uses avc_rcu.ko's exports,
# built first by Kbuild.
# The tree's own directory: the Makefile's $(PWD) is not set yet here.
KSFT_INSTALL := $(CURDIR)/build/ksft
selftests: module lab-tools
	$(MAKE) -C $(KDIR) M=$(PWD)/selftests/torture \
		KBUILD_EXTRA_SYMBOLS=$(PWD)/Module.symvers modules
	ksrc=$$(tools/testing/ksrc) && \
	dst=$$ksrc/tools/testing/selftests/avc_rcu && \
	mkdir -p $$dst/include/linux && \
	rsync -a --delete --exclude include --exclude '*.o' --exclude '*.a' \
		--exclude '.*' selftests/ $$dst/ && \
	rsync -a include/uapi/linux/avc_rcu.h $$dst/include/linux/ && \
	rm -rf $(KSFT_INSTALL) && \
	$(MAKE) -s --no-print-directory -C $$ksrc/tools/testing/selftests \
		TARGETS=avc_rcu O=$(PWD)/build/ksft-obj install \
		KSFT_INSTALL_PATH=$(KSFT_INSTALL)

lab-tools:
	$(MAKE) -C tools/avc_workload
	$(MAKE) -C tools/avc_trace

check:
	tools/testing/check

bench:
	tools/avc_bench/bench $(if $(CPUS),--cpus-list '$(CPUS)')

demo:
	tools/testing/demo

trace:
	tools/avc_trace/trace $(TRACE_ARGS)

mirror:
	tools/avc_trace/trace --workload mirror $(TRACE_ARGS)

study:
	tools/avc_trace/study

upstream:
	tools/upstream/run

.PHONY: native fuzz mutate
native:
	tools/native/run native

fuzz:
	tools/native/run fuzz $(FUZZ_SECONDS)

# Not in make check: hours on 2 cores (Documentation/testing.rst).
mutate:
	tools/testing/mutate $(MUTATIONS)

# The harness's share of make clean.
clean: lab-clean
lab-clean:
	$(MAKE) -C $(KDIR) M=$(PWD)/tools/avc_bench clean
	$(MAKE) -C $(KDIR) M=$(PWD)/tools/avc_trace clean
	$(MAKE) -C tools/avc_workload clean
	$(MAKE) -C tools/avc_trace clean
	$(MAKE) -C $(KDIR) M=$(PWD)/selftests/torture clean
