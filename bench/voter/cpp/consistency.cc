#include "consistency.h"

#include <set>

#include "text_format.h"

namespace partita::bench::voter {
namespace {

std::string Line(const std::string& what, int64_t counted, int64_t gained) {
  return PadRight(what, 26) + " driver " + PadLeft(Grouped(counted), 12) + "  database " +
         PadLeft(Grouped(gained), 12) + (counted == gained ? "" : "  <-- differs");
}

}  // namespace

Consistency Consistency::Check(const Standings& before, const Standings& after,
                               const std::vector<const Outcomes*>& phases) {
  const int max_contestant = phases[0]->MaxContestant();
  std::set<int> contestants;
  for (const Standings::Entry& e : after.entries) contestants.insert(e.contestant);
  for (int c = 1; c <= max_contestant; ++c) contestants.insert(c);
  Consistency result;
  result.consistent = true;
  int64_t total = 0;
  for (const int c : contestants) {
    int64_t counted = 0;
    for (const Outcomes* phase : phases) counted += static_cast<int64_t>(phase->Accepted(c));
    total += counted;
    const int64_t gained = after.Votes(c) - before.Votes(c);
    if (counted == 0 && gained == 0 && c == max_contestant) continue;  // the invalid number, as expected
    result.consistent &= counted == gained;
    result.lines.push_back(Line("contestant " + std::to_string(c), counted, gained));
  }
  const int64_t rows_gained = after.vote_rows - before.vote_rows;
  result.consistent &= total == rows_gained;
  result.lines.push_back(Line("all (COUNT(*) FROM votes)", total, rows_gained));
  return result;
}

}  // namespace partita::bench::voter
