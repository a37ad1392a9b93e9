#!/bin/sh
# plot_data.sh PCBENCH SRCDIR - what `pcbench plot --keep-data` draws, checked in the data
# and scripts it keeps (NAME.dat, NAME.gp beside NAME.png), not in pixels:
#  - a merged run of two labels on one host: one series per preset and host ("... on a",
#    "... on b"), each host its own dash type; nothing pooled;
#  - the forest plot: its rows are compare's own (%change, ci low, ci high, verdict of
#    ops_per_s, as `pcbench compare RUN --format csv` says), for the merged run (several
#    hosts), a block-design run and a --design independent run; verdict classes 1-4;
#  - the c2c probe: no scaling plot (ops/s against threads says nothing), a transfer plot
#    of ns per transfer (1e9 / ops/s) from 2 threads on;
#  - the c2c --matrix heatmap's palette: viridis (colour-blind safe), no rainbow;
#  - every script puts its axis labels on its axes (and a y2 label where y2 tics are);
#  - a kept NAME.gp draws NAME.png again.
# Short runs (--time 0.02, --noise-max off: a busy machine still gives ok rows).
set -u
. "${0%/*}/preamble.sh"
short="--time 0.02 --noise-max off"

# measure ARGS... - a short run; exit 0 or 5 (too few blocks for a verdict) is fine, and 1
# when its only errors are windows in which a descheduled thread completed no operation (a
# busy machine: those rows say so; the plots are made of the others)
measure() {
	"$pcbench" "$@" $short >/dev/null 2>"$tmp/err"
	rc=$?
	if [ $rc = 1 ] && grep -q 'rep [0-9/]*: error: no operation completed in the window$' \
		"$tmp/err" && ! grep 'rep [0-9/]*: error: ' "$tmp/err" |
		grep -qv 'error: no operation completed in the window$'; then
		echo "note: pcbench $*: exit 1: $(grep -c 'rep [0-9/]*: error: ' "$tmp/err") windows completed no operation"
	elif [ $rc != 0 ] && [ $rc != 5 ]; then
		no "pcbench $*: exit $rc"
		cat "$tmp/err"
	fi
}

# The runs first (threads at -t 2, the matrix's pairs). Under TSan only these, b left out (it
# repeats a with another label): the plots and checks are one thread; ASan runs them.
labels="a b"
case ${PCBENCH_SANITIZED:-} in *thread*) labels=a ;; esac
for l in $labels; do
	measure -s page_counter -p v6.0-rc1,+A -w direct -t 1,2 -r 3 --label $l -o "$tmp/$l"
done
measure -s page_counter,c2c -p v6.0-rc1,+A,+ABC,transfer -w direct,pingpong -t 1,2 -r 3 \
	-o "$tmp/blocks"
measure -s page_counter -p v6.0-rc1,+A,+ABC -w direct -t 1,2 -r 3 --design independent \
	-o "$tmp/indep"
measure -s c2c --matrix -r 1 -o "$tmp/matrix"
case ${PCBENCH_SANITIZED:-} in *thread*) exit $fail ;; esac

command -v gnuplot >/dev/null || { echo "FAIL: no gnuplot (install-deps --plot)"; exit 1; }
command -v python3 >/dev/null || { echo "FAIL: no python3 (install-deps)"; exit 1; }
# python3 resolved once (a version manager's shim costs up to 0.7 CPU s a start): its real
# interpreter first on PATH for the three forest checks.
mkdir "$tmp/bin" && ln -s "$(python3 -c 'import sys; print(sys.executable)')" "$tmp/bin/python3" &&
	PATH=$tmp/bin:$PATH || { echo "FAIL: python3 does not run"; exit 1; }
# plot RUN DIR - plot --keep-data into DIR
plot() {
	"$pcbench" plot "$1" -o "$2" --keep-data >"$tmp/plot.out" 2>&1 ||
		{ no "plot $1: exit $?"; cat "$tmp/plot.out"; }
}

# Runs a and b merged: two labels on one host.
"$pcbench" merge "$tmp/a" "$tmp/b" -o "$tmp/merged" >/dev/null || no "merge"
plot "$tmp/merged" "$tmp/pm"

# One series per preset and host; the host index (dash, point type) per series.
dat=$tmp/pm/scaling-page_counter-direct.dat
titles=$(grep '^"' "$dat" | tr -d '"' | sort | tr '\n' ',')
[ "$titles" = "+A [v6.0] on a,+A [v6.0] on b,v6.0-rc1 [v6.0] on a,v6.0-rc1 [v6.0] on b," ] ||
	no "merged run: series $titles, want one per preset and host"
grep -q "'1 2 1 2' '1 1 2 2'\$" "$tmp/pm/scaling-page_counter-direct.gp" ||
	no "merged run: colours per preset, dash per host: $(cat "$tmp/pm/scaling-page_counter-direct.gp")"
grep -q 'hosts a, b' "$tmp/pm/scaling-page_counter-direct.gp" || no "merged run: title names both hosts"

