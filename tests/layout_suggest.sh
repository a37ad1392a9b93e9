#!/bin/sh
# layout_suggest.sh PCBENCH SRCDIR - `pcbench layout suggest` (issue 37's acceptance):
#  1. patch B rediscovered: on v6.0 with page_counter v6.0-rc1 direct at -t 8, memory.usage
#     shares no line of struct page_counter with min, low, max or parent, nor of struct
#     mem_cgroup with css.parent; page_counter grows to at most 192 B; `pcbench model -p
#     v6.0-rc1 -D layout=SUGGESTED` has at most +B's transfers/op (same topology, seed, ops);
#  2. the May 2024 fix rediscovered: per_node regressed shared at 128-byte lines, -t 8: the
#     suggestion (-D layout=FILE) has at most preset fixed's transfers/op;
#  3. properties on 200 random layouts and recipes (seed 37): never more transfers/op than
#     the input; with distinct signatures (and no --max-size), never more than the separated
#     reference; field
#     alignment and --max-size hold; the file round-trips through show --format layout
#     and loads with -D layout=; the 4 KiB benchmark fixture runs. Under a sanitizer
#     (PCBENCH_SANITIZED: make test-asan, test-tsan) the first 12 of the same 200 cases: the
#     variants repeat every 12 cases (distinct signatures or not: case % 2; --max-size:
#     case % 3 == 1, its slack case % 4), so 12 has each once; the sanitizer checks code
#     paths, the Release build (make test-all, and make test's Release share: label release) checks
#     all 200 cases;
#  4. layout show --scenario's summary line names the suggest command; bad usage exits 2.
set -u
. "${0%/*}/preamble.sh"
topo='synthetic:pack:2 l3:1 group:4 [numa] l2:14 core:1 pu:2(indexes=core:package)'

# col FILE NAME [ROW] - the value of column NAME in data row ROW (default 1) of CSV FILE.
col() {
	awk -F, -v c="$2" -v r="${3:-1}" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i }
		NR == r + 1 { print $k }' "$1"
}

# le A B - A <= B (floats).
le() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b + 1e-9) }'
}

# line_of FILE STRUCT FIELD - the 64-byte line of FIELD in STRUCT of layout FILE.
line_of() {
	sed -n "/^struct $2 /,/^end/p" "$1" | awk -v f="$3" '$1 == f { print int($2 / 64) }'
}

# ---- 1. patch B ----
"$pcbench" layout suggest v6.0 --scenario page_counter --preset v6.0-rc1 --workload direct \
	-t 8 -o "$tmp/b.layout" >"$tmp/b.out" 2>&1 || no "suggest v6.0 page_counter: $(cat "$tmp/b.out")"
u=$(line_of "$tmp/b.layout" page_counter usage)
for f in min low max parent; do
	[ "$(line_of "$tmp/b.layout" page_counter $f)" != "$u" ] || no "patch B: usage shares line $u with $f"
done
size=$(awk '$1 == "struct" && $2 == "page_counter" { print $4 }' "$tmp/b.layout")
[ -n "$size" ] && [ "$size" -le 192 ] || no "patch B: page_counter is ${size:-?} B, over 192"
mu=$(sed -n '/^struct mem_cgroup /,/^end/p' "$tmp/b.layout" | awk '$1 == "memory" { print $2 }')
cp=$(sed -n '/^struct mem_cgroup /,/^end/p' "$tmp/b.layout" | awk '$1 == "css.parent" { print $2 }')
[ -n "$mu" ] && [ -n "$cp" ] && [ $(((mu + u * 64) / 64)) -ne $((cp / 64)) ] ||
	no "patch B: css.parent ($cp) on memory.usage's line (memory at $mu)"
"$pcbench" model -s page_counter -p v6.0-rc1 -w direct -t 8 --topology "$topo" \
	-D "layout=$tmp/b.layout" -q --csv "$tmp/bm.csv" >/dev/null 2>&1 || no "model -D layout=suggested failed"
