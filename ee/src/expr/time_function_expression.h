// TimeFunctionExpression: the TIMESTAMP functions of proto::Function, all in
// UTC.
//   EXTRACT_YEAR .. EXTRACT_SECOND   civil fields; SECOND is whole seconds
//                                    (the fraction is dropped)
//   EXTRACT_DAY_OF_WEEK              1 = Sunday .. 7 = Saturday
//   EXTRACT_DAY_OF_YEAR              1 .. 366
//   TO_TIMESTAMP_SECONDS/MILLIS/MICROS(n)  n units after the epoch; outside
//                                    years 0001..9999 is NUMERIC_OUT_OF_RANGE
//   SINCE_EPOCH_SECONDS/MILLIS/MICROS(ts)  whole units since the epoch,
//                                    rounded toward negative infinity (so
//                                    TO_TIMESTAMP_x(SINCE_EPOCH_x(ts)) <= ts)
//   TRUNCATE_DAY/HOUR/MINUTE(ts)     start of the day/hour/minute
//   CURRENT_TIMESTAMP                ctx.txn_timestamp (never the clock)
// A NULL argument gives NULL. Integer results are range-checked against the
// node's type.
//
// Ownership: owns its argument. Thread model: immutable; partition-confined.
#ifndef PARTITA_EXPR_TIME_FUNCTION_EXPRESSION_H_
#define PARTITA_EXPR_TIME_FUNCTION_EXPRESSION_H_

#include <memory>

#include "expr/expression.h"

namespace partita::expr {

class TimeFunctionExpression final : public Expression {
 public:
  // REQUIRES: `fn` is a time function; `arg` is null iff fn is
  // CURRENT_TIMESTAMP.
  TimeFunctionExpression(ValueType type, proto::Function fn, std::unique_ptr<Expression> arg);
  Status Eval(const EvalContext& ctx, Value* out) const override;

 private:
  Status ToTimestamp(int64_t n, int64_t micros_per_unit, Value* out) const;
  Status IntResult(int64_t x, Value* out) const;

  proto::Function fn_;
  std::unique_ptr<Expression> arg_;
};

}  // namespace partita::expr

#endif  // PARTITA_EXPR_TIME_FUNCTION_EXPRESSION_H_
