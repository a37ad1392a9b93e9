#!/bin/sh
# layout_cmd.sh PCBENCH SRCDIR [pahole] - `pcbench layout` and the probe through the binary.
#
# Without a third argument (ctest layout_cmd):
#  - every built-in layout: show --format layout > file, then show that file: the same
#    fingerprint and the same view, and the written file writes itself again unchanged;
#  - every tests/fixtures/layouts/bad-*.layout exits 2 with FILE:LINE and the problem its
#    "# expect:" line names (with the "# args:" it gives, e.g. --scenario for the missing
#    field and the non-atomic RMW);
#  - import of every good pahole fixture equals its tests/golden/layout/import-*.layout
#    (PCBENCH_UPDATE_GOLDEN=1 rewrites them), also from stdin; every
#    bad one exits 2 with FILE:LINE; --from-object with a missing or failing pahole exits 2;
#  - show --scenario: both page_counter presets flag memory.usage's line on v6.0 and not
#    on v6.1; usage errors exit 2;
#  - the probe: a smoke run on a made-up layout and recipe (1 and 2 threads, rows ok), its
#    show flags the shared line, and bad recipes exit 2 with FILE:LINE (through the run too).
# With "pahole" (ctest layout_pahole): compile tests/fixtures/pahole/page_counter.c with -g
# as v6.0 and v6.1, run pahole on it, import, and compare with the built-in layouts. Exits
# A failure when pahole is not installed (scripts/install-deps brings it).
set -u
. "${0%/*}/preamble.sh"
mode=${3:-cli}
fx=$src/tests/fixtures


# The struct block of STRUCT in a layout file written by `show --format layout`.
block() {
	sed -n "/^struct $2 /,/^end/p" "$1"
}

# The view rows (offset size path kind) of `layout show` for a layout.
rows() {
	"$pcbench" layout show "$1" | awk '$1 ~ /^[0-9]+$/ && NF == 4 { print $1, $2, $3, $4 }'
}

if [ "$mode" = pahole ]; then
	if ! command -v pahole >/dev/null 2>&1; then
		echo "FAIL: pahole is not installed (Debian package dwarves; scripts/install-deps brings it)"
		exit 1
	fi
	cc=${CC:-cc}
	command -v "$cc" >/dev/null 2>&1 || cc=gcc
	echo "pahole: $(pahole --version), compiler: $("$cc" --version | head -1)"
	for v in v6.0 v6.1; do
		def=
		[ $v = v6.1 ] && def=-DPC_V61
		"$cc" -g -O0 $def -c "$fx/pahole/page_counter.c" -o "$tmp/pc-$v.o" ||
			{ no "$v: cannot compile page_counter.c"; continue; }
		pahole -C page_counter "$tmp/pc-$v.o" >"$tmp/pc-$v.txt"
		echo "--- pahole -C page_counter ($v build) ---"
		cat "$tmp/pc-$v.txt"
		if ! "$pcbench" layout import --name "pahole-$v" "$tmp/pc-$v.txt" >"$tmp/pc-$v.layout" 2>"$tmp/err"; then
			no "$v: import failed: $(cat "$tmp/err")"
			continue
		fi
		echo "--- pcbench layout import ---"
		cat "$tmp/pc-$v.layout"
		"$pcbench" layout show "$tmp/pc-$v.layout" --format layout >"$tmp/imp.txt"
		"$pcbench" layout show $v --format layout >"$tmp/builtin.txt"
		block "$tmp/imp.txt" page_counter >"$tmp/a"
		block "$tmp/builtin.txt" page_counter >"$tmp/b"
		if [ -s "$tmp/a" ] && cmp -s "$tmp/a" "$tmp/b"; then
			echo "ok: $v: struct page_counter from pahole == built-in $v (size, align, every field's offset, size and kind)"
		else
			no "$v: struct page_counter from pahole differs from the built-in:"
			diff "$tmp/b" "$tmp/a" | sed 's/^/    /'
		fi
		# The same through --from-object, which runs pahole itself.
		if "$pcbench" layout import --from-object "$tmp/pc-$v.o" --struct page_counter \
			--name "pahole-$v" -o "$tmp/obj.layout" 2>"$tmp/err" &&
			"$pcbench" layout show "$tmp/obj.layout" --format layout >"$tmp/obj.txt" &&
			block "$tmp/obj.txt" page_counter | cmp -s - "$tmp/b"; then
			echo "ok: $v: import --from-object gives the same struct page_counter"
		else
			no "$v: import --from-object: $(cat "$tmp/err")"
		fi
		# The memcg head with pahole -E: nested expansion against the kernel tables.
		if ! "$pcbench" layout import --from-object "$tmp/pc-$v.o" -E --struct mem_cgroup \
			-o "$tmp/memcg-$v.layout" 2>"$tmp/err"; then
			no "$v: import -E mem_cgroup: $(cat "$tmp/err")"
			continue
		fi
		rows "$tmp/memcg-$v.layout" >"$tmp/imp-rows"
		rows $v | grep -E ' (css\.parent|memory\.|swap\.|kmem\.|tcpmem\.)' >"$tmp/want-rows"
		missing=$(grep -vxF -f "$tmp/imp-rows" "$tmp/want-rows")
		if [ -z "$missing" ] && [ "$(wc -l <"$tmp/want-rows")" -eq 57 ]; then
			echo "ok: $v: pahole -E mem_cgroup: css.parent and the 56 fields of memory, swap, kmem and tcpmem at the built-in offsets, sizes and kinds"
		else
			no "$v: pahole -E mem_cgroup rows not in the import:"
			echo "$missing" | sed 's/^/    /'
		fi
		want_hw=$(rows $v | awk '$3 == "high_work" { print $1 }')
		got_hw=$(awk '$3 ~ /^high_work\./ { print $1; exit }' "$tmp/imp-rows")
		[ "$want_hw" = "$got_hw" ] && echo "ok: $v: high_work at $got_hw" ||
			no "$v: high_work at $got_hw, built-in $want_hw"
	done
	[ $fail -eq 0 ] && echo "layout_pahole: all checks passed"
	exit $fail
