#!/bin/sh
# merge.sh PCBENCH - --label (the label column, context.json), results.jsonl, --csv appends
# only with identical columns (else a message naming merge), and pcbench merge: runs of
# different scenario selections merge into one CSV with the union of their columns that
# compare reads (--by host groups by label); the same run twice is refused, leaving no trace.
set -u
pcbench=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
cd "$tmp" || exit 1
tiny="-t 1 -r 2 --time 0.002 --events none"
# A busy machine may fail a measurement (exit 1: its row says why); the rows are there.
ran() { [ "$1" -le 1 ] || { echo "FAIL: $2: exit $1"; fail=1; }; }

"$pcbench" -s c2c -w pingpong -t 2 -r 2 --time 0.005 --events none --label lab2 -o b \
	>/dev/null 2>&1
ran $? "run b"
# Under TSan only run b (-t 2), first: the rest is one thread; ASan runs it.
case ${PCBENCH_SANITIZED:-} in *thread*) exit $fail ;; esac
"$pcbench" -s page_counter -p v6.0-rc1 -w direct $tiny --label lab1 -o a --csv all.csv \
	>/dev/null 2>&1
ran $? "run a"
head -1 a/results.csv | tr , '\n' | grep -qx label || { echo "FAIL: no label column"; fail=1; }
grep -q '"label": "lab1"' a/context.json || { echo "FAIL: context.json lacks label"; fail=1; }
[ "$(wc -l <a/results.jsonl)" -eq 2 ] || { echo "FAIL: results.jsonl: want 2 lines"; fail=1; }
grep -q '^{"schema_version":2,"run_id":"a",' a/results.jsonl ||
	{ echo "FAIL: results.jsonl: no schema_version"; fail=1; }
grep -q '"label":"lab1"' a/results.jsonl || { echo "FAIL: results.jsonl: no label"; fail=1; }

# --csv: a run of another scenario has other param_* columns: refused, pointing to merge.
"$pcbench" -s c2c -w pingpong -t 2 -r 1 --time 0.002 --events none -o c --csv all.csv \
	>"$tmp/out" 2>&1
[ $? -eq 2 ] || { echo "FAIL: --csv with other columns: want exit 2"; fail=1; }
grep -q "pcbench merge" "$tmp/out" || { echo "FAIL: --csv refusal does not name merge"; fail=1; }
[ ! -e c ] || { echo "FAIL: refused --csv run left c/"; fail=1; }
# ... and the same columns append.
"$pcbench" -s page_counter -p v6.0-rc1 -w direct $tiny -o d --csv all.csv >/dev/null 2>&1
ran $? "--csv append with the same columns"
[ "$(wc -l <all.csv)" -eq 5 ] || { echo "FAIL: all.csv: want 5 lines"; fail=1; }

# --label is checked.
"$pcbench" --label 'a/b' -o e >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: --label a/b: want exit 2"; fail=1; }

# merge: the union of the columns, contexts, results.jsonl.
"$pcbench" merge a b -o m >"$tmp/out" 2>&1 || { echo "FAIL: merge"; cat "$tmp/out"; fail=1; }
head -1 m/results.csv | tr , '\n' >"$tmp/cols"
for c in run_id label param_batch param_nr; do
	grep -qx "$c" "$tmp/cols" || { echo "FAIL: merged header lacks $c"; fail=1; }
done
[ "$(wc -l <m/results.csv)" -eq 5 ] || { echo "FAIL: merged: want 1+4 lines"; fail=1; }
[ "$(wc -l <m/results.jsonl)" -eq 4 ] || { echo "FAIL: merged jsonl: want 4 lines"; fail=1; }
# a c2c row has no param_batch: left out of its JSON object
grep '"scenario":"c2c"' m/results.jsonl | grep -q param_batch &&
	{ echo "FAIL: c2c row has param_batch in jsonl"; fail=1; }
[ -f m/contexts/a-lab1.json ] && [ -f m/contexts/b-lab2.json ] ||
	{ echo "FAIL: contexts"; ls -R m; fail=1; }
"$pcbench" compare m --by host >"$tmp/cmp" 2>&1 || { echo "FAIL: compare m --by host"; fail=1; }
grep -q "lab1" "$tmp/cmp" && grep -q "lab2" "$tmp/cmp" ||
	{ echo "FAIL: compare --by host does not name both labels"; cat "$tmp/cmp"; fail=1; }
