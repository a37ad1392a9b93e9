#!/bin/sh
# cli.sh PCBENCH - the command line's good paths: --help with worked examples and exit
# codes, --list with presets and workloads, and skipped rows naming the reason. (Bad input
# is bad_inputs.sh's table.)
set -u
pcbench=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# The honest ending of a run (exit 5, no verdict; the end of a run, below) under --design
# independent: every window judged disturbed (PCBENCH_NOISE_MAX tiny: any wait for a CPU is
# over it) leaves too few ok repetitions, so the comparison says "no verdict" with the
# repetitions left out counted, and the run exits 5. 3 vs 3 repetitions cannot reach p < 0.05
# either, so exit 5 does not hang on the noise; the row's reason does, and is checked against
# results.csv. A table of one preset asks no comparison: exit 0 in either design.
if [ "$(nproc)" -ge 2 ]; then
	PCBENCH_NOISE_MAX=0.0001 "$pcbench" -s page_counter -p v6.0-rc1,+A -w direct -t 2 -r 3 \
		--time 0.01 --noise-retries 0 --design independent -o "$tmp/ind" >"$tmp/iout" 2>&1
	rc=$?
	[ $rc -eq 5 ] || { echo "FAIL: independent, all disturbed: exit $rc, want 5"; fail=1; }
	dist=$(grep -c ',disturbed,' "$tmp/ind/results.csv")
	if [ "$dist" -gt 0 ]; then
		want="no verdict +$dist of 6 repetitions disturbed \\("
	else
		want="no verdict +3 vs 3 ok repetitions: 4 a side needed for p < 0.05"
	fi
	grep -Eq "^\\+A .* $want" "$tmp/iout" ||
		{ echo "FAIL: independent: no '$want' row"; cat "$tmp/iout"; fail=1; }
	for design in independent blocks; do
		PCBENCH_NOISE_MAX=0.0001 "$pcbench" -s page_counter -p v6.0-rc1 -w direct -t 2 -r 3 \
			--time 0.01 --noise-retries 0 --design $design -o "$tmp/one-$design" >/dev/null 2>&1
		rc=$?
		[ $rc -eq 0 ] || { echo "FAIL: one preset, $design: exit $rc, want 0"; fail=1; }
	done
fi

# The c2c matrix: one row per repetition of every pair (diagonal included), ns per transfer.
"$pcbench" -s c2c --matrix -r 1 --time 0.01 -o "$tmp/matrix" >"$tmp/mout" 2>/dev/null ||
	{ echo "FAIL: --matrix"; fail=1; }
n=$(nproc)
[ "$(($(wc -l <"$tmp/matrix/results.csv") - 1))" -eq $((n * (n + 1) / 2)) ] ||
	{ echo "FAIL: --matrix rows"; fail=1; }
head -n 1 "$tmp/matrix/results.csv" | grep -q ',cpu_a,cpu_b,ns_per_transfer,' ||
	{ echo "FAIL: --matrix columns"; fail=1; }
grep -q "median ns per one-way transfer" "$tmp/mout" || { echo "FAIL: --matrix table"; fail=1; }

# Explained numbers: c2c probe rows and --with-model rows in one run give predicted ns/op.
# Three repetitions: one ok row each is enough when a busy machine starves a window.
"$pcbench" -s page_counter,c2c -w direct,pingpong -p v6.0-rc1,transfer -t 2 -r 3 --time 0.02 \
	--with-model -o "$tmp/expl" >/dev/null 2>&1
rc=$?
[ $rc -le 1 ] || [ $rc -eq 5 ] || { echo "FAIL: --with-model run: exit $rc"; fail=1; }
"$pcbench" compare "$tmp/expl" -f table >"$tmp/cmp" 2>&1
grep -q "^explained numbers" "$tmp/cmp" &&
	grep -Eq '^page_counter +direct +2 +v6.0-rc1 +[0-9.]+ +[0-9.]+ +[0-9.]+$' "$tmp/cmp" ||
	{ echo "FAIL: compare printed no explained numbers"; tail -n 5 "$tmp/cmp"; fail=1; }

# Under TSan only the runs above (-t 2, the c2c matrix): the rest is one thread; ASan runs it.
case ${PCBENCH_SANITIZED:-} in *thread*) exit $fail ;; esac

"$pcbench" --help >"$tmp/help" 2>&1
rc=$?
if [ $rc -ne 0 ] || ! grep -q "^usage: pcbench" "$tmp/help" || ! grep -q "Examples:" "$tmp/help" ||
	! grep -q "3 interrupted" "$tmp/help"; then
	echo "FAIL: --help exit $rc"
	fail=1
