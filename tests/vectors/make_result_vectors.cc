// make_result_vectors: writes the result-table golden vectors of
// tests/vectors/ (README.md there) with the engine's own ResultWriter, the
// code that writes every result a server sends, so that each client's
// decoder is checked against the real producer rather than a hand-made copy.
//
//   make_result_vectors write DIR   writes DIR/result_tables/*.bin and
//                                   DIR/result_tables.tsv (the expected contents)
//   make_result_vectors check DIR   exits 1 naming the first file that differs
//                                   from what the engine writes now
//
// The expected text of each value is written from the literal it was made
// from (the DECIMAL text, the integer, the bytes), never by decoding the
// binary output. Malformed vectors (bad_*.bin) are good ones damaged in a
// stated way; every decoder must refuse them.
//
// Thread model: a single-threaded program.
#include <charconv>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "common/arena.h"
#include "exec/result_writer.h"
#include "partita/result_table.h"
#include "types/decimal.h"
#include "types/timestamp.h"

namespace partita {
namespace {

// One value and the text the expected file holds for it.
struct Cell {
  Value value;
  std::string text;
};

struct TableSpec {
  std::vector<std::pair<std::string, ValueType>> columns;
  std::vector<std::vector<Cell>> rows;
};

struct Vector {
  std::string name;         // file name without ".bin"
  std::string description;  // a comment line in the expected file
  std::vector<TableSpec> tables;
};

struct BadVector {
  std::string name;
  std::string description;
  std::string base;  // the good vector it damages
  std::function<void(std::vector<uint8_t>*)> damage;
};

// Strings must outlive the Values that view them.
std::deque<std::string> g_strings;

// Escapes text for one TSV field: backslash, tab, newline, carriage return.
std::string Escape(std::string_view s) {
  std::string out;
  for (const char c : s) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '\t': out += "\\t"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      default: out += c;
    }
  }
  return out;
}

Cell Int(ValueType t, int64_t x) { return {Value::Int(t, x), std::to_string(x)}; }
Cell TinyInt(int64_t x) { return Int(ValueType::kTinyInt, x); }
Cell SmallInt(int64_t x) { return Int(ValueType::kSmallInt, x); }
Cell Integer(int64_t x) { return Int(ValueType::kInteger, x); }
Cell BigInt(int64_t x) { return Int(ValueType::kBigInt, x); }
Cell Timestamp(int64_t micros) { return Int(ValueType::kTimestamp, micros); }
Cell Boolean(bool b) { return {Value::Boolean(b), b ? "true" : "false"}; }

Cell Float(double x) {
  char buf[64];
  const auto [end, error] = std::to_chars(buf, buf + sizeof buf, x);
  return {Value::Float(x), std::string(buf, end)};
}

// REQUIRES: `text` is canonical (what decimal::Format writes).
Cell Decimal(std::string_view text) {
  Result<int128> unscaled = decimal::Parse(text);
  if (!unscaled.ok() || decimal::Format(unscaled.value()) != text) {
    std::cerr << "make_result_vectors: DECIMAL literal '" << text << "' is not canonical\n";
    std::exit(2);
  }
  return {Value::Decimal(unscaled.value()), std::string(text)};
}

Cell Varchar(std::string s) {
  g_strings.push_back(std::move(s));
  return {Value::Varchar(g_strings.back()), Escape(g_strings.back())};
}

Cell Varbinary(std::string bytes) {
  g_strings.push_back(std::move(bytes));
  static const char kHex[] = "0123456789abcdef";
  std::string hex;
  for (const unsigned char c : g_strings.back()) {
    hex += kHex[c >> 4];
    hex += kHex[c & 15];
  }
  return {Value::Varbinary(g_strings.back()), hex};
}

Cell Null(ValueType t) { return {Value::Null(t), "\\N"}; }

// Bytes 0..255 repeated to `n` bytes.
std::string ByteRamp(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>(i & 0xFF);
  return s;
}

// `n` bytes of UTF-8 mixing 1-, 2-, 3- and 4-byte characters. REQUIRES: n % 10 == 0.
std::string LongText(size_t n) {
  std::string s;
  while (s.size() < n) s += "a\xC3\xA9\xE2\x9C\x93\xF0\x9F\x8E\xB5";  // 10 bytes: a é ✓ 🎵
  return s;
}

const std::vector<std::pair<std::string, ValueType>> kEveryType = {
    {"TINY", ValueType::kTinyInt},     {"SMALL", ValueType::kSmallInt}, {"INT", ValueType::kInteger},
    {"BIG", ValueType::kBigInt},       {"FLT", ValueType::kFloat},      {"DEC", ValueType::kDecimal},
    {"TEXT", ValueType::kVarchar},     {"BIN", ValueType::kVarbinary},  {"TS", ValueType::kTimestamp},
    {"FLAG", ValueType::kBoolean}};

