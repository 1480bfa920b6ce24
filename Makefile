# SPDX-License-Identifier: GPL-2.0
#
# make              build the modules against KDIR
# make check        unit tests (userspace) + selftests in the VM, on 6.1
#                   and (build + smoke selftests) on Debian 13's 6.12
# make check-612    only the 6.12 part: provision (cached under
#                   /var/cache/dcc-k612), build W=1, smoke selftests
# make check-long   the long robustness variants in the VM (ROBUST_LONG=1)
# make demo         swift vs cubic through a shaped bottleneck, in the VM
# make bench        the benchmark suite in the VM: tables and plots
# make bench-612    the same suite in a VM booting Debian 13's 6.12 (root)
# make bench-jitter only the delay-noise scenario (7), one run; S7_FULL=1
#                   sweeps every jitter, path and cc
# make install      install into /lib/modules/<KVER>/extra and run depmod
# make uninstall    remove them again
# make dkms-install copy the sources Kbuild needs to /usr/src/dcc-tcp-<ver>,
#                   then dkms add + install (rebuilt on every kernel upgrade)
# make dkms-uninstall  dkms remove --all and delete that copy
# make deps         install every Debian package the build and tests need
# make lint         checkpatch --strict, sparse (C=1) and W=1
# make docs-check   Documentation/*.rst parse without a docutils warning
# make patch-check  the kernel patches in patches/ against linux-source-6.1
#                   (checkpatch, they apply), and the modules built against
#                   the patched headers (tools/patch_check.sh)
# make fuzz         short libFuzzer run of every core (part of make check)
# make fuzz-long    FUZZ_TIME seconds per core (default 120), niced
# make sim          ns-3 models built from the cores: build, scenario tables
#                   (sim/, Documentation/simulation.rst)
# make sim-figures  the fat-tree FCT, 100 Gbit/s incast and 95 %-load scenarios
#                   with plots (tens of minutes; sim/figures.sh)
#
# KDIR defaults to the running kernel's build tree when it exists, else the
# newest installed Debian -amd64 headers (tools/vm/kver.sh picks it).

MODULES := tcp_swift tcp_timely tcp_plb tcp_dcqcn tcp_hpcc
SRCDIR  := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))

ifeq ($(origin KDIR), undefined)
  ifneq ($(wildcard /lib/modules/$(shell uname -r)/build/Makefile),)
    KDIR := /lib/modules/$(shell uname -r)/build
  else
    KVER ?= $(shell $(SRCDIR)/tools/vm/kver.sh --print 2>/dev/null)
    KDIR := /lib/modules/$(KVER)/build
  endif
endif
KVER ?= $(shell $(MAKE) -s -C $(KDIR) kernelrelease 2>/dev/null)

CHECKPATCH ?= $(firstword $(wildcard /usr/src/linux-source-6.1/scripts/checkpatch.pl) checkpatch.pl)

.PHONY: all modules clean install uninstall dkms-src dkms-install dkms-uninstall deps check check-612 check-long unit selftests demo \
	bench bench-612 bench-jitter lint checkpatch sparse kdir-check fuzz fuzz-long sim sim-check sim-figures \
	patch-check docs-check

all: modules

kdir-check:
	@test -f "$(KDIR)/Makefile" || { \
	  echo "error: no kernel build tree at KDIR='$(KDIR)'."; \
	  echo "       Install headers (make deps) or pass KDIR=/path/to/build."; \
	  exit 2; }

# -k: every object is compiled even if one fails, so one module's error
# does not hide another's; the build still fails.
modules: kdir-check
	$(MAKE) -k -C $(KDIR) M=$(SRCDIR) W=1 modules

clean:
	-$(MAKE) -C $(KDIR) M=$(SRCDIR) clean 2>/dev/null
	rm -rf $(SRCDIR)/build-k612
	$(MAKE) -C tests clean
	$(MAKE) -C tests/fuzz clean
	$(MAKE) -C selftests clean
	$(MAKE) -C sim clean

# Installs what "make" built (as the kernel's own "make modules_install"
# does), so "sudo make install" after "make" compiles nothing as root.
install: kdir-check
	@test -f $(SRCDIR)/modules.order || { echo "error: run 'make' first"; exit 2; }
	$(MAKE) -C $(KDIR) M=$(SRCDIR) INSTALL_MOD_DIR=extra modules_install
	depmod -a $(KVER)

uninstall:
	rm -f $(addprefix /lib/modules/$(KVER)/extra/,$(addsuffix .ko,$(MODULES)) \
	      $(addsuffix .ko.xz,$(MODULES)) $(addsuffix .ko.zst,$(MODULES)))
	depmod -a $(KVER)

# DKMS: the package name and version are dkms.conf's (the one place the
# version is kept: Kbuild passes it to MODULE_VERSION too).  Only what
# Kbuild compiles is copied: no tests, fuzz corpus, tools or .git.
DKMS_NAME := $(shell sed -n 's/^PACKAGE_NAME="\(.*\)"/\1/p' $(SRCDIR)/dkms.conf)
DKMS_VER  := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' $(SRCDIR)/dkms.conf)
DKMS_SRC  ?= /usr/src/$(DKMS_NAME)-$(DKMS_VER)

