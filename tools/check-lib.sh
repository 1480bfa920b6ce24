# SPDX-License-Identifier: GPL-2.0
#
# The tally shared by tools/check.sh and tools/check-612.sh (sourced; both
# set $logdir first): pass/fail counters, one-check steps, sub-suite
# summaries and the compiler-clean test of a build.

pass=0
fail=0

count() {	# count LOGFILE PREFIX [N]: add every "PREFIX: N passed, M failed"
	local line p f seen=0
	while read -r line; do
		p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')
		f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
		pass=$((pass + p))
		fail=$((fail + f))
		seen=$((seen + 1))
	done < <(grep -E "^$2: [0-9]+ passed, [0-9]+ failed" "$1")
	# N summaries expected (one per VM boot, say); a missing one failed.
	if [ "$seen" -lt "${3:-1}" ]; then
		echo "check: $(( ${3:-1} - seen )) '$2:' summary missing, counting as a failure"
		fail=$((fail + 1))
	fi
}

step() {	# step NAME CMD...: one pass/fail check (status as CMD's)
	local name=$1
	shift
	if "$@" > "$logdir/$name.log" 2>&1; then
		echo "ok: $name"
		pass=$((pass + 1))
	else
		echo "FAILED: $name (log follows)"
		tail -n 40 "$logdir/$name.log"
		fail=$((fail + 1))
		return 1
	fi
}

# warning_free CMD...: CMD succeeds and its output (copied to stderr, so a
# step's log keeps it) holds no compiler warning or error.
warning_free() {
	"$@" 2>&1 | tee /dev/stderr | { ! grep -E "warning:|error:"; }
}
