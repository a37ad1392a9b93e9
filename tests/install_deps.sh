#!/bin/sh
# install_deps.sh SRCDIR - scripts/install-deps against fixture os-release files (Debian 12,
# Ubuntu 24.04, Fedora 41, Rocky 9, an unknown one, a hostile one) through PCBENCH_SYSROOT, with stub
# dpkg-query/rpm (nothing installed) and stub apt-get/dnf/id on PATH that log what would
# run: the exact install commands, runtime and full, and the CRB/EPEL notes on Rocky.
# os-release is read as data: the hostile fixture's $(...), `...` run nothing.
set -u
src=$1
deps=$src/scripts/install-deps
fx=$src/tests/fixtures/os-release
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
mkdir "$tmp/bin"
for t in dpkg-query rpm; do printf '#!/bin/sh\nexit 1\n' >"$tmp/bin/$t"; done
for t in apt-get dnf; do printf '#!/bin/sh\necho "%s $*" >>"$LOG"\n' "$t" >"$tmp/bin/$t"; done
printf '#!/bin/sh\necho 0\n' >"$tmp/bin/id"
chmod +x "$tmp/bin/"*
export LOG="$tmp/log"
PATH="$tmp/bin:$PATH"

expect() { # expect NAME WANT GOT
	[ "$2" = "$3" ] || { printf 'FAIL: %s\n want: %s\n got:  %s\n' "$1" "$2" "$3"; fail=1; }
}
apt_rt="apt-get install -y --no-install-recommends cmake make ninja-build gcc g++ libc6-dev pkg-config git libbenchmark-dev hwloc libhwloc-dev libpfm4-dev libjansson-dev libbpf-dev libgsl-dev"
dnf_rt="dnf install -y cmake make ninja-build gcc gcc-c++ glibc-static pkgconf-pkg-config git google-benchmark-devel hwloc hwloc-devel libpfm-devel jansson-devel libbpf-devel gsl-devel"
apt_full="$apt_rt gnuplot-nox dwarves clang libclang-rt-dev lld linux-perf parallel openssh-server openssh-client rpm help2man man-db bash-completion slurm-wlm munge libbenchmark-tools python3-scipy rsync lintian iproute2 qemu-system-x86 qemu-system-arm cpio dropbear-bin"
dnf_full="$dnf_rt gnuplot dwarves clang compiler-rt lld perf parallel openssh-server openssh-clients rpm-build help2man man-db bash-completion slurm-slurmctld slurm-slurmd munge python3-scipy rsync lintian iproute qemu-system-x86 qemu-system-aarch64 cpio dropbear"

for os in debian12 ubuntu2404; do
	expect "$os --runtime --print" "$apt_rt" "$(PCBENCH_SYSROOT=$fx/$os $deps --runtime --print)"
	expect "$os --print" "$apt_full" "$(PCBENCH_SYSROOT=$fx/$os $deps --print)"
	expect "$os --runtime --plot --print" "$apt_rt gnuplot-nox" \
		"$(PCBENCH_SYSROOT=$fx/$os $deps --runtime --plot --print)"
done
expect "debian12 --vm --print" "apt-get install -y --no-install-recommends qemu-system-x86 qemu-system-arm cpio dropbear-bin" \
	"$(PCBENCH_SYSROOT=$fx/debian12 $deps --vm --print)"
expect "fedora41 --runtime --print" "$dnf_rt" \
	"$(PCBENCH_SYSROOT=$fx/fedora41 $deps --runtime --print)"
expect "fedora41 --print" "$dnf_full" "$(PCBENCH_SYSROOT=$fx/fedora41 $deps --print)"
expect "rocky9 --runtime --print" "# needs CRB: dnf config-manager --set-enabled crb
# needs EPEL: dnf install -y epel-release
$dnf_rt" "$(PCBENCH_SYSROOT=$fx/rocky9 $deps --runtime --print)"

