#include "vote_load.h"

#include <thread>
#include <vector>

#include "pacer.h"

namespace partita::bench::voter {
namespace {

// Vote's answer code, or -1 when the answer holds no single number.
int64_t AnswerCode(const client::Response& response) {
  if (response.results.empty()) return -1;
  const client::ResultTable& t = response.results[0];
  if (t.row_count() < 1 || t.column_count() < 1 || t.IsNull(0, 0)) return -1;
  switch (t.column_type(0)) {
    case client::ValueType::kTinyInt:
    case client::ValueType::kSmallInt:
    case client::ValueType::kInteger:
    case client::ValueType::kBigInt:
      return t.GetInt64(0, 0);
    default:
      return -1;
  }
}

// Where answers are counted: one pointer, so that a callback capturing it and
// the contestant fits std::function's inline storage (no allocation per call).
struct Sinks {
  Outcomes* outcomes;
  Latencies* latencies;
};

// The firehose reads the clock for its end only once per this many calls:
// the client's two reads per call (sent, answered) time each call.
constexpr uint64_t kCallsPerEndCheck = 64;

// Counts one answer into `outcomes` and the latency the client measured into `latencies`.
void Count(const client::Result<client::Response>& result, int contestant, const Sinks& sinks) {
  if (!result.ok()) {
    sinks.outcomes->RecordFailure();
    return;
  }
  sinks.latencies->Record(result->round_trip_nanos);
  if (result->ok()) {
    sinks.outcomes->RecordAnswer(contestant, AnswerCode(*result));
  } else {
    sinks.outcomes->RecordFailure();
  }
}

}  // namespace

VoteLoad::VoteLoad(client::Client* client, Latencies* latencies, VoteGenerator* generator, Shape shape)
    : client_(client), latencies_(latencies), generator_(generator), shape_(shape) {}

void VoteLoad::Run(Clock::time_point end, Outcomes* outcomes) {
  if (shape_.async) {
    RunAsync(end, outcomes);
  } else {
    RunSync(end, outcomes);
  }
}

void VoteLoad::RunAsync(Clock::time_point end, Outcomes* outcomes) {
  Pacer pacer(static_cast<double>(shape_.rate));
  const Sinks sinks{outcomes, latencies_};
  const Sinks* to = &sinks;  // outlives the calls: Drain() below waits for every answer
  for (uint64_t n = 0; (n % kCallsPerEndCheck != 0 && !pacer.paced()) || Clock::now() < end; ++n) {
    pacer.AwaitNext();
    generator_->Next();
    const int contestant = generator_->contestant();
    client_->CallAsync("Vote", {generator_->phone(), contestant, shape_.max_votes},
                       [contestant, to](client::Result<client::Response> r) { Count(r, contestant, *to); });
  }
  client_->Drain();
}

void VoteLoad::RunSync(Clock::time_point end, Outcomes* outcomes) {
  const double rate_per_thread = static_cast<double>(shape_.rate) / static_cast<double>(shape_.threads);
  std::vector<std::thread> workers;
  for (int64_t t = 0; t < shape_.threads; ++t) {
    const Clock::duration offset =
        shape_.rate > 0 ? std::chrono::nanoseconds(static_cast<int64_t>(static_cast<double>(t) * 1e9 /
                                                                        static_cast<double>(shape_.rate)))
                        : Clock::duration::zero();
    workers.emplace_back(&VoteLoad::CallUntil, this, end, generator_->Split(), rate_per_thread, offset, outcomes);
  }
  for (std::thread& w : workers) w.join();
}

void VoteLoad::CallUntil(Clock::time_point end, VoteGenerator generator, double rate, Clock::duration offset,
                         Outcomes* outcomes) {
  Pacer pacer(rate, offset);
  const Sinks sinks{outcomes, latencies_};
  for (uint64_t n = 0; (n % kCallsPerEndCheck != 0 && !pacer.paced()) || Clock::now() < end; ++n) {
    pacer.AwaitNext();
    generator.Next();
    const client::Result<client::Response> r =
        client_->Call("Vote", {generator.phone(), generator.contestant(), shape_.max_votes});
    Count(r, generator.contestant(), sinks);
  }
}

}  // namespace partita::bench::voter
