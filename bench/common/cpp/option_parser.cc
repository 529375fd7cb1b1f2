#include "option_parser.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "text_format.h"

namespace partita::bench {
namespace {

std::string Lower(std::string_view text) {
  std::string s(text);
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::string Join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i) s.append(i == 0 ? "" : separator).append(parts[i]);
  return s;
}

}  // namespace

bool ParseInt64(std::string_view text, int64_t* out) {
  if (text.empty()) return false;
  const char* begin = text.data() + (text[0] == '+' ? 1 : 0);
  const auto [end, error] = std::from_chars(begin, text.data() + text.size(), *out);
  return error == std::errc() && end == text.data() + text.size();
}

bool ParseFiniteDouble(std::string_view text, double* out) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return false;
  const std::string copy(text);
  char* end = nullptr;
  const double value = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size() || !std::isfinite(value)) return false;
  *out = value;
  return true;
}

OptionParser::OptionParser(std::string program, std::string description)
    : program_(std::move(program)), description_(std::move(description)) {}

void OptionParser::AddDouble(std::string name, std::string label, std::string help, double* target) {
  const std::string n = name;
  options_.push_back({std::move(name), std::move(label), std::move(help), Shortest(*target),
                      [n, target](std::string_view v) -> std::string {
                        return ParseFiniteDouble(v, target) ? "" : n + " needs a number, got '" + std::string(v) + "'";
                      }});
}

void OptionParser::AddInt(std::string name, std::string label, std::string help, int64_t* target) {
  const std::string n = name;
  options_.push_back({std::move(name), std::move(label), std::move(help), std::to_string(*target),
                      [n, target](std::string_view v) -> std::string {
                        return ParseInt64(v, target) ? "" : n + " needs a whole number, got '" + std::string(v) + "'";
                      }});
}

void OptionParser::AddString(std::string name, std::string label, std::string help, std::string* target) {
  options_.push_back({std::move(name), std::move(label), std::move(help), target->empty() ? "none" : *target,
                      [target](std::string_view v) -> std::string {
                        *target = std::string(v);
                        return "";
                      }});
}

void OptionParser::AddChoice(std::string name, std::vector<std::string> choices, std::string help,
                             std::string* target) {
  const std::string n = name;
  std::string label = Join(choices, "|");
  options_.push_back({std::move(name), std::move(label), std::move(help), *target,
                      [n, choices, target](std::string_view v) -> std::string {
                        const std::string lower = Lower(v);
                        if (std::find(choices.begin(), choices.end(), lower) == choices.end()) {
                          return n + " must be one of " + Join(choices, ", ") + ", got '" + std::string(v) + "'";
                        }
                        *target = lower;
                        return "";
                      }});
}

void OptionParser::AddList(std::string name, std::string label, std::string help, std::vector<std::string>* target) {
  const std::string n = name;
  options_.push_back({std::move(name), std::move(label), std::move(help), Join(*target, ","),
                      [n, target](std::string_view v) -> std::string {
                        std::vector<std::string> items;
                        std::stringstream in{std::string(v)};
                        for (std::string item; std::getline(in, item, ',');) {
                          const size_t first = item.find_first_not_of(" \t");
                          const size_t last = item.find_last_not_of(" \t");
                          if (first == std::string::npos) {
                            return n + " needs comma-separated values without empty ones, got '" + std::string(v) + "'";
                          }
                          items.push_back(item.substr(first, last - first + 1));
                        }
                        if (items.empty() || v.back() == ',') {
                          return n + " needs comma-separated values without empty ones, got '" + std::string(v) + "'";
                        }
                        *target = std::move(items);
                        return "";
                      }});
}

const OptionParser::Option* OptionParser::Find(std::string_view name) const {
  for (const Option& o : options_) {
    if (o.name == name) return &o;
  }
  return nullptr;
}

ParseOutcome OptionParser::Parse(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "-h" || arg == "--help") return {ParseOutcome::Kind::kHelp, ""};
    const size_t equals = arg.find('=');
    const std::string_view name = arg.substr(0, equals);
    const Option* option = arg.starts_with("--") ? Find(name) : nullptr;
    if (option == nullptr) {
      return {ParseOutcome::Kind::kError, "unknown option '" + std::string(arg) + "' (see --help)"};
    }
    std::string_view value;
    if (equals != std::string_view::npos) {
      value = arg.substr(equals + 1);
    } else if (i + 1 < argc) {
      value = argv[++i];
    } else {
      return {ParseOutcome::Kind::kError, option->name + " needs a value (" + option->label + ")"};
    }
    if (std::string error = option->set(value); !error.empty()) return {ParseOutcome::Kind::kError, error};
  }
  return {ParseOutcome::Kind::kRun, ""};
}

std::string OptionParser::Usage() const {
  std::string s = "Usage: " + program_ + " [options]\n" + description_ + "\n\nOptions:\n";
  for (const Option& o : options_) {
    std::string head = "  " + o.name + " " + o.label;
    if (head.size() < 30) head.resize(30, ' ');
    s += head + " " + o.help + " (default: " + o.default_text + ")\n";
  }
  s += "  -h, --help                   this help\n";
  return s;
}

}  // namespace partita::bench