fi

# ---- the probe's smoke run (1 and 2 threads), first ----
run=$tmp/run
"$pcbench" -s probe -p v6.1 -t 1,2 -r 1 --time 0.02 -D layout="$fx/layouts/conn.layout" \
	-D recipe="$fx/recipes/conn.recipe" -o "$run" >"$tmp/out" 2>"$tmp/err"
rc=$?
# a row is ok, or disturbed only because a busy machine starved it (--noise-max off here)
ok_rows=$(awk -F, 'NR > 1 && $2 == "probe" && ($16 == "ok" && $11 > 0 || $16 == "disturbed" && /\(starved\)/)' \
	"$run/results.csv" 2>/dev/null | wc -l)
if [ $rc -eq 0 ] && [ "$ok_rows" -eq 2 ]; then
	echo "ok: probe smoke on conn.layout + conn.recipe: 2 rows ok"
else
	no "probe smoke: exit $rc, $ok_rows ok rows; $(cat "$tmp/err")"
fi
# Under TSan only the smoke run above (-t 1,2): the rest is one thread; ASan runs it.
case ${PCBENCH_SANITIZED:-} in *thread*) exit $fail ;; esac

# ---- round trips of the built-in layouts ----
"$pcbench" layout show no-such-layout-name >/dev/null 2>"$tmp/err"
names=$(sed -n 's/.*(built-ins: \([^)]*\)).*/\1/p' "$tmp/err" | tr -d ,)
[ -n "$names" ] || no "cannot list the built-in layouts: $(cat "$tmp/err")"
for n in $names; do
	"$pcbench" layout show "$n" --format layout >"$tmp/$n.layout" || no "$n: show --format layout"
	"$pcbench" layout show "$tmp/$n.layout" --format layout >"$tmp/$n.again" || no "$n: reload"
	tail -n +2 "$tmp/$n.layout" >"$tmp/a"
	tail -n +2 "$tmp/$n.again" >"$tmp/b"
	cmp -s "$tmp/a" "$tmp/b" || no "$n: the written layout does not write itself again"
	"$pcbench" layout show "$n" >"$tmp/view1"
	"$pcbench" layout show "$tmp/$n.layout" >"$tmp/view2"
	fp1=$(head -1 "$tmp/view1" | sed 's/.*fingerprint \([0-9a-f]*\).*/\1/')
	fp2=$(head -1 "$tmp/view2" | sed 's/.*fingerprint \([0-9a-f]*\).*/\1/')
	if [ -n "$fp1" ] && [ "$fp1" = "$fp2" ] &&
		[ "$(tail -n +2 "$tmp/view1")" = "$(tail -n +2 "$tmp/view2")" ]; then
		echo "ok: $n: show -> file -> show: fingerprint $fp1 and view unchanged"
	else
		no "$n: round trip: fingerprint $fp1 vs $fp2, or the views differ"
	fi
done

