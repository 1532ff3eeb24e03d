# SPDX-License-Identifier: GPL-2.0
#
# avc_rcu: build the module against a kernel build tree, and the tools.
#
#   make                 avc_rcu.ko, tools/avcstat/avcstat,
#                        tools/avc_workload/avc_workload and
#                        tools/avc_trace/avc_tracegen
#   make KDIR=...        against another kernel's build tree
#   make modules_install install the module (INSTALL_MOD_PATH honoured)
#   make check           static checks, then the kselftests in QEMU guests
#   make bench           the 2004 comparison, measured in a QEMU guest
#   make demo            boot a guest, load the module, show avcstat 1
#   make trace           record a real SELinux system's AVC lookups in a
#                        labeled Debian 12 guest (tools/avc_trace/trace)
#   make native          the core in userspace: benchmark against a plain
#                        loop, callgrind's instructions per hit, TSan
#   make fuzz            every libFuzzer target FUZZ_SECONDS (60) each
#   make print-kdir      the kernel build tree make would use
#   make clean

# The kernel: tools/testing/kdir chooses it, for make as for the QEMU
# guests.  KDIR=DIR must be a kernel build tree; without KDIR, the running
# kernel's headers, else those of the kernel Debian's linux-image-amd64
# depends on; else it says what to install.  The goals that only run
# scripts (which call make themselves) and the userspace tools need none.
KDIR_GIVEN := $(KDIR)
NO_KDIR_GOALS := tools check bench demo native fuzz trace
ifneq ($(filter-out $(NO_KDIR_GOALS),$(or $(MAKECMDGOALS),all)),)
override KDIR := $(shell tools/testing/kdir $(if $(KDIR_GIVEN),'$(KDIR_GIVEN)'))
ifneq ($(.SHELLSTATUS),0)
$(error no kernel build tree: see the lines above)
endif
endif
export KDIR

PWD := $(shell pwd)

.PHONY: all module tools selftests modules_install check bench demo \
	trace clean print-kdir

all: module tools

module:
	@echo "avc_rcu: building for $$(tools/testing/kdir --describe \
		$(if $(KDIR_GIVEN),'$(KDIR_GIVEN)'))"
	$(MAKE) -C $(KDIR) M=$(PWD) modules

tools:
	$(MAKE) -C tools/avcstat
	$(MAKE) -C tools/avc_workload
	$(MAKE) -C tools/avc_trace

# The torture module in selftests/ links against avc_rcu.ko's exports.
selftests: module
	$(MAKE) -C selftests KDIR=$(KDIR)

modules_install:
	$(MAKE) -C $(KDIR) M=$(PWD) modules_install

check:
	tools/testing/check

bench:
	tools/avc_bench/bench

demo:
	tools/testing/demo

trace:
	tools/avc_trace/trace $(TRACE_ARGS)

.PHONY: native fuzz
native:
	tools/native/run native

fuzz:
	tools/native/run fuzz $(FUZZ_SECONDS)

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
	$(MAKE) -C selftests clean
	rm -rf build
