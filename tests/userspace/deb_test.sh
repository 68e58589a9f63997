#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make deb on the host: the source and binary packages build with
# Debian's tooling; the binary carries the modules' sources, a dkms.conf
# of the project's version and /etc/default/rpcrdma2; DKMS itself, in a
# private tree (nothing registered on the host), builds the modules
# against Debian's stock 6.12 headers, each with MODULE_VERSION the
# project's version, the drop-in rpcrdma.ko with the in-tree module's
# aliases, and refuses another kernel with its BUILD_EXCLUSIVE message;
# RPCRDMA2_DROPIN=no in /etc/default/rpcrdma2 leaves rpcrdma.ko out.
# Installing the package as a user would is a guest's test (the stock
# kernel's image).
# Prints one PASS:/FAIL: line per case; exits 1 if any failed.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
failed=0
version=$(cat "$top/VERSION")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# check NAME CMD...: CMD succeeds
check() {
	local name=$1
	shift
	if "$@" > "$tmp/out" 2>&1; then
		echo "PASS: deb: $name"
	else
		echo "FAIL: deb: $name: $(head -n 3 "$tmp/out" | tr '\n' '|')"
		failed=1
	fi
}

# (in a directory of the test's own: make check's guests install
# build/deb's package while this runs)
if ! "$top/scripts/build-deb.sh" "$tmp/deb" > "$tmp/build" 2>&1; then
	echo "FAIL: deb: make deb: $(tail -n 5 "$tmp/build" | tr '\n' '|')"
	exit 1
fi
deb=$tmp/deb/rpcrdma2-dkms_${version}_all.deb
check "make deb: rpcrdma2_$version.dsc, .tar.xz, rpcrdma2-dkms_${version}_all.deb" \
	test -s "$tmp/deb/rpcrdma2_$version.dsc" -a \
	-s "$tmp/deb/rpcrdma2_$version.tar.xz" -a -s "$deb"
check "rpcrdma2-dkms depends on dkms" \
	grep -q '^dkms' <(dpkg-deb -f "$deb" Depends)

dpkg-deb -x "$deb" "$tmp/root"
srcdir=$tmp/root/usr/src/rpcrdma2-$version
missing=
for f in dkms.conf Kbuild VERSION LICENSE include/rpcrdma2/codec.h \
	common/Kbuild common/main.c xprtrdma2/Kbuild xprtrdma2/transport.c \
	svcrdma2/Kbuild svcrdma2/transport.c dropin/Kbuild dropin/module.c; do
	[ -s "$srcdir/$f" ] || missing+=" $f"
done
check "/usr/src/rpcrdma2-$version has the modules' sources and dkms.conf${missing:+ (missing:$missing)}" \
	test -z "$missing"
check "the package's /etc/default/rpcrdma2: RPCRDMA2_DROPIN=yes" \
	grep -qx 'RPCRDMA2_DROPIN=yes' "$tmp/root/etc/default/rpcrdma2"
check "the package's rpcrdma2-netid: /usr/lib/rpcrdma2, run by postinst and prerm" \
	bash -c "test -x '$tmp/root/usr/lib/rpcrdma2/rpcrdma2-netid' &&
		dpkg-deb --ctrl-tarfile '$deb' | tar -xO ./postinst | grep -q 'rpcrdma2-netid add' &&
		dpkg-deb --ctrl-tarfile '$deb' | tar -xO ./prerm | grep -q 'rpcrdma2-netid remove'"
# rpcrdma2-netid on copies of the host's files: twice add is once; remove
# leaves them as they were
mkdir -p "$tmp/etc/etc"
cp /etc/netconfig /etc/protocols "$tmp/etc/etc/"
netid=$tmp/root/usr/lib/rpcrdma2/rpcrdma2-netid
check "rpcrdma2-netid add, twice: one rdma2 line in netconfig (\"-\": invisible), one in protocols (3939)" \
	bash -c "'$netid' add '$tmp/etc' && '$netid' add '$tmp/etc' &&
		[ \$(grep -c '^rdma2 .*tpi_cots_ord  -     -        rdma2' '$tmp/etc/etc/netconfig') = 1 ] &&
		[ \$(grep -cP '^rdma2\t3939\t' '$tmp/etc/etc/protocols') = 1 ]"
