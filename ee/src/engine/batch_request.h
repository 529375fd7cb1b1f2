// BatchRequest: decodes the serialized batch format of
// docs/engine-formats.md (what the JNI bridge passes) into StatementCalls.
//   Request := u8 flags (bit 0 = final batch), i64 txn_timestamp,
//              u16 call_count, call_count × Call
//   Call    := i32 statement_id, u16 param_count, param_count × Param
//   Param   := u8 type (proto::ValueType; VALUE_TYPE_NULL for NULL), then
//              the value as in result rows (nothing for NULL)
// Little-endian. String Values point into the request bytes.
#ifndef PARTITA_ENGINE_BATCH_REQUEST_H_
#define PARTITA_ENGINE_BATCH_REQUEST_H_

#include <span>
#include <vector>

#include "partita/engine.h"

namespace partita {

class BatchRequest {
 public:
  // Decodes `bytes`; BAD_REQUEST naming the offset of the first problem.
  // Reuses this object's buffers.
  Status Decode(std::span<const uint8_t> bytes);

  std::span<const StatementCall> calls() const { return calls_; }
  const BatchOptions& options() const { return options_; }

 private:
  BatchOptions options_;
  std::vector<Value> values_;
  std::vector<StatementCall> calls_;
};

}  // namespace partita

#endif  // PARTITA_ENGINE_BATCH_REQUEST_H_
