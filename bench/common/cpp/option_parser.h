// OptionParser: the drivers' command line: long options "--name VALUE" or
// "--name=VALUE", each bound to a variable that holds its default, and
// "-h"/"--help". Numbers must be whole (no trailing text); choices match in
// any case and are stored in lower case; lists are comma-separated.
//
//   double duration = 30;
//   OptionParser parser("voter_driver", "Runs the Voter benchmark.");
//   parser.AddDouble("--duration", "S", "measured seconds", &duration);
//   ParseOutcome outcome = parser.Parse(argc, argv);
//   if (outcome.kind == ParseOutcome::Kind::kError) { ... outcome.message ... }
//
// Ownership: the bound variables belong to the caller and must outlive the
// parser. Thread model: not synchronized; one thread.
#ifndef PARTITA_BENCH_COMMON_OPTION_PARSER_H_
#define PARTITA_BENCH_COMMON_OPTION_PARSER_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace partita::bench {

struct ParseOutcome {
  enum class Kind { kRun, kHelp, kError };
  Kind kind = Kind::kRun;
  // kError: what was wrong, naming the option ("--duration needs a number, got 'x'").
  std::string message;
};

class OptionParser {
 public:
  OptionParser(std::string program, std::string description);

  void AddDouble(std::string name, std::string label, std::string help, double* target);
  void AddInt(std::string name, std::string label, std::string help, int64_t* target);
  void AddString(std::string name, std::string label, std::string help, std::string* target);
  // REQUIRES: `choices` in lower case, *target among them.
  void AddChoice(std::string name, std::vector<std::string> choices, std::string help, std::string* target);
  void AddList(std::string name, std::string label, std::string help, std::vector<std::string>* target);

  // Parses argv[1..argc). Returns kHelp for -h/--help, kError for an unknown
  // option, a missing or malformed value; kRun otherwise.
  ParseOutcome Parse(int argc, const char* const* argv);

  // The usage text: program, description, each option with its default.
  std::string Usage() const;

 private:
  struct Option {
    std::string name;
    std::string label;
    std::string help;
    std::string default_text;
    // Stores the value; returns an error message, empty on success.
    std::function<std::string(std::string_view)> set;
  };

  const Option* Find(std::string_view name) const;

  std::string program_;
  std::string description_;
  std::vector<Option> options_;
};

// Whole-text conversions used by the parser, public for tests: false when
// `text` is not entirely one finite number.
bool ParseInt64(std::string_view text, int64_t* out);
bool ParseFiniteDouble(std::string_view text, double* out);

}  // namespace partita::bench

#endif  // PARTITA_BENCH_COMMON_OPTION_PARSER_H_