# ---- validation errors: exit 2 with FILE:LINE: problem ----
for f in "$fx"/layouts/bad-*.layout; do
	line=$(sed -n 's/^# expect: \([0-9]*\): .*/\1/p' "$f")
	frag=$(sed -n 's/^# expect: [0-9]*: //p' "$f")
	args=$(sed -n 's/^# args: //p' "$f")
	# shellcheck disable=SC2086
	"$pcbench" layout show "$f" $args >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 2 ] && grep -qF "$f:$line: " "$tmp/err" && grep -qF -- "$frag" "$tmp/err"; then
		echo "ok: $(basename "$f") -> 2: $(sed "s|$fx/layouts/||" "$tmp/err")"
	else
		no "$(basename "$f"): exit $rc, want 2 with '$f:$line: ...$frag'; stderr: $(cat "$tmp/err")"
	fi
done

# ---- import ----
for n in holey nested nested-relative multi typedef-chain; do
	(cd "$fx/pahole" && "$pcbench" layout import "$n.txt") >"$tmp/imp" 2>"$tmp/err" ||
		no "import $n.txt: $(cat "$tmp/err")"
	gold=$src/tests/golden/layout/import-$n.layout
	[ -n "${PCBENCH_UPDATE_GOLDEN:-}" ] && cp "$tmp/imp" "$gold" && echo "rewrote $gold"
	cmp -s "$tmp/imp" "$gold" && echo "ok: import $n.txt == import-$n.layout" ||
		{ no "import $n.txt differs from $gold:"; diff "$gold" "$tmp/imp" | sed 's/^/    /'; }
	"$pcbench" layout import - <"$fx/pahole/$n.txt" >"$tmp/stdin" 2>"$tmp/err" ||
		no "import - <$n.txt: $(cat "$tmp/err")"
	grep -v '^#\|^desc' "$tmp/stdin" >"$tmp/a"
	grep -v '^#\|^desc' "$tmp/imp" >"$tmp/b"
	cmp -s "$tmp/a" "$tmp/b" || no "import - <$n.txt differs from import $n.txt"
done
"$pcbench" layout import --struct page_counter --name mine -o "$tmp/mine.layout" "$fx/pahole/multi.txt" ||
	no "import -o"
grep -q '^layout mine$' "$tmp/mine.layout" && ! grep -q '^struct cg_small' "$tmp/mine.layout" ||
	no "import --struct page_counter --name mine: $(cat "$tmp/mine.layout")"
for f in "$fx"/pahole/bad-*.txt; do
	line=$(sed -n 's/^# expect: \([0-9]*\): .*/\1/p' "$f")
	frag=$(sed -n 's/^# expect: [0-9]*: //p' "$f")
	"$pcbench" layout import "$f" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 2 ] && grep -qF "$f:$line: " "$tmp/err" && grep -qF -- "$frag" "$tmp/err" && [ ! -s "$tmp/out" ]; then
		echo "ok: import $(basename "$f") -> 2: $(sed "s|$fx/pahole/||" "$tmp/err")"
	else
		no "import $(basename "$f"): exit $rc, want 2 with '$f:$line: ...$frag'; stderr: $(cat "$tmp/err")"
	fi
done

# expect CODE FRAGMENT ARGS... : exit code and a fragment of stderr.
expect() {
	code=$1 frag=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne "$code" ] || ! grep -qF -- "$frag" "$tmp/err"; then
		no "$*: exit $rc (want $code), stderr: $(cat "$tmp/err") (want: $frag)"
	else
		echo "ok: $(echo "$*" | sed "s|$pcbench|pcbench|; s|$fx/||g") -> $rc"
	fi
}
printf '#!/bin/sh\necho "pahole: boom" >&2\nexit 3\n' >"$tmp/fake-pahole"
chmod +x "$tmp/fake-pahole"
expect 2 "not found" env PAHOLE="$tmp/no-such-pahole" "$pcbench" layout import --from-object x.o --struct s
expect 2 "pahole: boom" env PAHOLE="$tmp/fake-pahole" "$pcbench" layout import --from-object x.o --struct s
expect 2 "needs --struct" "$pcbench" layout import --from-object x.o
expect 2 "no input" "$pcbench" layout import
expect 2 "unknown option" "$pcbench" layout import --frobnicate x
expect 2 "nonexistent.txt: " "$pcbench" layout import "$tmp/nonexistent.txt"
expect 2 "unknown subcommand" "$pcbench" layout frob
expect 2 "no built-in layout of that name" "$pcbench" layout show nonexistent.layout
expect 2 "--format" "$pcbench" layout show v6.1 --format xml
expect 2 "--line-size" "$pcbench" layout show v6.1 --line-size 48
expect 2 "no such scenario" "$pcbench" layout show v6.1 --scenario nosuch --preset x
expect 2 "needs --preset" "$pcbench" layout show v6.1 --scenario page_counter
expect 2 "no such preset" "$pcbench" layout show v6.1 --scenario page_counter --preset +Z
expect 2 "no such workload" "$pcbench" layout show v6.1 --scenario page_counter --preset +A --workload x
expect 2 "--threads" "$pcbench" layout show v6.1 --scenario page_counter --preset +A --threads 0
expect 2 "batch: 0" "$pcbench" layout show v6.1 --scenario page_counter --preset +A -D batch=0
expect 2 "go with --scenario" "$pcbench" layout show v6.1 --preset +A
"$pcbench" layout --help | grep -q "layout import" || no "layout --help"

