# SPDX-License-Identifier: GPL-2.0
#
# The avc_rcu kselftests' files, one list for both Makefiles that build
# them: selftests/Makefile (standalone, in this tree) and Makefile.kernel
# (in a kernel source tree as tools/testing/selftests/avc_rcu, with the
# kernel's lib.mk).  Plain names, no directory, but for the test library
# below, lib/.

# Test programs, run by run_vm_suite.sh (avc_util_test also on the host).
AVC_PROGS := avc_util_test avc_functional avc_threshold avc_reclaim \
	     avc_eviction avc_policy avc_load avc_memory avc_formats \
	     avc_concurrency avc_wrap avc_faults
# Helpers the scripts call.
AVC_HELPERS := avc_tool
# Scripts run_vm_suite.sh runs: avc_unload.sh is ours, avcstat_test.sh
# comes from tools' owner.
AVC_SCRIPTS := avc_unload.sh avc_torture.sh avc_reach.sh avc_tracepoints.sh \
	       avc_kunit.sh
AVC_FILES := run_vm_suite.sh avcstat_test.sh

# The test library, lib/: what the programs, the scripts, the torture
# module and tools/native share, and nothing else of this tree.  The
# helpers every program links, one archive: avc_io (files below the mount
# point, process helpers), avc_fileformat (strict parsers of the avcrcufs
# formats), avc_model (the policy model and oracle policy text); the
# oracle (avc_oracle.h, also the torture module's and the native stress
# test's), the programs' assertion helpers (avc_test.h); and what the
# scripts read at run time, installed beside them in lib/: ktap.sh (TAP
# helpers), bad-patterns (kernel log lines that fail a run: run_vm_suite.sh
# on dmesg, tools/testing/vm/run on the console) and kcsan-filter.awk (the
# core kernel's own KCSAN reports, left out).
AVC_LIB_SRCS := lib/avc_io.c lib/avc_fileformat.c lib/avc_model.c
AVC_HDRS := lib/avc_io.h lib/avc_fileformat.h lib/avc_model.h lib/avc_test.h \
	    lib/avc_oracle.h
AVC_LIB_RUNTIME := lib/ktap.sh lib/bad-patterns lib/kcsan-filter.awk

# The kselftest entries, the tests themselves (kselftest runs files and
# names each result after its file): programs first, then scripts, in the
# order the kernel's lib.mk runs and lists them.  Run by kselftest (no
# AVC_RCU_IN_SUITE in the environment), each but avc_util_test hands itself
# to avc_kselftest.sh, which skips (exit 4) when not root or without the
# module, and otherwise loads it and runs the test through run_vm_suite.sh.
KSFT_PROGS := avc_util_test avc_threshold avc_formats avc_functional \
	      avc_policy avc_load avc_reclaim avc_eviction avc_concurrency \
	      avc_memory avc_wrap
KSFT_SCRIPTS := avcstat_test.sh avc_torture.sh avc_reach.sh avc_unload.sh
KSFT_NAMES := $(KSFT_PROGS) $(KSFT_SCRIPTS)
