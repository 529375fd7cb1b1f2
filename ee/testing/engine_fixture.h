// EngineFixture: a gtest fixture that opens an Engine over a CatalogBuilder
// catalog and runs statements by name. Test-only.
#ifndef PARTITA_TESTING_ENGINE_FIXTURE_H_
#define PARTITA_TESTING_ENGINE_FIXTURE_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <sstream>
#include <memory>
#include <string>
#include <vector>

#include "partita/engine.h"
#include "testing/catalog_builder.h"

namespace partita::testing {

// `text`'s lines in sorted order: compares results whose row order is not
// specified.
inline std::string SortedLines(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

class EngineFixture : public ::testing::Test {
 protected:
  // Opens the engine; fails the test on error.
  void Open() {
    Result<std::unique_ptr<Engine>> e = Engine::Open(catalog_.catalog(), EngineOptions{});
    ASSERT_TRUE(e.ok()) << e.status().ToString();
    engine_ = std::move(e).value();
  }

  // Opens the engine with `options`; fails the test on error.
  void OpenWith(const EngineOptions& options) {
    Result<std::unique_ptr<Engine>> e = Engine::Open(catalog_.catalog(), options);
    ASSERT_TRUE(e.ok()) << e.status().ToString();
    engine_ = std::move(e).value();
  }

  StatementCall Call(const std::string& name, const std::vector<Value>& params) {
    Result<StatementId> id = engine_->FindStatement(name);
    EXPECT_TRUE(id.ok()) << name;
    held_.push_back(params);
    return StatementCall{id.ok() ? id.value() : -1, held_.back()};
  }

  // Runs one statement as a whole transaction.
  Status Run(const std::string& name, const std::vector<Value>& params = {}) {
    const StatementCall call = Call(name, params);
    return engine_->ExecuteBatch({&call, 1}, BatchOptions{}, &results_);
  }

  // Runs a batch; `final_batch` commits.
  Status RunBatch(const std::vector<StatementCall>& calls, bool final_batch = true) {
    BatchOptions options;
    options.final_batch = final_batch;
    return engine_->ExecuteBatch(calls, options, &results_);
  }

  // Rows of the first result table as text ("1|'a'\n2|'b'\n"); "ERROR: ..." on failure.
  std::string Query(const std::string& name, const std::vector<Value>& params = {}) {
    Status s = Run(name, params);
    if (!s.ok()) return "ERROR: " + s.ToString();
    return Table(0).ToString();
  }

  // Like Query, inside the open transaction (does not commit).
  std::string QueryInTransaction(const std::string& name, const std::vector<Value>& params = {}) {
    Status s = RunBatch({Call(name, params)}, false);
    if (!s.ok()) return "ERROR: " + s.ToString();
    return Table(0).ToString();
  }

  ResultTableReader Table(int i) {
    Result<ResultTableReader> r = ResultTableReader::Parse(results_.table(i));
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return std::move(r).value();
  }

  int64_t RowCount(const std::string& table) {
    for (const TableStats& s : engine_->GetTableStats()) {
      if (s.name == table) return s.row_count;
    }
    ADD_FAILURE() << "no table " << table;
    return -1;
  }

  CatalogBuilder catalog_;
  std::unique_ptr<Engine> engine_;
  ResultSet results_;
  std::deque<std::vector<Value>> held_;
  std::deque<std::string> held_strings_;  // bytes of string parameters
};

}  // namespace partita::testing

#endif  // PARTITA_TESTING_ENGINE_FIXTURE_H_
