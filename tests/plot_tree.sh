#!/bin/sh
# plot_tree.sh PCBENCH SRCDIR - pcbench plot finds its gnuplot scripts wherever pcbench was
# built: the build tree is laid out as the install (CMakeLists.txt: bin/pcbench, the
# launcher; libexec/pcbench/pcbench; share/pcbench/scripts, a copy made by CMake), so a
# binary built out of the source tree (cmake -S src -B elsewhere: here a copy of those three
# far from the source) plots without PCBENCH_SCRIPTS; one with no scripts anywhere near
# exits 2 naming scaling.gp.
set -u
. "${0%/*}/preamble.sh"
bdir=$(cd "$(dirname "$pcbench")/.." && pwd)
[ -s "$bdir/share/pcbench/scripts/scaling.gp" ] || no "the build tree has no share/pcbench/scripts/scaling.gp"
command -v gnuplot >/dev/null || { echo "FAIL: no gnuplot (Debian package gnuplot-nox, install-deps --plot)"; exit 1; }

for d in elsewhere/build bare; do
	mkdir -p "$tmp/$d/libexec"
	cp -r "$bdir/bin" "$tmp/$d/bin"
	cp -r "$bdir/libexec/pcbench" "$tmp/$d/libexec/pcbench"
done
mkdir -p "$tmp/elsewhere/build/share/pcbench"
cp -r "$bdir/share/pcbench/scripts" "$tmp/elsewhere/build/share/pcbench/scripts"
(unset PCBENCH_SCRIPTS; cd / && "$tmp/elsewhere/build/bin/pcbench" plot "$src/tests/fixtures/compare/one" \
	-o "$tmp/png") >"$tmp/out" 2>&1 || { no "plot from an out-of-tree build"; cat "$tmp/out"; }
ls "$tmp/png"/*.png >/dev/null 2>&1 || no "no PNG from the out-of-tree build"

(unset PCBENCH_SCRIPTS; cd / && "$tmp/bare/bin/pcbench" plot "$src/tests/fixtures/compare/one" \
	-o "$tmp/png2") >"$tmp/out" 2>&1
rc=$?
[ $rc = 2 ] && grep -q 'scaling.gp' "$tmp/out" || { no "no scripts anywhere: exit $rc"; cat "$tmp/out"; }
[ $fail = 0 ] && echo "ok: plot finds its scripts from an out-of-tree build"
exit $fail
