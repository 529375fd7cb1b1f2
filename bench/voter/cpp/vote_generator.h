// VoteGenerator: the phone calls of the Voter workload, drawn exactly as
// the Java driver draws them (bench/voter/README.md, "Distribution"):
//  - phone number: a known area code (kAreaCodes, uniformly) x 10^7 + 7
//    uniformly random digits, so almost every caller is new;
//  - 1 call in 100 names contestant `contestants + 1`, which does not exist
//    (Vote rejects it);
//  - otherwise contestant k (1..n) has weight 1/k; each area code has a
//    favourite, the contestant whose cumulative-weight bucket holds
//    (index x 0.618033988749895) mod 1; half the calls vote for their area
//    code's favourite, the other half draw a contestant by the weights.
// With the same seed it yields the same calls as the Java VoteGenerator.
//
// Ownership: a value type. Thread model: not synchronized; one generator per
// calling thread (Split() makes an independent one).
#ifndef PARTITA_BENCH_VOTER_VOTE_GENERATOR_H_
#define PARTITA_BENCH_VOTER_VOTE_GENERATOR_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "split_random.h"

namespace partita::bench::voter {

class VoteGenerator {
 public:
  // One call in this many names a contestant that does not exist.
  static constexpr int kInvalidOneIn = 100;
  static constexpr int64_t kAreaCodeMultiplier = 10'000'000;

  // REQUIRES: contestants >= 1.
  VoteGenerator(int contestants, SplitRandom random);

  // An independent generator with the same contestants, for another thread.
  VoteGenerator Split();

  // Draws the next call; read it with phone() and contestant().
  void Next();

  int64_t phone() const { return phone_; }
  // 1..contestants, or contestants + 1 (invalid).
  int contestant() const { return contestant_; }

  // The weight of contestant k (1-based) among the valid votes: (1/k) / (1/1 + ... + 1/n).
  double Weight(int k) const;
  // The favourite contestant of the area code at `area_index` of kAreaCodes.
  int Favourite(size_t area_index) const { return favourites_[area_index]; }

 private:
  // The contestant (from 1) whose bucket holds u in [0, 1).
  int Pick(double u) const;

  SplitRandom random_;
  int contestants_;
  std::vector<double> cumulative_;  // cumulative_[k-1]: weights of 1..k over their sum; the last is 1
  std::vector<int> favourites_;
  int64_t phone_ = 0;
  int contestant_ = 0;
};

}  // namespace partita::bench::voter

#endif  // PARTITA_BENCH_VOTER_VOTE_GENERATOR_H_
