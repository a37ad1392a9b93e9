#!/bin/sh
# seeds_table.sh PCBENCH SRC - scripts/seeds-table's model part runs (--model-only, few
# operations: no measurement, nothing timed): exit 0, the three seeds' tables, every model
# cell a number (no failed or skipped family), the second fixture's rows present, and the
# script's usage errors (exit 2, nothing created).
set -eu
P=$1 S=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "seeds_table: $*" >&2; exit 1; }

sh "$S/scripts/seeds-table" --model-only --ops 50 --warmup 10 -o "$tmp/w" "$P" >"$tmp/out.md" 2>"$tmp/err" ||
	{ cat "$tmp/err" >&2; fail "exit $?"; }
for h in '### Aug 2022' '### May 2024' '### Apr 2022'; do
	grep -q "^$h" "$tmp/out.md" || fail "no section '$h'"
done
# 3 seeds: page_counter 3 thread counts, per_node 2 line sizes x 3, kmem 3 on SPR
n=$(grep -c '^| model SPR, [0-9]* vCPUs' "$tmp/out.md")
[ "$n" = 12 ] || fail "$n SPR model rows, want 12"
grep -q '^| model ICX' "$tmp/out.md" || fail "no ICX model row"
# every SPR model cell is a number, the non-base ones with their change
awk -F'|' '/^\| model SPR/ {
	for (i = 3; i < NF - 1; i++) {
		c = $i; gsub(/^ +| +$/, "", c)
		if (i == 3 ? c !~ /^[0-9]+\.[0-9]+$/ : c !~ /^[0-9]+\.[0-9]+ \(([-+][0-9.]+%|-)\)$/) {
			print "seeds_table: bad model cell: " c > "/dev/stderr"; bad = 1
		}
	}
} END { exit bad }' "$tmp/out.md" || fail "bad model cells"
grep -q 'not run (`--model-only`)' "$tmp/out.md" || fail "no measured row"
[ -f "$tmp/w/model-aug-spr-2s56c-snc4-64.csv" ] || fail "-o DIR kept no model CSV"

# usage errors: exit 2, nothing created
st=0; sh "$S/scripts/seeds-table" --model-only -o "$tmp/w" "$P" >/dev/null 2>&1 || st=$?
[ $st = 2 ] || fail "-o an existing DIR: exit $st, want 2"
st=0; sh "$S/scripts/seeds-table" --bogus "$P" >/dev/null 2>&1 || st=$?
[ $st = 2 ] || fail "unknown option: exit $st, want 2"
st=0; sh "$S/scripts/seeds-table" -o "$tmp/new" "$tmp/no-such-pcbench" >/dev/null 2>&1 || st=$?
[ $st = 2 ] && [ ! -e "$tmp/new" ] || fail "missing PCBENCH: exit $st, want 2 and no DIR"
echo "seeds_table: ok"
