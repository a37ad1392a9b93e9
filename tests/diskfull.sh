#!/bin/sh
# diskfull.sh PCBENCH - writes that fail mid-run (a file-size limit, the portable stand-in
# for a full disk: write() fails with EFBIG) are reported with the path and stop the run
# with exit 1, and results.csv keeps whole rows only and still parses (results.jsonl, the
# same rows as JSON, is larger and may be the file that fails first: whole lines too).
#
# diskfull.sh PCBENCH default - the same with SIGXFSZ at its default action (as under batch
# schedulers and login limits): pcbench ignores it itself, so every case reads the same
# (exit 1 and the message, no temp file, whole rows), never "killed by signal 153".
set -u
pcbench=$1 mode=${2:-ignored}
# xfsz - SIGXFSZ as this mode has it, for the limited command that follows.
xfsz() { if [ "$mode" = default ]; then trap - XFSZ; else trap '' XFSZ; fi; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

(
	xfsz
	ulimit -f 24 # 512-byte blocks: 12 KiB per file
	exec "$pcbench" -s page_counter -p +ABC -w direct -t 1 -r 200 --time 0.001 -o "$tmp/run"
) >"$tmp/out" 2>"$tmp/err"
rc=$?
# The file that meets the limit first depends on the run (objects.json grows with every
# window, measured-again ones included): any of them, named; a results.csv that never got
# a row is removed (no header-only file), so count 0 rows then.
rows=$(($(cat "$tmp/run/results.csv" 2>/dev/null | wc -l) - 1))
[ $rows -ge 0 ] || rows=0
[ $rc -eq 1 ] || { echo "FAIL: exit $rc, want 1"; tail -n 5 "$tmp/err"; fail=1; }
grep -Eq "$tmp/run/(results\.csv|results\.jsonl|objects\.json): File too large" "$tmp/err" ||
	{ echo "FAIL: no message naming the file that failed"; tail -n 5 "$tmp/err"; fail=1; }
[ "$rows" -lt 200 ] || { echo "FAIL: $rows rows"; fail=1; }
if [ "$rows" -ge 1 ]; then
	[ "$(tail -c 1 "$tmp/run/results.csv" | od -An -c | tr -d ' ')" = '\n' ] ||
		{ echo "FAIL: results.csv ends inside a row"; fail=1; }
	[ "$(tail -c 1 "$tmp/run/results.jsonl" | od -An -c | tr -d ' ')" = '\n' ] ||
		{ echo "FAIL: results.jsonl ends inside a line"; fail=1; }
	"$pcbench" compare "$tmp/run" --format csv >/dev/null 2>"$tmp/cmp" ||
		{ echo "FAIL: results.csv does not parse:"; cat "$tmp/cmp"; fail=1; }
fi
echo "run under 12 KiB, after $rows whole rows: exit $rc: $(grep -m 1 -E "$tmp/run/[a-z.]*: File too large" "$tmp/err")"

# expect_fail NAME PATH CMD... - CMD exits 1 and says "pcbench: PATH: ...".
expect_fail() {
	name=$1 path=$2
	shift 2
	"$@" >/dev/null 2>"$tmp/err"
	rc=$?
	[ $rc -eq 1 ] || { echo "FAIL: $name: exit $rc, want 1"; cat "$tmp/err"; fail=1; }
	grep -q "^pcbench: $path: " "$tmp/err" ||
		{ echo "FAIL: $name: no message naming $path:"; cat "$tmp/err"; fail=1; }
	echo "$name: exit $rc: $(grep -m 1 "^pcbench: $path: " "$tmp/err")"
}
# no_temp DIR NAME - no temp file of NAME ("NAME.XXXXXX") is left in DIR.
no_temp() {
	! ls "$1" | grep -q "^$2\...." || { echo "FAIL: a temp file of $2 is left in $1"; fail=1; }
}
# A layout import larger than the 8 KiB limit: -o leaves no file, stdout says EFBIG.
awk 'BEGIN { print "struct big {"; for (i = 0; i < 400; i++) printf "\tlong int f%d; /* %6d 8 */\n", i, 8 * i;
	print "\t/* size: 3200, cachelines: 50, members: 400 */"; print "};" }' >"$tmp/big.txt"
