// The Client against in-test fake servers on 127.0.0.1: login, calls,
// ordering, concurrency, timeouts, lost connections, reconnection,
// backpressure and routing.
#include "partita/client/client.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <thread>

#include "fake_server.h"
#include "partita/client/partition_hash.h"
#include "table_bytes.h"

namespace partita::client {
namespace {

using namespace std::chrono_literals;
using testing::FakeServer;
constexpr auto kWait = 5s;  // upper bound of every wait in these tests

ClientConfig TestConfig() {
  ClientConfig c;
  c.client_name = "client-test";
  c.connect_timeout = 2s;
  c.call_timeout = 30s;
  c.reconnect = false;
  return c;
}

// Answers every call at once with its first integer parameter.
std::optional<InvocationResponse> Echo(const Invocation& call) {
  return FakeServer::Success(call, call.parameters_size() > 0 ? call.parameters(0).integer() : 0);
}

std::optional<InvocationResponse> Hold(const Invocation&) { return std::nullopt; }

int64_t FirstLong(const Result<Response>& r) {
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  if (!r.ok() || !r->ok() || r->results.empty()) return -1;
  return r->results[0].GetInt64(0, 0);
}

Result<Response> Await(std::future<Result<Response>>& f) {
  if (f.wait_for(kWait) != std::future_status::ready) return Status(Status::Code::kTimeout, "test waited too long");
  return f.get();
}

TEST(ClientTest, LogsInWithItsNameAndListsTheServer) {
  FakeServer server({}, Echo);
  Client client(TestConfig());
  ASSERT_TRUE(client.Connect(server.address()).ok());
  EXPECT_EQ(client.ConnectedServers(), std::vector<std::string>{server.address()});
  EXPECT_EQ(server.client_names(), std::vector<std::string>{"client-test"});
  EXPECT_TRUE(client.Connect(server.address()).ok());  // again: nothing happens
  EXPECT_EQ(server.connections_accepted(), 1);
}

TEST(ClientTest, RoundTripReturnsTheAnswerAndCountsIt) {
  FakeServer server({}, Echo);
  Client client(TestConfig());
  ASSERT_TRUE(client.Connect(server.address()).ok());
  const Result<Response> r = client.Call("Vote", {6175551234LL, 3, 2});
  EXPECT_EQ(FirstLong(r), 6175551234LL);
  EXPECT_EQ(r->server_nanos, 1234u);
  const std::vector<Invocation> got = server.received();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].procedure(), "Vote");
  EXPECT_EQ(got[0].parameters(1).integer(), 3);
  const ClientStatistics stats = client.Statistics();
  EXPECT_EQ(stats.calls, 1u);
  EXPECT_EQ(stats.successes, 1u);
  EXPECT_EQ(stats.latency_count, 1u);
  EXPECT_GT(stats.max_us, 0u);
}

TEST(ClientTest, ServerFailureIsAResponseNotAClientError) {
  FakeServer server({}, [](const Invocation& call) {
    InvocationResponse r;
    r.set_client_handle(call.client_handle());
    r.set_status(CALL_STATUS_REJECTED);
    r.set_error_code(22);  // ERROR_CODE_PROCEDURE_NOT_FOUND in proto/errors.proto
    r.set_error_name("PROCEDURE_NOT_FOUND");
    r.set_message("no procedure Nope");
    return std::optional<InvocationResponse>(r);
  });
  Client client(TestConfig());
  ASSERT_TRUE(client.Connect(server.address()).ok());
  const Result<Response> r = client.Call("Nope", {});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->status, ResponseStatus::kRejected);
  EXPECT_EQ(r->error_code, 22u);
  EXPECT_EQ(r->error_name, "PROCEDURE_NOT_FOUND");
  EXPECT_EQ(r->ToString(), "REJECTED PROCEDURE_NOT_FOUND: no procedure Nope");
  EXPECT_EQ(client.Statistics().rejected, 1u);
}

