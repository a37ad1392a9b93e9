# Thin wrapper over CMake. `make run` measures the default suite, `make test` runs ctest.
BUILD ?= build
JOBS  ?= $(shell nproc)
ARGS  ?=

.PHONY: all deps deps-runtime deps-run configure build cross-arm64 install package run test test-lab test-asan test-tsan fuzz-smoke overhead format clean

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

# make cross-arm64: pcbench for arm64 in build-arm64/ (Debian or Ubuntu: the cross compilers
# and the :arm64 libraries, scripts/install-deps --cross arm64), with the toolchain file
# cmake/aarch64-linux-gnu.cmake. Its man pages and completion come from the host build's
# pcbench (never from running the arm64 binary). docs/lab.md: running it on an arm64 host.
cross-arm64: build
	@./scripts/install-deps --cross arm64
	@cmake -S . -B build-arm64 -DCMAKE_BUILD_TYPE=Release \
		-DCMAKE_TOOLCHAIN_FILE=$(CURDIR)/cmake/aarch64-linux-gnu.cmake \
		-DPCBENCH_HOST_PCBENCH=$(abspath $(BUILD))/pcbench >/dev/null
	@cmake --build build-arm64 -j $(JOBS)

# make install PREFIX=/usr/local [DESTDIR=/scratch/root]: bin/pcbench, share/pcbench/scripts,
# the man page and bash completion (cmake --install honours DESTDIR from the environment).
PREFIX ?= /usr/local
install: build
	DESTDIR=$(DESTDIR) cmake --install $(BUILD) --prefix $(PREFIX)

# make package: $(BUILD)/pcbench-<version>-<arch>.deb and .rpm through CPack.
package: build
	cd $(BUILD) && cpack -G "DEB;RPM"

# The run prints its verdict tables and writes its full report (compare.txt, ...) into its
# run directory; then, with gnuplot, the plots of the run it just made (also when some
# measurement failed, or a comparison got no verdict, exit 5: the report flags it). The run says which directory it made through
# --run-dir-file, so `make run ARGS='-o DIR'` plots DIR. The build is quiet unless it fails
# (its log: $(BUILD)/build.log). make's status is the run's.
run: deps-run configure
	@cmake --build $(BUILD) -j $(JOBS) >$(BUILD)/build.log 2>&1 || \
		{ cat $(BUILD)/build.log; echo "make run: the build failed ($(BUILD)/build.log)"; exit 1; }
	@tmp=$$(mktemp); status=0; ./$(BUILD)/pcbench --run-dir-file "$$tmp" $(ARGS) || status=$$?; \
	dir=$$(cat "$$tmp"); rm -f "$$tmp"; \
	if { [ $$status -le 1 ] || [ $$status -eq 5 ]; } && [ -n "$$dir" ]; then \
		if ! command -v gnuplot >/dev/null 2>&1; then \
			echo "pcbench plot: gnuplot is not installed, no plots (apt-get install gnuplot-nox)"; \
		else out=$$(./$(BUILD)/pcbench plot "$$dir"); ps=$$?; \
			if [ $$ps -eq 0 ] || [ $$ps -eq 4 ]; then \
				echo "plots: $$(printf '%s\n' "$$out" | grep -c '^wrote ') PNGs in $$dir"; \
			else printf '%s\n' "$$out"; fi; \
		fi; \
	fi; exit $$status

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
