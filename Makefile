# Thin wrapper over CMake. `make run` measures the default suite, `make test` runs the tests.
BUILD ?= build
JOBS  ?= $(shell nproc)
ARGS  ?=

.PHONY: all deps deps-runtime deps-run configure build cross-arm64-configure cross-arm64 install package run test test-all test-lab test-release asan-build tsan-build test-asan test-tsan fuzz-smoke overhead format clean

all: build

# deps: everything (tests, fuzzing, packages); deps-runtime: building and running only.
deps:
	@./scripts/install-deps

deps-runtime:
	@./scripts/install-deps --runtime

# make run: the runtime packages and gnuplot (its plots).
deps-run:
	@./scripts/install-deps --runtime --plot

# Ninja builds (ninja-build, a runtime package of install-deps): less overhead per file than
# make's recursion. A build directory configured before with another generator keeps it.
generator = $(if $(wildcard $(1)/CMakeCache.txt),,-G Ninja)

configure: deps-runtime
	@cmake -S . -B $(BUILD) $(call generator,$(BUILD)) -DCMAKE_BUILD_TYPE=Release >/dev/null

# BUILD_TARGET: what build, asan-build and tsan-build build (empty: everything); make test
# builds ci-programs, the programs its tests run in that build (CMakeLists.txt).
BUILD_TARGET ?=
build_target = $(if $(BUILD_TARGET),--target $(BUILD_TARGET))

build: configure
	@cmake --build $(BUILD) -j $(JOBS) $(build_target)

# make cross-arm64: pcbench for arm64 in build-arm64/ (Debian or Ubuntu: the cross compilers
# and the :arm64 libraries, scripts/install-deps --cross arm64), with the toolchain file
# cmake/aarch64-linux-gnu.cmake. Its man pages and completion come from the host build's
# pcbench (never from running the arm64 binary). docs/lab.md: running it on an arm64 host.
# cross-arm64-configure: the packages and build-arm64's configuration only (make test: its
# vm_arm64 test builds the pcbench target there and boots it in an arm64 guest).
cross-arm64-configure: build
	@./scripts/install-deps --cross arm64
	@cmake -S . -B build-arm64 $(call generator,build-arm64) -DCMAKE_BUILD_TYPE=Release \
		-DCMAKE_TOOLCHAIN_FILE=$(CURDIR)/cmake/aarch64-linux-gnu.cmake \
		-DPCBENCH_HOST_PCBENCH=$(abspath $(BUILD))/pcbench >/dev/null

cross-arm64: cross-arm64-configure
	@cmake --build build-arm64 -j $(JOBS)

# make install PREFIX=/usr/local [DESTDIR=/scratch/root]: bin/pcbench (the launcher),
# libexec/pcbench/pcbench (the real binary), share/pcbench/scripts,
# the man page and bash completion (cmake --install honours DESTDIR from the environment).
PREFIX ?= /usr/local
install: build
	DESTDIR=$(DESTDIR) cmake --install $(BUILD) --prefix $(PREFIX)

# make package: $(BUILD)/pcbench-<version>-<arch>.deb and .rpm through CPack.
package: build
	cd $(BUILD) && cpack -G "DEB;RPM"

# The run prints its verdict tables and writes its full report (compare.txt, ...) into its
# run directory; then scripts/make-run plots it with gnuplot (also when some measurement
# failed, or a comparison got no verdict). make run ARGS='-o DIR' plots DIR. The build is
# quiet unless it fails (its log: $(BUILD)/build.log). make's status is the run's, except
# pcbench's 5 (every measurement ended, some comparison without a verdict: its last line
# says how long to run for one), which is 0 here; 1 to 4 fail.
run: deps-run configure
	@cmake --build $(BUILD) -j $(JOBS) >$(BUILD)/build.log 2>&1 || \
		{ cat $(BUILD)/build.log; echo "make run: the build failed ($(BUILD)/build.log)"; exit 1; }
	@./scripts/make-run ./$(BUILD)/pcbench $(ARGS)