TEST(ClientTest, ResponseCarriesTheRoundTripTheClientMeasured) {
  FakeServer server({}, Hold);
  Client client(TestConfig());
  ASSERT_TRUE(client.Connect(server.address()).ok());
  const auto before_call = std::chrono::steady_clock::now();
  std::future<Result<Response>> f = client.CallFuture("P", {int64_t{7}});
  ASSERT_TRUE(server.WaitForHeld(1, kWait));
  const auto held_from = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - held_from < 2ms) {
  }
  const auto held_for = std::chrono::steady_clock::now() - held_from;
  server.AnswerHeld([](const Invocation& c) { return FakeServer::Success(c, c.parameters(0).integer()); }, false);
  const Result<Response> r = Await(f);
  const auto whole = std::chrono::steady_clock::now() - before_call;
  EXPECT_EQ(FirstLong(r), 7);
  // The call was in flight while the server held it, and ended before the test saw its answer.
  EXPECT_GE(r->round_trip_nanos, std::chrono::duration_cast<std::chrono::nanoseconds>(held_for).count());
  EXPECT_LE(r->round_trip_nanos, std::chrono::duration_cast<std::chrono::nanoseconds>(whole).count());
}

TEST(ClientTest, MatchesAnswersArrivingInAnyOrder) {
  FakeServer server({}, Hold);
  Client client(TestConfig());
  ASSERT_TRUE(client.Connect(server.address()).ok());
  std::vector<std::future<Result<Response>>> futures;
  for (int64_t i = 0; i < 5; ++i) futures.push_back(client.CallFuture("P", {i * 10}));
  ASSERT_TRUE(server.WaitForHeld(5, kWait));
  server.AnswerHeld([](const Invocation& c) { return FakeServer::Success(c, c.parameters(0).integer()); }, true);
  for (int64_t i = 0; i < 5; ++i) EXPECT_EQ(FirstLong(Await(futures[i])), i * 10);
}

TEST(ClientTest, CarriesManyConcurrentCallsFromManyThreads) {
  FakeServer server({}, Echo);
  ClientConfig config = TestConfig();
  config.io_threads = 2;
  config.max_in_flight_per_connection = 64;
  Client client(config);
  ASSERT_TRUE(client.Connect(server.address()).ok());
  constexpr int kThreads = 4, kCalls = 2000;
  std::atomic<int> right{0}, wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int64_t i = 0; i < kCalls; ++i) {
        const int64_t value = t * 1'000'000 + i;
        client.CallAsync("P", {value}, [&, value](Result<Response> r) {
          (r.ok() && r->ok() && r->results[0].GetInt64(0, 0) == value ? right : wrong).fetch_add(1);
        });
      }
    });
  }
  for (auto& t : threads) t.join();
  client.Drain();
  EXPECT_EQ(right.load(), kThreads * kCalls);
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(client.Statistics().successes, static_cast<uint64_t>(kThreads * kCalls));
}

TEST(ClientTest, TimesOutUnansweredCallsAndCountsTheLateAnswer) {
  FakeServer server({}, Hold);
  ClientConfig config = TestConfig();
  config.call_timeout = 100ms;
  Client client(config);
  ASSERT_TRUE(client.Connect(server.address()).ok());
  const auto start = std::chrono::steady_clock::now();
  auto f = client.CallFuture("Slow", {1});
  const Result<Response> r = Await(f);
  const auto elapsed = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kTimeout);
  EXPECT_NE(r.status().message().find("Slow"), std::string::npos);
  EXPECT_GE(elapsed, 100ms);
  EXPECT_LT(elapsed, 2s);
  server.AnswerHeld([](const Invocation& c) { return FakeServer::Success(c, 1); }, false);
  for (int i = 0; i < 200 && client.Statistics().late_responses == 0; ++i) std::this_thread::sleep_for(10ms);
  EXPECT_EQ(client.Statistics().late_responses, 1u);
  EXPECT_EQ(client.Statistics().timeouts, 1u);
}