fi
"$pcbench" --list >"$tmp/list" 2>&1 && grep -q "v6.0-rc1" "$tmp/list" &&
	grep -q "stocked" "$tmp/list" || { echo "FAIL: --list"; fail=1; }

# More threads than PUs: skipped rows naming why, never a wrap-around; exit 4.
"$pcbench" -p +ABC -w direct -t 100000 -r 1 --time 0.001 -o "$tmp/skip" >/dev/null 2>&1
rc=$?
[ $rc -eq 4 ] || { echo "FAIL: all skipped: exit $rc, want 4"; fail=1; }
grep -q ',skipped,placement scatter: 100000 threads need 100000 PUs' "$tmp/skip/results.csv" ||
	{ echo "FAIL: no skipped row naming the reason"; fail=1; }

# The end of a run: its verdict tables on stdout, the significant changes, the full report in
# the run directory, --run-dir-file naming it (make run plots that), and with stderr not a
# terminal no progress line per measurement, only one per block and the summary line.
# -r 2: two blocks, fewer than the 6 a verdict needs: "no verdict", exit 5.
"$pcbench" -s page_counter -p v6.0-rc1,+A -w direct -t 1 -r 2 --time 0.01 -o "$tmp/end" \
	--run-dir-file "$tmp/dirfile" >"$tmp/eout" 2>"$tmp/eerr"
rc=$?
[ $rc -eq 5 ] || { echo "FAIL: end of run: exit $rc, want 5 (2 blocks: no verdict)"; fail=1; }
# (or fewer clean blocks: a window starved by a busy machine, the only disturbed kind under
# --noise-max off, leaves its block out)
grep -Eq '^\+A .* no verdict .*(2 clean blocks: 6 needed|used [0-9] of 2 blocks; [0-9] left out \([0-9]+ starved\))' \
	"$tmp/eout" ||
	{ echo "FAIL: end of run: no 'no verdict' row saying 6 blocks are needed"; cat "$tmp/eout"; fail=1; }
# -r 2 under blocks: warned at the start, with the number needed (6 for one comparison).
grep -q '^pcbench: warning: -r 2 is below the 6 clean blocks a verdict needs for a table of 1 comparison' \
	"$tmp/eerr" || { echo "FAIL: -r 2: no warning at the start"; cat "$tmp/eerr"; fail=1; }
# ...as --max-blocks 7 for page_counter's four comparisons (8), and --design independent's
# -r 3 (4 ok repetitions a side for one comparison); none for enough.
"$pcbench" -s page_counter -w direct -t 1 --max-blocks 7 --dry-run 2>&1 >/dev/null |
	grep -q 'warning: --max-blocks 7 is below the 8 clean blocks a verdict needs for a table of 4 comparisons' ||
	{ echo "FAIL: --max-blocks 7: no warning"; fail=1; }
"$pcbench" -s page_counter -p v6.0-rc1,+A -w direct -t 1 --design independent -r 3 --dry-run 2>&1 >/dev/null |
	grep -q 'warning: -r 3 is below the 4 ok repetitions a side a verdict needs' ||
	{ echo "FAIL: --design independent -r 3: no warning"; fail=1; }
"$pcbench" -s page_counter -w direct -t 1 --max-blocks 8 --dry-run 2>&1 >/dev/null | grep -q 'warning' &&
	{ echo "FAIL: --max-blocks 8: a warning for enough blocks"; fail=1; }
# Exit 5: the last line says how many comparisons lack a verdict and how to get one (-r
# given: -r scaled by the blocks needed over the clean blocks obtained, 6 / 2 at most).
tail -1 "$tmp/eout" | grep -Eq '^1 of 1 comparisons without a verdict \(too few clean blocks\): run with -r ([6-9]|1[0-2])$' ||
	{ echo "FAIL: end of run: the last line: $(tail -1 "$tmp/eout")"; fail=1; }
[ "$(grep -c '^pcbench: block [0-9]*: ' "$tmp/eerr")" -eq 2 ] ||
	{ echo "FAIL: want one progress line per block"; cat "$tmp/eerr"; fail=1; }
[ "$(cat "$tmp/dirfile" 2>/dev/null)" = "$tmp/end" ] ||
	{ echo "FAIL: --run-dir-file does not name the run directory"; fail=1; }