# forest_matches RUN DIR WHAT - DIR/forest-*.dat holds compare's rows of RUN, each once
forest_matches() {
	"$pcbench" compare "$1" --format csv >"$tmp/cmp.csv" 2>"$tmp/err" || { no "compare $1"; return; }
	python3 - "$tmp/cmp.csv" "$2" "$3" <<'PY' || fail=1
import csv, glob, math, shlex, sys
cmp, out, what = sys.argv[1:4]
rows = [r for r in csv.DictReader(open(cmp)) if r["metric"] == "ops_per_s" and r["verdict"] != "unmatched"]
hosts = {r["host"] for r in rows}
forest = []
for path in glob.glob(out + "/forest-*.dat"):
    png = path[:-4] + ".png"
    assert open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n", png + " is not a PNG"
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        f = shlex.split(line)
        assert len(f) == 9, line
        if f[5] != "0":
            forest.append(f)
bad = 0
if len(forest) != len(rows):
    print(f"FAIL: {what}: {len(forest)} forest rows, compare has {len(rows)}")
    bad = 1
cls = {"improved": "1", "regressed": "2", "n.s.": "3", "small": "3", "no verdict": "4", "n/a": "4"}
for r in rows:
    table = f"{r['scenario']} workload={r['workload']} placement={r['placement']} threads={r['threads']}"
    if r["home"]:
        table += f" home={r['home']}"
    if len(hosts) > 1:
        table += f" host={r['host']}"
    hit = [f for f in forest if f[1] == r["with_patch"] and f[8] == table]
    if len(hit) != 1:
        print(f"FAIL: {what}: {len(hit)} forest rows for {table} {r['with_patch']}")
        bad = 1
        continue
    f = hit[0]
    for k, col in ((2, "change_pct"), (3, "ci_lo_pct"), (4, "ci_hi_pct")):
        a, b = f[k], r[col]
        if (a == "?") != (b == "") or (b and not math.isclose(float(a), float(b), rel_tol=1e-8, abs_tol=1e-9)):
            print(f"FAIL: {what}: {table} {r['with_patch']}: {col} {a} in the forest, {b} in compare")
            bad = 1
    if f[6] != r["verdict"] or f[5] != cls[r["verdict"]]:
        print(f"FAIL: {what}: {table} {r['with_patch']}: verdict {f[6]} (class {f[5]}), compare says {r['verdict']}")
        bad = 1
print(f"{what}: {len(forest)} forest rows = compare's ({', '.join(sorted({f[6] for f in forest}))})")
sys.exit(bad)
PY
}
forest_matches "$tmp/merged" "$tmp/pm" "merged run, two hosts"
[ -s "$tmp/pm/forest-page_counter-direct.png" ] || no "no forest PNG for the merged run"

# One host, both designs; the c2c probe in the same run.
plot "$tmp/blocks" "$tmp/pb"
forest_matches "$tmp/blocks" "$tmp/pb" "block design"
grep -q 'median per-block ratio' "$tmp/pb/forest-page_counter-direct.gp" || no "blocks: the x label says how %change is taken"
plot "$tmp/indep" "$tmp/pi"
forest_matches "$tmp/indep" "$tmp/pi" "independent design"
grep -q 'ratio of medians (independent' "$tmp/pi/forest-page_counter-direct.gp" ||
	no "independent: the x label says how %change is taken"

# c2c: ns per transfer from 2 threads, no ops/s scaling plot.
ls "$tmp/pb" | grep -q '^scaling-c2c' && no "a scaling plot of the c2c probe: $(ls "$tmp/pb")"
[ -s "$tmp/pb/transfer-c2c-pingpong.png" ] || no "no transfer-c2c-pingpong.png"
grep -q "'ns per one-way cache-line transfer" "$tmp/pb/transfer-c2c-pingpong.gp" ||
	no "transfer plot: y axis is not ns per transfer"
awk '!/^[#"]/ && NF { if ($1 < 2) bad = 1; n++ } END { exit bad || !n }' \
	"$tmp/pb/transfer-c2c-pingpong.dat" || no "transfer plot: a point below 2 threads, or none"

# The heatmap: viridis, never the rainbow.
plot "$tmp/matrix" "$tmp/pmx"
gp=$(sed -n "s/^call '\\([^']*\\)'.*/\\1/p" "$tmp/pmx/c2c-matrix.gp")
[ -s "$tmp/pmx/c2c-matrix.png" ] && [ -f "$gp" ] || no "no heatmap, or its script ($gp)"
grep -q '^set palette defined (0 "#440154"' "$gp" && ! grep -q 'rgbformulae' "$gp" ||
	no "heatmap palette: $(grep palette "$gp")"

# Axis labels on their axes: every script labels x and y, y2 where it has y2 tics, and
# no key sits between an axis and its label (the key "below" did).
for s in "$src"/scripts/*.gp; do
	grep -q '^set xlabel' "$s" && grep -q '^[[:space:]]*set ylabel' "$s" ||
		no "$(basename "$s"): no xlabel or ylabel"
	! grep -q 'y2tics' "$s" || grep -q '^set y2label' "$s" || no "$(basename "$s"): y2 tics, no y2label"
	! grep -q 'set key.*below' "$s" || no "$(basename "$s"): a key below the x axis"
done

# A kept script draws its PNG again.
rm "$tmp/pb/forest-page_counter-direct.png"
(cd "$tmp/pb" && gnuplot forest-page_counter-direct.gp) >"$tmp/gp.out" 2>&1 &&
	[ -s "$tmp/pb/forest-page_counter-direct.png" ] || { no "gnuplot NAME.gp"; cat "$tmp/gp.out"; }

[ $fail = 0 ] && echo "ok: plot data: series per host, forest rows from compare, c2c transfers, viridis, axis labels"
exit $fail
