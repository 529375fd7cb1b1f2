// SqliteVoter: the Voter workload's Vote transaction on an in-memory SQLite
// database — the single-threaded embedded baseline Partita's engine is
// measured against (BM_VoteTxn_SQLite).
//
// SQLite has no materialized views, so the two Voter views are summary tables
// kept by UPSERT statements inside the same transaction as the insert:
//   INSERT INTO v_... VALUES (..., 1) ON CONFLICT (...) DO UPDATE SET num_votes = num_votes + 1
// Every statement is prepared once, in Open(); a Vote is BEGIN, three
// lookups, then either COMMIT or three writes and COMMIT.
//
// Configuration: ":memory:" database, no mutexes (SQLITE_OPEN_NOMUTEX),
// synchronous=OFF, and journal_mode=MEMORY (SqliteJournal::kMemory, the fair
// baseline: Partita keeps an undo log for every write, and SQLite without a
// journal cannot roll back) or OFF (kOff: SQLite's upper bound, ~30% faster
// on this workload, unsafe if a transaction fails).
//
// Ownership: owns the connection and its statements. Thread model: one
// thread at a time.
#ifndef PARTITA_BENCH_ENGINE_SQLITE_VOTER_H_
#define PARTITA_BENCH_ENGINE_SQLITE_VOTER_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "voter_catalog.h"

struct sqlite3;
struct sqlite3_stmt;

namespace partita::bench {

// Whether SQLite keeps a rollback journal (in memory) or none.
enum class SqliteJournal { kMemory, kOff };

class SqliteVoter {
 public:
  // Creates the schema and loads contestants 1..contestant_count and every
  // UsAreaCodes() entry. Returns nullptr and sets `*error` on failure.
  static std::unique_ptr<SqliteVoter> Open(int contestant_count, SqliteJournal journal, std::string* error);

  ~SqliteVoter();
  SqliteVoter(const SqliteVoter&) = delete;
  SqliteVoter& operator=(const SqliteVoter&) = delete;

  // Runs one Vote transaction. Returns its code, or nullopt after a SQLite
  // error (the transaction is rolled back; error() says why).
  std::optional<VoteCode> Vote(int64_t phone_number, int32_t contestant_number, int64_t max_votes);

  // Returns the result of `sql`, a query of one integer (e.g. a COUNT), or
  // -1 and sets error() on failure. For checks outside timed loops.
  int64_t QueryInt(std::string_view sql);

  const std::string& error() const { return error_; }

 private:
  SqliteVoter() = default;
  bool Init(int contestant_count, SqliteJournal journal);
  bool Exec(std::string_view sql);
  bool Prepare(std::string_view sql, sqlite3_stmt** stmt);
  // Steps `stmt` once and resets it unless it returned a row; returns the
  // sqlite3_step code, recording an error for anything but ROW and DONE.
  int Step(sqlite3_stmt* stmt);
  std::optional<VoteCode> Fail(sqlite3_stmt* stmt);

  sqlite3* db_ = nullptr;
  sqlite3_stmt* begin_ = nullptr;
  sqlite3_stmt* commit_ = nullptr;
  sqlite3_stmt* rollback_ = nullptr;
  sqlite3_stmt* check_contestant_ = nullptr;
  sqlite3_stmt* check_voter_ = nullptr;
  sqlite3_stmt* check_state_ = nullptr;
  sqlite3_stmt* insert_vote_ = nullptr;
  sqlite3_stmt* count_by_phone_ = nullptr;
  sqlite3_stmt* count_by_contestant_state_ = nullptr;
  std::string error_;
};

}  // namespace partita::bench

#endif  // PARTITA_BENCH_ENGINE_SQLITE_VOTER_H_
