// The KV driver in C++ (bench/kv/README.md, "C++ driver"): preloads keys,
// runs Gets and Puts against Partita servers for a warm-up and a measured
// window, prints progress and a report, and verifies at the end that sampled
// keys hold the last value it wrote. The same options, keys, values,
// verification, report and JSON fields as the Java driver
// (org.partita.bench.kv.KvDriver).
//
// Exit code: 0 consistent; 1 a key did not hold the last value written, or
// the run could not complete; 2 bad options.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <optional>
#include <string>

#include "key_chooser.h"
#include "key_space.h"
#include "kv_load.h"
#include "kv_operations.h"
#include "kv_options.h"
#include "kv_report.h"
#include "measurements.h"
#include "partita/client/client.h"
#include "partition_pauses.h"
#include "preloader.h"
#include "text_format.h"
#include "ticker.h"
#include "value_factory.h"
#include "verifier.h"
#include "write_log.h"

namespace partita::bench::kv {
namespace {

constexpr int kExitFailed = 1;
constexpr int kExitBadOptions = 2;
// Keys whose last write was answered this close to the end are all verified.
constexpr std::chrono::seconds kRecent{1};

using Clock = std::chrono::steady_clock;

Clock::duration Seconds(double s) { return std::chrono::nanoseconds(static_cast<int64_t>(s * 1e9)); }

// One line per display interval while the load runs: time since the load
// began, the phase, the interval's throughput and p50/p99 latency.
class ProgressPrinter {
 public:
  ProgressPrinter(Measurements* measurements, double interval_s)
      : measurements_(measurements), ticker_(Seconds(interval_s), [this] { Tick(); }) {}

  // Prints what completed since the last line, then opens the measured window.
  void OpenWindow() {
    std::lock_guard<std::mutex> lock(mu_);
    Print(measurements_->OpenWindow());
    phase_ = "measure";
  }

  // Closes the measured window, prints its last partial interval and returns its totals.
  Measurements::WindowStats CloseWindow() {
    std::lock_guard<std::mutex> lock(mu_);
    const Measurements::WindowStats window = measurements_->CloseWindow();
    Print(window.last_interval);
    phase_ = "done";
    return window;
  }

  void Stop() { ticker_.Stop(); }

 private:
  void Tick() {
    std::lock_guard<std::mutex> lock(mu_);
    if (std::string(phase_) != "done") Print(measurements_->Interval());
  }

  void Print(const Measurements::IntervalStats& s) {
    const Clock::time_point now = Clock::now();
    const double seconds = std::max(std::chrono::duration<double>(now - last_).count(), 1e-9);
    last_ = now;
    std::printf("kv: %7.1f s %-7s %s ops/s  p50 %7.3f ms  p99 %7.3f ms  gets %s puts %s failed %s\n",
                std::chrono::duration<double>(now - start_).count(), phase_,
                PadLeft(GroupedFixed(static_cast<double>(s.operations()) / seconds, 0), 11).c_str(), s.p50_ms,
                s.p99_ms, Grouped(static_cast<int64_t>(s.gets)).c_str(), Grouped(static_cast<int64_t>(s.puts)).c_str(),
                Grouped(static_cast<int64_t>(s.failed)).c_str());
    std::fflush(stdout);
  }

