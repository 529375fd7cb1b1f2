// Voter benchmarks on one partition: the Vote transaction through the engine
// and through SQLite, and the insert-with-two-views that is its only write.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "bench_support.h"
#include "benchmarks.h"
#include "sqlite_voter.h"
#include "vote_transaction.h"
#include "voter_catalog.h"
#include "voter_checks.h"

namespace partita::bench {
namespace {

constexpr uint64_t kSeed = 0x5EED'0001;

// Reports the share of each Vote outcome as per-iteration averages.
void ReportOutcomes(const std::array<int64_t, 3>& codes, benchmark::State& state) {
  using benchmark::Counter;
  state.counters["accepted"] =
      Counter(static_cast<double>(codes[static_cast<int>(VoteCode::kAccepted)]), Counter::kAvgIterations);
  state.counters["over_limit"] =
      Counter(static_cast<double>(codes[static_cast<int>(VoteCode::kOverVoteLimit)]), Counter::kAvgIterations);
}

void RunSqliteVotes(SqliteJournal journal, benchmark::State& state) {
  std::string error;
  std::unique_ptr<SqliteVoter> voter = SqliteVoter::Open(kDefaultContestantCount, journal, &error);
  if (voter == nullptr) {
    state.SkipWithError(error.c_str());
    return;
  }
  const std::string rules = CheckVoteRules([&](int64_t phone, int32_t contestant, std::string* why) {
    std::optional<VoteCode> code = voter->Vote(phone, contestant, kMaxVotesPerPhoneNumber);
    if (!code) *why = voter->error();
    return code;
  });
  if (!rules.empty()) {
    state.SkipWithError(rules.c_str());
    return;
  }

  PhoneGenerator calls(kSeed, kDefaultContestantCount);
  std::array<int64_t, 3> codes{};
  for (auto _ : state) {
    const VoteCall call = calls.NextCall();
    const std::optional<VoteCode> code =
        voter->Vote(call.phone_number, call.contestant_number, kMaxVotesPerPhoneNumber);
    if (!code) {
      state.SkipWithError(voter->error().c_str());
      break;
    }
    ++codes[static_cast<int>(*code)];
  }
  if (state.error_occurred()) return;
  state.SetItemsProcessed(state.iterations());
  ReportOutcomes(codes, state);
  const std::string verdict = VerifySqliteVotes(voter.get(), codes[0] + kRuleCheckAcceptedVotes);
  if (!verdict.empty()) state.SkipWithError(verdict.c_str());
}

// BM_VoteTxn_Partita, or with `prefetch_next` each Vote's first batch
// carrying the next Vote's phone number as its prefetch key.
void RunPartitaVotes(bool prefetch_next, benchmark::State& state) {
  std::unique_ptr<Engine> engine = OpenEngine(BuildVoterCatalog(), state);
  if (engine == nullptr) return;
  if (SkipIfError(LoadVoterData(engine.get(), kDefaultContestantCount), "LoadVoterData", state)) return;
  Result<VoteTransaction> txn = VoteTransaction::Prepare(engine.get());
  if (SkipIfError(txn.status(), "VoteTransaction::Prepare", state)) return;

  const std::string rules = CheckVoteRules([&](int64_t phone, int32_t contestant, std::string* why) {
    Result<VoteCode> code = txn->Run(phone, contestant, kMaxVotesPerPhoneNumber);
    if (!code.ok()) *why = code.status().ToString();
    return code.ok() ? std::optional<VoteCode>(*code) : std::nullopt;
  });
  if (!rules.empty()) {
    state.SkipWithError(rules.c_str());
    return;
  }

  PhoneGenerator calls(kSeed, kDefaultContestantCount);
  std::array<int64_t, 3> codes{};
  VoteCall next = calls.NextCall();
  for (auto _ : state) {
    const VoteCall call = next;
    next = calls.NextCall();
    const Value hint = prefetch_next ? Value::BigInt(next.phone_number) : Value();
    Result<VoteCode> code = txn->Run(call.phone_number, call.contestant_number, kMaxVotesPerPhoneNumber, hint);
    if (SkipIfError(code.status(), "Vote", state)) break;
    ++codes[static_cast<int>(*code)];
  }
  if (state.error_occurred()) return;
  state.SetItemsProcessed(state.iterations());
  ReportOutcomes(codes, state);
  const std::string verdict =
      VerifyPartitaVotes(engine.get(), kDefaultContestantCount, codes[0] + kRuleCheckAcceptedVotes);
  if (!verdict.empty()) state.SkipWithError(verdict.c_str());
}

}  // namespace

void BM_VoteTxn_Partita(benchmark::State& state) { RunPartitaVotes(/*prefetch_next=*/false, state); }

void BM_VoteTxn_Partita_PrefetchNext(benchmark::State& state) { RunPartitaVotes(/*prefetch_next=*/true, state); }

void BM_VoteTxn_SQLite(benchmark::State& state) { RunSqliteVotes(SqliteJournal::kMemory, state); }

void BM_VoteTxn_SQLite_NoJournal(benchmark::State& state) { RunSqliteVotes(SqliteJournal::kOff, state); }

void BM_Insert_HashIndexTwoViews(benchmark::State& state) {
  std::unique_ptr<Engine> engine = OpenEngine(BuildVoterCatalog(), state);
  if (engine == nullptr) return;
  const std::optional<StatementId> insert_vote = FindStatement(*engine, kInsertVote, state);
  if (!insert_vote) return;

  // Like Vote's write, without its reads: a random phone, its real state.
  const std::span<const AreaCodeState> area_codes = UsAreaCodes();
  Random64 random(kSeed);
  ResultSet results;
  for (auto _ : state) {
    const AreaCodeState& area = area_codes[random.Uniform(area_codes.size())];
    const int64_t phone = area.area_code * kPhoneAreaCodeFactor + static_cast<int64_t>(random.Uniform(10'000'000));
    const auto contestant = static_cast<int32_t>(1 + random.Uniform(kDefaultContestantCount));
    const std::array<Value, 3> row = {Value::BigInt(phone), Value::Varchar(area.state), Value::Integer(contestant)};
    const std::array<StatementCall, 1> call = {{{*insert_vote, row}}};
    if (SkipIfError(engine->ExecuteBatch(call, BatchOptions{.final_batch = true}, &results), "insertVote", state)) {
      break;
    }
  }
  if (state.error_occurred()) return;
  state.SetItemsProcessed(state.iterations());
  // No rule-check votes here: every iteration inserted one row. The phone
  // view may hold three votes for one phone, so check only the totals.
  const int64_t rows = TableRowCount(*engine, "VOTES");
  const int64_t phones = TableRowCount(*engine, "V_VOTES_BY_PHONE_NUMBER");
  if (rows != static_cast<int64_t>(state.iterations()) || phones <= 0 || phones > rows) {
    const std::string message = "after " + std::to_string(state.iterations()) + " inserts: VOTES has " +
                                std::to_string(rows) + " rows, V_VOTES_BY_PHONE_NUMBER " + std::to_string(phones);
    state.SkipWithError(message.c_str());
  }
}

}  // namespace partita::bench
