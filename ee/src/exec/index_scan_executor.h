// IndexScanExecutor: rows of a table found through one of its indexes — a
// point lookup of a key (prefix), or a range of an ordered index — with an
// optional residual predicate. Key expressions read parameters and, when the
// scan is the inner side of an index join, the outer row.
//
// SQL semantics: a NULL in an equality key or a bound matches nothing.
#ifndef PARTITA_EXEC_INDEX_SCAN_EXECUTOR_H_
#define PARTITA_EXEC_INDEX_SCAN_EXECUTOR_H_

#include "exec/executor.h"
#include "index/table_index.h"
#include "storage/table.h"

namespace partita {

class IndexScanExecutor final : public TupleSource {
 public:
  static constexpr Kind kKind = Kind::kIndexScan;

  struct Bound {
    std::vector<std::unique_ptr<Expression>> key;  // empty = unbounded
    bool inclusive = true;
  };

  // `lookup_key` non-empty = equality; else the bounds define a range.
  IndexScanExecutor(Table* table, TableIndex* index, std::vector<std::unique_ptr<Expression>> lookup_key,
                    Bound lower, Bound upper, ScanOrder order, std::unique_ptr<Expression> predicate);

  // Positions the cursor, evaluating keys over `outer_row` (nullptr when the
  // scan is not the inner side of a join). Open() calls it with nullptr.
  Status Seek(const Value* outer_row);
  // For the inner side of a join: uses `ctx` without seeking (keys need the
  // outer row; the join calls Seek per outer row).
  void BindContext(ExecContext* ctx) { ctx_ = ctx; }
  // Returns the next matching row (nullptr at the end); current_tuple() is
  // its tuple.
  Status NextTuple(const Value** row);

  const char* current_tuple() const override { return current_; }
  Table* table() const override { return table_; }

 protected:
  Status OpenImpl() override { return Seek(nullptr); }
  Status NextImpl(const Value** row) override { return NextTuple(row); }

 private:
  // Evaluates `exprs` into `out`; *has_null = any result NULL.
  Status EvalKey(const std::vector<std::unique_ptr<Expression>>& exprs, const Value* outer_row, Value* out,
                 bool* has_null);

  Table* table_;
  TableIndex* index_;
  std::vector<std::unique_ptr<Expression>> lookup_key_;
  Bound lower_, upper_;
  ScanOrder order_;
  std::unique_ptr<Expression> predicate_;
  std::unique_ptr<IndexCursor> cursor_;
  std::vector<Value> key_values_, lower_values_, upper_values_;
  std::vector<Value> row_;
  const char* current_ = nullptr;
  bool empty_ = false;
  int null_excluded_column_ = -1;  // table column whose NULLs are skipped
};

}  // namespace partita

#endif  // PARTITA_EXEC_INDEX_SCAN_EXECUTOR_H_
