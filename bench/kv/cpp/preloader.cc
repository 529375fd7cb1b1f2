#include "preloader.h"

#include <chrono>
#include <cstdio>

#include "text_format.h"

namespace partita::bench::kv {
namespace {

using Clock = std::chrono::steady_clock;

int64_t Nanos(Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

}  // namespace

Preloader::Preloader(client::Client* client, const KeySpace* keys, const ValueFactory* values, WriteLog* writes,
                     std::atomic<int64_t>* sequence)
    : client_(client), keys_(keys), values_(values), writes_(writes), sequence_(sequence) {}

std::string Preloader::Run(double display_interval_s) {
  const Clock::time_point start = Clock::now();
  const auto every = std::chrono::nanoseconds(static_cast<int64_t>(display_interval_s * 1e9));
  Clock::time_point next_report = start + every;
  for (int key = 0; key < keys_->count(); ++key) {
    Put(key);
    if (Clock::now() >= next_report) {
      const uint64_t n = done_.load();
      std::printf("kv: preload %s / %s keys (%.0f%%), %.1f s\n", Grouped(static_cast<int64_t>(n)).c_str(),
                  Grouped(keys_->count()).c_str(), 100.0 * static_cast<double>(n) / keys_->count(),
                  std::chrono::duration<double>(Clock::now() - start).count());
      std::fflush(stdout);
      next_report += every;
    }
  }
  client_->Drain();
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  std::printf("kv: preloaded %s keys of %s bytes in %.1f s (%s puts/s)\n",
              Grouped(static_cast<int64_t>(done_.load())).c_str(), Grouped(static_cast<int64_t>(values_->size())).c_str(),
              seconds, GroupedFixed(static_cast<double>(done_.load()) / std::max(seconds, 1e-9), 0).c_str());
  std::fflush(stdout);
  if (failed_.load() == 0) return "";
  return std::to_string(failed_.load()) + " preload put(s) failed; first: " + first_failure_;
}

void Preloader::Put(int key) {
  const int64_t sequence = sequence_->fetch_add(1) + 1;
  const Clock::time_point sent = Clock::now();
  client_->CallAsync("Put", {keys_->Key(key), client::Param::Bytes(values_->Value(sequence))},
                     [this, key, sequence, sent](client::Result<client::Response> r) {
                       if (r.ok() && r->ok()) {
                         writes_->Acknowledged(key, sequence, Nanos(sent), Nanos(Clock::now()));
                         done_.fetch_add(1);
                         return;
                       }
                       if (!r.ok()) writes_->OutcomeUnknown(key);
                       failed_.fetch_add(1);
                       if (!failure_noted_.exchange(true)) {
                         first_failure_ = r.ok() ? r->ToString() : r.status().ToString();
                       }
                     });
}

}  // namespace partita::bench::kv
