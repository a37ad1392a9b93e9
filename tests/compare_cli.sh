#!/bin/sh
# compare_cli.sh PCBENCH SRCDIR - compare's small promises through the binary, on copies of
# tests/fixtures/compare/one: terminal control characters in names read from the CSV come
# out escaped (terminal, compare.txt, compare-lkp.txt, compare.csv); an interrupted or
# killed run says so in one line with its row count; --by host with one host falls back to
# the presets table with a note; a long reason is never cut inside a parenthesis; the header
# counts comparisons as the summary does, never "0 of 0"; families
# of a -D sweep (batch=32,64) stay in tables of their own value; a run with kernel families
# and the emulated ones they stand for (fixtures/compare/realemu) gets the real-vs-emulated
# table, pairing only the same placement and threads, with its ratios and sentences; a block
# whose probes span two host mappings is left out; a run of one preset has nothing to compare.
set -u
. "${0%/*}/preamble.sh"
one=$src/tests/fixtures/compare/one
esc=$(printf '\033')
bel=$(printf '\007')

# Escape sequences in a preset, a host and a reason; a long reason with parentheses.
mkdir "$tmp/e"
sed -e "s/+fix/+fix${esc}]0;pwned${bel}/" -e "s/,lab1,/,lab${esc}[2J1,/" \
	-e "s/thread 1: no operation completed in the window/thread 1: no operation completed in the window (the scenario stopped at once: signal 15${esc}[31m)/" \
	"$one/results.csv" >"$tmp/e/results.csv"
"$pcbench" compare "$tmp/e" -o "$tmp/e" >"$tmp/e/out" 2>&1 ||
	{ echo "FAIL: compare of escaped names: exit $?"; cat "$tmp/e/out"; fail=1; }
for f in out compare.txt compare-lkp.txt compare.csv; do
	if grep -q "$esc" "$tmp/e/$f" || grep -q "$bel" "$tmp/e/$f"; then
		echo "FAIL: $f holds a raw control character"
		fail=1
	fi
	grep -qF '+fix\x1b]0;pwned\x07' "$tmp/e/$f" ||
		{ echo "FAIL: $f does not show the escaped preset"; fail=1; }
done
grep -qF 'completed in the window...' "$tmp/e/out" ||
	{ echo "FAIL: the long reason is not shortened at a word"; grep error "$tmp/e/out"; fail=1; }
grep -q '(the scenario' "$tmp/e/out" &&
	{ echo "FAIL: the flags cut a reason inside its parenthesis"; fail=1; }

# An interrupted run, and one without an end time (killed).
mkdir "$tmp/i" "$tmp/k"
cp "$one/results.csv" "$tmp/i/" && cp "$one/results.csv" "$tmp/k/"
sed 's/"end_time": .*/"end_time": "2026-01-02T03:05:00Z", "interrupted": true/' \
	"$one/context.json" >"$tmp/i/context.json"
sed 's/"end_time": .*/"end_time": null/' "$one/context.json" >"$tmp/k/context.json"
"$pcbench" compare "$tmp/i" >"$tmp/i.out" 2>&1 || { echo "FAIL: compare interrupted"; fail=1; }
"$pcbench" compare "$tmp/k" -f table >"$tmp/k.out" 2>&1 || { echo "FAIL: compare killed"; fail=1; }
[ "$(grep -c 'incomplete run: fixture-run .*: interrupted; its 42 rows' "$tmp/i.out")" -eq 1 ] ||
	{ echo "FAIL: no one-line note of an interrupted run"; cat "$tmp/i.out"; fail=1; }
grep -q 'incomplete run: .*no end time.*its 42 rows' "$tmp/k.out" ||
	{ echo "FAIL: no note of a run without an end time"; fail=1; }
"$pcbench" compare "$one" | grep -q 'incomplete' &&
	{ echo "FAIL: a complete run is called incomplete"; fail=1; }

# --by host with one host: the presets table, with a note (exit 0).
"$pcbench" compare "$one" --by host >"$tmp/h.out" 2>&1 || { echo "FAIL: --by host exit"; fail=1; }
grep -q '^note *--by host: one host (lab1) in the RUN: the presets within the run are compared instead' \
	"$tmp/h.out" || { echo "FAIL: --by host with one host: no note"; cat "$tmp/h.out"; fail=1; }
