// HandlerMemory: storage that Asio reuses for the operations and
// completion handlers of one chain of asynchronous work (a connection's
// reads, or its writes), so each read or write does not allocate.
//
// Asio allocates every operation it starts, and every handler it hands to
// the strand, through the handler's associated allocator (by default, a
// small per-thread cache that a connection's reads, writes and posts
// overflow). A chain of work holds a few blocks at a time (its operation,
// the handler queued on the strand, the strand's own invoker), and Asio
// frees each before the upcall that may start the next, so a few fixed
// slots serve the chain; anything larger or beyond them falls back to
// operator new.
//
//   socket.async_read_some(buffers, WithMemory(&memory, [](error_code, size_t) { ... }));
//
// Ownership: HandlerMemory must outlive every operation using it (a
// connection's session holds its own). Thread model: a slot is taken and
// given back by whichever thread runs the operation; the flags are atomic.
#ifndef PARTITA_CLIENT_SRC_HANDLER_MEMORY_H_
#define PARTITA_CLIENT_SRC_HANDLER_MEMORY_H_

#include <atomic>
#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

namespace partita::client {

class HandlerMemory final {
 public:
  static constexpr size_t kSlots = 6;
  static constexpr size_t kSlotBytes = 512;

  HandlerMemory() = default;
  HandlerMemory(const HandlerMemory&) = delete;
  HandlerMemory& operator=(const HandlerMemory&) = delete;

  void* Allocate(size_t size) {
    if (size <= kSlotBytes) {
      for (size_t i = 0; i < kSlots; ++i) {
        if (!in_use_[i].exchange(true, std::memory_order_acquire)) return slots_[i].bytes;
      }
    }
    return ::operator new(size);
  }

  void Deallocate(void* pointer) {
    for (size_t i = 0; i < kSlots; ++i) {
      if (pointer == slots_[i].bytes) {
        in_use_[i].store(false, std::memory_order_release);
        return;
      }
    }
    ::operator delete(pointer);
  }

 private:
  struct alignas(std::max_align_t) Slot {
    unsigned char bytes[kSlotBytes];
  };
  Slot slots_[kSlots];
  std::atomic<bool> in_use_[kSlots] = {};
};

// The standard allocator interface Asio asks for, over a HandlerMemory.
template <typename T>
class HandlerAllocator {
 public:
  using value_type = T;

  explicit HandlerAllocator(HandlerMemory* memory) : memory_(memory) {}
  template <typename U>
  HandlerAllocator(const HandlerAllocator<U>& other) noexcept : memory_(other.memory_) {}

  T* allocate(size_t n) { return static_cast<T*>(memory_->Allocate(sizeof(T) * n)); }
  void deallocate(T* p, size_t) { memory_->Deallocate(p); }

  bool operator==(const HandlerAllocator& other) const noexcept { return memory_ == other.memory_; }
  bool operator!=(const HandlerAllocator& other) const noexcept { return memory_ != other.memory_; }

 private:
  template <typename>
  friend class HandlerAllocator;
  HandlerMemory* memory_;
};

// A completion handler carrying its memory: Asio finds the allocator
// through allocator_type/get_allocator.
template <typename Handler>
class WithMemory {
 public:
  using allocator_type = HandlerAllocator<Handler>;

  WithMemory(HandlerMemory* memory, Handler handler) : memory_(memory), handler_(std::move(handler)) {}

  allocator_type get_allocator() const noexcept { return allocator_type(memory_); }

  template <typename... Args>
  void operator()(Args&&... args) {
    handler_(std::forward<Args>(args)...);
  }

 private:
  HandlerMemory* memory_;
  Handler handler_;
};

}  // namespace partita::client

#endif  // PARTITA_CLIENT_SRC_HANDLER_MEMORY_H_
