#include "standings.h"

namespace partita::bench::voter {
namespace {

// The first table of a successful answer, or an error naming `what`.
std::string FirstTable(const client::Result<client::Response>& r, const std::string& what,
                       const client::ResultTable** table) {
  if (!r.ok()) return what + ": " + r.status().ToString();
  if (!r->ok()) return what + ": " + r->ToString();
  if (r->results.empty()) return what + ": the answer has no result table";
  *table = &r->results[0];
  return "";
}

}  // namespace

int64_t Standings::Votes(int contestant) const {
  for (const Entry& e : entries) {
    if (e.contestant == contestant) return e.votes;
  }
  return 0;
}

std::string Standings::Read(client::Client& client, Standings* out) {
  const client::ResultTable* table = nullptr;
  const client::Result<client::Response> results = client.Call("Results", {});
  if (std::string error = FirstTable(results, "Results", &table); !error.empty()) return error;
  if (table->column_count() < 3) return "Results: expected 3 columns (name, contestant, votes)";
  Standings s;
  for (size_t r = 0; r < table->row_count(); ++r) {
    s.entries.push_back(
        {static_cast<int>(table->GetInt64(r, 1)), std::string(table->GetString(r, 0)), table->GetInt64(r, 2)});
  }
  const client::Result<client::Response> count = client.Call("@AdHoc", {kCountVotes});
  if (std::string error = FirstTable(count, "@AdHoc", &table); !error.empty()) return error;
  if (table->row_count() != 1 || table->column_count() != 1) return "@AdHoc: expected one count";
  s.vote_rows = table->GetInt64(0, 0);
  *out = std::move(s);
  return "";
}

}  // namespace partita::bench::voter
