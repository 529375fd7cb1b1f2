#include "partition_pauses.h"

#include <algorithm>
#include <cstdio>

namespace partita::bench::kv {

PartitionPauses::PartitionPauses(std::vector<int> partition_of_key, Clock::time_point start)
    : partition_of_key_(std::move(partition_of_key)),
      steady_origin_(Clock::now()),
      wall_origin_(std::chrono::system_clock::now()) {
  int count = 0;
  for (int p : partition_of_key_) count = std::max(count, p + 1);
  partitions_.assign(count, Partition{start, Clock::duration{0}, start});
}

void PartitionPauses::Record(int key, Clock::time_point at) {
  if (key < 0 || static_cast<size_t>(key) >= partition_of_key_.size()) return;
  const int p = partition_of_key_[key];
  if (p < 0) return;
  std::lock_guard<std::mutex> lock(mu_);
  Partition& partition = partitions_[p];
  if (at <= partition.last) return;  // answers may be counted out of order across threads
  if (at - partition.last > partition.longest) {
    partition.longest = at - partition.last;
    partition.longest_end = at;
  }
  partition.last = at;
}

int64_t PartitionPauses::EpochMillis(Clock::time_point t) const {
  const auto wall = wall_origin_ + std::chrono::duration_cast<std::chrono::system_clock::duration>(t - steady_origin_);
  return std::chrono::duration_cast<std::chrono::milliseconds>(wall.time_since_epoch()).count();
}

std::vector<std::string> PartitionPauses::Lines() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> lines;
  for (size_t p = 0; p < partitions_.size(); ++p) {
    const Partition& partition = partitions_[p];
    char line[160];
    std::snprintf(line, sizeof line, "kv: pause: partition %zu longest %.3f s from %lld to %lld (epoch ms)", p,
                  std::chrono::duration<double>(partition.longest).count(),
                  static_cast<long long>(EpochMillis(partition.longest_end - partition.longest)),
                  static_cast<long long>(EpochMillis(partition.longest_end)));
    lines.emplace_back(line);
  }
  return lines;
}

}  // namespace partita::bench::kv
