#!/bin/sh
# plot_tree.sh PCBENCH SRCDIR - pcbench plot finds its gnuplot scripts wherever pcbench was
# built: the build tree has a copy (BUILD/scripts, made by CMake), so a binary built out of
# the source tree (cmake -S src -B elsewhere: here a copy of the binary with that build
# tree's scripts/ beside it, far from the source) plots without PCBENCH_SCRIPTS; a binary
# with no scripts anywhere near exits 2 naming scaling.gp.
set -u
. "${0%/*}/preamble.sh"
bdir=$(dirname "$pcbench")
[ -s "$bdir/scripts/scaling.gp" ] || no "the build tree has no scripts/scaling.gp"
command -v gnuplot >/dev/null || { echo "FAIL: no gnuplot (Debian package gnuplot-nox, install-deps --plot)"; exit 1; }

mkdir -p "$tmp/elsewhere/build"
cp "$pcbench" "$tmp/elsewhere/build/pcbench"
cp -r "$bdir/scripts" "$tmp/elsewhere/build/scripts"
(unset PCBENCH_SCRIPTS; cd / && "$tmp/elsewhere/build/pcbench" plot "$src/tests/fixtures/compare/one" \
	-o "$tmp/png") >"$tmp/out" 2>&1 || { no "plot from an out-of-tree build"; cat "$tmp/out"; }
ls "$tmp/png"/*.png >/dev/null 2>&1 || no "no PNG from the out-of-tree build"

mkdir "$tmp/bare"
cp "$pcbench" "$tmp/bare/pcbench"
(unset PCBENCH_SCRIPTS; cd / && "$tmp/bare/pcbench" plot "$src/tests/fixtures/compare/one" \
	-o "$tmp/png2") >"$tmp/out" 2>&1
rc=$?
[ $rc = 2 ] && grep -q 'scaling.gp' "$tmp/out" || { no "no scripts anywhere: exit $rc"; cat "$tmp/out"; }
[ $fail = 0 ] && echo "ok: plot finds its scripts from an out-of-tree build"
exit $fail
