# Thin wrapper over CMake. `make run` measures the default suite, `make test` runs ctest.
BUILD ?= build
JOBS  ?= $(shell nproc)
ARGS  ?=

.PHONY: all deps configure build run test overhead format clean

all: build

deps:
	@./scripts/install-deps

configure: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

run: build
	./$(BUILD)/pcbench $(ARGS)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The instrument-overhead benchmark (pcbench vs a compiled struct in a plain loop).
overhead: build
	./$(BUILD)/pcbench-overhead $(ARGS)

format:
	clang-format -i $$(git ls-files '*.c' '*.h' '*.cc')

clean:
	rm -rf $(BUILD)
