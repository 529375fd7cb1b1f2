// The result-table golden vectors (tests/vectors/README.md): result sets
// written by the engine's ResultWriter, with their expected contents in
// result_tables.tsv. Every client's decoder reads the same files.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "partita/client/result_table.h"

namespace partita::client {
namespace {

const std::string kVectors = std::string(PARTITA_SOURCE_DIR) + "/tests/vectors/";

struct ExpectedTable {
  size_t columns = 0;
  size_t rows = 0;
  std::vector<std::pair<std::string, std::string>> column_defs;  // type, name
  std::vector<std::vector<std::string>> values;
};

struct ExpectedFile {
  std::string file;
  bool error = false;
  size_t table_count = 0;
  std::vector<ExpectedTable> tables;
};

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << "cannot open " << path;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> Split(const std::string& line) {
  std::vector<std::string> fields;
  size_t start = 0;
  for (size_t tab; (tab = line.find('\t', start)) != std::string::npos; start = tab + 1) {
    fields.push_back(line.substr(start, tab - start));
  }
  fields.push_back(line.substr(start));
  return fields;
}

std::string Unescape(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out += s[i];
      continue;
    }
    const char e = s[++i];
    out += e == 't' ? '\t' : e == 'n' ? '\n' : e == 'r' ? '\r' : e;
  }
  return out;
}

std::string Hex(std::string_view bytes) {
  static const char kDigits[] = "0123456789abcdef";
  std::string hex;
  for (const unsigned char c : bytes) {
    hex += kDigits[c >> 4];
    hex += kDigits[c & 15];
  }
  return hex;
}

std::vector<ExpectedFile> Expected() {
  std::vector<ExpectedFile> files;
  std::istringstream in(ReadAll(kVectors + "result_tables.tsv"));
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> f = Split(line);
    if (f[0] == "file") {
      files.push_back({f[1], f[2] == "error", f[2] == "error" ? 0 : std::stoul(f[2]), {}});
    } else if (f[0] == "table") {
      files.back().tables.push_back({std::stoul(f[1]), std::stoul(f[2]), {}, {}});
    } else if (f[0] == "column") {
      files.back().tables.back().column_defs.emplace_back(f[1], Unescape(f[2]));
    } else if (f[0] == "row") {
      files.back().tables.back().values.emplace_back(f.begin() + 1, f.end());
    } else {
      ADD_FAILURE() << "unknown record " << f[0];
    }
  }
  return files;
}

// Splits a result set into its tables (each at most what its table_size
// claims and the bytes hold) and parses each; the first error, if any, in `error`.
std::vector<ResultTable> ParseResultSet(const std::string& bytes, std::string* error) {
  std::vector<ResultTable> tables;
  if (bytes.size() < 4) {
    *error = "truncated table_count";
    return tables;
  }
  uint32_t count;
  std::memcpy(&count, bytes.data(), 4);
  size_t p = 4;
  for (uint32_t i = 0; i < count; ++i) {
    if (bytes.size() - p < 4) {
      *error = "truncated table_size";
      return tables;
    }
    uint32_t size;
    std::memcpy(&size, bytes.data() + p, 4);
    const size_t take = std::min<size_t>(size_t{4} + size, bytes.size() - p);
    Result<ResultTable> t = ResultTable::Parse(bytes.substr(p, take));
    if (!t.ok()) {
      *error = t.status().ToString();
      return tables;
    }
    tables.push_back(std::move(t).value());
    p += take;
  }
  if (p != bytes.size()) *error = "bytes after the last table";
  return tables;
}

void CheckValue(const std::string& where, const std::string& type, const std::string& text, const ResultTable& t,
                size_t r, size_t c) {
  if (text == "\\N") {
    EXPECT_TRUE(t.IsNull(r, c)) << where;
    return;
  }
  ASSERT_FALSE(t.IsNull(r, c)) << where;
  if (type == "TINYINT" || type == "SMALLINT" || type == "INTEGER" || type == "BIGINT" || type == "TIMESTAMP") {
    const int64_t v = type == "TIMESTAMP" ? t.GetTimestampMicros(r, c) : t.GetInt64(r, c);
    EXPECT_EQ(std::to_string(v), text) << where;
  } else if (type == "BOOLEAN") {
    EXPECT_EQ(t.GetInt64(r, c), text == "true" ? 1 : 0) << where;
  } else if (type == "FLOAT") {
    const double expected = std::strtod(text.c_str(), nullptr);
    const double actual = t.GetDouble(r, c);
    EXPECT_EQ(std::memcmp(&expected, &actual, sizeof expected), 0) << where << ": " << actual << " vs " << text;
  } else if (type == "DECIMAL") {
    EXPECT_EQ(t.GetDecimal(r, c), text) << where;
  } else if (type == "VARCHAR") {
    EXPECT_EQ(t.GetString(r, c), Unescape(text)) << where;
  } else if (type == "VARBINARY") {
    EXPECT_EQ(Hex(t.GetBytes(r, c)), text) << where;
  } else {
    ADD_FAILURE() << where << ": unknown type " << type;
  }
}

TEST(ResultVectorsTest, DecodesEveryGoodVectorAsExpected) {
  size_t files = 0, values = 0;
  for (const ExpectedFile& e : Expected()) {
    if (e.error) continue;
    ++files;
    std::string error;
    const std::vector<ResultTable> tables = ParseResultSet(ReadAll(kVectors + "result_tables/" + e.file), &error);
    ASSERT_EQ(error, "") << e.file;
    ASSERT_EQ(tables.size(), e.table_count) << e.file;
    for (size_t i = 0; i < tables.size(); ++i) {
      const ExpectedTable& x = e.tables[i];
      const ResultTable& t = tables[i];
      const std::string where = e.file + " table " + std::to_string(i);
      ASSERT_EQ(t.column_count(), x.columns) << where;
      ASSERT_EQ(t.row_count(), x.rows) << where;
      for (size_t c = 0; c < x.columns; ++c) {
        EXPECT_EQ(ValueTypeName(t.column_type(c)), x.column_defs[c].first) << where << " column " << c;
        EXPECT_EQ(t.column_name(c), x.column_defs[c].second) << where << " column " << c;
      }
      for (size_t r = 0; r < x.rows; ++r) {
        for (size_t c = 0; c < x.columns; ++c, ++values) {
          CheckValue(where + " row " + std::to_string(r) + " column " + std::to_string(c), x.column_defs[c].first,
                     x.values[r][c], t, r, c);
        }
      }
    }
  }
  EXPECT_GE(files, 9u);
  EXPECT_GT(values, 100u);
}

TEST(ResultVectorsTest, RefusesEveryMalformedVector) {
  size_t bad = 0;
  for (const ExpectedFile& e : Expected()) {
    if (!e.error) continue;
    ++bad;
    std::string error;
    ParseResultSet(ReadAll(kVectors + "result_tables/" + e.file), &error);
    EXPECT_NE(error, "") << e.file << " was accepted";
  }
  EXPECT_GE(bad, 4u);
}

}  // namespace
}  // namespace partita::client