TEST(ClientTest, FailsCallsInFlightAtOnceWhenTheConnectionIsLost) {
  FakeServer server({}, Hold);
  Client client(TestConfig());  // call timeout 30 s: only the loss can end these calls
  ASSERT_TRUE(client.Connect(server.address()).ok());
  std::vector<std::future<Result<Response>>> futures;
  for (int i = 0; i < 5; ++i) futures.push_back(client.CallFuture("P", {i}));
  ASSERT_TRUE(server.WaitForHeld(5, kWait));
  server.DropConnections();
  for (auto& f : futures) {
    const Result<Response> r = Await(f);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), Status::Code::kConnectionLost) << r.status().ToString();
  }
  for (int i = 0; i < 200 && !client.ConnectedServers().empty(); ++i) std::this_thread::sleep_for(10ms);
  EXPECT_TRUE(client.ConnectedServers().empty());
  const Result<Response> after = client.Call("P", {1});
  ASSERT_FALSE(after.ok());
  EXPECT_EQ(after.status().code(), Status::Code::kNoConnection);
}

TEST(ClientTest, ReconnectsAfterTheServerDropsTheConnection) {
  FakeServer server({}, Echo);
  ClientConfig config = TestConfig();
  config.reconnect = true;
  config.reconnect_initial_backoff = 10ms;
  config.reconnect_max_backoff = 50ms;
  Client client(config);
  ASSERT_TRUE(client.Connect(server.address()).ok());
  EXPECT_EQ(FirstLong(client.Call("P", {1})), 1);
  server.DropConnections();
  bool answered = false;
  for (int i = 0; i < 250 && !answered; ++i) {
    std::this_thread::sleep_for(20ms);
    const Result<Response> r = client.Call("P", {2});
    answered = r.ok() && r->ok();
  }
  EXPECT_TRUE(answered);
  EXPECT_EQ(server.connections_accepted(), 2);
}

// Waits until `a` and `b` hold `n` calls between them; false after kWait.
bool WaitForHeldOnBoth(const FakeServer& a, const FakeServer& b, size_t n) {
  const auto deadline = std::chrono::steady_clock::now() + kWait;
  while (a.held() + b.held() < n) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(1ms);
  }
  return a.held() + b.held() == n;
}

// Two servers, room for 64 calls on each connection but 3 on the client: the fourth call waits, then fails.
TEST(ClientTest, BoundsTheCallsInFlightOverAllConnections) {
  FakeServer a({}, Hold);
  FakeServer b({}, Hold);
  ClientConfig config = TestConfig();
  config.max_in_flight = 3;
  config.backpressure_timeout = 100ms;
  Client client(config);
  ASSERT_TRUE(client.Connect(a.address()).ok());
  ASSERT_TRUE(client.Connect(b.address()).ok());
  std::vector<std::future<Result<Response>>> held;
  for (int i = 1; i <= 3; ++i) held.push_back(client.CallFuture("P", {i}));
  ASSERT_TRUE(WaitForHeldOnBoth(a, b, 3));
  EXPECT_GT(a.held(), 0u) << "the calls should go round-robin over both connections";
  EXPECT_GT(b.held(), 0u);
  const auto start = std::chrono::steady_clock::now();
  const Result<Response> fourth = client.Call("P", {4});
  EXPECT_GE(std::chrono::steady_clock::now() - start, 100ms);
  ASSERT_FALSE(fourth.ok());
  EXPECT_EQ(fourth.status().code(), Status::Code::kBackpressure);
  EXPECT_NE(fourth.status().message().find("3 calls in flight on the client"), std::string::npos)
      << fourth.status().message();
  const auto answer = [](const Invocation& c) { return FakeServer::Success(c, c.parameters(0).integer()); };
  a.AnswerHeld(answer, false);
  b.AnswerHeld(answer, false);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(FirstLong(Await(held[i])), i + 1);
  // Every call that ended gave its room back: three more fit, and a failed one took none.
  std::vector<std::future<Result<Response>>> again;
  for (int i = 5; i <= 7; ++i) again.push_back(client.CallFuture("P", {i}));
  ASSERT_TRUE(WaitForHeldOnBoth(a, b, 3));
  a.AnswerHeld(answer, false);
  b.AnswerHeld(answer, false);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(FirstLong(Await(again[i])), i + 5);
  EXPECT_EQ(client.Statistics().backpressure, 1u);
}

