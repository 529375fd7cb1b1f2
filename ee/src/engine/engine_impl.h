// EngineImpl: the Engine of engine.h — a LoadedCatalog, the transaction's
// undo log, and the buffers reused by every batch.
// Thread model: partition-confined; the owning thread is asserted.
#ifndef PARTITA_ENGINE_ENGINE_IMPL_H_
#define PARTITA_ENGINE_ENGINE_IMPL_H_

#include <atomic>
#include <thread>

#include "catalog/loaded_catalog.h"
#include "engine/batch_request.h"
#include "engine/snapshot_loader.h"
#include "engine/snapshot_stream.h"
#include "exec/query_guard.h"
#include "exec/result_writer.h"
#include "partita/engine.h"

namespace partita {

class EngineImpl final : public Engine {
 public:
  EngineImpl(const EngineOptions& options) : options_(options), owner_(std::this_thread::get_id()) {}
  Status Load(const proto::Catalog& catalog);

  Result<StatementId> FindStatement(std::string_view name) const override;
  Status ExecuteBatch(std::span<const StatementCall> calls, const BatchOptions& options, ResultSet* results) override;
  Status ExecuteSerializedBatch(std::span<const uint8_t> request, ResultSet* results) override;
  Status UpdateCatalog(std::string_view catalog_bytes) override;
  Status UpdateCatalog(const proto::Catalog& catalog) override;
  void Commit() override;
  void Rollback() override;
  bool in_transaction() const override { return in_transaction_; }
  std::vector<TableStats> GetTableStats() const override;
  Status BeginSnapshot() override;
  Result<bool> NextSnapshotChunk(size_t max_bytes, std::string* chunk) override;
  void AbortSnapshot() override;
  bool snapshot_active() const override { return snapshot_ != nullptr; }
  int64_t snapshot_kept_bytes() const override;
  Status LoadSnapshotChunk(std::span<const uint8_t> chunk) override;
  void RequestCancel() override { cancel_.store(true, std::memory_order_relaxed); }

 private:
  // BatchOptions::prefetch_key: starts fetching `key`'s slots in the
  // catalog's partition-key hash indexes.
  void PrefetchPartitionKey(const Value& key) const;
  Status RunStatement(const StatementCall& call, int64_t txn_timestamp);
  Status RunAdHoc(const StatementCall& call, int64_t txn_timestamp);
  // Binds the parameters, then runs the statement's dedicated path if it has
  // one, else its executor tree; its result table is added to writer_.
  Status RunCompiled(CompiledStatement& stmt, std::span<const Value> parameters, int64_t txn_timestamp);
  // Runs the executor tree of `stmt` over the bound `params`.
  Status RunPlan(CompiledStatement& stmt, const Value* params, int64_t txn_timestamp);
  // Parses the batch's dependency tables into received_; BAD_REQUEST if one
  // is malformed.
  Status ReceiveDependencies(std::span<const DependencyTable> dependencies);
  // Copies the rows of catalog_'s tables into the matching tables of `next`
  // (UpdateCatalog); views of `next` fill in as their sources do.
  Status CopyData(LoadedCatalog* next);
  // Checks `args` against the statement's parameter types and sets *bound
  // to values of exactly those types: `args` itself when every value has
  // its type (no copy), else params_ with the others converted (exact
  // rules). BAD_PARAMETER names the parameter that does not convert.
  Status BindParameters(const CompiledStatement& stmt, std::span<const Value> args, const Value** bound);
  void AssertOwner() const;

  EngineOptions options_;
  std::thread::id owner_;
  Arena statement_arena_;
  // Statement executions so far (ExecContext::execution).
  uint64_t executions_ = 0;
  Arena view_arena_;
  std::unique_ptr<LoadedCatalog> catalog_;
  UndoLog undo_;  // after catalog_: rolled back before the tables die
  std::unique_ptr<SnapshotStream> snapshot_;  // the active snapshot; after catalog_ (holds its tables)
  std::unique_ptr<SnapshotLoader> loader_;    // the load under way, if any
  ResultWriter writer_;
  BatchRequest request_;
  std::vector<Value> params_;
  std::vector<ReceivedTable> received_;
  bool in_transaction_ = false;
  // Set by RequestCancel (any thread), cleared when a batch starts.
  std::atomic<bool> cancel_{false};
  QueryGuard guard_{&cancel_};
};

}  // namespace partita

#endif  // PARTITA_ENGINE_ENGINE_IMPL_H_