check "rpcrdma2-netid remove: the files as they were" \
	bash -c "'$netid' remove '$tmp/etc' && cmp /etc/netconfig '$tmp/etc/etc/netconfig' &&
		cmp /etc/protocols '$tmp/etc/etc/protocols'"
check "dkms.conf: PACKAGE_VERSION=\"$version\", BUILD_EXCLUSIVE_KERNEL" \
	grep -qx "PACKAGE_VERSION=\"$version\"" "$srcdir/dkms.conf"
grep -q '^BUILD_EXCLUSIVE_KERNEL=' "$srcdir/dkms.conf" || {
	echo "FAIL: deb: dkms.conf has no BUILD_EXCLUSIVE_KERNEL"
	failed=1
}

# dkms add/build against the stock headers, in a tree of our own
hdr=$("$top/scripts/fetch-kernel.sh" headers)
kver=$(basename "$hdr" | sed 's/^linux-headers-//')
mkdir -p "$tmp/tree" "$tmp/src"
mv "$srcdir" "$tmp/src/"
dk=(--dkmstree "$tmp/tree" --sourcetree "$tmp/src" -m rpcrdma2 -v "$version")
check "dkms add" dkms add "${dk[@]}"
check "dkms build for Debian's $kver (its headers)" \
	dkms build "${dk[@]}" -k "$kver" --kernelsourcedir "$hdr"
# what DKMS installs: the modules it keeps from the build
kept=$tmp/tree/rpcrdma2/$version/$kver/$(uname -m)/module
for m in rpcrdma2_common xprtrdma2 svcrdma2 rpcrdma; do
	check "dkms built $m.ko, MODULE_VERSION $version" \
		test "$(modinfo -F version "$kept/$m.ko" 2>/dev/null)" = "$version"
done
check "the drop-in rpcrdma.ko: the in-tree module's aliases, depends on xprtrdma2 and svcrdma2" \
	bash -c "[ \"\$(modinfo -F alias '$kept/rpcrdma.ko' | sort | tr '\n' ' ')\" = 'rpcrdma6 svcrdma xprtrdma ' ] &&
		modinfo -F depends '$kept/rpcrdma.ko' | tr ',' '\n' | sort | tr '\n' ' ' | grep -qx 'svcrdma2 xprtrdma2 '"
# dkms.conf read as DKMS reads it (sourced by bash), with an
# /etc/default of our own in a private mount namespace
mkdir -p "$tmp/default"
dkms_modules() {
	unshare -m bash -c "mount --bind '$tmp/default' /etc/default &&
		. '$tmp/src/rpcrdma2-$version/dkms.conf' && echo \"\${BUILT_MODULE_NAME[*]}\""
}
echo 'RPCRDMA2_DROPIN=no' > "$tmp/default/rpcrdma2"
check "RPCRDMA2_DROPIN=no: dkms.conf names no rpcrdma" \
	test "$(dkms_modules)" = "rpcrdma2_common xprtrdma2 svcrdma2"
rm "$tmp/default/rpcrdma2"
check "no /etc/default/rpcrdma2: dkms.conf names rpcrdma (drop-in by default)" \
	test "$(dkms_modules)" = "rpcrdma2_common xprtrdma2 svcrdma2 rpcrdma"
dkms build "${dk[@]}" -k 6.1.0-28-amd64 --kernelsourcedir "$hdr" > "$tmp/other" 2>&1
rc=$?
if [ $rc = 77 ] && grep -q 'BUILD_EXCLUSIVE directive which does not match this kernel' "$tmp/other"; then
	echo "PASS: deb: dkms refuses a 6.1 kernel (BUILD_EXCLUSIVE, exit 77)"
else
	echo "FAIL: deb: dkms build for 6.1: exit $rc: $(grep -m 2 -i 'error\|exclusive' "$tmp/other" | tr '\n' '|')"
	failed=1
fi
exit $failed
