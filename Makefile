# Thin wrapper over CMake. `make run` measures the default suite, `make test` runs ctest.
BUILD ?= build
JOBS  ?= $(shell nproc)
ARGS  ?=

.PHONY: all deps deps-runtime deps-run configure build install package run test test-lab test-asan test-tsan fuzz-smoke overhead format clean

all: build

# deps: everything (tests, fuzzing, packages); deps-runtime: building and running only.
deps:
	@./scripts/install-deps

deps-runtime:
	@./scripts/install-deps --runtime

# make run: the runtime packages and gnuplot (its plots).
deps-run:
	@./scripts/install-deps --runtime --plot

configure: deps-runtime
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

# make install PREFIX=/usr/local [DESTDIR=/scratch/root]: bin/pcbench, share/pcbench/scripts,
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

# Every ctest test, the lab ones included (label "lab": ssh fan-out on loopback, Slurm,
# install-deps, install and packages). A test skips (77) only for missing hardware or
# privileges, a missing command is a failure; tests/skips.sh prints each skip's reason.
# test-lab runs only those; the sanitizer builds leave them out (they test scripts).
# No test may hang CI: one that runs longer than this fails (seconds, per test).
TEST_TIMEOUT ?= 900

test: deps build
	cd $(BUILD) && { ctest --output-on-failure --timeout $(TEST_TIMEOUT) -j $(JOBS); rc=$$?; \
		sh $(CURDIR)/tests/skips.sh; exit $$rc; }

test-lab: deps build
	cd $(BUILD) && { ctest --output-on-failure --timeout $(TEST_TIMEOUT) -L lab; rc=$$?; \
		sh $(CURDIR)/tests/skips.sh; exit $$rc; }

# The whole ctest suite under ASan+UBSan, and under TSan (separate build directories).
test-asan: deps
	@cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DPCBENCH_SANITIZE=address,undefined >/dev/null
	@cmake --build build-asan -j $(JOBS)
	cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest --output-on-failure \
		--timeout $(TEST_TIMEOUT) -j $(JOBS) -LE "lab|slow|soak|vm"; rc=$$?; sh $(CURDIR)/tests/skips.sh; \
		exit $$rc

test-tsan: deps
	@cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPCBENCH_SANITIZE=thread >/dev/null
	@cmake --build build-tsan -j $(JOBS)
	cd build-tsan && TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 \
		suppressions=$(CURDIR)/tests/tsan.supp" ctest --output-on-failure --timeout $(TEST_TIMEOUT) -j $(JOBS) -LE "lab|slow|soak|vm"

# Every libFuzzer target for 20 s (FUZZ_SECONDS) under ASan+UBSan, built with clang.
FUZZ_SECONDS ?= 20
fuzz-smoke: deps
	@CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DPCBENCH_FUZZ=ON -DPCBENCH_SANITIZE=address,undefined >/dev/null
	@cmake --build build-fuzz -j $(JOBS) --target fuzz_layout fuzz_pahole fuzz_recipe \
		fuzz_lists fuzz_csv fuzz_param fuzz_btf
	./scripts/fuzz-smoke build-fuzz $(FUZZ_SECONDS)

# The instrument-overhead benchmark (pcbench vs a compiled struct in a plain loop).
overhead: build
	./$(BUILD)/pcbench-overhead $(ARGS)

format:
	clang-format -i $$(git ls-files '*.c' '*.h' '*.cc')

clean:
	rm -rf $(BUILD) build-asan build-tsan build-fuzz
