#include "engine/snapshot_stream.h"

#include <cstring>

#include "engine/snapshot_chunk.h"

namespace partita {

SnapshotStream::SnapshotStream(const std::vector<std::unique_ptr<Table>>& tables) {
  for (const auto& t : tables) {
    t->BeginSnapshot();
    tables_.push_back(t.get());
  }
}

SnapshotStream::~SnapshotStream() {
  for (size_t i = current_; i < tables_.size(); ++i) tables_[i]->EndSnapshot();
}

bool SnapshotStream::Next(size_t max_bytes, std::string* chunk) {
  chunk->clear();
  if (current_ == tables_.size()) return false;
  Table* table = tables_[current_];
  TableSnapshot* snapshot = table->snapshot();
  SnapshotChunk header;
  header.table = table->name();
  for (int c = 0; c < table->schema().column_count(); ++c) header.column_types.push_back(table->schema().column(c).type);
  header.next_row_id = snapshot->cut_row_id();
  header.cut_rows = static_cast<uint64_t>(snapshot->cut_row_count());
  header.index = chunk_index_;
  header.AppendTo(chunk);
  const auto rows = static_cast<uint32_t>(snapshot->Emit(max_bytes, chunk));
  const bool last = snapshot->done();
  const size_t at = header.RowCountOffset();
  (*chunk)[at - 1] = last ? 1 : 0;
  std::memcpy(chunk->data() + at, &rows, sizeof rows);
  rows_emitted_ += rows;
  ++chunk_index_;
  if (last) {
    table->EndSnapshot();
    ++current_;
    chunk_index_ = 0;
  }
  return true;
}

size_t SnapshotStream::preserved_bytes() const {
  size_t bytes = 0;
  for (size_t i = current_; i < tables_.size(); ++i) bytes += tables_[i]->snapshot()->preserved_bytes();
  return bytes;
}

}  // namespace partita
