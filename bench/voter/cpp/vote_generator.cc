#include "vote_generator.h"

#include <algorithm>
#include <cmath>

#include "area_codes.h"

namespace partita::bench::voter {
namespace {
constexpr double kGoldenRatioFraction = 0.618033988749895;
}  // namespace

VoteGenerator::VoteGenerator(int contestants, SplitRandom random)
    : random_(random), contestants_(contestants), cumulative_(contestants), favourites_(kAreaCodeCount) {
  double sum = 0;
  for (int k = 1; k <= contestants; ++k) {
    sum += 1.0 / k;
    cumulative_[k - 1] = sum;
  }
  for (double& c : cumulative_) c /= sum;
  cumulative_.back() = 1.0;
  for (size_t i = 0; i < kAreaCodeCount; ++i) {
    favourites_[i] = Pick(std::fmod(static_cast<double>(i) * kGoldenRatioFraction, 1.0));
  }
}

VoteGenerator VoteGenerator::Split() { return VoteGenerator(contestants_, random_.Split()); }

void VoteGenerator::Next() {
  const int area_index = random_.NextInt(static_cast<int32_t>(kAreaCodeCount));
  phone_ = kAreaCodes[area_index] * kAreaCodeMultiplier + random_.NextInt(static_cast<int32_t>(kAreaCodeMultiplier));
  if (random_.NextInt(kInvalidOneIn) == 0) {
    contestant_ = contestants_ + 1;
  } else if (random_.NextBoolean()) {
    contestant_ = favourites_[area_index];
  } else {
    contestant_ = Pick(random_.NextDouble());
  }
}

double VoteGenerator::Weight(int k) const { return cumulative_[k - 1] - (k > 1 ? cumulative_[k - 2] : 0); }

int VoteGenerator::Pick(double u) const {
  // Java's Arrays.binarySearch: an exact hit at i picks i + 2 (the next
  // bucket), otherwise the insertion point + 1.
  const auto at = std::lower_bound(cumulative_.begin(), cumulative_.end(), u);
  size_t index = static_cast<size_t>(at - cumulative_.begin());
  if (at != cumulative_.end() && *at == u) ++index;
  return static_cast<int>(std::min(index, cumulative_.size() - 1)) + 1;
}

}  // namespace partita::bench::voter
