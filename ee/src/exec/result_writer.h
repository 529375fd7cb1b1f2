// ResultWriter: appends result tables to a ResultSet in the binary format of
// result_table.h (docs/engine-formats.md). Values are written as the column's
// declared type; a value of another type is converted (CAST rules) first.
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
  void Put(const void* p, size_t n) {
    const size_t at = buf_->size();
    buf_->resize(at + n);
    std::memcpy(buf_->data() + at, p, n);
  }
  template <typename T>
  void PutScalar(T v) {
    Put(&v, sizeof v);
  }
  Status PutValue(const Value& v, ValueType type, Arena* arena);

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