"$pcbench" compare m >/dev/null 2>&1 || { echo "FAIL: compare m"; fail=1; }

# The same run twice is refused, and nothing is written.
"$pcbench" merge a b a -o m2 >"$tmp/out" 2>&1
[ $? -eq 2 ] || { echo "FAIL: merge a b a: want exit 2"; fail=1; }
grep -q "same run twice" "$tmp/out" || { echo "FAIL: merge a b a: message"; fail=1; }
[ ! -e m2 ] || { echo "FAIL: refused merge left m2/"; fail=1; }
# An existing merge is never overwritten; -o is required.
"$pcbench" merge a -o m >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: merge into m again: want exit 2"; fail=1; }
"$pcbench" merge a >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: merge without -o: want exit 2"; fail=1; }

# Names from data that become paths (docs/measuring.md, "Output paths"), bad context.json
# files and cells that are not UTF-8: refused with exit 2 before anything is created.
# refuse NAME FRAGMENT RUN - merge RUN -o bad exits 2, says FRAGMENT, creates nothing.
refuse() {
	before=$(find . | sort)
	msg=$("$pcbench" merge "$3" -o bad/m 2>&1 >/dev/null)
	rc=$?
	if [ $rc -ne 2 ] || ! printf '%s\n' "$msg" | grep -q -- "$2"; then
		echo "FAIL: merge $1: exit $rc, want 2 and \"$2\":"; echo "$msg"; fail=1
	fi
	[ "$(find . | sort)" = "$before" ] || { echo "FAIL: merge $1 left files"; fail=1; }
}
# The context.json variants, each a copy of run a with one KEY set to a JSON VALUE, all made
# by one python3 (a python3 start is costly, more so through a version manager's shim):
# edits DIR KEY VALUE [DIR KEY VALUE...].
edits() {
	python3 -c 'import json,sys
for d, k, v in zip(*[iter(sys.argv[1:])] * 3):
    p = d + "/context.json"; j = json.load(open(p)); j[k] = json.loads(v); json.dump(j, open(p, "w"))' "$@"
}
set --
i=0
for v in '"../../../../tmp/pwned"' '".hidden"' '"a/b"' '"x\u001b[2J"' "\"$(printf '%0300d' 0)\""; do
	for k in run_id label; do
		i=$((i + 1))
		cp -r a "e$i" && set -- "$@" "e$i" $k "$v"
	done
done
cp -r a edash && cp -r a eint && set -- "$@" edash label '"-rf"' eint interrupted true
edits "$@"
while [ $# -gt 0 ]; do
	case $1 in e[0-9]*) refuse "$2 $3" "cannot name its file" "$1" && rm -rf "$1" ;; esac
	shift 3
done
# A leading '-' is a name like another (it only ever follows a directory, never becomes an
# argument): pcbench -o -dash makes such a run, and merge takes it (issue 35).
"$pcbench" merge edash -o mdash >/dev/null 2>"$tmp/dash.err" && [ -f mdash/contexts/a--rf.json ] ||
	{ echo "FAIL: merge of label -rf:"; cat "$tmp/dash.err"; ls mdash/contexts; fail=1; }
rm -rf mdash
rm -rf e && cp -r a e && echo '{bad' >e/context.json
refuse "malformed context.json" "context.json:1" e
rm -rf e && cp -r a e && rm e/context.json && mkfifo e/context.json
refuse "FIFO context.json" "not a regular file" e
# the third cell of the first row made two bytes that are not UTF-8
rm -rf e && cp -r a e && LC_ALL=C sed "2s/^\([^,]*,[^,]*,\)[^,]*/\1$(printf '\377\376')/" \
	a/results.csv >e/results.csv
refuse "non-UTF-8 cell" "not valid UTF-8" e
rm -rf e
# An interrupted run: merge and plot say so in one line, with its row count.
mv eint e
for cmd in "merge e -o mi" "plot e -o pi"; do
	# shellcheck disable=SC2086
	"$pcbench" $cmd >/dev/null 2>"$tmp/note"
	grep -q "note: incomplete run: e: interrupted; its 2 rows" "$tmp/note" ||
		{ echo "FAIL: $cmd: no incomplete-run note:"; cat "$tmp/note"; fail=1; }
done
rm -rf e mi pi "$tmp/note"
[ $fail -eq 0 ] && echo "merge: ok"
exit $fail
