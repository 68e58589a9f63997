# SPDX-License-Identifier: GPL-2.0
# Userspace builds of the shared wire library (common/*.c): unit tests,
# libFuzzer harnesses, the decoder tool and the codec benchmark.
#
# Conventions (so new files need no new rules):
#   tests/userspace/<name>.c  -> build/us/<name>       (ASan+UBSan unit test)
#   tests/fuzz/<name>.c       -> build/fuzz/<name>     (libFuzzer, ASan+UBSan)
#                                seed corpus: tests/fuzz/corpus/<name>/
#   tools/rpcrdma2-decode.c   -> build/tools/rpcrdma2-decode
#   on tools/lib/*.c (the connection library: librdmacm, libibverbs):
#   tools/rpcrdma2-ping.c     -> build/tools/rpcrdma2-ping   (+ tools/ping-modes.c)
#   tools/rpcrdma2-listen.c   -> build/tools/rpcrdma2-listen (+ tools/listen-answer.c)
#   tests/fuzz/rpcrdma2-wire-fuzz.c   -> build/tools/rpcrdma2-wire-fuzz
#   tests/fuzz/rpcrdma2-listen-fuzz.c -> build/tools/rpcrdma2-listen-fuzz
#   tests/bench/bench-codec.c -> build/bench/bench-codec (-O2, no sanitizers)
#   tests/wireshark/vectors_pcap.c -> build/wireshark/vectors_pcap (ASan+UBSan):
#                                the captures tests/userspace/wireshark_test.sh
#                                runs tools/wireshark/rpcrdma2.lua on
# A unit test prints one "PASS: <case>" or "FAIL: <case>: <why>" line per case
# and exits non-zero if any case failed.

US_LIBSRC   := $(wildcard common/codec_decode.c common/codec_encode.c \
			 common/codec_names.c common/cm_pdata.c)
US_HDRS     := $(wildcard include/rpcrdma2/*.h common/*.h tests/vectors/*.h tests/userspace/*.h tools/*.h \
			 tools/lib/*.h)
US_CFLAGS   := -std=gnu11 -g -O1 -Wall -Wextra -Werror -Wno-unused-parameter \
	       -Wno-missing-field-initializers -Iinclude \
	       '-DEXPORT_SYMBOL_GPL(sym)=' '-Dnoinline=__attribute__((__noinline__))'

US_SAN      := -fsanitize=address,undefined -fno-sanitize-recover=all \
	       -fno-omit-frame-pointer
US_TESTS    := $(patsubst tests/userspace/%.c,build/us/%,$(wildcard tests/userspace/*_test.c))
FUZZERS     := $(patsubst tests/fuzz/%.c,build/fuzz/%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_TIME   ?= 60
FUZZ_SHORT  ?= 15
US_TESTAUX  := $(filter-out %_test.c,$(wildcard tests/userspace/*.c))

build/us/%: tests/userspace/%.c $(US_LIBSRC) $(US_TESTAUX) $(US_HDRS)
	@mkdir -p $(@D)
	$(CC) $(US_CFLAGS) $(US_SAN) -Itests/userspace -o $@ $< $(US_TESTAUX) $(US_LIBSRC)

build/fuzz/%: tests/fuzz/%.c $(US_LIBSRC) $(US_HDRS)
	@mkdir -p $(@D)
	clang $(US_CFLAGS) -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -o $@ $< $(US_LIBSRC)

build/tools/rpcrdma2-decode: tools/rpcrdma2-decode.c $(US_LIBSRC) $(US_HDRS)
	@mkdir -p $(@D)
	$(CC) $(US_CFLAGS) -Itools/lib -O2 -o $@ $< $(US_LIBSRC)

# Programs on a real RC QP: run in the test guest (tests/vm/ping_*.sh,
# tests/fuzz/*_fuzz.sh), which cannot build them, so `tools` builds them
# on the host. Each is its own sources, the connection library and the
# shared wire library.
RDMA_LIBSRC := $(wildcard tools/lib/*.c)
RDMA_TOOLS  := build/tools/rpcrdma2-ping build/tools/rpcrdma2-listen \
	       build/tools/rpcrdma2-wire-fuzz build/tools/rpcrdma2-listen-fuzz
build/tools/rpcrdma2-ping: tools/rpcrdma2-ping.c tools/ping-modes.c
build/tools/rpcrdma2-listen: tools/rpcrdma2-listen.c tools/listen-answer.c
build/tools/rpcrdma2-wire-fuzz: tests/fuzz/rpcrdma2-wire-fuzz.c
build/tools/rpcrdma2-listen-fuzz: tests/fuzz/rpcrdma2-listen-fuzz.c
$(RDMA_TOOLS): $(RDMA_LIBSRC) $(US_LIBSRC) $(US_HDRS)
	@mkdir -p $(@D)
	$(CC) $(US_CFLAGS) -Itools -Itools/lib -O2 -o $@ \
		$(filter-out $(RDMA_LIBSRC) $(US_LIBSRC) $(US_HDRS),$^) \
		$(RDMA_LIBSRC) $(US_LIBSRC) -lrdmacm -libverbs

build/bench/bench-codec: tests/bench/bench-codec.c $(US_LIBSRC) $(US_HDRS)
	@mkdir -p $(@D)
	$(CC) $(US_CFLAGS) -O2 -o $@ $< $(US_LIBSRC)

build/wireshark/vectors_pcap: tests/wireshark/vectors_pcap.c $(US_LIBSRC) $(US_HDRS)
	@mkdir -p $(@D)
	$(CC) $(US_CFLAGS) $(US_SAN) -o $@ $< $(US_LIBSRC)

.PHONY: userspace-test fuzz fuzz-short bench-codec tools
tools: $(if $(wildcard tools/rpcrdma2-decode.c),build/tools/rpcrdma2-decode) \
	$(if $(wildcard tools/lib/conn.c),$(RDMA_TOOLS))

userspace-test: $(US_TESTS) tools build/wireshark/vectors_pcap
	@rc=0; for t in $(US_TESTS); do $$t || rc=1; done; exit $$rc

# Each fuzzer runs FUZZ_TIME seconds from its seed corpus; new inputs land in
# build/fuzz/corpus-<name>, never in the committed seeds.
define run_fuzzer
	@mkdir -p build/fuzz/corpus-$(1)
	@echo "fuzz: $(1) for $(2)s"
	@if $(3) build/fuzz/$(1) -max_total_time=$(2) -print_final_stats=1 \
		build/fuzz/corpus-$(1) tests/fuzz/corpus/$(1) \
		> build/fuzz/$(1).log 2>&1; then \
		grep -E '^stat::(number_of_executed_units|new_units_added)|cov:' \
			build/fuzz/$(1).log | tail -n 3; \
		echo "PASS: fuzz $(1)"; \
	else tail -n 40 build/fuzz/$(1).log; echo "FAIL: fuzz $(1): see build/fuzz/$(1).log"; \
		exit 1; fi
endef

fuzz: $(FUZZERS)
	$(foreach f,$(notdir $(FUZZERS)),$(call run_fuzzer,$(f),$(FUZZ_TIME),)$(nl))

fuzz-short: $(FUZZERS)
	$(foreach f,$(notdir $(FUZZERS)),$(call run_fuzzer,$(f),$(FUZZ_SHORT),)$(nl))

bench-codec: build/bench/bench-codec
	@tests/bench/bench-codec.sh build/bench/bench-codec

define nl


endef