std::vector<Vector> GoodVectors() {
  std::vector<Vector> v;
  v.push_back({"all_types", "one table, a column of every type; typical, smallest and largest values",
               {{kEveryType,
                 {{TinyInt(1), SmallInt(2), Integer(3), BigInt(4), Float(5.5), Decimal("6.25"), Varchar("seven"),
                   Varbinary("\x08\x09"), Timestamp(1700000000123456), Boolean(true)},
                  {TinyInt(-128), SmallInt(-32768), Integer(INT32_MIN), BigInt(INT64_MIN), Float(-1.7976931348623157e308),
                   Decimal("-99999999999999999999999999.999999999999"), Varchar(""), Varbinary(""),
                   Timestamp(timestamp::kMinMicros), Boolean(false)},
                  {TinyInt(127), SmallInt(32767), Integer(INT32_MAX), BigInt(INT64_MAX), Float(1.7976931348623157e308),
                   Decimal("99999999999999999999999999.999999999999"), Varchar("z"), Varbinary(std::string("\xff", 1)),
                   Timestamp(timestamp::kMaxMicros), Boolean(true)},
                  {TinyInt(0), SmallInt(0), Integer(0), BigInt(0), Float(0.0), Decimal("0"), Varchar("0"),
                   Varbinary(std::string("\0", 1)), Timestamp(0), Boolean(false)},
                  {TinyInt(-1), SmallInt(-1), Integer(-1), BigInt(9007199254740993), Float(0.1), Decimal("-12.5"),
                   Varchar("h\xC3\xA9llo \xE2\x9C\x93"), Varbinary("\xde\xad\xbe\xef"), Timestamp(-1),
                   Boolean(true)}}}}});
  v.push_back({"nulls", "NULLs: a row of NULLs only, NULLs in the second bitmap byte, alternating NULLs",
               {{kEveryType,
                 {{Null(ValueType::kTinyInt), Null(ValueType::kSmallInt), Null(ValueType::kInteger),
                   Null(ValueType::kBigInt), Null(ValueType::kFloat), Null(ValueType::kDecimal),
                   Null(ValueType::kVarchar), Null(ValueType::kVarbinary), Null(ValueType::kTimestamp),
                   Null(ValueType::kBoolean)},
                  {TinyInt(1), SmallInt(2), Integer(3), BigInt(4), Float(5), Decimal("6"), Varchar("7"),
                   Varbinary("8"), Null(ValueType::kTimestamp), Null(ValueType::kBoolean)},
                  {Null(ValueType::kTinyInt), SmallInt(-2), Null(ValueType::kInteger), BigInt(-4),
                   Null(ValueType::kFloat), Decimal("-6"), Null(ValueType::kVarchar), Varbinary(""),
                   Null(ValueType::kTimestamp), Boolean(false)},
                  {TinyInt(9), Null(ValueType::kSmallInt), Integer(7), Null(ValueType::kBigInt), Float(-0.5),
                   Null(ValueType::kDecimal), Varchar(""), Null(ValueType::kVarbinary), Timestamp(5),
                   Null(ValueType::kBoolean)}}}}});
  v.push_back({"empty_table", "one table with columns and no rows", {{{{"ID", ValueType::kBigInt},
                                                                      {"NAME", ValueType::kVarchar}},
                                                                     {}}}});
  v.push_back({"no_tables", "a result set of no tables (a procedure that returned nothing)", {}});
  v.push_back({"multiple_tables",
               "three tables in one result set: a DML count, a two-column table, an empty table",
               {{{{"modified_tuples", ValueType::kBigInt}}, {{BigInt(3)}}},
                {{{"CONTESTANT_NAME", ValueType::kVarchar}, {"TOTAL_VOTES", ValueType::kBigInt}},
                 {{Varchar("Edwina Burnam"), BigInt(12)}, {Varchar("Kelly Clauss"), BigInt(7)},
                  {Varchar("Jessie Alloway"), Null(ValueType::kBigInt)}}},
                {{{"X", ValueType::kInteger}}, {}}}});
  v.push_back({"long_strings",
               "strings longer than 65,535 bytes (past any u16 length), escapes, multi-byte UTF-8",
               {{{{"TEXT", ValueType::kVarchar}, {"BIN", ValueType::kVarbinary}},
                 {{Varchar(LongText(70000)), Varbinary(ByteRamp(70000))},
                  {Varchar("tab\there, newline\nthere, backslash\\ and \\N, return\r"), Varbinary("\\N")},
                  {Varchar("\xF0\x9F\x8E\xB5 4-byte, \xE6\x97\xA5\xE6\x9C\xAC 3-byte, \xC3\xBC 2-byte"),
                   Varbinary(ByteRamp(256))}}}}});
  v.push_back({"decimals", "DECIMAL(38,12): signs, the smallest unit, whole numbers, the 38-digit bounds",
               {{{{"D", ValueType::kDecimal}},
                 {{Decimal("-12.5")}, {Decimal("12.5")}, {Decimal("0.000000000001")}, {Decimal("-0.000000000001")},
                  {Decimal("1")}, {Decimal("-1")}, {Decimal("123456789.123456789012")},
                  {Decimal("-987654321987654321.5")}, {Decimal("18446744073709551616")},
                  {Decimal("-99999999999999999999999999.999999999999")}}}}});
  v.push_back({"timestamps",
               "TIMESTAMP (microseconds since 1970 UTC): the epoch and around it, sub-millisecond parts, the range bounds",
               {{{{"TS", ValueType::kTimestamp}},
                 {{Timestamp(0)}, {Timestamp(-1)}, {Timestamp(1)}, {Timestamp(999)}, {Timestamp(-1500)},
                  {Timestamp(1700000000123456)}, {Timestamp(-86400000001)}, {Timestamp(951782400000000)},
                  {Timestamp(timestamp::kMinMicros)}, {Timestamp(timestamp::kMaxMicros)}}}}});
  v.push_back({"floats", "FLOAT (IEEE double): signed zero, fractions, the extremes, subnormals",
               {{{{"F", ValueType::kFloat}},
                 {{Float(0.0)}, {Float(-0.0)}, {Float(1.5)}, {Float(-2.25)}, {Float(0.1)}, {Float(1e300)},
                  {Float(5e-324)}, {Float(-2.2250738585072014e-308)}, {Float(9007199254740993.0)},
                  {Float(123456.789)}}}}});
  return v;
}

