#!/bin/sh
# affinity.sh PCBENCH - plans on the host use only the PUs of the CPU affinity pcbench
# inherited (issue 15 part 6): under `taskset -c 0`, `-t max` is one PU and `-t 2` is
# skipped with a reason naming the affinity; --dry-run names the excluded PUs; a run under
# `taskset -c 1` measures on PU 1; --matrix-cpus outside the affinity exits 2; plans of a
# synthetic topology are the same with and without taskset. Skipped (77) with one CPU.
set -u
pcbench=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
sel="-s page_counter -p v6.0-rc1 -w direct"

command -v taskset >/dev/null || { echo "FAIL: no taskset (util-linux)"; exit 1; }
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || { echo "SKIP: one CPU: nothing to exclude"; exit 77; }
taskset -c 0 true 2>/dev/null || { echo "SKIP: cannot set the affinity here"; exit 77; }

taskset -c 0 "$pcbench" --dry-run $sel -t max >"$tmp/max" 2>&1 || { echo "FAIL: -t max exit $?"; fail=1; }
rows=$(awk '/^threads=/{t=$0} /^ +[0-9]+ +[0-9]+ /{print t": "$0}' "$tmp/max")
[ "$(echo "$rows" | grep -c .)" = 1 ] && echo "$rows" | grep -q '^threads=1: *0 *0 ' ||
	{ echo "FAIL: taskset -c 0, -t max: want one thread on PU 0, got:"; cat "$tmp/max"; fail=1; }
grep -q '^allowed PUs 0 (1); excluded PU.* not in the CPU affinity' "$tmp/max" ||
	{ echo "FAIL: --dry-run does not say which PUs were excluded and why"; cat "$tmp/max"; fail=1; }

taskset -c 0 "$pcbench" --dry-run $sel -t 2 >"$tmp/two" 2>&1
grep -q '^threads=2: skipped: .*affinity' "$tmp/two" ||
	{ echo "FAIL: taskset -c 0, -t 2: want skipped with the affinity as reason"; cat "$tmp/two"; fail=1; }

taskset -c 1 "$pcbench" $sel -t max -r 1 --time 0.01 -o "$tmp/run" >/dev/null 2>"$tmp/err"
rc=$?
cpus=$(awk -F, 'NR==1{for(i=1;i<=NF;i++)if($i=="cpus")c=i} NR>1{print $c}' "$tmp/run/results.csv" 2>/dev/null)
[ "$rc" = 0 ] && [ "$cpus" = 1 ] ||
	{ echo "FAIL: taskset -c 1 -t max: exit $rc, cpus '$cpus' (want 0, 1)"; cat "$tmp/err"; fail=1; }
grep -q 'plans use 1 of the host' "$tmp/err" ||
	{ echo "FAIL: the run does not say that PUs were excluded"; cat "$tmp/err"; fail=1; }

taskset -c 1 "$pcbench" --dry-run -s c2c --matrix-cpus 0 >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" = 2 ] && grep -q 'PU 0 is outside the CPU affinity' "$tmp/err" ||
	{ echo "FAIL: --matrix-cpus outside the affinity: exit $rc"; cat "$tmp/err"; fail=1; }

synth='synthetic:pack:2 core:2 pu:2'
"$pcbench" --dry-run $sel -t 1-8 -P scatter --topology "$synth" >"$tmp/free" 2>&1
taskset -c 0 "$pcbench" --dry-run $sel -t 1-8 -P scatter --topology "$synth" >"$tmp/bound" 2>&1
cmp -s "$tmp/free" "$tmp/bound" ||
	{ echo "FAIL: a synthetic plan changes under taskset"; diff "$tmp/free" "$tmp/bound"; fail=1; }
grep -q '^threads=8$' "$tmp/bound" || { echo "FAIL: synthetic -t 8 not planned"; fail=1; }

[ $fail = 0 ] && echo "ok: affinity"
exit $fail
