// TableIndex: the interface of a table's secondary structure over its live
// tuples, and IndexCursor, the way executors read it.
//
// Entries point at tuples by address (tuples never move); equal keys are
// ordered by row id (TupleSchema::row_id), never by address. An index holds
// exactly the table's live tuples: Table inserts a tuple's entry after
// writing it and removes the entry before changing its key or freeing it.
//
// Thread model: partition-confined.
#ifndef PARTITA_INDEX_TABLE_INDEX_H_
#define PARTITA_INDEX_TABLE_INDEX_H_

#include <memory>
#include <string>

#include "index/index_key.h"
#include "partita/status.h"

namespace partita {

enum class IndexKind { kHash, kOrdered };
enum class ScanOrder { kForward, kBackward };

// A bound of a range: a key prefix and whether equal keys are inside.
struct KeyBound {
  const Value* key = nullptr;
  int size = 0;  // 0 = unbounded
  bool inclusive = true;
};

// Reads entries of one index. Made once per executor and reused.
class IndexCursor {
 public:
  virtual ~IndexCursor() = default;
  // Positions on tuples whose first `n` key columns equal key[0 .. n).
  // REQUIRES for hash indexes: n == key size.
  virtual void SeekEqual(const Value* key, int n) = 0;
  // Positions on tuples between `lower` and `upper` in `order` (ordered
  // indexes only).
  virtual void SeekRange(const KeyBound& lower, const KeyBound& upper, ScanOrder order) = 0;
  // Returns the next tuple, or nullptr at the end. The index must not change
  // between Seek and the last Next.
  virtual const char* Next() = 0;
};

class TableIndex {
 public:
  TableIndex(std::string name, std::string constraint_name, IndexKey key, bool unique, bool primary_key)
      : name_(std::move(name)),
        constraint_name_(std::move(constraint_name)),
        key_(std::move(key)),
        unique_(unique),
        primary_key_(primary_key) {}
  virtual ~TableIndex() = default;
  TableIndex(const TableIndex&) = delete;
  TableIndex& operator=(const TableIndex&) = delete;

  virtual IndexKind kind() const = 0;

  // Adds `tuple`. For a unique index, returns CONSTRAINT_VIOLATION naming
  // the constraint and key when a live tuple with an equal, NULL-free key
  // exists; the index is then unchanged.
  virtual Status Insert(const char* tuple) = 0;
  // Removes the entry of exactly `tuple` (matched by key and row id).
  // Returns false iff there was none.
  virtual bool Remove(const char* tuple) = 0;
  // For unique indexes: the live tuple whose key equals key[0 .. size), or
  // nullptr.
  virtual const char* FindUnique(const Value* key) const = 0;
  virtual std::unique_ptr<IndexCursor> NewCursor() const = 0;
  // Prepares an empty index for `keys` distinct keys, so that adding them
  // allocates nothing more (loading a snapshot). A hint: the default does
  // nothing; no-op on an index that holds entries.
  virtual void Reserve(size_t keys) { (void)keys; }
  virtual size_t entry_count() const = 0;
  virtual size_t memory_bytes() const = 0;

  const std::string& name() const { return name_; }
  const std::string& constraint_name() const { return constraint_name_; }
  const IndexKey& key() const { return key_; }
  bool unique() const { return unique_; }
  bool primary_key() const { return primary_key_; }

 protected:
  Status DuplicateKeyError(const char* tuple) const;

 private:
  std::string name_;
  std::string constraint_name_;
  IndexKey key_;
  bool unique_;
  bool primary_key_;
};

}  // namespace partita

#endif  // PARTITA_INDEX_TABLE_INDEX_H_