limit=16 # 512-byte blocks: 8 KiB
limited() { (
	xfsz
	ulimit -f $limit
	exec "$@"
); }
expect_fail "layout import -o" "$tmp/big.layout" limited "$pcbench" layout import "$tmp/big.txt" \
	-o "$tmp/big.layout"
[ ! -e "$tmp/big.layout" ] || { echo "FAIL: layout import -o left a cut file"; fail=1; }
no_temp "$tmp" big.layout
expect_fail "layout import >file" "$tmp/big2.layout" limited sh -c \
	'exec "$0" layout import "$1" >"$2"' "$pcbench" "$tmp/big.txt" "$tmp/big2.layout"
lines=$("$pcbench" --list | wc -l)
expect_fail "--list >/dev/full" /dev/full sh -c 'exec "$0" --list >/dev/full' "$pcbench"
if [ -w /proc/version ] || [ "$(id -u)" = 0 ]; then
	expect_fail "--list >/proc/version" /proc/version sh -c \
		'exec "$0" --list >/proc/version' "$pcbench"
fi
expect_fail "help >/dev/full" /dev/full sh -c 'exec "$0" help measure >/dev/full' "$pcbench"
[ "$lines" -gt 0 ] || { echo "FAIL: --list printed nothing"; fail=1; }
# Redirected stdout under the 8 KiB limit: the report is cut where the shell's file meets
# the limit, and the exit status and the message say so (the file is the shell's: it stays).
[ "$("$pcbench" --list | wc -c)" -gt 8192 ] || { echo "FAIL: --list fits in 8 KiB"; fail=1; }
expect_fail "--list >file" "$tmp/list.txt" limited sh -c 'exec "$0" --list >"$1"' "$pcbench" \
	"$tmp/list.txt"
"$pcbench" -s page_counter -p +ABC -w direct -t 1 -r 2 --time 0.001 -o "$tmp/good" \
	>/dev/null 2>&1 || { echo "FAIL: could not make a run to compare"; fail=1; }
limit=1 # 512 bytes: less than the report of one family
[ "$("$pcbench" compare "$tmp/good" | wc -c)" -gt 512 ] ||
	{ echo "FAIL: the compare report fits in 512 bytes"; fail=1; }
expect_fail "compare >file" "$tmp/cmp.txt" limited sh -c 'exec "$0" compare "$1" >"$2"' \
	"$pcbench" "$tmp/good" "$tmp/cmp.txt"

# context.json cannot be written (a directory is in its way): refused before measuring
# (docs/measuring.md, "Output paths"): exit 2 naming it, no results.csv.
mkdir -p "$tmp/ctx/context.json"
"$pcbench" -s page_counter -p +ABC -w direct -t 1 -r 2 --time 0.001 -o "$tmp/ctx" \
	>/dev/null 2>"$tmp/err"
rc=$?
{ [ $rc -eq 2 ] && grep -q "$tmp/ctx/context.json: not a regular file" "$tmp/err" &&
	[ ! -e "$tmp/ctx/results.csv" ]; } ||
	{ echo "FAIL: context.json (a directory): exit $rc, want 2:"; cat "$tmp/err"; fail=1; }
echo "context.json (a directory): exit $rc: $(tail -n 1 "$tmp/err")"

# context.json under a 2 KiB file-size limit: results.csv's header (1.3 KiB) is written
# first and fits, context.json (over 3 KiB, written next, whole or not at all) does not:
# exit 1 naming it, no context.json and no temp file, no header-only results.csv, no empty
# results.jsonl.
limit=4
expect_fail "context.json (2 KiB)" "$tmp/ctx2/context.json" limited "$pcbench" -s page_counter \
	-p +ABC -w direct -t 1 -r 2 --time 0.001 -o "$tmp/ctx2"
