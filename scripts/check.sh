#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make check`: every test of the project, host and VM, in one run.
# Each stage prints "PASS: <name>" / "FAIL: <name>: <why>" lines; the run ends
# with "N passed, N failed" and exits non-zero if anything failed.
#
# Usage: scripts/check.sh [all|static|userspace|vm|kunit]
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
what=${1:-all}
mkdir -p build
log=build/check.log
: > "$log"
start=$(date +%s)

# stage_report NAME OUT RC SECONDS: print a finished stage's output OUT and
# keep its PASS/FAIL lines; a stage that fails without saying why counts as
# one failure.
stage_report() {
	local name=$1 out=$2 rc=$3
	echo "== $name"
	cat "$out"
	grep -E '^(PASS|FAIL): ' "$out" >> "$log"
	if [ "$rc" -ne 0 ] && ! grep -q '^FAIL: ' "$out"; then
		echo "FAIL: $name: exited $rc" | tee -a "$log"
	fi
	echo "== $name: $4 s"
}

# stage NAME CMD...: run CMD as one stage.
stage() {
	local name=$1 t0 rc out=build/stage.$BASHPID.out
	shift
	t0=$(date +%s)
	"$@" > "$out" 2>&1
	rc=$?
	stage_report "$name" "$out" $rc $(($(date +%s) - t0))
	rm -f "$out"
}

# one NAME CMD...: CMD is a single test case.
one() {
	local name=$1
	shift
	if "$@"; then echo "PASS: $name"; else echo "FAIL: $name: exited $?"; return 1; fi
}

sources() {
	git ls-files -co --exclude-standard -- '*.c' '*.h' | grep -v '^build/'
}

static_build() {
	local kdir=$1 dir=$2 out
	out=$dir.log
	# From scratch, so a warning in an unchanged file is seen again.
	rm -rf "$dir"
	scripts/build-modules.sh "$kdir" "$dir" W=1 C=1 > "$out" 2>&1 || {
		cat "$out"; return 1; }
	# W=1 and sparse findings are failures.
	if grep -E 'warning:|error:' "$out"; then return 1; fi
}

# checkpatch KSRC: every source through KSRC's checkpatch.pl --strict. As
# ccache keeps a compiler's output, a clean verdict is kept in
# $RPCRDMA2_CACHE/checkpatch under a hash of what makes it: the file's
# path and contents, the options, checkpatch.pl and the lists it reads.
# A file unchanged since it last passed is not read again (the whole
# tree took 59-119 s of the host's CPU beside the guests).
checkpatch() {
	local f res rc=0 cp=$1/scripts/checkpatch.pl
	local ign key tool kept=0 cache=${RPCRDMA2_CACHE:-$HOME/.cache/rpcrdma2}/checkpatch
	mkdir -p "$cache"
	tool=$(cat "$cp" "$1/scripts/spelling.txt" "$1/scripts/const_structs.checkpatch" |
		sha256sum | cut -c1-64)
	for f in $(sources); do
		# TRACE_EVENT() headers use the layout of include/trace/events/,
		# which checkpatch reads as open-ended, misaligned calls. The
		# pieces of event the two trace.h share are macros that expand
		# inside TP_STRUCT__entry() and TP_printk() argument lists, where
		# parentheses around them would not compile; their arguments are
		# plain pointers; TRACE_DEFINE_ENUM() takes a value alone and
		# ends in a semicolon at file scope.
		ign=
		case "$f" in
		*/trace.h) ign=--ignore=OPEN_ENDED_LINE,PARENTHESIS_ALIGNMENT ;;
		include/rpcrdma2/trace_common.h) ign=--ignore=COMPLEX_MACRO,MACRO_ARG_REUSE,MACRO_ARG_UNUSED,TRAILING_SEMICOLON ;;
		# name lists: bare entries of the caller's macro, one use each
		include/rpcrdma2/codec_names.h) ign=--ignore=COMPLEX_MACRO,MACRO_ARG_REUSE ;;
		esac
		key=$( { echo "$tool $f $ign"; cat "$f"; } | sha256sum | cut -c1-64)
		if [ -e "$cache/$key" ]; then
			kept=$((kept + 1))
			echo "PASS: checkpatch $f"
		elif res=$("$cp" --strict --no-tree --quiet --show-types $ign -f "$f" 2>&1); then
			: > "$cache/$key"
			echo "PASS: checkpatch $f"
		else
			echo "$res" | head -n 20
			echo "FAIL: checkpatch $f"
			rc=1
		fi
	done
	echo "checkpatch: $kept file(s) unchanged since they passed, not read again ($cache)"
	return $rc
}

