#include "exec/aggregate_executor.h"

#include "errors.pb.h"
#include "types/decimal.h"
#include "types/value_cast.h"

namespace partita {
namespace {

bool IsAvg(proto::AggregateKind k) {
  return k == proto::AGGREGATE_KIND_AVG || k == proto::AGGREGATE_KIND_AVG_DISTINCT;
}
// Whether the aggregate only counts each distinct value once.
bool IsDistinct(proto::AggregateKind k) {
  return k == proto::AGGREGATE_KIND_COUNT_DISTINCT || k == proto::AGGREGATE_KIND_SUM_DISTINCT ||
         k == proto::AGGREGATE_KIND_AVG_DISTINCT;
}
bool IsCount(proto::AggregateKind k) {
  return k == proto::AGGREGATE_KIND_COUNT || k == proto::AGGREGATE_KIND_COUNT_STAR;
}

// sum + v with overflow checks; the wider of the two kinds wins
// (integer < DECIMAL < FLOAT).
Status AddNumbers(const Value& sum, const Value& v, Value* out) {
  if (sum.type() == ValueType::kFloat || v.type() == ValueType::kFloat) {
    auto as_double = [](const Value& x) {
      if (x.type() == ValueType::kFloat) return x.float_value();
      if (x.type() == ValueType::kDecimal) return decimal::ToDouble(x.decimal_value());
      return static_cast<double>(x.int_value());
    };
    *out = Value::Float(as_double(sum) + as_double(v));
    return Status::OK();
  }
  if (sum.type() == ValueType::kDecimal || v.type() == ValueType::kDecimal) {
    auto as_decimal = [](const Value& x) {
      return x.type() == ValueType::kDecimal ? x.decimal_value()
                                             : static_cast<int128>(x.int_value()) * kDecimalScaleFactor;
    };
    Result<int128> r = decimal::Add(as_decimal(sum), as_decimal(v));
    if (!r.ok()) return r.status();
    *out = Value::Decimal(r.value());
    return Status::OK();
  }
  int64_t result;
  if (__builtin_add_overflow(sum.int_value(), v.int_value(), &result)) {
    return Status(proto::ERROR_CODE_NUMERIC_OUT_OF_RANGE,
                  "SUM overflows BIGINT adding " + v.ToString() + " to " + sum.ToString());
  }
  *out = Value::BigInt(result);
  return Status::OK();
}

}  // namespace

int AggregateExecutor::OutputWidth(int group_by, const std::vector<proto::AggregateKind>& kinds,
                                   proto::AggregatePhase phase) {
  int width = group_by;
  for (const auto k : kinds) width += (IsAvg(k) && phase == proto::AGGREGATE_PHASE_PARTIAL) ? 2 : 1;
  return width;
}

namespace {

std::vector<proto::AggregateKind> KindsOf(const std::vector<AggregateExecutor::Aggregate>& aggregates) {
  std::vector<proto::AggregateKind> kinds;
  for (const auto& a : aggregates) kinds.push_back(a.kind);
  return kinds;
}

}  // namespace

AggregateExecutor::AggregateExecutor(std::unique_ptr<Executor> child,
                                     std::vector<std::unique_ptr<Expression>> group_by,
                                     std::vector<Aggregate> aggregates, proto::AggregatePhase phase,
                                     std::unique_ptr<Expression> having)
    : Executor(Kind::kOther, OutputWidth(static_cast<int>(group_by.size()), KindsOf(aggregates), phase)),
      group_by_(std::move(group_by)),
      aggregates_(std::move(aggregates)),
      phase_(phase),
      having_(std::move(having)),
      key_(group_by_.size()),
      row_(width()) {
  int input = static_cast<int>(group_by_.size());
  for (const Aggregate& a : aggregates_) {
    merge_input_columns_.push_back(input);
    input += IsAvg(a.kind) ? 2 : 1;
  }
  AddChild(std::move(child));
}

AggregateExecutor::Group AggregateExecutor::NewGroup(const Value* key) {
  Group g{key, ctx_->arena->New<Accumulator>()};
  if (aggregates_.size() > 1) {
    g.accumulators = reinterpret_cast<Accumulator*>(ctx_->arena->Allocate(sizeof(Accumulator) * aggregates_.size()));
    for (size_t i = 0; i < aggregates_.size(); ++i) new (&g.accumulators[i]) Accumulator();
  }
  for (size_t i = 0; i < aggregates_.size(); ++i) {
    if (IsDistinct(aggregates_[i].kind)) {
      distinct_sets_.push_back(std::make_unique<absl::flat_hash_set<RowRef, RowRefHash, RowRefEq>>());
      g.accumulators[i].distinct = distinct_sets_.back().get();
    }
  }
  return g;
}

Status AggregateExecutor::OpenImpl() {
  group_ids_.clear();
  groups_.clear();
  distinct_sets_.clear();
  next_ = 0;
  PARTITA_RETURN_IF_ERROR(child(0)->Open(ctx_));
  for (;;) {
    const Value* in;
    PARTITA_RETURN_IF_ERROR(child(0)->Next(&in));
    if (in == nullptr) break;
    PARTITA_RETURN_IF_ERROR(Consume(in));
  }
  if (groups_.empty() && group_by_.empty()) groups_.push_back(NewGroup(nullptr));
  return Status::OK();
}

Status AggregateExecutor::Consume(const Value* in) {
  const EvalContext eval = ctx_->Eval(in);
  for (size_t i = 0; i < group_by_.size(); ++i) PARTITA_RETURN_IF_ERROR(group_by_[i]->Eval(eval, &key_[i]));
  const int key_width = static_cast<int>(key_.size());
  size_t id;
  auto it = group_ids_.find(RowRef{key_.data(), key_width});
  if (it != group_ids_.end()) {
    id = it->second;
  } else {
    if (ctx_->guard != nullptr) {
      const int64_t accumulators = static_cast<int64_t>(sizeof(Accumulator) * aggregates_.size());
      PARTITA_RETURN_IF_ERROR(ctx_->guard->ChargeRow(key_.data(), key_width, "aggregate (GROUP BY)"));
      PARTITA_RETURN_IF_ERROR(ctx_->guard->Charge(accumulators, "aggregate (GROUP BY)"));
    }
    const Value* key = CopyRow(key_.data(), key_width, ctx_->arena);
    id = groups_.size();
    groups_.push_back(NewGroup(key));
    group_ids_.emplace(RowRef{key, key_width}, id);
  }
  for (size_t i = 0; i < aggregates_.size(); ++i) {
    PARTITA_RETURN_IF_ERROR(Accumulate(aggregates_[i], in, merge_input_columns_[i], &groups_[id].accumulators[i]));
  }
  return Status::OK();
}

Status AggregateExecutor::Accumulate(const Aggregate& agg, const Value* in, int input_column, Accumulator* acc) {
  const bool merge = phase_ == proto::AGGREGATE_PHASE_MERGE;
  if (agg.kind == proto::AGGREGATE_KIND_COUNT_STAR && !merge) {
    ++acc->count;
    return Status::OK();
  }
  Value v;
  if (merge) {
    v = in[input_column];
  } else {
    PARTITA_RETURN_IF_ERROR(agg.argument->Eval(ctx_->Eval(in), &v));
  }
  if (merge && IsCount(agg.kind)) {
    acc->count += v.is_null() ? 0 : v.int_value();
    return Status::OK();
  }
  if (merge && IsAvg(agg.kind)) acc->count += in[input_column + 1].is_null() ? 0 : in[input_column + 1].int_value();
  if (v.is_null()) return Status::OK();
  if (agg.kind == proto::AGGREGATE_KIND_SUM_DISTINCT || agg.kind == proto::AGGREGATE_KIND_AVG_DISTINCT) {
    if (acc->distinct->contains(RowRef{&v, 1})) return Status::OK();
    acc->distinct->insert(RowRef{CopyRow(&v, 1, ctx_->arena), 1});
  }
  switch (agg.kind) {
    case proto::AGGREGATE_KIND_COUNT: ++acc->count; return Status::OK();
    case proto::AGGREGATE_KIND_COUNT_DISTINCT: {
      if (!acc->distinct->contains(RowRef{&v, 1})) acc->distinct->insert(RowRef{CopyRow(&v, 1, ctx_->arena), 1});
      return Status::OK();
    }
    case proto::AGGREGATE_KIND_MIN:
    case proto::AGGREGATE_KIND_MAX: {
      const int c = acc->has_value ? CompareValues(v, acc->value) : 0;
      if (!acc->has_value || (agg.kind == proto::AGGREGATE_KIND_MIN ? c < 0 : c > 0)) {
        acc->value = *CopyRow(&v, 1, ctx_->arena);
        acc->has_value = true;
      }
      return Status::OK();
    }
    default: break;  // SUM, AVG (DISTINCT or not)
  }
  if (IsAvg(agg.kind) && !merge) ++acc->count;
  if (!acc->has_value) {
    acc->value = IsIntegerType(v.type()) ? Value::BigInt(v.int_value()) : v;
    acc->has_value = true;
    return Status::OK();
  }
  return AddNumbers(acc->value, v, &acc->value);
}

Status AggregateExecutor::Finish(const Group& g, Value* out) {
  int col = 0;
  for (size_t i = 0; i < group_by_.size(); ++i) out[col++] = g.key[i];
  for (size_t i = 0; i < aggregates_.size(); ++i) {
    const Aggregate& agg = aggregates_[i];
    const Accumulator& acc = g.accumulators[i];
    switch (agg.kind) {
      case proto::AGGREGATE_KIND_COUNT_STAR:
      case proto::AGGREGATE_KIND_COUNT: out[col++] = Value::BigInt(acc.count); continue;
      case proto::AGGREGATE_KIND_COUNT_DISTINCT:
        out[col++] = Value::BigInt(static_cast<int64_t>(acc.distinct->size()));
        continue;
      default: break;
    }
    if (IsAvg(agg.kind) && phase_ == proto::AGGREGATE_PHASE_PARTIAL) {
      out[col++] = acc.has_value ? acc.value : Value::Null(agg.type);
      out[col++] = Value::BigInt(acc.count);
      continue;
    }
    if (!acc.has_value) {
      out[col++] = Value::Null(agg.type);
      continue;
    }
    Value result = acc.value;
    if (IsAvg(agg.kind)) {
      if (acc.count == 0) {
        out[col++] = Value::Null(agg.type);
        continue;
      }
      if (agg.type == ValueType::kFloat) {
        result = Value::Float(result.type() == ValueType::kDecimal ? decimal::ToDouble(result.decimal_value()) /
                                                                         static_cast<double>(acc.count)
                              : result.type() == ValueType::kFloat
                                  ? result.float_value() / static_cast<double>(acc.count)
                                  : static_cast<double>(result.int_value()) / static_cast<double>(acc.count));
      } else if (result.type() == ValueType::kDecimal || agg.type == ValueType::kDecimal) {
        const int128 sum = result.type() == ValueType::kDecimal
                               ? result.decimal_value()
                               : static_cast<int128>(result.int_value()) * kDecimalScaleFactor;
        Result<int128> q = decimal::Divide(sum, static_cast<int128>(acc.count) * kDecimalScaleFactor);
        if (!q.ok()) return q.status();
        result = Value::Decimal(q.value());
      } else if (IsIntegerType(result.type())) {
        result = Value::BigInt(result.int_value() / acc.count);
      } else {
        result = Value::Float(result.float_value() / static_cast<double>(acc.count));
      }
    }
    if (result.type() != agg.type) {
      Result<Value> converted = ConvertValue(result, agg.type, 0, ConversionMode::kCast, ctx_->arena, "aggregate");
      if (!converted.ok()) return converted.status();
      result = converted.value();
    }
    out[col++] = result;
  }
  return Status::OK();
}

Status AggregateExecutor::NextImpl(const Value** row) {
  while (next_ < groups_.size()) {
    PARTITA_RETURN_IF_ERROR(Finish(groups_[next_++], row_.data()));
    bool passes = true;
    if (having_ != nullptr) PARTITA_RETURN_IF_ERROR(EvalPredicate(*having_, ctx_->Eval(row_.data()), &passes));
    if (passes) {
      *row = row_.data();
      return Status::OK();
    }
  }
  *row = nullptr;
  return Status::OK();
}

}  // namespace partita