uint32_t ReadU32(const std::vector<uint8_t>& b, size_t at) {
  uint32_t x;
  std::memcpy(&x, b.data() + at, 4);
  return x;
}

void WriteU32(std::vector<uint8_t>* b, size_t at, uint32_t x) { std::memcpy(b->data() + at, &x, 4); }

// Offsets in a one-table result set: 4 (table_count), 4 (table_size), then the table.
constexpr size_t kFirstTableSize = 4;
constexpr size_t kFirstColumnType = 10;

std::vector<BadVector> BadVectors() {
  return {
      {"bad_truncated", "all_types with its last 5 bytes cut off (table_size runs past the end)", "all_types",
       [](std::vector<uint8_t>* b) { b->resize(b->size() - 5); }},
      {"bad_type", "all_types with the first column's type byte set to 42 (no such type)", "all_types",
       [](std::vector<uint8_t>* b) { (*b)[kFirstColumnType] = 42; }},
      {"bad_row_size", "empty_table given row_count 1 and a row whose row_size runs past the table",
       "empty_table",
       [](std::vector<uint8_t>* b) {
         const size_t row_count_at = b->size() - 4;
         WriteU32(b, row_count_at, 1);
         const uint8_t row[] = {0xff, 0, 0, 0, 0};
         b->insert(b->end(), row, row + sizeof row);
         WriteU32(b, kFirstTableSize, static_cast<uint32_t>(b->size() - 8));
       }},
      {"bad_trailing_bytes", "multiple_tables' first table with 3 bytes added inside its table_size",
       "multiple_tables",
       [](std::vector<uint8_t>* b) {
         const uint32_t size = ReadU32(*b, kFirstTableSize);
         const size_t end = kFirstTableSize + 4 + size;
         const uint8_t junk[] = {1, 2, 3};
         b->insert(b->begin() + static_cast<std::ptrdiff_t>(end), junk, junk + sizeof junk);
         WriteU32(b, kFirstTableSize, size + 3);
       }},
  };
}

std::vector<uint8_t> Encode(const Vector& v) {
  ResultSet out;
  ResultWriter writer;
  Arena arena;
  writer.Begin(&out, size_t{1} << 30);
  for (const TableSpec& t : v.tables) {
    const ResultHeader header = ResultHeader::Make(t.columns);
    writer.BeginTable(header);
    for (const std::vector<Cell>& row : t.rows) {
      std::vector<Value> values;
      for (const Cell& c : row) values.push_back(c.value);
      const Status s = writer.AddRow(values.data(), &arena);
      if (!s.ok()) {
        std::cerr << "make_result_vectors: " << v.name << ": " << s.ToString() << "\n";
        std::exit(2);
      }
    }
    writer.EndTable();
  }
  writer.Finish();
  const auto bytes = out.bytes();
  return {bytes.begin(), bytes.end()};
}

