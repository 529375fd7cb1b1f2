// Table: a partition's rows of one table (or materialized view) — fixed-width
// tuples in blocks with a free list, its indexes, and the listeners (views)
// that follow its writes.
//
// Tuples never move while live, so indexes hold their addresses. Every write
// goes through Insert/Delete/Update, which keep all indexes in step, register
// an undo action, fold the write into the transaction's write hash, then
// notify listeners. A deleted tuple's slot and strings are freed only when
// its transaction commits, so rollback restores it in place.
//
// Determinism: nothing about rows depends on memory addresses. Each row gets
// a row id at insert, from a per-table counter (1, 2, ...); an update keeps
// it, undoing an insert gives the id back, undoing a delete revives the row
// with its id. Indexes order equal keys by row id. Scans run in slot order,
// and a free slot is reused lowest position first, so scan order follows
// from the table's history of writes alone.
//
// Snapshots: while a TableSnapshot is active (BeginSnapshot .. EndSnapshot),
// every update and delete first lets it keep the row's image as of the cut
// (table_snapshot.h); without one that check is a null pointer test.
//
// Ownership: the Table owns its blocks, strings, indexes and active
// snapshot; listeners are owned elsewhere (the Engine) and outlive it.
// Thread model: partition-confined.
#ifndef PARTITA_STORAGE_TABLE_H_
#define PARTITA_STORAGE_TABLE_H_

#include <deque>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "common/arena.h"
#include "common/page_warmer.h"
#include "index/table_index.h"
#include "partita/status.h"
#include "storage/table_listener.h"
#include "storage/table_snapshot.h"
#include "tuple/tuple_schema.h"
#include "txn/undo_log.h"

namespace partita {

class Table {
 public:
  // Indexes whose keys change in one update are tracked in a 64-bit mask.
  static constexpr int kMaxIndexes = 64;

  // `visible_columns` of the schema's columns are SQL-visible; the rest are
  // engine bookkeeping (hidden counters of materialized views).
  Table(std::string name, TupleSchema schema, int visible_columns);
  ~Table();
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;

  const std::string& name() const { return name_; }
  const TupleSchema& schema() const { return schema_; }
  int visible_column_count() const { return visible_columns_; }
  int64_t row_count() const { return live_rows_; }
  // Whether this table holds a materialized view (it has hidden columns).
  bool is_view() const { return visible_columns_ != schema_.column_count(); }
  // The row id the next Insert takes.
  RowId next_row_id() const { return next_row_id_; }
  // Raises the next row id to `id` (restoring a table whose rows were
  // deleted: ids are never reused). REQUIRES: id >= next_row_id().
  void AdvanceNextRowId(RowId id);

  // Setup, before any row exists. REQUIRES: fewer than kMaxIndexes indexes.
  void AddIndex(std::unique_ptr<TableIndex> index);
  void AddListener(TableListener* listener) { listeners_.push_back(listener); }
  const std::vector<std::unique_ptr<TableIndex>>& indexes() const { return indexes_; }
  TableIndex* FindIndex(std::string_view name) const;
  TableIndex* primary_key() const { return primary_key_; }

  // Converts `row` (one Value per column) to the column types under the
  // exact rules (value_cast.h) into `out`, checking NOT NULL and lengths.
  // Errors name the table and column.
  Status ValidateRow(const Value* row, Value* out, Arena* arena) const;

  // Inserts a validated row with the next row id. CONSTRAINT_VIOLATION
  // leaves the table as it was. `*inserted` (if given) receives the new tuple.
  Status Insert(const Value* row, UndoLog* undo, const char** inserted = nullptr);
  // The same with a given row id (copying rows between catalogs keeps their
  // ids). REQUIRES: no live row of this table has `row_id`.
  Status InsertWithRowId(const Value* row, RowId row_id, UndoLog* undo);
  // UPSERT of a validated row: replaces the live row with the same primary
  // key if there is one (Update), else inserts it (Insert).
  // REQUIRES: the table has a primary key.
  Status Upsert(const Value* row, UndoLog* undo);
  // Deletes a live tuple of this table.
  Status Delete(const char* tuple, UndoLog* undo);

  // Loading a snapshot (engine/snapshot_loader.h) whose stream carries the
  // views' rows too. LoadRow inserts a validated row with its row id as
  // InsertWithRowId does, indexes included, but records no undo action and
  // no write, and tells no listener: the views' rows are loaded, not
  // recomputed. `*loaded` receives the tuple. CONSTRAINT_VIOLATION leaves
  // the table as it was. REQUIRES: no open transaction wrote this table.
  Status LoadRow(const Value* row, RowId row_id, const char** loaded);
  // Takes back rows LoadRow loaded (a chunk that failed part of the way),
  // newest last, and sets the next row id back to `next_row_id`, what it
  // was before the first of them.
  void UnloadRows(std::span<const char* const> loaded, RowId next_row_id);
  // Sizes the unique hash indexes of an empty table for `rows` rows, so that
  // no index grows while they are loaded. Other indexes grow as rows come
  // (their count of distinct keys is not known). No-op on a table with rows.
  void ReserveForLoad(int64_t rows);
  // Replaces a live tuple's values with the validated `row`.
  // CONSTRAINT_VIOLATION leaves the tuple as it was.
  Status Update(const char* tuple, const Value* row, UndoLog* undo);

