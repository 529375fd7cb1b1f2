// Engine: one partition of a Partita database. It holds the partition's
// tables, indexes and materialized views, and runs the catalog's compiled
// statements in transactions.
//
// Thread model: partition-confined. An Engine is used by exactly one thread
// at a time, the one that opened it (asserted in debug builds); it takes no
// locks. Run several partitions with PartitionRunner (partition_runner.h).
//
// Transactions: the first ExecuteBatch after a commit or rollback begins a
// transaction. A batch with `final_batch` set commits it when every statement
// succeeds. Any error in any statement rolls back the whole transaction —
// rows, indexes, views, string storage — and returns the error.
//
// Determinism: the same transactions on two engines give the same rows in the
// same order (equal keys in indexes are ordered by row id, never by memory
// address) and the same write hash (ResultSet::write_hash), a 64-bit hash of
// every row the transaction wrote, in order, that replicas compare
// (docs/engine.md "Determinism").
#ifndef PARTITA_ENGINE_H_
#define PARTITA_ENGINE_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "partita/result_table.h"
#include "partita/status.h"
#include "partita/value.h"

namespace partita {

namespace proto {
class Catalog;
class Statement;
}

struct EngineOptions {
  // This partition's id and the number of partitions (reported in stats).
  int32_t partition_id = 0;
  int32_t partition_count = 1;
  // Bound on one batch's serialized results; beyond it RESULT_TOO_LARGE.
  size_t max_result_bytes = 64 << 20;
  // Bound on one statement's intermediate results (hash tables of joins and
  // aggregates, sorts, DISTINCT, set operations); beyond it
  // QUERY_MEMORY_LIMIT. 0 = unbounded.
  int64_t query_memory_bytes = int64_t{1} << 30;
};

// Position of a statement in the catalog; stable until UpdateCatalog.
using StatementId = int32_t;

// The StatementId of an ad-hoc call: its plan comes with the call.
constexpr StatementId kAdHocStatement = -1;

// One statement of a batch and its parameters (bytes referenced by string
// Values must stay valid during ExecuteBatch).
struct StatementCall {
  StatementId statement = 0;
  std::span<const Value> parameters;
  // For statement == kAdHocStatement: the statement to compile, run once and
  // discard (its plan, parameter_types and read_only; the name, if any,
  // prefixes errors). Not owned; valid during ExecuteBatch.
  const proto::Statement* ad_hoc = nullptr;
};

// An input table of RECEIVE plan nodes (proto/plan.proto ReceiveNode): one
// table in the result-table format (starting with its u32 table_size), e.g.
// a partition's result passed through unchanged by a coordinator. The bytes
// are not owned and must stay valid during ExecuteBatch; values read from
// them point into them.
struct DependencyTable {
  int32_t dependency_id = 0;
  std::span<const uint8_t> table;
};

struct BatchOptions {
  // Commit the transaction after this batch succeeds.
  bool final_batch = true;
  // The transaction's timestamp, µs since epoch; CURRENT_TIMESTAMP returns it.
  int64_t txn_timestamp = 0;
  // Input tables of RECEIVE nodes, for every statement of the batch.
  std::span<const DependencyTable> dependencies;
  // Time the batch may run, in ms from its start; past it the batch fails
  // with TRANSACTION_TIMEOUT and the transaction rolls back. 0 = unbounded.
  int64_t time_limit_ms = 0;
  // The partitioning value of the transaction expected to run next (NULL =
  // none): as the batch starts, the engine has the CPU fetch the slots it
  // would probe for that value in every hash index keyed on a partitioning
  // column alone (a partitioned table's, or a view's grouping on its
  // source's), so that the next transaction's lookups find them in cache
  // instead of waiting on memory. A hint only: it changes no result, and a
  // wrong or stale value costs a wasted fetch. Not owned; a string points
  // into caller memory valid during ExecuteBatch.
  Value prefetch_key = Value();
};

// Per-table figures for statistics.
struct TableStats {
  std::string name;
  int64_t row_count = 0;
  // Bytes of live tuples and their out-of-line strings.
  int64_t bytes_used = 0;
  // Bytes reserved from the system for tuple blocks and strings.
  int64_t bytes_allocated = 0;
  // Bytes held by the table's indexes (approximate).
  int64_t index_bytes = 0;
};

class Engine {
 public:
  // Builds an engine from serialized catalog bytes (proto/catalog.proto), such
  // as CatalogFile::catalog_bytes() of a file `partita compile` wrote.
  // Returns BAD_CATALOG naming the table, column, index, view or statement
  // that is malformed; nothing is half-built.
  static Result<std::unique_ptr<Engine>> Open(std::string_view catalog_bytes, const EngineOptions& options);
  static Result<std::unique_ptr<Engine>> Open(const proto::Catalog& catalog, const EngineOptions& options);

