#include "engine/snapshot_loader.h"

#include <algorithm>

#include "errors.pb.h"
#include "storage/row_codec.h"

namespace partita {
namespace {

Status Bad(const std::string& table, const std::string& what) {
  return Status(proto::ERROR_CODE_BAD_REQUEST, "snapshot chunk of table " + table + ": " + what);
}

}  // namespace

Status SnapshotLoader::Load(std::string_view chunk, LoadedCatalog* catalog, Arena* view_arena) {
  Result<SnapshotChunk> header = SnapshotChunk::Parse(&chunk);
  if (!header.ok()) return header.status();
  Table* table = catalog->FindTable(header->table);
  if (table == nullptr) return Bad(header->table, "no such table in the catalog");
  PARTITA_RETURN_IF_ERROR(CheckHeader(header.value(), table));
  const RowId next_row_id_before = table->next_row_id();
  Status s;
  if (header->streams_views()) {
    if (header->index == 0 && header->cut_rows <= kMaxReservedRows) {
      table->ReserveForLoad(static_cast<int64_t>(header->cut_rows));
    }
    s = LoadRows(header.value(), chunk, table);
    if (!s.ok()) table->UnloadRows(loaded_, next_row_id_before);
    loaded_.clear();
  } else {
    s = InsertRows(header.value(), chunk, table);
    if (!s.ok()) {
      undo_.Rollback();
    } else {
      undo_.Commit();
    }
  }
  view_arena->Reset();
  arena_.Reset();
  if (!s.ok()) return s;
  if (header->last) {
    if (header->next_row_id > table->next_row_id()) table->AdvanceNextRowId(header->next_row_id);
    next_index_[header->table] = kTableDone;
  } else {
    next_index_[header->table] = header->index + 1;
  }
  return Status::OK();
}

Status SnapshotLoader::CheckHeader(const SnapshotChunk& header, const Table* table) {
  if (table->is_view() && !header.streams_views()) {
    return Bad(header.table, "it is a materialized view, and a format 1 stream rebuilds views, it does not load them");
  }
  const TupleSchema& schema = table->schema();
  if (header.column_types.size() != static_cast<size_t>(schema.column_count())) {
    return Bad(header.table, std::to_string(header.column_types.size()) + " columns, the table has " +
                                 std::to_string(schema.column_count()));
  }
  for (int c = 0; c < schema.column_count(); ++c) {
    if (header.column_types[c] != schema.column(c).type) {
      return Bad(header.table, "column " + schema.column(c).name + " is " +
                                   std::string(TypeName(header.column_types[c])) + " in the chunk, " +
                                   std::string(TypeName(schema.column(c).type)) + " in the table");
    }
  }
  const auto it = next_index_.find(header.table);
  uint32_t expected = it == next_index_.end() ? 0 : it->second;
  // A table whose stream ended and that is empty again (its rows deleted since) takes a new stream: a restore.
  if (expected == kTableDone && header.index == 0 && table->row_count() == 0) expected = 0;
  if (expected == kTableDone) return Bad(header.table, "a chunk after the table's last one");
  if (header.index != expected) {
    return Bad(header.table, "chunk " + std::to_string(header.index) + " where chunk " + std::to_string(expected) +
                                 " was expected");
  }
  if (expected == 0 && table->row_count() != 0) {
    return Bad(header.table, "the table already holds " + std::to_string(table->row_count()) +
                                 " rows (a snapshot loads into empty tables)");
  }
  if (header.next_row_id > TupleSchema::kMaxRowId + 1) return Bad(header.table, "next row id out of range");
  if (header.cut_rows != 0 && header.cut_rows >= header.next_row_id) {
    return Bad(header.table, "a row count of " + std::to_string(header.cut_rows) + " with row ids below " +
                                 std::to_string(header.next_row_id));
  }
  return Status::OK();
}

Status SnapshotLoader::NextRow(const SnapshotChunk& header, const std::string& what, std::string_view* rows,
                               const Table& table, RowId* id) {
  PARTITA_RETURN_IF_ERROR(RowCodec::Decode(table.schema(), rows, id, decoded_.data(), what));
  if (*id == 0 || *id >= header.next_row_id) {
    return Bad(header.table, "row id " + std::to_string(*id) + " outside 1.." + std::to_string(header.next_row_id - 1));
  }
  return table.ValidateRow(decoded_.data(), validated_.data(), &arena_);
}

Status SnapshotLoader::LoadRows(const SnapshotChunk& header, std::string_view rows, Table* table) {
  decoded_.resize(table->schema().column_count());
  validated_.resize(table->schema().column_count());
  // Not more than the bytes can hold (a row is at least its id and a presence byte per column): a damaged
  // row count must not reserve gigabytes.
  const size_t min_row_bytes = sizeof(RowId) + static_cast<size_t>(table->schema().column_count());
  loaded_.reserve(std::min<size_t>(header.row_count, rows.size() / min_row_bytes));
  const std::string what = "snapshot chunk " + std::to_string(header.index) + " of table " + header.table;
  for (uint32_t i = 0; i < header.row_count; ++i) {
    RowId id = 0;
    PARTITA_RETURN_IF_ERROR(NextRow(header, what, &rows, *table, &id));
    const char* tuple = nullptr;
    PARTITA_RETURN_IF_ERROR(table->LoadRow(validated_.data(), id, &tuple));
    loaded_.push_back(tuple);
  }
  if (!rows.empty()) {
    return Bad(header.table, std::to_string(rows.size()) + " bytes after its " + std::to_string(header.row_count) +
                                 " rows");
  }
  const auto held = static_cast<uint64_t>(table->row_count());
  if (header.last ? held != header.cut_rows : held > header.cut_rows) {
    return Bad(header.table, std::to_string(held) + " rows loaded by chunk " + std::to_string(header.index) +
                                 (header.last ? ", its last," : "") + " where the stream holds " +
                                 std::to_string(header.cut_rows));
  }
  return Status::OK();
}

Status SnapshotLoader::InsertRows(const SnapshotChunk& header, std::string_view rows, Table* table) {
  decoded_.resize(table->schema().column_count());
  validated_.resize(table->schema().column_count());
  const std::string what = "snapshot chunk " + std::to_string(header.index) + " of table " + header.table;
  for (uint32_t i = 0; i < header.row_count; ++i) {
    RowId id = 0;
    PARTITA_RETURN_IF_ERROR(NextRow(header, what, &rows, *table, &id));
    PARTITA_RETURN_IF_ERROR(table->InsertWithRowId(validated_.data(), id, &undo_));
  }
  if (!rows.empty()) {
    return Bad(header.table, std::to_string(rows.size()) + " bytes after its " + std::to_string(header.row_count) +
                                 " rows");
  }
  return Status::OK();
}

}  // namespace partita
