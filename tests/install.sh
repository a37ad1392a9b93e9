#!/bin/sh
# install.sh SRCDIR BUILDDIR - make install and make package. 1) cmake --install into a
# DESTDIR: bin/pcbench (the launcher, static: no program interpreter) and
# libexec/pcbench/pcbench (the real binary it runs; the launcher alone, without it, exits 1
# naming its path), bin/pcbench-lab-run and bin/pcbench-slurm-submit (their help, man
# pages, helpers found from bin/), share/pcbench/scripts (gnuplot and lab scripts), the man
# pages (pcbench(1), pcbench-CMD(1) for every command), the bash completion; the installed
# binary, run from elsewhere with no source tree in reach,
# prints --version and --list, measures, and plots (it finds its gnuplot scripts in
# ../../share/pcbench/scripts). 2) the completion script completes commands and options and
# lists every option of pcbench help --options. 3) CPack's .deb and .rpm list both binaries,
# the man pages and the completion; lintian is clean on the .deb, its name is Debian's, the .rpm
# has a vendor, summary and description; the .deb unpacked into a scratch root runs the same way.
set -u
src=$1
build=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
unset PCBENCH_SCRIPTS
export PCBENCH_NOISE_MAX=off # no timing judgement in tests (as tests/CMakeLists.txt sets)

