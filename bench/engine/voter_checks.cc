#include "voter_checks.h"

#include <array>
#include <set>
#include <string_view>

#include "bench_support.h"
#include "partita/result_table.h"

namespace partita::bench {
namespace {

// A phone whose area code is not in UsAreaCodes(): its votes are for "XX".
constexpr int64_t kRuleCheckPhone = 999 * kPhoneAreaCodeFactor + 1'234'567;
constexpr int32_t kNoSuchContestant = kMaxContestants + 1;

std::string Expect(std::string_view what, int64_t got, int64_t want) {
  if (got == want) return "";
  return std::string(what) + ": got " + std::to_string(got) + ", want " + std::to_string(want);
}

// Runs a one-call read-only batch and returns the BIGINT in its first row, 0
// when it has no row, or nullopt on an error (described in `*error`).
std::optional<int64_t> ReadCount(Engine* engine, StatementId statement, std::span<const Value> params,
                                 std::string* error) {
  ResultSet results;
  const std::array<StatementCall, 1> call = {{{statement, params}}};
  const Status status = engine->ExecuteBatch(call, BatchOptions{.final_batch = true}, &results);
  if (!status.ok()) {
    *error = status.ToString();
    return std::nullopt;
  }
  Result<ResultTableReader> rows = ResultTableReader::Parse(results.table(0));
  if (!rows.ok()) {
    *error = rows.status().ToString();
    return std::nullopt;
  }
  return rows->row_count() == 0 ? 0 : rows->Get(0, 0).int_value();
}

}  // namespace

std::string CheckVoteRules(const VoteFunction& vote) {
  struct Step {
    int32_t contestant;
    VoteCode want;
  };
  constexpr std::array<Step, 4> kSteps = {{{kNoSuchContestant, VoteCode::kInvalidContestant},
                                           {1, VoteCode::kAccepted},
                                           {1, VoteCode::kAccepted},
                                           {2, VoteCode::kOverVoteLimit}}};
  for (size_t i = 0; i < kSteps.size(); ++i) {
    std::string error;
    const std::optional<VoteCode> got = vote(kRuleCheckPhone, kSteps[i].contestant, &error);
    const std::string what = "rule check vote " + std::to_string(i + 1);
    if (!got) return what + ": " + error;
    std::string mismatch = Expect(what + " code", static_cast<int>(*got), static_cast<int>(kSteps[i].want));
    if (!mismatch.empty()) return mismatch;
  }
  return "";
}

std::string VerifyPartitaVotes(Engine* engine, int contestant_count, int64_t accepted) {
  std::string error = Expect("VOTES rows", TableRowCount(*engine, "VOTES"), accepted);
  if (!error.empty()) return error;
  const int64_t phones = TableRowCount(*engine, "V_VOTES_BY_PHONE_NUMBER");
  if (phones < (accepted + 1) / kMaxVotesPerPhoneNumber || phones > accepted) {
    return "V_VOTES_BY_PHONE_NUMBER rows: " + std::to_string(phones) + " for " + std::to_string(accepted) +
           " votes";
  }

  // The per-(contestant, state) counts must add up to every vote.
  Result<StatementId> by_state = engine->FindStatement(kContestantStateVotes);
  if (!by_state.ok()) return by_state.status().ToString();
  std::set<std::string_view> states = {kUnknownState};
  for (const AreaCodeState& entry : UsAreaCodes()) states.insert(entry.state);
  int64_t total = 0;
  for (int32_t c = 1; c <= contestant_count; ++c) {
    for (std::string_view state : states) {
      const std::array<Value, 2> key = {Value::Integer(c), Value::Varchar(state)};
      const std::optional<int64_t> count = ReadCount(engine, *by_state, key, &error);
      if (!count) return std::string(kContestantStateVotes) + ": " + error;
      total += *count;
    }
  }
  error = Expect("sum of V_VOTES_BY_CONTESTANT_NUMBER_STATE", total, accepted);
  if (!error.empty()) return error;

  // The rule-check phone voted twice.
  Result<StatementId> check_voter = engine->FindStatement(kCheckVoter);
  if (!check_voter.ok()) return check_voter.status().ToString();
  const std::array<Value, 1> phone = {Value::BigInt(kRuleCheckPhone)};
  const std::optional<int64_t> votes = ReadCount(engine, *check_voter, phone, &error);
  if (!votes) return std::string(kCheckVoter) + ": " + error;
  return Expect("votes of the rule-check phone", *votes, kRuleCheckAcceptedVotes);
}

std::string VerifySqliteVotes(SqliteVoter* voter, int64_t accepted) {
  struct Query {
    std::string_view sql;
    int64_t want;
  };
  const std::array<Query, 4> queries = {{
      {"SELECT COUNT(*) FROM votes", accepted},
      {"SELECT SUM(num_votes) FROM v_votes_by_phone_number", accepted},
      {"SELECT SUM(num_votes) FROM v_votes_by_contestant_number_state", accepted},
      {"SELECT num_votes FROM v_votes_by_phone_number WHERE phone_number = 9991234567", kRuleCheckAcceptedVotes},
  }};
  static_assert(kRuleCheckPhone == 9'991'234'567, "the last query names the rule-check phone");
  for (const Query& q : queries) {
    const int64_t got = voter->QueryInt(q.sql);
    if (got < 0) return std::string(q.sql) + ": " + voter->error();
    std::string error = Expect(q.sql, got, q.want);
    if (!error.empty()) return error;
  }
  return "";
}

}  // namespace partita::bench
