// Standings: what the database says at one moment: the standings
// (procedure Results: name and total votes per contestant, most votes first)
// and the number of rows of `votes` (SELECT COUNT(*) FROM votes, via @AdHoc).
//
// Ownership: a value type. Thread model: immutable once read.
#ifndef PARTITA_BENCH_VOTER_STANDINGS_H_
#define PARTITA_BENCH_VOTER_STANDINGS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "partita/client/client.h"

namespace partita::bench::voter {

struct Standings {
  static constexpr const char* kCountVotes = "SELECT COUNT(*) FROM votes";

  struct Entry {
    int contestant = 0;
    std::string name;
    int64_t votes = 0;
  };

  std::vector<Entry> entries;  // in the order of Results: most votes first
  int64_t vote_rows = 0;

  // Votes of `contestant` (0 when it is not in the standings).
  int64_t Votes(int contestant) const;

  // Reads both through `client`. Returns an empty string on success, else
  // what failed ("Results: GRACEFUL_FAILURE ..." or a client-side status).
  static std::string Read(client::Client& client, Standings* out);
};

}  // namespace partita::bench::voter

#endif  // PARTITA_BENCH_VOTER_STANDINGS_H_
