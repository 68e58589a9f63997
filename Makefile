# SPDX-License-Identifier: GPL-2.0
# rpcrdma2: RPC-over-RDMA Version 2 for Linux 6.12, out of tree.
# The kernel build itself is driven by ./Kbuild; this file holds the
# developer targets. See README.md.

TOP    := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
HOST_KDIR := /lib/modules/$(shell uname -r)/build
# Default: the running kernel's build tree, else Debian's stock 6.12 headers
# (fetched into the cache on first use).
KDIR   ?= $(if $(wildcard $(HOST_KDIR)/Makefile),$(HOST_KDIR),$(shell $(TOP)/scripts/fetch-kernel.sh headers))

.PHONY: all modules clean check kunit demo vm-shell kernel kernel-nodebug \
	setup stock-build checkpatch bench wire-fuzz client-fuzz capture soak deb

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(TOP) modules

clean:
	rm -rf build
	find . \( -name '*.o' -o -name '*.ko' -o -name '*.mod' -o -name '*.mod.c' \
		-o -name '.*.cmd' -o -name '.*.d' -o -name 'Module.symvers' -o -name 'modules.order' \) \
		-not -path './.git/*' -delete

setup:
	scripts/setup-host.sh

# The one test command: host unit tests, fuzzers, static checks, the test
# kernel, and every VM test. Ends with "N passed, N failed".
check:
	scripts/check.sh all

# Only the KUnit suites, in the VM (the quick loop for kernel code).
kunit:
	scripts/check.sh kunit

# NFSv4.2 over our client and server, the in-tree ones and TCP (five
# pairs) on the no-debug kernel: tables of figures (not a test).
# BENCH_TIME=S per fio job (default 10), META_FILES=N (default 1000).
# BENCH_PARTS=cpu [CPU_ROUNDS=N] [CPU_AB="MODULE PARAM VALUE"]: only the
# CPU split of our pair and the in-tree one, N rounds (default 3); CPU_AB
# adds our pair with that module parameter set. BENCH_PARTS=par: the same
# with the parallel load in place of the metadata workload.
# BENCH_PARTS=mem: memory per connection alone.
# SVC_PARAMS="PARAM=VALUE ...": svcrdma2's module parameters for the run;
# XPRT_PARAMS the same for xprtrdma2.
bench:
	scripts/bench.sh

# The long wire fuzz of svcrdma2 (WIRE_FUZZ_COUNT messages, default 100000,
# from WIRE_FUZZ_SEED) through rpcrdma2-wire-fuzz, one debug-kernel VM
# run; make check runs 4000.
wire-fuzz:
	scripts/vm-fuzz.sh wire

# The long wire fuzz of xprtrdma2 (CLIENT_FUZZ_COUNT replies, default
# 100000, from CLIENT_FUZZ_SEED) through rpcrdma2-listen-fuzz,
# four listeners at once, one debug-kernel VM run; make check runs 2000
# (xprtrdma2_hostile.sh, one listener).
client-fuzz:
	scripts/vm-fuzz.sh client

# A soak across the link of two guests (tests/pair/soak.sh): SOAK_MIN
# minutes (default 60) of mixed I/O with faults injected at random from
# SOAK_SEED (default: the clock's, printed), our client and svcrdma2 on
# debug kernels unless SOAK_CLIENT / SOAK_SERVER name another kernel
# (nodebug, or stock: Debian's own); ends with a table of what happened.
# (make check runs it for 2 minutes against the stock server.)
SOAK_MIN ?= 60
SOAK_SEED ?=
SOAK_SERVER ?= debug
SOAK_CLIENT ?= debug
soak:
	scripts/vm/pair --timeout $$(($(SOAK_MIN) * 60 + 1200)) \
		--server $(SOAK_SERVER) --client $(SOAK_CLIENT) --out build/soak \
		tests/pair/soak.sh $(SOAK_MIN) $(SOAK_SEED)

# An NFSv4.2 mount of svcrdma2 by our client across the link of two
# guests (tests/pair/capture.sh), its RoCEv2 traffic captured into
# build/capture/client/capture.pcap and checked against both sides'
# tracepoints; then the exchange decoded by tools/wireshark/rpcrdma2.lua,
# one line per RPC-over-RDMA message. make check runs the same script.
CAPTURE_PCAP := build/capture/client/capture.pcap
capture:
	@scripts/vm/pair --out build/capture tests/pair/capture.sh; rc=$$?; \
	tests/wireshark/capture_check.sh build/capture || rc=1; \
	if [ -f $(CAPTURE_PCAP) ]; then \
		echo "== the RPC-over-RDMA messages of $(CAPTURE_PCAP)"; \
		tshark -n -r $(CAPTURE_PCAP) -X lua_script:tools/wireshark/rpcrdma2.lua \
			--disable-heuristic rpcrdma_infiniband -Y rpcrdma2.xid 2>&1 | \
			grep -v '^Running as user'; \
		echo "== the capture: $(CAPTURE_PCAP); the traces: build/capture/{client,server}/trace"; \
	fi; \
	exit $$rc

# Boot the VM (no-debug kernel) and show NFSv4.2 over RPC-over-RDMA
# Version 2 (proto=rdma2 to svcrdma2) on Soft-RoCE, the in-tree v1 beside it.
demo:
	scripts/demo.sh

# The Debian DKMS package (scripts/build-deb.sh): build/deb/
# rpcrdma2-dkms_VERSION_all.deb and the source package, VERSION's version.
deb:
	scripts/build-deb.sh

# An interactive shell in the test VM (exit to power off).
vm-shell:
	scripts/setup-host.sh
	scripts/vm/run --shell

kernel:
	scripts/kernel/build.sh debug

kernel-nodebug:
	scripts/kernel/build.sh nodebug

include mk/userspace.mk
