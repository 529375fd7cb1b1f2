#include "partita/client/result_tables.h"

#include <utility>

#include "answer.h"

namespace partita::client {

ResultTables::ResultTables(detail::Answer* answer)
    : answer_(answer),
      tables_(answer == nullptr ? nullptr : answer->tables()),
      size_(answer == nullptr ? 0 : answer->table_count()) {}

ResultTables::ResultTables(const ResultTables& other)
    : answer_(other.answer_), tables_(other.tables_), size_(other.size_) {
  if (answer_ != nullptr) answer_->Retain();
}

ResultTables::ResultTables(ResultTables&& other) noexcept
    : answer_(std::exchange(other.answer_, nullptr)),
      tables_(std::exchange(other.tables_, nullptr)),
      size_(std::exchange(other.size_, 0)) {}

ResultTables& ResultTables::operator=(const ResultTables& other) {
  if (this == &other) return *this;
  if (other.answer_ != nullptr) other.answer_->Retain();
  Drop();
  answer_ = other.answer_;
  tables_ = other.tables_;
  size_ = other.size_;
  return *this;
}

ResultTables& ResultTables::operator=(ResultTables&& other) noexcept {
  if (this == &other) return *this;
  Drop();
  answer_ = std::exchange(other.answer_, nullptr);
  tables_ = std::exchange(other.tables_, nullptr);
  size_ = std::exchange(other.size_, 0);
  return *this;
}

ResultTables::~ResultTables() { Drop(); }

void ResultTables::Drop() {
  if (answer_ != nullptr) answer_->Release();
  answer_ = nullptr;
  tables_ = nullptr;
  size_ = 0;
}

}  // namespace partita::client
