#include "storage/table.h"

#include <algorithm>
#include <functional>
#include <utility>

#include "common/assert.h"
#include "common/stable_hash.h"
#include "errors.pb.h"
#include "types/value_cast.h"

namespace partita {
namespace {

constexpr size_t kFirstBlockTuples = 16;
constexpr size_t kMaxBlockBytes = 1 << 20;
// Blocks at least this large are prepared and warmed ahead (PrepareSpareBlock);
// smaller ones cost a few page faults, fewer than the warming's bookkeeping.
constexpr size_t kWarmBlockBytes = 64 << 10;
constexpr int kSlotBits = 32;

// For blocks_by_address_: whether block `b` starts after address `p`.
bool StartsAfter(const char* p, const std::pair<const char*, uint32_t>& b) {
  return std::less<const char*>()(p, b.first);
}

uint64_t NameHash(const std::string& name) {
  StableHash h;
  h.AddString(name);
  return h.digest();
}

bool SameValue(const Value& a, const Value& b) {
  if (a.is_null() || b.is_null()) return a.is_null() && b.is_null();
  if (IsVariableLengthType(a.type())) return a.string_value() == b.string_value();
  if (a.type() == ValueType::kDecimal) return a.decimal_value() == b.decimal_value();
  if (a.type() == ValueType::kFloat) return a.float_value() == b.float_value();
  return a.int_value() == b.int_value();
}

}  // namespace

// Undoes an insert by removing the tuple and giving its row id back;
// nothing to release.
class InsertUndo final : public UndoAction {
 public:
  InsertUndo(Table* table, char* tuple, RowId next_row_id_before)
      : table_(table), tuple_(tuple), next_row_id_before_(next_row_id_before) {}
  void Undo() override {
    table_->RemoveFromIndexes(tuple_, table_->all_indexes());
    TupleSchema::SetLive(tuple_, false);
    --table_->live_rows_;
    table_->FreeSlot(tuple_);
    table_->next_row_id_ = next_row_id_before_;
  }
  void Release() override {}

 private:
  Table* table_;
  char* tuple_;
  RowId next_row_id_before_;
};

// Undoes a delete by reviving the tuple in place; commit frees it.
class DeleteUndo final : public UndoAction {
 public:
  DeleteUndo(Table* table, char* tuple) : table_(table), tuple_(tuple) {}
  void Undo() override {
    TupleSchema::SetLive(tuple_, true);
    const Status s = table_->AddToIndexes(tuple_, table_->all_indexes());
    PARTITA_ASSERT(s.ok(), "re-indexing a deleted row on rollback must not conflict");
    ++table_->live_rows_;
  }
  void Release() override { table_->FreeSlot(tuple_); }

 private:
  Table* table_;
  char* tuple_;
};

// Undoes an update by restoring the old image; commit frees the strings the
// update replaced. `new_image` is kept only for tables with out-of-line
// strings (to know which blobs the update replaced).
class UpdateUndo final : public UndoAction {
 public:
  UpdateUndo(Table* table, char* tuple, char* old_image, char* new_image, uint64_t index_mask)
      : table_(table), tuple_(tuple), old_image_(old_image), new_image_(new_image), index_mask_(index_mask) {}
  void Undo() override {
    table_->RemoveFromIndexes(tuple_, index_mask_);
    table_->FreeBlobsNotIn(tuple_, old_image_);
    std::memcpy(tuple_, old_image_, table_->schema_.tuple_size());
    const Status s = table_->AddToIndexes(tuple_, index_mask_);
    PARTITA_ASSERT(s.ok(), "restoring an updated row on rollback must not conflict");
  }
  void Release() override {
    if (new_image_ != nullptr) table_->FreeBlobsNotIn(old_image_, new_image_);
  }

