// EngineImpl's online snapshots: the stream of the engine's tables and the
// loading of a stream (engine.h, "Online snapshots").
#include "errors.pb.h"
#include "engine/engine_impl.h"

namespace partita {
namespace {

Status Refused(const std::string& what) { return Status(proto::ERROR_CODE_BAD_REQUEST, what); }

}  // namespace

Status EngineImpl::BeginSnapshot() {
  AssertOwner();
  if (in_transaction_) return Refused("BeginSnapshot: a transaction is open; the cut falls between transactions");
  if (snapshot_ != nullptr) return Refused("BeginSnapshot: a snapshot is already being taken");
  snapshot_ = std::make_unique<SnapshotStream>(catalog_->tables());
  return Status::OK();
}

Result<bool> EngineImpl::NextSnapshotChunk(size_t max_bytes, std::string* chunk) {
  AssertOwner();
  if (snapshot_ == nullptr) return Refused("NextSnapshotChunk: no snapshot is being taken");
  if (in_transaction_) return Refused("NextSnapshotChunk: a transaction is open; chunks are made between transactions");
  if (snapshot_->Next(max_bytes, chunk)) return true;
  snapshot_.reset();
  return false;
}

void EngineImpl::AbortSnapshot() {
  AssertOwner();
  snapshot_.reset();
}

int64_t EngineImpl::snapshot_kept_bytes() const {
  return snapshot_ == nullptr ? 0 : static_cast<int64_t>(snapshot_->preserved_bytes());
}

Status EngineImpl::LoadSnapshotChunk(std::span<const uint8_t> chunk) {
  AssertOwner();
  if (in_transaction_) return Refused("LoadSnapshotChunk: a transaction is open");
  if (snapshot_ != nullptr) return Refused("LoadSnapshotChunk: a snapshot is being taken");
  if (loader_ == nullptr) loader_ = std::make_unique<SnapshotLoader>();
  return loader_->Load({reinterpret_cast<const char*>(chunk.data()), chunk.size()}, catalog_.get(), &view_arena_);
}

}  // namespace partita