# ---- show --scenario: the static false-sharing report ----
for p in v6.0-rc1 +A; do
	"$pcbench" layout show v6.0 --scenario page_counter --preset $p --workload stocked >"$tmp/s60" ||
		no "show v6.0 --scenario page_counter --preset $p"
	grep -q '!! false sharing on cacheline 3 (192..255): written memory.usage' "$tmp/s60" ||
		no "v6.0 $p: memory.usage's line 3 not flagged"
	"$pcbench" layout show v6.1 --scenario page_counter --preset $p --workload stocked >"$tmp/s61" ||
		no "show v6.1 --scenario page_counter --preset $p"
	grep -q 'cacheline 4 (256..319): written memory.usage' "$tmp/s61" &&
		no "v6.1 $p: memory.usage's line 4 flagged (it is alone there)"
	grep -q '256 *8  memory.usage  *atomic  *[0-9.]* x2' "$tmp/s61" ||
		no "v6.1 $p: memory.usage not annotated with rmw by 2 threads"
done
"$pcbench" layout show v6.0 --scenario page_counter --preset v6.0-rc1 --workload direct --threads 1 >"$tmp/s1"
grep -q 'static false-sharing report: 0 cache lines flagged' "$tmp/s1" ||
	no "one thread: lines flagged"
echo "ok: show --scenario page_counter flags memory.usage's line on v6.0, not on v6.1; none with one thread"

# ---- the probe (its smoke run is first, above) ----
"$pcbench" layout show "$fx/layouts/conn.layout" --scenario probe --preset v6.1 \
	-D recipe="$fx/recipes/conn.recipe" >"$tmp/conn" || no "show conn --scenario probe"
grep -q 'false sharing on cacheline 0 (0..63): written lock, rx, tx, state' "$tmp/conn" &&
	grep -q '^	  *72  *8  hits  *atomic  *2 x1' "$tmp/conn" ||
	no "show conn --scenario probe: $(cat "$tmp/conn")"
for f in "$fx"/recipes/bad-*.recipe; do
	line=$(sed -n 's/^# expect: \([0-9]*\): .*/\1/p' "$f")
	frag=$(sed -n 's/^# expect: [0-9]*: //p' "$f")
	lay=$(sed -n 's/^# layout: //p' "$f")
	case $lay in *.layout) lay=$fx/layouts/$lay ;; esac
	"$pcbench" layout show "$lay" --scenario probe --preset v6.1 -D recipe="$f" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 2 ] && grep -qF "$f:$line: " "$tmp/err" && grep -qF -- "$frag" "$tmp/err"; then
		echo "ok: probe recipe $(basename "$f") -> 2: $(sed "s|$fx/||g" "$tmp/err")"
	else
		no "probe recipe $(basename "$f"): exit $rc, want 2 with '$f:$line: ...$frag'; stderr: $(cat "$tmp/err")"
	fi
done
# A bad recipe stops a run before anything is measured.
"$pcbench" -s probe -p v6.1 -t 1 -r 1 --time 0.01 -D recipe="$fx/recipes/bad-step.recipe" \
	-o "$tmp/never" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -qF "bad-step.recipe:3: " "$tmp/err" && [ ! -e "$tmp/never/results.csv" ] &&
	echo "ok: pcbench -s probe -D recipe=bad-step.recipe -> 2" ||
	no "run with a bad recipe: exit $rc: $(cat "$tmp/err")"
"$pcbench" -s probe -p v6.1 -t 1 -r 1 --time 0.01 -D recipe=no-such-recipe -o "$tmp/never" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "no built-in recipe of that name" "$tmp/err" ||
	no "run with a missing recipe: $(cat "$tmp/err")"

[ $fail -eq 0 ] && echo "layout_cmd: all checks passed"
exit $fail
