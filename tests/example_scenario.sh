#!/bin/sh
# example_scenario.sh PCBENCH-EXAMPLE SOURCE - the minimal scenario of docs/hacking.md (SOURCE,
# taken from the page) is at most 40 lines, is listed, and measures once: two presets, one
# measured row each.
set -u
ex=$1 src=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

n=$(wc -l <"$src")
[ "$n" -le 40 ] || fail "the example scenario has $n lines (at most 40)"
"$ex" --list >"$tmp/list" 2>&1 || fail "--list: exit $?"
grep -q '^counter' "$tmp/list" || fail "--list does not name counter: $(head -5 "$tmp/list")"
# one block of two presets: measured, no verdict possible (exit 5)
"$ex" -s counter -t 1 -r 1 --time 0.02 -o "$tmp/run" >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 5 ] || {
	cat "$tmp/out" >&2
	fail "measure: exit $rc"
}
# measured: ok, or disturbed when the machine is busy (its noise, not the scenario's)
rows=$(grep -cE '^[^,]*,counter,[^,]*,[^,]*,update,.*,(ok|disturbed),' "$tmp/run/results.csv")
[ "$rows" -eq 2 ] || fail "expected 2 measured rows, got $rows: $(cat "$tmp/run/results.csv")"
echo "example_scenario: ok ($n lines, 2 rows)"
