#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install every Debian package the build, the tests, the demo and the
# benchmark need.  Idempotent: packages already installed are skipped, and
# apt is not touched at all when nothing is missing.
#
#   tools/deps.sh            install what is missing (needs root)
#   tools/deps.sh --check    list what is missing, exit 1 if anything is
set -euo pipefail

PKGS=(
	# kernel to boot in the VM and its matching kbuild tree
	linux-image-amd64 linux-headers-amd64
	# build and lint: gcc/make come with the headers' dependencies
	build-essential kmod sparse linux-source-6.1 dkms
	# the kernel's kselftest install (lib.mk) copies with rsync
	rsync
	# VM runner
	qemu-system-x86 busybox-static cpio
	# Debian 13's 6.12 beside 6.1 (tools/kernel-612.sh): a trixie build
	# tree, the mirror check, the image's .ko.xz modules
	debootstrap curl xz-utils
	# packetdrill (selftests/tcp_packetdrill.sh), built from ../shared/tools
	bison flex
	# unit tests
	libcmocka-dev pkg-config
	# fuzzing the cores (tests/fuzz): clang with libFuzzer and sanitizers
	clang-14 libclang-rt-14-dev
	# network tests, demo and benchmark
	iproute2 iperf3 sockperf iputils-ping tcpdump ethtool jq bc procps
	# tracing recipes of admin-guide.rst, run by the observe tests
	bpftrace linux-perf
	# benchmark report and per-ACK cost (make bench); the report's plots
	# need python3-matplotlib (below, with make sim's)
	python3 valgrind
	# make docs-check: Documentation/*.rst parse cleanly
	python3-docutils
	# ns-3 models of the cores (make sim): ns-3 3.37 and what its link
	# line needs; matplotlib for the plots (make sim's, make bench's)
	libns3-dev libgsl-dev python3-matplotlib
)

missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing+=("$p")
done

# The kernel's kselftest runner and the files a kselftest layout needs
# (selftests/ runs through them: Documentation/testing.rst, "As a
# kselftest target"), unpacked from the source tarball below.
KSFT=linux-source-6.1/tools/testing/selftests
KSFT_FILES=("$KSFT/kselftest" "$KSFT/lib.mk" "$KSFT/Makefile" "$KSFT/kselftest.h"
	"$KSFT/kselftest_harness.h" "$KSFT/run_kselftest.sh")
ksft_unpacked() { [ -f "/usr/src/$KSFT/kselftest/runner.sh" ] && [ -f "/usr/src/$KSFT/lib.mk" ]; }

if [ "${1:-}" = "--check" ]; then
	ksft_unpacked || missing+=("(unpacked from linux-source-6.1: $KSFT)")
	[ ${#missing[@]} -eq 0 ] && exit 0
	echo "missing: ${missing[*]}"
	exit 1
fi

if [ ${#missing[@]} -gt 0 ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "deps: need root to install: ${missing[*]}" >&2
		exit 1
	fi
	echo "deps: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q
	apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# checkpatch.pl ships inside the source tarball; unpack just the scripts.
if [ ! -f /usr/src/linux-source-6.1/scripts/checkpatch.pl ] &&
   [ -f /usr/src/linux-source-6.1.tar.xz ]; then
	tar -C /usr/src -xf /usr/src/linux-source-6.1.tar.xz \
		linux-source-6.1/scripts
fi

if ! ksft_unpacked && [ -f /usr/src/linux-source-6.1.tar.xz ]; then
	tar -C /usr/src -xf /usr/src/linux-source-6.1.tar.xz "${KSFT_FILES[@]}"
fi
