#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fetch Debian's linux-source-6.12 and the stock 6.12 headers into the cache,
# with apt-get download + dpkg-deb -x (nothing is installed on the host);
# or Debian's stock 6.12 kernel image, unmodified, with an initramfs that
# boots it on the test bed's 9p root (scripts/vm/run --flavour stock).
#
# Usage: fetch-kernel.sh source|headers|stock
# Prints the path of the unpacked tree on stdout. For stock, that directory
# holds the package's files (boot/, lib/modules/<release>/, with the
# modules.dep the package's postinst would make), vmlinuz (a link to the
# image), kernel.release and initrd.img.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../config/kernel-version
. "$top/config/kernel-version"
CACHE=${RPCRDMA2_CACHE:-$HOME/.cache/rpcrdma2}
mkdir -p "$CACHE/debs"

# lock DST: hold DST.lock until this script exits. make check's host stages
# and its guest stages fetch at the same time; on a cold cache one would
# otherwise delete the tree the other is unpacking.
lock() {
	mkdir -p "$(dirname "$1")"
	exec 9>"$1.lock"
	flock 9
}

# fetch PKG [VERSION]: the cached .deb of PKG (downloaded first if need be;
# without VERSION, the candidate's).
fetch() {
	local pkg=$1 ver=${2:-} f
	f=$(ls "$CACHE/debs/${pkg}_"*.deb 2>/dev/null | head -n1 || true)
	if [ -z "$f" ]; then
		(cd "$CACHE/debs" && apt-get download -q "$pkg${ver:+=$ver}" >&2) || {
			apt-get update -q >&2
			(cd "$CACHE/debs" && apt-get download -q "$pkg${ver:+=$ver}" >&2)
		}
		f=$(ls "$CACHE/debs/${pkg}_"*.deb | head -n1)
	fi
	echo "$f"
}

# What the stock kernel needs as modules before scripts/vm/guest-init runs
# (our test kernels have them built in): the 9p root and results share,
# overlayfs (/etc, /var and the modules overlay) and virtio-net (eth0:
# without udev nothing would load its driver). Their dependencies follow.
STOCK_INITRD_MODULES="9pnet_virtio 9p overlay virtio_net"
STOCK_RECIPE=1	# bump when the initramfs changes in a way the key does not see

# stock: Debian's linux-image for KVER_ABI, unpacked as the package ships
# it, and an initramfs of Debian's busybox-static, scripts/vm/stock-init and
# the STOCK_INITRD_MODULES from that package (uncompressed for busybox's
# insmod). busybox-static is downloaded, not installed: it conflicts with
# the busybox package that hosts with initramfs-tools have.
stock() {
	local dst=$CACHE/stock/$KVER_ABI kver=$KVER_ABI-amd64 tmp bb key ko name
	lock "$dst"
	if [ ! -f "$dst/.unpacked" ]; then
		"$top/scripts/setup-host.sh" >&2	# dpkg-deb, depmod, cpio, xz
		tmp=$(mktemp -d "$CACHE/tmp.XXXXXX")
		chmod 755 "$tmp"
		dpkg-deb -x "$(fetch "linux-image-$kver" "$KVER_DEB")" "$tmp"
		# what the package's postinst runs on a user's host
		depmod -b "$tmp" "$kver"
		echo "$kver" > "$tmp/kernel.release"
		ln -s "boot/vmlinuz-$kver" "$tmp/vmlinuz"
		touch "$tmp/.unpacked"
		rm -rf "$dst"
		mv "$tmp" "$dst"
	fi

	bb=$(fetch busybox-static)
	key=$( { echo "recipe=$STOCK_RECIPE $STOCK_INITRD_MODULES ${bb##*/}";
		 cat "$top/scripts/vm/stock-init"; } | sha256sum | cut -c1-16)
	if [ "$(cat "$dst/initrd.key" 2>/dev/null)" != "$key" ]; then
		tmp=$(mktemp -d "$CACHE/tmp.XXXXXX")
		mkdir -p "$tmp"/root/{bin,dev,proc,sys,root,lib/modules}
		dpkg-deb --fsys-tarfile "$bb" | tar -xOf - ./bin/busybox > "$tmp/root/bin/busybox"
		chmod 755 "$tmp/root/bin/busybox"
		install -m 755 "$top/scripts/vm/stock-init" "$tmp/root/init"
		# shellcheck disable=SC2086 # a list of names
		modprobe -d "$dst" -S "$kver" --show-depends -a $STOCK_INITRD_MODULES \
			> "$tmp/deps"
		awk '$1 == "insmod" && !seen[$2]++ { print $2 }' "$tmp/deps" > "$tmp/kos"
		: > "$tmp/root/modules"
		while read -r ko; do
			name=${ko##*/}
			name=${name%%.ko*}
			case "$ko" in
			*.xz) xz -dc "$ko" ;;
			*.zst) zstd -dc "$ko" ;;
			*) cat "$ko" ;;
			esac > "$tmp/root/lib/modules/$name.ko"
			echo "$name" >> "$tmp/root/modules"
		done < "$tmp/kos"
		# the same inputs give the same bytes
		find "$tmp/root" -exec touch -h -d @0 {} +
		(cd "$tmp/root" && find . | LC_ALL=C sort |
			cpio -o -H newc -R 0:0 --reproducible --quiet) | gzip -9n > "$tmp/initrd.img"
		mv "$tmp/initrd.img" "$dst/initrd.img"
		echo "$key" > "$dst/initrd.key"
		rm -rf "$tmp"
	fi
	echo "$dst"
}

case "${1:-}" in
source)
	dst=$CACHE/src/linux-$KVER_ABI
	lock "$dst"
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
	lock "$dst"
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
stock)
	stock
	;;
*)
	echo "usage: $0 source|headers|stock" >&2
	exit 2
	;;
esac
