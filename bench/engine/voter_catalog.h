// The Voter reference workload (DESIGN.md "The reference workloads") as a
// hand-built catalog, plus its reference data and its call generator.
//
// Schema (what bench/voter/ddl.sql will say in SQL):
//   CONTESTANTS(contestant_number INTEGER PK, contestant_name VARCHAR(50))  replicated
//   AREA_CODE_STATE(area_code SMALLINT PK, state VARCHAR(2))                  replicated
//   VOTES(phone_number BIGINT, state VARCHAR(2), contestant_number INTEGER)  partitioned on phone_number
//   V_VOTES_BY_PHONE_NUMBER(phone_number, num_votes)                  = COUNT(*) GROUP BY phone_number
//   V_VOTES_BY_CONTESTANT_NUMBER_STATE(contestant_number, state, num_votes)
//                                                     = COUNT(*) GROUP BY contestant_number, state
// Every column is NOT NULL.
//
// Thread model: BuildVoterCatalog() returns a fresh value; the area-code table
// is immutable; a PhoneGenerator belongs to one thread.
#ifndef PARTITA_BENCH_ENGINE_VOTER_CATALOG_H_
#define PARTITA_BENCH_ENGINE_VOTER_CATALOG_H_

#include <cstdint>
#include <span>
#include <string_view>

#include "catalog.pb.h"
#include "random64.h"

namespace partita::bench {

// Statement names, as procedures call them.
inline constexpr std::string_view kCheckContestant = "Vote.checkContestant";
inline constexpr std::string_view kCheckVoter = "Vote.checkVoter";
inline constexpr std::string_view kCheckState = "Vote.checkState";
inline constexpr std::string_view kInsertVote = "Vote.insertVote";
inline constexpr std::string_view kInsertContestant = "Initialize.insertContestant";
inline constexpr std::string_view kInsertAreaCode = "Initialize.insertAreaCode";
// SELECT num_votes FROM v_votes_by_contestant_number_state
//   WHERE contestant_number = ? AND state = ?   (for the standings and checks)
inline constexpr std::string_view kContestantStateVotes = "Results.contestantStateVotes";

// The workload's parameters (the defaults of VoltDB's Voter example).
inline constexpr int kDefaultContestantCount = 6;
inline constexpr int64_t kMaxVotesPerPhoneNumber = 2;
// phone_number = area_code * kPhoneAreaCodeFactor + 7-digit subscriber number.
inline constexpr int64_t kPhoneAreaCodeFactor = 10'000'000;
// The state recorded for a phone whose area code is unknown (VoltDB's rule,
// kept so that old clients' invalid numbers still count).
inline constexpr std::string_view kUnknownState = "XX";

// Outcome of the Vote procedure; the numbers are the client-visible codes.
enum class VoteCode : int32_t {
  kAccepted = 0,
  kInvalidContestant = 1,
  kOverVoteLimit = 2,
};

struct AreaCodeState {
  int16_t area_code;
  std::string_view state;  // two-letter postal code
};

// Real US area codes and their states (a sample, one or more per region).
std::span<const AreaCodeState> UsAreaCodes();

// Name of contestant `number`. REQUIRES: 1 <= number <= kMaxContestants.
inline constexpr int kMaxContestants = 12;
std::string_view ContestantName(int number);

// Returns the Voter catalog: the tables and views above and the statements
// named above.
proto::Catalog BuildVoterCatalog();

// One Vote call: who votes, for whom.
struct VoteCall {
  int64_t phone_number;
  int32_t contestant_number;
};

// Generates Vote calls: a random area code of UsAreaCodes() times 10^7 plus 7
// random digits, and a contestant drawn uniformly from 1..contestant_count.
// Deterministic for a seed.
class PhoneGenerator {
 public:
  PhoneGenerator(uint64_t seed, int contestant_count) : random_(seed), contestant_count_(contestant_count) {}

  int64_t NextPhoneNumber();
  VoteCall NextCall();

 private:
  Random64 random_;
  int contestant_count_;
};

}  // namespace partita::bench

#endif  // PARTITA_BENCH_ENGINE_VOTER_CATALOG_H_