"$pcbench" model -s page_counter -p +B -w direct -t 8 --topology "$topo" -q --csv "$tmp/bB.csv" \
	>/dev/null 2>&1 || no "model -p +B failed"
s=$(col "$tmp/bm.csv" model_transfers_per_op)
k=$(col "$tmp/bB.csv" model_transfers_per_op)
le "$s" "$k" || no "patch B: the suggestion's $s transfers/op are over +B's $k"
echo "patch B: suggested $s transfers/op, +B $k; page_counter $size B"

# ---- 2. the May 2024 fix ----
"$pcbench" layout suggest --scenario per_node --preset regressed --workload shared \
	--line-size 128 -t 8 -o "$tmp/p.layout" >"$tmp/p.out" 2>&1 || no "suggest per_node: $(cat "$tmp/p.out")"
"$pcbench" model -s per_node -p regressed -w shared -t 8 --line-size 128 --topology "$topo" \
	-D "layout=$tmp/p.layout" -q --csv "$tmp/pm.csv" >/dev/null 2>&1 || no "model per_node -D layout=suggested failed"
"$pcbench" model -s per_node -p fixed -w shared -t 8 --line-size 128 --topology "$topo" -q \
	--csv "$tmp/pf.csv" >/dev/null 2>&1 || no "model per_node -p fixed failed"
s=$(col "$tmp/pm.csv" model_transfers_per_op)
k=$(col "$tmp/pf.csv" model_transfers_per_op)
le "$s" "$k" || no "May 2024: the suggestion's $s transfers/op are over fixed's $k"
echo "per_node: suggested $s transfers/op, fixed $k"

# ---- 3. properties ----
n=200
[ -n "${PCBENCH_SANITIZED:-}" ] && n=12
awk -v seed=37 -v n=$n -v dir="$tmp" -f "$src/tests/layout_suggest_gen.awk"
# Per case only the three pcbench commands run here; every check of their files runs in
# one awk after the loop (a dozen awk, sed and cat processes per case were half of this
# test's CPU time). caseN.max: its --max-size (empty: none), caseN.ok: suggest succeeded.
i=0
while [ $i -lt $n ]; do
	c=$tmp/case$i
	max=
	# the input's size: the layout's second line, "struct rnd size N align A"
	{ read -r _ && read -r _ _ _ in_size _; } <"$c.layout"
	[ $((i % 3)) -eq 1 ] && max=$((in_size + 64 * (i % 4)))
	echo "$max" >"$c.max"
	if ! "$pcbench" layout suggest "$c.layout" --recipe "$c.recipe" -t 4 --ops 20 --warmup 4 \
		${max:+--max-size $max} -o "$c.out" --csv "$c.csv" >"$c.log" 2>&1; then
		no "case $i: suggest failed: $(tail -2 "$c.log")"
		i=$((i + 1))
		continue
	fi
	: >"$c.ok"
	"$pcbench" layout show "$c.out" --format layout >"$c.rt" 2>&1 ||
		no "case $i: the suggestion does not round-trip through show --format layout"
	"$pcbench" model -s probe -p v6.1 -D "layout=$c.out" -D "recipe=$c.recipe" -t 4 --ops 5 \
		--warmup 0 --topology "$topo" -q >/dev/null 2>&1 || no "case $i: -D layout=suggested does not load"
	i=$((i + 1))
