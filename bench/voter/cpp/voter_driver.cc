// The Voter driver in C++ (bench/voter/README.md, "C++ driver"): calls Vote
// against running servers (async from one thread, or sync from many), prints
// a progress line every display interval and a final report, checks that
// the database holds exactly the votes it saw accepted, and optionally
// writes the result as JSON. The same options, report and JSON fields as the
// Java driver (org.partita.bench.voter.driver.VoterDriver).
//
// Exit codes: 0 consistent; 1 the consistency check failed; 2 bad options;
// 3 the run could not start or finish (no server, Initialize or the final
// reads failed, the JSON file could not be written).
#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <string>

#include "consistency.h"
#include "latencies.h"
#include "outcomes.h"
#include "partita/client/client.h"
#include "split_random.h"
#include "standings.h"
#include "text_format.h"
#include "ticker.h"
#include "vote_generator.h"
#include "vote_load.h"
#include "voter_options.h"
#include "voter_report.h"

namespace partita::bench::voter {
namespace {

constexpr int kExitInconsistent = 1;
constexpr int kExitBadOptions = 2;
constexpr int kExitCannotRun = 3;
constexpr const char* kNames[] = {"Edwina Burnam", "Tabatha Gehling", "Kelly Clauss",
                                  "Jessie Alloway", "Alana Bregman",  "Jessie Eichman"};

using Clock = std::chrono::steady_clock;

// The names Initialize loads: six classic ones, then "Contestant 7", "Contestant 8", ...
std::string Names(int64_t count) {
  std::string names;
  for (int64_t i = 0; i < count; ++i) {
    names += i == 0 ? "" : ",";
    names += i < 6 ? std::string(kNames[i]) : "Contestant " + std::to_string(i + 1);
  }
  return names;
}

std::string JoinServers(const std::vector<std::string>& servers) {
  std::string s;
  for (size_t i = 0; i < servers.size(); ++i) s += (i == 0 ? "" : ",") + servers[i];
  return s;
}

// The number of partitions of the database, on one server or a cluster (@SystemCatalog PARTITIONS: a row per
// partition of the map), or 0 when unknown. (@Statistics PARTITION would count only the asked host's copies.)
int64_t PartitionCount(client::Client& client) {
  const client::Result<client::Response> r = client.Call("@SystemCatalog", {"PARTITIONS"});
  if (!r.ok() || !r->ok() || r->results.empty()) return 0;
  return static_cast<int64_t>(r->results[0].row_count());
}

Clock::duration Seconds(double s) { return std::chrono::nanoseconds(static_cast<int64_t>(s * 1e9)); }

// Prints the progress line of each display interval.
class Progress {
 public:
  Progress(Latencies* latencies, double interval_s)
      : latencies_(latencies), ticker_(Seconds(interval_s), [this] { Print(); }) {}

  void Phase(const char* name) { phase_.store(name); }
  void Stop() { ticker_.Stop(); }

 private:
  void Print() {
    const Clock::time_point now = Clock::now();
    const LatencySummary s = latencies_->TakeInterval();
    const double seconds = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    std::printf("voter: %7.1f s %-8s %s calls/s  p50 %7.3f ms  p99 %7.3f ms\n",
                std::chrono::duration<double>(now - start_).count(), phase_.load(),
                PadLeft(GroupedFixed(static_cast<double>(s.count) / seconds, 0), 10).c_str(), s.p50_ms, s.p99_ms);
    std::fflush(stdout);
  }

