#!/bin/sh
# interrupt_cmds.sh PCBENCH - every command stops on SIGINT, SIGTERM and SIGHUP with exit 3
# and leaves whole output only (lib/stop.h):
#  - model, started in the background (so SIGINT arrives inherited-ignored, as from any
#    script), stops on each signal; no header-only model.csv, no empty -o directory; after
#    some rows, model.csv parses and ends with a newline;
#  - compare on a large file ends with 3 on a signal; so does merge of it while it writes,
#    leaving no partial results.csv, no temp file and no directory it made;
#  - a measurement whose stdout or stderr reader goes away ends as on SIGINT;
#  - plot of that file ends with 3 (0 if done first) whether the signal comes while it
#    reads the file, before its first plot or while gnuplot draws: no temp file or temp
#    directory left, and a PNG, if there is one, is whole;
#  - a temp file of lib/outfile is never left.
# No timing assertion: the waits are generous and only bound a hang. The polls for a file
# test a glob in the shell (no ls or grep each 10 ms: the polling processes would cost as
# much as the command under test). The signals wait for a state of the command (its input
# read, a temp file made), not for a time: the input has 4,000 rows (merge's write alone
# is hundreds of ms, its read as long), 40,000 cost ~80 CPU s under ASan.
set -u
pcbench=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
# python3 resolved once (a version manager's shim costs up to 0.7 CPU s a start): its real
# interpreter first on PATH, for csv_whole.sh too.
mkdir "$tmp/bin" && ln -s "$(python3 -c 'import sys; print(sys.executable)')" "$tmp/bin/python3" &&
	PATH=$tmp/bin:$PATH || { echo "FAIL: no python3"; exit 1; }

# exists DIR PATTERN - a file in DIR matches the glob PATTERN (ls's view: not a dot file).
exists() {
	for f in "$1"/$2; do
		[ -e "$f" ] && return 0
	done
	return 1
}

# has_read PID FILE - until process PID has read as many bytes as FILE has (at most 60 s, or
# until it ended): it works on the file's contents now (/proc/PID/io, no process forked).
has_read() {
	size=$(wc -c <"$2")
	i=0
	while [ $i -lt 6000 ] && kill -0 "$1" 2>/dev/null; do
		while read -r k v; do
			[ "$k" = rchar: ] && [ "$v" -ge "$size" ] && return 0
		done <"/proc/$1/io"
		sleep 0.01
		i=$((i + 1))
	done
}

# wait_for FILE LINES - until FILE has LINES lines (at most 60 s).
wait_for() {
	i=0
	while [ "$(cat "$1" 2>/dev/null | wc -l)" -lt "$2" ] && [ $i -lt 6000 ]; do
		sleep 0.01
		i=$((i + 1))
	done
}

for sig in INT TERM HUP; do
	# Before any row: nothing left at all.
	"$pcbench" model -s page_counter -p +ABC -w direct -t 2 --ops 100000000 \
		-o "$tmp/m0-$sig" >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	sleep 0.5
	kill -"$sig" $pid
	wait $pid
	rc=$?
	[ $rc -eq 3 ] || { echo "FAIL: model SIG$sig: exit $rc, want 3"; cat "$tmp/err"; fail=1; }
	[ ! -e "$tmp/m0-$sig" ] || { echo "FAIL: model SIG$sig left $(ls -R "$tmp/m0-$sig")"; fail=1; }
	echo "model SIG$sig before its first row: exit $rc, $(tail -n 1 "$tmp/err")"
done

# After some rows: whole rows, the file parses.
"$pcbench" model -s page_counter -t 2,8 --ops 20000 -o "$tmp/m1" >"$tmp/out" 2>"$tmp/err" &
pid=$!
wait_for "$tmp/m1/model.csv" 3
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 3 ] || { echo "FAIL: model after rows: exit $rc, want 3"; cat "$tmp/err"; fail=1; }
sh "$(dirname "$0")/csv_whole.sh" "$tmp/m1/model.csv" 3 || fail=1
echo "model SIGINT after rows: exit $rc, $(($(wc -l <"$tmp/m1/model.csv") - 1)) whole rows"

# compare on a large file (4,000 rows, --ci): a signal once it has read the file ends it
# with 3 (0 if it was done first), and -o leaves no temp file.
"$pcbench" -s page_counter -p +ABC,v6.0-rc1 -w direct -t 1 -r 2 --time 0.001 -o "$tmp/small" \
	>/dev/null 2>&1
python3 - "$tmp/small/results.csv" "$tmp/big.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
h, body = rows[0], rows[1:]
ri, ti = h.index("repetition"), h.index("threads")
w = csv.writer(open(sys.argv[2], "w", newline=""), lineterminator="\n")
w.writerow(h)
seen = set()
for b in body:
    if b[h.index("preset")] in seen:
        continue
    seen.add(b[h.index("preset")])
    for th in range(1, 5):
        for rep in range(1, 501):
            r = list(b)
            r[ri], r[ti] = str(rep), str(th)
            w.writerow(r)
PY
for sig in INT TERM HUP; do
	mkdir -p "$tmp/cmp-$sig"
	"$pcbench" compare "$tmp/big.csv" --ci -o "$tmp/cmp-$sig" >/dev/null 2>"$tmp/err" &
	pid=$!
	has_read $pid "$tmp/big.csv"
	kill -"$sig" $pid
	wait $pid
	rc=$?
	[ $rc -eq 3 ] || [ $rc -eq 0 ] || { echo "FAIL: compare SIG$sig: exit $rc"; cat "$tmp/err"; fail=1; }
	ls "$tmp/cmp-$sig" | grep -q '\.[A-Za-z0-9]\{6\}$' &&
		{ echo "FAIL: compare SIG$sig left $(ls "$tmp/cmp-$sig")"; fail=1; }
	echo "compare --ci on 4,000 rows, SIG$sig: exit $rc"
