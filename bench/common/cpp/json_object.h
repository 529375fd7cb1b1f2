// JsonObject: one flat JSON object whose fields keep the order they were
// added in: the drivers' --json result. Strings are escaped per RFC 8259;
// doubles are written in their shortest exact form, and as null when not
// finite (JSON has no NaN or infinity).
//
//   JsonObject j;
//   j.Add("driver", "cpp").Add("tps", 301234.5).Add("consistent", true);
//   j.ToString();  // {"driver": "cpp", "tps": 301234.5, "consistent": true} over several lines
//
// Ownership: a value type. Thread model: not synchronized.
#ifndef PARTITA_BENCH_COMMON_JSON_OBJECT_H_
#define PARTITA_BENCH_COMMON_JSON_OBJECT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace partita::bench {

class JsonObject {
 public:
  JsonObject& Add(std::string_view name, std::string_view value);
  JsonObject& Add(std::string_view name, const char* value) { return Add(name, std::string_view(value)); }
  JsonObject& Add(std::string_view name, double value);
  JsonObject& Add(std::string_view name, int64_t value);
  JsonObject& Add(std::string_view name, uint64_t value);
  JsonObject& Add(std::string_view name, int value) { return Add(name, static_cast<int64_t>(value)); }
  JsonObject& Add(std::string_view name, bool value);

  // The object, one field per line, indented by two spaces, ending with a newline.
  std::string ToString() const;

  // Writes ToString() to `path`; returns an empty string on success, else why it failed.
  std::string WriteFile(const std::string& path) const;

  // `text` as a JSON string literal, quotes included.
  static std::string Quote(std::string_view text);

 private:
  JsonObject& AddRaw(std::string_view name, std::string json);

  std::vector<std::pair<std::string, std::string>> fields_;  // name, JSON text of the value
};

}  // namespace partita::bench

#endif  // PARTITA_BENCH_COMMON_JSON_OBJECT_H_
