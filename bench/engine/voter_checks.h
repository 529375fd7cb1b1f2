// Correctness checks run around the Voter benchmarks, outside the timed
// loops, so that a fast number is never a wrong one:
//   * CheckVoteRules: one invalid contestant, then three votes from one
//     phone with an unknown area code -> codes 1, 0, 0, 2.
//   * VerifyPartitaVotes / VerifySqliteVotes: VOTES holds every accepted
//     vote, and both views agree with it.
//
// Each returns an empty string on success, else what was wrong.
// Thread model: touches only the Engine or SqliteVoter it is given.
#ifndef PARTITA_BENCH_ENGINE_VOTER_CHECKS_H_
#define PARTITA_BENCH_ENGINE_VOTER_CHECKS_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "partita/engine.h"
#include "sqlite_voter.h"
#include "voter_catalog.h"

namespace partita::bench {

// Votes CheckVoteRules() has accepted when it succeeds.
inline constexpr int64_t kRuleCheckAcceptedVotes = 2;

// Runs the rule checks through `vote`, which performs one Vote transaction
// with kMaxVotesPerPhoneNumber and returns its code, or nullopt on an error
// (described in `*error`).
using VoteFunction = std::function<std::optional<VoteCode>(int64_t phone, int32_t contestant, std::string* error)>;
std::string CheckVoteRules(const VoteFunction& vote);

// REQUIRES: `engine` holds the Voter catalog and every vote came from
// contestants 1..contestant_count; `accepted` votes were accepted in all.
std::string VerifyPartitaVotes(Engine* engine, int contestant_count, int64_t accepted);
std::string VerifySqliteVotes(SqliteVoter* voter, int64_t accepted);

}  // namespace partita::bench

#endif  // PARTITA_BENCH_ENGINE_VOTER_CHECKS_H_
