#!/bin/sh
# layout_suggest_hitm.sh PCBENCH SRCDIR - `pcbench layout suggest --hitm RUN --script FILE`
# on a committed fixture (this VM has no PMU): tests/fixtures/hitm/contended/ is a hitm run
# of a made-up 64-byte struct qstat (objects.json, one window, 4 CPUs) and the perf script
# text of its samples (tid, [cpu], time, address, data_src): every CPU adds to count and
# loads limit, parent and owner on count's line (HITM loads), CPU 0 writes seq, CPU 1 reads
# flags, one sample in the spare array, one outside the window.
#  - the suggestion separates the fields with HITMs: count shares no line with limit,
#    parent, owner or seq; its transfers/op are below today's; the header names four roles
#    cpu0..cpu3 and the sample left out; the file loads with --layout (layout show);
#  - the same from stdin; samples without a CPU (no [cpu] field) give one role per thread;
#  - hitm report reads the cpu field's lines (every sample counted);
#  - refusals exit 2 and leave no file: --script without --hitm, -t or -D with --hitm, a
#    RUN without objects.json, a RUN without perf.data and no --script, a script without a
#    perf sample line.
#  - temporary directories: with TMPDIR this test's own, every command above (success and
#    refusals, pcbench-suggest-hitm.*), SIGTERM while the samples are read (exit 3), and a
#    computed layout's (per_node, pcbench-suggest.*: a suggestion and a refused topology)
#    leave it empty.
set -u
. "${0%/*}/preamble.sh"
fx=$src/tests/fixtures/hitm/contended
mkdir "$tmp/td"
export TMPDIR="$tmp/td"
# tmp_empty WHAT - pcbench left nothing in TMPDIR (else a FAIL line, and it is emptied)
tmp_empty() {
	[ -z "$(ls -A "$TMPDIR")" ] || {
		no "$1: left $(ls -A "$TMPDIR") in TMPDIR"
		rm -rf "${TMPDIR:?}"/*
	}
}

# line_of FILE FIELD - the 64-byte line of FIELD in struct qstat of layout FILE.
line_of() {
	sed -n '/^struct qstat /,/^end/p' "$1" | awk -v f="$2" '$1 == f { print int($2 / 64) }'
}

(cd "$tmp" && "$pcbench" layout suggest --hitm "$fx" --script "$fx/contended.script" -o s.layout \
	--csv s.csv) >"$tmp/out" 2>&1 || no "suggest --hitm: exit $?: $(cat "$tmp/out")"
c=$(line_of "$tmp/s.layout" count)
[ -n "$c" ] || no "suggest --hitm: no count in the suggestion"
for f in limit parent owner seq; do
	l=$(line_of "$tmp/s.layout" $f)
	[ -n "$l" ] && [ "$l" != "$c" ] || no "suggest --hitm: count shares line $c with $f"
done
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i }
	 NR == 2 { exit !($k["transfers_suggested"] < $k["transfers_today"]) }' "$tmp/s.csv" ||
	no "suggest --hitm: not fewer transfers/op than today: $(cat "$tmp/s.csv")"
tmp_empty "suggest --hitm"
grep -q 'one role per CPU: cpu0 .* cpu1 .* cpu2 .* cpu3 ' "$tmp/out" ||
	no "suggest --hitm: the header does not name the roles cpu0..cpu3"
grep -q '1 samples on fields no load or store step takes' "$tmp/out" ||
	no "suggest --hitm: the spare array's sample is not said to be left out"
"$pcbench" layout show "$tmp/s.layout" >/dev/null 2>&1 || no "the suggestion does not load"
echo "suggest --hitm: count on line $c; $(grep '^/\* transfers/op' "$tmp/out")"

# stdin; no CPU in the samples: one role per thread
"$pcbench" layout suggest --hitm "$fx" --script - -o "$tmp/i.layout" <"$fx/contended.script" \
	>"$tmp/i.out" 2>&1 || no "suggest --hitm --script -: $(cat "$tmp/i.out")"
cmp -s "$tmp/s.layout" "$tmp/i.layout" || no "suggest --hitm --script -: another suggestion"
tmp_empty "suggest --hitm --script -"
sed 's/ \[[0-9]*\] / /' "$fx/contended.script" >"$tmp/nocpu.script"
"$pcbench" layout suggest --hitm "$fx" --script "$tmp/nocpu.script" >"$tmp/t.out" 2>&1 ||
	no "suggest --hitm without CPUs: $(cat "$tmp/t.out")"
grep -q 'one role per thread (no CPU in the samples): tid4100 ' "$tmp/t.out" ||
	no "suggest --hitm without CPUs: not one role per thread"
tmp_empty "suggest --hitm without CPUs"

# hitm report reads lines with the cpu field
"$pcbench" hitm report "$fx" --script "$fx/contended.script" >"$tmp/r.out" 2>&1 ||
	no "hitm report of the fixture: $(cat "$tmp/r.out")"
grep -q '^run .*: 83 lines, 83 samples: 1 outside every measured window, 0 unreadable' "$tmp/r.out" ||
	no "hitm report of the fixture: $(head -1 "$tmp/r.out")"

# refusals: exit 2, no file
mkdir "$tmp/empty" "$tmp/w"
printf 'not perf\n' >"$tmp/passwd"
for args in "v6.0 --scenario page_counter --script $fx/contended.script" \
	"--hitm $fx --script $fx/contended.script -t 4" \
	"--hitm $fx --script $fx/contended.script -D x=1" \
	"--hitm $tmp/empty --script $fx/contended.script" \
	"--hitm $fx" \
	"--hitm $fx --script $tmp/passwd"; do
	# shellcheck disable=SC2086
	(cd "$tmp/w" && "$pcbench" layout suggest $args -o o.layout --csv o.csv) >"$tmp/e" 2>&1
	st=$?
	[ $st -eq 2 ] || no "suggest $args: exit $st (want 2): $(cat "$tmp/e")"
	[ -z "$(ls -A "$tmp/w")" ] || no "suggest $args: left $(ls -A "$tmp/w")"
	tmp_empty "suggest $args"
done

# SIGTERM while the samples are read (stdin a FIFO held open): exit 3, the directory gone.
mkfifo "$tmp/fifo"
"$pcbench" layout suggest --hitm "$fx" --script - <"$tmp/fifo" >/dev/null 2>"$tmp/e" &
pid=$!
exec 3>"$tmp/fifo"
i=0
while [ -z "$(ls -A "$TMPDIR")" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ -n "$(ls -A "$TMPDIR")" ] || no "suggest --hitm --script -: no directory in TMPDIR in 10 s"
kill -TERM $pid
wait $pid
st=$?
exec 3>&-
[ $st -eq 3 ] || no "suggest --hitm, SIGTERM: exit $st (want 3): $(cat "$tmp/e")"
tmp_empty "suggest --hitm, SIGTERM"

# A computed layout's candidates (per_node): their directory goes too.
"$pcbench" layout suggest --scenario per_node --preset regressed --workload shared -t 2 \
	>"$tmp/e" 2>&1 || no "suggest per_node: exit $?: $(cat "$tmp/e")"
tmp_empty "suggest per_node"
"$pcbench" layout suggest --scenario per_node --preset regressed --workload shared -t 2 \
	--topology synthetic:nonsense >"$tmp/e" 2>&1
st=$?
[ $st -eq 2 ] || no "suggest per_node --topology synthetic:nonsense: exit $st (want 2)"
tmp_empty "suggest per_node --topology synthetic:nonsense"
[ $fail -eq 0 ] && echo "layout_suggest_hitm: all checks passed"
exit $fail
