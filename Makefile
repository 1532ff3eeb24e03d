# SPDX-License-Identifier: GPL-2.0
#
# avc_rcu: build the module against a kernel build tree, and the tools.
#
#   make                 avc_rcu.ko, tools/avcstat/avcstat and
#                        tools/avc_workload/avc_workload
#   make KDIR=...        against another kernel's build tree
#   make modules_install install the module (INSTALL_MOD_PATH honoured)
#   make check           static checks, then the kselftests in QEMU guests
#   make bench           the 2004 comparison, measured in a QEMU guest
#   make demo            boot a guest, load the module, show avcstat 1
#   make native          the core in userspace: benchmark against a plain
#                        loop, callgrind's instructions per hit, TSan
#   make fuzz            every libFuzzer target FUZZ_SECONDS (60) each
#   make clean

KDIR ?= /lib/modules/$(shell uname -r)/build
# A host without headers for its own kernel (a container, a CI VM) builds
# for the kernel the QEMU guests boot: the newest installed kernel image
# whose headers are installed too.
ifeq ($(wildcard $(KDIR)/Makefile),)
KDIR_FALLBACK := $(shell tools/testing/vm/run --print-kdir 2>/dev/null)
ifneq ($(KDIR_FALLBACK),)
override KDIR := $(KDIR_FALLBACK)
ifneq ($(MAKECMDGOALS),print-kdir)
$(info avc_rcu: no headers for the running kernel; building for $(KDIR))
endif
endif
endif
export KDIR

PWD := $(shell pwd)

.PHONY: all module tools selftests modules_install check bench demo \
	module-clean clean print-kdir

all: module tools

module:
	$(MAKE) -C $(KDIR) M=$(PWD) modules

tools:
	$(MAKE) -C tools/avcstat
	$(MAKE) -C tools/avc_workload

# The torture module in selftests/ links against avc_rcu.ko's exports.
selftests: module
	$(MAKE) -C selftests

modules_install:
	$(MAKE) -C $(KDIR) M=$(PWD) modules_install

check:
	tools/testing/check

bench:
	tools/avc_bench/bench

demo:
	tools/testing/demo

.PHONY: native fuzz
native:
	tools/native/run native

fuzz:
	tools/native/run fuzz $(FUZZ_SECONDS)

print-kdir:
	@echo $(KDIR)

# Not "make -C $(KDIR) M=$(PWD) clean": Kbuild would delete every *.o, *.a,
# *.ko, .*.cmd and modules.order below the tree, the debug kernel's build
# in build/ and the test modules included.
module-clean:
	rm -f $(foreach d,. avc selinuxfs,$(d)/*.o $(d)/.*.cmd $(d)/.*.d) \
		avc_rcu.ko avc_rcu.mod avc_rcu.mod.c Module.symvers modules.order

clean: module-clean
	$(MAKE) -C tools/avcstat clean
	$(MAKE) -C tools/avc_workload clean
	$(MAKE) -C $(KDIR) M=$(PWD)/tools/avc_bench clean
	$(MAKE) -C selftests clean
	rm -rf build
