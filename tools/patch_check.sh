#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make patch-check: the kernel patches in patches/ against Debian's
# linux-source-6.1 (tools/deps.sh installs it), and the modules against
# the patched headers.
#   1. checkpatch --strict on each patch;
#   2. the files each patch touches, extracted from
#      /usr/src/linux-source-6.1.tar.xz, take the patches in order
#      (patch --dry-run, then for real);
#   3. a copy of the installed kernel headers (KDIR) with the patched
#      include/net/tcp.h, and the modules built against it (W=1, a warning
#      fails): Kbuild must find TCP_CONG_WANTS_RX_TSTAMP and build the
#      rate-sample route (DCC_HAVE_RS_RX_TSTAMP, checked in the objects'
#      command lines).
# Prints "patch-check: N passed, N failed"; exit status 0 only when all
# passed.  WORK=DIR keeps the scratch tree there (default: a temp dir,
# removed at the end).
set -uo pipefail
cd "$(dirname "$0")/.."
SRC=$PWD
TARBALL=${TARBALL:-/usr/src/linux-source-6.1.tar.xz}
CHECKPATCH=${CHECKPATCH:-/usr/src/linux-source-6.1/scripts/checkpatch.pl}
KVER=${KVER:-$(tools/vm/kver.sh --print 2>/dev/null)}
KDIR=${KDIR:-/lib/modules/$KVER/build}

pass=0
fail=0
ok() { echo "ok: $1"; pass=$((pass + 1)); }
bad() { echo "FAILED: $1"; fail=$((fail + 1)); }
summary() { echo "patch-check: $pass passed, $fail failed"; [ "$fail" = 0 ]; }

if [ -n "${WORK:-}" ]; then
	mkdir -p "$WORK"
else
	WORK=$(mktemp -d /tmp/dcc-patch-check.XXXXXX)
	trap 'rm -rf "$WORK"' EXIT
fi

shopt -s nullglob
patches=("$SRC"/patches/*.patch)
if [ ${#patches[@]} = 0 ]; then
	bad "no patches in patches/"
	summary
	exit
fi
if [ ! -f "$TARBALL" ]; then
	bad "no $TARBALL (tools/deps.sh installs linux-source-6.1)"
	summary
	exit
fi

# 1. checkpatch.
for p in "${patches[@]}"; do
	if "$CHECKPATCH" --strict --no-tree --terse "$p"; then
		ok "checkpatch $(basename "$p")"
	else
		bad "checkpatch $(basename "$p")"
	fi
done

# 2. The touched files from the tarball, then each patch in order.
top=$(tar -tJf "$TARBALL" 2>/dev/null | head -1 | cut -d/ -f1)
files=$(sed -n 's|^+++ b/||p' "${patches[@]}" | sort -u)
members=$(for f in $files; do echo "$top/$f"; done)
# shellcheck disable=SC2086
if ! tar -xJf "$TARBALL" -C "$WORK" $members; then
	bad "extract $files from $TARBALL"
	summary
	exit
fi
tree=$WORK/$top
for p in "${patches[@]}"; do
	if patch -d "$tree" -p1 --dry-run --quiet < "$p" &&
	   patch -d "$tree" -p1 --quiet --no-backup-if-mismatch < "$p"; then
		ok "applies to $(basename "$TARBALL"): $(basename "$p")"
	else
		bad "applies to $(basename "$TARBALL"): $(basename "$p")"
	fi
done

# 3. The modules against the headers with the patched net/tcp.h.  Debian's
# headers are two trees: KDIR (the build dir, whose Makefile includes the
# common one) and the common source headers; both are copied as symlink
# farms with the files that name their own place made real.
common=$(sed -n 's|^include \(.*\)/Makefile$|\1|p' "$KDIR/Makefile" 2>/dev/null)
if [ -z "$common" ] || [ ! -f "$common/include/net/tcp.h" ]; then
	bad "kernel headers at $KDIR (Debian layout) for the patched build"
	summary
	exit
fi
if ! cmp -s "$common/include/net/tcp.h" <(tar -xJOf "$TARBALL" \
		"$top/include/net/tcp.h"); then
	bad "the headers' net/tcp.h ($common) is not linux-source's"
	summary
	exit
fi
hc=$WORK/headers-common
hb=$WORK/headers-build
cp -rs "$(realpath "$common")" "$hc"
cp -rs "$(realpath "$KDIR")" "$hb"
cp --remove-destination "$(realpath "$common/Makefile")" "$hc/Makefile"
rm -f "$hc/include/net/tcp.h" "$hb/Makefile" "$hb/scripts"
cp "$tree/include/net/tcp.h" "$hc/include/net/tcp.h"
echo "include $hc/Makefile" > "$hb/Makefile"
ln -s "$(realpath "$KDIR/scripts")" "$hb/scripts"
mod=$WORK/modules
mkdir -p "$mod"
cp -r "$SRC"/Kbuild "$SRC"/*.c "$SRC"/include "$SRC"/trace "$mod"/
if make -C "$hb" M="$mod" W=1 modules > "$WORK/build.log" 2>&1 &&
   ! grep -E "warning:|error:" "$WORK/build.log"; then
	ok "modules build against the patched headers (W=1)"
else
	tail -n 30 "$WORK/build.log"
	bad "modules build against the patched headers (W=1)"
fi
if grep -q DCC_HAVE_RS_RX_TSTAMP "$mod/.tcp_swift.o.cmd" 2>/dev/null &&
   grep -q DCC_HAVE_RS_RX_TSTAMP "$mod/.tcp_timely.o.cmd" 2>/dev/null; then
	ok "Kbuild found the patched header: rate-sample route (DCC_HAVE_RS_RX_TSTAMP)"
else
	bad "Kbuild found the patched header: rate-sample route (DCC_HAVE_RS_RX_TSTAMP)"
fi
summary
