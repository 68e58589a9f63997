#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the out-of-tree modules against KDIR in a private copy of the sources,
# so builds against several kernels (stock headers, test kernel) never share
# object files.
#
# Usage: build-modules.sh KDIR BUILDDIR [make args...]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
kdir=$1 bdir=$2
shift 2
mkdir -p "$bdir"
rsync -a --delete --exclude='*.o' --exclude='*.ko' --exclude='.*.cmd' \
	--exclude='*.mod*' --exclude='Module.symvers' --exclude='modules.order' \
	--include='/Kbuild' --include='/VERSION' --include='/include/***' --include='/common/***' \
	--include='/kunit/***' --include='/xprtrdma2/***' --include='/svcrdma2/***' --include='/dropin/***' \
	--include='/tests/' --include='/tests/vectors/***' --include='/tests/modules/***' \
	--exclude='*' \
	"$top/" "$bdir/"
# Only this build's modules: one whose source was renamed or removed would
# stay behind otherwise, and a guest loading every kunit/*.ko would load
# it against today's exports.
find "$bdir" -name '*.ko' -delete
exec make -C "$kdir" M="$(cd "$bdir" && pwd)" "$@" modules
