#!/bin/sh
# progress_plain.sh PCBENCH - stderr not a terminal (a log, CI): a plain progress line every
# PCBENCH_PROGRESS_S seconds (10 by default), checked here by its format and counts with the
# interval at 0 (a line after every window) and at a day (none), never by its timing:
# done/total, the ETA (from the budget when blocks are open-ended), disturbed so far.
set -u
. "${0%/*}/preamble.sh"
cd "$tmp" || exit 1
num='[0-9]+m[0-9]{2}s'
# ran RC WHAT ERR - a busy machine may fail a measurement (exit 1, with its error line in
# ERR); 5: no verdict.
ran() {
	[ "$1" -eq 0 ] || [ "$1" -eq 5 ] || { [ "$1" -eq 1 ] && grep -q ' rep [0-9/]*: error: ' "$3"; } ||
		{ no "$2: exit $1"; cat "$3"; }
}
prog() { grep '^pcbench: progress: ' "$1"; }
disturbed_rows() { grep -c ',disturbed,' "$1/results.csv"; }

# Independent repetitions: measurements, the ETA from the rate; every window judged against
# a tiny noise limit, so that some rows may end disturbed: the last line counts them.
PCBENCH_PROGRESS_S=0 PCBENCH_NOISE_MAX=0.001 "$pcbench" -s page_counter -p v6.0-rc1,+A \
	-w direct -t 1 -r 2 --time 0.002 --design independent -o ind >/dev/null 2>ind.err
ran $? "independent" ind.err
prog ind.err | grep -Evq "^pcbench: progress: [0-9]+/4 measurements, ETA $num, [0-9]+ disturbed\$" &&
	no "independent: a progress line out of format: $(prog ind.err | head -3)"
[ "$(prog ind.err | sed 's|^pcbench: progress: \([0-9]*\)/.*|\1|' | tr '\n' ' ')" = "1 2 3 4 " ] ||
	no "independent: want one line per measurement, 1/4 .. 4/4: $(prog ind.err)"
[ "$(prog ind.err | tail -1 | sed 's/.* \([0-9]*\) disturbed$/\1/')" = "$(disturbed_rows ind)" ] ||
	no "independent: the last line's disturbed count is not results.csv's"

# Blocks until the precision target (open-ended): windows of the budget's plan, the block,
# the ETA at most the budget left.
PCBENCH_PROGRESS_S=0 "$pcbench" -s page_counter -p v6.0-rc1,+A -w direct -t 1 --budget 1 \
	--time 0.002 --max-blocks 3 -o open >/dev/null 2>open.err
ran $? "blocks, open-ended" open.err
[ -n "$(prog open.err)" ] || no "blocks, open-ended: no progress line"
prog open.err | grep -Evq "^pcbench: progress: [0-9]+/[0-9]+ windows \(block [0-9]+\), ETA <= $num \(budget\), [0-9]+ disturbed\$" &&
	no "blocks, open-ended: a progress line out of format: $(prog open.err | head -3)"

# Blocks with -r (a known number of windows): the total is theirs, the ETA from the rate.
PCBENCH_PROGRESS_S=0 "$pcbench" -s page_counter -p v6.0-rc1,+A -w direct -t 1 -r 2 \
	--time 0.002 -o fixed >/dev/null 2>fixed.err
ran $? "blocks, -r 2" fixed.err
[ "$(prog fixed.err | wc -l)" -eq 4 ] || no "blocks, -r 2: want 4 progress lines: $(prog fixed.err)"
prog fixed.err | grep -Evq "^pcbench: progress: [1-4]/4 windows \(block [12]\), ETA $num, [0-9]+ disturbed\$" &&
	no "blocks, -r 2: a progress line out of format: $(prog fixed.err | head -3)"

# The interval: a day gives no line; a bad value is refused before measuring.
PCBENCH_PROGRESS_S=86400 "$pcbench" -s page_counter -p v6.0-rc1 -w direct -t 1 -r 2 \
	--time 0.002 --design independent -o day >/dev/null 2>day.err
ran $? "a day's interval" day.err
[ -z "$(prog day.err)" ] || no "PCBENCH_PROGRESS_S=86400: a progress line: $(prog day.err)"
PCBENCH_PROGRESS_S=soon "$pcbench" -s page_counter -p v6.0-rc1 -w direct -t 1 -o bad \
	>/dev/null 2>bad.err
[ $? -eq 2 ] && grep -q '^pcbench: PCBENCH_PROGRESS_S: soon: ' bad.err && [ ! -e bad ] ||
	no "PCBENCH_PROGRESS_S=soon: want exit 2 naming it, nothing created: $(cat bad.err)"
[ $fail = 0 ] && echo "ok: plain progress lines"
exit $fail