grep -q '^+fix \[L1\] ' "$tmp/h.out" || { echo "FAIL: --by host did not fall back"; fail=1; }
# A sweep: before and +fix at batch=32 and, twice as fast each, at batch=64. Each +fix is
# +50% against the before of its own batch (against the other's it would be +200% or -25%).
awk -F, 'BEGIN { OFS = "," } NR == 1 { print; next }
	$6 == 1 && ($3 == "before" || $3 == "+fix") { print; $12 *= 2; $13 /= 2; $29 = 64; print }' \
	"$one/results.csv" >"$tmp/sweep.csv"
"$pcbench" compare "$tmp/sweep.csv" >"$tmp/s.out" 2>&1 || { echo "FAIL: compare sweep"; fail=1; }
for b in 32 64; do
	grep -A4 "^fixture  workload=w1  placement=scatter  threads=1  home=node:0  batch=$b\$" "$tmp/s.out" |
		grep -q "^+fix \[L1\] batch=$b .* +50\.0% " ||
		{ echo "FAIL: sweep batch=$b: +fix not +50% against its own base"; fail=1; }
done
[ "$fail" -eq 0 ] || cat "$tmp/s.out"

# A run with blocks but measured with --design independent, and two runs merged into one
# CSV: the independent analysis, with the design line saying why.
blocks=$src/tests/fixtures/compare/blocks
mkdir "$tmp/ind"
cp "$blocks/results.csv" "$tmp/ind/"
sed 's/"design": "blocks"/"design": "independent"/' "$blocks/context.json" >"$tmp/ind/context.json"
"$pcbench" compare "$tmp/ind" >"$tmp/ind.out" 2>&1 || { echo "FAIL: compare ind"; fail=1; }
grep -q '^design *independent repetitions (the run was measured with --design independent)' \
	"$tmp/ind.out" || { echo "FAIL: --design independent: no design line"; fail=1; }
# threads=1: 3 vs 2 ok repetitions cannot reach p < 0.05: no verdict, the rows left out
# counted as blocks count theirs (the 8 repetitions of both sides).
grep -Eq '^\+a .* no verdict +3 of 8 repetitions disturbed \(2 run delay, 1 host preemption\)$' \
	"$tmp/ind.out" || { echo "FAIL: independent design: no 'no verdict' row counting repetitions"; fail=1; }
sed '2,10s/^blocks-run,/other-run,/' "$blocks/results.csv" >"$tmp/merged.csv"
"$pcbench" compare "$tmp/merged.csv" | grep -q '^design *independent repetitions (merged runs' ||
	{ echo "FAIL: merged runs: no independent design line"; fail=1; }
"$pcbench" compare "$blocks" | grep -q '^design *blocks' ||
	{ echo "FAIL: blocks/: not the block design"; fail=1; }
# --metric keeps some metric columns and drops the others (their names freed: ASan).
"$pcbench" compare "$one" --metric ns_per_op >"$tmp/metric.out" 2>&1 ||
	{ echo "FAIL: --metric ns_per_op: $(cat "$tmp/metric.out")"; fail=1; }

# The header counts comparisons as the summary's last list does: every "N of M comparisons"
# of the note and target lines has the M of "significant changes: K of M comparisons". A run
# whose comparisons all lack a ci (every non-base row disturbed) says so, never "0 of 0".
mkdir "$tmp/dist"
cp "$blocks/context.json" "$tmp/dist/"
awk -F, 'BEGIN { OFS = "," } NR > 1 && $3 != "base" { $16 = "disturbed" } { print }' \
	"$blocks/results.csv" >"$tmp/dist/results.csv"
"$pcbench" compare "$tmp/dist" >"$tmp/dist.out" 2>&1
grep -q '^target .*: reached by 0 of 3 comparisons (ops_per_s; none has a ci: too few clean blocks)$' \
	"$tmp/dist.out" || { echo "FAIL: no ci anywhere: target line"; cat "$tmp/dist.out"; fail=1; }

