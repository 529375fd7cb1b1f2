// VoteTransaction: the Voter workload's `Vote` procedure run directly on an
// Engine, the way the host will run it: two batches in one transaction.
//
//   batch 1 (not final): checkContestant, checkVoter, checkState
//   contestant missing           -> commit, VoteCode::kInvalidContestant
//   votes of phone >= max_votes  -> commit, VoteCode::kOverVoteLimit
//   batch 2 (final):     insertVote(phone, state or "XX", contestant)
//                                -> VoteCode::kAccepted
//
// Also LoadVoterData(), the `Initialize` procedure: contestants and area codes.
//
// Ownership: borrows the Engine, which must outlive it. Thread model:
// partition-confined, like the Engine.
#ifndef PARTITA_BENCH_ENGINE_VOTE_TRANSACTION_H_
#define PARTITA_BENCH_ENGINE_VOTE_TRANSACTION_H_

#include <cstdint>

#include "partita/engine.h"
#include "partita/result_table.h"
#include "partita/status.h"
#include "voter_catalog.h"

namespace partita::bench {

class VoteTransaction {
 public:
  // Resolves the Vote statements in `engine`'s catalog; NOT_FOUND if one is
  // missing. REQUIRES: `engine` outlives the returned object.
  static Result<VoteTransaction> Prepare(Engine* engine);

  // Runs one Vote transaction. Returns the procedure's code, or the engine's
  // error (after which the transaction has been rolled back).
  // `next_phone_number`, when not NULL, is the prefetch key of the first
  // batch (BatchOptions::prefetch_key), as the host passes the next call's.
  Result<VoteCode> Run(int64_t phone_number, int32_t contestant_number, int64_t max_votes,
                       Value next_phone_number = Value());

 private:
  explicit VoteTransaction(Engine* engine) : engine_(engine) {}

  Engine* engine_;
  StatementId check_contestant_ = 0;
  StatementId check_voter_ = 0;
  StatementId check_state_ = 0;
  StatementId insert_vote_ = 0;
  ResultSet results_;  // reused by every call
};

// Inserts contestants 1..contestant_count and every UsAreaCodes() entry in
// one transaction. REQUIRES: 1 <= contestant_count <= kMaxContestants.
Status LoadVoterData(Engine* engine, int contestant_count);

}  // namespace partita::bench

#endif  // PARTITA_BENCH_ENGINE_VOTE_TRANSACTION_H_
