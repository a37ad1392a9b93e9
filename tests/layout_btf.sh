#!/bin/sh
# layout_btf.sh PCBENCH SRCDIR [BTF_CMDS] - layouts from BTF (`layout import --btf`, `--layout btf:`).
#
#  - tests/fixtures/pahole/page_counter.c compiled with -g as v6.0 and v6.1 and encoded with
#    `pahole -J` (so nothing depends on the host): --btf gives struct page_counter equal to
#    the built-in v6.0 / v6.1 (size, align, every offset, size and kind), and
#    --struct mem_cgroup,page_counter gives the same layout (fingerprint and every line) as
#    `pahole -E` of the same object through `layout import`;
#  - the same import without -E: using it for page_counter exits 2 naming the struct to add
#    to --struct;
#  - errors: no --struct, a struct the BTF lacks, a file without BTF: exit 2, named;
#  - this host's /sys/kernel/btf/vmlinux where it exists (else those checks are skipped):
#    --btf equals the pahole -E route, `--layout btf:` runs page_counter, context.json
#    records the BTF path and this kernel's release, and the fields the algorithm ignores
#    are named;
#  - hostile BTF (below): no crash, no hang, exit 0 or 2 naming the file.
# Fails when pahole or a C compiler is missing (scripts/install-deps brings them).
set -u
. "${0%/*}/preamble.sh"
fx=$src/tests/fixtures
btfcmds=${3:-}
cc=${CC:-cc}


# The layout lines that count (no comments, no desc): structs, fields, offsets, sizes, kinds.
body() {
	sed 's/#.*//; s/[[:space:]]*$//' "$1" | grep -v '^desc \|^$'
}

# The struct block of STRUCT in a layout file, comments dropped.
block() {
	sed -n "/^struct $2 /,/^end/p" "$1" | sed 's/#.*//; s/[[:space:]][[:space:]]*/ /g; s/ $//' |
		grep -v '^ *$'
}

fp() {
	"$pcbench" layout show "$1" | sed -n 's/.*fingerprint \([0-9a-f]*\).*/\1/p' | head -1
}

if ! command -v pahole >/dev/null 2>&1 || ! command -v "$cc" >/dev/null 2>&1; then
	# a missing tool is a failure, not a skip (scripts/install-deps brings them)
	echo "FAIL: needs pahole (Debian package dwarves; scripts/install-deps brings it) and a C compiler"
	exit 1
fi

for v in v6.0 v6.1; do
	def=
	[ $v = v6.1 ] && def=-DPC_V61
	"$cc" -g -O0 $def -c "$fx/pahole/page_counter.c" -o "$tmp/pc-$v.o" || { no "$v: compile"; continue; }
	pahole -J "$tmp/pc-$v.o" 2>"$tmp/err" || { no "$v: pahole -J: $(cat "$tmp/err")"; continue; }
	"$pcbench" layout show "$v" --format layout >"$tmp/builtin-$v.layout"

	if "$pcbench" layout import --btf "$tmp/pc-$v.o" --struct page_counter -o "$tmp/btf-$v.layout" 2>"$tmp/err"; then
		block "$tmp/btf-$v.layout" page_counter >"$tmp/a"
		block "$tmp/builtin-$v.layout" page_counter >"$tmp/b"
		if cmp -s "$tmp/a" "$tmp/b"; then
			echo "ok: $v: --btf struct page_counter == built-in $v"
		else
			no "$v: --btf page_counter differs from the built-in:"
			diff "$tmp/b" "$tmp/a" | sed 's/^/    /'
		fi
	else
		no "$v: import --btf: $(cat "$tmp/err")"
	fi

	"$pcbench" layout import --btf "$tmp/pc-$v.o" --struct mem_cgroup,page_counter -o "$tmp/btfm-$v.layout" 2>"$tmp/err" ||
		no "$v: import --btf mem_cgroup,page_counter: $(cat "$tmp/err")"
	pahole -E -C mem_cgroup,page_counter "$tmp/pc-$v.o" 2>/dev/null >"$tmp/pe-$v.txt"
	"$pcbench" layout import --struct mem_cgroup,page_counter "$tmp/pe-$v.txt" -o "$tmp/pe-$v.layout" 2>"$tmp/err" ||
		no "$v: import of pahole -E: $(cat "$tmp/err")"
	body "$tmp/btfm-$v.layout" >"$tmp/a"
	body "$tmp/pe-$v.layout" >"$tmp/b"
	if cmp -s "$tmp/a" "$tmp/b" && [ "$(fp "$tmp/btfm-$v.layout")" = "$(fp "$tmp/pe-$v.layout")" ]; then
		echo "ok: $v: --btf mem_cgroup,page_counter == pahole -E route (fingerprint $(fp "$tmp/pe-$v.layout"), $(wc -l <"$tmp/a") lines)"
	else
		no "$v: --btf and pahole -E routes differ:"
		diff "$tmp/b" "$tmp/a" | sed 's/^/    /'
	fi
	# The BTF layout serves the scenario: css.parent, memory and swap are there (the
	# fixture has no socket_pressure, so the direct workload).
	"$pcbench" layout show "btf:$tmp/pc-$v.o" --scenario page_counter --preset +ABC --workload direct >/dev/null 2>"$tmp/err" ||
		no "$v: btf:OBJ refused by page_counter: $(cat "$tmp/err")"

	# Without -E the nested structs are not followed: the error names the one to add.
	pahole -C mem_cgroup "$tmp/pc-$v.o" 2>/dev/null | "$pcbench" layout import - -o "$tmp/noe.layout" 2>"$tmp/err" ||
		no "$v: import without -E: $(cat "$tmp/err")"
	"$pcbench" -s page_counter --layout "$tmp/noe.layout" -t 1 --dry-run >/dev/null 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 2 ] && grep -q "css is struct cgroup_subsys_state, not expanded.*cgroup_subsys_state added to --struct" "$tmp/err"; then
		echo "ok: $v: without -E: $(cat "$tmp/err")"
	else
		no "$v: without -E: exit $rc, stderr: $(cat "$tmp/err")"
	fi
