// SPDX-License-Identifier: MIT
// gbshim.cc - the only C++ in pcbench: registration of C families with Google Benchmark.
#include <benchmark/benchmark.h>

#include <pthread.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <sstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "gbshim.h"
extern "C" {
#include "results.h"
}

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

// The family whose threads Google Benchmark is starting: set by each of its threads as it
// enters run_one (before the start barrier), cleared when a run is reported. Failing that
// (no thread of it started), the one family registered and not yet reported. failed_arg
// names it to on_terminate and gbshim_failed_arg.
std::atomic<void *> starting{nullptr};
std::vector<std::pair<std::string, void *>> unreported; // (name, arg) per registered run
void (*terminate_fn)(void *arg, const char *why);

// Setup slots: each registered run's Setup is one of NSLOTS distinct functions, so the one
// that finds its threads cannot start knows which families it may be (slot_args[slot]).
constexpr int NSLOTS = 64;
std::vector<void *> slot_args[NSLOTS];
void *setup_arg; // the family whose Setup found its threads cannot start, when known

bool is_unreported(void *arg)
{
	for (const auto &u : unreported)
		if (u.second == arg)
			return true;
	return false;
}

void *failed_arg()
{
	void *arg = starting.load();

	if (arg)
		return arg;
	if (setup_arg)
		return setup_arg;
	for (const auto &u : unreported) {
		if (arg && u.second != arg)
			return nullptr; // two families left: which one failed is not known
		arg = u.second;
	}
	return arg;
}

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
		starting = nullptr;
		for (const Run &r : runs)
			for (auto u = unreported.begin(); u != unreported.end(); ++u)
				if (u->first == r.run_name.function_name) {
					unreported.erase(u);
					break;
				}
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

static void *probe_main(void *p)
{
	return p;
}

// setup_probe - Setup of a run (Google Benchmark calls it on the main thread, before it
// starts the run's threads): start threads() - 1 threads as std::thread would (default
// attributes), all at once, and end them. If one cannot start, throw: the exception leaves
// RunSpecifiedBenchmarks before Google Benchmark has a thread of its own. Letting it find
// out itself was std::terminate (1.7.1 keeps the threads started in a vector member) or, when
// the first thread already waits at the start barrier, a hang in pthread_cond_destroy (the
// barrier's destructor during the unwinding).
static void setup_probe(int slot, const benchmark::State &state)
{
	int n = state.threads() - 1, made = 0, e = 0;
	std::vector<pthread_t> t(n > 0 ? n : 0);

	while (made < n && !(e = pthread_create(&t[made], nullptr, probe_main, nullptr)))
		made++;
	for (int i = 0; i < made; i++)
		pthread_join(t[i], nullptr);
	if (!e)
		return;
	setup_arg = nullptr; // this slot's family not yet run, if only one
	for (void *a : slot_args[slot])
		if (is_unreported(a)) {
			if (setup_arg && setup_arg != a) {
				setup_arg = nullptr;
				break;
			}
			setup_arg = a;
		}
	throw std::runtime_error("cannot start " + std::to_string(n + 1) + " threads: thread " +
				 std::to_string(made + 2) + ": " + strerror(e) +
				 " (a resource limit?)");
}

template <int N> void setup_slot(const benchmark::State &state)
{
	setup_probe(N, state);
}

template <int... N>
constexpr std::array<void (*)(const benchmark::State &), sizeof...(N)>
make_slots(std::integer_sequence<int, N...>)
{
	return {setup_slot<N>...};
}

const std::array<void (*)(const benchmark::State &), NSLOTS> setup_slots =
    make_slots(std::make_integer_sequence<int, NSLOTS>{});

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

	starting = arg;
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
	state.counters[results_cols[COL_NS_PER_OP]] = r.ns_per_op;
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
	int slot = 0;

	for (int i = 0; i < n; i++) {
		void *arg = fams[i].arg;
		int threads = fams[i].threads;

		for (int rep = 0; rep < repetitions; rep++)
			unreported.emplace_back(fams[i].name, arg);
		for (int rep = 0; rep < repetitions; rep++, slot = (slot + 1) % NSLOTS) {
			slot_args[slot].push_back(arg);
			benchmark::RegisterBenchmark(
			    fams[i].name,
			    [arg, threads, thread_fn](benchmark::State &state) {
				    run_one(state, arg, threads, thread_fn);
			    })
			    ->Threads(threads)
			    ->UseManualTime()
			    ->Unit(benchmark::kNanosecond)
			    ->Repetitions(1)
			    ->Iterations(1)
			    ->Setup(setup_slots[slot]);
		}
	}
	SilentReporter reporter;
	benchmark::RunSpecifiedBenchmarks(&reporter);
	benchmark::ClearRegisteredBenchmarks();
}

// on_terminate - std::terminate inside gbshim_run, should a run's threads fail to start
// although its Setup's probe started them (the memory went in between): Google Benchmark
// 1.7.1 keeps the threads it started in a vector member, and a joinable one there is
// std::terminate, not an exception the shim could catch. The run ends through terminate_fn
// instead (an error row naming the family and why, context.json ended, exit 1). The family
// is the one whose first thread started: wait for it to reach run_one (it does at once; a
// second at most, then the failure is told without a family).
static void on_terminate()
{
	std::string why = "std::terminate in Google Benchmark";
	void *arg;
	pthread_t t;
	int e;

	try {
		std::exception_ptr p = std::current_exception();

		if (p)
			std::rethrow_exception(p);
	} catch (const std::exception &ex) {
		why = ex.what();
	} catch (...) {
	}
	// what a thread gets now, as Google Benchmark's did
	e = pthread_create(&t, nullptr, probe_main, nullptr);
	if (e)
		why = std::string("a thread could not be started: ") + strerror(e) +
		      " (a resource limit?)";
	else
		pthread_join(t, nullptr);
	for (int i = 0; !starting.load() && i < 1000; i++)
		usleep(1000);
	arg = failed_arg();
	if (terminate_fn)
		terminate_fn(arg, why.c_str());
	std::abort();
}

extern "C" void gbshim_on_terminate(void (*fn)(void *arg, const char *why))
{
	terminate_fn = fn;
}

extern "C" void *gbshim_failed_arg(void)
{
	return failed_arg();
}

// gbshim_run - run_all, with every C++ exception caught here: none crosses into C (an
// uncaught one was std::terminate, SIGABRT, context.json without its end).
extern "C" int gbshim_run(const struct gb_family *fams, int n, int repetitions,
			  void (*thread_fn)(void *arg, int thread_index, struct gb_result *))
{
	std::terminate_handler before = std::set_terminate(on_terminate);

	starting = nullptr;
	setup_arg = nullptr;
	unreported.clear();
	for (auto &a : slot_args)
		a.clear();
	try {
		run_all(fams, n, repetitions, thread_fn);
		std::set_terminate(before);
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
	std::set_terminate(before);
	return -1;
}
