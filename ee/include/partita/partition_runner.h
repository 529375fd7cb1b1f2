// PartitionRunner: runs N partitions of one catalog, each Engine owned by its
// own std::thread and fed by its own task queue — the embedded form of the
// one-thread-per-partition model.
//
// Thread model: Submit() may be called from any thread (the queues are
// guarded by a mutex each); each Engine is touched only by its thread.
// Destruction drains every queue, then joins the threads.
#ifndef PARTITA_PARTITION_RUNNER_H_
#define PARTITA_PARTITION_RUNNER_H_

#include <functional>
#include <future>
#include <memory>
#include <vector>

#include "partita/engine.h"

namespace partita {

class PartitionRunner {
 public:
  // Opens `partition_count` engines from `catalog_bytes`, each on the thread
  // that will own it. Returns the first Open error, if any.
  static Result<std::unique_ptr<PartitionRunner>> Start(std::string_view catalog_bytes, int partition_count);

  ~PartitionRunner();
  PartitionRunner(const PartitionRunner&) = delete;
  PartitionRunner& operator=(const PartitionRunner&) = delete;

  // Queues `work` to run on partition `partition`'s thread with its Engine.
  // The future completes when it has run. REQUIRES: 0 <= partition < count.
  std::future<void> Submit(int partition, std::function<void(Engine&)> work);

  int partition_count() const { return static_cast<int>(partitions_.size()); }

 private:
  class Partition;
  PartitionRunner() = default;
  std::vector<std::unique_ptr<Partition>> partitions_;
};

}  // namespace partita

#endif  // PARTITA_PARTITION_RUNNER_H_
