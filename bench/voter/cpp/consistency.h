// Consistency: the check that the votes the driver saw accepted (warm-up and
// measured period) are exactly what the database gained meanwhile, per
// contestant in the standings (a view) and in total as rows of `votes`.
// Comparing changes rather than totals lets the check run against a server
// that already held votes, as long as no other client votes at the same time.
//
// Ownership: a value type. Thread model: immutable once made.
#ifndef PARTITA_BENCH_VOTER_CONSISTENCY_H_
#define PARTITA_BENCH_VOTER_CONSISTENCY_H_

#include <string>
#include <vector>

#include "outcomes.h"
#include "standings.h"

namespace partita::bench::voter {

struct Consistency {
  bool consistent = false;
  // One line per compared figure: driver, database, and a mark when they differ.
  std::vector<std::string> lines;

  // REQUIRES: `phases` non-empty, all for the same number of contestants.
  static Consistency Check(const Standings& before, const Standings& after,
                           const std::vector<const Outcomes*>& phases);
};

}  // namespace partita::bench::voter

#endif  // PARTITA_BENCH_VOTER_CONSISTENCY_H_
