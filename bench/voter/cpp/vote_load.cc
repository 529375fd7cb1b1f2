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

// Counts one answer into `outcomes` and its latency into `latencies`.
void Count(const client::Result<client::Response>& result, int contestant, int64_t nanos, Outcomes* outcomes,
           Latencies* latencies) {
  if (!result.ok()) {
    outcomes->RecordFailure();
    return;
  }
  latencies->Record(nanos);
  if (result->ok()) {
    outcomes->RecordAnswer(contestant, AnswerCode(*result));
  } else {
    outcomes->RecordFailure();
  }
}

int64_t NanosSince(VoteLoad::Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(VoteLoad::Clock::now() - start).count();
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
  Latencies* latencies = latencies_;
  while (Clock::now() < end) {
    pacer.AwaitNext();
    generator_->Next();
    const int contestant = generator_->contestant();
    const Clock::time_point start = Clock::now();
    client_->CallAsync("Vote", {generator_->phone(), contestant, shape_.max_votes},
                       [contestant, start, outcomes, latencies](client::Result<client::Response> r) {
                         Count(r, contestant, NanosSince(start), outcomes, latencies);
                       });
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
  while (Clock::now() < end) {
    pacer.AwaitNext();
    generator.Next();
    const Clock::time_point start = Clock::now();
    const client::Result<client::Response> r =
        client_->Call("Vote", {generator.phone(), generator.contestant(), shape_.max_votes});
    Count(r, generator.contestant(), NanosSince(start), outcomes, latencies_);
  }
}

}  // namespace partita::bench::voter
