# SPDX-License-Identifier: GPL-2.0
#
# avc_rcu: build the module against a kernel build tree, and avcstat.
#
#   make                 avc_rcu.ko and tools/avcstat/'s avcstat,
#                        avc-curve and avc_record (the tools make install
#                        installs)
#   make KDIR=...        against another kernel's build tree
#   make modules_install install the module (INSTALL_MOD_PATH honoured)
#   make install         the module (modules_install, then depmod),
#                        avcstat built for this machine as avcstat-rcu,
#                        avc-advise with its engine and recorder, and
#                        their man pages (PREFIX=/usr/local, DESTDIR,
#                        INSTALL_MOD_PATH, AVCSTAT_NAME=avcstat honoured)
#   make uninstall       remove what make install installed (same variables)
#   make print-kdir      the kernel build tree make would use, its release
#                        and why (KDIR_PACKAGE=PKG: PKG's kernel)
#   make clean
#
# None of these runs anything of the test harness (tools/testing,
# tools/native, tools/avc_trace, tools/avc_bench, tools/upstream).  The
# lab's goals, which build and run it (make check, bench, demo, trace,
# mirror, study, upstream, native, fuzz, mutate, selftests, lab-tools),
# are its own makefile's, tools/testing/lab.mk, included before the kernel
# is chosen: it names those of its goals that need none (LAB_NO_KDIR_GOALS).
# A tarball of the product alone builds and installs without it.
.DEFAULT_GOAL := all
-include tools/testing/lab.mk

