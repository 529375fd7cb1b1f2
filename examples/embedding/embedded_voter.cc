// embedded_voter: the Voter workload on several partitions inside one
// process, built against the installed engine (find_package(Partita)) and a
// catalog compiled from SQL DDL (voter.sql) by `partita compile`.
//
//   embedded_voter CATALOG [partitions=4] [votes=200000]
//
// Each partition is an Engine on its own thread (PartitionRunner). The
// replicated tables (contestants, area codes) are loaded into every
// partition. Each vote is routed as a server would route the InsertVote
// procedure: the catalog names its partitioning parameter (the phone
// number), and the public partition hash and map give that value's
// partition. There the Vote transaction runs: it reads (contestant, votes of
// the phone so far, state of the area code) in an open transaction, rolls it
// back if the vote is rejected, or inserts the vote and commits. At the end
// the standings are read with ContestantVotes, a multi-partition statement
// run as a server's coordinator runs it (its fragment on every partition,
// then the statement with their result tables as dependencies), and checked
// against the program's own count; the exit code is 1 if anything differs.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <string>
#include <vector>

#include "partita/catalog_file.h"
#include "partita/partition_map.h"
#include "partita/partition_runner.h"
#include "partita/version.h"

namespace {

constexpr int kContestants = 6;
constexpr int64_t kMaxVotesPerPhone = 2;

enum Outcome { kAccepted = 0, kInvalidContestant = 1, kOverLimit = 2, kOutcomes = 3 };

struct AreaCode {
  int16_t code;
  const char* state;
};
constexpr AreaCode kAreaCodes[] = {{617, "MA"}, {212, "NY"}, {312, "IL"}, {415, "CA"}, {202, "DC"},
                                   {305, "FL"}, {713, "TX"}, {206, "WA"}, {303, "CO"}, {404, "GA"}};
// Phones are drawn from these area codes plus one the table lacks (state XX).
constexpr int16_t kUnknownAreaCode = 999;

struct VoteCall {
  int64_t phone;
  int32_t contestant;
};

// The engine statements each step runs, found by the procedures' names
// (the same ids on every partition: a StatementId is a catalog position).
struct Statements {
  partita::StatementId add_contestant, add_area_code, find_contestant, count_votes, state_of_area_code,
      insert_vote, contestant_votes, contestant_votes_fragment;
  int32_t contestant_votes_dependency;
};

// What one partition did.
struct Tally {
  int64_t outcomes[kOutcomes] = {0, 0, 0};
  int64_t accepted_for[kContestants + 1] = {};
  std::string error;
};

// SplitMix64: a fixed sequence of votes whatever the platform.
uint64_t Next(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::vector<VoteCall> MakeVotes(int64_t count) {
  std::vector<VoteCall> votes;
  uint64_t state = 2026;
  const uint64_t phones_per_area = static_cast<uint64_t>(count / 8 + 1);  // repeat voters hit the limit
  constexpr size_t kAreas = std::size(kAreaCodes) + 1;
  for (int64_t i = 0; i < count; ++i) {
    const size_t area = Next(&state) % kAreas;
    const int64_t code = area < std::size(kAreaCodes) ? kAreaCodes[area].code : kUnknownAreaCode;
    const int64_t phone = code * 10'000'000 + static_cast<int64_t>(Next(&state) % phones_per_area);
    // Contestant kContestants + 1 does not exist.
    const auto contestant = static_cast<int32_t>(Next(&state) % (kContestants + 1) + 1);
    votes.push_back({phone, contestant});
  }
  return votes;
}

// The one statement of single-statement procedure `name`.
partita::Result<const partita::StatementInfo*> StatementOf(const partita::CatalogFile& catalog, const char* name) {
  const partita::ProcedureInfo* p = catalog.FindProcedure(name);
  if (p == nullptr || !p->single_statement) {
    return partita::Status(partita::error::kProcedureNotFound,
                           std::string("the catalog has no single-statement procedure ") + name);
  }
  return &p->statements[0];
}

partita::Status FindStatements(const partita::CatalogFile& catalog, partita::Engine& engine, Statements* out) {
  const std::pair<const char*, partita::StatementId*> wanted[] = {
      {"AddContestant", &out->add_contestant},       {"AddAreaCode", &out->add_area_code},
      {"FindContestant", &out->find_contestant},     {"CountVotes", &out->count_votes},
      {"StateOfAreaCode", &out->state_of_area_code}, {"InsertVote", &out->insert_vote},
      {"ContestantVotes", &out->contestant_votes}};
  for (const auto& [procedure, id] : wanted) {
    partita::Result<const partita::StatementInfo*> statement = StatementOf(catalog, procedure);
    if (!statement.ok()) return statement.status();
    partita::Result<partita::StatementId> found = engine.FindStatement(statement.value()->name);
    if (!found.ok()) return found.status();
    *id = found.value();
  }
  // ContestantVotes reads a view of the partitioned votes: one fragment on
  // every partition, merged by the statement itself.
  const partita::StatementInfo* standings = StatementOf(catalog, "ContestantVotes").value();
  if (standings->distribution != partita::Distribution::kEveryPartition || standings->fragments.size() != 1) {
    return partita::Status(partita::error::kBadCatalog, "ContestantVotes should have one fragment per partition");
  }
  partita::Result<partita::StatementId> fragment = engine.FindStatement(standings->fragments[0].name);
  if (!fragment.ok()) return fragment.status();
  out->contestant_votes_fragment = fragment.value();
  out->contestant_votes_dependency = standings->fragments[0].dependency_id;
  return partita::Status::OK();
}

// Runs one statement in the open transaction (committing it iff `commit`)
// and parses its one result table into `*table`.
partita::Status Run(partita::Engine& engine, partita::StatementId statement, std::span<const partita::Value> params,
                    bool commit, partita::ResultSet* results, partita::ResultTableReader* table) {
  const partita::StatementCall call{statement, params};
  partita::BatchOptions options;
  options.final_batch = commit;
  PARTITA_RETURN_IF_ERROR(engine.ExecuteBatch({&call, 1}, options, results));
  partita::Result<partita::ResultTableReader> parsed = partita::ResultTableReader::Parse(results->table(0));
  if (!parsed.ok()) return parsed.status();
  *table = std::move(parsed.value());
  return partita::Status::OK();
}

// Loads the replicated tables into one partition, in one transaction.
partita::Status LoadReplicated(partita::Engine& engine, const Statements& s) {
  static const char* const kNames[kContestants] = {"Edwina Burnam", "Tabatha Gehling", "Kelly Clauss",
                                                   "Jessie Alloway", "Alana Bregman", "Jessie Eichman"};
  partita::ResultSet results;
  partita::ResultTableReader table;
  for (int32_t c = 1; c <= kContestants; ++c) {
    const partita::Value row[] = {partita::Value::Integer(c), partita::Value::Varchar(kNames[c - 1])};
    PARTITA_RETURN_IF_ERROR(Run(engine, s.add_contestant, row, false, &results, &table));
  }
  for (const AreaCode& area : kAreaCodes) {
    const partita::Value row[] = {partita::Value::SmallInt(area.code), partita::Value::Varchar(area.state)};
    PARTITA_RETURN_IF_ERROR(Run(engine, s.add_area_code, row, false, &results, &table));
  }
  engine.Commit();
  return partita::Status::OK();
}

// The Vote transaction: reads, then either rolls back (rejected) or inserts
// and commits (accepted).
partita::Result<Outcome> Vote(partita::Engine& engine, const Statements& s, const VoteCall& vote,
                              partita::ResultSet* results) {
  partita::ResultTableReader table;
  const partita::Value contestant[] = {partita::Value::Integer(vote.contestant)};
  PARTITA_RETURN_IF_ERROR(Run(engine, s.find_contestant, contestant, false, results, &table));
  if (table.row_count() == 0) {
    engine.Rollback();
    return kInvalidContestant;
  }
  const partita::Value phone[] = {partita::Value::BigInt(vote.phone)};
  PARTITA_RETURN_IF_ERROR(Run(engine, s.count_votes, phone, false, results, &table));
  if (table.row_count() == 1 && table.Get(0, 0).int_value() >= kMaxVotesPerPhone) {
    engine.Rollback();
    return kOverLimit;
  }
  const partita::Value area[] = {partita::Value::SmallInt(static_cast<int16_t>(vote.phone / 10'000'000))};
  PARTITA_RETURN_IF_ERROR(Run(engine, s.state_of_area_code, area, false, results, &table));
  const std::string state = table.row_count() == 1 ? std::string(table.Get(0, 0).string_value()) : "XX";
  const partita::Value row[] = {partita::Value::BigInt(vote.phone), partita::Value::Varchar(state),
                                partita::Value::Integer(vote.contestant)};
  PARTITA_RETURN_IF_ERROR(Run(engine, s.insert_vote, row, true, results, &table));
  return kAccepted;
}

// Runs one partition's share of the votes, then reads its standings.
void RunPartition(partita::Engine& engine, const Statements& s, const std::vector<VoteCall>& votes, Tally* tally) {
  partita::ResultSet results;
  for (const VoteCall& vote : votes) {
    partita::Result<Outcome> outcome = Vote(engine, s, vote, &results);
    if (!outcome.ok()) {
      tally->error = outcome.status().ToString();
      return;
    }
    ++tally->outcomes[outcome.value()];
    if (outcome.value() == kAccepted) ++tally->accepted_for[vote.contestant];
  }
}

// Runs a read on every partition and returns each partition's result table.
std::vector<std::vector<uint8_t>> RunOnEveryPartition(partita::PartitionRunner& runner, partita::StatementId statement,
                                                      const partita::Value& param, std::string* error) {
  std::vector<std::vector<uint8_t>> tables(static_cast<size_t>(runner.partition_count()));
  std::vector<std::string> errors(tables.size());
  std::vector<std::future<void>> done;
  for (int p = 0; p < runner.partition_count(); ++p) {
    done.push_back(runner.Submit(p, [&, p](partita::Engine& engine) {
      const partita::StatementCall call{statement, {&param, 1}};
      partita::ResultSet results;
      const partita::Status st = engine.ExecuteBatch({&call, 1}, partita::BatchOptions{}, &results);
      if (!st.ok()) errors[static_cast<size_t>(p)] = st.ToString();
      if (st.ok()) tables[static_cast<size_t>(p)].assign(results.table(0).begin(), results.table(0).end());
    }));
  }
  for (auto& f : done) f.wait();
  for (const std::string& e : errors) {
    if (!e.empty()) *error = e;
  }
  return tables;
}

// A contestant's votes over every partition: ContestantVotes's fragment on
// each, then the statement on partition 0 with their tables as dependencies.
partita::Result<int64_t> ContestantVotes(partita::PartitionRunner& runner, const Statements& s, int32_t contestant) {
  const partita::Value param = partita::Value::Integer(contestant);
  std::string error;
  const std::vector<std::vector<uint8_t>> tables =
      RunOnEveryPartition(runner, s.contestant_votes_fragment, param, &error);
  if (!error.empty()) return partita::Status(partita::error::kInternal, error);
  std::vector<partita::DependencyTable> dependencies;
  for (const auto& t : tables) dependencies.push_back({s.contestant_votes_dependency, t});
  partita::Result<int64_t> total = partita::Status(partita::error::kInternal, "not run");
  runner.Submit(0, [&](partita::Engine& engine) {
    const partita::StatementCall call{s.contestant_votes, {&param, 1}};
    partita::BatchOptions options;
    options.dependencies = dependencies;
    partita::ResultSet results;
    const partita::Status st = engine.ExecuteBatch({&call, 1}, options, &results);
    if (!st.ok()) {
      total = st;
      return;
    }
    const partita::Value sum = partita::ResultTableReader::Parse(results.table(0)).value().Get(0, 0);
    total = sum.is_null() ? 0 : sum.int_value();
  }).wait();
  return total;
}

int Fail(const partita::Status& status) {
  std::fprintf(stderr, "embedded_voter: %s\n", status.ToString().c_str());
  return 1;
}

// Routes every vote as a server routes InsertVote: by the value of the
// parameter the catalog names as its partitioning parameter.
partita::Result<std::vector<std::vector<VoteCall>>> RouteVotes(const partita::CatalogFile& catalog,
                                                               const partita::PartitionMap& map, int64_t count) {
  const partita::ProcedureInfo* insert = catalog.FindProcedure("InsertVote");
  if (insert == nullptr || insert->partition_parameter != 0) {
    return partita::Status(partita::error::kBadCatalog, "InsertVote must be partitioned on its phone number");
  }
  std::vector<std::vector<VoteCall>> routed(static_cast<size_t>(map.partition_count()));
  for (const VoteCall& vote : MakeVotes(count)) {
    partita::Result<int> partition = map.PartitionOf(partita::Value::BigInt(vote.phone));
    if (!partition.ok()) return partition.status();
    routed[static_cast<size_t>(partition.value())].push_back(vote);
  }
  return routed;
}

// Every partition loads the replicated tables, then runs its votes.
std::vector<Tally> RunVotes(partita::PartitionRunner& runner, const partita::CatalogFile& catalog,
                            const std::vector<std::vector<VoteCall>>& routed) {
  std::vector<Tally> tallies(routed.size());
  std::vector<std::future<void>> done;
  for (int p = 0; p < runner.partition_count(); ++p) {
    done.push_back(runner.Submit(p, [&, p](partita::Engine& engine) {
      Tally& tally = tallies[static_cast<size_t>(p)];
      Statements s{};
      partita::Status st = FindStatements(catalog, engine, &s);
      if (st.ok()) st = LoadReplicated(engine, s);
      if (!st.ok()) {
        tally.error = st.ToString();
        return;
      }
      RunPartition(engine, s, routed[static_cast<size_t>(p)], &tally);
    }));
  }
  for (auto& f : done) f.wait();
  return tallies;
}

// Reads the standings as the views hold them, prints them, and returns
// their sum; false in *ok if a contestant's votes differ from `accepted_for`.
partita::Result<int64_t> CheckStandings(partita::PartitionRunner& runner, const partita::CatalogFile& catalog,
                                        const int64_t* accepted_for, bool* ok) {
  Statements s{};
  partita::Status found = partita::Status::OK();
  runner.Submit(0, [&](partita::Engine& engine) { found = FindStatements(catalog, engine, &s); }).wait();
  if (!found.ok()) return found;
  int64_t counted = 0;
  for (int32_t c = 1; c <= kContestants; ++c) {
    partita::Result<int64_t> votes = ContestantVotes(runner, s, c);
    if (!votes.ok()) return votes.status();
    std::printf("contestant %d: %" PRId64 " votes\n", c, votes.value());
    if (votes.value() != accepted_for[c]) {
      std::fprintf(stderr, "embedded_voter: contestant %d: the views hold %" PRId64 " votes, %" PRId64 " accepted\n",
                   c, votes.value(), accepted_for[c]);
      *ok = false;
    }
    counted += votes.value();
  }
  return counted;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: embedded_voter CATALOG [partitions=4] [votes=200000]\n");
    return 2;
  }
  const int partitions = argc > 2 ? std::atoi(argv[2]) : 4;
  const int64_t vote_count = argc > 3 ? std::atoll(argv[3]) : 200000;

  partita::Result<partita::CatalogFile> catalog = partita::CatalogFile::Read(argv[1]);
  if (!catalog.ok()) return Fail(catalog.status());
  partita::Result<partita::PartitionMap> map = partita::PartitionMap::Uniform(partitions);
  if (!map.ok()) return Fail(map.status());
  partita::Result<std::unique_ptr<partita::PartitionRunner>> runner =
      partita::PartitionRunner::Start(catalog->catalog_bytes(), partitions);
  if (!runner.ok()) return Fail(runner.status());
  std::printf("embedded_voter: Partita %s, %d partitions, %" PRId64 " votes, catalog %s\n", partita::EngineVersion(),
              partitions, vote_count, argv[1]);

  partita::Result<std::vector<std::vector<VoteCall>>> routed = RouteVotes(*catalog, *map, vote_count);
  if (!routed.ok()) return Fail(routed.status());
  const std::vector<Tally> tallies = RunVotes(*runner.value(), *catalog, *routed);

  int64_t outcomes[kOutcomes] = {0, 0, 0};
  int64_t accepted_for[kContestants + 1] = {};
  bool ok = true;
  for (int p = 0; p < partitions; ++p) {
    const Tally& t = tallies[static_cast<size_t>(p)];
    if (!t.error.empty()) {
      std::fprintf(stderr, "embedded_voter: partition %d: %s\n", p, t.error.c_str());
      ok = false;
    }
    std::printf("partition %d: %zu votes routed, %" PRId64 " accepted\n", p, (*routed)[static_cast<size_t>(p)].size(),
                t.outcomes[kAccepted]);
    for (int o = 0; o < kOutcomes; ++o) outcomes[o] += t.outcomes[o];
    for (int c = 1; c <= kContestants; ++c) accepted_for[c] += t.accepted_for[c];
  }
  partita::Result<int64_t> counted = CheckStandings(*runner.value(), *catalog, accepted_for, &ok);
  if (!counted.ok()) return Fail(counted.status());
  std::printf("totals: requested=%" PRId64 " accepted=%" PRId64 " invalid_contestant=%" PRId64 " over_limit=%" PRId64
              " counted=%" PRId64 "\n",
              vote_count, outcomes[kAccepted], outcomes[kInvalidContestant], outcomes[kOverLimit], counted.value());
  // The views hold exactly the accepted votes, and every vote has an outcome.
  const int64_t rejected = outcomes[kInvalidContestant] + outcomes[kOverLimit];
  ok = ok && counted.value() == outcomes[kAccepted] && outcomes[kAccepted] + rejected == vote_count;
  std::printf("check: %s\n", ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
