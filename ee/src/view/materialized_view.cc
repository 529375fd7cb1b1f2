#include "view/materialized_view.h"

#include "common/assert.h"
#include "errors.pb.h"
#include "types/decimal.h"

namespace partita {

MaterializedView::MaterializedView(Table* source, Table* view, std::vector<int> group_columns,
                                   std::vector<Aggregate> aggregates, int row_count_column,
                                   std::unique_ptr<Expression> predicate, const TableIndex* group_index, Arena* arena)
    : source_(source),
      view_(view),
      group_columns_(std::move(group_columns)),
      aggregates_(std::move(aggregates)),
      row_count_column_(row_count_column),
      predicate_(std::move(predicate)),
      group_index_(group_index),
      arena_(arena),
      source_row_(source->schema().column_count()),
      key_(group_columns_.size()),
      view_row_(view->schema().column_count()),
      candidate_row_(source->schema().column_count()) {
  for (const Aggregate& agg : aggregates_) {
    extreme_cursors_.push_back(agg.extreme_index != nullptr ? agg.extreme_index->NewCursor() : nullptr);
  }
}

Status MaterializedView::LoadSource(const char* tuple, bool* passes) {
  source_->schema().GetAll(tuple, source_row_.data());
  *passes = true;
  if (predicate_ == nullptr) return Status::OK();
  EvalContext ctx;
  ctx.row = source_row_.data();
  ctx.arena = arena_;
  return EvalPredicate(*predicate_, ctx, passes);
}

const char* MaterializedView::FindGroup() {
  for (size_t i = 0; i < group_columns_.size(); ++i) key_[i] = source_row_[group_columns_[i]];
  if (group_index_ != nullptr) return group_index_->FindUnique(key_.data());
  Table::Iterator it = view_->Scan();
  return it.Next();
}

Status MaterializedView::AddToSum(const Value& sum, const Value& v, bool subtract, Value* out) const {
  if (sum.type() == ValueType::kFloat) {
    const double x = IsIntegerType(v.type()) ? static_cast<double>(v.int_value()) : v.float_value();
    *out = Value::Float(subtract ? sum.float_value() - x : sum.float_value() + x);
    return Status::OK();
  }
  if (sum.type() == ValueType::kDecimal) {
    const int128 x = v.type() == ValueType::kDecimal ? v.decimal_value()
                                                      : static_cast<int128>(v.int_value()) * kDecimalScaleFactor;
    Result<int128> r = subtract ? decimal::Subtract(sum.decimal_value(), x) : decimal::Add(sum.decimal_value(), x);
    if (!r.ok()) return r.status();
    *out = Value::Decimal(r.value());
    return Status::OK();
  }
  int64_t result;
  const bool overflow = subtract ? __builtin_sub_overflow(sum.int_value(), v.int_value(), &result)
                                 : __builtin_add_overflow(sum.int_value(), v.int_value(), &result);
  if (overflow) {
    return Status(proto::ERROR_CODE_NUMERIC_OUT_OF_RANGE,
                  "SUM in materialized view " + view_->name() + " overflows BIGINT");
  }
  *out = Value::BigInt(result);
  return Status::OK();
}

namespace {

// The value as stored in a view column of type `type`.
Value AsViewValue(const Value& v, ValueType type) {
  if (v.is_null()) return Value::Null(type);
  if (type == ValueType::kBigInt && IsIntegerType(v.type())) return Value::BigInt(v.int_value());
  if (type == ValueType::kFloat && IsIntegerType(v.type())) return Value::Float(static_cast<double>(v.int_value()));
  if (type == ValueType::kDecimal && IsIntegerType(v.type())) {
    return Value::Decimal(static_cast<int128>(v.int_value()) * kDecimalScaleFactor);
  }
  return v;
}

}  // namespace

Status MaterializedView::AddToGroup(UndoLog* undo) {
  const char* row = FindGroup();
  const TupleSchema& vs = view_->schema();
  if (row == nullptr) {
    for (size_t i = 0; i < key_.size(); ++i) view_row_[i] = key_[i];
    view_row_[row_count_column_] = Value::BigInt(1);
    for (const Aggregate& agg : aggregates_) {
      const ValueType type = vs.column(agg.view_column).type;
      const Value v = agg.kind == proto::AGGREGATE_KIND_COUNT_STAR ? Value() : source_row_[agg.source_column];
      switch (agg.kind) {
        case proto::AGGREGATE_KIND_COUNT_STAR: view_row_[agg.view_column] = Value::BigInt(1); break;
        case proto::AGGREGATE_KIND_COUNT: view_row_[agg.view_column] = Value::BigInt(v.is_null() ? 0 : 1); break;
        case proto::AGGREGATE_KIND_SUM:
          view_row_[agg.view_column] = AsViewValue(v, type);
          view_row_[agg.nonnull_column] = Value::BigInt(v.is_null() ? 0 : 1);
          break;
        default: view_row_[agg.view_column] = AsViewValue(v, type); break;
      }
    }
    return view_->Insert(view_row_.data(), undo);
  }
  vs.GetAll(row, view_row_.data());
  view_row_[row_count_column_] = Value::BigInt(view_row_[row_count_column_].int_value() + 1);
  for (const Aggregate& agg : aggregates_) {
    Value& cell = view_row_[agg.view_column];
    if (agg.kind == proto::AGGREGATE_KIND_COUNT_STAR) {
      cell = Value::BigInt(cell.int_value() + 1);
      continue;
    }
    const Value& v = source_row_[agg.source_column];
    if (v.is_null()) continue;
    switch (agg.kind) {
      case proto::AGGREGATE_KIND_COUNT: cell = Value::BigInt(cell.int_value() + 1); break;
      case proto::AGGREGATE_KIND_SUM: {
        Value& nonnull = view_row_[agg.nonnull_column];
        if (nonnull.int_value() == 0) {
          cell = AsViewValue(v, cell.type());
        } else {
          PARTITA_RETURN_IF_ERROR(AddToSum(cell, v, false, &cell));
        }
        nonnull = Value::BigInt(nonnull.int_value() + 1);
        break;
      }
      case proto::AGGREGATE_KIND_MIN:
        if (cell.is_null() || CompareValues(v, cell) < 0) cell = AsViewValue(v, cell.type());
        break;
      case proto::AGGREGATE_KIND_MAX:
        if (cell.is_null() || CompareValues(v, cell) > 0) cell = AsViewValue(v, cell.type());
        break;
      default: break;
    }
  }
  return view_->Update(row, view_row_.data(), undo);
}

Status MaterializedView::FindExtreme(const Aggregate& agg, Value* out) {
  IndexCursor* cursor = extreme_cursors_[&agg - aggregates_.data()].get();
  PARTITA_ASSERT(cursor != nullptr, "MIN/MAX view aggregate without its ordered index");
  const KeyBound group{key_.data(), static_cast<int>(key_.size()), true};
  cursor->SeekRange(group, group,
                    agg.kind == proto::AGGREGATE_KIND_MIN ? ScanOrder::kForward : ScanOrder::kBackward);
  const TupleSchema& schema = source_->schema();
  while (const char* t = cursor->Next()) {
    if (schema.IsNull(t, agg.source_column)) continue;
    if (predicate_ != nullptr) {
      schema.GetAll(t, candidate_row_.data());
      EvalContext ctx;
      ctx.row = candidate_row_.data();
      ctx.arena = arena_;
      bool passes = false;
      PARTITA_RETURN_IF_ERROR(EvalPredicate(*predicate_, ctx, &passes));
      if (!passes) continue;
    }
    *out = AsViewValue(schema.Get(t, agg.source_column), view_->schema().column(agg.view_column).type);
    return Status::OK();
  }
  *out = Value::Null(view_->schema().column(agg.view_column).type);
  return Status::OK();
}

Status MaterializedView::RemoveFromGroup(UndoLog* undo) {
  const char* row = FindGroup();
  if (row == nullptr) {
    return Status(proto::ERROR_CODE_INTERNAL, "materialized view " + view_->name() + " lost a group");
  }
  const TupleSchema& vs = view_->schema();
  vs.GetAll(row, view_row_.data());
  const int64_t rows = view_row_[row_count_column_].int_value();
  if (rows <= 1) return view_->Delete(row, undo);
  view_row_[row_count_column_] = Value::BigInt(rows - 1);
  for (const Aggregate& agg : aggregates_) {
    Value& cell = view_row_[agg.view_column];
    if (agg.kind == proto::AGGREGATE_KIND_COUNT_STAR) {
      cell = Value::BigInt(cell.int_value() - 1);
      continue;
    }
    const Value& v = source_row_[agg.source_column];
    if (v.is_null()) continue;
    switch (agg.kind) {
      case proto::AGGREGATE_KIND_COUNT: cell = Value::BigInt(cell.int_value() - 1); break;
      case proto::AGGREGATE_KIND_SUM: {
        Value& nonnull = view_row_[agg.nonnull_column];
        nonnull = Value::BigInt(nonnull.int_value() - 1);
        if (nonnull.int_value() == 0) {
          cell = Value::Null(cell.type());
        } else {
          PARTITA_RETURN_IF_ERROR(AddToSum(cell, v, true, &cell));
        }
        break;
      }
      case proto::AGGREGATE_KIND_MIN:
      case proto::AGGREGATE_KIND_MAX:
        if (!cell.is_null() && CompareValues(v, cell) == 0) PARTITA_RETURN_IF_ERROR(FindExtreme(agg, &cell));
        break;
      default: break;
    }
  }
  return view_->Update(row, view_row_.data(), undo);
}

Status MaterializedView::OnInsert(const char* tuple, UndoLog* undo) {
  bool passes;
  PARTITA_RETURN_IF_ERROR(LoadSource(tuple, &passes));
  return passes ? AddToGroup(undo) : Status::OK();
}

Status MaterializedView::OnDelete(const char* tuple, UndoLog* undo) {
  bool passes;
  PARTITA_RETURN_IF_ERROR(LoadSource(tuple, &passes));
  return passes ? RemoveFromGroup(undo) : Status::OK();
}

namespace {

bool SameColumn(const TupleSchema& schema, const char* a, const char* b, int c) {
  const bool a_null = schema.IsNull(a, c), b_null = schema.IsNull(b, c);
  if (a_null || b_null) return a_null == b_null;
  return CompareValues(schema.Get(a, c), schema.Get(b, c)) == 0;
}

}  // namespace

Status MaterializedView::OnUpdate(const char* old_image, const char* tuple, UndoLog* undo) {
  if (predicate_ == nullptr) {
    // Skip updates that touch neither the group nor an aggregated column.
    const TupleSchema& schema = source_->schema();
    bool relevant = false;
    for (const int c : group_columns_) relevant |= !SameColumn(schema, old_image, tuple, c);
    for (const Aggregate& agg : aggregates_) {
      if (agg.source_column >= 0) relevant |= !SameColumn(schema, old_image, tuple, agg.source_column);
    }
    if (!relevant) return Status::OK();
  }
  PARTITA_RETURN_IF_ERROR(OnDelete(old_image, undo));
  return OnInsert(tuple, undo);
}

}  // namespace partita
