// BatchRequest: decodes the serialized batch format of
// docs/engine-formats.md (what the JNI bridge passes) into StatementCalls.
//   Request    := u8 flags (bit 0 = final batch, bit 1 = dependencies follow,
//                 bit 2 = time limit follows, bit 3 = prefetch key follows),
//                 i64 txn_timestamp, [u32 time_limit_ms if bit 2, nonzero],
//                 [Param if bit 3, not NULL: BatchOptions::prefetch_key],
//                 u16 call_count, call_count × Call, [Dependencies if bit 1]
//   Call       := i32 statement_id,
//                 [if statement_id = -1: u32 length, length bytes of a
//                  serialized proto::Statement (an ad-hoc statement)],
//                 u16 param_count, param_count × Param
//   Param      := u8 type (proto::ValueType; VALUE_TYPE_NULL for NULL), then
//                 the value as in result rows (nothing for NULL)
//   Dependencies := u16 dependency_count, each i32 dependency_id,
//                 u32 byte_length, byte_length bytes = one result table
//                 (starting with its u32 table_size)
// Little-endian. String Values and dependency tables point into the request
// bytes; ad-hoc statements are parsed into objects this BatchRequest owns.
// Thread model: partition-confined (one per Engine).
#ifndef PARTITA_ENGINE_BATCH_REQUEST_H_
#define PARTITA_ENGINE_BATCH_REQUEST_H_

#include <memory>
#include <span>
#include <vector>

#include "catalog.pb.h"

#include "partita/engine.h"

namespace partita {

class BatchRequest {
 public:
  // Decodes `bytes`; BAD_REQUEST naming the offset of the first problem.
  // Reuses this object's buffers.
  Status Decode(std::span<const uint8_t> bytes);

  std::span<const StatementCall> calls() const { return calls_; }
  // Includes the dependency tables.
  const BatchOptions& options() const { return options_; }

 private:
  // The next reusable Statement object for an ad-hoc call.
  proto::Statement* NextStatement();

  BatchOptions options_;
  std::vector<Value> values_;
  std::vector<StatementCall> calls_;
  std::vector<std::pair<size_t, size_t>> ranges_;  // values_ slice of each call
  std::vector<std::unique_ptr<proto::Statement>> statements_;
  size_t statements_used_ = 0;
  std::vector<DependencyTable> dependencies_;
};

}  // namespace partita

#endif  // PARTITA_ENGINE_BATCH_REQUEST_H_
