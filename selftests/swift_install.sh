#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install paths, in the VM (its root is a throw-away overlay):
#  - "make install" then "modprobe tcp_swift" by name; depmod places it in
#    /lib/modules/$(uname -r)/extra; modinfo shows the description, every
#    parameter with unit, default and range, the version and the license;
#  (the dkms build is dkms_build.sh).
# See Documentation/admin-guide.rst, "Installing".
. "$(dirname "$0")/lib.sh"
[ -n "$DCC_ROOT" ] || skip "builds from the source tree: not a kernel tree's kselftest"
require_root
require_cmd make modprobe modinfo depmod

unload_module tcp_swift

KREL=$(uname -r)
KBUILD=/lib/modules/$KREL/build
if [ ! -f "$KBUILD/Makefile" ]; then
	log "no kernel headers for $KREL: install checks skipped"
	finish
fi
inst=$(mktemp)
check "make install (KDIR=$KBUILD)" \
	sh -c "make -s -C '$DCC_ROOT' KDIR='$KBUILD' KVER='$KREL' install >'$inst' 2>&1"
# Debian's kbuild tree tries to sign modules on install and has no key:
# the "SSL error ... signing_key.pem" lines are expected (unsigned modules
# load, tainting the kernel).
grep -v -e 'SSL error' -e 'sign-file' -e 'At main.c' "$inst" | head -n 5 |
	sed 's/^/#   /'
check "depmod finds it under /lib/modules/$KREL/extra" \
	grep -q "^/lib/modules/$KREL/extra/tcp_swift.ko" <<< "$(modinfo -n tcp_swift 2>/dev/null)"
check "modprobe tcp_swift (by name)" modprobe tcp_swift
check "swift registered after modprobe" \
	grep -qw swift /proc/sys/net/ipv4/tcp_available_congestion_control
info=$(modinfo tcp_swift)
check "modinfo: description" grep -q '^description: *TCP Swift' <<< "$info"
check "modinfo: version" grep -qE '^version: *[0-9]' <<< "$info"
check "modinfo: license GPL" grep -qE '^license: *GPL$' <<< "$info"
np=$(echo "$info" | grep -c '^parm:')
nu=$(echo "$info" | grep '^parm:' |
     grep -cE '(1/1000|microseconds|milliseconds|nanoseconds|packets?|hops|percent|0: |timeouts in a row).*\[default [0-9]+, range [0-9]+-[0-9]+\]|\[default [a-z]+, one of [a-z|]+\]')
expect "modinfo: every parameter ($np) states unit, default and range ($nu)" \
	"$np >= 18 && $nu == $np"
check "rmmod after modprobe" modprobe -r tcp_swift
make -s -C "$DCC_ROOT" KDIR="$KBUILD" KVER="$KREL" uninstall >/dev/null 2>&1
rm -f "$inst"

finish
