#include "write_log.h"

#include <algorithm>

namespace partita::bench::kv {

WriteLog::WriteLog(int key_count) : keys_(static_cast<size_t>(key_count)) {}

void WriteLog::Acknowledged(int key, int64_t sequence, int64_t sent_ns, int64_t ack_ns) {
  std::lock_guard<std::mutex> lock(StripeOf(key));
  KeyWrites& w = keys_[static_cast<size_t>(key)];
  if (sent_ns > w.latest_sent) {
    w.latest_sent = sent_ns;
    // The puts answered before this one was sent certainly precede it.
    std::erase_if(w.candidates, [sent_ns](const auto& c) { return c.second < sent_ns; });
  }
  w.candidates.emplace_back(sequence, ack_ns);
  w.last_ack = std::max(w.last_ack, ack_ns);
}

void WriteLog::OutcomeUnknown(int key) {
  std::lock_guard<std::mutex> lock(StripeOf(key));
  keys_[static_cast<size_t>(key)].uncertain = true;
}

std::vector<int64_t> WriteLog::Candidates(int key) const {
  std::lock_guard<std::mutex> lock(StripeOf(key));
  const KeyWrites& w = keys_[static_cast<size_t>(key)];
  std::vector<int64_t> sequences;
  if (w.uncertain) return sequences;
  for (const auto& [sequence, ack] : w.candidates) sequences.push_back(sequence);
  return sequences;
}

bool WriteLog::IsUncertain(int key) const {
  std::lock_guard<std::mutex> lock(StripeOf(key));
  return keys_[static_cast<size_t>(key)].uncertain;
}

int64_t WriteLog::LastAcknowledged(int key) const {
  std::lock_guard<std::mutex> lock(StripeOf(key));
  return keys_[static_cast<size_t>(key)].last_ack;
}

}  // namespace partita::bench::kv
