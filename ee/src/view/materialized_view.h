// MaterializedView: keeps an aggregate view table in step with its source
// table, inside the same transaction as every source write:
//   SELECT g..., COUNT(*), COUNT(c), SUM(c), MIN(c), MAX(c)
//   FROM source [WHERE p] GROUP BY g...
//
// The view table's columns are the group-by columns, then one per aggregate,
// then hidden BIGINT counters: the group's row count, and the non-NULL count
// of each SUM (so a SUM returns to NULL exactly when its last non-NULL value
// leaves). View rows are written through Table, so the undo log restores them
// with everything else. Deleting a group's current MIN/MAX finds the new one
// through an ordered index on (g..., c) of the source — never a scan.
//
// Ownership: the Engine owns views and tables; a view holds plain pointers.
// Thread model: partition-confined.
#ifndef PARTITA_VIEW_MATERIALIZED_VIEW_H_
#define PARTITA_VIEW_MATERIALIZED_VIEW_H_

#include <memory>
#include <vector>

#include "expr/expression.h"
#include "index/table_index.h"
#include "storage/table.h"

namespace partita {

class MaterializedView final : public TableListener {
 public:
  struct Aggregate {
    proto::AggregateKind kind;
    // Source column (unused for COUNT_STAR).
    int source_column = -1;
    // Column of the view table holding the result.
    int view_column = -1;
    // SUM: hidden non-NULL counter column; -1 otherwise.
    int nonnull_column = -1;
    // MIN/MAX: ordered source index with key (group columns..., source_column).
    const TableIndex* extreme_index = nullptr;
  };

  // `group_index`: unique index of the view table over its group columns
  // (nullptr when there are no group columns). `row_count_column`: hidden
  // counter of the group's rows. `arena` holds strings made by `predicate`.
  MaterializedView(Table* source, Table* view, std::vector<int> group_columns, std::vector<Aggregate> aggregates,
                   int row_count_column, std::unique_ptr<Expression> predicate, const TableIndex* group_index,
                   Arena* arena);

  Status OnInsert(const char* tuple, UndoLog* undo) override;
  Status OnDelete(const char* tuple, UndoLog* undo) override;
  Status OnUpdate(const char* old_image, const char* tuple, UndoLog* undo) override;

  const Table* view_table() const { return view_; }

 private:
  // Reads `tuple` into source_row_; `*passes` = the predicate holds.
  Status LoadSource(const char* tuple, bool* passes);
  // The view row of the group in source_row_, or nullptr.
  const char* FindGroup();
  Status AddToGroup(UndoLog* undo);
  Status RemoveFromGroup(UndoLog* undo);
  // The smallest (MIN) or largest (MAX) non-NULL value of the aggregate's
  // column among the group's qualifying rows, or NULL.
  Status FindExtreme(const Aggregate& agg, Value* out);
  Status AddToSum(const Value& sum, const Value& v, bool subtract, Value* out) const;

  Table* source_;
  Table* view_;
  std::vector<int> group_columns_;
  std::vector<Aggregate> aggregates_;
  int row_count_column_;
  std::unique_ptr<Expression> predicate_;
  const TableIndex* group_index_;
  Arena* arena_;
  // Scratch rows, sized once.
  std::vector<Value> source_row_;
  std::vector<Value> key_;
  std::vector<Value> view_row_;
  std::vector<Value> candidate_row_;
  std::vector<std::unique_ptr<IndexCursor>> extreme_cursors_;
};

}  // namespace partita

#endif  // PARTITA_VIEW_MATERIALIZED_VIEW_H_