# runs_here ROOT - the installed pcbench under ROOT: version, list, a tiny run, a plot.
runs_here() {
	bin=$1/usr/bin/pcbench
	(
		cd "$tmp" || exit 1
		"$bin" --version | grep -q "^pcbench " || { echo "FAIL: $1: --version"; exit 1; }
		"$bin" --list | grep -q "^page_counter" || { echo "FAIL: $1: --list"; exit 1; }
		"$bin" -s page_counter -p v6.0-rc1 -w direct -t 1 -r 2 --time 0.02 --events none \
			-o "$tmp/run-$(basename "$1")" >/dev/null 2>&1
		[ $? -le 1 ] || { echo "FAIL: $1: the installed pcbench did not run"; exit 1; }
		if command -v gnuplot >/dev/null 2>&1; then
			"$bin" plot "$tmp/run-$(basename "$1")" >"$tmp/plot.out" 2>&1 ||
				{ echo "FAIL: $1: plot"; cat "$tmp/plot.out"; exit 1; }
			ls "$tmp/run-$(basename "$1")"/*.png >/dev/null 2>&1 ||
				{ echo "FAIL: $1: plot wrote no PNG"; exit 1; }
		fi
	) || fail=1
}

# 1) make install into a DESTDIR.
DESTDIR="$tmp/root" cmake --install "$build" --prefix /usr >"$tmp/install.out" 2>&1 ||
	{ echo "FAIL: cmake --install"; cat "$tmp/install.out"; exit 1; }
for f in usr/bin/pcbench usr/libexec/pcbench/pcbench usr/share/pcbench/scripts/scaling.gp usr/share/pcbench/scripts/lab-run \
	usr/share/pcbench/scripts/install-deps usr/share/pcbench/scripts/slurm/pcbench.sbatch \
	usr/share/man/man1/pcbench.1.gz usr/share/bash-completion/completions/pcbench \
	usr/bin/pcbench-lab-run usr/bin/pcbench-slurm-submit \
	usr/share/man/man1/pcbench-lab-run.1.gz usr/share/man/man1/pcbench-slurm-submit.1.gz \
	usr/share/doc/pcbench/copyright usr/share/doc/pcbench/changelog.gz; do
	[ -s "$tmp/root/$f" ] || { echo "FAIL: install: no $f"; fail=1; }
done
# the lab commands: their help, their pages, and their helpers found from bin/
for c in lab-run slurm-submit; do
	"$tmp/root/usr/bin/pcbench-$c" --help 2>&1 | grep -q "pcbench-$c" ||
		{ echo "FAIL: pcbench-$c --help does not name it"; fail=1; }
	zcat "$tmp/root/usr/share/man/man1/pcbench-$c.1.gz" | grep -q "^\.TH PCBENCH-$(echo $c | tr a-z A-Z)" ||
		{ echo "FAIL: no man page of pcbench-$c"; fail=1; }
done
mkdir "$tmp/fakebin" # a stand-in sbatch: what the installed command submits
printf '#!/bin/sh\necho "sbatch $*" >>"%s"\necho 1\n' "$tmp/sbatch.log" >"$tmp/fakebin/sbatch"
chmod +x "$tmp/fakebin/sbatch"
PATH="$tmp/fakebin:$PATH" "$tmp/root/usr/bin/pcbench-slurm-submit" -n 1 -o "$tmp/sl" >"$tmp/sl.out" 2>&1
grep -q "usr/bin/../share/pcbench/scripts/slurm/pcbench.sbatch" "$tmp/sbatch.log" 2>/dev/null ||
	{ echo "FAIL: the installed pcbench-slurm-submit does not find its job scripts"; cat "$tmp/sl.out"; fail=1; }
zcat "$tmp/root/usr/share/man/man1/pcbench.1.gz" | grep -q '^\.TH PCBENCH' ||
	{ echo "FAIL: the man page is not from help2man"; fail=1; }
# a man page per command of the command table (tests/manpages.sh checks what they say)
cmd_pages=$("$build/pcbench" help --commands | cut -f 1 | sed 's|^|/usr/share/man/man1/pcbench-|; s|$|.1.gz|')
for f in $cmd_pages; do
	zcat "$tmp/root$f" 2>/dev/null | grep -q "^\.TH PCBENCH-" || { echo "FAIL: install: no $f"; fail=1; }
done
runs_here "$tmp/root"
readelf -l "$tmp/root/usr/bin/pcbench" | grep -q 'program interpreter' &&
	{ echo "FAIL: bin/pcbench, the launcher, is not static"; fail=1; }
mkdir "$tmp/alone"
cp "$tmp/root/usr/bin/pcbench" "$tmp/alone/pcbench"
"$tmp/alone/pcbench" --version >"$tmp/alone.out" 2>&1
rc=$?
[ $rc = 1 ] && grep -qx "pcbench: cannot run $(cd "$tmp/alone" && pwd -P)/../libexec/pcbench/pcbench: No such file or directory" \
	"$tmp/alone.out" || { echo "FAIL: the launcher without its binary: exit $rc"; cat "$tmp/alone.out"; fail=1; }

# 2) the completion script.
comp=$tmp/root/usr/share/bash-completion/completions/pcbench
complete_words() { # complete_words WORD... : what completing the last word offers
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _pcbench
		printf "%s\n" "${COMPREPLY[@]}"' sh "$comp" "$@"
}
[ "$(complete_words pcbench mer)" = merge ] || { echo "FAIL: completion: pcbench mer"; fail=1; }
complete_words pcbench merge --o | grep -qx -- --out || { echo "FAIL: completion: merge --o"; fail=1; }
complete_words pcbench --lab | grep -qx -- --label || { echo "FAIL: completion: --lab"; fail=1; }
# values: scenarios, workloads after a comma, formats, placements, PMUs, presets, metrics,
# events, sub-commands
for want in "page_counter|pcbench -s pa" "page_fault1,tcp|pcbench -s kernel -w page_fault1,t" \
	"lkp|pcbench compare r --format l" "scatter|pcbench -P sc" "record|pcbench hitm rec" \
	"show|pcbench layout sh" "kernel|pcbench compare r --by k" "spr|pcbench --pmu sp" \
	"v6.0-rc1|pcbench -p v6.0-r" "ops_per_s,ns_per_op|pcbench compare r -m ops_per_s,ns_p" \
	"report|pcbench hitm rep" "import|pcbench layout im" "cycles|pcbench --events cyc"; do
	# shellcheck disable=SC2086
	complete_words ${want#*|} | grep -qx -- "${want%%|*}" ||
		{ echo "FAIL: completion: ${want#*|} does not offer ${want%%|*}"; fail=1; }
done
"$build/pcbench" help --options | cut -f 3 | sort -u >"$tmp/opts"
# each option as a word of the script: between a blank or a quote on either side
awk 'NR == FNR { c = c $0 "\n"; next }
	!(index(c, " " $0 " ") || index(c, " " $0 "\"") || index(c, "\"" $0 " ") || index(c, "\"" $0 "\"")) {
		print "FAIL: completion lacks " $0; bad = 1 }
	END { exit bad }' "$comp" "$tmp/opts" || fail=1

# 3) the packages.
for t in cpack rpmbuild lintian; do # a missing tool is a failure (scripts/install-deps)
	command -v $t >/dev/null 2>&1 || { echo "FAIL: packages: no $t (scripts/install-deps brings it)"; exit 1; }
done
# (ctest runs on a built tree: CPACK_CMAKE_GENERATOR=Ninja, a generator without the
# Makefiles' preinstall target, spares cpack a make pass over every target per package
# format, 2/3 of its time; the same files are packaged, the same install scripts run. make
# package, as the Makefile says, runs cpack as it is.)
cpack --config "$build/CPackConfig.cmake" -D CPACK_CMAKE_GENERATOR=Ninja -B "$tmp/pkg" \
	-G "DEB;RPM" >"$tmp/cpack.out" 2>&1 ||
	{ echo "FAIL: cpack"; cat "$tmp/cpack.out"; exit 1; }
deb=$(ls "$tmp/pkg"/*.deb) rpm=$(ls "$tmp/pkg"/*.rpm) ||
	{ echo "FAIL: no .deb or .rpm"; ls "$tmp/pkg"; exit 1; }
dpkg-deb -c "$deb" | awk '{ print $6 }' >"$tmp/deb.list"
rpm -qlp "$rpm" >"$tmp/rpm.list" 2>/dev/null
for f in /usr/bin/pcbench /usr/libexec/pcbench/pcbench /usr/share/man/man1/pcbench.1.gz /usr/share/bash-completion/completions/pcbench \
	/usr/share/pcbench/scripts/scaling.gp $cmd_pages; do
	grep -qx "\.$f" "$tmp/deb.list" || { echo "FAIL: .deb lacks $f"; fail=1; }
	grep -qx "$f" "$tmp/rpm.list" || { echo "FAIL: .rpm lacks $f"; fail=1; }
done
for lib in libhwloc libgsl; do
	dpkg-deb -f "$deb" Depends | grep -q $lib || { echo "FAIL: .deb Depends lacks $lib"; fail=1; }
done
# Debian's file name, lintian clean (errors and warnings), the .rpm's own fields
[ "$(basename "$deb")" = "pcbench_$(dpkg-deb -f "$deb" Version)_$(dpkg --print-architecture).deb" ] ||
	{ echo "FAIL: .deb name $(basename "$deb") is not Debian's"; fail=1; }
mkdir "$tmp/lintian" # its scratch files (mldbm-elf-*, left behind) in $tmp, not in /tmp
TMPDIR=$tmp/lintian lintian "$deb" >"$tmp/lintian.out" 2>&1
grep '^[EW]: ' "$tmp/lintian.out" && { echo "FAIL: lintian reports the lines above"; fail=1; }
for field in Vendor Summary Description; do
	rpm -qp --qf "%{$field}" "$rpm" 2>/dev/null | grep -q '[a-z]' || { echo "FAIL: .rpm has no $field"; fail=1; }
done
dpkg-deb -x "$deb" "$tmp/debroot" || { echo "FAIL: dpkg-deb -x"; fail=1; }
runs_here "$tmp/debroot"
[ $fail -eq 0 ] && echo "install: ok ($(basename "$deb"), $(basename "$rpm"))"
exit $fail
