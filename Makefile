# SPDX-License-Identifier: GPL-2.0
#
# avc_rcu: build the module against a kernel build tree, and the tools.
#
#   make                 avc_rcu.ko, tools/avcstat/'s avcstat, avc-curve
#                        and avc_record, tools/avc_workload/avc_workload
#                        and tools/avc_trace/'s avc_tracegen and
#                        avc_replay_access
#   make KDIR=...        against another kernel's build tree
#   make modules_install install the module (INSTALL_MOD_PATH honoured)
#   make install         the module (modules_install, then depmod),
#                        avcstat built for this machine as avcstat-rcu,
#                        avc-advise with its engine and recorder, and
#                        their man pages (PREFIX=/usr/local, DESTDIR,
#                        INSTALL_MOD_PATH, AVCSTAT_NAME=avcstat honoured)
#   make uninstall       remove what make install installed (same variables)
#   make selftests       the kselftests, built and installed into build/ksft
#                        by the kernel's own kselftest rules, and the
#                        torture module (selftests/Makefile)
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
#                        (Documentation/study.rst)
#   make upstream        the reclaim series of tools/upstream/series/ in the
#                        kernel's own AVC: Debian's newest linux-source
#                        (7.x, fetched with apt) built stock and patched,
#                        each booted in the labeled guest, its counters
#                        beside the model's prediction, its reclaims
#                        timed (tools/upstream/run, Documentation/upstream.rst)
#   make native          the core in userspace: benchmark against a plain
#                        loop, callgrind's instructions per hit, TSan
#   make fuzz            every libFuzzer target FUZZ_SECONDS (60) each
#   make mutate          mutation testing: each mutation of
#                        tools/testing/mutations in a copy of the tree, which
#                        the tests must kill (MUTATIONS="ID..." for some)
#   make print-kdir      the kernel build tree make would use
#   make clean

# The kernel: tools/testing/kdir chooses it, for make as for the QEMU
# guests.  KDIR=DIR must be a kernel build tree; without KDIR, the running
# kernel's headers, else those of the kernel Debian's linux-image-amd64
# depends on; else it says what to install.  The goals that only run
# scripts (which call make themselves) and the userspace tools need none.
KDIR_GIVEN := $(KDIR)
NO_KDIR_GOALS := tools check bench demo native fuzz trace mirror study \
		 upstream mutate
ifneq ($(filter-out $(NO_KDIR_GOALS),$(or $(MAKECMDGOALS),all)),)
override KDIR := $(shell tools/testing/kdir $(if $(KDIR_GIVEN),'$(KDIR_GIVEN)'))
ifneq ($(.SHELLSTATUS),0)
$(error no kernel build tree: see the lines above)
endif
endif
export KDIR

PWD := $(shell pwd)

.PHONY: all module tools selftests modules_install install uninstall \
	check bench demo trace mirror study upstream clean print-kdir

all: module tools

module:
	@echo "avc_rcu: building for $$(tools/testing/kdir --describe \
		$(if $(KDIR_GIVEN),'$(KDIR_GIVEN)'))"
	$(MAKE) -C $(KDIR) M=$(PWD) modules

tools:
	$(MAKE) -C tools/avcstat
	$(MAKE) -C tools/avc_workload
	$(MAKE) -C tools/avc_trace

# The kselftests, built and installed by the kernel's own kselftest rules
# (lib.mk): selftests/ and the uapi header copied into the kernel source
# tree tools/testing/ksrc extracts, as tools/testing/selftests/avc_rcu,
# built in build/ksft-obj and installed into build/ksft (run_kselftest.sh,
# kselftest-list.txt, avc_rcu/), with the torture module, which uses avc_rcu.ko's exports,
# built first by Kbuild.
KSFT_INSTALL := $(PWD)/build/ksft
selftests: module
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

# Kbuild signs an external module when the kernel signs all of its own
# (CONFIG_MODULE_SIG_ALL), with the kernel's key, which a distribution's
# headers do not ship: then sign-file fails (Kbuild ignores that for
# external modules, but prints OpenSSL errors).  Without the key, do not
# try; DKMS (dkms.conf) signs with its own key where Secure Boot needs one.
SIG_KEY = $(shell sed -n 's/^CONFIG_MODULE_SIG_KEY="*\([^"]*\)"*$$/\1/p' \
	$(KDIR)/include/config/auto.conf 2>/dev/null)
