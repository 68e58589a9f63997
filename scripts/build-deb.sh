#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make deb`: the Debian source and binary packages of the DKMS sources
# (debian/), built with Debian's own tooling (dpkg-buildpackage, debhelper,
# dh-dkms) from a copy of the tree's sources, in build/deb/:
# rpcrdma2_VERSION.dsc and .tar.xz, rpcrdma2-dkms_VERSION_all.deb.
# The version is VERSION's one line; debian/changelog is written from it.
#
# Usage: build-deb.sh [OUTDIR]   (default build/deb; emptied first)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "${1:-$top/build/deb}" && cd "${1:-$top/build/deb}" && pwd)
cd "$top"
version=$(cat VERSION)
src=$out/rpcrdma2-$version
rm -rf "$out"
mkdir -p "$src"
# the tree's sources as git sees them (tracked and new, nothing ignored)
git ls-files -co --exclude-standard -z | grep -zv '^build/' |
	xargs -0 cp --parents -t "$src"
{
	echo "rpcrdma2 ($version) unstable; urgency=medium"
	echo
	echo "  * rpcrdma2 $version ($(git describe --always --dirty 2>/dev/null || echo unknown))."
	echo
	echo " -- rpcrdma2 developers <rpcrdma2@users.noreply.github.com>  $(git log -1 --format=%aD 2>/dev/null || date -R)"
} > "$src/debian/changelog"
(cd "$src" && dpkg-buildpackage -us -uc > ../build.log 2>&1) || {
	cat "$out/build.log" >&2
	echo "build-deb: dpkg-buildpackage failed" >&2
	exit 1
}
ls "$out"/*.deb "$out"/*.dsc
