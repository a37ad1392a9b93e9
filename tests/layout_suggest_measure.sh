#!/bin/sh
# layout_suggest_measure.sh PCBENCH SRCDIR - `pcbench layout suggest --measure[=DIR]` with a
# tiny budget (RUN_SERIAL: it measures; its numbers are not checked, only the run):
#  - page_counter v6.0: the run directory DIR holds the run (results.csv with one family per
#    layout: today's v6.0 and DIR/suggested.layout, measured in blocks at -t 1,max of this
#    host) and the suggestion; the compare row names today's layout as the base (the first
#    of -D layout=TODAY,SUGGESTED); exit 0 or 5 (no verdict on a tiny budget);
#  - --hitm with --measure and no DIR: a run directory under results/ of the working
#    directory, with the recipe and the run's layout copied into it (they lived in a
#    temporary directory), measured through the probe;
#  - a DIR named like an option (-dash) is a directory, not an option;
#  - refusals exit 2 and leave no file: --budget without --measure, a DIR that holds a
#    results.csv (which is kept as it was), a DIR measure refuses (its name, the run_id,
#    with a '#').
set -u
. "${0%/*}/preamble.sh"
fx=$src/tests/fixtures/hitm/contended
cd "$tmp" || exit 1

"$pcbench" layout suggest v6.0 --scenario page_counter --preset v6.0-rc1 --workload direct \
	-t 8 --ops 200 --warmup 20 --measure=m1 --budget 1 >out1 2>err1
st=$?
[ $st -eq 0 ] || [ $st -eq 5 ] || no "suggest --measure=m1: exit $st: $(tail -3 err1)"
for f in results.csv context.json compare.csv suggested.layout; do
	[ -f "m1/$f" ] || no "suggest --measure=m1: no m1/$f"
done
grep -q ',v6\.0,' m1/results.csv || no "m1/results.csv: no row of today's layout v6.0"
grep -q ',m1/suggested\.layout,' m1/results.csv || no "m1/results.csv: no row of the suggestion"
grep -q '^/\* compare, threads 1: v6.0-rc1 \[v6.0\] -> v6.0-rc1 \[m1/suggested.layout\]: ' out1 ||
	no "suggest --measure=m1: no compare row with today's layout as the base: $(grep compare out1)"
grep -q 'layout suggest --measure: pcbench measure -s page_counter -p v6.0-rc1 -w direct -t 1,max -D layout=v6.0,m1/suggested.layout' err1 ||
	no "suggest --measure=m1: not the measure command expected: $(grep 'suggest --measure' err1)"
grep '^/\* compare' out1

mkdir h && cd h || exit 1
"$pcbench" layout suggest --hitm "$fx" --script "$fx/contended.script" --ops 200 --warmup 20 \
	--measure --budget 1 >../out2 2>../err2
st=$?
cd .. || exit 1
[ $st -eq 0 ] || [ $st -eq 5 ] || no "suggest --hitm --measure: exit $st: $(tail -3 err2)"
d=$(ls -d h/results/*-suggest 2>/dev/null)
[ -n "$d" ] || no "suggest --hitm --measure: no run directory under results/"
for f in results.csv suggested.layout today.layout hitm.recipe; do
	[ -n "$d" ] && [ -f "$d/$f" ] || no "suggest --hitm --measure: no $f in ${d:-results/}"
done
grep -q "^/\* compare, threads 1: v6.1 \[results/.*-suggest/today.layout\] -> " out2 ||
	no "suggest --hitm --measure: no compare row: $(grep compare out2)"

"$pcbench" layout suggest v6.0 --scenario page_counter --preset v6.0-rc1 --workload direct \
	-t 8 --ops 200 --warmup 20 --measure=-dash --budget 1 >out3 2>err3
st=$?
[ $st -eq 0 ] || [ $st -eq 5 ] || no "suggest --measure=-dash: exit $st: $(tail -3 err3)"
[ -f ./-dash/results.csv ] || no "suggest --measure=-dash: no ./-dash/results.csv"

# refusals
mkdir r w
echo 'old' >r/results.csv
for args in "--budget 5" "--measure=bad#name --budget 1"; do
	# shellcheck disable=SC2086
	(cd w && "$pcbench" layout suggest v6.0 --scenario page_counter --preset v6.0-rc1 \
		--workload direct --ops 100 --warmup 10 $args) >e 2>&1
	st=$?
	[ $st -eq 2 ] || no "suggest $args: exit $st (want 2): $(tail -2 e)"
	[ -z "$(ls -A w)" ] || no "suggest $args: left $(ls -A w)"
done
(cd w && "$pcbench" layout suggest v6.0 --scenario page_counter --preset v6.0-rc1 \
	--workload direct --ops 100 --warmup 10 --measure=../r) >e 2>&1
[ $? -eq 2 ] || no "suggest --measure=DIR with a results.csv: not refused: $(tail -2 e)"
[ "$(cat r/results.csv)" = old ] && [ "$(ls r)" = results.csv ] ||
	no "suggest --measure=DIR with a results.csv: DIR changed: $(ls r)"
[ $fail -eq 0 ] && echo "layout_suggest_measure: all checks passed"
exit $fail
