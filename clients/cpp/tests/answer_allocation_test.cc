// The answer path allocates nothing once warm (issue: speed end to end,
// "the clients' hot path: no allocation per answer").
//
// This binary replaces the global operator new to count allocations made on
// threads that opted in. Two checks: parsing answers through a warm
// AnswerPool allocates nothing, and 10,000 calls answered by a fake server
// allocate (next to) nothing on the client's I/O thread, which reads, matches,
// parses and hands over every answer. The calling thread's own allocations
// (the parameters it builds) are not counted.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include "answer.h"
#include "fake_server.h"
#include "partita/client/client.h"
#include "table_bytes.h"

namespace {
std::atomic<bool> g_measuring{false};
std::atomic<uint64_t> g_allocations{0};
thread_local bool tl_counted = false;  // this thread's allocations count while measuring

void* Allocate(size_t size) {
  if (tl_counted && g_measuring.load(std::memory_order_relaxed)) g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
}  // namespace

void* operator new(size_t size) { return Allocate(size); }
void* operator new[](size_t size) { return Allocate(size); }
void* operator new(size_t size, const std::nothrow_t&) noexcept {
  try {
    return Allocate(size);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](size_t size, const std::nothrow_t& tag) noexcept { return operator new(size, tag); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }

namespace partita::client {
namespace {

using namespace std::chrono_literals;

TEST(AnswerAllocationTest, AWarmPoolParsesAnAnswerWithoutAllocating) {
  const std::string table = testing::LongTable(6175551234LL);
  const std::shared_ptr<AnswerPool> pool = AnswerPool::Create();
  std::vector<std::string> frame(2);  // what a parsed frame holds: the tables' bytes
  int64_t sum = 0;
  tl_counted = true;
  for (int i = 0; i < 1000; ++i) {
    if (i == 10) g_measuring = true;  // warm after a few rounds
    for (std::string& bytes : frame) bytes.assign(table);  // fits the capacity the pool swapped back
    detail::Answer* answer = pool->Take();
    ASSERT_TRUE(answer->Load(frame).ok());
    const ResultTables tables(answer);
    for (const ResultTable& t : tables) sum += t.GetInt64(0, 0);
  }
  g_measuring = false;
  tl_counted = false;
  EXPECT_EQ(sum, 2000 * 6175551234LL);
  EXPECT_EQ(g_allocations.exchange(0), 0u);
  EXPECT_EQ(pool->idle(), 1u);
}

TEST(AnswerAllocationTest, TheClientsIoThreadAllocatesNextToNothingPerAnswer) {
  testing::FakeServer server({}, [](const Invocation& call) {
    return testing::FakeServer::Success(call, call.parameters(0).integer());
  });
  ClientConfig config;
  config.client_name = "allocation-test";
  config.reconnect = false;
  Client client(config);
  ASSERT_TRUE(client.Connect(server.address()).ok());
  std::atomic<int> answered{0};
  std::atomic<int> wrong{0};
  auto run = [&](int calls) {
    const int target = answered.load() + calls;
    for (int i = 0; i < calls; ++i) {
      client.CallAsync("Vote", {static_cast<int64_t>(i), 1, 2}, [&, i](Result<Response> r) {
        tl_counted = true;  // the I/O thread that hands answers over
        if (!r.ok() || !r->ok() || r->results.size() != 1 || r->results[0].GetInt64(0, 0) != i) wrong.fetch_add(1);
        answered.fetch_add(1);
      });
    }
    const auto until = std::chrono::steady_clock::now() + 20s;
    while (answered.load() < target && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(1ms);
    return answered.load() >= target;
  };
  ASSERT_TRUE(run(10000));  // warm: the pool, the in-flight table, the buffers, at the same depth
  g_measuring = true;
  const bool done = run(10000);
  g_measuring = false;
  ASSERT_TRUE(done);
  EXPECT_EQ(wrong.load(), 0);
  const uint64_t allocations = g_allocations.exchange(0);
  std::printf("allocations on the client's I/O thread over 10,000 answers: %llu\n",
              static_cast<unsigned long long>(allocations));
  EXPECT_LT(allocations, 100u) << "more than one allocation per 100 answers";
}

}  // namespace
}  // namespace partita::client