# As root (stub id): the commands that run.
rm -f "$LOG"
PCBENCH_SYSROOT=$fx/debian12 $deps --runtime 2>/dev/null || { echo "FAIL: debian12 install"; fail=1; }
expect "debian12 install" "apt-get update -qq
apt-get install -y -qq --no-install-recommends ${apt_rt#apt-get install -y --no-install-recommends }" "$(cat "$LOG")"
rm -f "$LOG"
PCBENCH_SYSROOT=$fx/rocky9 $deps --runtime >/dev/null 2>&1 || { echo "FAIL: rocky9 install"; fail=1; }
expect "rocky9 install" "dnf config-manager --set-enabled crb
dnf install -y epel-release
$dnf_rt" "$(cat "$LOG")"

# --no-install only checks: exit 1, nothing run.
rm -f "$LOG"
PCBENCH_SYSROOT=$fx/fedora41 $deps --no-install --runtime 2>"$tmp/err"
expect "--no-install exit" 1 $?
[ ! -e "$LOG" ] || { echo "FAIL: --no-install ran $(cat "$LOG")"; fail=1; }
grep -q "missing dnf packages: cmake" "$tmp/err" || { echo "FAIL: --no-install message"; fail=1; }

# A hostile os-release (command substitutions in ID_LIKE and PRETTY_NAME): read as data,
# nothing runs; ID=debian still chooses apt.
(cd "$tmp" && PCBENCH_SYSROOT=$fx/hostile $deps --runtime --print >"$tmp/out" 2>&1)
expect "hostile os-release" "$apt_rt" "$(cat "$tmp/out")"
ls "$tmp" | grep -q pwned && { echo "FAIL: os-release was executed: $(ls "$tmp")"; fail=1; }

# Everything installed: silent, exit 0.
printf '#!/bin/sh\necho "install ok installed"\n' >"$tmp/bin/dpkg-query"
out=$(PCBENCH_SYSROOT=$fx/debian12 $deps 2>&1)
expect "all installed: exit" 0 $?
expect "all installed: output" "" "$out"

# An unknown distribution: exit 2 and the list of what is needed.
PCBENCH_SYSROOT=$fx/unknown $deps --runtime >/dev/null 2>"$tmp/err"
expect "unknown exit" 2 $?
grep -q "unknown distribution \"Plan 9 from Bell Labs\"" "$tmp/err" &&
	grep -q "libhwloc-dev" "$tmp/err" || { echo "FAIL: unknown message"; cat "$tmp/err"; fail=1; }
$deps --bogus >/dev/null 2>&1
expect "bad option exit" 2 $?

# --cross arm64 (stub dpkg: no foreign architecture yet): the architecture added, the cross
# compilers and the lib rows as :arm64, GSL's runtime libraries, its -dev package unpacked.
printf '#!/bin/sh\nexit 0\n' >"$tmp/bin/dpkg"
printf '#!/bin/sh\nexit 1\n' >"$tmp/bin/dpkg-query"
chmod +x "$tmp/bin/dpkg" "$tmp/bin/dpkg-query"
croot=$tmp/cross
expect "debian12 --cross arm64 --print" "dpkg --add-architecture arm64
apt-get update
apt-get install -y --no-install-recommends crossbuild-essential-arm64 libbenchmark-dev:arm64 libhwloc-dev:arm64 libpfm4-dev:arm64 libjansson-dev:arm64 libbpf-dev:arm64 libgsl27:arm64 libgslcblas0:arm64
# unpack libgsl-dev:arm64 into $croot/arm64/libgsl-dev (apt-get download, dpkg-deb -x), its .pc in $croot/arm64/pkgconfig" \
	"$(PCBENCH_CROSS_ROOT=$croot PCBENCH_SYSROOT=$fx/debian12 $deps --cross arm64 --print)"
PCBENCH_SYSROOT=$fx/fedora41 $deps --cross arm64 --print >/dev/null 2>&1
expect "fedora41 --cross: exit" 2 $?
$deps --cross armhf --print >/dev/null 2>&1
expect "--cross armhf: exit" 2 $?

# Every "install-deps --OPTION" that a test, a doc or a script tells its reader to run is an
# option of install-deps --help (a test once said --test, another --dev: neither exists).
$deps --help >"$tmp/help" 2>&1
grep -rhoI -e 'install-deps --[a-z][a-z-]*' "$src/tests" "$src/docs" "$src/scripts" \
	"$src/README.md" "$src/Makefile" | sed 's/.* //' | sort -u >"$tmp/named"
[ -s "$tmp/named" ] || { echo "FAIL: no install-deps option named anywhere"; fail=1; }
while read -r opt; do
	[ "$opt" = --help ] || grep -Eq "(^|[[ ])$opt([] ]|\$)" "$tmp/help" ||
		{ echo "FAIL: install-deps $opt is named but is not an option"; fail=1; }
done <"$tmp/named"

[ $fail -eq 0 ] && echo "install_deps: ok"
exit $fail