NO_SIGN = $(if $(filter pkcs11:%,$(SIG_KEY)),,$(if $(wildcard \
	$(if $(filter /%,$(SIG_KEY)),$(SIG_KEY),$(KDIR)/$(SIG_KEY))),,\
	CONFIG_MODULE_SIG_ALL=))

MODULES_INSTALL = $(MAKE) -C $(KDIR) M=$(PWD) \
	INSTALL_MOD_DIR=$(INSTALL_MOD_DIR) $(NO_SIGN) modules_install

modules_install:
	$(MODULES_INSTALL)

# make install: where things go.  The module goes below INSTALL_MOD_PATH
# (Kbuild's variable), in INSTALL_MOD_DIR; avcstat and its man page are
# tools/avcstat/Makefile's install, with its variables (PREFIX=/usr/local,
# SBINDIR, MANDIR, DESTDIR and AVCSTAT_NAME=avcstat-rcu: a name of its own,
# so that "avcstat" stays libselinux's; see the admin guide), which reach
# it from the command line or the environment as they are.
INSTALL_MOD_DIR	?= extra
KRELEASE	= $(shell tools/testing/kdir --release '$(KDIR)')
MODLIB		= $(INSTALL_MOD_PATH)/lib/modules/$(KRELEASE)
# The files depmod writes, removed by uninstall when no module is left
# below MODLIB (a staging tree; a real one always has the kernel's).
DEPMOD_FILES	:= modules.alias modules.alias.bin modules.builtin.alias.bin \
		   modules.builtin.bin modules.dep modules.dep.bin \
		   modules.devname modules.softdep modules.symbols \
		   modules.symbols.bin

# Kbuild's modules_install runs depmod only when the tree has a
# System.map, which distribution headers lack: run it here, against the
# kernel's Module.symvers so that it reports an unresolved symbol.
install: module
	$(MODULES_INSTALL)
	depmod $(if $(INSTALL_MOD_PATH),-b "$(INSTALL_MOD_PATH)") -e \
		-E $(KDIR)/Module.symvers $(KRELEASE)
	$(MAKE) -C tools/avcstat install

uninstall:
	for f in avc_rcu.ko avc_rcu.ko.gz avc_rcu.ko.xz avc_rcu.ko.zst; do \
		rm -f "$(MODLIB)/$(INSTALL_MOD_DIR)/$$f"; \
	done
	if [ -d "$(MODLIB)/$(INSTALL_MOD_DIR)" ]; then \
		rmdir --ignore-fail-on-non-empty \
			"$(MODLIB)/$(INSTALL_MOD_DIR)"; \
	fi
	if find "$(MODLIB)" -name '*.ko*' 2>/dev/null | grep -q .; then \
		depmod $(if $(INSTALL_MOD_PATH),-b "$(INSTALL_MOD_PATH)") \
			$(KRELEASE); \
	else \
		for f in $(DEPMOD_FILES); do rm -f "$(MODLIB)/$$f"; done; \
	fi
	$(MAKE) -C tools/avcstat uninstall

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

# Not in make check: about 46 minutes on 2 cores (Documentation/testing.rst).
mutate:
	tools/testing/mutate $(MUTATIONS)

print-kdir:
	@echo $(KDIR)

# Kbuild's clean deletes every *.o, *.ko, .*.cmd and modules.order below
# the tree (the torture and bench modules' too).  Nothing built elsewhere
# lives here: the debug kernel is in the cache directory (see
# Documentation/testing.rst).
clean:
	$(MAKE) -C $(KDIR) M=$(PWD) clean
	$(MAKE) -C $(KDIR) M=$(PWD)/tools/avc_bench clean
	$(MAKE) -C $(KDIR) M=$(PWD)/tools/avc_trace clean
	$(MAKE) -C tools/avcstat clean
	$(MAKE) -C tools/avc_workload clean
	$(MAKE) -C tools/avc_trace clean
	$(MAKE) -C $(KDIR) M=$(PWD)/selftests/torture clean
	rm -rf build
