// SPDX-License-Identifier: MIT
// gbshim.cc - the only C++ in pcbench: registration of C families with Google Benchmark.
#include <benchmark/benchmark.h>

#include <vector>

#include "gbshim.h"

namespace
{

// pcbench writes its own CSV and progress lines; Google Benchmark's console report stays
// silent (its file reporter, --benchmark_out, still gets every run).
class SilentReporter : public benchmark::BenchmarkReporter
{
      public:
	bool ReportContext(const Context &) override
	{
		return true;
	}
	void ReportRuns(const std::vector<Run> &) override {}
};

} // namespace

extern "C" int gbshim_init(int *argc, char **argv)
{
	benchmark::Initialize(argc, argv);
	return benchmark::ReportUnrecognizedArguments(*argc, argv) ? 1 : 0;
}

// run_one - one repetition of one family on this thread. Thread 0 reports ns/op as the
// iteration's manual time and the others add 0: Google Benchmark sums manual time over the
// threads, divides it by the thread count and reports it per iteration, and a
// ->Threads(t)->Iterations(1) run counts t iterations, hence the factor t * t. Ops go in as
// items processed and ns/op as a user counter (counters are summed over threads, and only
// thread 0 sets them).
static void run_one(benchmark::State &state, void *arg, int threads,
		    void (*thread_fn)(void *, int, struct gb_result *))
{
	struct gb_result r = {};
	double items = 0;

	for (auto _ : state) {
		thread_fn(arg, state.thread_index(), &r);
		if (state.thread_index() == 0 && r.valid && r.ok) {
			state.SetIterationTime(r.ns_per_op * 1e-9 * threads * threads);
			items = r.ops;
		} else {
			state.SetIterationTime(0);
		}
	}
	if (state.thread_index() != 0)
		return;
	// A repetition after the run stopped (signal, failed write) measured nothing: an error
	// run, which Google Benchmark leaves out of its statistics over the repetitions (with
	// hundreds of empty ones left in, ComputeStats crashed in libbenchmark 1.7.1).
	if (!r.valid) {
		state.SkipWithError("stopped");
		return;
	}
	if (!r.ok) {
		state.SkipWithError(r.reason ? r.reason : "failed");
		return;
	}
	state.SetItemsProcessed(static_cast<int64_t>(items));
	state.counters["ns_per_op"] = r.ns_per_op;
}

extern "C" void gbshim_run(const struct gb_family *fams, int n, int repetitions,
			   void (*thread_fn)(void *arg, int thread_index, struct gb_result *))
{
	for (int i = 0; i < n; i++) {
		void *arg = fams[i].arg;
		int threads = fams[i].threads;

		benchmark::RegisterBenchmark(fams[i].name,
					     [arg, threads, thread_fn](benchmark::State &state) {
						     run_one(state, arg, threads, thread_fn);
					     })
		    ->Threads(threads)
		    ->UseManualTime()
		    ->Unit(benchmark::kNanosecond)
		    ->Repetitions(repetitions)
		    ->Iterations(1);
	}
	SilentReporter reporter;
	benchmark::RunSpecifiedBenchmarks(&reporter);
	benchmark::ClearRegisteredBenchmarks();
}
