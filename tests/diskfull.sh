#!/bin/sh
# diskfull.sh PCBENCH - writes that fail mid-run (a file-size limit, the portable stand-in
# for a full disk: write() fails with EFBIG) are reported with the path and stop the run
# with exit 1, and results.csv keeps whole rows only and still parses (results.jsonl, the
# same rows as JSON, is larger and may be the file that fails first: whole lines too).
set -u
pcbench=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

(
	trap '' XFSZ
	ulimit -f 24 # 512-byte blocks: 12 KiB per file
	exec "$pcbench" -s page_counter -p +ABC -w direct -t 1 -r 200 --time 0.001 -o "$tmp/run"
) >"$tmp/out" 2>"$tmp/err"
rc=$?
rows=$(($(wc -l <"$tmp/run/results.csv") - 1))
[ $rc -eq 1 ] || { echo "FAIL: exit $rc, want 1"; tail -n 5 "$tmp/err"; fail=1; }
grep -Eq "write: $tmp/run/results\.(csv|jsonl): File too large" "$tmp/err" ||
	{ echo "FAIL: no message naming results.csv"; tail -n 5 "$tmp/err"; fail=1; }
[ "$rows" -ge 1 ] && [ "$rows" -lt 200 ] || { echo "FAIL: $rows rows"; fail=1; }
[ "$(tail -c 1 "$tmp/run/results.csv" | od -An -c | tr -d ' ')" = '\n' ] ||
	{ echo "FAIL: results.csv ends inside a row"; fail=1; }
[ "$(tail -c 1 "$tmp/run/results.jsonl" | od -An -c | tr -d ' ')" = '\n' ] ||
	{ echo "FAIL: results.jsonl ends inside a line"; fail=1; }
"$pcbench" compare "$tmp/run" --format csv >/dev/null 2>"$tmp/cmp" ||
	{ echo "FAIL: results.csv does not parse:"; cat "$tmp/cmp"; fail=1; }
echo "write failure after $rows whole rows: exit $rc"
exit $fail
