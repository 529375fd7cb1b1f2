// Executor: one node of a statement's plan, built once from proto::PlanNode
// when the catalog loads and reused by every execution (pull model).
//
// Template method: Open()/Next() are the public calls; they keep the shared
// bookkeeping (context, row counts) and call the node's OpenImpl()/NextImpl().
// A row is `width()` Values; the pointer Next() returns stays valid until the
// next call to Next() or Open() on the same executor.
//
// Ownership: an executor owns its children. Thread model: partition-confined.
#ifndef PARTITA_EXEC_EXECUTOR_H_
#define PARTITA_EXEC_EXECUTOR_H_

#include <memory>
#include <string>
#include <vector>

#include "common/assert.h"
#include "exec/exec_context.h"

namespace partita {

class Executor {
 public:
  // Kind tags for checked downcasts (Cast<T>()).
  enum class Kind { kSeqScan, kIndexScan, kOther };

  Executor(Kind kind, int width) : kind_(kind), width_(width) {}
  virtual ~Executor() = default;
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;

  // Starts an execution. `ctx` outlives it.
  [[nodiscard]] Status Open(ExecContext* ctx) {
    ctx_ = ctx;
    rows_ = 0;
    return OpenImpl();
  }
  // Produces the next row into `*row`, or nullptr at the end. Every row
  // counts toward the guard's deadline and cancel checks.
  [[nodiscard]] Status Next(const Value** row) {
    if (ctx_->guard != nullptr) PARTITA_RETURN_IF_ERROR(ctx_->guard->Tick());
    PARTITA_RETURN_IF_ERROR(NextImpl(row));
    rows_ += *row != nullptr;
    return Status::OK();
  }

  int width() const { return width_; }
  Kind kind() const { return kind_; }
  int64_t rows_produced() const { return rows_; }
  void AddChild(std::unique_ptr<Executor> child) { children_.push_back(std::move(child)); }
  Executor* child(int i) const { return children_[i].get(); }
  int child_count() const { return static_cast<int>(children_.size()); }

  // Checked downcast. REQUIRES: the executor is a T.
  template <typename T>
  T& Cast() {
    PARTITA_ASSERT(kind_ == T::kKind, "executor downcast to the wrong kind");
    return static_cast<T&>(*this);
  }

 protected:
  virtual Status OpenImpl() = 0;
  virtual Status NextImpl(const Value** row) = 0;

  ExecContext* ctx_ = nullptr;

 private:
  Kind kind_;
  int width_;
  int64_t rows_ = 0;
  std::vector<std::unique_ptr<Executor>> children_;
};

// Scans that DML reads target tuples from expose the current tuple.
class TupleSource : public Executor {
 public:
  using Executor::Executor;
  // The tuple of the row last returned by Next().
  virtual const char* current_tuple() const = 0;
  // The table scanned.
  virtual class Table* table() const = 0;
};

}  // namespace partita

#endif  // PARTITA_EXEC_EXECUTOR_H_