# The tests, by ctest label (tests/CMakeLists.txt sets the labels):
#   make test        what .ci/run runs: every test once, in the build where it checks most:
#                    the three builds, then one ctest over their label ci (build-ci/)
#   make test-all    every test, every label, Release build: lab (ssh fan-out on loopback, Slurm,
#                    install-deps, install and packages), script (checks of the tree's text:
#                    layering, man pages, docs), threads, signals, soak, slow, vm (QEMU guests)
#   make test-lab    label lab only
#   make test-release the Release build's share of make test: labels lab, script, soak, slow,
#                    vm, and release (tests a sanitizer build skips in whole or in part)
#   make test-asan   ASan+UBSan's share (build-asan): every test that drives C code (not lab,
#                    script, soak, slow, vm), and the fuzz targets
#   make test-tsan   TSan's share (build-tsan): the tests that start threads or stop a run with
#                    a signal (labels threads, signals; not soak, slow, vm)
#   make fuzz-smoke  every libFuzzer target for FUZZ_SECONDS (build-asan), JOBS at a time
# Label ci marks each build's share (tests/CMakeLists.txt, the one place that says which
# build runs what). A test skips (77) only for missing hardware or privileges, a missing
# command is a failure; tests/skips.sh prints each skip's reason. Tests run in parallel
# (ctest -j; the long ones start first, by their COST; RESOURCE_LOCK where two share a port
# or a daemon, RUN_SERIAL for those that load every CPU or check CPU time). deps is a
# prerequisite of each: one make invocation installs or checks the packages once (.ci/run
# is `make test`). make test, test-all and test-release also configure the arm64 cross
# build (cross-arm64-configure, Debian and Ubuntu), whose pcbench the vm_arm64 test builds
# and boots in an arm64 guest.
# No test may hang CI: one that runs longer than this fails (seconds, per test).
TEST_TIMEOUT ?= 900
# Each libFuzzer target's time (seconds; scripts/fuzz-smoke).
FUZZ_SECONDS ?= 5
CTEST = FUZZ_SECONDS=$(FUZZ_SECONDS) ctest --output-on-failure --timeout $(TEST_TIMEOUT) -j $(JOBS)
# ctest's result, then each skip's reason (tests/skips.sh).
CTEST_DONE = rc=$$?; sh $(CURDIR)/tests/skips.sh; exit $$rc

test-all: deps build cross-arm64-configure
	cd $(BUILD) && { $(CTEST); $(CTEST_DONE); }

test-lab: deps build
	cd $(BUILD) && { $(CTEST) -L lab; $(CTEST_DONE); }

test-release: deps build cross-arm64-configure
	cd $(BUILD) && { $(CTEST) -L '^ci$$'; $(CTEST_DONE); }

# The ASan+UBSan build is clang's with the libFuzzer targets (-DPCBENCH_FUZZ=ON), so that
# the C tests and the fuzz targets share one build; TSan's is gcc's, as the Release build.
asan-build: deps
	@CC=clang CXX=clang++ cmake -S . -B build-asan $(call generator,build-asan) \
		-DCMAKE_BUILD_TYPE=RelWithDebInfo -DPCBENCH_FUZZ=ON \
		-DPCBENCH_SANITIZE=address,undefined >/dev/null
	@cmake --build build-asan -j $(JOBS) $(build_target)

tsan-build: deps
	@cmake -S . -B build-tsan $(call generator,build-tsan) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DPCBENCH_SANITIZE=thread >/dev/null
	@cmake --build build-tsan -j $(JOBS) $(build_target)

# (The sanitizers' options are the tests' environment: tests/CMakeLists.txt.)
test-asan: asan-build
	cd build-asan && { $(CTEST) -L '^ci$$'; $(CTEST_DONE); }

test-tsan: tsan-build
	cd build-tsan && { $(CTEST) -L '^ci$$'; $(CTEST_DONE); }

fuzz-smoke: asan-build
	cd build-asan && { $(CTEST) --timeout $$(($(FUZZ_SECONDS) + 300)) -L '^fuzz$$'; $(CTEST_DONE); }

# make test (what .ci/run runs): the three builds one after the other, each only the programs
# its share of the tests runs (target ci-programs), then one ctest over the three shares
# (label ci), each test renamed NAME@release, NAME@asan or NAME@tsan (tests/ci.cmake writes
# build-ci/CTestTestfile.cmake): one scheduler keeps both CPUs busy to the end, where three
# ctest runs in turn would each wait for its last long test.
test: BUILD_TARGET = ci-programs
test: deps build cross-arm64-configure asan-build tsan-build
	@cmake -DOUT=build-ci -DBUILDS="release=$(BUILD);asan=build-asan;tsan=build-tsan" \
		-P tests/ci.cmake >/dev/null
	cd build-ci && { $(CTEST); $(CTEST_DONE); }

# The instrument-overhead benchmark (pcbench vs a compiled struct in a plain loop).
overhead: build
	./$(BUILD)/pcbench-overhead $(ARGS)

format:
	clang-format -i $$(git ls-files '*.c' '*.h' '*.cc')

clean:
	rm -rf $(BUILD) build-asan build-tsan build-arm64 build-ci
