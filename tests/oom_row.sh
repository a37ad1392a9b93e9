#!/bin/sh
# oom_row.sh PCBENCH SRCDIR - a failure after the run directory exists (out of memory for a
# struct of a layout just under the 64 MiB guard, under ulimit -v) ends the run with exit 1:
# the family in progress gets a status=error row whose reason names the failure, in
# results.csv and results.jsonl, context.json gets its end time, and stderr says why.
# Then threads that cannot be created (-t 3 and -t 4), the same end; a host of fewer PUs
# skips them, and vm_numa runs them (and makes these checks) in its 8-PU guest. The limits,
# the command and the checks are oom_common.sh's. Exit 77 (skip) when even the default
# layout cannot run under that limit (ASan and TSan reserve far more address space than
# that): the Release build makes these checks.
set -u
. "${0%/*}/preamble.sh"
. "${0%/*}/oom_common.sh"
sed 's/^struct mem_cgroup size [0-9]*/struct mem_cgroup size 67108800/' \
	"$src/benches/layouts/page_counter-v6.0.layout" >"$tmp/big.layout"
limited() { (
	ulimit -v $oom_limit || exit 77
	oom_cmd -t 1 "$@"
); }

limited -o "$tmp/small" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -ne 0 ]; then
	echo "SKIP: the default layout does not run under ulimit -v $oom_limit (exit $rc):"
	tail -n 3 "$tmp/err"
	exit 77
fi

limited -o "$tmp/run" -D "layout=$tmp/big.layout" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] || no "exit $rc, want 1"
grep -Eq '^pcbench: memory: [a-z_]+: (Cannot allocate memory|out of memory)$' "$tmp/err" ||
	no "stderr does not name the allocation that failed"
error_row "$tmp/run" "^memory: " ""
"$pcbench" compare "$tmp/run" --format csv >/dev/null 2>"$tmp/cmp" ||
	{ no "the run directory does not parse:"; cat "$tmp/cmp"; }
[ $fail -eq 0 ] || { echo "stderr:"; cat "$tmp/err"; }
echo "out of memory after creation: exit $rc: $(grep -m1 'status=error row' "$tmp/err")"
grep -m1 '^pcbench: memory: ' "$tmp/err"

# Threads that cannot be created (issue 35): oom_threads (oom_common.sh) at -t 3 and -t 4.
# Whether the threads probe before measuring or Google Benchmark finds it (std::terminate in
# 1.7.1 with 3 threads or more, before), the family gets a status=error row saying why, exit
# 1, context.json its end; never SIGABRT (134). A host with fewer PUs skips the thread count
# (its placement skips the family): vm_numa runs the same in its 8-PU guest and makes the
# same checks; tests/test_gbshim.c covers the shim itself.
pus=$(nproc)
for t in 3 4; do
	if [ "$pus" -lt $t ]; then
		echo "SKIP: -t $t: this host has $pus PUs (vm_numa runs it in a guest)"
		continue
	fi
	oom_threads $t "$tmp/t$t" 2>"$tmp/err$t"
	oom_threads_check $t "$tmp/t$t" $? "$tmp/err$t" ""
done
exit $fail
