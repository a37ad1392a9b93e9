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

for fixture in "$src"/tests/topologies/*.synthetic; do
	name=$(basename "$fixture" .synthetic)
	desc=$(grep -v '^#' "$fixture")
	what=$(sed -n 's/^# //p' "$fixture" | head -n 1)
	for policy in compact scatter cores smt same-l3 cross-l3 cross-socket core:0-3; do
		file=$golden/$name-$(echo "$policy" | tr ':' '_').txt
		"$pcbench" --dry-run --topology "synthetic:$desc" -P "$policy" -t 1,2,4,max \
			-s page_counter -p v6.0-rc1 -w direct >"$tmp/out" 2>&1
		echo "exit $?" >>"$tmp/out"
		if [ "$mode" = update ]; then
			{
				echo "# checks: the --dry-run plan of placement '$policy' on $what,"
				echo "# at 1, 2, 4 and all threads (PUs by OS index; core, l3, package, numa logical)"
				cat "$tmp/out"
			} >"$file"
		elif ! grep -v '^#' "$file" 2>/dev/null | diff -u - "$tmp/out" >"$tmp/diff"; then
			echo "FAIL: $name $policy differs from $file:"
			head -n 40 "$tmp/diff"
			fail=1
		fi
		n=$((n + 1))
	done
done
echo "$n plans checked"
exit $fail
