#include "partita/partition_runner.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <memory>
#include <thread>

#include "common/assert.h"
#include "errors.pb.h"

namespace partita {

// One partition: a thread that opens its Engine, then runs queued tasks in
// order until told to stop (after draining the queue).
class PartitionRunner::Partition {
 public:
  Partition(std::string catalog_bytes, int id, int count) : catalog_(std::move(catalog_bytes)) {
    options_.partition_id = id;
    options_.partition_count = count;
  }

  ~Partition() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stopping_ = true;
    }
    cv_.notify_one();
    if (thread_.joinable()) thread_.join();
  }

  // Starts the thread; returns the Engine's Open status.
  Status Start() {
    // Shared with the thread: set_value may still be notifying when get()
    // returns, so the promise must outlive this frame.
    auto opened = std::make_shared<std::promise<Status>>();
    std::future<Status> result = opened->get_future();
    thread_ = std::thread([this, opened] { Run(opened.get()); });
    return result.get();
  }

  std::future<void> Submit(std::function<void(Engine&)> work) {
    std::packaged_task<void(Engine&)> task(std::move(work));
    std::future<void> done = task.get_future();
    {
      std::lock_guard<std::mutex> lock(mu_);
      PARTITA_ASSERT(!stopping_, "Submit after the runner began stopping");
      tasks_.push_back(std::move(task));
    }
    cv_.notify_one();
    return done;
  }

 private:
  void Run(std::promise<Status>* opened) {
    Result<std::unique_ptr<Engine>> engine = Engine::Open(catalog_, options_);
    opened->set_value(engine.ok() ? Status::OK() : engine.status());
    if (!engine.ok()) return;
    for (;;) {
      std::packaged_task<void(Engine&)> task;
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [this] { return stopping_ || !tasks_.empty(); });
        if (tasks_.empty()) return;  // stopping and drained
        task = std::move(tasks_.front());
        tasks_.pop_front();
      }
      task(*engine.value());
    }
  }

  std::string catalog_;
  EngineOptions options_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::packaged_task<void(Engine&)>> tasks_;  // GUARDED_BY(mu_)
  bool stopping_ = false;                                // GUARDED_BY(mu_)
  std::thread thread_;
};

Result<std::unique_ptr<PartitionRunner>> PartitionRunner::Start(std::string_view catalog_bytes, int partition_count) {
  if (partition_count < 1) return Status(proto::ERROR_CODE_BAD_PARAMETER, "partition_count must be at least 1");
  std::unique_ptr<PartitionRunner> runner(new PartitionRunner());
  for (int i = 0; i < partition_count; ++i) {
    runner->partitions_.push_back(std::make_unique<Partition>(std::string(catalog_bytes), i, partition_count));
    PARTITA_RETURN_IF_ERROR(runner->partitions_.back()->Start());
  }
  return runner;
}

PartitionRunner::~PartitionRunner() = default;

std::future<void> PartitionRunner::Submit(int partition, std::function<void(Engine&)> work) {
  PARTITA_ASSERT(partition >= 0 && partition < partition_count(), "partition out of range");
  return partitions_[partition]->Submit(std::move(work));
}

}  // namespace partita
