#include "engine/snapshot_chunk.h"

#include "errors.pb.h"
#include "storage/row_codec.h"

namespace partita {
namespace {

template <typename T>
void Put(std::string* out, T x) {
  RowCodec::Append(out, x);
}

template <typename T>
Status Take(std::string_view* in, T* x, const char* field) {
  if (RowCodec::Take(in, x)) return Status::OK();
  return Status(proto::ERROR_CODE_BAD_REQUEST, std::string("snapshot chunk: ends early in its ") + field);
}

}  // namespace

void SnapshotChunk::AppendTo(std::string* out) const {
  Put<uint8_t>(out, format);
  Put<uint16_t>(out, static_cast<uint16_t>(table.size()));
  out->append(table);
  Put<uint16_t>(out, static_cast<uint16_t>(column_types.size()));
  for (const ValueType t : column_types) Put<uint8_t>(out, static_cast<uint8_t>(t));
  Put<uint64_t>(out, next_row_id);
  if (streams_views()) Put<uint64_t>(out, cut_rows);
  Put<uint32_t>(out, index);
  Put<uint8_t>(out, last ? 1 : 0);
  Put<uint32_t>(out, row_count);
}

size_t SnapshotChunk::RowCountOffset() const {
  return 1 + 2 + table.size() + 2 + column_types.size() + 8 + (streams_views() ? 8 : 0) + 4 + 1;
}

Result<SnapshotChunk> SnapshotChunk::Parse(std::string_view* in) {
  SnapshotChunk c;
  PARTITA_RETURN_IF_ERROR(Take(in, &c.format, "format byte"));
  if (c.format != kFormat && c.format != kFormatWithoutViews) {
    return Status(proto::ERROR_CODE_BAD_REQUEST, "snapshot chunk: format " + std::to_string(c.format) + " is not " +
                                                     std::to_string(kFormatWithoutViews) + " or " +
                                                     std::to_string(kFormat));
  }
  uint16_t name_size = 0;
  PARTITA_RETURN_IF_ERROR(Take(in, &name_size, "table name length"));
  if (in->size() < name_size) return Status(proto::ERROR_CODE_BAD_REQUEST, "snapshot chunk: ends early in its table name");
  c.table = std::string(in->substr(0, name_size));
  in->remove_prefix(name_size);
  uint16_t columns = 0;
  PARTITA_RETURN_IF_ERROR(Take(in, &columns, "column count"));
  for (uint16_t i = 0; i < columns; ++i) {
    uint8_t type = 0;
    PARTITA_RETURN_IF_ERROR(Take(in, &type, "column types"));
    c.column_types.push_back(static_cast<ValueType>(type));
  }
  PARTITA_RETURN_IF_ERROR(Take(in, &c.next_row_id, "next row id"));
  if (c.streams_views()) PARTITA_RETURN_IF_ERROR(Take(in, &c.cut_rows, "table row count"));
  PARTITA_RETURN_IF_ERROR(Take(in, &c.index, "chunk index"));
  uint8_t last = 0;
  PARTITA_RETURN_IF_ERROR(Take(in, &last, "last flag"));
  c.last = last != 0;
  PARTITA_RETURN_IF_ERROR(Take(in, &c.row_count, "row count"));
  return c;
}

}  // namespace partita
