#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The second kernel: Debian 13 (trixie)'s 6.12, beside the host's 6.1.
#
#   tools/kernel-612.sh provision   build tree + kernel image, cached (root)
#   tools/kernel-612.sh kver        print the cached kernel version
#   tools/kernel-612.sh build OUT   copy the sources to OUT and build the
#                                   modules there, W=1, inside the trixie tree
#   tools/kernel-612.sh sparse OUT  sparse (C=2) over that copy, in the tree
#   tools/kernel-612.sh env         print VM_KROOT=... KVER=... for tools/vm/run
#
# Everything lives under $DCC_K612_CACHE (default /var/cache/dcc-k612):
#   apt/      a private apt configuration, state and download cache with a
#             trixie source list (the host's apt sources are not touched)
#   root/     a debootstrap'ed trixie tree (gcc-14, make, the 6.12 headers):
#             6.12's kbuild needs a newer gcc than bookworm's gcc-12
#   kernel/   the unpacked linux-image package: boot/vmlinuz-KVER,
#             boot/config-KVER, lib/modules/KVER (after depmod).  Kept out
#             of /boot: a second /boot/vmlinuz-* would change which kernel
#             tools/vm/kver.sh picks for the 6.1 runs.
#   kver      the provisioned version, written last (the "done" mark)
#
# "provision" is idempotent: with a complete cache it neither downloads nor
# changes anything.  The version is the one trixie's linux-image-amd64
# points to on the mirror when first provisioned (K612_KVER=... picks
# another one the mirror still has).  The mirror is the host's Debian
# mirror (the first deb.debian.org-style URI in its apt sources), or
# K612_MIRROR.  debootstrap comes from tools/deps.sh.
set -euo pipefail

cache=${DCC_K612_CACHE:-/var/cache/dcc-k612}
suite=trixie
root=$cache/root
kroot=$cache/kernel
aptdir=$cache/apt

die() {
	echo "kernel-612: $1" >&2
	exit "${2:-1}"
}

# The mirror the host already uses for Debian (not its security archive).
host_mirror() {
	local f u
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		/etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		# shellcheck disable=SC2013 # one URI per word
		for u in $(sed -nE 's/^[[:space:]]*(deb|URIs:)[[:space:]]+(\[[^]]*\][[:space:]]+)?([^[:space:]]+).*/\3/p' "$f"); do
			case $u in
			*security*) ;;
			*/debian | */debian/) echo "${u%/}"; return 0 ;;
			esac
		done
	done
	echo http://deb.debian.org/debian
}
mirror=${K612_MIRROR:-$(host_mirror)}

# apt with a private configuration: its own source list, state, cache and
# no host sources.list.d; the host's keyring verifies trixie's Release.
apt_opts=(-o "Dir::Etc::SourceList=$aptdir/sources.list"
	-o "Dir::Etc::SourceParts=$aptdir/sources.list.d"
	-o "Dir::Etc::Preferences=$aptdir/preferences"
	-o "Dir::Etc::PreferencesParts=$aptdir/preferences.d"
	-o "Dir::State=$aptdir/state" -o "Dir::State::status=$aptdir/state/status"
	-o "Dir::Cache=$aptdir/cache" -o "APT::Architecture=amd64"
	-o "APT::Architectures::=amd64" -o "Debug::NoLocking=1"
	-o "Acquire::Retries=2" -o "Acquire::http::Timeout=30"
	-o "APT::Sandbox::User=root")

mirror_check() {
	# One clear error rather than apt's or debootstrap's pages of them.
	if ! curl -fsS -o /dev/null --max-time 30 --retry 2 \
		"$mirror/dists/$suite/Release" 2>"$cache/.curl.err"; then
		die "the Debian mirror $mirror is unreachable ($(tr -d '\n' <"$cache/.curl.err")); \
set K612_MIRROR=URL to use another one" 3
	fi
}

