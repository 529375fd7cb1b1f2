#include "sqlite_voter.h"

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <cstring>

namespace partita::bench {
namespace {

constexpr std::string_view kSchema = R"sql(
PRAGMA synchronous = OFF;
PRAGMA temp_store = MEMORY;
CREATE TABLE contestants (
  contestant_number INTEGER NOT NULL PRIMARY KEY,
  contestant_name VARCHAR(50) NOT NULL);
CREATE TABLE area_code_state (
  area_code SMALLINT NOT NULL PRIMARY KEY,
  state VARCHAR(2) NOT NULL) WITHOUT ROWID;
CREATE TABLE votes (
  phone_number BIGINT NOT NULL,
  state VARCHAR(2) NOT NULL,
  contestant_number INTEGER NOT NULL);
CREATE TABLE v_votes_by_phone_number (
  phone_number INTEGER NOT NULL PRIMARY KEY,
  num_votes INTEGER NOT NULL);
CREATE TABLE v_votes_by_contestant_number_state (
  contestant_number INTEGER NOT NULL,
  state VARCHAR(2) NOT NULL,
  num_votes INTEGER NOT NULL,
  PRIMARY KEY (contestant_number, state)) WITHOUT ROWID;
)sql";

constexpr size_t kStateBytes = 2;

}  // namespace

std::unique_ptr<SqliteVoter> SqliteVoter::Open(int contestant_count, SqliteJournal journal, std::string* error) {
  std::unique_ptr<SqliteVoter> voter(new SqliteVoter());
  if (!voter->Init(contestant_count, journal)) {
    *error = voter->error_;
    return nullptr;
  }
  return voter;
}

SqliteVoter::~SqliteVoter() {
  for (sqlite3_stmt* stmt : {begin_, commit_, rollback_, check_contestant_, check_voter_, check_state_,
                             insert_vote_, count_by_phone_, count_by_contestant_state_}) {
    sqlite3_finalize(stmt);  // accepts nullptr
  }
  sqlite3_close(db_);
}

bool SqliteVoter::Init(int contestant_count, SqliteJournal journal) {
  const int rc =
      sqlite3_open_v2(":memory:", &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    error_ = std::string("sqlite3_open_v2: ") + sqlite3_errstr(rc);
    return false;
  }
  if (!Exec(journal == SqliteJournal::kMemory ? "PRAGMA journal_mode = MEMORY" : "PRAGMA journal_mode = OFF") ||
      !Exec(kSchema)) {
    return false;
  }

  // Initialize: reference data in one transaction.
  sqlite3_stmt* insert_contestant = nullptr;
  sqlite3_stmt* insert_area_code = nullptr;
  bool ok = Exec("BEGIN") &&
            Prepare("INSERT INTO contestants (contestant_number, contestant_name) VALUES (?, ?)",
                    &insert_contestant) &&
            Prepare("INSERT INTO area_code_state (area_code, state) VALUES (?, ?)", &insert_area_code);
  for (int c = 1; ok && c <= contestant_count; ++c) {
    const std::string_view name = ContestantName(c);
    sqlite3_bind_int(insert_contestant, 1, c);
    sqlite3_bind_text(insert_contestant, 2, name.data(), static_cast<int>(name.size()), SQLITE_STATIC);
    ok = Step(insert_contestant) == SQLITE_DONE;
  }
  for (const AreaCodeState& entry : UsAreaCodes()) {
    if (!ok) break;
    sqlite3_bind_int(insert_area_code, 1, entry.area_code);
    sqlite3_bind_text(insert_area_code, 2, entry.state.data(), static_cast<int>(entry.state.size()),
                      SQLITE_STATIC);
    ok = Step(insert_area_code) == SQLITE_DONE;
  }
  sqlite3_finalize(insert_contestant);
  sqlite3_finalize(insert_area_code);
  if (!ok || !Exec("COMMIT")) return false;

  return Prepare("BEGIN", &begin_) && Prepare("COMMIT", &commit_) && Prepare("ROLLBACK", &rollback_) &&
         Prepare("SELECT contestant_number FROM contestants WHERE contestant_number = ?", &check_contestant_) &&
         Prepare("SELECT num_votes FROM v_votes_by_phone_number WHERE phone_number = ?", &check_voter_) &&
         Prepare("SELECT state FROM area_code_state WHERE area_code = ?", &check_state_) &&
         Prepare("INSERT INTO votes (phone_number, state, contestant_number) VALUES (?, ?, ?)", &insert_vote_) &&
         Prepare("INSERT INTO v_votes_by_phone_number (phone_number, num_votes) VALUES (?, 1) "
                 "ON CONFLICT (phone_number) DO UPDATE SET num_votes = num_votes + 1",
                 &count_by_phone_) &&
         Prepare("INSERT INTO v_votes_by_contestant_number_state (contestant_number, state, num_votes) "
                 "VALUES (?, ?, 1) "
                 "ON CONFLICT (contestant_number, state) DO UPDATE SET num_votes = num_votes + 1",
                 &count_by_contestant_state_);
}