 private:
  Table* table_;
  char* tuple_;
  char* old_image_;
  char* new_image_;
  uint64_t index_mask_;
};

Table::Table(std::string name, TupleSchema schema, int visible_columns)
    : name_(std::move(name)),
      schema_(std::move(schema)),
      visible_columns_(visible_columns),
      name_hash_(NameHash(name_)) {
  scratch_image_.resize(schema_.tuple_size());
}

Table::~Table() {
  PageWarmer::Instance().Cancel(spare_.warm_ticket);
  for (const Block& b : blocks_) PageWarmer::Instance().Cancel(b.warm_ticket);
  // Free the strings of every tuple still holding any (live, or dead and
  // awaiting release by a transaction that will never finish).
  if (!schema_.has_out_of_line()) return;
  for (size_t b = 0; b < blocks_.size(); ++b) {
    const size_t used = b + 1 == blocks_.size() ? next_in_last_block_ : blocks_[b].capacity;
    for (size_t i = 0; i < used; ++i) schema_.FreeBlobs(blocks_[b].data.get() + i * schema_.tuple_size());
  }
}

void Table::AddIndex(std::unique_ptr<TableIndex> index) {
  PARTITA_ASSERT(indexes_.size() < kMaxIndexes, "too many indexes on one table");
  PARTITA_ASSERT(live_rows_ == 0, "indexes are added before rows");
  if (index->primary_key()) primary_key_ = index.get();
  indexes_.push_back(std::move(index));
}

TableIndex* Table::FindIndex(std::string_view name) const {
  for (const auto& index : indexes_) {
    if (index->name() == name) return index.get();
  }
  return nullptr;
}

Status Table::ValidateRow(const Value* row, Value* out, Arena* arena) const {
  for (int c = 0; c < schema_.column_count(); ++c) {
    const ColumnLayout& col = schema_.column(c);
    const Value& v = row[c];
    if (v.is_null()) {
      if (!col.nullable) {
        return Status(proto::ERROR_CODE_NOT_NULL_VIOLATION,
                      "column " + name_ + "." + col.name + " is NOT NULL but the value is NULL");
      }
      out[c] = Value::Null(col.type);
      continue;
    }
    if (v.type() == col.type) {
      // Hot path: no conversion; the error context is built only on error.
      if (IsVariableLengthType(col.type) && !CheckLength(v, col.max_length, {}).ok()) {
        return CheckLength(v, col.max_length, "column " + name_ + "." + col.name);
      }
      out[c] = v;
      continue;
    }
    Result<Value> converted =
        ConvertValue(v, col.type, col.max_length, ConversionMode::kExact, arena, "column " + name_ + "." + col.name);
    if (!converted.ok()) return converted.status();
    out[c] = converted.value();
  }
  return Status::OK();
}

char* Table::AllocateSlot() {
  ++allocated_slots_;
  if (!free_slots_.empty()) {
    std::pop_heap(free_slots_.begin(), free_slots_.end(), std::greater<>());
    const uint64_t position = free_slots_.back();
    free_slots_.pop_back();
    const uint64_t slot = position & ((uint64_t{1} << kSlotBits) - 1);
    return blocks_[position >> kSlotBits].data.get() + slot * schema_.tuple_size();
  }
  if (blocks_.empty() || next_in_last_block_ == blocks_.back().capacity) {
    blocks_.push_back(NextBlock());
    const char* start = blocks_.back().data.get();
    auto at = std::upper_bound(blocks_by_address_.begin(), blocks_by_address_.end(), start, StartsAfter);
    blocks_by_address_.insert(at, {start, static_cast<uint32_t>(blocks_.size() - 1)});
    next_in_last_block_ = 0;
  }
  char* slot = blocks_.back().data.get() + (next_in_last_block_++) * schema_.tuple_size();
  if (next_in_last_block_ == blocks_.back().capacity / 2 && spare_.data == nullptr) PrepareSpareBlock();
  return slot;
}

size_t Table::NextBlockCapacity() const {
  const size_t max_tuples = std::max<size_t>(kFirstBlockTuples, kMaxBlockBytes / schema_.tuple_size());
  return blocks_.empty() ? kFirstBlockTuples : std::min(max_tuples, blocks_.back().capacity * 2);
}

Table::Block Table::NextBlock() {
  if (spare_.data != nullptr) return std::exchange(spare_, Block{nullptr, 0});
  const size_t capacity = NextBlockCapacity();
  // Not zeroed here (InsertRow clears each tuple it hands out): zeroing a
  // 1 MiB block would fault in all its pages inside one insert, where
  // left alone the pages are faulted in one at a time by the inserts that
  // reach them (or ahead of them by the warmer: PrepareSpareBlock).
  block_bytes_ += static_cast<int64_t>(capacity * schema_.tuple_size());
  return Block{std::make_unique_for_overwrite<char[]>(capacity * schema_.tuple_size()), capacity};
}

void Table::PrepareSpareBlock() {
  const size_t capacity = NextBlockCapacity();
  const size_t bytes = capacity * schema_.tuple_size();
  if (bytes < kWarmBlockBytes) return;
  // Half a block of inserts lie ahead before it is needed: time enough for
  // the warmer (on another core) to fault in its pages.
  spare_ = Block{std::make_unique_for_overwrite<char[]>(bytes), capacity};
  spare_.warm_ticket = PageWarmer::Instance().Warm(spare_.data.get(), bytes);
  block_bytes_ += static_cast<int64_t>(bytes);
}

uint64_t Table::Position(const char* tuple) const {
  // The block starting at the greatest address not above `tuple`.
  auto it = std::upper_bound(blocks_by_address_.begin(), blocks_by_address_.end(), tuple, StartsAfter);
  PARTITA_ASSERT(it != blocks_by_address_.begin(), "a tuple outside the table's blocks");
  --it;
  const uint64_t slot = static_cast<uint64_t>(tuple - it->first) / schema_.tuple_size();
  return uint64_t{it->second} << kSlotBits | slot;
}

void Table::FreeSlot(char* tuple) {
  blob_bytes_ -= static_cast<int64_t>(schema_.FreeBlobs(tuple));
  TupleSchema::SetLive(tuple, false);
  free_slots_.push_back(Position(tuple));
  std::push_heap(free_slots_.begin(), free_slots_.end(), std::greater<>());
  --allocated_slots_;
}

uint64_t Table::all_indexes() const {
  return indexes_.size() == kMaxIndexes ? ~uint64_t{0} : (uint64_t{1} << indexes_.size()) - 1;
}

Status Table::AddToIndexes(const char* tuple, uint64_t mask) {
  for (size_t i = 0; i < indexes_.size(); ++i) {
    if (!(mask >> i & 1)) continue;
    Status s = indexes_[i]->Insert(tuple);
    if (!s.ok()) {
      RemoveFromIndexes(tuple, mask & ((uint64_t{1} << i) - 1));
      return s;
    }
  }
  return Status::OK();
}

void Table::RemoveFromIndexes(const char* tuple, uint64_t mask) {
  for (size_t i = 0; i < indexes_.size(); ++i) {
    if (mask >> i & 1) indexes_[i]->Remove(tuple);
  }
}

uint64_t Table::ChangedIndexes(const char* a, const char* b) const {
  uint64_t mask = 0;
  for (size_t i = 0; i < indexes_.size(); ++i) {
    const IndexKey& key = indexes_[i]->key();
    for (int k = 0; k < key.size(); ++k) {
      if (!SameValue(key.Get(a, k), key.Get(b, k))) {
        mask |= uint64_t{1} << i;
        break;
      }
    }
  }
  return mask;
}

void Table::FreeBlobsNotIn(char* tuple, const char* other) {
  for (const int col : schema_.out_of_line_columns()) {
    const ColumnLayout& c = schema_.column(col);
    StringBlob* blob = TupleSchema::GetBlob(tuple, c);
    if (blob == nullptr || schema_.IsNull(tuple, col)) continue;
    if (!schema_.IsNull(other, col) && TupleSchema::GetBlob(other, c) == blob) continue;
    blob_bytes_ -= static_cast<int64_t>(StringBlob::AllocationSize(blob->size));
    StringBlob::Destroy(blob);
  }
}

Status Table::Insert(const Value* row, UndoLog* undo, const char** inserted) {
  return InsertRow(row, next_row_id_, undo, inserted);
}

Status Table::Upsert(const Value* row, UndoLog* undo) {
  PARTITA_ASSERT(primary_key_ != nullptr, "UPSERT into a table without a primary key");
  const IndexKey& key = primary_key_->key();
  scratch_key_.resize(key.size());
  for (int i = 0; i < key.size(); ++i) scratch_key_[i] = row[key.column(i)];
  if (const char* existing = primary_key_->FindUnique(scratch_key_.data())) return Update(existing, row, undo);
  return Insert(row, undo);
}

Status Table::InsertWithRowId(const Value* row, RowId row_id, UndoLog* undo) {
  return InsertRow(row, row_id, undo, nullptr);
}

Status Table::PlaceRow(const Value* row, RowId row_id, char** placed) {
  if (row_id > TupleSchema::kMaxRowId) {
    return Status(proto::ERROR_CODE_CONSTRAINT_VIOLATION,
                  "table " + name_ + " has used all " + std::to_string(TupleSchema::kMaxRowId) + " row ids");
  }
  char* tuple = AllocateSlot();
  std::memset(tuple, 0, schema_.tuple_size());
  for (int c = 0; c < schema_.column_count(); ++c) blob_bytes_ += static_cast<int64_t>(schema_.Set(tuple, c, row[c]));
  schema_.SetRowId(tuple, row_id);
  TupleSchema::SetLive(tuple, true);
  Status s = AddToIndexes(tuple, all_indexes());
  if (!s.ok()) {
    FreeSlot(tuple);
    return s;
  }
  ++live_rows_;
  *placed = tuple;
  return Status::OK();
}

Status Table::InsertRow(const Value* row, RowId row_id, UndoLog* undo, const char** inserted) {
  char* tuple = nullptr;
  PARTITA_RETURN_IF_ERROR(PlaceRow(row, row_id, &tuple));
  undo->Add<InsertUndo>(this, tuple, next_row_id_);
  next_row_id_ = std::max(next_row_id_, row_id + 1);
  schema_.AddImage(tuple, &undo->RecordWrite(name_hash_, WriteKind::kInsert));
  if (inserted != nullptr) *inserted = tuple;
  for (TableListener* l : listeners_) PARTITA_RETURN_IF_ERROR(l->OnInsert(tuple, undo));
  return Status::OK();
}

Status Table::Delete(const char* const_tuple, UndoLog* undo) {
  char* tuple = const_cast<char*>(const_tuple);
  PARTITA_ASSERT(TupleSchema::IsLive(tuple), "deleting a tuple that is not live");
  if (snapshot_ != nullptr) snapshot_->BeforeChange(tuple);
  schema_.AddImage(tuple, &undo->RecordWrite(name_hash_, WriteKind::kDelete));
  RemoveFromIndexes(tuple, all_indexes());
  TupleSchema::SetLive(tuple, false);
  --live_rows_;
  undo->Add<DeleteUndo>(this, tuple);
  for (TableListener* l : listeners_) PARTITA_RETURN_IF_ERROR(l->OnDelete(tuple, undo));
  return Status::OK();
}

Status Table::Update(const char* const_tuple, const Value* row, UndoLog* undo) {
  char* tuple = const_cast<char*>(const_tuple);
  PARTITA_ASSERT(TupleSchema::IsLive(tuple), "updating a tuple that is not live");
  const uint32_t size = schema_.tuple_size();
  char* next = scratch_image_.data();
  std::memcpy(next, tuple, size);
  bool changed = false;
  int64_t new_blob_bytes = 0;
  for (int c = 0; c < schema_.column_count(); ++c) {
    if (SameValue(schema_.Get(tuple, c), row[c])) continue;
    new_blob_bytes += static_cast<int64_t>(schema_.Set(next, c, row[c]));
    changed = true;
  }
  if (!changed) return Status::OK();
  if (snapshot_ != nullptr) snapshot_->BeforeChange(tuple);
  blob_bytes_ += new_blob_bytes;

  const uint64_t mask = ChangedIndexes(tuple, next);
  char* old_image = undo->arena()->Allocate(size);
  std::memcpy(old_image, tuple, size);
  RemoveFromIndexes(tuple, mask);
  std::memcpy(tuple, next, size);
  Status s = AddToIndexes(tuple, mask);
  if (!s.ok()) {
    FreeBlobsNotIn(tuple, old_image);
    std::memcpy(tuple, old_image, size);
    const Status restored = AddToIndexes(tuple, mask);
    PARTITA_ASSERT(restored.ok(), "restoring a row after a failed update must not conflict");
    return s;
  }
  char* new_image = nullptr;
  if (schema_.has_out_of_line()) {
    new_image = undo->arena()->Allocate(size);
    std::memcpy(new_image, tuple, size);
  }
  undo->Add<UpdateUndo>(this, tuple, old_image, new_image, mask);
  schema_.AddImage(tuple, &undo->RecordWrite(name_hash_, WriteKind::kUpdate));
  for (TableListener* l : listeners_) PARTITA_RETURN_IF_ERROR(l->OnUpdate(old_image, tuple, undo));
  return Status::OK();
}

Status Table::LoadRow(const Value* row, RowId row_id, const char** loaded) {
  char* tuple = nullptr;
  PARTITA_RETURN_IF_ERROR(PlaceRow(row, row_id, &tuple));
  next_row_id_ = std::max(next_row_id_, row_id + 1);
  *loaded = tuple;
  return Status::OK();
}

void Table::UnloadRows(std::span<const char* const> loaded, RowId next_row_id) {
  for (auto it = loaded.rbegin(); it != loaded.rend(); ++it) {
    char* tuple = const_cast<char*>(*it);
    RemoveFromIndexes(tuple, all_indexes());
    TupleSchema::SetLive(tuple, false);
    --live_rows_;
    FreeSlot(tuple);
  }
  PARTITA_ASSERT(next_row_id <= next_row_id_, "unloading rows never raises the next row id");
  next_row_id_ = next_row_id;
}

void Table::ReserveForLoad(int64_t rows) {
  if (live_rows_ != 0 || rows <= 0) return;
  for (const auto& index : indexes_) {
    if (index->unique()) index->Reserve(static_cast<size_t>(rows));
  }
}

void Table::AdvanceNextRowId(RowId id) {
  PARTITA_ASSERT(id >= next_row_id_, "row ids never go back");
  next_row_id_ = id;
}

TableSnapshot* Table::BeginSnapshot() {
  PARTITA_ASSERT(snapshot_ == nullptr, "one snapshot of a table at a time");
  snapshot_ = std::make_unique<TableSnapshot>(this);
  return snapshot_.get();
}

const char* Table::Iterator::Next() {
  const size_t size = table_->schema_.tuple_size();
  while (block_ < table_->blocks_.size()) {
    const Block& b = table_->blocks_[block_];
    const size_t used = block_ + 1 == table_->blocks_.size() ? table_->next_in_last_block_ : b.capacity;
    while (slot_ < used) {
      const char* tuple = b.data.get() + (slot_++) * size;
      if (TupleSchema::IsLive(tuple)) return tuple;
    }
    ++block_;
    slot_ = 0;
  }
  return nullptr;
}

int64_t Table::bytes_used() const { return live_rows_ * schema_.tuple_size() + blob_bytes_; }
int64_t Table::bytes_allocated() const { return block_bytes_ + blob_bytes_; }
int64_t Table::index_bytes() const {
  int64_t bytes = 0;
  for (const auto& index : indexes_) bytes += static_cast<int64_t>(index->memory_bytes());
  return bytes;
}

}  // namespace partita
