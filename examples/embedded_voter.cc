// embedded_voter: the Voter workload on several partitions inside one
// process, through the engine's public API.
//
//   build/examples/embedded_voter [partitions=4] [votes=400000]
//
// Every partition gets its own Engine on its own thread (PartitionRunner).
// The replicated tables (contestants, area codes) are loaded into each; every
// vote is routed to the partition that owns its phone number, where the Vote
// transaction runs (lookups, the vote limit from the view, the insert that
// maintains both views). The standings are then summed across partitions.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <vector>

#include "partita/partition_runner.h"
#include "vote_transaction.h"
#include "voter_catalog.h"

namespace {

using partita::bench::VoteCode;

// Which partition owns a phone number. A stand-in for the partition hash the
// host will specify (docs/, with test vectors): any stable mix works here.
int PartitionOf(int64_t phone, int partitions) {
  uint64_t x = static_cast<uint64_t>(phone) * 0x9E3779B97F4A7C15ULL;
  return static_cast<int>((x >> 32) % static_cast<uint64_t>(partitions));
}

struct Tally {
  int64_t outcomes[3] = {0, 0, 0};
  int64_t errors = 0;
  std::vector<int64_t> votes_per_contestant;
};

// Sums the contestant's votes over every state in one partition's view.
int64_t VotesFor(partita::Engine& engine, int32_t contestant) {
  partita::StatementId id = engine.FindStatement(partita::bench::kContestantStateVotes).value();
  partita::ResultSet results;
  int64_t total = 0;
  std::set<std::string_view> states = {partita::bench::kUnknownState};
  for (const auto& area : partita::bench::UsAreaCodes()) states.insert(area.state);
  for (const std::string_view state : states) {
    const partita::Value params[] = {partita::Value::Integer(contestant), partita::Value::Varchar(state)};
    const partita::StatementCall call{id, params};
    if (!engine.ExecuteBatch({&call, 1}, partita::BatchOptions{}, &results).ok()) continue;
    auto table = partita::ResultTableReader::Parse(results.table(0));
    if (table.ok() && table.value().row_count() == 1) total += table.value().Get(0, 0).int_value();
  }
  return total;
}

}  // namespace

int main(int argc, char** argv) {
  const int partitions = argc > 1 ? std::atoi(argv[1]) : 4;
  const int64_t votes = argc > 2 ? std::atoll(argv[2]) : 400000;
  constexpr int kContestants = partita::bench::kDefaultContestantCount;

  auto runner = partita::PartitionRunner::Start(partita::bench::BuildVoterCatalog().SerializeAsString(), partitions);
  if (!runner.ok()) {
    std::fprintf(stderr, "embedded_voter: %s\n", runner.status().ToString().c_str());
    return 1;
  }
  std::printf("embedded_voter: %d partitions, %lld votes, %d contestants\n", partitions,
              static_cast<long long>(votes), kContestants);

  // Route every call to its partition first, so each partition thread runs
  // its share without coordination.
  std::vector<std::vector<partita::bench::VoteCall>> routed(partitions);
  partita::bench::PhoneGenerator generator(2026, kContestants + 1);  // a few invalid contestants
  for (int64_t i = 0; i < votes; ++i) {
    const partita::bench::VoteCall call = generator.NextCall();
    routed[PartitionOf(call.phone_number, partitions)].push_back(call);
  }

  std::vector<Tally> tallies(partitions);
  std::vector<std::future<void>> done;
  const auto start = std::chrono::steady_clock::now();
  for (int p = 0; p < partitions; ++p) {
    done.push_back(runner.value()->Submit(p, [&, p](partita::Engine& engine) {
      Tally& tally = tallies[p];
      if (!partita::bench::LoadVoterData(&engine, kContestants).ok()) {
        tally.errors = 1;
        return;
      }
      auto vote = partita::bench::VoteTransaction::Prepare(&engine);
      for (const auto& call : routed[p]) {
        auto code = vote.value().Run(call.phone_number, call.contestant_number,
                                     partita::bench::kMaxVotesPerPhoneNumber);
        if (code.ok()) {
          ++tally.outcomes[static_cast<int>(code.value())];
        } else {
          ++tally.errors;
        }
      }
      for (int c = 1; c <= kContestants; ++c) tally.votes_per_contestant.push_back(VotesFor(engine, c));
    }));
  }
  for (auto& f : done) f.get();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  Tally total;
  total.votes_per_contestant.assign(kContestants, 0);
  for (const Tally& t : tallies) {
    for (int i = 0; i < 3; ++i) total.outcomes[i] += t.outcomes[i];
    total.errors += t.errors;
    for (int c = 0; c < kContestants && c < static_cast<int>(t.votes_per_contestant.size()); ++c) {
      total.votes_per_contestant[c] += t.votes_per_contestant[c];
    }
  }
  std::printf("%.0f transactions/s (%.2f s)\n", static_cast<double>(votes) / seconds, seconds);
  std::printf("accepted %lld, invalid contestant %lld, over the limit %lld, errors %lld\n",
              static_cast<long long>(total.outcomes[0]), static_cast<long long>(total.outcomes[1]),
              static_cast<long long>(total.outcomes[2]), static_cast<long long>(total.errors));
  int64_t counted = 0;
  std::printf("standings:\n");
  for (int c = 1; c <= kContestants; ++c) {
    std::printf("  %-20.*s %lld\n", static_cast<int>(partita::bench::ContestantName(c).size()),
                partita::bench::ContestantName(c).data(), static_cast<long long>(total.votes_per_contestant[c - 1]));
    counted += total.votes_per_contestant[c - 1];
  }
  const bool consistent = counted == total.outcomes[0] && total.errors == 0;
  std::printf("views agree with accepted votes: %s\n", consistent ? "yes" : "NO");
  return consistent ? 0 : 1;
}
