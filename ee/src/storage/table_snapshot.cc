#include "storage/table_snapshot.h"

#include "common/assert.h"
#include "storage/row_codec.h"
#include "storage/table.h"

namespace partita {
namespace {

constexpr int kSlotBits = 32;  // as Table's positions: block index << 32 | slot in block
constexpr uint64_t kSlotMask = (uint64_t{1} << kSlotBits) - 1;

}  // namespace

TableSnapshot::TableSnapshot(const Table* table)
    : table_(table), cut_row_id_(table->next_row_id_), cut_row_count_(table->live_rows_) {
  end_ = table->blocks_.empty()
             ? 0
             : (uint64_t{table->blocks_.size() - 1} << kSlotBits | table->next_in_last_block_);
}

void TableSnapshot::BeforeChange(const char* tuple) {
  if (done() || table_->schema_.row_id(tuple) >= cut_row_id_) return;
  const uint64_t position = table_->Position(tuple);
  if (position < frontier_) return;  // already emitted
  PARTITA_ASSERT(position < end_, "a row of the cut beyond the cut's last slot");
  auto [it, inserted] = preserved_.try_emplace(position);
  if (!inserted) return;  // the image of the cut is kept already
  RowCodec::Encode(table_->schema_, tuple, &it->second);
  preserved_bytes_ += it->second.size();
}

int64_t TableSnapshot::Emit(size_t max_bytes, std::string* out) {
  const TupleSchema& schema = table_->schema_;
  const uint64_t last_block = end_ >> kSlotBits;
  int64_t rows = 0;
  for (int64_t slots = 0; !done() && out->size() < max_bytes && slots < kMaxSlotsPerEmit; ++slots) {
    const uint64_t b = frontier_ >> kSlotBits;
    const uint64_t slot = frontier_ & kSlotMask;
    const Table::Block& block = table_->blocks_[b];
    const uint64_t used = b == last_block ? (end_ & kSlotMask) : block.capacity;
    if (slot >= used) {
      frontier_ = (b + 1) << kSlotBits;
      continue;
    }
    auto kept = preserved_.begin();
    if (kept != preserved_.end() && kept->first == frontier_) {
      out->append(kept->second);
      preserved_bytes_ -= kept->second.size();
      preserved_.erase(kept);
      ++rows;
    } else {
      const char* tuple = block.data.get() + slot * schema.tuple_size();
      if (TupleSchema::IsLive(tuple) && schema.row_id(tuple) < cut_row_id_) {
        RowCodec::Encode(schema, tuple, out);
        ++rows;
      }
    }
    ++frontier_;
  }
  return rows;
}

}  // namespace partita
