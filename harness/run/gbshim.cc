// SPDX-License-Identifier: MIT
// gbshim.cc - the only C++ in pcbench: registration of C families with Google Benchmark.
#include <benchmark/benchmark.h>

#include <vector>

#include "gbshim.h"

namespace
{

// pcbench writes its own CSV and progress lines; Google Benchmark's report stays silent.
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

extern "C" void gbshim_run(const struct gb_family *fams, int n, int repetitions,
			   void (*thread_fn)(void *arg, int thread_index))
{
	for (int i = 0; i < n; i++) {
		void *arg = fams[i].arg;

		benchmark::RegisterBenchmark(fams[i].name,
					     [arg, thread_fn](benchmark::State &state) {
						     for (auto _ : state)
							     thread_fn(arg, state.thread_index());
					     })
		    ->Threads(fams[i].threads)
		    ->UseRealTime()
		    ->Repetitions(repetitions)
		    ->Iterations(1);
	}
	SilentReporter reporter;
	benchmark::RunSpecifiedBenchmarks(&reporter);
	benchmark::ClearRegisteredBenchmarks();
}