grep -q "^preset  *ops/s  *ns/op  *cv  *%change  *ci  *p  *verdict" "$tmp/eout" &&
	grep -q "^significant changes: " "$tmp/eout" && grep -q "^run directory: $tmp/end " "$tmp/eout" ||
	{ echo "FAIL: end of run: no verdict table, significant changes or run directory"; fail=1; }
for f in compare.txt compare-lkp.txt compare.csv; do
	[ -s "$tmp/end/$f" ] || { echo "FAIL: end of run: no $f in the run directory"; fail=1; }
done
! grep -q "^\[" "$tmp/eerr" && grep -q "^pcbench: 4 measurements in " "$tmp/eerr" ||
	{ echo "FAIL: stderr not a terminal: want only the summary line"; cat "$tmp/eerr"; fail=1; }

# The plot of the --matrix run above.
if command -v gnuplot >/dev/null 2>&1; then
	"$pcbench" plot "$tmp/matrix" >/dev/null 2>&1 &&
		[ "$(head -c 4 "$tmp/matrix/c2c-matrix.png" | od -An -c | tr -d ' ')" = '211PNG' ] ||
		{ echo "FAIL: plot of a --matrix run: no c2c-matrix.png"; fail=1; }
fi

# --matrix within --budget (issue 38), planned by a dry run on 8 PUs (36 pairs, no
# timing): the window chosen for the budget, or the repetitions cut to fit it, or a plan
# that cannot fit refused (exit 2, naming the budget it needs); a -t given named unused.
m8='synthetic:pack:2 core:4 pu:1'
mplan() { # mplan WANT ARGS...: the dry run's matrix line is "matrix: WANT"
	want=$1
	shift
	"$pcbench" --dry-run -s c2c --matrix --topology "$m8" "$@" >"$tmp/mplan" 2>"$tmp/mplan.err"
	got=$(sed -n 's/^matrix: //p' "$tmp/mplan")
	[ "$got" = "$want" ] || { echo "FAIL: --matrix $*: \"$got\", want \"$want\""; cat "$tmp/mplan.err"; fail=1; }
}
mplan "36 pairs x 5 repetitions of 0.133 s windows (chosen for the budget): about 30 s of the budget of 30 s" --budget 30 -t 4
grep -q '^pcbench: --matrix: -t 4 is not used: every pair of PUs is measured with 2 threads, the diagonal with 1$' \
	"$tmp/mplan.err" || { echo "FAIL: --matrix -t 4: not named unused"; cat "$tmp/mplan.err"; fail=1; }
mplan "36 pairs x 3 repetitions of 0.02 s windows (chosen for the budget): about 5 s of the budget of 5 s" --budget 5
mplan "36 pairs x 3 repetitions of 0.2 s windows: about 26 s of the budget of 30 s" --budget 30 --time 0.2
mplan "36 pairs x 5 repetitions of 0.2 s windows (chosen for the budget): about 44 s of the budget of 90 s"
"$pcbench" --dry-run -s c2c --matrix --topology "$m8" --budget 30 --time 0.2 -r 5 >/dev/null 2>"$tmp/mplan.err"
rc=$?
[ $rc -eq 2 ] && grep -q "^pcbench: --budget: 30: the matrix's 36 pairs x 5 repetitions of 0.2 s windows need about 44 s: give --budget 44" \
	"$tmp/mplan.err" || { echo "FAIL: --matrix over its budget: exit $rc"; cat "$tmp/mplan.err"; fail=1; }

# The model's tables (lib/table): a row of numbers per preset, a skipped preset saying why in
# the last column, the shared-cache-line view indented under its line's title.
"$pcbench" model -s page_counter -p +ABC -w direct -t 2,4 --ops 50 --warmup 5 --lines 1 \
	--topology 'synthetic:pack:1 core:2 pu:1' >"$tmp/model" 2>&1
grep -q '^preset  hitm_local  hitm_remote  clean_c2c  transfers  invalidate  upgrades  to_memory$' \
	"$tmp/model" && grep -Eq '^\+ABC( +[0-9]+\.[0-9]{4}){7}$' "$tmp/model" &&
	grep -Eq '^\+ABC +skipped: placement scatter: 4 threads need 4 PUs' "$tmp/model" &&
	grep -Eq '^#1 L1 line [0-9]+ \(\+0x' "$tmp/model" &&
	grep -Eq '^  offset  field / site:field op +accesses  hitm_loc  hitm_rem  clean  +inval  upgrades  memory$' \
		"$tmp/model" || { echo "FAIL: model tables"; cat "$tmp/model"; fail=1; }
exit $fail
