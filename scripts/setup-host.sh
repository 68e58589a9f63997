#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install the host packages the build, the tests and the guest need.
# Idempotent: does nothing when every package is already installed.
set -euo pipefail

PKGS=(
	# kernel build
	build-essential bc bison flex libelf-dev libssl-dev cpio rsync ccache
	xz-utils kmod python3 sparse
	# VM
	qemu-system-x86 qemu-system-data
	# guest userspace (the host root is the guest root)
	nfs-kernel-server nfs-common rpcbind keyutils rdma-core ibverbs-utils
	ibverbs-providers rdmacm-utils perftest infiniband-diags fio iproute2
	# userspace codec tests, fuzzing, benchmark (perf: make bench's CPU split)
	clang libclang-rt-14-dev valgrind linux-perf
	# tools/ (rpcrdma2-ping, rpcrdma2-listen, the wire fuzzers): rdma-core
	libibverbs-dev librdmacm-dev
	# Debian's stock headers build BTF for modules: pahole
	dwarves
	# scripts/check-docs.py parses Documentation/*.rst
	python3-docutils
	# tests/userspace/wireshark_test.sh: tools/wireshark/rpcrdma2.lua
	tshark
	# make deb (scripts/build-deb.sh) and its test: the DKMS package
	dpkg-dev debhelper dh-dkms dkms
)

# The guest overlays the test kernel's modules onto the host's
# /usr/lib/modules (see scripts/vm/guest-init); the mount point must exist.
[ -d /usr/lib/modules ] || mkdir -p /usr/lib/modules

missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup-host: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# wireshark-common (a tshark dependency) asks whether non-superusers may
# capture; answer no beforehand, so that no frontend can stop to ask.
echo "wireshark-common wireshark-common/install-setuid boolean false" |
	debconf-set-selections
apt-get update -q
# Service postinsts cannot start daemons on the host; that is harmless.
apt-get install -y -q --no-install-recommends "${missing[@]}"