// A callback's next call finds the room its own call gave back (the room is given back before the callback runs).
TEST(ClientTest, ACallbackCanMakeTheNextCallWithinTheBound) {
  FakeServer server({}, Echo);
  ClientConfig config = TestConfig();
  config.max_in_flight = 1;
  Client client(config);
  ASSERT_TRUE(client.Connect(server.address()).ok());
  std::promise<Result<Response>> second;
  client.CallAsync("P", {1}, [&](Result<Response> first) {
    EXPECT_EQ(FirstLong(first), 1);
    client.CallAsync("P", {2}, [&](Result<Response> r) { second.set_value(std::move(r)); });
  });
  auto done = second.get_future();
  EXPECT_EQ(FirstLong(Await(done)), 2);
}

TEST(ClientTest, FailsWithBackpressureBeyondMaxInFlight) {
  FakeServer server({}, Hold);
  ClientConfig config = TestConfig();
  config.max_in_flight_per_connection = 2;
  config.backpressure_timeout = 100ms;
  Client client(config);
  ASSERT_TRUE(client.Connect(server.address()).ok());
  auto first = client.CallFuture("P", {1});
  auto second = client.CallFuture("P", {2});
  ASSERT_TRUE(server.WaitForHeld(2, kWait));
  const auto start = std::chrono::steady_clock::now();
  const Result<Response> third = client.Call("P", {3});
  EXPECT_GE(std::chrono::steady_clock::now() - start, 100ms);
  ASSERT_FALSE(third.ok());
  EXPECT_EQ(third.status().code(), Status::Code::kBackpressure);
  server.AnswerHeld([](const Invocation& c) { return FakeServer::Success(c, c.parameters(0).integer()); }, false);
  EXPECT_EQ(FirstLong(Await(first)), 1);
  EXPECT_EQ(FirstLong(Await(second)), 2);
  auto fourth = client.CallFuture("P", {4});  // room again
  ASSERT_TRUE(server.WaitForHeld(1, kWait));
  server.AnswerHeld([](const Invocation& c) { return FakeServer::Success(c, c.parameters(0).integer()); }, false);
  EXPECT_EQ(FirstLong(Await(fourth)), 4);
  EXPECT_EQ(client.Statistics().backpressure, 1u);
}

TEST(ClientTest, RoutesSinglePartitionCallsToTheLeaderAndOthersRoundRobin) {
  FakeServer::Options a;
  a.host_id = 0;
  a.partition_count = 2;
  a.leaders = {0, 1};
  a.routes = {FakeServer::Route("Vote", true, 0, 5), FakeServer::Route("Results", false)};
  FakeServer::Options b = a;
  b.host_id = 1;
  FakeServer host0(a, Echo), host1(b, Echo);
  Client client(TestConfig());
  ASSERT_TRUE(client.Connect(host0.address()).ok());
  ASSERT_TRUE(client.Connect(host1.address()).ok());
  for (int64_t phone = 2125550000; phone < 2125550200; ++phone) client.CallAsync("vote", {phone, 1, 2}, nullptr);
  for (int i = 0; i < 10; ++i) client.CallAsync("Results", {}, nullptr);
  client.Drain();
  int results = 0;
  for (const FakeServer* host : {&host0, &host1}) {
    const uint32_t partition = host == &host0 ? 0 : 1;
    int votes = 0, host_results = 0;
    for (const Invocation& call : host->received()) {
      if (call.procedure() == "Results") {
        ++host_results;
        EXPECT_EQ(call.routed_partition_plus_one(), 0u);
        continue;
      }
      ++votes;
      const uint64_t hash = PartitionHash::HashInt64(call.parameters(0).integer());
      EXPECT_EQ(PartitionHash::PartitionOfHash(hash, 2), partition) << call.parameters(0).integer();
      EXPECT_EQ(call.routed_partition_plus_one(), partition + 1);
    }
    EXPECT_GT(votes, 50) << "host " << partition;
    EXPECT_EQ(host_results, 5) << "host " << partition;  // round-robin
    results += host_results;
  }
  EXPECT_EQ(results, 10);
}

