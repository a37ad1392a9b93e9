#!/bin/sh
# topology_host.sh PCBENCH - every placement policy on this host: a policy that fits is
# measured (status ok, exit 0), one that cannot fit gives skipped rows and exit 4; never a
# wrap-around, never an error. Also: measuring on a foreign topology is refused (exit 2),
# and --home node:N for a missing node exits 2.
set -u
pcbench=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 runs="" skips=""

for policy in compact scatter cores smt same-l3 cross-l3 cross-socket pu:0; do
	dir="$tmp/$(echo "$policy" | tr ':' '_')"
	"$pcbench" -P "$policy" -t max -r 1 --time 0.01 -p +ABC -w direct -o "$dir" \
		>/dev/null 2>"$tmp/err"
	rc=$?
	rows=$(tail -n +2 "$dir/results.csv" 2>/dev/null)
	case "$rc" in
	# disturbed: --noise-max off (make test), so only a window starved by a busy machine
	0) echo "$rows" | grep -Eq ',ok,|,disturbed,.*\(starved\)' && runs="$runs $policy" ||
		{ echo "FAIL: $policy exit 0 without ok rows"; fail=1; } ;;
	4) echo "$rows" | grep -q ',skipped,' && skips="$skips $policy" ||
		{ echo "FAIL: $policy exit 4 without skipped rows"; fail=1; } ;;
	*) echo "FAIL: $policy exit $rc"; cat "$tmp/err"; fail=1 ;;
	esac
done
echo "run here:$runs"
echo "skipped here:$skips"
[ -n "$runs" ] || { echo "FAIL: no policy ran"; fail=1; }
# Under TSan only the policies above (-t max, threads): the rest is one thread, ASan checks it.
case ${PCBENCH_SANITIZED:-} in *thread*) exit $fail ;; esac

"$pcbench" --topology 'synthetic:pack:2 core:2 pu:2' -t 1 -r 1 --time 0.01 -o "$tmp/foreign" \
	>/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -ne 2 ] || ! grep -q "not this machine" "$tmp/err" || [ -e "$tmp/foreign" ]; then
	echo "FAIL: measuring on a synthetic topology: exit $rc"; cat "$tmp/err"; fail=1
fi
"$pcbench" --home node:4096 -t 1 -r 1 --time 0.01 -o "$tmp/home" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -ne 2 ] || ! grep -q -- "--home: node:4096" "$tmp/err"; then
	echo "FAIL: --home node:4096: exit $rc"; cat "$tmp/err"; fail=1
fi
# One spelling of a home (issue 38): node:0 in the CSV, the end-of-run tables and the dry run.
"$pcbench" --home node:0 -p +ABC -w direct -t 1 -r 1 --time 0.01 -o "$tmp/home0" >"$tmp/home0.out" 2>&1 &&
	grep -q ',node:0,[0-9a-f]\{16\},' "$tmp/home0/results.csv" ||
	{ echo "FAIL: --home node:0 row without home node:0 and a topology_fp"; fail=1; }
grep -q ' home=node:0\( \|$\)' "$tmp/home0.out" ||
	{ echo "FAIL: --home node:0: the tables do not say home=node:0"; cat "$tmp/home0.out"; fail=1; }
"$pcbench" --dry-run --home node:0 -p +ABC -w direct -t 1 2>&1 | grep -q 'memory home node:0' ||
	{ echo "FAIL: --home node:0: the dry run does not say node:0"; fail=1; }
[ -s "$tmp/home0/topology.xml" ] && [ -s "$tmp/home0/topology_fp" ] ||
	{ echo "FAIL: run directory without topology.xml or topology_fp"; fail=1; }

# A lab plan checked on its machine: the host's own export matches, a different one does not.
"$pcbench" --topology "$tmp/home0/topology.xml" --check-host -p +ABC -w direct -t 1 -r 1 \
	--time 0.01 -o "$tmp/checked" >/dev/null 2>"$tmp/err" ||
	{ echo "FAIL: --check-host on this host's own topology.xml"; cat "$tmp/err"; fail=1; }
grep -q "this host matches" "$tmp/err" || { echo "FAIL: --check-host said nothing"; fail=1; }
"$pcbench" --dry-run --topology 'synthetic:pack:2 core:2 pu:2' -t 4 -p +ABC -w direct \
	--csv "$tmp/plan.csv" >/dev/null 2>&1 ||
	{ echo "FAIL: --dry-run --csv"; fail=1; }
head -n 1 "$tmp/plan.csv" | grep -Eq '^scenario,preset,workload,placement,threads,(param_[a-z_]+,)+thread,pu,core,l3,package,numa$' &&
	[ "$(wc -l <"$tmp/plan.csv")" -eq 5 ] || { echo "FAIL: plan CSV"; cat "$tmp/plan.csv"; fail=1; }
lstopo-no-graphics -i 'pack:2 core:2 pu:2' --of xml "$tmp/lab.xml" 2>/dev/null
if [ -s "$tmp/lab.xml" ]; then
	"$pcbench" --topology "$tmp/lab.xml" --check-host -t 1 -r 1 --time 0.01 -o "$tmp/lab" \
		>/dev/null 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && grep -q "differs from the file's" "$tmp/err" && [ ! -e "$tmp/lab" ] ||
		{ echo "FAIL: --check-host with another machine's XML: exit $rc"; cat "$tmp/err"; fail=1; }
fi
exit $fail
