#include "json_object.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "text_format.h"

namespace partita::bench {

JsonObject& JsonObject::AddRaw(std::string_view name, std::string json) {
  fields_.emplace_back(std::string(name), std::move(json));
  return *this;
}

JsonObject& JsonObject::Add(std::string_view name, std::string_view value) { return AddRaw(name, Quote(value)); }

JsonObject& JsonObject::Add(std::string_view name, double value) {
  return AddRaw(name, std::isfinite(value) ? Shortest(value) : "null");
}

JsonObject& JsonObject::Add(std::string_view name, int64_t value) { return AddRaw(name, std::to_string(value)); }

JsonObject& JsonObject::Add(std::string_view name, uint64_t value) { return AddRaw(name, std::to_string(value)); }

JsonObject& JsonObject::Add(std::string_view name, bool value) { return AddRaw(name, value ? "true" : "false"); }

std::string JsonObject::ToString() const {
  std::string s = "{";
  for (size_t i = 0; i < fields_.size(); ++i) {
    s += i == 0 ? "\n  " : ",\n  ";
    s += Quote(fields_[i].first) + " : " + fields_[i].second;
  }
  return s + (fields_.empty() ? "}\n" : "\n}\n");
}

std::string JsonObject::WriteFile(const std::string& path) const {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return "cannot open " + path + ": " + std::strerror(errno);
  out << ToString();
  out.close();
  if (!out) return "cannot write " + path + ": " + std::strerror(errno);
  return "";
}

std::string JsonObject::Quote(std::string_view text) {
  std::string s = "\"";
  for (const char c : text) {
    switch (c) {
      case '"': s += "\\\""; break;
      case '\\': s += "\\\\"; break;
      case '\n': s += "\\n"; break;
      case '\r': s += "\\r"; break;
      case '\t': s += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char escape[8];
          std::snprintf(escape, sizeof escape, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          s += escape;
        } else {
          s += c;
        }
    }
  }
  return s + "\"";
}

}  // namespace partita::bench
