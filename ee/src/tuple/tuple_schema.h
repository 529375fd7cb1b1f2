// TupleSchema: the fixed-width byte layout of a table's tuples, and reading
// and writing column values in it.
//
// Layout of one tuple:
//   [u8 flags][null bitmap: ceil(columns / 8) bytes][column slots ...]
//   [48-bit row id, little-endian][zero padding to 8 bytes]
// flags bit 0 = live. Fixed-width columns hold their value in FixedSize()
// bytes. A VARCHAR/VARBINARY whose largest value fits kMaxInlineBytes is
// inline: [u8 size][capacity bytes]. Larger ones are out of line: the slot
// holds a StringBlob* (owned by the tuple; nullptr for NULL).
//
// The row id is the table's stable name for the row (Table assigns it; an
// update keeps it): indexes order equal keys by it, so row order never
// depends on where tuples sit in memory. It takes 6 bytes, not 8, so that
// it usually lands in what would otherwise be alignment padding (a table of
// two BIGINTs keeps 24-byte tuples): smaller tuples mean fewer cache lines
// per random probe. 2^48 ids outlast a partition inserting a million rows a
// second for eight years; Table refuses an insert past kMaxRowId.
//
// Canonical bytes: a tuple's bytes are a function of its flags, values and
// row id only — a NULL column's slot is zero, an inline string's unused capacity is
// zero, and padding is zero (tuples start zeroed) — except out-of-line
// string slots, which hold pointers. AddImage relies on this.
//
// Tuple memory belongs to whoever allocated it (a Table's blocks).
//
// Thread model: immutable after construction; shared freely.
#ifndef PARTITA_TUPLE_TUPLE_SCHEMA_H_
#define PARTITA_TUPLE_TUPLE_SCHEMA_H_

#include <cstdint>
#include <bit>
#include <cstring>
#include <string>
#include <vector>

#include "common/stable_hash.h"
#include "partita/value.h"

namespace partita {

static_assert(std::endian::native == std::endian::little, "tuples store row ids little-endian by memcpy");

// A row's stable identity within its table (see above); at most kMaxRowId.
using RowId = uint64_t;

// Out-of-line string storage: a size and the bytes, allocated with malloc.
struct StringBlob {
  uint32_t size;
  char data[1];  // `size` bytes follow

  static StringBlob* Create(std::string_view s);
  static void Destroy(StringBlob* blob) { std::free(blob); }
  // Bytes this blob takes from the allocator (for memory accounting).
  static size_t AllocationSize(uint32_t size) { return offsetof(StringBlob, data) + size; }
};

struct ColumnLayout {
  std::string name;
  ValueType type = ValueType::kInvalid;
  // VARCHAR characters / VARBINARY bytes; 0 for fixed-width types.
  int32_t max_length = 0;
  bool nullable = true;
  // Byte offset of the column's slot in the tuple.
  uint32_t offset = 0;
  // For strings: whether stored inline, and the inline byte capacity.
  bool inline_string = false;
  uint32_t inline_capacity = 0;
};

class TupleSchema {
 public:
  // Largest inline string (bytes). VARCHAR(n) reserves 4n bytes (UTF-8).
  static constexpr uint32_t kMaxInlineBytes = 128;
  static constexpr uint8_t kLiveFlag = 1;
  // Bytes of the stored row id, and the largest id they hold.
  static constexpr uint32_t kRowIdBytes = 6;
  static constexpr RowId kMaxRowId = (RowId{1} << (8 * kRowIdBytes)) - 1;

  // REQUIRES: each column has a valid column type and, for strings,
  // max_length > 0.
  explicit TupleSchema(std::vector<ColumnLayout> columns);

  int column_count() const { return static_cast<int>(columns_.size()); }
  const ColumnLayout& column(int i) const { return columns_[i]; }
  uint32_t tuple_size() const { return tuple_size_; }

  RowId row_id(const char* tuple) const {
    RowId id = 0;
    std::memcpy(&id, tuple + row_id_offset_, kRowIdBytes);  // little-endian host (static_assert below)
    return id;
  }
  // REQUIRES: id <= kMaxRowId.
  void SetRowId(char* tuple, RowId id) const { std::memcpy(tuple + row_id_offset_, &id, kRowIdBytes); }

  // Adds the tuple's image to `h`, a hash that is the same in every
  // process: its canonical bytes up to the row id (flags, NULL bitmap,
  // column slots), each out-of-line string by content instead of its
  // pointer. The row id is left out: it follows from the history of writes.
  void AddImage(const char* tuple, StableHash* h) const;
  // The digest of a StableHash of just the tuple's image.
  uint64_t HashImage(const char* tuple) const {
    StableHash h;
    AddImage(tuple, &h);
    return h.digest();
  }

  // Whether any column is stored out of line.
  bool has_out_of_line() const { return !out_of_line_columns_.empty(); }
  const std::vector<int>& out_of_line_columns() const { return out_of_line_columns_; }

  static bool IsLive(const char* tuple) { return (tuple[0] & kLiveFlag) != 0; }
  static void SetLive(char* tuple, bool live) {
    tuple[0] = static_cast<char>(live ? (tuple[0] | kLiveFlag) : (tuple[0] & ~kLiveFlag));
  }

  bool IsNull(const char* tuple, int col) const {
    return (static_cast<uint8_t>(tuple[1 + col / 8]) >> (col % 8)) & 1;
  }

  // Reads column `col`. String Values point into the tuple (or its blob) and
  // stay valid until the column is next written or the tuple freed.
  Value Get(const char* tuple, int col) const;
  // Reads every column into `out[0 .. column_count)`.
  void GetAll(const char* tuple, Value* out) const {
    for (int c = 0; c < column_count(); ++c) out[c] = Get(tuple, c);
  }

  // Writes `v` into column `col`, keeping the bytes canonical. REQUIRES:
  // `v` is NULL or of the column's type and fits it (Table validates
  // first). For out-of-line columns the previous blob pointer is
  // overwritten, not freed: the caller owns it (the undo log decides when it
  // dies). Returns the bytes newly allocated.
  size_t Set(char* tuple, int col, const Value& v) const;

  // The blob of out-of-line column `col`, or nullptr.
  static StringBlob* GetBlob(const char* tuple, const ColumnLayout& c) {
    StringBlob* blob;
    std::memcpy(&blob, tuple + c.offset, sizeof blob);
    return blob;
  }
  // Frees every out-of-line blob of `tuple`; returns the bytes released.
  size_t FreeBlobs(char* tuple) const;
  // Bytes of out-of-line storage `tuple` holds.
  size_t BlobBytes(const char* tuple) const;

 private:
  // Bytes of a column's slot.
  static uint32_t SlotSize(const ColumnLayout& c);

  std::vector<ColumnLayout> columns_;
  std::vector<int> out_of_line_columns_;
  uint32_t row_id_offset_ = 0;
  uint32_t tuple_size_ = 0;
};

}  // namespace partita

#endif  // PARTITA_TUPLE_TUPLE_SCHEMA_H_