done

# merge of those 4,000 rows: a signal once it writes (its temp results.csv exists) ends it
# with 3 (0 if done first) and leaves no results.csv with a part of the rows, no temp file
# and no directory it made (written whole or not at all).
for sig in INT TERM HUP; do
	"$pcbench" merge "$tmp/big.csv" -o "$tmp/mg-$sig" >/dev/null 2>"$tmp/err" &
	pid=$!
	i=0
	while ! exists "$tmp/mg-$sig" 'results.csv.*' && [ $i -lt 6000 ] &&
		kill -0 $pid 2>/dev/null; do
		sleep 0.01
		i=$((i + 1))
	done
	kill -"$sig" $pid 2>/dev/null
	wait $pid
	rc=$?
	if [ $rc -eq 3 ]; then
		[ ! -e "$tmp/mg-$sig" ] ||
			{ echo "FAIL: merge SIG$sig left $(ls -A "$tmp/mg-$sig")"; fail=1; }
	elif [ $rc -eq 0 ]; then
		sh "$(dirname "$0")/csv_whole.sh" "$tmp/mg-$sig/results.csv" 4001 || fail=1
	else
		echo "FAIL: merge SIG$sig: exit $rc"; cat "$tmp/err"; fail=1
	fi
	echo "merge of 4,000 rows, SIG$sig while writing: exit $rc"
done

# plot: SIGHUP while it reads the file (once it has read it: it reads it again and works out
# compare's tables before its temp directory), SIGINT once its temp directory exists
# (before the first plot), SIGTERM once gnuplot draws into the temp PNG.
if command -v gnuplot >/dev/null; then
	for sig in HUP INT TERM; do
		mkdir -p "$tmp/plot-$sig" "$tmp/ptmp-$sig"
		TMPDIR=$tmp/ptmp-$sig "$pcbench" plot "$tmp/big.csv" -o "$tmp/plot-$sig" \
			>/dev/null 2>"$tmp/err" &
		pid=$!
		i=0
		case $sig in
		HUP) has_read $pid "$tmp/big.csv" ;;
		INT) while ! exists "$tmp/ptmp-$sig" '*' && kill -0 $pid 2>/dev/null &&
			[ $i -lt 6000 ]; do sleep 0.01; i=$((i + 1)); done ;;
		TERM) while ! exists "$tmp/plot-$sig" '*.png.*' && kill -0 $pid 2>/dev/null &&
			[ $i -lt 6000 ]; do sleep 0.01; i=$((i + 1)); done ;;
		esac
		kill -"$sig" $pid 2>/dev/null
		wait $pid
		rc=$?
		[ $rc -eq 3 ] || [ $rc -eq 0 ] || { echo "FAIL: plot SIG$sig: exit $rc"; cat "$tmp/err"; fail=1; }
		[ -z "$(ls "$tmp/ptmp-$sig")" ] ||
			{ echo "FAIL: plot SIG$sig left $(ls -R "$tmp/ptmp-$sig")"; fail=1; }
		ls "$tmp/plot-$sig" | grep -q '\.png\.' &&
			{ echo "FAIL: plot SIG$sig left $(ls "$tmp/plot-$sig")"; fail=1; }
		for png in "$tmp/plot-$sig"/*.png; do
			[ -e "$png" ] || continue
			python3 -c 'import sys
d = open(sys.argv[1], "rb").read()
assert d[:8] == b"\x89PNG\r\n\x1a\n" and d[-8:-4] == b"IEND"
' "$png" || { echo "FAIL: plot SIG$sig: $png is not a whole PNG"; fail=1; }
		done
		echo "plot of 4,000 rows, SIG$sig: exit $rc, $(ls "$tmp/plot-$sig" | wc -l) whole PNG"
	done
else
	echo "note: no gnuplot here; the plot cases are skipped"
fi

# A measurement whose stdout or stderr reader goes away (a pipe closed after the third row)
# ends like SIGINT: exit 3, the rows whole, context.json interrupted. pcbench writes nothing
# to either while it measures; it looks after each row.
for fd in 1 2; do
	python3 - "$pcbench" "$tmp/pipe$fd" $fd <<'PY' || fail=1
import json, os, subprocess, sys, time
pcbench, run, fd = sys.argv[1], sys.argv[2], int(sys.argv[3])
r, w = os.pipe()
p = subprocess.Popen([pcbench, "-s", "page_counter", "-p", "+ABC", "-w", "direct", "-t", "1",
                      "-r", "50", "--time", "0.1", "-o", run],
                     stdout=w if fd == 1 else subprocess.DEVNULL,
                     stderr=w if fd == 2 else subprocess.DEVNULL)
os.close(w)
def rows():
    try:
        return sum(1 for _ in open(run + "/results.csv")) - 1
    except OSError:
        return 0
t = time.time()
while rows() < 3 and time.time() - t < 60:
    time.sleep(0.01)
os.close(r)
rc = p.wait()
n = rows()
ctx = json.load(open(run + "/context.json"))
ok = rc == 3 and 3 <= n < 50 and ctx["interrupted"] is True and ctx["end_time"]
ok = ok and open(run + "/results.csv").read().endswith("\n")
print("measure, fd %d reader gone after 3 rows: exit %d, %d rows, interrupted %s" %
      (fd, rc, n, ctx["interrupted"]))
sys.exit(0 if ok else 1)
PY
done

ls "$tmp" | grep -q '\.[A-Za-z0-9]\{6\}$' && { echo "FAIL: temp files left: $(ls "$tmp")"; fail=1; }
exit $fail
