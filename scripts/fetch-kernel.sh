#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fetch Debian's linux-source-6.12 and the stock 6.12 headers into the cache,
# with apt-get download + dpkg-deb -x (nothing is installed on the host).
#
# Usage: fetch-kernel.sh source|headers
# Prints the path of the unpacked tree on stdout.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../config/kernel-version
. "$top/config/kernel-version"
CACHE=${RPCRDMA2_CACHE:-$HOME/.cache/rpcrdma2}
mkdir -p "$CACHE/debs"

fetch() {
	local pkg=$1 ver=$2 f
	f=$(ls "$CACHE/debs/${pkg}_"*.deb 2>/dev/null | head -n1 || true)
	if [ -z "$f" ]; then
		(cd "$CACHE/debs" && apt-get download -q "$pkg=$ver" >&2) || {
			apt-get update -q >&2
			(cd "$CACHE/debs" && apt-get download -q "$pkg=$ver" >&2)
		}
		f=$(ls "$CACHE/debs/${pkg}_"*.deb | head -n1)
	fi
	echo "$f"
}

case "${1:-}" in
source)
	dst=$CACHE/src/linux-$KVER_ABI
	if [ ! -f "$dst/.unpacked" ]; then
		deb=$(fetch linux-source-6.12 "$KVER_DEB")
		tmp=$(mktemp -d "$CACHE/tmp.XXXXXX")
		dpkg-deb -x "$deb" "$tmp"
		rm -rf "$dst"
		mkdir -p "$dst"
		tar -xaf "$tmp"/usr/src/linux-source-6.12.tar.xz -C "$dst" --strip-components=1
		rm -rf "$tmp"
		touch "$dst/.unpacked"
	fi
	echo "$dst"
	;;
headers)
	dst=$CACHE/headers/$KVER_ABI
	if [ ! -f "$dst/.unpacked" ]; then
		rm -rf "$dst"
		mkdir -p "$dst"
		for p in "linux-headers-$KVER_ABI-amd64" "linux-headers-$KVER_ABI-common" \
			 "linux-kbuild-6.12.117+deb12"; do
			dpkg-deb -x "$(fetch "$p" "$KVER_DEB")" "$dst"
		done
		# The headers' symlinks point at /usr/lib/linux-kbuild-*; make them relative
		# to the unpacked tree.
		hdr=$dst/usr/src/linux-headers-$KVER_ABI-amd64
		for l in scripts tools; do
			if [ -L "$hdr/$l" ]; then
				t=$(readlink "$hdr/$l")
				case "$t" in /*) ln -sfn "$dst$t" "$hdr/$l" ;; esac
			fi
		done
		# Its Makefile includes the -common tree by absolute path.
		sed -i "s|^include /usr/src/|include $dst/usr/src/|" "$hdr/Makefile"
		touch "$dst/.unpacked"
	fi
	echo "$dst/usr/src/linux-headers-$KVER_ABI-amd64"
	;;
*)
	echo "usage: $0 source|headers" >&2
	exit 2
	;;
esac
