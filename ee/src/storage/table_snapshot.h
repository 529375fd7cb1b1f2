// TableSnapshot: a copy-on-write image of one table as of a cut, read out
// in slot order a bounded piece at a time while transactions keep writing.
//
// The cut is the moment Table::BeginSnapshot runs: between transactions, on
// the partition's thread. Afterwards Emit yields, over its calls, every row
// that was live at the cut, with its values and row id as of the cut, each
// exactly once, in the slot order the table had at the cut. Rows inserted
// after the cut are never yielded.
//
// How (fits Table's storage: tuples never move while live, slots are reused
// only after the deleting transaction commits, row ids only grow):
//   * A row was live at the cut iff its row id is below `cut_row_id_` (the
//     table's next row id at the cut) — every later insert takes a larger id
//     — and it sits below `end_` (the first slot never handed out at the
//     cut).
//   * The scan's `frontier_` is the next slot Emit reads. Table calls
//     BeforeChange before an update or delete alters or frees a tuple; when
//     the row was live at the cut, sits at or past the frontier and has no
//     preserved image yet, its encoded image is kept in `preserved_`, keyed
//     by slot position. The first change after the cut sees the row as of
//     the cut (the cut is between transactions), so the kept image is the
//     cut's; a rollback only brings the tuple back to that same image.
//   * Emit at position p yields the preserved image of p if there is one
//     (and drops it), else the tuple at p when it is live with a row id below
//     the cut. A slot freed and reused after the cut holds a larger row id,
//     so it is skipped; its old row was preserved when it was deleted.
// Invariants: every key of `preserved_` is >= `frontier_` and < `end_`; a
// position has at most one preserved image; extra memory is the encoded
// images of rows changed ahead of the scan, each freed when the scan passes
// it.
//
// Ownership: owned by its Table (Table::BeginSnapshot / EndSnapshot).
// Thread model: partition-confined, like its Table.
#ifndef PARTITA_STORAGE_TABLE_SNAPSHOT_H_
#define PARTITA_STORAGE_TABLE_SNAPSHOT_H_

#include <cstdint>
#include <map>
#include <string>

#include "tuple/tuple_schema.h"

namespace partita {

class Table;

class TableSnapshot {
 public:
  // Slots Emit reads per call at most, so a call on a sparse table stays
  // short however few rows it finds.
  static constexpr int64_t kMaxSlotsPerEmit = 256 * 1024;

  // Fixes the cut of `table` now. REQUIRES: no open transaction.
  explicit TableSnapshot(const Table* table);
  TableSnapshot(const TableSnapshot&) = delete;
  TableSnapshot& operator=(const TableSnapshot&) = delete;

  // The table's next row id at the cut (every row of the cut has a smaller one).
  RowId cut_row_id() const { return cut_row_id_; }
  // Rows live at the cut.
  int64_t cut_row_count() const { return cut_row_count_; }

  // Called by Table before an update or delete changes or frees `tuple`.
  void BeforeChange(const char* tuple);

  // Appends rows (RowCodec format) to `out` in slot order until `out` holds
  // at least `max_bytes`, kMaxSlotsPerEmit slots were read, or the table
  // ends. Returns the number of rows appended.
  int64_t Emit(size_t max_bytes, std::string* out);
  // Returns true iff every row of the cut was emitted.
  bool done() const { return frontier_ >= end_; }

  // Rows changed ahead of the scan whose cut image is kept, and its bytes.
  size_t preserved_rows() const { return preserved_.size(); }
  size_t preserved_bytes() const { return preserved_bytes_; }

 private:
  const Table* table_;
  RowId cut_row_id_;
  int64_t cut_row_count_;
  uint64_t end_;           // position of the first slot never handed out at the cut
  uint64_t frontier_ = 0;  // next position Emit reads
  std::map<uint64_t, std::string> preserved_;  // position -> cut image (RowCodec)
  size_t preserved_bytes_ = 0;
};

}  // namespace partita

#endif  // PARTITA_STORAGE_TABLE_SNAPSHOT_H_