dkms-src:
	rm -rf $(DKMS_SRC)
	mkdir -p $(DKMS_SRC)/include $(DKMS_SRC)/trace
	cd $(SRCDIR) && cp Kbuild dkms.conf $(addsuffix .c,$(MODULES)) $(DKMS_SRC)/
	cp $(SRCDIR)/include/*.h $(DKMS_SRC)/include/
	cp $(SRCDIR)/trace/*.h $(DKMS_SRC)/trace/

dkms-install: dkms-src
	dkms status $(DKMS_NAME)/$(DKMS_VER) | grep -q . || dkms add $(DKMS_NAME)/$(DKMS_VER)
	dkms install $(DKMS_NAME)/$(DKMS_VER)

dkms-uninstall:
	-dkms remove $(DKMS_NAME)/$(DKMS_VER) --all
	rm -rf $(DKMS_SRC)

deps:
	$(SRCDIR)/tools/deps.sh

unit:
	$(MAKE) -C tests run

fuzz:
	$(MAKE) -C tests/fuzz run

fuzz-long:
	$(MAKE) -C tests/fuzz long

sim:
	$(MAKE) -C sim run

sim-check:
	$(MAKE) -C sim check

sim-figures:
	$(MAKE) -C sim figures

selftests: modules
	$(MAKE) -C selftests run_vm

check:
	$(SRCDIR)/tools/check.sh

# Documentation/testing.rst, "Debian 13's 6.12".
check-612:
	$(SRCDIR)/tools/check-612.sh

# Documentation/testing.rst: faults, load, lifecycle and bad input, longer.
check-long: modules
	$(MAKE) -C selftests run_vm_long

demo:
	$(SRCDIR)/tools/demo.sh

# The benchmark suite (tools/bench/bench.sh); BENCH_SMOKE=1 for the short
# check that make check runs.
bench:
	$(SRCDIR)/tools/bench/bench.sh

# The delay-noise scenario alone (tools/bench/params.sh, S7_*).
bench-jitter:
	BENCH_SCENARIOS=jitter BENCH_RUNS=1 BENCH_CMD="make bench-jitter" \
		$(SRCDIR)/tools/bench/bench.sh

# The same suite on Debian 13's 6.12 (tools/kernel-612.sh; needs root).
bench-612:
	$(SRCDIR)/tools/bench/bench-612.sh

# checkpatch --strict on every kernel source.  Four files get one justified
# exception each: the compat header exists to test LINUX_VERSION_CODE, and
# the parameter, counter and timestamp-link macros must repeat their
# identifier arguments (as module_param and DEFINE_MUTEX do); identifiers
# have no side effects.
# Trace headers (trace/) follow the layout of include/trace/events/ that
# TRACE_EVENT needs (TP_* blocks opened at line end, indented one tab, a
# TRACE_INCLUDE_PATH with '/'), which checkpatch flags as style checks;
# trace/dcc_trace_sock.h's field and argument lists are spliced into
# TRACE_EVENT as lists (no parentheses possible) and its assignment macro
# repeats its arguments (__entry and sk, no side effects).
CP := $(CHECKPATCH) --strict --no-tree --terse --show-types -f
CP_FILES := $(filter-out include/dcc_compat.h include/dcc_param.h \
	include/dcc_stat.h include/dcc_tstamp_link.h,\
	$(addsuffix .c,$(MODULES)) $(wildcard include/*.h) \
	$(filter-out %.mod.c,$(wildcard selftests/kmod/*.[ch])))
checkpatch:
	@rc=0; \
	$(CP) $(CP_FILES) || rc=1; \
	$(CP) --ignore LINUX_VERSION_CODE include/dcc_compat.h || rc=1; \
	$(CP) --ignore MACRO_ARG_REUSE include/dcc_param.h || rc=1; \
	$(CP) --ignore MACRO_ARG_REUSE include/dcc_stat.h || rc=1; \
	$(CP) --ignore MACRO_ARG_REUSE include/dcc_tstamp_link.h || rc=1; \
	$(CP) --ignore OPEN_ENDED_LINE,PARENTHESIS_ALIGNMENT,SPACING \
		$(filter-out trace/dcc_trace_sock.h,$(wildcard trace/*.h)) || rc=1; \
	$(CP) --ignore COMPLEX_MACRO,MACRO_ARG_REUSE trace/dcc_trace_sock.h || rc=1; \
	exit $$rc

# The selftests' stand-in modules (selftests/kmod/) too.
sparse: kdir-check
	$(MAKE) -C $(KDIR) M=$(SRCDIR) C=2 W=1 modules
	$(MAKE) -C $(KDIR) M=$(SRCDIR)/selftests/kmod C=2 W=1 modules

lint: checkpatch sparse

# Every reStructuredText file parses without a docutils warning (what the
# kernel's Sphinx build would flag): tables, titles, definition lists.
docs-check:
	python3 tools/docs_check.py $(wildcard Documentation/*.rst)

patch-check:
	KDIR=$(KDIR) $(SRCDIR)/tools/patch_check.sh
