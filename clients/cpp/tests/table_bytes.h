// TableBytes: builds tables of the engine's binary result format
// (docs/engine-formats.md) for tests, including deliberately broken ones.
#ifndef PARTITA_CLIENT_TESTS_TABLE_BYTES_H_
#define PARTITA_CLIENT_TESTS_TABLE_BYTES_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace partita::client::testing {

class TableBytes {
 public:
  TableBytes& Column(uint8_t type, const std::string& name) {
    columns_.push_back(type);
    Put<uint8_t>(&header_, type);
    Put<uint16_t>(&header_, static_cast<uint16_t>(name.size()));
    header_ += name;
    return *this;
  }
  // Starts a row; `nulls` has one flag per column.
  TableBytes& Row(const std::vector<bool>& nulls) {
    rows_.emplace_back((columns_.size() + 7) / 8, '\0');
    for (size_t c = 0; c < nulls.size(); ++c) {
      if (nulls[c]) rows_.back()[c / 8] = static_cast<char>(rows_.back()[c / 8] | (1 << (c % 8)));
    }
    return *this;
  }
  template <typename T>
  TableBytes& Value(T v) {
    Put<T>(&rows_.back(), v);
    return *this;
  }
  TableBytes& Text(const std::string& s) {
    Put<uint32_t>(&rows_.back(), static_cast<uint32_t>(s.size()));
    rows_.back() += s;
    return *this;
  }
  // The table: u32 table_size, u16 column_count, columns, u32 row_count, rows.
  std::string Build() const {
    std::string body;
    Put<uint16_t>(&body, static_cast<uint16_t>(columns_.size()));
    body += header_;
    Put<uint32_t>(&body, static_cast<uint32_t>(rows_.size()));
    for (const std::string& row : rows_) {
      Put<uint32_t>(&body, static_cast<uint32_t>(row.size()));
      body += row;
    }
    std::string table;
    Put<uint32_t>(&table, static_cast<uint32_t>(body.size()));
    return table + body;
  }

  template <typename T>
  static void Put(std::string* out, T v) {
    char bytes[sizeof v];
    std::memcpy(bytes, &v, sizeof v);
    out->append(bytes, sizeof v);
  }

 private:
  std::vector<uint8_t> columns_;
  std::string header_;
  std::vector<std::string> rows_;
};

// A one-row table with one BIGINT column: what a procedure returning a long answers.
inline std::string LongTable(int64_t value) {
  return TableBytes().Column(5, "RESULT").Row({false}).Value<int64_t>(value).Build();
}

}  // namespace partita::client::testing

#endif  // PARTITA_CLIENT_TESTS_TABLE_BYTES_H_