  virtual ~Engine() = default;
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Returns the id of the statement called `name`, or NOT_FOUND.
  virtual Result<StatementId> FindStatement(std::string_view name) const = 0;

  // Runs `calls` in order in the current transaction and replaces the
  // contents of `*results` with one result table per call, and its
  // write_hash() with the transaction's write hash so far (cumulative over
  // its batches; 0 until it writes; a new transaction starts from 0). On
  // error the transaction is rolled back and `*results` is empty (hash 0).
  virtual Status ExecuteBatch(std::span<const StatementCall> calls, const BatchOptions& options,
                              ResultSet* results) = 0;

  // The same from a serialized request (docs/engine-formats.md): used by the
  // JNI bridge and anything that holds parameters as bytes.
  virtual Status ExecuteSerializedBatch(std::span<const uint8_t> request, ResultSet* results) = 0;

  // Replaces the catalog of the live engine, keeping the data:
  //   * tables are matched by name; new ones are created, absent ones dropped;
  //   * a table whose columns (names, types, lengths, nullability) are
  //     unchanged keeps its rows, with the new catalog's indexes built over
  //     them (a unique violation fails the update);
  //   * a table whose columns changed is recreated empty if it was empty, and
  //     is BAD_CATALOG naming it otherwise;
  //   * materialized views are recomputed from their source rows;
  //   * the statements are replaced wholesale (ids = positions in the new
  //     catalog).
  // Atomic: on any error the engine is exactly as before. The data is copied
  // into the new tables, so peak memory is twice the data's.
  // REQUIRES: no open transaction (else BAD_REQUEST).
  virtual Status UpdateCatalog(std::string_view catalog_bytes) = 0;
  virtual Status UpdateCatalog(const proto::Catalog& catalog) = 0;

  // Commits or rolls back the open transaction; no-ops without one.
  virtual void Commit() = 0;
  virtual void Rollback() = 0;
  virtual bool in_transaction() const = 0;

  virtual std::vector<TableStats> GetTableStats() const = 0;

  // Online snapshots (docs/engine.md, "Snapshots"). BeginSnapshot fixes a
  // cut of every table now; NextSnapshotChunk then serializes the rows as of
  // that cut, one chunk of about `max_bytes` per call
  // (docs/engine-formats.md, "Snapshot stream"), while transactions run
  // between the calls: a row they change before the stream reaches it has
  // its cut image kept (extra memory: those rows only), rows they insert are
  // not in the stream. Materialized views are streamed like tables (their
  // rows at the cut are the views of the cut's rows).
  //
  // BeginSnapshot: BAD_REQUEST when a transaction is open or a snapshot is
  // already active.
  virtual Status BeginSnapshot() = 0;
  // Replaces `*chunk` with the next chunk. Returns true iff one was written;
  // false when the stream is over, which ends the snapshot. BAD_REQUEST
  // without an active snapshot or while a transaction is open.
  virtual Result<bool> NextSnapshotChunk(size_t max_bytes, std::string* chunk) = 0;
  // Abandons the active snapshot and frees its kept images; no-op without one.
  virtual void AbortSnapshot() = 0;
  virtual bool snapshot_active() const = 0;
  // Bytes of cut images the active snapshot keeps now (0 without one).
  virtual int64_t snapshot_kept_bytes() const = 0;
  // Loads one chunk of a stream taken with the same catalog into this
  // engine's tables (each table's chunks in order, the first into an empty
  // table; a table whose stream ended takes a new one once it is empty
  // again). Rows are copied as they are, views' rows included, with indexes
  // built and no undo log or view maintenance; a stream written before views
  // were streamed (chunk format 1) has no view chunks, and its rows go
  // through the insert path so views are rebuilt. The chunk loads whole or
  // not at all; errors are BAD_REQUEST naming the table and the fault, or
  // the failing insert's code. BAD_REQUEST while a transaction is open or a
  // snapshot is active.
  virtual Status LoadSnapshotChunk(std::span<const uint8_t> chunk) = 0;

  // Asks the batch running now to stop: it fails with CANCELLED within a few
  // thousand rows and the transaction rolls back. A request made while no
  // batch runs is forgotten when the next batch starts.
  // Thread-safe: the one Engine call any thread may make at any time.
  virtual void RequestCancel() = 0;

 protected:
  Engine() = default;
};

}  // namespace partita

#endif  // PARTITA_ENGINE_H_
