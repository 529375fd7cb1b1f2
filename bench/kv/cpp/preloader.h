// Preloader: writes every key of the key space once, asynchronously (as fast
// as the client's in-flight bound allows), printing progress every display
// interval. Each acknowledged put is recorded in the WriteLog, so keys never
// written during the run are verified against their preloaded value.
//
// Ownership: borrows everything it is given. Thread model: one thread runs it.
#ifndef PARTITA_BENCH_KV_PRELOADER_H_
#define PARTITA_BENCH_KV_PRELOADER_H_

#include <atomic>
#include <cstdint>
#include <string>

#include "key_space.h"
#include "partita/client/client.h"
#include "value_factory.h"
#include "write_log.h"

namespace partita::bench::kv {

class Preloader {
 public:
  Preloader(client::Client* client, const KeySpace* keys, const ValueFactory* values, WriteLog* writes,
            std::atomic<int64_t>* sequence);

  // Writes keys 0 .. count-1 and waits for every answer. Returns an empty
  // string on success, else how many puts failed and the first reason.
  std::string Run(double display_interval_s);

 private:
  void Put(int key);

  client::Client* client_;
  const KeySpace* keys_;
  const ValueFactory* values_;
  WriteLog* writes_;
  std::atomic<int64_t>* sequence_;
  std::atomic<uint64_t> done_{0};
  std::atomic<uint64_t> failed_{0};
  std::atomic<bool> failure_noted_{false};
  std::string first_failure_;  // written once, by the callback that set failure_noted_; read after Drain()
};

}  // namespace partita::bench::kv

#endif  // PARTITA_BENCH_KV_PRELOADER_H_
