// Voter on N partitions: one Engine per partition, each on its own thread
// (PartitionRunner), each running Vote transactions against its own data.
// Measures how throughput scales with partitions when nothing is shared —
// the H-Store premise. Each partition generates its own phones (a real
// client would route each phone to its partition by hash; the engine work
// is the same).
#include <array>
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench_support.h"
#include "benchmarks.h"
#include "partita/partition_runner.h"
#include "vote_transaction.h"
#include "voter_catalog.h"
#include "voter_checks.h"

namespace partita::bench {
namespace {

constexpr uint64_t kSeed = 0x5EED'0100;
// Vote transactions each partition runs per benchmark iteration: enough to
// make the cost of handing work to the threads negligible.
constexpr int64_t kVotesPerTask = 10'000;

// Everything one partition's thread uses; touched only by that thread while
// its task runs (the futures order it with the benchmark thread).
struct PartitionState {
  explicit PartitionState(uint64_t seed) : calls(seed, kDefaultContestantCount) {}

  std::optional<VoteTransaction> txn;
  PhoneGenerator calls;
  std::array<int64_t, 3> codes{};
  std::string error;  // first failure; the partition stops voting after it
};

// Runs `work(p, engine)` on every partition's thread and waits for all.
void RunOnAll(PartitionRunner& runner, const std::function<void(int, Engine&)>& work) {
  std::vector<std::future<void>> done;
  done.reserve(static_cast<size_t>(runner.partition_count()));
  for (int p = 0; p < runner.partition_count(); ++p) {
    done.push_back(runner.Submit(p, [&work, p](Engine& engine) { work(p, engine); }));
  }
  for (std::future<void>& f : done) f.get();
}

void SetUpPartition(Engine& engine, PartitionState& st) {
  const Status loaded = LoadVoterData(&engine, kDefaultContestantCount);
  if (!loaded.ok()) {
    st.error = "LoadVoterData: " + loaded.ToString();
    return;
  }
  Result<VoteTransaction> txn = VoteTransaction::Prepare(&engine);
  if (!txn.ok()) {
    st.error = "VoteTransaction::Prepare: " + txn.status().ToString();
    return;
  }
  st.txn.emplace(std::move(txn).value());
  st.error = CheckVoteRules([&st](int64_t phone, int32_t contestant, std::string* why) {
    Result<VoteCode> code = st.txn->Run(phone, contestant, kMaxVotesPerPhoneNumber);
    if (!code.ok()) *why = code.status().ToString();
    return code.ok() ? std::optional<VoteCode>(*code) : std::nullopt;
  });
}

void Vote(PartitionState& st) {
  if (!st.error.empty()) return;
  for (int64_t i = 0; i < kVotesPerTask; ++i) {
    const VoteCall call = st.calls.NextCall();
    Result<VoteCode> code = st.txn->Run(call.phone_number, call.contestant_number, kMaxVotesPerPhoneNumber);
    if (!code.ok()) {
      st.error = "Vote: " + code.status().ToString();
      return;
    }
    ++st.codes[static_cast<int>(*code)];
  }
}

// Returns the first partition's error, prefixed with its number, or "".
std::string FirstError(const std::vector<std::unique_ptr<PartitionState>>& partitions) {
  for (size_t p = 0; p < partitions.size(); ++p) {
    if (!partitions[p]->error.empty()) return "partition " + std::to_string(p) + ": " + partitions[p]->error;
  }
  return "";
}

}  // namespace

void BM_VoteTxn_Partitions(benchmark::State& state) {
  const auto partition_count = static_cast<int>(state.range(0));
  std::string catalog_bytes;
  BuildVoterCatalog().SerializeToString(&catalog_bytes);
  Result<std::unique_ptr<PartitionRunner>> started = PartitionRunner::Start(catalog_bytes, partition_count);
  if (SkipIfError(started.status(), "PartitionRunner::Start", state)) return;
  PartitionRunner& runner = **started;

  std::vector<std::unique_ptr<PartitionState>> partitions;
  for (int p = 0; p < partition_count; ++p) partitions.push_back(std::make_unique<PartitionState>(kSeed + p));
  RunOnAll(runner, [&](int p, Engine& engine) { SetUpPartition(engine, *partitions[p]); });
  std::string error = FirstError(partitions);
  if (!error.empty()) {
    state.SkipWithError(error.c_str());
    return;
  }

  for (auto _ : state) {
    RunOnAll(runner, [&](int p, Engine&) { Vote(*partitions[p]); });
    error = FirstError(partitions);
    if (!error.empty()) {
      state.SkipWithError(error.c_str());
      break;
    }
  }
  if (state.error_occurred()) return;
  state.SetItemsProcessed(state.iterations() * partition_count * kVotesPerTask);
  state.counters["partitions"] = partition_count;

  RunOnAll(runner, [&](int p, Engine& engine) {
    PartitionState& st = *partitions[p];
    st.error = VerifyPartitaVotes(&engine, kDefaultContestantCount,
                                  st.codes[static_cast<int>(VoteCode::kAccepted)] + kRuleCheckAcceptedVotes);
  });
  error = FirstError(partitions);
  if (!error.empty()) state.SkipWithError(error.c_str());
}

}  // namespace partita::bench
