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
require_root
require_cmd dkms make

KREL=$(uname -r)
[ -f "/lib/modules/$KREL/build/Makefile" ] || skip "no kernel headers for $KREL"

# dkms: the package built from a copy under /usr/src, as Debian's dkms
# does on a kernel upgrade (the guest's root is a throw-away overlay).
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$DCC_ROOT/dkms.conf")
src=/usr/src/dcc-tcp-$ver
rm -rf "$src"
mkdir -p "$src" /var/lib/dkms
(cd "$DCC_ROOT" && tar cf - --exclude=.git --exclude='*.o' \
	--exclude='*.ko' --exclude='*.mod*' --exclude='*.cmd' \
	--exclude='.*.cmd' --exclude=build --exclude=Module.symvers \
	--exclude=modules.order .) | tar xf - -C "$src"
dk=$(mktemp)
check "dkms add dcc-tcp/$ver" sh -c "dkms add dcc-tcp/$ver >'$dk' 2>&1"
t0=$(date +%s)
check "dkms build dcc-tcp/$ver -k $KREL" \
	sh -c "dkms build dcc-tcp/$ver -k '$KREL' >>'$dk' 2>&1"
log "dkms build took $(($(date +%s) - t0)) s"
for m in $(sed -n 's/^BUILT_MODULE_NAME\[[0-9]*\]="\(.*\)"/\1/p' "$DCC_ROOT/dkms.conf"); do
	check "dkms built $m.ko" \
		test -f "/var/lib/dkms/dcc-tcp/$ver/$KREL/x86_64/module/$m.ko"
done
dkms status dcc-tcp 2>/dev/null | sed 's/^/#   /'
grep -iE 'error|warning' "$dk" | head -n 5 | sed 's/^/#   /'
dkms remove "dcc-tcp/$ver" --all >/dev/null 2>&1
rm -rf "$src" "$dk"
finish