  Latencies* latencies_;
  const Clock::time_point start_ = Clock::now();
  Clock::time_point last_ = start_;  // the ticker's thread only
  std::atomic<const char*> phase_{"warm-up"};
  Ticker ticker_;  // last: starts ticking once the rest is ready
};

VoterReport::Counts CountsOf(const Outcomes& o) {
  return {o.Accepted(), o.over_limit(), o.invalid(), o.failed()};
}

int Run(const VoterOptions& options) {
  client::ClientConfig config;
  config.client_name = "voter-driver";
  config.call_timeout = std::chrono::seconds(30);
  client::Client client(config);
  for (const std::string& server : options.servers) {
    if (client::Status s = client.Connect(server); !s.ok()) {
      std::cerr << "voter: cannot start: cannot connect to " << server << ": " << s.ToString() << "\n";
      return kExitCannotRun;
    }
  }
  const client::Result<client::Response> init =
      client.Call("Initialize", {options.contestants, Names(options.contestants)});
  if (!init.ok() || !init->ok() || init->results.empty() || init->results[0].row_count() < 1) {
    std::cerr << "voter: cannot start: Initialize: " << (init.ok() ? init->ToString() : init.status().ToString())
              << "\n";
    return kExitCannotRun;
  }
  if (const int64_t had = init->results[0].GetInt64(0, 0); had != options.contestants) {
    std::printf("voter: note: the database already had %lld contestant(s); votes for others are invalid\n",
                static_cast<long long>(had));
  }
  Standings before;
  if (std::string error = Standings::Read(client, &before); !error.empty()) {
    std::cerr << "voter: cannot start: " << error << "\n";
    return kExitCannotRun;
  }

  VoterReport report;
  VoterReport::Settings& s = report.settings;
  s.mode = options.mode;
  s.threads = options.async() ? 1 : options.threads;
  s.ratelimit = options.ratelimit;
  s.servers = JoinServers(options.servers);
  s.partitions = PartitionCount(client);
  s.warmup_s = options.warmup_s;
  s.contestants = options.contestants;
  s.maxvotes = options.maxvotes;
  s.description = (options.async() ? std::string("async") : "sync, " + std::to_string(options.threads) + " threads") +
                  " " + (options.ratelimit == 0 ? "firehose" : Grouped(options.ratelimit) + " calls/s") +
                  " against " + s.servers + " (" + std::to_string(s.partitions) + " partition(s))";
  std::printf("voter: %s, warm-up %s s, then %s s measured\n", s.description.c_str(), Fixed(options.warmup_s, 1).c_str(),
              Fixed(options.duration_s, 1).c_str());
  std::fflush(stdout);

  Latencies latencies;
  const auto seed = static_cast<int64_t>(Clock::now().time_since_epoch().count());
  VoteGenerator generator(static_cast<int>(options.contestants), SplitRandom(seed));
  VoteLoad load(&client, &latencies, &generator,
                {options.async(), options.threads, options.ratelimit, options.maxvotes});
  Outcomes warm(static_cast<int>(options.contestants));
  Outcomes measured(static_cast<int>(options.contestants));
  {
    Progress progress(&latencies, options.display_interval_s);
    load.Run(Clock::now() + Seconds(options.warmup_s), &warm);
    latencies.StartMeasuring();
    progress.Phase("run");
    const Clock::time_point start = Clock::now();
    load.Run(start + Seconds(options.duration_s), &measured);
    report.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    latencies.StopMeasuring();
    progress.Stop();
  }
  report.latency = latencies.Measured();
  report.measured = CountsOf(measured);
  if (std::string error = Standings::Read(client, &report.standings); !error.empty()) {
    std::cerr << "voter: cannot read the standings: " << error << "\n";
    return kExitCannotRun;
  }
  report.consistency = Consistency::Check(before, report.standings, {&warm, &measured});
  std::fputs(report.Text().c_str(), stdout);
  std::fflush(stdout);
  if (!options.json.empty()) {
    if (std::string error = report.Json().WriteFile(options.json); !error.empty()) {
      std::cerr << "voter: " << error << "\n";
      return kExitCannotRun;
    }
  }
  return report.consistency.consistent ? 0 : kExitInconsistent;
}

}  // namespace
}  // namespace partita::bench::voter

int main(int argc, char** argv) {
  using partita::bench::ParseOutcome;
  partita::bench::voter::VoterOptions options;
  const ParseOutcome outcome = partita::bench::voter::VoterOptions::Parse(argc, argv, &options);
  if (outcome.kind == ParseOutcome::Kind::kHelp) {
    std::fputs(outcome.message.c_str(), stdout);
    return 0;
  }
  if (outcome.kind == ParseOutcome::Kind::kError) {
    std::cerr << "voter_driver: " << outcome.message << "\n";
    return partita::bench::voter::kExitBadOptions;
  }
  return partita::bench::voter::Run(options);
}