# A block whose windows' probes span over 2x (block 6: base and +a at 58 ns, +b at 440 ns: the
# host moved the vCPUs between its windows) is left out and counted as "remap in block".
mkdir "$tmp/straddle"
cp "$blocks/context.json" "$tmp/straddle/"
awk -F, 'BEGIN { OFS = "," } NR > 1 && NR <= 19 && $21 == 6 && $3 == "+b" { $23 = 440; $24 = 441 }
	{ print }' "$blocks/results.csv" >"$tmp/straddle/results.csv"
"$pcbench" compare "$tmp/straddle" >"$tmp/straddle.out" 2>&1
grep -q 'blocks; 1 left out (1 remap in block' "$tmp/straddle.out" ||
	{ echo "FAIL: a block on two host mappings: not left out"; cat "$tmp/straddle.out"; fail=1; }
grep -q 'remap in block' "$tmp/dist.out" &&
	{ echo "FAIL: remap in block without a straddling block"; fail=1; }
for r in "$one" "$blocks" "$src/tests/fixtures/compare/endrun" "$tmp/dist" \
	"$src/tests/fixtures/compare/a.csv $src/tests/fixtures/compare/b.csv"; do
	# shellcheck disable=SC2086 # two RUNs in one word
	"$pcbench" compare $r -m ops_per_s,ns_per_op >"$tmp/count.out" 2>&1
	want=$(sed -n 's/^significant changes: [0-9]* of \([0-9]*\) comparison.*/\1/p' "$tmp/count.out")
	[ -n "$want" ] || { echo "FAIL: $r: no significant changes line"; fail=1; }
	grep -E '^(note|target) ' "$tmp/count.out" | grep -oE '[0-9]+ of [0-9]+ comparisons' |
		while read -r _ _ m _; do [ "$m" = "$want" ] || echo "$m"; done | grep -q . &&
		{ echo "FAIL: $r: the header counts other than $want comparisons"; cat "$tmp/count.out"; fail=1; }
	grep -q ' 0 of 0 ' "$tmp/count.out" && { echo "FAIL: $r: 0 of 0"; fail=1; }
done

# The real kernel beside its emulation: exact medians and ratios of the fixture.
"$pcbench" compare "$src/tests/fixtures/compare/realemu" -m ns_per_op >"$tmp/re" 2>&1 ||
	{ echo "FAIL: compare realemu: exit $?"; cat "$tmp/re"; fail=1; }
sed -n '/^real kernel beside its emulation/,/^$/p' "$tmp/re" >"$tmp/re.t"
for want in \
	'^page_fault2  *scatter  *2  *10000  *1.00%  *100.0  *page_counter:stocked v6.0-rc1  *the running kernel.s (btf)  *50.0  *0.50x$' \
	'^page_fault2  *scatter  *2  *10000  *1.00%  *100.0  *per_node:shared v6.0  *v6.0  *130.0  *1.30x$' \
	'^tcp  *scatter  *2  *8100  *0.00%  *0.0  *page_counter:socket v6.0-rc1 .* 410.0  *-$' \
	'per_node:shared v6.0: the emulated charge path costs 1.3x what the real kernel spends in it per fault here (1.00% of 10000 ns); the emulation ran on layout v6.0, not the running kernel.s (fp1234)' \
	'tcp at 2 threads.*sockets are not accounted'; do
	grep -q "$want" "$tmp/re.t" || { echo "FAIL: realemu: no line like $want"; cat "$tmp/re.t"; fail=1; }
done
[ "$(grep -c '^page_fault2\|^tcp' "$tmp/re.t")" = 3 ] ||
	{ echo "FAIL: realemu: the 1-thread per_node family was paired"; fail=1; }
"$pcbench" compare "$one" >"$tmp/re" 2>&1
grep -q 'real kernel beside' "$tmp/re" && { echo "FAIL: realemu table without kernel rows"; fail=1; }

# A run of one preset has nothing to compare (issue 38: the summary said no comparison had
# ok repetitions on both sides, with every row ok).
mkdir "$tmp/p1"
awk -F, 'NR == 1 || $3 == "before"' "$one/results.csv" >"$tmp/p1/results.csv"
"$pcbench" compare "$tmp/p1" >"$tmp/p1/out" 2>&1
grep -q '^significant changes: 0 of 0 comparisons (nothing to compare: one preset or side per table)$' \
	"$tmp/p1/out" || { echo "FAIL: one preset: the summary does not say there is nothing to compare"; cat "$tmp/p1/out"; fail=1; }

exit $fail