bool SqliteVoter::Exec(std::string_view sql) {
  char* message = nullptr;
  const std::string text(sql);
  if (sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &message) == SQLITE_OK) return true;
  error_ = std::string("sqlite3_exec: ") + (message != nullptr ? message : "unknown error");
  sqlite3_free(message);
  return false;
}

bool SqliteVoter::Prepare(std::string_view sql, sqlite3_stmt** stmt) {
  if (sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, stmt,
                         nullptr) == SQLITE_OK) {
    return true;
  }
  error_ = std::string("prepare '") + std::string(sql) + "': " + sqlite3_errmsg(db_);
  return false;
}

int SqliteVoter::Step(sqlite3_stmt* stmt) {
  const int rc = sqlite3_step(stmt);
  if (rc != SQLITE_ROW) sqlite3_reset(stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) error_ = std::string("step: ") + sqlite3_errmsg(db_);
  return rc;
}

std::optional<VoteCode> SqliteVoter::Fail(sqlite3_stmt* stmt) {
  sqlite3_reset(stmt);
  if (sqlite3_get_autocommit(db_) == 0) {
    sqlite3_step(rollback_);
    sqlite3_reset(rollback_);
  }
  return std::nullopt;
}

std::optional<VoteCode> SqliteVoter::Vote(int64_t phone_number, int32_t contestant_number, int64_t max_votes) {
  if (Step(begin_) != SQLITE_DONE) return Fail(begin_);

  sqlite3_bind_int(check_contestant_, 1, contestant_number);
  int rc = Step(check_contestant_);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) return Fail(check_contestant_);
  sqlite3_reset(check_contestant_);
  if (rc == SQLITE_DONE) {
    if (Step(commit_) != SQLITE_DONE) return Fail(commit_);
    return VoteCode::kInvalidContestant;
  }

  sqlite3_bind_int64(check_voter_, 1, phone_number);
  rc = Step(check_voter_);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) return Fail(check_voter_);
  const int64_t votes = rc == SQLITE_ROW ? sqlite3_column_int64(check_voter_, 0) : 0;
  sqlite3_reset(check_voter_);
  if (votes >= max_votes) {
    if (Step(commit_) != SQLITE_DONE) return Fail(commit_);
    return VoteCode::kOverVoteLimit;
  }

  sqlite3_bind_int(check_state_, 1, static_cast<int>(phone_number / kPhoneAreaCodeFactor));
  rc = Step(check_state_);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) return Fail(check_state_);
  std::array<char, kStateBytes> state_bytes;
  std::string_view state = kUnknownState;
  if (rc == SQLITE_ROW) {
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(check_state_, 0));
    const size_t n = std::min(static_cast<size_t>(sqlite3_column_bytes(check_state_, 0)), state_bytes.size());
    std::memcpy(state_bytes.data(), text, n);
    state = std::string_view(state_bytes.data(), n);
  }
  sqlite3_reset(check_state_);

  sqlite3_bind_int64(insert_vote_, 1, phone_number);
  sqlite3_bind_text(insert_vote_, 2, state.data(), static_cast<int>(state.size()), SQLITE_STATIC);
  sqlite3_bind_int(insert_vote_, 3, contestant_number);
  if (Step(insert_vote_) != SQLITE_DONE) return Fail(insert_vote_);

  sqlite3_bind_int64(count_by_phone_, 1, phone_number);
  if (Step(count_by_phone_) != SQLITE_DONE) return Fail(count_by_phone_);

  sqlite3_bind_int(count_by_contestant_state_, 1, contestant_number);
  sqlite3_bind_text(count_by_contestant_state_, 2, state.data(), static_cast<int>(state.size()), SQLITE_STATIC);
  if (Step(count_by_contestant_state_) != SQLITE_DONE) return Fail(count_by_contestant_state_);

  if (Step(commit_) != SQLITE_DONE) return Fail(commit_);
  return VoteCode::kAccepted;
}

int64_t SqliteVoter::QueryInt(std::string_view sql) {
  sqlite3_stmt* stmt = nullptr;
  if (!Prepare(sql, &stmt)) return -1;
  int64_t value = -1;
  if (Step(stmt) == SQLITE_ROW) value = sqlite3_column_int64(stmt, 0);
  sqlite3_finalize(stmt);
  return value;
}

}  // namespace partita::bench