kerneldoc() {
	local f res rc=0
	for f in $(sources | grep -E '^(common|include|xprtrdma2|svcrdma2)/'); do
		res=$("$1/scripts/kernel-doc" -none -Wall "$f" 2>&1)
		if [ -z "$res" ]; then
			echo "PASS: kernel-doc $f"
		else
			echo "$res" | head -n 20
			echo "FAIL: kernel-doc $f"
			rc=1
		fi
	done
	return $rc
}

shell_tests() {
	local t rc=0
	for t in tests/userspace/*_test.sh; do
		[ -e "$t" ] || continue
		bash "$t" || rc=1
	done
	return $rc
}

# vm_name SCRIPT[+SCRIPT...]: the stage's name (the scripts' names);
# pair:SERVER,CLIENT:SCRIPT[+SCRIPT...] (two guests) names its kernels
# where one is not the debug test kernel.
vm_name() {
	local t=$1 prefix= k= name= s
	case $t in
	stock:*)
		t=${t#stock:}
		k="[stock]"
		;;
	pair:*)
		t=${t#pair:}
		k=${t%%:*}
		t=${t#*:}
		prefix=pair:
		if [ "$k" = debug,debug ]; then k=; else k="[${k/,/-}]"; fi
		;;
	esac
	for s in ${t//+/ }; do
		name+=${name:++}$(basename "$s" .sh)
	done
	echo "$prefix$name$k"
}

# vm_test [stock:]SCRIPT[+SCRIPT...]: run a guest script, or several one
# after another in one guest (scripts/vm/sequence), on the debug test
# kernel or Debian's stock one; their PASS/FAIL lines count, plus one line
# for the kernel log being clean.
vm_test() {
	local t=$1 name out rc smp=1 flavour=debug
	# (out is local here: stage() keeps its own in a variable of that name)
	name=$(vm_name "$t")
	case $t in
	stock:*)
		t=${t#stock:}
		flavour=stock
		;;
	esac
	case " ${VM_SMP2[*]} " in
	*" $name "*) smp=2 ;;
	esac
	out=build/vm/$name
	rm -rf "$out"
	if [ "${t#pair:}" != "$t" ]; then
		vm_pair_test "$t" "$out"
		return
	elif [ "$t" != "${t/+/}" ]; then
		# shellcheck disable=SC2086 # the list splits on purpose
		scripts/vm/run --flavour $flavour --no-modules --smp $smp \
			--timeout 1800 --out "$out" scripts/vm/sequence ${t//+/ }
	else
		scripts/vm/run --flavour $flavour --no-modules --smp $smp \
			--timeout 1200 --out "$out" "$t"
	fi
	rc=$?
	case $rc in
	125) echo "FAIL: vm $name: kernel log has a report or no status (see $out)" ;;
	124) echo "FAIL: vm $name: timed out (see $out)" ;;
	*) echo "PASS: vm $name: kernel log clean (no KASAN/lockdep/WARN/BUG/Oops/kmemleak)" ;;
	esac
	if [ -d "$out/kunit" ]; then
		python3 scripts/kunit-results.py "$(kernel_dir)/src" "$out"/kunit/*.ktap || rc=1
	fi
	return $rc
}

# vm_pair_test pair:SERVER,CLIENT:SCRIPT[+SCRIPT...] OUT: a script run in
# two guests on a wire (scripts/vm/pair), SERVER's and CLIENT's kernels.
vm_pair_test() {
	local t=${1#pair:} out=$2 k rc name
	name=$(vm_name "$1")
	k=${t%%:*}
	t=${t#*:}
	# shellcheck disable=SC2086 # the list splits on purpose
	if [ "$t" != "${t/+/}" ]; then
		set -- scripts/vm/sequence ${t//+/ }
	else
		set -- "$t"
	fi
	# (--ccache: the package's DKMS build in a guest compiles through the
	# bed's compiler cache)
	scripts/vm/pair --no-modules --ccache --timeout 2400 --out "$out" \
		--server "${k%,*}" --client "${k#*,}" "$@"
	rc=$?
	case $rc in
	125) echo "FAIL: vm $name: a guest's kernel log has a report or no status (see $out)" ;;
	124) echo "FAIL: vm $name: timed out (see $out)" ;;
	*) echo "PASS: vm $name: both kernel logs clean (no KASAN/lockdep/WARN/BUG/Oops/kmemleak)" ;;
	esac
	# (capture.sh's capture is checked against the traces on the host)
	case "+$t+" in
	*+tests/pair/capture.sh+*) tests/wireshark/capture_check.sh "$out" || rc=1 ;;
	esac
	return $rc
}

kernel_dir() { scripts/kernel/build.sh debug 2>/dev/null; }

# The guest runs of make check. The two-guest stage of two test kernels
# (pair:SERVER,CLIENT:NAME, tests/pair/NAME.sh on those kernels) comes
# first: it takes both lanes until the host's own stages end, and at the
# start no lane idles waiting for the other to free. Then the rest, the
# longest first (seconds in a clean-clone run: the package's ~970, most
# of it DKMS building in a stock guest, down to ~130), so that the two
# lanes end together. The short scripts share a guest, one after another
# (a boot and the closing kmemleak scan cost ~25 s each under TCG), and
# the others in pairs where two are short enough; a script not named
# here runs last, alone. stock:SCRIPT... runs on Debian's stock kernel:
# the userspace tools against each other and against the in-tree
# server, where no module of ours runs and the debug kernel would only
# cost time (it runs the same work in several times the CPU).
VM_PLAN=("pair:debug,debug:interop capture faults" pair:stock,stock:package
	"pair:stock,debug:interop faults soak"
	"svcrdma2_faults svcrdma2_backchannel svcrdma2_connprop"
	xprtrdma2_hostile xprtrdma2_chunks "xprtrdma2_mount xprtrdma2_backchannel"
	svcrdma2_ping "svcrdma2_v1 dropin" "kunit svcrdma2_params xprtrdma2_faults nfs_proto"
	ping_chunks pair:debug,stock:interop "stock:ping_v1 ping_listen ping_chunks")

# Guests have one vCPU (scripts/vm/run --smp: two such guests side by
# side ran their stages in 0.6x the time two 2-vCPU guests took); these
# stages keep two, so that the flood, the device loss and the callbacks
# of the server side also run on two CPUs at once, and another nfsd
# thread can run while svcrdma2_connprop's fixture holds one.
VM_SMP2=(svcrdma2_faults+svcrdma2_backchannel+svcrdma2_connprop)

# vm_plan: VM_PLAN as vm_stages takes it (scripts of a guest joined by +).
vm_plan() {
	local run t s k
	for run in "${VM_PLAN[@]}"; do
		s=
		case $run in
		pair:*)
			# pair:SERVER,CLIENT:NAME... (tests/pair/NAME.sh)
			for t in ${run#pair:*:}; do
				s+=${s:++}tests/pair/$t.sh
			done
			echo "${run%:*}:$s"
			continue
			;;
		esac
		k=
		case $run in
		stock:*)
			k=stock:
			run=${run#stock:}
			;;
		esac
		for t in $run; do
			s+=${s:++}tests/vm/$t.sh
		done
		echo "$k$s"
	done
	for t in tests/vm/*.sh; do
		case " ${VM_PLAN[*]} lib " in
		*[:\ ]"$(basename "$t" .sh) "*) ;;
		*) echo "$t" ;;
		esac
	done
	for t in tests/pair/*.sh; do
		case " ${VM_PLAN[*]} " in
		*[:\ ]"$(basename "$t" .sh) "*) ;;
		*) echo "pair:debug,debug:$t" ;;
		esac
	done
}

# vm_stages SCRIPT...: one stage per guest script, RPCRDMA2_VM_JOBS (default
# 2: one per core of the test bed) guests at a time; reports are printed
# in list order as the stages finish.
vm_stages() {
	local jobs=${RPCRDMA2_VM_JOBS:-2} dir=build/vm-stages t name next=0 i w
	local -a names=()
	rm -rf "$dir"
	mkdir -p "$dir"
	for t in "$@"; do
		# A two-guest stage of two test kernels takes two lanes. One
		# with Debian's stock kernel takes one: a kernel without KASAN
		# or lockdep runs its side of the work in a fraction of the CPU.
		w=1
		case $t in
		pair:*stock*) ;;
		pair:*) [ "$jobs" -lt 2 ] || w=2 ;;
		esac
		while [ "$(jobs -rp | wc -l)" -gt "$((jobs - w))" ]; do
			wait -n
			vm_stages_flush
		done
		name=$(vm_name "$t")
		names+=("$name")
		(
			t0=$(date +%s)
			vm_test "$t" > "$dir/$name.out" 2>&1
			echo "$? $(($(date +%s) - t0))" > "$dir/$name.done.tmp"
			mv "$dir/$name.done.tmp" "$dir/$name.done"
		) &
		# (the second lane: a job that ends with the stage, or as soon
		# as the host's own stages beside the guests end: the stage's
		# two guests keep ~1.1 cores busy, for they wait for each other
		# much of the time, and the rest of a core runs the next stage)
		[ $w = 1 ] || while [ ! -e "$dir/$name.done" ] &&
			{ [ -z "${host_bg:-}" ] || [ ! -e build/host-stages.done ]; }; do
			sleep 2
		done &
	done
	wait
	vm_stages_flush
}

# Report the finished stages at the head of the list, in order.
vm_stages_flush() {
	local rc secs
	while [ "$next" -lt "${#names[@]}" ] && [ -e "$dir/${names[$next]}.done" ]; do
		read -r rc secs < "$dir/${names[$next]}.done"
		stage_report "vm: ${names[$next]}" "$dir/${names[$next]}.out" "$rc" "$secs"
		next=$((next + 1))
	done
}

# The host's own stages: static checks, then userspace tests.
host_stages() {
	local hdr ksrc
	if [ "$what" = all ] || [ "$what" = static ]; then
		# (fetch-kernel.sh takes a lock: the guests' stages fetch too)
		hdr=$(scripts/fetch-kernel.sh headers)
		ksrc=$(scripts/fetch-kernel.sh source)
		stage "build vs Debian stock 6.12 headers (W=1, sparse)" \
			one "modules build warning-free and sparse-clean against Debian's stock headers" \
			static_build "$hdr" build/stock
		stage "checkpatch --strict" checkpatch "$ksrc"
		stage "kernel-doc -Wall" kerneldoc "$ksrc"
		stage "Documentation (docutils, kernel-doc directives)" \
			python3 scripts/check-docs.py "$ksrc"
	fi
	if [ "$what" = all ] || [ "$what" = userspace ]; then
		stage "userspace unit tests" make -s userspace-test
		stage "userspace shell tests" shell_tests
		stage "fuzz (short)" make -s fuzz-short
		stage "codec benchmark (figures only)" make -s bench-codec
	fi
}

stage "host packages" scripts/setup-host.sh

if [ "$what" = all ]; then
	# Beside the guests: most of the host's stages use one core, and
	# the guests leave CPU idle while they wait for each other, for a
	# timeout or for a peer's reconnect. Their report comes after the
	# guests'. (The guest tools build first: userspace-test needs them
	# and must not build them at the same time.)
	stage "guest tools (built on the host)" one "userspace tools the guest runs build" \
		make -s tools
	echo "== the host's stages run beside the guests; their report follows the guests'"
	# (not a job of this shell: vm_stages counts and waits for its jobs)
	rm -f build/host-stages.done
	( (host_stages > build/host-stages.out 2>&1; : > build/host-stages.done) & )
	host_bg=1
else
	host_stages
fi

if [ "$what" = all ] || [ "$what" = vm ] || [ "$what" = kunit ]; then
	# The guest runs tools from the repo but cannot build them.
	[ "$what" = all ] ||
		stage "guest tools (built on the host)" one "userspace tools the guest runs build" \
			make -s tools
	# tests/pair/package.sh installs it in a guest, where DKMS builds
	# it against Debian's stock headers from the cache
	[ "$what" = kunit ] ||
		stage "the Debian package for the guests (make deb)" \
			one "make deb builds build/deb/rpcrdma2-dkms_$(cat VERSION)_all.deb" \
			bash -c 'scripts/fetch-kernel.sh headers > /dev/null && scripts/build-deb.sh'
	stage "test kernel (debug)" one "test kernel builds with every fragment option" \
		scripts/kernel/build.sh debug
	stage "build vs test kernel (W=1)" one "modules build warning-free against the test kernel" \
		static_build "$(kernel_dir)/obj" build/debug
	if [ "$what" = kunit ]; then
		stage "vm: kunit" vm_test tests/vm/kunit.sh
	else
		vm_stages $(vm_plan)
	fi
fi

if [ -n "${host_bg:-}" ]; then
	while [ ! -e build/host-stages.done ]; do sleep 2; done
	cat build/host-stages.out
fi

pass=$(grep -c '^PASS: ' "$log")
fail=$(grep -c '^FAIL: ' "$log")
echo
echo "check: $(($(date +%s) - start)) s; failures:"
grep '^FAIL: ' "$log" | sed 's/^/  /'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
