// SPDX-License-Identifier: MIT
// gbshim.cc - the only C++ in pcbench: registration of C families with Google Benchmark.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <sstream>
#include <memory>
#include <string>
#include <vector>

#include "gbshim.h"

namespace
{

// --benchmark_out=FILE: Google Benchmark's report of every run so far, in the format of
// --benchmark_out_format. pcbench writes FILE itself (outfile: a temp file and a rename,
// its path checked before measuring); Google Benchmark never gets the flag, so it never
// opens the path. The console reporter pcbench hands it stays silent and keeps every run
// (the display reporter gets the same runs as a file reporter would).
std::string out_format;
bool out_set = false;
std::vector<benchmark::BenchmarkReporter::Run> out_runs;
size_t out_name_width = 10;
std::string shim_error; // what a C++ exception said (gbshim_error)

// new_csv_reporter - what --benchmark_out_format=csv uses (deprecated in 1.7.1, still there).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
benchmark::BenchmarkReporter *new_csv_reporter()
{
	return new benchmark::CSVReporter;
}
#pragma GCC diagnostic pop

// pcbench writes its own CSV and progress lines; Google Benchmark's console report stays
// silent. With --benchmark_out it keeps the runs for gbshim_out_text.
class SilentReporter : public benchmark::BenchmarkReporter
{
      public:
	bool ReportContext(const Context &c) override
	{
		if (c.name_field_width > out_name_width)
			out_name_width = c.name_field_width;
		return true;
	}
	void ReportRuns(const std::vector<Run> &runs) override
	{
		if (out_set)
			out_runs.insert(out_runs.end(), runs.begin(), runs.end());
	}
};

} // namespace

extern "C" int gbshim_init(int *argc, char **argv)
{
	try {
		benchmark::Initialize(argc, argv);
		return benchmark::ReportUnrecognizedArguments(*argc, argv) ? 1 : 0;
	} catch (const std::exception &e) {
		shim_error = e.what();
		return -1;
	}
}

extern "C" void gbshim_out_begin(const char *format)
{
	out_set = true;
	out_format = format ? format : "json";
}

extern "C" char *gbshim_out_text(size_t *len)
{
	try {
		std::unique_ptr<benchmark::BenchmarkReporter> inner;
		benchmark::BenchmarkReporter::Context ctx;
		std::ostringstream text;

		if (out_format == "csv")
			inner.reset(new_csv_reporter());
		else if (out_format == "console")
			inner.reset(
			    new benchmark::ConsoleReporter(benchmark::ConsoleReporter::OO_None));
		else
			inner.reset(new benchmark::JSONReporter);
		inner->SetOutputStream(&text);
		inner->SetErrorStream(&text);
		ctx.name_field_width = out_name_width;
		inner->ReportContext(ctx);
		inner->ReportRuns(out_runs);
		inner->Finalize();
		const std::string &t = text.str();
		char *buf = static_cast<char *>(malloc(t.size() + 1));

		if (!buf)
			throw std::bad_alloc();
		memcpy(buf, t.data(), t.size() + 1);
		*len = t.size();
		return buf;
	} catch (const std::exception &e) {
		shim_error = e.what();
		return nullptr;
	}
}

extern "C" const char *gbshim_error(void)
{
	return shim_error.c_str();
}

// run_one - one repetition of one family on this thread. Thread 0 reports ns/op as the
// iteration's manual time and the others add 0: Google Benchmark sums manual time over the
// threads, divides it by the thread count and reports it per iteration, and a
// ->Threads(t)->Iterations(1) run counts t iterations, hence the factor t * t. ops/s and
// ns/op are user counters (summed over threads, and only thread 0 sets them). ops/s is set
// as a plain value, results.csv's ops_per_s: SetItemsProcessed(ops) would be divided by the
// run's manual time, t * ns/op, not by the window's duration (6.2e12 for 1.1e7 ops/s).
static void run_one(benchmark::State &state, void *arg, int threads,
		    void (*thread_fn)(void *, int, struct gb_result *))
{
	struct gb_result r = {};

	for (auto _ : state) {
		thread_fn(arg, state.thread_index(), &r);
		if (state.thread_index() == 0 && r.valid && r.ok) {
			state.SetIterationTime(r.ns_per_op * 1e-9 * threads * threads);
		} else {
			state.SetIterationTime(0);
		}
	}
	if (state.thread_index() != 0)
		return;
	// A repetition after the run stopped (signal, failed write) measured nothing: an error
	// run, as is a failed or disturbed window.
	if (!r.valid) {
		state.SkipWithError("stopped");
		return;
	}
	if (!r.ok) {
		state.SkipWithError(r.reason ? r.reason : "failed");
		return;
	}
	state.counters["items_per_second"] = r.ops_per_s;
	state.counters["ns_per_op"] = r.ns_per_op;
}

// gbshim_run - each repetition of a family is a benchmark of its own, registered under the
// family's name with ->Repetitions(1), so Google Benchmark computes no statistics over
// repetitions (pcbench compare does). With ->Repetitions(r), libbenchmark 1.7.1's
// ComputeStats iterates over `*reports[0].statistics`, which its run report sets only for a
// run without an error: a family whose first repetition was an error (a failed or disturbed
// window) and two later ones were not dereferenced a null pointer (SIGSEGV after every row
// was written; tests/soak.c). Registered in family order; Google Benchmark's random
// interleaving (on unless --benchmark_enable_random_interleaving=false) shuffles them.
static void run_all(const struct gb_family *fams, int n, int repetitions,
		    void (*thread_fn)(void *arg, int thread_index, struct gb_result *))
{
	for (int i = 0; i < n; i++) {
		void *arg = fams[i].arg;
		int threads = fams[i].threads;

		for (int rep = 0; rep < repetitions; rep++)
			benchmark::RegisterBenchmark(
			    fams[i].name,
			    [arg, threads, thread_fn](benchmark::State &state) {
				    run_one(state, arg, threads, thread_fn);
			    })
			    ->Threads(threads)
			    ->UseManualTime()
			    ->Unit(benchmark::kNanosecond)
			    ->Repetitions(1)
			    ->Iterations(1);
	}
	SilentReporter reporter;
	benchmark::RunSpecifiedBenchmarks(&reporter);
	benchmark::ClearRegisteredBenchmarks();
}

// gbshim_run - run_all, with every C++ exception caught here: none crosses into C (an
// uncaught one was std::terminate, SIGABRT, context.json without its end).
extern "C" int gbshim_run(const struct gb_family *fams, int n, int repetitions,
			  void (*thread_fn)(void *arg, int thread_index, struct gb_result *))
{
	try {
		run_all(fams, n, repetitions, thread_fn);
		return 0;
	} catch (const std::exception &e) {
		shim_error = e.what();
	} catch (...) {
		shim_error = "an exception of an unknown type";
	}
	try {
		benchmark::ClearRegisteredBenchmarks();
	} catch (...) {
	}
	return -1;
}
