// EngineHandle: the native object behind a Java NativeEngine handle — the
// Engine, its reusable ResultSet, and the direct buffers Java registered
// (setBuffers). HandleTable: maps the `long` handles Java holds to
// EngineHandles, so a closed, stale or made-up handle is an error, never a
// dereference of a wild pointer.
//
// A handle packs a slot number (low 32 bits) and the slot's generation (high
// 32 bits, never 0): closing bumps the generation, so an old handle never
// reaches the slot's next engine.
//
// Thread model: an EngineHandle is confined to the thread that opened it
// (one Java site thread per engine, as Engine requires). HandleTable::Find
// checks that thread without locks; Add and Remove take the table's mutex.
#ifndef PARTITA_JNI_ENGINE_HANDLE_H_
#define PARTITA_JNI_ENGINE_HANDLE_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>

#include "partita/engine.h"

namespace partita::jni {

struct EngineHandle {
  // Set while the object is live; checked on every call.
  static constexpr uint64_t kMagic = 0x50415254'49544131ULL;  // "PARTITA1"

  uint64_t magic = kMagic;
  std::unique_ptr<Engine> engine;
  // Results of the last execute; reused, so steady workloads do not allocate.
  ResultSet results;
  // Whether `results` holds a result set that did not fit the response
  // buffer and waits for fetchPendingResult.
  bool pending = false;
  // The registered direct buffers (addresses and capacities in bytes).
  uint8_t* request = nullptr;
  int64_t request_capacity = 0;
  uint8_t* response = nullptr;
  int64_t response_capacity = 0;
  int32_t partition_id = 0;
};

class HandleTable {
 public:
  // Most engines live at once in one process.
  static constexpr uint32_t kMaxHandles = 4096;

  static HandleTable& Instance();

  // Registers `object`, owned by the calling thread. Returns its handle, or
  // an error when kMaxHandles engines are open.
  Result<int64_t> Add(std::unique_ptr<EngineHandle> object);
  // The live object of `handle`. BAD_REQUEST when the handle is not live
  // (closed, never opened) or the caller is not the thread that opened it.
  Result<EngineHandle*> Find(int64_t handle) const;
  // Unregisters and returns the object of `handle` (same checks as Find).
  Result<std::unique_ptr<EngineHandle>> Remove(int64_t handle);
  // Engine::RequestCancel on the engine of `handle`, from any thread. Returns
  // false when the handle is not live. Holds mu_ so that Remove cannot free
  // the engine meanwhile.
  bool Cancel(int64_t handle);

 private:
  struct Slot {
    std::atomic<int64_t> handle{0};  // 0 = free
    std::atomic<std::thread::id> owner{};
    std::unique_ptr<EngineHandle> object;
    uint32_t generation = 0;
  };

  std::mutex mu_;  // guards allocation and release of slots
  std::array<Slot, kMaxHandles> slots_;
};

}  // namespace partita::jni

#endif  // PARTITA_JNI_ENGINE_HANDLE_H_
