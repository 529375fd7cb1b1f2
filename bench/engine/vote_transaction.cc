#include "vote_transaction.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <vector>

namespace partita::bench {
namespace {

// VARCHAR(2) of AREA_CODE_STATE.STATE.
constexpr size_t kStateBytes = 2;

Result<StatementId> Find(const Engine& engine, std::string_view name) { return engine.FindStatement(name); }

}  // namespace

Result<VoteTransaction> VoteTransaction::Prepare(Engine* engine) {
  VoteTransaction txn(engine);
  struct Slot {
    std::string_view name;
    StatementId* id;
  };
  const std::array<Slot, 4> slots = {{{kCheckContestant, &txn.check_contestant_},
                                      {kCheckVoter, &txn.check_voter_},
                                      {kCheckState, &txn.check_state_},
                                      {kInsertVote, &txn.insert_vote_}}};
  for (const Slot& slot : slots) {
    Result<StatementId> id = Find(*engine, slot.name);
    if (!id.ok()) return id.status();
    *slot.id = *id;
  }
  return txn;
}

Result<VoteCode> VoteTransaction::Run(int64_t phone_number, int32_t contestant_number, int64_t max_votes,
                                      Value next_phone_number) {
  const std::array<Value, 1> contestant = {Value::Integer(contestant_number)};
  const std::array<Value, 1> phone = {Value::BigInt(phone_number)};
  const std::array<Value, 1> area_code = {
      Value::SmallInt(static_cast<int16_t>(phone_number / kPhoneAreaCodeFactor))};
  const std::array<StatementCall, 3> checks = {{{check_contestant_, contestant},
                                                {check_voter_, phone},
                                                {check_state_, area_code}}};
  PARTITA_RETURN_IF_ERROR(
      engine_->ExecuteBatch(checks, BatchOptions{.final_batch = false, .prefetch_key = next_phone_number}, &results_));

  Result<ResultTableReader> contestant_rows = ResultTableReader::Parse(results_.table(0));
  if (!contestant_rows.ok()) return contestant_rows.status();
  if (contestant_rows->row_count() == 0) {
    engine_->Commit();
    return VoteCode::kInvalidContestant;
  }

  Result<ResultTableReader> voter_rows = ResultTableReader::Parse(results_.table(1));
  if (!voter_rows.ok()) return voter_rows.status();
  if (voter_rows->row_count() == 1 && voter_rows->Get(0, 0).int_value() >= max_votes) {
    engine_->Commit();
    return VoteCode::kOverVoteLimit;
  }

  // Copy the state out of results_: the next ExecuteBatch overwrites it.
  Result<ResultTableReader> state_rows = ResultTableReader::Parse(results_.table(2));
  if (!state_rows.ok()) return state_rows.status();
  std::array<char, kStateBytes> state_bytes;
  std::string_view state = kUnknownState;
  if (state_rows->row_count() > 0) {
    const std::string_view found = state_rows->Get(0, 0).string_value();
    const size_t n = std::min(found.size(), state_bytes.size());
    std::memcpy(state_bytes.data(), found.data(), n);
    state = std::string_view(state_bytes.data(), n);
  }

  const std::array<Value, 3> vote = {Value::BigInt(phone_number), Value::Varchar(state),
                                     Value::Integer(contestant_number)};
  const std::array<StatementCall, 1> insert = {{{insert_vote_, vote}}};
  PARTITA_RETURN_IF_ERROR(engine_->ExecuteBatch(insert, BatchOptions{.final_batch = true}, &results_));
  return VoteCode::kAccepted;
}

Status LoadVoterData(Engine* engine, int contestant_count) {
  Result<StatementId> insert_contestant = Find(*engine, kInsertContestant);
  if (!insert_contestant.ok()) return insert_contestant.status();
  Result<StatementId> insert_area_code = Find(*engine, kInsertAreaCode);
  if (!insert_area_code.ok()) return insert_area_code.status();

  const std::span<const AreaCodeState> area_codes = UsAreaCodes();
  // Two parameters per row; reserved up front so the spans stay valid.
  std::vector<Value> params;
  params.reserve(2 * (static_cast<size_t>(contestant_count) + area_codes.size()));
  std::vector<StatementCall> calls;
  for (int c = 1; c <= contestant_count; ++c) {
    params.push_back(Value::Integer(c));
    params.push_back(Value::Varchar(ContestantName(c)));
    calls.push_back({*insert_contestant, std::span<const Value>(&params[params.size() - 2], 2)});
  }
  for (const AreaCodeState& entry : area_codes) {
    params.push_back(Value::SmallInt(entry.area_code));
    params.push_back(Value::Varchar(entry.state));
    calls.push_back({*insert_area_code, std::span<const Value>(&params[params.size() - 2], 2)});
  }
  ResultSet results;
  return engine->ExecuteBatch(calls, BatchOptions{.final_batch = true}, &results);
}

}  // namespace partita::bench
