# SPDX-License-Identifier: GPL-2.0
# rpcrdma2: RPC-over-RDMA Version 2 for Linux 6.12, out of tree.
# The kernel build itself is driven by ./Kbuild; this file holds the
# developer targets. See README.md.

TOP    := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
HOST_KDIR := /lib/modules/$(shell uname -r)/build
# Default: the running kernel's build tree, else Debian's stock 6.12 headers
# (fetched into the cache on first use).
KDIR   ?= $(if $(wildcard $(HOST_KDIR)/Makefile),$(HOST_KDIR),$(shell $(TOP)/tools/fetch-kernel.sh headers))

.PHONY: all modules clean check kunit demo vm-shell kernel kernel-nodebug \
	setup stock-build checkpatch bench wire-fuzz

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(TOP) modules

clean:
	rm -rf build
	find . \( -name '*.o' -o -name '*.ko' -o -name '*.mod' -o -name '*.mod.c' \
		-o -name '.*.cmd' -o -name '.*.d' -o -name 'Module.symvers' -o -name 'modules.order' \) \
		-not -path './.git/*' -delete

setup:
	tools/setup-host.sh

# The one test command: host unit tests, fuzzers, static checks, the test
# kernel, and every VM test. Ends with "N passed, N failed".
check:
	tools/check.sh all

# Only the KUnit suites, in the VM (the quick loop for kernel code).
kunit:
	tools/check.sh kunit

# NFS over svcrdma2, the in-tree svcrdma and TCP on the no-debug kernel:
# one table of figures (not a test).
bench:
	tools/bench.sh

# The long wire fuzz of svcrdma2 (WIRE_FUZZ_COUNT messages, default 100000,
# from WIRE_FUZZ_SEED), one debug-kernel VM run; make check runs 8000.
wire-fuzz:
	tools/wire-fuzz.sh

# Boot the VM and show an NFS mount over RDMA on Soft-RoCE.
demo:
	tools/demo.sh

# An interactive shell in the test VM (exit to power off).
vm-shell:
	tools/setup-host.sh
	tools/vm/run --shell

kernel:
	tools/kernel/build.sh debug

kernel-nodebug:
	tools/kernel/build.sh nodebug

include mk/userspace.mk
