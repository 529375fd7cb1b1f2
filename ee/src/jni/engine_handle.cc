#include "jni/engine_handle.h"

#include <string>

#include "errors.pb.h"

namespace partita::jni {
namespace {

constexpr int kSlotBits = 32;

Status BadHandle(int64_t handle, const std::string& why) {
  return Status(proto::ERROR_CODE_BAD_REQUEST, "engine handle " + std::to_string(handle) + " " + why);
}

}  // namespace

HandleTable& HandleTable::Instance() {
  static HandleTable* table = new HandleTable();  // never destroyed: JNI calls may run during exit
  return *table;
}

Result<int64_t> HandleTable::Add(std::unique_ptr<EngineHandle> object) {
  std::lock_guard<std::mutex> lock(mu_);
  for (uint32_t i = 0; i < kMaxHandles; ++i) {
    Slot& slot = slots_[i];
    if (slot.handle.load(std::memory_order_relaxed) != 0) continue;
    if (++slot.generation == 0) slot.generation = 1;
    const int64_t handle = static_cast<int64_t>((uint64_t{slot.generation} << kSlotBits) | i);
    slot.object = std::move(object);
    slot.owner.store(std::this_thread::get_id(), std::memory_order_relaxed);
    slot.handle.store(handle, std::memory_order_release);  // publishes object and owner
    return handle;
  }
  return Status(proto::ERROR_CODE_INTERNAL, "too many open engines (" + std::to_string(kMaxHandles) + ")");
}

Result<EngineHandle*> HandleTable::Find(int64_t handle) const {
  const uint64_t slot_index = static_cast<uint64_t>(handle) & 0xFFFFFFFFu;
  if (handle == 0 || slot_index >= kMaxHandles) return BadHandle(handle, "is not an engine (never opened)");
  const Slot& slot = slots_[slot_index];
  if (slot.handle.load(std::memory_order_acquire) != handle) return BadHandle(handle, "is closed or was never opened");
  if (slot.owner.load(std::memory_order_relaxed) != std::this_thread::get_id()) {
    return BadHandle(handle, "belongs to another thread: an engine is used only by the thread that opened it");
  }
  EngineHandle* object = slot.object.get();
  if (object == nullptr || object->magic != EngineHandle::kMagic) return BadHandle(handle, "is corrupt");
  return object;
}

bool HandleTable::Cancel(int64_t handle) {
  const uint64_t slot_index = static_cast<uint64_t>(handle) & 0xFFFFFFFFu;
  if (handle == 0 || slot_index >= kMaxHandles) return false;
  std::lock_guard<std::mutex> lock(mu_);
  Slot& slot = slots_[slot_index];
  if (slot.handle.load(std::memory_order_acquire) != handle || slot.object == nullptr) return false;
  slot.object->engine->RequestCancel();
  return true;
}

Result<std::unique_ptr<EngineHandle>> HandleTable::Remove(int64_t handle) {
  Result<EngineHandle*> found = Find(handle);
  if (!found.ok()) return found.status();
  std::lock_guard<std::mutex> lock(mu_);
  Slot& slot = slots_[static_cast<uint64_t>(handle) & 0xFFFFFFFFu];
  slot.handle.store(0, std::memory_order_release);
  slot.object->magic = 0;
  return std::move(slot.object);
}

}  // namespace partita::jni
