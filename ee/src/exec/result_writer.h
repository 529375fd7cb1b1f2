// ResultWriter: appends result tables to a ResultSet in the binary format of
// result_table.h (docs/engine-formats.md). Values are written as the column's
// declared type; a value of another type is converted (CAST rules) first.
// A row whose values all have their column's type (the usual case) grows
// the buffer once and is written through a pointer; a table's header too.
// Thread model: partition-confined; reused across batches.
#ifndef PARTITA_EXEC_RESULT_WRITER_H_
#define PARTITA_EXEC_RESULT_WRITER_H_

#include <string>
#include <vector>

#include "common/arena.h"
#include "partita/result_table.h"

namespace partita {

// A table's column header, encoded once per statement.
struct ResultHeader {
  std::vector<ValueType> types;
  // u16 column_count and the column descriptors, ready to copy.
  std::string bytes;

  static ResultHeader Make(const std::vector<std::pair<std::string, ValueType>>& columns);
};

class ResultWriter {
 public:
  // Starts a new result set in `out`; at most `limit` bytes.
  void Begin(ResultSet* out, size_t limit);
  void BeginTable(const ResultHeader& header);
  // REQUIRES: BeginTable was called; `row` has header.types.size() values.
  Status AddRow(const Value* row, Arena* arena);
  void EndTable();
  // Writes the table count; the result set is complete.
  void Finish();

 private:
  // Grows the buffer by n bytes (zeroed); returns where they start. Valid
  // until the next growth.
  uint8_t* Grow(size_t n) {
    const size_t at = buf_->size();
    buf_->resize(at + n);
    return buf_->data() + at;
  }
  // The bytes `v` takes as a value of its own type `type`; 0 for a type
  // results cannot hold.
  static size_t ValueSize(const Value& v, ValueType type);
  // Writes `v` (of its column's type `type`) at `p`; returns the end.
  static uint8_t* WriteValue(uint8_t* p, const Value& v, ValueType type);
  // Bytes of `row` as a row (size, bitmap, values), or 0 when a value must
  // be converted first.
  size_t RowSize(const Value* row) const;
  // AddRow for a row with values to convert: value by value.
  Status AddConvertedRow(const Value* row, Arena* arena);
  Status PutValue(const Value& v, ValueType type, Arena* arena);
  Status CheckLimit() const;

  ResultSet* out_ = nullptr;
  std::vector<uint8_t>* buf_ = nullptr;
  size_t limit_ = 0;
  const ResultHeader* header_ = nullptr;
  size_t table_start_ = 0;
  size_t row_count_at_ = 0;
  uint32_t rows_ = 0;
};

}  // namespace partita

#endif  // PARTITA_EXEC_RESULT_WRITER_H_
