#!/bin/sh
# oom_row.sh PCBENCH SRCDIR - a failure after the run directory exists (out of memory for a
# struct of a layout just under the 64 MiB guard, under ulimit -v) ends the run with exit 1:
# the family in progress gets a status=error row whose reason names the failure, in
# results.csv and results.jsonl, context.json gets its end time, and stderr says why.
# Exit 77 (skip) when even the default layout cannot run under that limit (ASan and TSan
# reserve far more address space than that).
set -u
pcbench=$1 SRC=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
limit=131072 # KiB of address space: the default run needs about 20 MiB, this one 280
sed 's/^struct mem_cgroup size [0-9]*/struct mem_cgroup size 67108800/' \
	"$SRC/benches/layouts/page_counter-v6.0.layout" >"$tmp/big.layout"
# error_row DIR RE WHAT - DIR/results.csv has a status=error row whose reason matches RE
# (by the header's column numbers: no cell before them holds a comma) and DIR/context.json
# its end time; else FAIL lines prefixed with WHAT.
error_row() {
	awk -F, -v re="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["status"] == "error" && $c["reason"] ~ re { found = 1 }
		END { exit !found }' "$1/results.csv" 2>/dev/null ||
		{ echo "FAIL: $3results.csv has no status=error row naming $2"; fail=1; }
	grep -Eq '"end_time": "[0-9]{4}-' "$1/context.json" 2>/dev/null ||
		{ echo "FAIL: $3context.json has no end_time"; fail=1; }
}
limited() { (
	ulimit -v $limit || exit 77
	exec "$pcbench" -s page_counter -p +ABC -w direct -t 1 -r 2 --time 0.001 "$@"
); }

limited -o "$tmp/small" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -ne 0 ]; then
	echo "SKIP: the default layout does not run under ulimit -v $limit (exit $rc):"
	tail -n 3 "$tmp/err"
	exit 77
fi

limited -o "$tmp/run" -D "layout=$tmp/big.layout" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] || { echo "FAIL: exit $rc, want 1"; fail=1; }
grep -Eq '^pcbench: memory: [a-z_]+: (Cannot allocate memory|out of memory)$' "$tmp/err" ||
	{ echo "FAIL: stderr does not name the allocation that failed"; fail=1; }
error_row "$tmp/run" memory ""
grep -q '"status":"error","reason":"memory: ' "$tmp/run/results.jsonl" 2>/dev/null ||
	{ echo "FAIL: results.jsonl has no status=error row naming memory"; fail=1; }
"$pcbench" compare "$tmp/run" --format csv >/dev/null 2>"$tmp/cmp" ||
	{ echo "FAIL: the run directory does not parse:"; cat "$tmp/cmp"; fail=1; }
[ $fail -eq 0 ] || { echo "stderr:"; cat "$tmp/err"; }
echo "out of memory after creation: exit $rc: $(grep -m1 'status=error row' "$tmp/err")"
grep -m1 '^pcbench: memory: ' "$tmp/err"

# Threads that cannot be created (issue 35): 256 MiB thread stacks (ulimit -s: the default
# stack of every thread, Google Benchmark's too) and room for one of them. Whether the
# threads probe before measuring or Google Benchmark finds it (std::terminate in 1.7.1 with 3
# threads or more, before), the family gets a status=error row saying why, exit 1,
# context.json its end; never SIGABRT (134). A host with fewer PUs skips the thread count
# (its placement skips the family; tests/test_gbshim.c covers the shim itself).
pus=$(nproc)
for t in 3 4; do
	if [ "$pus" -lt $t ]; then
		echo "SKIP: -t $t: this host has $pus PUs"
		continue
	fi
	(
		ulimit -s 262144 && ulimit -v $((limit + 262144 + 65536)) || exit 77
		exec "$pcbench" -s page_counter -p +ABC -w direct -t $t -r 2 --time 0.001 \
			-o "$tmp/t$t"
	) >/dev/null 2>"$tmp/err$t"
	rc=$?
	[ $rc -eq 77 ] && { echo "SKIP: -t $t: ulimit refused"; continue; }
	[ $rc -eq 1 ] || { echo "FAIL: -t $t: exit $rc, want 1"; cat "$tmp/err$t"; fail=1; }
	error_row "$tmp/t$t" thread "-t $t: "
	echo "-t $t, threads that cannot start: exit $rc: $(grep -m1 -i 'thread' "$tmp/err$t")"
done
exit $fail