// A cluster's login lists every host: a client given one address connects
// to the others in the background and routes each call to its leader.
TEST(ClientTest, ConnectsToEveryHostTheTopologyListsWhenGivenOneAddress) {
  FakeServer::Options a;
  a.host_id = 0;
  a.partition_count = 2;
  a.leaders = {0, 1};
  a.routes = {FakeServer::Route("Vote", true, 0, 5)};
  FakeServer::Options b = a;
  b.host_id = 1;
  FakeServer host0(a, Echo), host1(b, Echo);
  std::vector<Host> hosts(2);
  for (uint32_t id : {0u, 1u}) {
    hosts[id].set_host_id(id);
    hosts[id].set_address("127.0.0.1");
    hosts[id].set_client_port(id == 0 ? host0.port() : host1.port());
  }
  host0.SetTopologyHosts(hosts);
  host1.SetTopologyHosts(hosts);
  Client client(TestConfig());
  ASSERT_TRUE(client.Connect(host0.address()).ok());
  const auto deadline = std::chrono::steady_clock::now() + kWait;
  while (client.ConnectedServers().size() < 2 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(10ms);  // waiting for observable state: the discovered connection
  }
  ASSERT_EQ(client.ConnectedServers().size(), 2u);
  EXPECT_EQ(host1.connections_accepted(), 1);
  for (int64_t phone = 2125550000; phone < 2125550100; ++phone) client.CallAsync("Vote", {phone, 1, 2}, nullptr);
  client.Drain();
  for (const FakeServer* host : {&host0, &host1}) {
    const uint32_t partition = host == &host0 ? 0 : 1;
    int votes = 0;
    for (const Invocation& call : host->received()) {
      ++votes;
      EXPECT_EQ(call.routed_partition_plus_one(), partition + 1);
    }
    EXPECT_GT(votes, 20) << "host " << partition;
  }
  client.Close();
  EXPECT_EQ(host0.connections_accepted() + host1.connections_accepted(), 2) << "one connection per host";
}

// A schema change adds a single-partition procedure: answers carry catalog
// version 2, the client reads the new routes with @SystemCatalog PROCEDURES
// and routes the new procedure's later calls.
TEST(ClientTest, RefreshesRoutesWhenAnswersCarryANewerCatalogVersion) {
  FakeServer::Options options;
  options.partition_count = 2;
  options.leaders = {0, 0};
  FakeServer server(options, [](const Invocation& call) -> std::optional<InvocationResponse> {
    InvocationResponse r = FakeServer::Success(call, 0);
    r.set_catalog_version(2);
    if (call.procedure() == "@SystemCatalog") {
      r.clear_results();
      r.add_results(testing::TableBytes()
                        .Column(8, "PROCEDURE_NAME").Column(2, "SINGLE_PARTITION")
                        .Column(4, "PARTITION_PARAMETER").Column(4, "PARTITION_TYPE")
                        .Row({false, false, false, false}).Text("NewProc").Value<int8_t>(1).Value<int32_t>(0)
                        .Value<int32_t>(5).Build());
    }
    return r;
  });
  Client client(TestConfig());
  ASSERT_TRUE(client.Connect(server.address()).ok());
  ASSERT_TRUE(client.Call("NewProc", {int64_t{7}}).ok());  // unrouted: the client has no route yet
  bool routed = false;
  for (int i = 0; i < 200 && !routed; ++i) {
    std::this_thread::sleep_for(5ms);
    ASSERT_TRUE(client.Call("NewProc", {int64_t{7}}).ok());
    routed = server.received().back().routed_partition_plus_one() != 0;
  }
  ASSERT_TRUE(routed) << "calls to NewProc were never routed after the catalog changed";
  EXPECT_EQ(server.received().back().routed_partition_plus_one(),
            PartitionHash::PartitionOfHash(PartitionHash::HashInt64(7), 2) + 1);
  int catalog_reads = 0;
  for (const Invocation& call : server.received()) catalog_reads += call.procedure() == "@SystemCatalog";
  EXPECT_EQ(catalog_reads, 1);
}

