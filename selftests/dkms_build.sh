#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# DKMS: the package (every module in dkms.conf) built from a copy under
# /usr/src against the installed headers, as Debian's dkms does on a kernel
# upgrade.  Runs in the VM because dkms writes under /usr/src and
# /var/lib/dkms (the guest's root is a throw-away overlay).  It compiles
# the modules from scratch: one to two minutes in the emulated VM.
# See Documentation/admin-guide.rst, "Installing".
. "$(dirname "$0")/lib.sh"
[ -n "$DCC_ROOT" ] || skip "builds from the source tree: not a kernel tree's kselftest"
require_root
require_cmd dkms make

KREL=$(uname -r)
[ -f "/lib/modules/$KREL/build/Makefile" ] || skip "no kernel headers for $KREL"

# dkms: the package copied to /usr/src by "make dkms-src" (what
# "make dkms-install" does before dkms add + install), then built from
# that copy as Debian's dkms does on a kernel upgrade (the guest's root is
# a throw-away overlay).
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$DCC_ROOT/dkms.conf")
src=/usr/src/dcc-tcp-$ver
check "make dkms-src copies the package to $src" \
	sh -c "make -s -C '$DCC_ROOT' dkms-src >/dev/null 2>&1 && test -f '$src/Kbuild'"
# Only what Kbuild compiles: no tests, fuzz corpus, tools, docs or .git.
extra=$(cd "$src" && find . -type f ! -name Kbuild ! -name dkms.conf \
	! -path './tcp_*.c' ! -path './include/*.h' ! -path './trace/*.h' | head -n 5)
check "the copy holds only Kbuild's sources${extra:+ (extra: $extra)}" test -z "$extra"
# BUILD_EXCLUSIVE_KERNEL admits this kernel and refuses others.
excl=$(sed -n 's/^BUILD_EXCLUSIVE_KERNEL="\(.*\)"/\1/p' "$src/dkms.conf")
check "BUILD_EXCLUSIVE_KERNEL admits $KREL" bash -c "[[ '$KREL' =~ $excl ]]"
check "BUILD_EXCLUSIVE_KERNEL refuses 5.10.0-28-amd64" \
	bash -c "! [[ 5.10.0-28-amd64 =~ $excl ]]"
dk=$(mktemp)
check "dkms add dcc-tcp/$ver" sh -c "dkms add dcc-tcp/$ver >'$dk' 2>&1"
t0=$(date +%s)
check "dkms build dcc-tcp/$ver -k $KREL" \
	sh -c "dkms build dcc-tcp/$ver -k '$KREL' >>'$dk' 2>&1"
log "dkms build took $(($(date +%s) - t0)) s"
for m in $(sed -n 's/^BUILT_MODULE_NAME\[[0-9]*\]="\(.*\)"/\1/p' "$DCC_ROOT/dkms.conf"); do
	ko=/var/lib/dkms/dcc-tcp/$ver/$KREL/x86_64/module/$m.ko
	check "dkms built $m.ko" test -f "$ko"
	# The version is kept once (dkms.conf); every module reports it.
	got=$(modinfo -F version "$ko" 2>/dev/null)
	check "$m.ko reports version $ver (got '$got')" test "$got" = "$ver"
done
dkms status dcc-tcp 2>/dev/null | sed 's/^/#   /'
grep -iE 'error|warning' "$dk" | head -n 5 | sed 's/^/#   /'
dkms remove "dcc-tcp/$ver" --all >/dev/null 2>&1
rm -rf "$src" "$dk"
finish