std::string Expected(const std::vector<Vector>& good, const std::vector<BadVector>& bad) {
  std::ostringstream s;
  s << "# Result-table golden vectors (tests/vectors/README.md), written by make_result_vectors from the\n"
       "# engine's ResultWriter. Tab-separated records:\n"
       "#   file <name> <table_count>       a result set: u32 table_count, then the tables\n"
       "#   file <name> error               a malformed result set every decoder must refuse\n"
       "#   table <column_count> <row_count>\n"
       "#   column <type> <name>\n"
       "#   row <value>...                  one field per column\n"
       "# Values: \\N is NULL; integers and TIMESTAMP (microseconds since 1970 UTC) in decimal;\n"
       "# BOOLEAN true/false; FLOAT the shortest text that reads back to the same double;\n"
       "# DECIMAL exact text without trailing fraction zeros; VARCHAR the text with \\\\ \\t \\n \\r\n"
       "# escaped; VARBINARY lowercase hex. Lines starting with # describe the next file.\n";
  for (const Vector& v : good) {
    s << "# " << v.description << "\n";
    s << "file\t" << v.name << ".bin\t" << v.tables.size() << "\n";
    for (const TableSpec& t : v.tables) {
      s << "table\t" << t.columns.size() << "\t" << t.rows.size() << "\n";
      for (const auto& [name, type] : t.columns) s << "column\t" << TypeName(type) << "\t" << Escape(name) << "\n";
      for (const std::vector<Cell>& row : t.rows) {
        s << "row";
        for (const Cell& c : row) s << "\t" << c.text;
        s << "\n";
      }
    }
  }
  for (const BadVector& b : bad) {
    s << "# " << b.description << "\n";
    s << "file\t" << b.name << ".bin\terror\n";
  }
  return s.str();
}

// Every file and its bytes.
std::vector<std::pair<std::string, std::string>> AllFiles() {
  const std::vector<Vector> good = GoodVectors();
  const std::vector<BadVector> bad = BadVectors();
  std::vector<std::pair<std::string, std::string>> files;
  std::vector<std::pair<std::string, std::vector<uint8_t>>> encoded;
  for (const Vector& v : good) encoded.emplace_back(v.name, Encode(v));
  for (const auto& [name, bytes] : encoded) {
    files.emplace_back("result_tables/" + name + ".bin", std::string(bytes.begin(), bytes.end()));
  }
  for (const BadVector& b : bad) {
    for (const auto& [name, bytes] : encoded) {
      if (name != b.base) continue;
      std::vector<uint8_t> damaged = bytes;
      b.damage(&damaged);
      files.emplace_back("result_tables/" + b.name + ".bin", std::string(damaged.begin(), damaged.end()));
    }
  }
  files.emplace_back("result_tables.tsv", Expected(good, bad));
  return files;
}

std::string ReadFile(const std::string& path, bool* ok) {
  std::ifstream in(path, std::ios::binary);
  *ok = static_cast<bool>(in);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

int Write(const std::string& dir) {
  for (const auto& [name, bytes] : AllFiles()) {
    std::ofstream out(dir + "/" + name, std::ios::binary | std::ios::trunc);
    out << bytes;
    if (!out) {
      std::cerr << "make_result_vectors: cannot write " << dir << "/" << name << "\n";
      return 1;
    }
  }
  return 0;
}

int Check(const std::string& dir) {
  for (const auto& [name, bytes] : AllFiles()) {
    bool ok = false;
    const std::string have = ReadFile(dir + "/" + name, &ok);
    if (!ok || have != bytes) {
      std::cerr << "make_result_vectors: " << dir << "/" << name << (ok ? " differs from" : " is missing; expected")
                << " what the engine writes now; regenerate (tests/vectors/README.md)\n";
      return 1;
    }
  }
  return 0;
}

}  // namespace
}  // namespace partita

int main(int argc, char** argv) {
  if (argc != 3 || (std::strcmp(argv[1], "write") != 0 && std::strcmp(argv[1], "check") != 0)) {
    std::cerr << "usage: make_result_vectors write|check DIR   (DIR: tests/vectors)\n";
    return 2;
  }
  return std::strcmp(argv[1], "write") == 0 ? partita::Write(argv[2]) : partita::Check(argv[2]);
}
