#!/bin/bash
# Discover the kernel version (KVER) used to build modules and boot the test VM.
#
# Sourceable:  . tools/vm/kver.sh; KVER=$(vm_kver) || exit 2
# CLI:         tools/vm/kver.sh --print     (prints KVER, or an error on stderr, exit 2)
#
# The image (/boot/vmlinuz-KVER), the modules (/lib/modules/KVER) and the kbuild
# tree (/lib/modules/KVER/build) must all be the same version: Debian bumps the ABI
# number (6.1.0-N) on updates, and a module built against other headers won't load.
# With $VM_KROOT (a directory with boot/ and lib/modules/, as tools/kernel-612.sh
# makes) the kernel comes from there instead, and no headers are required.
# Without $KVER we take the newest *-amd64 image (amd64 flavour only: cloud-amd64
# lacks 9p) and insist that its headers are installed, rather than silently falling
# back to an older image, so that a half-done upgrade is reported, not hidden.

vm_kver() {
	local img k images=() headers=()
	# A kernel unpacked outside /boot (tools/kernel-612.sh): VM_KROOT holds
	# boot/vmlinuz-KVER and lib/modules/KVER; its build tree is elsewhere.
	if [ -n "${VM_KROOT:-}" ]; then
		k=${KVER:-}
		if [ -z "$k" ]; then
			for img in "$VM_KROOT"/boot/vmlinuz-*; do
				[ -e "$img" ] && images+=("${img##*/vmlinuz-}")
			done
			[ ${#images[@]} -eq 0 ] ||
				k=$(printf '%s\n' "${images[@]}" | sort -V | tail -n 1)
		fi
		if [ -n "$k" ] && [ -r "$VM_KROOT/boot/vmlinuz-$k" ] &&
			[ -s "$VM_KROOT/lib/modules/$k/modules.dep" ]; then
			printf '%s\n' "$k"
			return 0
		fi
		echo "vm: VM_KROOT=$VM_KROOT has no kernel${k:+ $k} (boot/vmlinuz-KVER and lib/modules/KVER/modules.dep);" \
			"for 6.12 run tools/kernel-612.sh provision" >&2
		return 2
	fi
	for img in /boot/vmlinuz-*-amd64; do
		[ -e "$img" ] || continue
		k=${img#/boot/vmlinuz-}
		case $k in *-cloud-amd64 | *-rt-amd64) continue ;; esac
		images+=("$k")
	done
	for k in /lib/modules/*/build; do
		if [ -d "$k" ]; then headers+=("$(basename "$(dirname "$k")")"); fi
	done
	# Newest last (version sort).
	mapfile -t images < <(printf '%s\n' "${images[@]}" | sed '/^$/d' | sort -V)
	mapfile -t headers < <(printf '%s\n' "${headers[@]}" | sed '/^$/d' | sort -V)
	if [ -n "${KVER:-}" ]; then
		k=$KVER
	else
		k=""
		[ ${#images[@]} -eq 0 ] || k=${images[-1]}
	fi
	if [ -n "$k" ] && [ -r "/boot/vmlinuz-$k" ] && [ -d "/lib/modules/$k/kernel" ] &&
		[ -d "/lib/modules/$k/build" ]; then
		printf '%s\n' "$k"
		return 0
	fi
	{
		if [ -n "${KVER:-}" ]; then
			echo "vm: KVER=$KVER requested, but its image, modules or headers are missing."
		elif [ -z "$k" ]; then
			echo "vm: no Debian amd64 kernel image found (/boot/vmlinuz-*-amd64)."
		else
			echo "vm: the newest kernel image ($k) has no matching headers/modules."
		fi
		echo "vm:   kernel images (/boot/vmlinuz-*):        ${images[*]:-none}"
		echo "vm:   kernel headers (/lib/modules/*/build): ${headers[*]:-none}"
		echo "vm: the image and the headers must be the same version; install both with"
		echo "vm:   apt-get install linux-image-amd64 linux-headers-amd64"
		echo "vm: (or set KVER to a version that has both)."
	} >&2
	return 2
}

# CLI mode when executed rather than sourced.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	case ${1:-} in
	--print | "") vm_kver || exit 2 ;;
	*)
		echo "usage: $0 [--print]" >&2
		exit 2
		;;
	esac
fi
