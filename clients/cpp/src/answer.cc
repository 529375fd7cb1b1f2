#include "answer.h"

#include <utility>

namespace partita::client {
namespace detail {

Status Answer::LoadOne(std::string table) {
  count_ = 0;
  if (bytes_.empty()) bytes_.resize(1);
  bytes_[0] = std::move(table);
  return ParseLoaded(1);
}

// The layouts and handles are made after every string is in place: a short
// table lives inside its std::string, so its bytes move when bytes_ grows.
Status Answer::ParseLoaded(size_t n) {
  if (layouts_.size() < n) layouts_.resize(n);
  for (size_t i = 0; i < n; ++i) {
    Status parsed = layouts_[i].Parse(bytes_[i]);
    if (!parsed.ok()) return parsed;
  }
  tables_.clear();
  for (size_t i = 0; i < n; ++i) tables_.push_back(ResultTable(this, &layouts_[i], /*counted=*/false));
  count_ = n;
  return Status::Ok();
}

void Answer::Release() {
  if (refs_.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  if (const std::shared_ptr<AnswerPool> pool = pool_.lock()) return pool->Give(this);
  delete this;
}

size_t Answer::RetainedBytes() const {
  size_t total = 0;
  for (const std::string& b : bytes_) total += b.capacity();
  for (const TableLayout& l : layouts_) {
    total += l.types.capacity() * sizeof(ValueType) + l.names.capacity() * sizeof(std::string_view) +
             (l.row_offsets.capacity() + l.value_offsets.capacity()) * sizeof(uint32_t);
  }
  return total;
}

}  // namespace detail

AnswerPool::~AnswerPool() {
  for (detail::Answer* answer : idle_) delete answer;
}

detail::Answer* AnswerPool::Take() {
  detail::Answer* answer = nullptr;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!idle_.empty()) {
      answer = idle_.back();
      idle_.pop_back();
    }
  }
  if (answer == nullptr) answer = new detail::Answer(weak_from_this());
  answer->Retain();
  return answer;
}

void AnswerPool::Give(detail::Answer* answer) {
  if (answer->RetainedBytes() <= kMaxRetainedBytes) {
    std::lock_guard<std::mutex> lock(mu_);
    if (idle_.size() < kMaxIdle) {
      if (idle_.capacity() == 0) idle_.reserve(kMaxIdle);
      idle_.push_back(answer);
      return;
    }
  }
  delete answer;
}

size_t AnswerPool::idle() const {
  std::lock_guard<std::mutex> lock(mu_);
  return idle_.size();
}

}  // namespace partita::client
