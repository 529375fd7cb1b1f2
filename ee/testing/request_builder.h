// RequestBuilder: hand-encodes serialized batch requests (the format of
// engine/batch_request.h, docs/engine-formats.md) for tests. Test-only.
#ifndef PARTITA_TESTING_REQUEST_BUILDER_H_
#define PARTITA_TESTING_REQUEST_BUILDER_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "catalog.pb.h"
#include "partita/value.h"

namespace partita::testing {

class RequestBuilder {
 public:
  RequestBuilder(bool final_batch, uint16_t calls, int64_t txn_timestamp = 0) {
    Put<uint8_t>(final_batch ? 1 : 0);
    Put(txn_timestamp);
    Put(calls);
  }
  // A request with a time limit (flags bit 2, then u32 time_limit_ms).
  RequestBuilder(bool final_batch, uint16_t calls, uint32_t time_limit_ms, int64_t txn_timestamp) {
    Put<uint8_t>((final_batch ? 1 : 0) | 4);
    Put(txn_timestamp);
    Put(time_limit_ms);
    Put(calls);
  }
  RequestBuilder& Call(int32_t statement, uint16_t params) { return Put(statement).Put(params); }
  // An ad-hoc call: statement id -1, the serialized statement, param_count.
  RequestBuilder& AdHoc(const proto::Statement& statement, uint16_t params) {
    const std::string bytes = statement.SerializeAsString();
    Put<int32_t>(-1).Put(static_cast<uint32_t>(bytes.size()));
    Raw(bytes);
    return Put(params);
  }
  RequestBuilder& Null() { return Put<uint8_t>(proto::VALUE_TYPE_NULL); }
  RequestBuilder& TinyInt(int8_t v) { return Put<uint8_t>(proto::VALUE_TYPE_TINYINT).Put(v); }
  RequestBuilder& Integer(int32_t v) { return Put<uint8_t>(proto::VALUE_TYPE_INTEGER).Put(v); }
  RequestBuilder& BigInt(int64_t v) { return Put<uint8_t>(proto::VALUE_TYPE_BIGINT).Put(v); }
  RequestBuilder& Decimal(int128 v) { return Put<uint8_t>(proto::VALUE_TYPE_DECIMAL).Put(v); }
  RequestBuilder& Text(std::string_view s) {
    Put<uint8_t>(proto::VALUE_TYPE_VARCHAR).Put(static_cast<uint32_t>(s.size()));
    return Raw(s);
  }
  // Sets flags bit 1 and appends the dependency section header.
  RequestBuilder& Dependencies(uint16_t count) {
    bytes_[0] |= 2;
    return Put(count);
  }
  // One dependency: id, byte_length, the table's bytes.
  RequestBuilder& Dependency(int32_t id, std::span<const uint8_t> table) {
    Put(id).Put(static_cast<uint32_t>(table.size()));
    bytes_.insert(bytes_.end(), table.begin(), table.end());
    return *this;
  }
  RequestBuilder& Raw(std::string_view s) {
    bytes_.insert(bytes_.end(), s.begin(), s.end());
    return *this;
  }
  template <typename T>
  RequestBuilder& Put(T v) {
    const auto* p = reinterpret_cast<const uint8_t*>(&v);
    bytes_.insert(bytes_.end(), p, p + sizeof v);
    return *this;
  }
  std::vector<uint8_t>& bytes() { return bytes_; }
  const std::vector<uint8_t>& bytes() const { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
};

}  // namespace partita::testing

#endif  // PARTITA_TESTING_REQUEST_BUILDER_H_