[ ! -e "$tmp/ctx2/context.json" ] || { echo "FAIL: a cut context.json is left"; fail=1; }
no_temp "$tmp/ctx2" context.json
[ ! -e "$tmp/ctx2/results.csv" ] || [ "$(wc -l <"$tmp/ctx2/results.csv")" -gt 1 ] ||
	{ echo "FAIL: a header-only results.csv is left"; fail=1; }
[ ! -e "$tmp/ctx2/results.jsonl" ] || [ -s "$tmp/ctx2/results.jsonl" ] ||
	{ echo "FAIL: an empty results.jsonl is left"; fail=1; }

# topology.xml under the same limit (context.json, written before it, may fail first on a
# host whose topology.xml is the smaller): exit 1 naming it.
expect_fail "topology.xml" "$tmp/topo/topology.xml" limited "$pcbench" -s page_counter \
	-p +ABC -w direct -t 1 -r 2 --time 0.001 -o "$tmp/topo"

# model.csv under the same 2 KiB limit (more rows than fit): exit 1 naming it, the model
# stops at the first failed row, and the rows written are whole and parse.
expect_fail "model.csv" "$tmp/model/model.csv" limited "$pcbench" model -s page_counter \
	-t 2,4,6,8 --ops 200 -q -o "$tmp/model"
[ "$(grep -c "model.csv" "$tmp/err")" -eq 1 ] ||
	{ echo "FAIL: model.csv: want one message, the run stopped:"; cat "$tmp/err"; fail=1; }
sh "$(dirname "$0")/csv_whole.sh" "$tmp/model/model.csv" 2 || fail=1

# compare -o DIR and merge -o DIR under the 512-byte limit: exit 1 naming a file, no temp
# file; merge leaves no partial results.csv (written whole or not at all).
limit=1
expect_fail "compare -o" "$tmp/cmpdir/compare[a-z.-]*" limited "$pcbench" compare "$tmp/good" \
	-o "$tmp/cmpdir"
no_temp "$tmp/cmpdir" compare.txt
limited "$pcbench" merge "$tmp/good" -o "$tmp/merged" >/dev/null 2>"$tmp/err"
rc=$?
{ [ $rc -eq 1 ] && grep -q "$tmp/merged/results\.[a-z]*\(\.[A-Za-z0-9]*\)\?: File too large" "$tmp/err"; } ||
	{ echo "FAIL: merge -o: exit $rc, want 1 naming a file:"; cat "$tmp/err"; fail=1; }
[ ! -e "$tmp/merged/results.csv" ] || { echo "FAIL: merge left a cut results.csv"; fail=1; }
[ ! -e "$tmp/merged" ] || [ -z "$(ls -A "$tmp/merged")" ] ||
	{ echo "FAIL: merge left files: $(ls -A "$tmp/merged")"; fail=1; }
echo "merge -o: exit $rc: $(grep -m 1 'File too large' "$tmp/err")"

# A read-only file system (root ignores mode bits, so a mount): the run is refused before
# anything is created (exit 2), for -o and for --csv.
mkdir "$tmp/ro"
if mount -t tmpfs -o ro tmpfs "$tmp/ro" 2>/dev/null; then
	"$pcbench" -s page_counter -p +ABC -w direct -t 1 -r 2 --time 0.001 -o "$tmp/ro/run" \
		>/dev/null 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && grep -q "Read-only file system" "$tmp/err" ||
		{ echo "FAIL: -o on a read-only mount: exit $rc"; cat "$tmp/err"; fail=1; }
	"$pcbench" -s page_counter -p +ABC -w direct -t 1 -r 2 --time 0.001 -o "$tmp/rw" \
		--csv "$tmp/ro/all.csv" >/dev/null 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && grep -q "all.csv: Read-only file system" "$tmp/err" ||
		{ echo "FAIL: --csv on a read-only mount: exit $rc"; cat "$tmp/err"; fail=1; }
	[ ! -e "$tmp/rw" ] || { echo "FAIL: refused --csv left $tmp/rw"; fail=1; }
	echo "read-only mount: -o and --csv refused before creating anything"
	umount "$tmp/ro"
else
	echo "note: cannot mount a read-only tmpfs here; that case is skipped"
fi
exit $fail
