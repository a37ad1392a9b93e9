#!/bin/sh
# pairwise.sh PCBENCH SRCDIR - compare under the block design, on the blocks/ fixture (no
# live timing): each comparison uses the blocks in which its own two windows are clean
# (docs/compare.md#blocks), the row says how many and why the others were left out; a
# window remapped itself leaves out only its comparisons; threads at unequal speeds (one
# preset's ops_min_thread / ops_max_thread 0.30 in every window, all clean) keep their
# verdict, and compare reports the fairness and flags its change.
set -u
. "${0%/*}/preamble.sh"
blocks=$src/tests/fixtures/compare/blocks
# fixture ROWS-AWK NAME - blocks/ with the awk program applied to its rows, compared
fixture() {
	mkdir "$tmp/$2"
	cp "$blocks/context.json" "$tmp/$2/"
	awk -F, "BEGIN { OFS = \",\" } NR > 1 { $1 } { print }" "$blocks/results.csv" \
		>"$tmp/$2/results.csv"
	"$pcbench" compare "$tmp/$2" >"$tmp/$2.out" 2>&1
	"$pcbench" compare "$tmp/$2" --format csv >"$tmp/$2.csv" 2>&1
}
# row NAME PRESET - the summary row of PRESET in the 2-thread table
row() { sed -n '/threads=2$/,/^$/p' "$tmp/$1.out" | grep "^$2 "; }

# A third preset (+b) disturbed in 9 of the 12 blocks of the 2-thread table: +a keeps all
# 12 (its verdict unchanged), +b says it used 3 and left out 9 (its own run delay of block 5
# among them), and has no verdict.
fixture 'if ($6 == 2 && $3 == "+b" && $21 <= 9) { $16 = "disturbed"; $26 = "host_preemption" }' third
row third +a | grep -q ' improved ' || { no "third: +a lost its verdict: $(row third +a)"; }
row third +a | grep -q 'left out' && no "third: +a left blocks out: $(row third +a)"
row third +b | grep -q 'no verdict.*used 3 of 12 blocks; 9 left out (9 host preemption)$' ||
	no "third: +b's row: $(row third +b)"

# A window disturbed by its own remap (+b, block 3: 58 ns before, 460 after) leaves out +b's
# comparison only; the block stays for +a (not "remap in block").
fixture 'if ($6 == 2 && $3 == "+b" && $21 == 3) { $16 = "disturbed"; $26 = "remap"; $24 = 460 }' remap
row remap +a | grep -q 'left out' && no "remap: +a left blocks out: $(row remap +a)"
row remap +b | grep -q 'used 10 of 12 blocks; 2 left out (1 remap, 1 run delay)$' ||
	no "remap: +b's row: $(row remap +b)"
grep -q 'remap in block' "$tmp/remap.out" && no "remap: a window's own remap left out its block"

# Unequal speeds: +a's threads at 0.30 of each other in every window, the base's at 0.95;
# every window clean. The verdict stands; the fairness column says 0.95 and 0.30; the change
# is flagged (|0.65| >= 0.10, signed-rank p < 0.05 over 12 blocks).
fixture 'if ($6 == 2) { $14 = int($15 * ($3 == "+a" ? 0.30 : 0.95)) }' unequal
row unequal base | grep -q ' 0\.95 ' || no "unequal: base fairness: $(row unequal base)"
row unequal +a | grep -q ' 0\.30 .* improved .*fairness 0\.95 -> 0\.30 (p ' ||
	no "unequal: +a's row: $(row unequal +a)"
row unequal +b | grep -q 'fairness 0' && no "unequal: +b flagged: $(row unequal +b)"
head -1 "$tmp/unequal.csv" | grep -q ',fairness_base,fairness_with_patch,fairness_p,fairness_changed,' ||
	no "unequal: csv header: $(head -1 "$tmp/unequal.csv")"
grep '^fixture,w1,scatter,2,.*,+a,.*ops_per_s' "$tmp/unequal.csv" | grep -q ',0\.9[0-9]*,0\.[23][0-9]*,[0-9.e-]*,1,improved,' ||
	no "unequal: csv row: $(grep '+a' "$tmp/unequal.csv" | grep ops_per_s)"
"$pcbench" compare "$tmp/unequal" --format markdown | grep -q '| 0\.95 -> 0\.30 |' ||
	no "unequal: markdown: no fairness cell"
exit $fail