  // Iterates the live tuples in slot order. Invalidated by inserts.
  class Iterator {
   public:
    explicit Iterator(const Table* table) : table_(table) {}
    // Returns the next live tuple or nullptr.
    const char* Next();

   private:
    const Table* table_;
    size_t block_ = 0;
    size_t slot_ = 0;
  };
  Iterator Scan() const { return Iterator(this); }

  // Fixes a snapshot cut of this table now and returns it (owned by the
  // table until EndSnapshot). REQUIRES: no open transaction wrote this
  // table, and no snapshot is active.
  TableSnapshot* BeginSnapshot();
  // Drops the active snapshot (finished or abandoned); no-op without one.
  void EndSnapshot() { snapshot_.reset(); }
  TableSnapshot* snapshot() const { return snapshot_.get(); }

  // Memory accounting (TableStats).
  int64_t bytes_used() const;
  int64_t bytes_allocated() const;
  int64_t index_bytes() const;

 private:
  friend class InsertUndo;
  friend class DeleteUndo;
  friend class UpdateUndo;
  friend class TableSnapshot;

  struct Block {
    std::unique_ptr<char[]> data;
    size_t capacity;  // tuples
    PageWarmer::Ticket warm_ticket = 0;  // its warming, cancelled before it is freed
  };

  // A free slot: the lowest free position, else a new one at the end.
  char* AllocateSlot();
  // The block after the last one: the spare if one was prepared, else a
  // new one.
  Block NextBlock();
  // Prepares the spare block and has it warmed, once the last block is half
  // used (and the next is large enough to be worth it).
  void PrepareSpareBlock();
  // Capacity in tuples of the block after the last one.
  size_t NextBlockCapacity() const;
  Status InsertRow(const Value* row, RowId row_id, UndoLog* undo, const char** inserted);
  // Writes `row` into a new slot with `row_id` and indexes it: an insert's
  // own part, before its undo action, write and listeners. On a violation
  // the slot is freed again and the table is as before.
  Status PlaceRow(const Value* row, RowId row_id, char** placed);
  // Slot position (block index << 32 | slot in block) of a tuple.
  uint64_t Position(const char* tuple) const;
  // Frees the slot and strings of a dead tuple.
  void FreeSlot(char* tuple);
  // Adds `tuple` to the indexes in `mask`; on a violation removes what it
  // added and returns the error.
  Status AddToIndexes(const char* tuple, uint64_t mask);
  void RemoveFromIndexes(const char* tuple, uint64_t mask);
  uint64_t all_indexes() const;
  // Indexes whose key differs between `a` and `b`.
  uint64_t ChangedIndexes(const char* a, const char* b) const;
  // Frees blobs of `tuple` not shared with `other` (same slots).
  void FreeBlobsNotIn(char* tuple, const char* other);

  std::string name_;
  TupleSchema schema_;
  int visible_columns_;
  std::vector<Block> blocks_;
  // The next block, allocated and being warmed ahead of the inserts that
  // will need it (empty data = none): one block ahead, at most 1 MiB.
  Block spare_{nullptr, 0};
  size_t next_in_last_block_ = 0;  // bump position in blocks_.back()
  // Positions, a min-heap. A deque grows a 512-byte chunk at a time: a
  // growth copies at most its map of chunks (a pointer per 64 positions),
  // never the positions, so no delete's commit copies the whole free list.
  std::deque<uint64_t> free_slots_;
  std::vector<std::pair<const char*, uint32_t>> blocks_by_address_;  // (start, block index), sorted
  int64_t live_rows_ = 0;
  int64_t allocated_slots_ = 0;  // slots handed out and not on the free list
  int64_t blob_bytes_ = 0;
  int64_t block_bytes_ = 0;
  std::vector<std::unique_ptr<TableIndex>> indexes_;
  TableIndex* primary_key_ = nullptr;
  std::vector<TableListener*> listeners_;
  std::vector<char> scratch_image_;  // new image during Update
  std::vector<Value> scratch_key_;   // primary key during Upsert
  RowId next_row_id_ = 1;
  uint64_t name_hash_;  // the table's identity in write hashes
  std::unique_ptr<TableSnapshot> snapshot_;  // the active snapshot, or null
};

}  // namespace partita

#endif  // PARTITA_STORAGE_TABLE_H_
