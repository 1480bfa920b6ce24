#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# selftests/ as a kernel tree's kselftest target, run by the kernel's own
# runner (make check runs it; Documentation/testing.rst, "As a kselftest
# target"):
#   tools/ksft_tree.sh [TEST...]      (default: plb_names.sh swift_select.sh)
# On the host, in build-ksft/ (as kselftest is built on one machine and
# run on another):
#   1. a kselftest layout: the kernel's tools/testing/selftests/{Makefile,
#      lib.mk,kselftest/,...} and scripts/subarch.include from
#      linux-source-6.1 (unpacked by tools/deps.sh), this tree's selftests/
#      (without build/) copied in as tools/testing/selftests/dcc;
#   2. make -C tools/testing/selftests TARGETS=dcc install: lib.mk builds
#      the helpers next to the scripts, the install gets kselftest-list.txt
#      and run_kselftest.sh;
#   3. the module index of the VM's kernel with the modules built in this
#      tree in extra/ (depmod -b over links to /lib/modules/KVER).
# Then in the test VM:
#   4. the modules installed for the guest's kernel (extra/ and the index:
#      the guest's root is a throw-away overlay), as a kernel tree's user
#      would have them (make install or dkms);
#   5. make -C tools/testing/selftests TARGETS=dcc TESTS="TEST..." run_tests;
#   6. the install's run_kselftest.sh -t dcc:TEST for the first TEST.
# Each TEST must come out "ok N selftests: dcc: TEST" (not a SKIP) in 5 and
# 6, and lib.sh must find no source tree there.  Ends with "ksft-tree: N
# passed, N failed"; exit status 0 only when nothing failed.
set -u
cd "$(dirname "$0")/.." || exit 1

KSRC=${KSRC:-/usr/src/linux-source-6.1}
work=$PWD/build-ksft
kst=$work/linux/tools/testing/selftests
inst=$kst/kselftest_install

pass=0 fail=0
ok() { echo "ok: $*"; pass=$((pass + 1)); }
bad() { echo "FAILED: $*"; fail=$((fail + 1)); }
summary() {
	echo "ksft-tree: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
}

if [ "${1:-}" != --guest ]; then
	[ -f "$KSRC/tools/testing/selftests/kselftest/runner.sh" ] ||
		{ bad "no $KSRC/tools/testing/selftests: run tools/deps.sh"; summary; }
	ls tcp_*.ko >/dev/null 2>&1 || { bad "no modules built: run make first"; summary; }
	rm -rf "$work"
	mkdir -p "$kst/dcc" "$work/linux/scripts"
	cp -r "$KSRC"/tools/testing/selftests/{Makefile,lib.mk,kselftest,kselftest.h,kselftest_harness.h,run_kselftest.sh} "$kst"/ &&
		cp "$KSRC/scripts/subarch.include" "$work/linux/scripts/" &&
		tar -C selftests --exclude=./build -cf - . | tar -x -C "$kst/dcc" ||
		{ bad "kselftest layout in $work"; summary; }
	ok "kselftest layout: ${kst#"$PWD"/}/dcc"
	log=$work/install.log
	if make -C "$kst" TARGETS=dcc install > "$log" 2>&1 &&
	   [ -x "$inst/dcc/xfer" ] && [ -x "$kst/dcc/xfer" ]; then
		ok "make TARGETS=dcc install: $(wc -l < "$inst/kselftest-list.txt") tests in kselftest-list.txt, helpers built by lib.mk"
	else
		tail -n 20 "$log"
		bad "make TARGETS=dcc install"
		summary
	fi
	kver=$(tools/vm/kver.sh --print)
	mkdir -p "$work/mods/lib/modules"
	cp -rs "/lib/modules/$kver" "$work/mods/lib/modules/" &&
		mkdir -p "$work/mods/lib/modules/$kver/extra" &&
		cp tcp_*.ko "$work/mods/lib/modules/$kver/extra/" &&
		depmod -b "$work/mods" "$kver" ||
		{ bad "module index for $kver"; summary; }
	tools/vm/run --timeout "${VM_TIMEOUT:-1500}" -- tools/ksft_tree.sh --guest "$@"
	rc=$?
	# the guest's summary line is the last one printed; the host's two
	# checks come first
	[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || echo "ksft-tree: 0 passed, 1 failed (VM exit $rc)"
	exit $rc
fi
shift
[ $# -gt 0 ] || set -- plb_names.sh swift_select.sh
pass=2	# the host's layout and install

kver=$(uname -r)
mkdir -p "/lib/modules/$kver/extra"
cp tcp_*.ko "/lib/modules/$kver/extra/" &&
	find "$work/mods/lib/modules/$kver" -maxdepth 1 -type f -name 'modules.*' \
		-exec cp {} "/lib/modules/$kver/" \; &&
	[ "$(modinfo -n tcp_swift)" = "/lib/modules/$kver/extra/tcp_swift.ko" ] ||
	{ bad "modules installed for $kver"; summary; }
ok "modules installed for $kver: $(cd "/lib/modules/$kver/extra" && echo tcp_*.ko)"

# tap_ok LOG TEST: TEST passed (a SKIP is not a pass here).
tap_ok() {
	grep -Eq "^ok [0-9]+ selftests: dcc: $2\$" "$1"
}

log=$(mktemp)
echo "== make -C tools/testing/selftests TARGETS=dcc TESTS=\"$*\" run_tests"
make -C "$kst" TARGETS=dcc TESTS="$*" run_tests 2>&1 | tee "$log"
for t in "$@"; do
	if tap_ok "$log" "$t"; then ok "run_tests: $t"; else bad "run_tests: $t"; fi
done
# lib.sh in the kernel tree: no source tree, helpers next to the scripts.
if (cd "$inst/dcc" && . ./lib.sh && [ -z "$DCC_ROOT" ] && [ "$DCC_BIN" = "$PWD" ] &&
    [ -x "$DCC_BIN/xfer" ] && [ "$(dcc_modules | head -n 1)" = tcp_plb ]); then
	ok "lib.sh in the install: no source tree, helpers beside it, modules: $(cd "$inst/dcc" && . ./lib.sh && dcc_modules | tr '\n' ' ')"
else
	bad "lib.sh in the install: DCC_ROOT, DCC_BIN or dcc_modules"
fi

echo "== kselftest_install/run_kselftest.sh -t dcc:$1"
"$inst/run_kselftest.sh" -t "dcc:$1" 2>&1 | tee "$log"
if tap_ok "$log" "$1"; then ok "run_kselftest.sh: $1"; else bad "run_kselftest.sh: $1"; fi
summary