  Measurements* measurements_;
  std::mutex mu_;
  const Clock::time_point start_ = Clock::now();
  Clock::time_point last_ = start_;  // guarded by mu_
  const char* phase_ = "warmup";     // guarded by mu_
  Ticker ticker_;                    // last: starts ticking once the rest is ready
};

std::string Join(const std::vector<std::string>& items) {
  std::string s;
  for (size_t i = 0; i < items.size(); ++i) s += (i == 0 ? "" : ",") + items[i];
  return s;
}

// Each key's partition, as the client routes its Put.
std::vector<int> PartitionOfEachKey(const client::Client& client, const KeySpace& keys) {
  std::vector<int> partitions(keys.count());
  for (int k = 0; k < keys.count(); ++k) partitions[k] = client.PartitionOf(KvOperations::kPut, {keys.Key(k)});
  return partitions;
}

int Run(const KvOptions& o) {
  const KeySpace keys(o.preload, o.key_size);
  const ValueFactory values(o.value_size, o.seed);
  WriteLog writes(keys.count());
  std::atomic<int64_t> sequence{0};
  client::ClientConfig config;
  config.client_name = "kv-driver";
  if (!o.async() && o.ratelimit > 0) config.rate_limit_per_second = static_cast<uint64_t>(o.ratelimit);
  client::Client client(config);
  for (const std::string& server : o.servers) {
    if (client::Status s = client.Connect(server); !s.ok()) {
      std::cerr << "kv: cannot connect to " << server << ": " << s.ToString() << "\n";
      return kExitFailed;
    }
  }
  std::printf("kv: connected to %s; preloading %s keys\n", Join(o.servers).c_str(), Grouped(keys.count()).c_str());
  std::fflush(stdout);
  if (std::string error = Preloader(&client, &keys, &values, &writes, &sequence).Run(o.display_interval_s);
      !error.empty()) {
    std::cerr << "kv: " << error << "\n";
    return kExitFailed;
  }

  Measurements measurements;
  const KeyChooser chooser(o.keys, keys.count());
  std::optional<PartitionPauses> pauses;
  if (o.partition_pauses == "report") pauses.emplace(PartitionOfEachKey(client, keys), Clock::now());
  KvOperations operations({&client, &keys, &chooser, &values, &writes, &measurements, &sequence,
                           pauses ? &*pauses : nullptr},
                          o.get_ratio);
  KvLoad load(&client, &operations, o.async(), o.threads, o.ratelimit, o.seed);
  std::printf("kv: %s%s, %.0f%% gets, %s keys, %.1f s warm-up then %.1f s measured\n", o.mode.c_str(),
              o.async() ? "" : (" with " + std::to_string(o.threads) + " threads").c_str(), o.get_ratio * 100,
              o.keys.c_str(), o.warmup_s, o.duration_s);
  std::fflush(stdout);
  KvReport report;
  report.options = o;
  {
    ProgressPrinter progress(&measurements, o.display_interval_s);
    if (o.warmup_s > 0) load.RunUntil(Clock::now() + Seconds(o.warmup_s));
    progress.OpenWindow();
    load.RunUntil(Clock::now() + Seconds(o.duration_s));
    report.window = progress.CloseWindow();
    progress.Stop();
  }
  load.Drain();
  const Clock::time_point end = Clock::now();
  std::printf("kv: verifying a sample of %s keys and every key written in the last second\n",
              Grouped(std::min<int64_t>(o.verify_sample, keys.count())).c_str());
  std::fflush(stdout);
  const int64_t recent_since =
      std::chrono::duration_cast<std::chrono::nanoseconds>((end - kRecent).time_since_epoch()).count();
  report.verification = Verifier(&client, &keys, &values, &writes).Verify(o.verify_sample, recent_since, o.seed);
  report.first_failure = operations.FirstFailure();
  report.failures = operations.FailureCounts();
  if (pauses) report.pauses = pauses->Lines();
  std::fputs(report.Text().c_str(), stdout);
  if (!o.json.empty()) {
    if (std::string error = report.Json().WriteFile(o.json); !error.empty()) {
      std::cerr << "kv: " << error << "\n";
      return kExitFailed;
    }
    std::printf("kv: wrote %s\n", o.json.c_str());
  }
  std::fflush(stdout);
  return report.consistent() ? 0 : kExitFailed;
}

}  // namespace
}  // namespace partita::bench::kv

int main(int argc, char** argv) {
  using partita::bench::ParseOutcome;
  partita::bench::kv::KvOptions options;
  const ParseOutcome outcome = partita::bench::kv::KvOptions::Parse(argc, argv, &options);
  if (outcome.kind == ParseOutcome::Kind::kHelp) {
    std::fputs(outcome.message.c_str(), stdout);
    return 0;
  }
  if (outcome.kind == ParseOutcome::Kind::kError) {
    std::cerr << "kv_driver: " << outcome.message << "\n";
    return partita::bench::kv::kExitBadOptions;
  }
  return partita::bench::kv::Run(options);
}
