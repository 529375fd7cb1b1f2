// ResultTables: the result tables of one answer, in order, as
// Response::results holds them. Reads like a const std::vector<ResultTable>:
// size(), empty(), [i], at(i), front(), and range-for.
//
//   for (const ResultTable& t : response.results) { ... }
//
// The client parses an answer's tables into storage it reuses from answer
// to answer (a pool per client), so taking an answer allocates nothing once
// the pool is warm: the tables' bytes and their layouts go back to the pool
// when the last Response, ResultTables or ResultTable sharing them is gone.
//
// Ownership: holds one reference on the answer (detail::Answer); copies
// share it (one atomic increment). Thread model: immutable; safe to read
// from any thread, and to destroy on any thread.
#ifndef PARTITA_CLIENT_RESULT_TABLES_H_
#define PARTITA_CLIENT_RESULT_TABLES_H_

#include <cstddef>
#include <stdexcept>
#include <string>

#include "partita/client/result_table.h"

namespace partita::client {

class ResultTables final {
 public:
  using value_type = ResultTable;
  using const_iterator = const ResultTable*;
  using iterator = const_iterator;

  ResultTables() = default;
  // Takes over one reference the caller holds on `answer`, whose tables
  // are these (null: no tables). For the client's own use.
  explicit ResultTables(detail::Answer* answer);

  ResultTables(const ResultTables& other);
  ResultTables(ResultTables&& other) noexcept;
  ResultTables& operator=(const ResultTables& other);
  ResultTables& operator=(ResultTables&& other) noexcept;
  ~ResultTables();

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // REQUIRES: i < size().
  const ResultTable& operator[](size_t i) const { return tables_[i]; }
  // Throws std::out_of_range when i >= size().
  const ResultTable& at(size_t i) const {
    if (i >= size_) throw std::out_of_range("result table " + std::to_string(i) + " of " + std::to_string(size_));
    return tables_[i];
  }
  // REQUIRES: !empty().
  const ResultTable& front() const { return tables_[0]; }
  const_iterator begin() const { return tables_; }
  const_iterator end() const { return tables_ + size_; }

 private:
  void Drop();

  detail::Answer* answer_ = nullptr;
  const ResultTable* tables_ = nullptr;
  size_t size_ = 0;
};

}  // namespace partita::client

#endif  // PARTITA_CLIENT_RESULT_TABLES_H_
