#!/bin/sh
# interrupt.sh PCBENCH SIGNAL - a run of 200 measurements (20 s) gets SIGNAL after its third
# row: it exits 3 (the time it took is printed; 10 s only bounds a run that did not stop,
# since the VM is too noisy for a timed test), its CSV parses (pcbench compare reads it strictly) and holds exactly
# the rows it reported as kept ("interrupted: N of M measurements kept"), whole, and context.json says "interrupted": true.
set -u
pcbench=$1 sig=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

"$pcbench" -s page_counter -p +ABC -w direct -t 1 -r 200 --time 0.1 -o "$tmp/run" \
	>"$tmp/out" 2>"$tmp/err" &
pid=$!
i=0
while [ "$(cat "$tmp/run/results.csv" 2>/dev/null | wc -l)" -lt 4 ] && [ $i -lt 600 ]; do
	sleep 0.01
	i=$((i + 1))
done
t0=$(date +%s%N)
kill -"$sig" $pid
wait $pid
rc=$?
t1=$(date +%s%N)
ms=$(((t1 - t0) / 1000000))
rows=$(($(wc -l <"$tmp/run/results.csv") - 1))
done_lines=$(sed -n 's/^pcbench: interrupted: \([0-9]*\) of .*/\1/p' "$tmp/err")

[ $rc -eq 3 ] || { echo "FAIL: SIG$sig: exit $rc, want 3"; cat "$tmp/err"; fail=1; }
[ $ms -lt 10000 ] || { echo "FAIL: SIG$sig: exited after $ms ms"; fail=1; }
[ "$rows" -ge 3 ] && [ "$rows" -lt 200 ] || { echo "FAIL: $rows rows (want 3..199)"; fail=1; }
[ "$rows" -eq "$done_lines" ] || { echo "FAIL: $rows rows, $done_lines reported done"; fail=1; }
[ "$(tail -c 1 "$tmp/run/results.csv" | od -An -c | tr -d ' ')" = '\n' ] ||
	{ echo "FAIL: the CSV ends inside a row"; fail=1; }
"$pcbench" compare "$tmp/run" --format csv >/dev/null 2>"$tmp/cmp" ||
	{ echo "FAIL: the CSV does not parse:"; cat "$tmp/cmp"; fail=1; }
grep -q '"interrupted": true' "$tmp/run/context.json" || { echo "FAIL: context.json"; fail=1; }
grep -q '"end_time": "2' "$tmp/run/context.json" || { echo "FAIL: no end_time"; fail=1; }
echo "SIG$sig: exit $rc after $ms ms with $rows rows"
exit $fail
