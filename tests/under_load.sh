#!/bin/sh
# under_load.sh PCBENCH - a run on a machine busy on every CPU: a CPU-bound loop per CPU at
# nice 0 (started here, killed on every way out), then 2 families at 2 threads with noise
# judged (--noise-max 10): every window is disturbed, so the run ends with exit 5 and
# "no verdict" lines counting the disturbed blocks, and it measured no more windows than
# its budget planned (rows counted, not time).
set -u
pcbench=$1
[ "$(nproc)" -ge 2 ] || { echo "SKIP: one CPU: no 2-thread family"; exit 77; }
tmp=$(mktemp -d)
pids=
stop_loops() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	for p in $pids; do wait "$p" 2>/dev/null; done
	pids=
}
trap 'stop_loops; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM HUP
fail=0
for i in $(seq "$(nproc)"); do
	nice -n 0 sh -c 'while :; do :; done' &
	pids="$pids $!"
done
"$pcbench" -s page_counter -p v6.0-rc1,+ABC -w direct -t 2 --noise-max 10 --budget 4 \
	-o "$tmp/run" >"$tmp/out" 2>"$tmp/err"
rc=$?
stop_loops
[ $rc -eq 5 ] || { echo "FAIL: exit $rc under load, want 5"; cat "$tmp/err" "$tmp/out"; fail=1; }
grep -Eq '^\+ABC .*no verdict.*used [0-9]+ of [0-9]+ blocks?; [0-9]+ left out \(' "$tmp/out" ||
	{ echo "FAIL: no 'no verdict' row counting disturbed blocks"; cat "$tmp/out"; fail=1; }
planned=$(sed -n 's/.*"planned_windows": *\([0-9]*\).*/\1/p' "$tmp/run/context.json")
rows=$(($(wc -l <"$tmp/run/results.csv") - 1))
[ -n "$planned" ] && [ "$rows" -ge 1 ] && [ "$rows" -le "$planned" ] ||
	{ echo "FAIL: $rows windows measured, the budget planned ${planned:-?}"; fail=1; }
# no window was measured again on its own (blocks: its block is left out instead)
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["retries"] != "" && $c["retries"] != 0 { print "FAIL: a row with retries " $c["retries"]; exit 1 }
	$c["block"] !~ /^[0-9]+$/ { print "FAIL: a row without a block"; exit 1 }' \
	"$tmp/run/results.csv" || fail=1
[ $fail = 0 ] && echo "ok: under load: exit 5, no verdict, $rows of $planned planned windows"
exit $fail