TEST(ClientTest, FailsWithNoConnectionBeforeConnect) {
  Client client(TestConfig());
  const Result<Response> r = client.Call("P", {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kNoConnection);
}

TEST(ClientTest, RefusesCallLargerThanTheServerAccepts) {
  FakeServer::Options options;
  options.max_frame_bytes = 1024;
  FakeServer server(options, Echo);
  Client client(TestConfig());
  ASSERT_TRUE(client.Connect(server.address()).ok());
  const Result<Response> r = client.Call("Put", {std::string(2000, 'x')});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kFrameTooLarge);
  EXPECT_NE(r.status().message().find("at most 1024"), std::string::npos);
  EXPECT_EQ(FirstLong(client.Call("Put", {7, std::string(500, 'x')})), 7);
  EXPECT_EQ(server.received().size(), 1u);
}

TEST(ClientTest, ReportsARefusedLogin) {
  FakeServer::Options options;
  options.login_status = LOGIN_STATUS_BAD_VERSION;
  FakeServer server(options, Echo);
  Client client(TestConfig());
  const Status s = client.Connect(server.address());
  EXPECT_EQ(s.code(), Status::Code::kLoginRefused);
  EXPECT_NE(s.message().find("LOGIN_STATUS_BAD_VERSION"), std::string::npos) << s.ToString();
}

TEST(ClientTest, ReportsUnreachableServerAndMalformedAddress) {
  uint16_t port;
  {
    FakeServer gone({}, Echo);
    port = gone.port();
  }
  Client client(TestConfig());
  EXPECT_EQ(client.Connect("127.0.0.1:" + std::to_string(port)).code(), Status::Code::kIoError);
  EXPECT_EQ(client.Connect("127.0.0.1:99999").code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(client.Connect(":21212").code(), Status::Code::kInvalidArgument);
}

TEST(ClientTest, FailsOnlyTheCallWhoseResultTableIsMalformed) {
  FakeServer server({}, [](const Invocation& call) {
    InvocationResponse r = FakeServer::Success(call, 1);
    if (call.procedure() == "Bad") r.set_results(0, r.results(0).substr(0, 9));
    return std::optional<InvocationResponse>(r);
  });
  Client client(TestConfig());
  ASSERT_TRUE(client.Connect(server.address()).ok());
  const Result<Response> bad = client.Call("Bad", {});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), Status::Code::kMalformed);
  EXPECT_EQ(FirstLong(client.Call("Good", {})), 1);
}

TEST(ClientTest, CloseFailsCallsInFlightAndLaterCalls) {
  FakeServer server({}, Hold);
  Client client(TestConfig());
  ASSERT_TRUE(client.Connect(server.address()).ok());
  auto f = client.CallFuture("P", {1});
  ASSERT_TRUE(server.WaitForHeld(1, kWait));
  client.Close();
  EXPECT_EQ(Await(f).status().code(), Status::Code::kConnectionLost);
  EXPECT_EQ(client.Call("P", {}).status().code(), Status::Code::kClosed);
}

}  // namespace
}  // namespace partita::client