done
# For each case whose suggest succeeded: never more transfers/op than today; with distinct
# signatures and no --max-size, never more than separated; the size within --max-size;
# every field at its alignment, min(8, 2^k dividing its size and its first offset); the
# file equal to show --format layout's (but the first line, which names the file it was
# read from).
awk -v n=$n -v dir="$tmp" '
function le(a, b) { return a + 0 <= b + 1e-9 }
function no(m) { print "FAIL: case " i ": " m; bad = 1 }
BEGIN {
	for (i = 0; i < n; i++) {
		c = dir "/case" i
		if ((getline x <(c ".ok")) < 0)
			continue
		getline max <(c ".max")
		getline kind <(c ".kind")
		getline hdr <(c ".csv")
		getline row <(c ".csv")
		nh = split(hdr, h, ",")
		split(row, v, ",")
		for (k = 1; k <= nh; k++)
			col[h[k]] = v[k]
		t = col["transfers_today"]; s = col["transfers_suggested"]
		r = col["transfers_separated"]; sz = col["size_suggested"]
		le(s, t) || no("suggested " s " > today " t)
		if (kind == "distinct" && max == "")
			le(s, r) || no("distinct signatures, suggested " s " > separated " r)
		max == "" || sz + 0 <= max + 0 || no(sz " B over --max-size " max)
		delete o
		delete z
		while ((getline line <(c ".layout")) > 0) {
			nf = split(line, f)
			if (nf >= 3 && f[2] ~ /^[0-9]+$/) { o[f[1]] = f[2]; z[f[1]] = f[3] }
		}
		nout = 0
		while ((getline line <(c ".out")) > 0) {
			out[++nout] = line
			nf = split(line, f)
			if (nf >= 3 && f[2] ~ /^[0-9]+$/) {
				a = 8
				while (a > 1 && (o[f[1]] % a || z[f[1]] % a))
					a /= 2
				if (f[2] % a) { no("a field lost its alignment: " f[1] " at " f[2] ", align " a); break }
			}
		}
		while ((getline line <(c ".out")) > 0)
			out[++nout] = line
		nrt = 0
		same = 1
		while ((getline line <(c ".rt")) > 0)
			if (++nrt > 1 && (nrt > nout || line != out[nrt]))
				same = 0
		same && nrt == nout || no("the suggestion does not round-trip through show --format layout")
		close(c ".ok"); close(c ".max"); close(c ".kind"); close(c ".csv")
		close(c ".layout"); close(c ".out"); close(c ".rt")
	}
	exit bad
}' || fail=1
echo "properties: $n random cases checked"
fx=$src/tests/fixtures
"$pcbench" layout suggest "$fx/layouts/big4k.layout" --recipe "$fx/recipes/big4k.recipe" \
	-t 8 --ops 500 --warmup 50 --csv "$tmp/big.csv" >/dev/null 2>&1 || no "the 4 KiB benchmark fixture failed"
le "$(col "$tmp/big.csv" transfers_suggested)" "$(col "$tmp/big.csv" transfers_today)" ||
	no "big4k: worse than today"

# ---- 4. show's summary line, bad usage ----
"$pcbench" layout show v6.0 --scenario page_counter --preset v6.0-rc1 --workload direct >"$tmp/s" 2>&1
grep -q '^/\* 4 lines flagged !!: pcbench layout suggest v6.0 --scenario page_counter --preset v6.0-rc1 --workload direct -t 2 \*/$' "$tmp/s" ||
	no "show: no summary line naming layout suggest"
"$pcbench" layout show v6.1 --scenario page_counter --preset +ABC --workload direct >"$tmp/s1" 2>&1
! grep -q 'flagged !!: pcbench layout suggest' "$tmp/s1" || no "show v6.1: a summary line with nothing flagged"
for args in "v6.0" "v6.0 --scenario page_counter --recipe x" "--recipe x" \
	"v6.0 --scenario page_counter --preset v6.0-rc1 --max-growth -1" \
	"v6.0 --scenario page_counter --preset v6.0-rc1 --struct nosuch"; do
	# shellcheck disable=SC2086
	"$pcbench" layout suggest $args >"$tmp/e" 2>&1
	[ $? -eq 2 ] || no "suggest $args: exit $? (want 2): $(cat "$tmp/e")"
done
[ $fail -eq 0 ] && echo "layout_suggest: all checks passed"
exit $fail
