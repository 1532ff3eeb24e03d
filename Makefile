# SPDX-License-Identifier: GPL-2.0
#
# avc_rcu: build the module against a kernel build tree, and the tools.
#
#   make                 avc_rcu.ko and tools/avcstat/avcstat
#   make KDIR=...        against another kernel's build tree
#   make modules_install install the module (INSTALL_MOD_PATH honoured)
#   make check           static checks, then the kselftests in QEMU guests
#   make clean

KDIR ?= /lib/modules/$(shell uname -r)/build
# A host without headers for its own kernel (a container, a CI VM) builds
# for the newest kernel whose headers are installed.
ifeq ($(wildcard $(KDIR)/Makefile),)
KDIR_FALLBACK := $(lastword $(sort $(wildcard /lib/modules/*/build/Makefile)))
ifneq ($(KDIR_FALLBACK),)
override KDIR := $(patsubst %/Makefile,%,$(KDIR_FALLBACK))
$(info avc_rcu: no headers for the running kernel; building for $(KDIR))
endif
endif

PWD := $(shell pwd)

.PHONY: all module tools modules_install clean

all: module tools

module:
	$(MAKE) -C $(KDIR) M=$(PWD) modules

tools:
	$(MAKE) -C tools/avcstat

modules_install:
	$(MAKE) -C $(KDIR) M=$(PWD) modules_install

clean:
	$(MAKE) -C $(KDIR) M=$(PWD) clean
	$(MAKE) -C tools/avcstat clean