apt_update() {
	mkdir -p "$aptdir/sources.list.d" "$aptdir/preferences.d" \
		"$aptdir/state/lists/partial" "$aptdir/cache/archives/partial"
	: >"$aptdir/state/status"
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main" \
		>"$aptdir/sources.list"
	apt-get "${apt_opts[@]}" -q update >"$cache/apt-update.log" 2>&1 ||
		die "apt-get update for $suite failed (log: $cache/apt-update.log)"
	ls "$aptdir/state/lists/"*"_dists_${suite}_main_binary-amd64_Packages"* >/dev/null 2>&1 ||
		die "no $suite package index from $mirror (log: $cache/apt-update.log)"
}

# trixie's linux-image-amd64 -> linux-image-6.12.N+deb13-amd64.
mirror_kver() {
	apt-cache "${apt_opts[@]}" depends linux-image-amd64 2>/dev/null |
		sed -nE 's/^[[:space:]]*Depends: linux-image-([0-9][^ ]*-amd64)$/\1/p' | head -n 1
}

provision() {
	[ "$(id -u)" -eq 0 ] || die "provision needs root (debootstrap, chroot)" 2
	command -v debootstrap >/dev/null || die "debootstrap missing: run tools/deps.sh" 2
	mkdir -p "$cache"
	# One provisioning at a time: two make check runs on one machine
	# would debootstrap into the same tree.  The second waits, then finds
	# the cache complete.
	exec 9>"$cache/.lock"
	flock 9 || die "provision: cannot lock $cache/.lock"
	local want=${K612_KVER:-} have=""
	[ -s "$cache/kver" ] && have=$(cat "$cache/kver")
	if [ -n "$have" ] && { [ -z "$want" ] || [ "$want" = "$have" ]; } &&
		[ -f "$root/usr/src/linux-headers-$have/Makefile" ] &&
		[ -s "$kroot/boot/vmlinuz-$have" ] &&
		[ -s "$kroot/lib/modules/$have/modules.dep" ] &&
		[ -x "$root/usr/bin/sparse" ]; then # the last package added
		echo "kernel-612: $have cached in $cache"
		return 0
	fi
	mirror_check
	echo "kernel-612: mirror $mirror, cache $cache"
	apt_update
	[ -n "$want" ] || want=$(mirror_kver)
	[ -n "$want" ] || die "cannot resolve trixie's linux-image-amd64 on $mirror"
	apt-cache "${apt_opts[@]}" show "linux-image-$want" >/dev/null 2>&1 ||
		die "linux-image-$want is not on $mirror (now: $(mirror_kver))"
	rm -f "$cache/kver"

	# The build tree.  A half-made one (interrupted) is made again.
	local pkgs=gcc-14,make,libc6-dev,bc,bison,flex,libelf-dev,libssl-dev,kmod,perl,xz-utils,sparse
	if [ ! -f "$root/.dcc-complete" ]; then
		rm -rf "$root"
		echo "kernel-612: debootstrap $suite (a few minutes)"
		debootstrap --variant=minbase --include="$pkgs,linux-headers-$want" \
			"$suite" "$root" "$mirror" >"$cache/debootstrap.log" 2>&1 ||
			die "debootstrap failed (log: $cache/debootstrap.log)"
		touch "$root/.dcc-complete"
	fi
	# Packages added to the list later, or other headers: into the tree.
	local p missing=()
	for p in ${pkgs//,/ } linux-headers-$want; do
		# shellcheck disable=SC2016 # a dpkg-query format
		chroot "$root" dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q "install ok installed" || missing+=("$p")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		echo "kernel-612: installing ${missing[*]} in the tree"
		cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
		chroot "$root" sh -c "apt-get -q update && DEBIAN_FRONTEND=noninteractive \
apt-get install -y -q --no-install-recommends ${missing[*]}" \
			>"$cache/install.log" 2>&1 ||
			die "installing ${missing[*]} in the tree failed (log: $cache/install.log)"
	fi

	# The image: downloaded with the private apt, unpacked, depmod'ed.
	if [ ! -s "$kroot/lib/modules/$want/modules.dep" ] || [ ! -s "$kroot/boot/vmlinuz-$want" ]; then
		echo "kernel-612: linux-image-$want"
		local dl
		rm -rf "$cache"/dl.*
		dl=$(mktemp -d "$cache/dl.XXXXXX")
		(cd "$dl" && apt-get "${apt_opts[@]}" -q download "linux-image-$want") \
			>"$cache/download.log" 2>&1 ||
			die "apt-get download linux-image-$want failed (log: $cache/download.log)"
		rm -rf "$kroot.new"
		mkdir -p "$kroot.new"
		dpkg-deb -x "$dl"/linux-image-*.deb "$kroot.new"
		# trixie's packages install into /usr/lib (merged /usr).
		if [ ! -d "$kroot.new/lib/modules" ] && [ -d "$kroot.new/usr/lib/modules" ]; then
			mkdir -p "$kroot.new/lib"
			mv "$kroot.new/usr/lib/modules" "$kroot.new/lib/modules"
		fi
		depmod -b "$kroot.new" "$want"
		rm -rf "$kroot" "$dl"
		mv "$kroot.new" "$kroot"
	fi
	echo "$want" >"$cache/kver"
	echo "kernel-612: $want ready in $cache"
}

cached_kver() {
	[ -s "$cache/kver" ] || die "no 6.12 kernel in $cache: run tools/kernel-612.sh provision" 2
	cat "$cache/kver"
}

# build OUT: the tree's sources (tracked and untracked, not ignored) copied
# to OUT, the modules built there in the trixie tree with W=1 (OUT is bound
# at /dcc in a private mount namespace: nothing stays mounted).
build() {
	local out=${1:?usage: build OUT} src kver
	src=$(cd "$(dirname "$0")/.." && pwd -P)
	kver=$(cached_kver)
	[ "$(id -u)" -eq 0 ] || die "build needs root (chroot)" 2
	mkdir -p "$out"
	out=$(cd "$out" && pwd -P)
	# OUT is emptied first: never the source tree or anything holding it.
	case $src/ in "$out"/*) die "build: OUT ($out) must not contain the sources" 2 ;; esac
	find "$out" -mindepth 1 -maxdepth 1 -exec rm -rf {} +
	if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		# shellcheck disable=SC2016 # expanded by sh
		(cd "$src" && git ls-files -co --exclude-standard -z |
			grep -zv -e '^sim/' -e '^build-k612' |
			xargs -0 -r sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
			tar -c --null -T - -f -) | tar -x -C "$out"
	else
		(cd "$src" && tar -c --exclude=./sim --exclude='./build-k612*' \
			--exclude='*.o' --exclude='*.ko' -f - .) | tar -x -C "$out"
	fi
	mkdir -p "$root/dcc"
	# -k: every object is compiled, so one failing module does not hide
	# another's errors; make still fails.
	kmake "$out" -k modules
}

# kmake OUT ARGS...: make in the trixie tree on the copy in OUT (bound at
# /dcc in a private mount namespace: nothing stays mounted).
kmake() {
	local out=$1 kver
	shift
	kver=$(cached_kver)
	mkdir -p "$root/dcc"
	# shellcheck disable=SC2016 # expanded by sh
	unshare -m sh -c 'mount --bind "$1" "$2/dcc" && root=$2 kver=$3 jobs=$4 &&
		shift 4 && exec chroot "$root" \
		make -C /usr/src/linux-headers-"$kver" M=/dcc W=1 -j"$jobs" "$@"' \
		sh "$out" "$root" "$kver" "${K612_JOBS:-2}" "$@"
}

# sparse OUT: sparse (C=2) over the copy that "build OUT" made.
sparse() {
	local out=${1:?usage: sparse OUT}
	[ -f "$out/Kbuild" ] || die "sparse: no copy in $out (run build OUT first)" 2
	kmake "$(cd "$out" && pwd -P)" C=2 modules
}

case ${1:-} in
provision) provision ;;
kver) cached_kver ;;
build) shift; build "$@" ;;
sparse) shift; sparse "$@" ;;
env) echo "VM_KROOT=$kroot KVER=$(cached_kver)" ;;
*)
	sed -n '4,11p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
	;;
esac