done

# ---- errors ----
expect2() {
	frag=$1
	shift
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 2 ] && grep -qF -- "$frag" "$tmp/err"; then
		echo "ok: $* -> 2: $(cat "$tmp/err")"
	else
		no "$*: exit $rc, want 2 with '$frag'; stderr: $(cat "$tmp/err")"
	fi
	[ -s "$tmp/out" ] && no "$*: wrote to stdout"
}
expect2 "needs --struct" "$pcbench" layout import --btf "$tmp/pc-v6.1.o"
expect2 "has no struct no_such_struct" "$pcbench" layout import --btf "$tmp/pc-v6.1.o" --struct no_such_struct
"$cc" -O0 -c "$fx/pahole/page_counter.c" -o "$tmp/nobtf.o"
expect2 "no .BTF section" "$pcbench" layout import --btf "$tmp/nobtf.o" --struct page_counter
expect2 "No such file" "$pcbench" layout import --btf "$tmp/none.o" --struct page_counter
expect2 "--btf reads BTF itself" "$pcbench" layout import --btf -E --struct page_counter

# ---- the running kernel ----
if [ -r /sys/kernel/btf/vmlinux ]; then
	"$pcbench" layout import --btf --struct mem_cgroup,page_counter -o "$tmp/host.layout" 2>"$tmp/err" ||
		no "host: import --btf: $(cat "$tmp/err")"
	grep -q "^desc BTF /sys/kernel/btf/vmlinux (kernel $(uname -r))" "$tmp/host.layout" ||
		no "host: desc does not name the kernel: $(grep '^desc' "$tmp/host.layout")"
	pahole -E -C mem_cgroup,page_counter /sys/kernel/btf/vmlinux 2>/dev/null >"$tmp/host-pe.txt"
	if [ -s "$tmp/host-pe.txt" ]; then
		"$pcbench" layout import --struct mem_cgroup,page_counter "$tmp/host-pe.txt" -o "$tmp/host-pe.layout" 2>"$tmp/err" ||
			no "host: import of pahole -E (typedef chains): $(cat "$tmp/err")"
		body "$tmp/host.layout" >"$tmp/a"
		body "$tmp/host-pe.layout" >"$tmp/b"
		cmp -s "$tmp/a" "$tmp/b" && echo "ok: host: --btf == pahole -E route ($(wc -l <"$tmp/a") lines, fingerprint $(fp "$tmp/host.layout"))" ||
			{ no "host: --btf and pahole -E differ:"; diff "$tmp/b" "$tmp/a" | head -20 | sed 's/^/    /'; }
	fi
	out=$tmp/run
	"$pcbench" -s page_counter -p +ABC -w direct --layout btf: -t 1 --time 0.02 -r 1 --out "$out" >/dev/null 2>"$tmp/err"
	rc=$?
	# 1: a measurement failed on a busy machine; the layout and context.json are still there.
	[ $rc -eq 0 ] || [ $rc -eq 1 ] || no "host: --layout btf: run exit $rc: $(cat "$tmp/err")"
	python3 - "$out/context.json" "$(uname -r)" <<'PY' || no "host: context.json does not record the BTF source"
