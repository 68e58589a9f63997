#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the test kernel (flavour "debug": KASAN+lockdep+KUnit; "nodebug": no
# debug options but jump labels, for benchmarks) from Debian's
# linux-source-6.12 + config/base.config + config/<flavour>.config + patches/*.
#
# The result is cached outside the repository in $RPCRDMA2_CACHE/kernel/<flavour>/:
#   src/    patched source (hard links to the pristine tree)
#   obj/    object tree: bzImage, .config, Module.symvers (KDIR for our modules)
#   mods/   modules_install output (lib/modules/<release>)
#   key     the (source version, fragments, patches) key of what is built
# A matching key means nothing to do. Otherwise the tree is rebuilt at the
# same path, incrementally (make + ccache), so changing a patch or an option
# costs only what it touches. Prints the directory on stdout; build chatter
# goes to <dir>/build.log.
#
# Usage: build.sh [debug|nodebug]
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
flavour=${1:-debug}
CACHE=${RPCRDMA2_CACHE:-$HOME/.cache/rpcrdma2}
# shellcheck source=../../config/kernel-version
. "$top/config/kernel-version"
RECIPE=1	# bump when this script changes what it produces

frags=("$top/config/base.config")
case "$flavour" in
debug) frags+=("$top/config/debug.config") ;;
nodebug) frags+=("$top/config/nodebug.config") ;;
*) echo "build.sh: unknown flavour '$flavour'" >&2; exit 2 ;;
esac
patches=()
for p in "$top"/patches/*.patch; do
	[ -e "$p" ] && patches+=("$p")
done

# (comments in the fragments do not change the kernel)
key=$( { echo "$KVER_DEB recipe=$RECIPE"; grep -hv '^[[:space:]]*#' "${frags[@]}";
	 [ ${#patches[@]} -eq 0 ] || cat "${patches[@]}"; } | sha256sum | cut -c1-16)
dir=$CACHE/kernel/$flavour
mkdir -p "$dir"

exec 9>"$dir.lock"
flock 9
if [ -f "$dir/.done" ] && [ "$(cat "$dir/key" 2>/dev/null)" = "$key" ]; then
	echo "$dir"
	exit 0
fi

pristine=$("$top/scripts/fetch-kernel.sh" source)
"$top/scripts/setup-host.sh" >&2

start=$(date +%s)
rm -f "$dir/.done"
log=$dir/build.log
: > "$log"
echo "build.sh: building the $flavour kernel in $dir (log: $log)" >&2
# A different source version invalidates the objects.
[ "$(cat "$dir/version" 2>/dev/null)" = "$KVER_DEB" ] || rm -rf "$dir/obj"

# Files the previous patches touched: after a fresh copy they carry the
# pristine (old) mtime, so touch them to force their rebuild.
patched_files() {
	local p
	for p in "$@"; do
		sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$p"
	done
}
stale=$(cat "$dir/patched-files" 2>/dev/null || true)

{
	rm -rf "$dir/src"
	cp -al "$pristine" "$dir/src"
	rm -f "$dir/src/.unpacked"
	for p in ${patches[@]+"${patches[@]}"}; do
		# Break the hard links of the files this patch touches first.
		for f in $(patched_files "$p"); do
			if [ -f "$dir/src/$f" ]; then
				cp "$dir/src/$f" "$dir/src/$f.tmp"
				mv "$dir/src/$f.tmp" "$dir/src/$f"
			fi
		done
		echo "applying $(basename "$p")"
		patch -d "$dir/src" -p1 --no-backup-if-mismatch -s < "$p"
	done
	new=$(patched_files ${patches[@]+"${patches[@]}"})
	for f in $stale $new; do
		if [ -f "$dir/src/$f" ]; then
			cp "$dir/src/$f" "$dir/src/$f.tmp"
			mv "$dir/src/$f.tmp" "$dir/src/$f"
		fi
	done
	printf '%s\n' $new > "$dir/patched-files"
	echo "$KVER_DEB" > "$dir/version"

	export ARCH=x86_64
	export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2026"
	export KBUILD_BUILD_USER=rpcrdma2 KBUILD_BUILD_HOST=rpcrdma2
	export CCACHE_DIR=$CACHE/ccache CCACHE_MAXSIZE=8G
	mk=(make -C "$dir/src" O="$dir/obj" CC="ccache gcc")

	rm -f "$dir/obj/.config"
	"${mk[@]}" -s tinyconfig
	"$dir/src/scripts/kconfig/merge_config.sh" -m -O "$dir/obj" \
		"$dir/obj/.config" "${frags[@]}"
	"${mk[@]}" -s olddefconfig
} >>"$log" 2>&1 || { tail -n 30 "$log" >&2; exit 1; }

# Every option the fragments ask for must have stuck (KASAN, for one, drops
# out silently when a dependency is missing).
bad=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*)
		grep -qxF "$line" "$dir/obj/.config" || {
			echo "build.sh: fragment option did not take: $line" >&2; bad=1; }
		;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }; opt=${opt%% *}
		! grep -q "^$opt=" "$dir/obj/.config" || {
			echo "build.sh: fragment option did not take: $line" >&2; bad=1; }
		;;
	esac
done < <(cat "${frags[@]}")
[ $bad -eq 0 ] || exit 1

{
	"${mk[@]}" -j"$(($(nproc) + 1))" all
	rm -rf "$dir/mods"
	"${mk[@]}" -s INSTALL_MOD_PATH="$dir/mods" INSTALL_MOD_STRIP=1 modules_install
} >>"$log" 2>&1 || { grep -E 'error|Error' "$log" | head -n 30 >&2; tail -n 20 "$log" >&2; exit 1; }

echo "build.sh: $flavour kernel built in $(($(date +%s) - start)) s" | tee -a "$log" >&2
echo "$key" > "$dir/key"
touch "$dir/.done"
echo "$dir"
