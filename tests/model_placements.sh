#!/bin/sh
# model_placements.sh PCBENCH SRC - the model's parking rule at SMT placements (issue 36):
# every modelled scenario, preset and workload (`pcbench model`'s default selection) at
# -P compact and -P smt, where SMT siblings share a core and so a line, on the 2 x 36 x SMT2
# fixture at 2 and 8 virtual CPUs, and per_node with each other lock kind it offers (its
# `lock` parameter's values, from --list). Every family must complete (status ok). Few operations;
# ctest's TIMEOUT bounds the whole test, nothing asserts on time.
set -u
P=$1 S=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
topo="synthetic:$(grep -v '^#' "$S/tests/topologies/icx-2s36c.synthetic" | head -n 1)"
# per_node's lock kinds but its default (the default selection runs that one)
locks=$("$P" --list -s per_node |
	sed -n 's/^ *lock .*(default \([a-z]*\); one of \([a-z|]*\)).*/|\2| \1/p' |
	awk '{ gsub("\\|" $2 "\\|", "|", $1); gsub("\\|", " ", $1); print $1 }')
[ -n "$locks" ] || { echo "FAIL: no lock kinds but the default in per_node's --list"; exit 1; }

# run NAME ARGS...: one model command; every row of its CSV must be ok
run() {
	name=$1
	shift
	"$P" model -t 2,8 --ops 60 --warmup 10 -q --csv "$tmp/$name.csv" --topology "$topo" "$@" \
		>"$tmp/$name.out" 2>&1
	rc=$?
	[ $rc -eq 0 ] || { echo "FAIL: $name: exit $rc"; tail -n 5 "$tmp/$name.out"; fail=1; }
	awk -F, -v name="$name" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "status") c = i; next }
		{ n++ } $c != "ok" { print "FAIL: " name ": " $1 "/" $2 "/" $4 " x" $5 ": " $c; bad = 1 }
		END { if (!n) { print "FAIL: " name ": no rows"; bad = 1 } else print name ": " n " families"
		      exit bad }' "$tmp/$name.csv" || fail=1
}

for p in compact smt; do
	run "all-$p" -P "$p"
	for l in $locks; do
		run "per_node-lock=$l-$p" -P "$p" -s per_node -D "lock=$l"
	done
done
exit $fail
