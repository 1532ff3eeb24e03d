# SPDX-License-Identifier: GPL-2.0
#
# The avc_rcu kselftests' files, one list for both Makefiles that build
# them: selftests/Makefile (standalone, in this tree) and Makefile.kernel
# (in a kernel source tree as tools/testing/selftests/avc_rcu, with the
# kernel's lib.mk).  Plain names, no directory.

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
AVC_FILES := run_vm_suite.sh ktap.sh avcstat_test.sh

# The helpers every program links, one archive: avc_io (files below the
# mount point, process helpers), avc_fileformat (strict parsers of the
# avcrcufs formats), avc_model (the policy model and oracle policy text).
AVC_LIB_SRCS := avc_io.c avc_fileformat.c avc_model.c
AVC_HDRS := avc_io.h avc_fileformat.h avc_model.h avc_test.h avc_oracle.h

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