import json, sys
c = json.load(open(sys.argv[1]))
l = c["options"]["layouts"][0]
assert l["source"] == "btf:/sys/kernel/btf/vmlinux", l
assert l["btf"] == {"path": "/sys/kernel/btf/vmlinux", "kernel_release": sys.argv[2]}, l
assert l["fingerprint"] and l["name"].startswith("btf-"), l
print("ok: host: context.json layouts:", l)
PY
	extra=$(block "$tmp/host.layout" page_counter | awk 'NR > 1 && $1 != "end" { print $1 }' |
		grep -vxE 'usage|min|low|high|max|emin|min_usage|children_min_usage|elow|low_usage|children_low_usage|watermark|failcnt|parent' | tr '\n' ' ')
	if [ -n "$extra" ]; then
		grep -q "note: layout btf-.*: struct page_counter fields the algorithm ignores" "$tmp/err" &&
			echo "ok: host: ignored fields named: $(grep note "$tmp/err")" ||
			no "host: page_counter has fields the algorithm ignores ($extra) but no note: $(cat "$tmp/err")"
	fi
else
	echo "skip: no /sys/kernel/btf/vmlinux here"
fi

# Hostile BTF (docs/layouts.md): the fuzz target's regression inputs (tests/fuzz/mkbtf.py
# made them: an out-of-range type id, structs that contain themselves or each other, an
# anonymous union cycle, pointer and typedef cycles, 24 levels of doubling nesting) and 400
# random 1-8 byte mutations of a real BTF: `layout import --btf` and `layout show btf:`
# exit 0 or 2 (a refusal names the file), never a signal or a hang. The regression inputs
# run through pcbench in every build. The mutations run in one process: in the Release
# build (make test-all, and make test's Release share: label release) through BTF_CMDS
# (tests/btf_cmds.c: fuzz_btf's two commands on each file, exit 0 or 2, a refusal names the
# file, 60 s at most); under ASan (make test-asan, PCBENCH_FUZZ_DIR) through fuzz_btf, which
# calls the same two commands on each input as a file (exit 0 or 2, else it aborts) and
# adds the in-memory route: a memory error, a leak or undefined behaviour fails, a hang
# over 60 s too (-timeout).
hostile() { # FILE
	for cmd in "layout import --btf $1 --struct page_counter" "layout show btf:$1"; do
		# shellcheck disable=SC2086 # the command's words
		timeout 60 "$pcbench" $cmd >/dev/null 2>"$tmp/err"
		rc=$?
		if [ $rc -ne 0 ] && { [ $rc -ne 2 ] || ! grep -q "$1" "$tmp/err"; }; then
			no "hostile BTF: pcbench $cmd: exit $rc: $(tail -n 2 "$tmp/err")"
			return
		fi
	done
}
nreg=0
for f in "$src"/tests/fuzz/corpus/btf/regression-*; do
	hostile "$f"
	nreg=$((nreg + 1))
done
[ $nreg -ge 7 ] || no "hostile BTF: only $nreg regression inputs"
mkdir "$tmp/mut"
python3 - "$src/tests/fuzz/corpus/btf/seed-page_counter-v6.0.btf" "$tmp/mut" <<'PY'
import random, sys
data = open(sys.argv[1], "rb").read()
rng = random.Random(25)
for i in range(400):
    b = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        b[rng.randrange(len(b))] = rng.randrange(256)
    open("%s/m%03d.btf" % (sys.argv[2], i), "wb").write(b)
PY
nmut=$(ls "$tmp/mut" | wc -l)
if [ -n "${PCBENCH_FUZZ_DIR:-}" ]; then
	# -close_fd_mask=3: the commands' output silenced, libFuzzer's and the sanitizers' kept
	"$PCBENCH_FUZZ_DIR/fuzz_btf" -close_fd_mask=3 -timeout=60 "$tmp"/mut/*.btf >"$tmp/fz" 2>&1
	rc=$?
	ran=$(grep -c '^Executed ' "$tmp/fz")
	[ $rc -eq 0 ] && [ "$ran" -eq "$nmut" ] ||
		no "hostile BTF: fuzz_btf: exit $rc, $ran of $nmut inputs run: $(grep -v '^Running: \|^Executed ' "$tmp/fz" | tail -n 30)"
	how="in fuzz_btf"
elif [ -n "${btfcmds:-}" ]; then
	"$btfcmds" "$tmp"/mut/*.btf >/dev/null 2>"$tmp/fz"
	rc=$?
	ran=$(sed -n 's/^ran \([0-9]*\) files$/\1/p' "$tmp/fz")
	[ $rc -eq 0 ] && [ "${ran:-0}" -eq "$nmut" ] ||
		no "hostile BTF: btf_cmds: exit $rc, ${ran:-not all} of $nmut inputs run: $(grep -v '^run ' "$tmp/fz" | tail -n 30; tail -n 1 "$tmp/fz")"
	how="in btf_cmds"
else
	for f in "$tmp"/mut/*.btf; do hostile "$f"; done
	how="through pcbench"
fi
echo "ok: hostile BTF: $nreg regression inputs and $nmut mutations ($how), no crash"

[ $fail -eq 0 ] && echo "layout_btf: all checks passed"
exit $fail
