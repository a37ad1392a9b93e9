#!/bin/sh
# topology_golden.sh PCBENCH SRCDIR [update] - the --dry-run plan of every placement policy
# on every fixture in tests/topologies, at 1, 2, 4 and all threads, diffed against the
# golden files in tests/golden/topology (the hwloc test-hwloc-calc style). With "update",
# (or with PCBENCH_UPDATE_GOLDEN=1, as every golden test of tests/golden/<area>/), rewrite
# the golden files instead (review the diff before committing them).
set -u
pcbench=$1 src=$2 mode=${3:-check}
[ -n "${PCBENCH_UPDATE_GOLDEN:-}" ] && mode=update
golden=$src/tests/golden/topology
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0

policies="compact scatter cores smt same-l3 cross-l3 cross-socket core:0-3"
# plan FIXTURE-DESC POLICIES OUT - the --dry-run plan, its exit status last
plan() {
	"$pcbench" --dry-run --topology "synthetic:$1" -P "$2" -t 1,2,4,max \
		-s page_counter -p v6.0-rc1 -w direct >"$3" 2>&1
	echo "exit $?" >>"$3"
}
# check FILE NAME POLICY OUT - OUT is the golden FILE without its comments
check() {
	if ! grep -v '^#' "$1" 2>/dev/null | diff -u - "$4" >"$tmp/diff"; then
		echo "FAIL: $2 $3 differs from $1:"
		head -n 40 "$tmp/diff"
		fail=1
	fi
	n=$((n + 1))
}

for fixture in "$src"/tests/topologies/*.synthetic; do
	name=${fixture##*/}
	name=${name%.synthetic}
	desc=$(grep -v '^#' "$fixture")
	what=$(sed -n 's/^# //p' "$fixture" | head -n 1)
	if [ "$mode" = update ]; then
		for policy in $policies; do
			plan "$desc" "$policy" "$tmp/out"
			{
				echo "# checks: the --dry-run plan of placement '$policy' on $what,"
				echo "# at 1, 2, 4 and all threads (PUs by OS index; core, l3, package, numa logical)"
				cat "$tmp/out"
			} >"$golden/$name-$(echo "$policy" | tr ':' '_').txt"
			n=$((n + 1))
		done
		continue
	fi
	# One process plans every policy (-P A,B,...: its sections say "placement=P"), split
	# into each policy's plan as -P P prints it (split_plans.awk); the location core:0-3
	# (not in a list) is planned alone and checked as printed, so the one-policy headings
	# stay checked from the binary: 18 processes, not 72 (84 ms of CPU each under ASan).
	plan "$desc" "$(echo $policies | sed 's/ core:0-3$//' | tr ' ' ',')" "$tmp/all"
	awk -v out="$tmp/out-" -v policies="${policies% core:0-3}" -f "$src/tests/split_plans.awk" \
		"$tmp/all"
	for policy in ${policies% core:0-3}; do
		check "$golden/$name-$policy.txt" "$name" "$policy" "$tmp/out-$policy"
		rm -f "$tmp/out-$policy"
	done
	plan "$desc" core:0-3 "$tmp/out"
	check "$golden/$name-core_0-3.txt" "$name" core:0-3 "$tmp/out"
done
echo "$n plans checked"
exit $fail