# The kernel: KDIR=DIR, which must be a kernel build tree; without KDIR,
# the running kernel's headers, else those of the kernel Debian's
# linux-image-amd64 depends on; else make says what to install.
# KDIR_PACKAGE=PKG: the kernel the installed metapackage PKG depends on
# (linux-image-rt-amd64, say), whatever runs.  This rule is the only copy:
# the test harness asks make for its answer (make print-kdir).  The goals
# that only run scripts, which call make themselves, need none.
KDIR_GIVEN := $(KDIR)
# kd_release DIR: the release of a configured kernel build tree (the
# vermagic's UTS_RELEASE; Debian's include/config/kernel.release holds
# the upstream version, so it is only the fallback), or nothing.
kd_release = $(or $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"$$/\1/p' \
	'$(1)/include/generated/utsrelease.h' 2>/dev/null),$(shell \
	cat '$(1)/include/config/kernel.release' 2>/dev/null))
# kd_problem DIR: why DIR is not a kernel build tree, or nothing.
kd_problem = $(if $(wildcard $(1)),$(if $(wildcard $(1)/Makefile),$(if \
	$(call kd_release,$(1)),,no include/generated/utsrelease.h or \
	include/config/kernel.release (not configured?)),no Makefile),no \
	such directory)
KD_RUNNING := $(shell uname -r)
# kd_debian PKG: the release the installed metapackage PKG's Depends names
# ("linux-image-6.1.0-56-amd64 (= 6.1.192-2)"), "-unsigned" stripped.
kd_debian = $(shell dpkg-query -W -f='$${Status}|$${Depends}\n' '$(1)' \
	2>/dev/null | sed -n 's/^install ok installed|//p' | tr ',' '\n' | \
	sed -n 's/^ *linux-image-\([-a-z0-9.+~]*\).*/\1/p' | sed 's/-unsigned$$//' | \
	head -n 1)
ifneq ($(filter-out $(LAB_NO_KDIR_GOALS),$(or $(MAKECMDGOALS),all)),)
ifneq ($(KDIR_GIVEN),)
ifneq ($(call kd_problem,$(KDIR_GIVEN)),)
$(error KDIR=$(KDIR_GIVEN) is not a kernel build tree: $(call kd_problem,$(KDIR_GIVEN)))
endif
override KDIR := $(abspath $(KDIR_GIVEN))
KDIR_WHY := as given
else ifneq ($(KDIR_PACKAGE),)
KD_DEBIAN := $(call kd_debian,$(KDIR_PACKAGE))
ifeq ($(KD_DEBIAN),)
$(error $(KDIR_PACKAGE) is not installed or depends on no kernel image)
endif
ifneq ($(call kd_problem,/lib/modules/$(KD_DEBIAN)/build),)
$(error no kernel build tree for linux-image-$(KD_DEBIAN), which $(KDIR_PACKAGE) depends on: install linux-headers-$(KD_DEBIAN))
endif
override KDIR := /lib/modules/$(KD_DEBIAN)/build
KDIR_WHY := the kernel $(KDIR_PACKAGE) depends on
else ifeq ($(call kd_problem,/lib/modules/$(KD_RUNNING)/build),)
override KDIR := /lib/modules/$(KD_RUNNING)/build
KDIR_WHY := the running kernel's headers
else
KD_DEBIAN := $(call kd_debian,linux-image-amd64)
ifeq ($(and $(KD_DEBIAN),$(if $(call kd_problem,/lib/modules/$(KD_DEBIAN)/build),,ok)),)
$(info avc_rcu: no kernel build tree to build for: no headers for the running kernel (/lib/modules/$(KD_RUNNING)/build)$(if $(KD_DEBIAN), nor for linux-image-$(KD_DEBIAN), which linux-image-amd64 depends on,, and linux-image-amd64 is not installed))
$(error install $(if $(KD_DEBIAN),linux-headers-$(KD_DEBIAN) (linux-headers-amd64),linux-image-amd64 and linux-headers-amd64), or give KDIR=/lib/modules/VERSION/build)
endif
override KDIR := /lib/modules/$(KD_DEBIAN)/build
KDIR_WHY := the default linux-image-amd64
endif
endif
export KDIR
KRELEASE = $(call kd_release,$(KDIR))

# What the module is built for, and, when that is not the running kernel,
# that it will not load here.
define describe_kdir
	@echo "avc_rcu: building for $(KRELEASE) (KDIR=$(KDIR), $(KDIR_WHY))"
	@if [ "$(KRELEASE)" != "$(KD_RUNNING)" ]; then \
		echo "avc_rcu: this avc_rcu.ko will not load on the running kernel, $(KD_RUNNING);"; \
		$(if $(call kd_problem,/lib/modules/$(KD_RUNNING)/build),echo "avc_rcu: (it has no headers here: install linux-headers-$(KD_RUNNING), or give KDIR=/lib/modules/$(KD_RUNNING)/build);";) \
		echo "avc_rcu: it is for $(KRELEASE), in a guest (make check, make demo) or on a machine that runs it"; \
	fi
endef

PWD := $(shell pwd)

.PHONY: all module tools modules_install install uninstall clean \
	print-kdir print-kdir-describe

all: module tools

# A module loads only on the kernel it was built for: say so when that is
# not the running one.
module:
	$(describe_kdir)
	$(MAKE) -C $(KDIR) M=$(PWD) modules

# The tools make install installs: avcstat, avc-advise's engine and
# recorder.  The lab's (the workload, the trace tools) are lab-tools'.
tools:
	$(MAKE) -C tools/avcstat

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

# The tree, its release and why it was chosen (one per line), and the
# lines make prints before building: for whatever builds against the
# module's kernel.
print-kdir:
	@echo '$(KDIR)'
	@echo '$(KRELEASE)'
	@echo '$(KDIR_WHY)'

print-kdir-describe:
	$(describe_kdir)

# Kbuild's clean deletes every *.o, *.ko, .*.cmd and modules.order below
# the tree (the torture and bench modules' too).  Nothing built elsewhere
# lives here: the debug kernel is in the cache directory (see
# Documentation/testing.rst).
clean:
	$(MAKE) -C $(KDIR) M=$(PWD) clean
	$(MAKE) -C tools/avcstat clean
	rm -rf build
