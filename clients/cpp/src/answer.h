// Answer: the result tables of one answer from the server, their bytes and
// their parsed layouts, in storage that is reused from answer to answer.
// AnswerPool: the answers of one client not in use.
//
// Why: an answer used to cost about seven allocations (its bytes in a
// shared string, four vectors per table, the vector of tables). An answer
// taken from the pool keeps the capacity of its strings and vectors, and
// the frame's strings are swapped in, not copied, so a warm pool parses an
// answer of the same shape without allocating.
//
// Ownership: an Answer is reference counted by the ResultTables and
// ResultTable copies that share it (Retain/Release). When the count falls
// to zero it goes back to its pool, or is deleted when it has none (a table
// parsed on its own) or the pool is gone (the client was destroyed first).
// The pool owns the answers it holds.
// Thread model: an Answer is filled by one thread before any handle to it
// exists, then only read; Release may run on any thread. AnswerPool is
// thread-safe (a mutex around its free list).
#ifndef PARTITA_CLIENT_SRC_ANSWER_H_
#define PARTITA_CLIENT_SRC_ANSWER_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "partita/client/result_table.h"
#include "partita/client/status.h"

namespace partita::client {

class AnswerPool;

namespace detail {

// The parsed layout of one table (docs/engine-formats.md): where each value
// starts in `bytes`. Parse checks every size against the bytes once.
struct TableLayout {
  std::string_view bytes;  // the whole table, its u32 table_size first
  std::vector<ValueType> types;
  std::vector<std::string_view> names;
  size_t row_count = 0;
  std::vector<uint32_t> row_offsets;    // each row's NULL bitmap
  std::vector<uint32_t> value_offsets;  // row * column_count + column; 0 for a NULL

  // Parses `table`, reusing the vectors' capacity. On failure the layout is
  // left half filled and must not be read; the status names the byte offset.
  Status Parse(std::string_view table);
};

class Answer final {
 public:
  explicit Answer(std::weak_ptr<AnswerPool> pool) : pool_(std::move(pool)) {}
  Answer(const Answer&) = delete;
  Answer& operator=(const Answer&) = delete;

  // Takes the tables' bytes by swapping each string of `tables` with one of
  // its own (so `tables` keeps this answer's old buffers for the next
  // frame), then parses them. REQUIRES: no handle to this answer exists.
  template <typename Strings>
  Status Load(Strings& tables) {
    count_ = 0;
    const size_t n = static_cast<size_t>(tables.size());
    if (bytes_.size() < n) bytes_.resize(n);
    for (size_t i = 0; i < n; ++i) bytes_[i].swap(tables[static_cast<int>(i)]);
    return ParseLoaded(n);
  }
  // Takes one table's bytes. REQUIRES: no handle to this answer exists.
  Status LoadOne(std::string table);

  size_t table_count() const { return count_; }
  const ResultTable* tables() const { return tables_.data(); }

  void Retain() { refs_.fetch_add(1, std::memory_order_relaxed); }
  // Drops one reference; the last one returns the answer to its pool.
  void Release();

  // Bytes of the buffers this answer keeps (what the pool would hold on to).
  size_t RetainedBytes() const;

 private:
  Status ParseLoaded(size_t n);

  std::atomic<uint32_t> refs_{0};
  std::weak_ptr<AnswerPool> pool_;
  std::vector<std::string> bytes_;     // one per table; at least count_ of them
  std::vector<TableLayout> layouts_;   // at least count_ of them
  std::vector<ResultTable> tables_;    // count_ uncounted handles on layouts_
  size_t count_ = 0;
};

}  // namespace detail

class AnswerPool final : public std::enable_shared_from_this<AnswerPool> {
 public:
  // At most this many answers wait in the pool, and an answer keeping more
  // than kMaxRetainedBytes of buffers is freed instead of kept, so one large
  // answer does not pin its memory for the client's lifetime.
  static constexpr size_t kMaxIdle = 4096;
  static constexpr size_t kMaxRetainedBytes = 64 * 1024;

  static std::shared_ptr<AnswerPool> Create() { return std::shared_ptr<AnswerPool>(new AnswerPool()); }
  ~AnswerPool();

  // An answer with one reference, held by the caller.
  detail::Answer* Take();
  // Called by Answer::Release when its last reference went.
  void Give(detail::Answer* answer);

  size_t idle() const;

 private:
  AnswerPool() = default;

  mutable std::mutex mu_;
  std::vector<detail::Answer*> idle_;
};

}  // namespace partita::client

#endif  // PARTITA_CLIENT_SRC_ANSWER_H_
