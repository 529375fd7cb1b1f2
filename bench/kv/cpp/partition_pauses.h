// PartitionPauses: for each partition, the longest time between two
// successful operations on its keys, as the driver saw their answers, and
// when that pause ended (wall clock). After a host of a cluster dies, the
// partitions it led pause from the last answer before the kill to the first
// answer of their new leader: the failover as a client sees it
// (bench/kv/run --kill-host-after, bench/cluster/RESULTS.md).
//
// Ownership: a value owned by the driver. Thread model: Record from any
// thread (one mutex: only runs asking for it pay for it); Lines after the
// load ended.
#ifndef PARTITA_BENCH_KV_PARTITION_PAUSES_H_
#define PARTITA_BENCH_KV_PARTITION_PAUSES_H_

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace partita::bench::kv {

class PartitionPauses {
 public:
  using Clock = std::chrono::steady_clock;

  // `partition_of_key[k]` is key k's partition (-1: unknown, not tracked).
  // Pauses count from `start` (the load's start).
  PartitionPauses(std::vector<int> partition_of_key, Clock::time_point start);

  // A successful operation on `key` answered at `at`.
  void Record(int key, Clock::time_point at);

  // One line per partition: "kv: pause: partition P longest S s from A to B
  // (epoch ms)", A and B the wall-clock times of the two answers around it.
  std::vector<std::string> Lines() const;

 private:
  struct Partition {
    Clock::time_point last;
    Clock::duration longest{0};
    Clock::time_point longest_end;
  };
  int64_t EpochMillis(Clock::time_point t) const;

  const std::vector<int> partition_of_key_;
  // The wall clock at one steady instant: converts answer times to epoch ms.
  const Clock::time_point steady_origin_;
  const std::chrono::system_clock::time_point wall_origin_;
  mutable std::mutex mu_;
  std::vector<Partition> partitions_;  // guarded by mu_
};

}  // namespace partita::bench::kv

#endif  // PARTITA_BENCH_KV_PARTITION_PAUSES_H_
