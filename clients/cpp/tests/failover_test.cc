// The Client following a cluster's failover, against in-test fake hosts on
// 127.0.0.1: a newer topology version read once with @SystemCatalog
// PARTITIONS and routed by; NOT_LEADER calls sent again, at most twice,
// waiting for the new leaders when the old leader's connection is down;
// on a cluster, calls whose outcome is unknown sent again with their
// session and handle (never on a single server); the PARTITIONS table's
// bad shapes refused.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "fake_server.h"
#include "partita/client/client.h"
#include "partita/client/partition_hash.h"
#include "table_bytes.h"
#include "topology_follower.h"

namespace partita::client {
namespace {

using namespace std::chrono_literals;
using testing::FakeServer;
using testing::TableBytes;
constexpr auto kWait = 5s;  // upper bound of every wait in these tests
constexpr uint32_t kNotLeader = 20;       // proto/errors.proto ERROR_CODE_NOT_LEADER
constexpr uint32_t kOutcomeUnknown = 28;  // proto/errors.proto ERROR_CODE_OUTCOME_UNKNOWN
constexpr uint8_t kInteger = 4, kBigInt = 5, kVarchar = 8;

ClientConfig TestConfig() {
  ClientConfig c;
  c.client_name = "failover-test";
  c.connect_timeout = 2s;
  c.call_timeout = 30s;
  c.reconnect = false;
  c.discover_hosts = false;
  return c;
}

Result<Response> Await(std::future<Result<Response>>& f) {
  if (f.wait_for(kWait) != std::future_status::ready) return Status(Status::Code::kTimeout, "test waited too long");
  return f.get();
}

// A phone number whose Vote routes to `partition` of 2.
int64_t KeyOf(uint32_t partition) {
  for (int64_t key = 1;; ++key) {
    if (PartitionHash::PartitionOfHash(PartitionHash::HashInt64(key), 2) == partition) return key;
  }
}

// @SystemCatalog PARTITIONS as a host of topology `version` answers it.
std::string PartitionsTable(const std::vector<uint32_t>& leaders, uint64_t version) {
  TableBytes t;
  t.Column(kInteger, "PARTITION_ID").Column(kInteger, "LEADER_HOST_ID").Column(kVarchar, "LEADER_ADDRESS")
      .Column(kBigInt, "TOPOLOGY_VERSION");
  for (size_t p = 0; p < leaders.size(); ++p) {
    t.Row({false, false, true, false}).Value<int32_t>(static_cast<int32_t>(p)).Value<int32_t>(leaders[p])
        .Value<int64_t>(static_cast<int64_t>(version));
  }
  return t.Build();
}

// One host of a two-host, two-partition fake cluster whose map can move:
// it runs Vote for the partitions it leads in the current map and answers
// NOT_LEADER for the others, every answer carrying the map's version.
class FakeHost {
 public:
  explicit FakeHost(uint32_t id) : id_(id), server_(Options(id), [this](const Invocation& c) { return Answer(c); }) {
    server_.SetLeaders({0, 1}, 1);  // what its logins report: the formation's map
  }

  // Installs a new map (what a failover does on a real host).
  void Move(std::vector<uint32_t> leaders, uint64_t version) {
    std::lock_guard<std::mutex> lock(mu_);
    leaders_ = std::move(leaders);
    version_ = version;
  }
  // While on, Vote calls are held unanswered (their connection may then drop).
  void Hold(bool on) {
    std::lock_guard<std::mutex> lock(mu_);
    hold_ = on;
  }
  int Received(const std::string& procedure) const {
    int n = 0;
    for (const Invocation& c : server_.received()) n += c.procedure() == procedure;
    return n;
  }
  FakeServer& server() { return server_; }

 private:
  static FakeServer::Options Options(uint32_t id) {
    FakeServer::Options o;
    o.host_id = id;
    o.partition_count = 2;
    o.leaders = {0, 1};
    o.routes = {FakeServer::Route("Vote", true, 0, 5)};
    return o;
  }

  std::optional<InvocationResponse> Answer(const Invocation& call) {
    std::lock_guard<std::mutex> lock(mu_);
    if (call.procedure() == "@SystemCatalog") {
      InvocationResponse r = FakeServer::Success(call, 0);
      r.clear_results();
      r.add_results(PartitionsTable(leaders_, version_));
      r.set_topology_version(version_);
      return r;
    }
    if (hold_ && call.procedure() == "Vote") return std::nullopt;
    const uint32_t partition = call.routed_partition_plus_one() - 1;
    if (partition >= leaders_.size() || leaders_[partition] != id_) {
      return FakeServer::Failure(call, CALL_STATUS_REJECTED, kNotLeader, "NOT_LEADER", version_);
    }
    InvocationResponse r = FakeServer::Success(call, call.parameters(0).integer());
    r.set_topology_version(version_);
    return r;
  }

  const uint32_t id_;
  std::mutex mu_;
  std::vector<uint32_t> leaders_ = {0, 1};  // guarded by mu_
  uint64_t version_ = 1;                    // guarded by mu_
  bool hold_ = false;                       // guarded by mu_
  FakeServer server_;                       // last: serves as soon as it is built
};

// Host 1's partition moves to host 0 (a failover, topology 1 -> 2) while
// both stay up: a call routed to host 1 by the old map is answered
// NOT_LEADER naming version 2; the client reads PARTITIONS once, sends the
// call again at host 0, and routes later calls there directly.
TEST(FailoverTest, FollowsANewerTopologyAndSendsANotLeaderCallAgainAtTheNewLeader) {
  FakeHost host0(0), host1(1);
  Client client(TestConfig());
  ASSERT_TRUE(client.Connect(host0.server().address()).ok());
  ASSERT_TRUE(client.Connect(host1.server().address()).ok());
  const int64_t key = KeyOf(1);
  auto before = client.CallFuture("Vote", {key, 1, 2});
  ASSERT_TRUE(Await(before).ok());
  EXPECT_EQ(host1.Received("Vote"), 1);

  host0.Move({0, 0}, 2);
  host1.Move({0, 0}, 2);
  auto moved = client.CallFuture("Vote", {key, 1, 2});
  const Result<Response> r = Await(moved);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_TRUE(r->ok()) << r->ToString();
  EXPECT_EQ(r->results[0].GetInt64(0, 0), key);
  EXPECT_EQ(host1.Received("Vote"), 2) << "answered NOT_LEADER once";
  EXPECT_EQ(host0.Received("Vote"), 1) << "sent again at the new leader";
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(client.Call("Vote", {key, 1, 2}).ok());
  EXPECT_EQ(host1.Received("Vote"), 2) << "later calls go to the new leader directly";
  EXPECT_EQ(host0.Received("Vote"), 21);
  EXPECT_EQ(host0.Received("@SystemCatalog") + host1.Received("@SystemCatalog"), 1) << "read once per version";
  const ClientStatistics s = client.Statistics();
  EXPECT_EQ(s.unexpected_failures + s.rejected, 0u);
}

// Host 1 dies before the cluster fails over: a call for its partition goes
// round-robin to host 0, which answers NOT_LEADER with the same topology
// (1). The call waits (not_leader_wait is long here) until an answer
// carries topology 2, then is sent to host 0, the new leader.
TEST(FailoverTest, ACallAnsweredNotLeaderWhileItsLeaderIsDownWaitsForTheFailover) {
  FakeHost host0(0);
  auto host1 = std::make_unique<FakeHost>(1);
  ClientConfig config = TestConfig();
  config.not_leader_wait = 60s;  // longer than kWait: only the new topology can release the call in time
  Client client(config);
  ASSERT_TRUE(client.Connect(host0.server().address()).ok());
  ASSERT_TRUE(client.Connect(host1->server().address()).ok());
  host1.reset();  // its connection drops: host 1 is gone
  for (int i = 0; i < 500 && client.ConnectedServers().size() > 1; ++i) std::this_thread::sleep_for(10ms);
  ASSERT_EQ(client.ConnectedServers().size(), 1u);

  const int64_t key = KeyOf(1);
  auto waiting = client.CallFuture("Vote", {key, 1, 2});
  for (int i = 0; i < 500 && host0.Received("Vote") < 1; ++i) std::this_thread::sleep_for(10ms);
  ASSERT_EQ(host0.Received("Vote"), 1) << "answered NOT_LEADER by the survivor before the failover";

  host0.Move({0, 0}, 2);  // the failover
  ASSERT_TRUE(client.Call("Vote", {KeyOf(0), 1, 2}).ok());  // its answer names topology 2
  const Result<Response> r = Await(waiting);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_TRUE(r->ok()) << r->ToString();
  EXPECT_EQ(r->results[0].GetInt64(0, 0), key);
  EXPECT_EQ(host0.Received("@SystemCatalog"), 1);
  EXPECT_EQ(client.Statistics().successes, 3u);  // two Votes and the PARTITIONS read
}

// A call made before its leader's connection is up goes round-robin and is
// answered NOT_LEADER with the topology the client has: it waits, and goes
// to the leader as soon as the client's connection to it logs in.
TEST(FailoverTest, ACallAnsweredNotLeaderBeforeItsLeaderIsConnectedGoesThereOnceConnected) {
  FakeHost host0(0), host1(1);
  ClientConfig config = TestConfig();
  config.not_leader_wait = 60s;  // longer than kWait: only the new connection can release the call in time
  Client client(config);
  ASSERT_TRUE(client.Connect(host0.server().address()).ok());
  const int64_t key = KeyOf(1);
  auto waiting = client.CallFuture("Vote", {key, 1, 2});
  for (int i = 0; i < 500 && host0.Received("Vote") < 1; ++i) std::this_thread::sleep_for(10ms);
  ASSERT_EQ(host0.Received("Vote"), 1) << "answered NOT_LEADER by a host that does not lead the partition";
  ASSERT_TRUE(client.Connect(host1.server().address()).ok());
  const Result<Response> r = Await(waiting);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_TRUE(r->ok()) << r->ToString();
  EXPECT_EQ(host1.Received("Vote"), 1);
  EXPECT_EQ(host0.Received("@SystemCatalog") + host1.Received("@SystemCatalog"), 0) << "no newer topology to read";
}

// Host 0 of two partitions led by `leaders`, Vote routed on its first parameter.
FakeServer::Options NotLeaderHost(std::vector<uint32_t> leaders) {
  FakeServer::Options o;
  o.partition_count = 2;
  o.leaders = std::move(leaders);
  o.routes = {FakeServer::Route("Vote", true, 0, 5)};
  return o;
}

// Answers NOT_LEADER to everything, naming topology 0.
std::optional<InvocationResponse> AlwaysNotLeader(const Invocation& c) {
  return FakeServer::Failure(c, CALL_STATUS_REJECTED, kNotLeader, "NOT_LEADER", 0);
}

// Host 0 leads both partitions by topology 3, which its logins report, but
// its sites have not followed that map yet (hosts follow a new map some
// milliseconds apart): it answers Vote NOT_LEADER naming topology 2 three
// times. The call waits for it and runs there, rather than spending its two
// resends at once and failing with NOT_LEADER.
TEST(FailoverTest, SendsACallAgainToALeaderBehindTheClientsTopologyUntilItFollows) {
  std::atomic<int> refusals{0};
  FakeServer behind(NotLeaderHost({0, 0}), [&refusals](const Invocation& c) -> std::optional<InvocationResponse> {
    if (c.procedure() == "Vote" && refusals.fetch_add(1) < 3) {
      return FakeServer::Failure(c, CALL_STATUS_REJECTED, kNotLeader, "NOT_LEADER", 2);
    }
    InvocationResponse r = FakeServer::Success(c, 7);
    r.set_topology_version(3);
    return r;
  });
  behind.SetLeaders({0, 0}, 3);
  Client client(TestConfig());
  ASSERT_TRUE(client.Connect(behind.address()).ok());
  const Result<Response> r = client.Call("Vote", {KeyOf(1), 1, 2});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_TRUE(r->ok()) << r->ToString();
  EXPECT_EQ(refusals.load(), 4) << "three refusals, then the call ran";

  // One that never follows: the waits end at the call's timeout with the NOT_LEADER answer (not run).
  FakeServer never(NotLeaderHost({0, 0}), [](const Invocation& c) {
    return FakeServer::Failure(c, CALL_STATUS_REJECTED, kNotLeader, "NOT_LEADER", 2);
  });
  never.SetLeaders({0, 0}, 3);
  ClientConfig config = TestConfig();
  config.call_timeout = 300ms;
  Client timed(config);
  ASSERT_TRUE(timed.Connect(never.address()).ok());
  const Result<Response> w = timed.Call("Vote", {KeyOf(1), 1, 2});
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  EXPECT_EQ(w->error_code, kNotLeader);
  EXPECT_GT(never.received().size(), 3u) << "sent again past the two NOT_LEADER resends";
}

// A host that keeps answering NOT_LEADER: the call is sent again twice,
// then its caller gets the NOT_LEADER answer. With a short wait, a call
// whose leader stays unknown is sent again when the wait ends.
TEST(FailoverTest, SendsANotLeaderCallAgainAtMostTwice) {
  FakeServer stale(NotLeaderHost({0, 0}), AlwaysNotLeader);
  Client client(TestConfig());
  ASSERT_TRUE(client.Connect(stale.address()).ok());
  const Result<Response> r = client.Call("Vote", {KeyOf(1), 1, 2});  // the leader is up: sent again at once
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->error_code, kNotLeader);
  EXPECT_EQ(r->error_name, "NOT_LEADER");
  EXPECT_EQ(stale.received().size(), 3u);

  FakeServer lone(NotLeaderHost({1, 1}), AlwaysNotLeader);  // a leader this client has no connection to
  ClientConfig config = TestConfig();
  config.not_leader_wait = 30ms;
  Client waiting(config);
  ASSERT_TRUE(waiting.Connect(lone.address()).ok());
  const Result<Response> w = waiting.Call("Vote", {KeyOf(1), 1, 2});
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  EXPECT_EQ(w->error_code, kNotLeader);
  EXPECT_EQ(lone.received().size(), 3u);
  EXPECT_EQ(waiting.Statistics().calls, 1u);
  EXPECT_EQ(waiting.Statistics().rejected, 1u);
}

// A call that may have run is never sent again: OUTCOME_UNKNOWN answers and
// lost connections reach the caller after one send.
// On a cluster (the logins list two hosts), a call in flight when its
// leader's connection drops has an unknown outcome: the client sends it
// again, with the same session and handle, and it reaches the partition's
// new leader; the OUTCOME_UNKNOWN answer of a host is treated the same way.
TEST(FailoverTest, SendsACallWhoseOutcomeIsUnknownAgainWithItsSessionAndHandleOnACluster) {
  FakeHost host0(0);
  auto host1 = std::make_unique<FakeHost>(1);
  std::vector<Host> hosts(2);
  for (uint32_t id = 0; id < 2; ++id) {
    hosts[id].set_host_id(id);
    hosts[id].set_address("127.0.0.1");
    hosts[id].set_client_port(id == 0 ? host0.server().port() : host1->server().port());
  }
  host0.server().SetTopologyHosts(hosts);
  host1->server().SetTopologyHosts(hosts);
  Client client(TestConfig());
  ASSERT_TRUE(client.Connect(host0.server().address()).ok());
  ASSERT_TRUE(client.Connect(host1->server().address()).ok());
  const int64_t key = KeyOf(1);
  host1->Hold(true);
  auto lost = client.CallFuture("Vote", {key, 1, 2});
  ASSERT_TRUE(host1->server().WaitForHeld(1, kWait));
  const uint64_t handle = host1->server().received().back().client_handle();
  const std::vector<uint64_t> first_sessions = host1->server().client_sessions();
  host0.Move({0, 0}, 2);  // the failover, then host 1 dies with the call in flight
  host1.reset();
  const Result<Response> r = Await(lost);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_TRUE(r->ok()) << r->ToString();
  std::vector<uint64_t> handles;
  for (const Invocation& c : host0.server().received()) {
    if (c.procedure() == "Vote") handles.push_back(c.client_handle());
  }
  ASSERT_FALSE(handles.empty());
  EXPECT_EQ(handles.back(), handle) << "sent again with its handle";
  const std::vector<uint64_t> sessions = host0.server().client_sessions();
  ASSERT_EQ(sessions.size(), 1u);
  EXPECT_NE(sessions[0], 0u) << "every login names the client's session";
  ASSERT_EQ(first_sessions.size(), 1u);
  EXPECT_EQ(first_sessions[0], sessions[0]) << "the same session on every host";
}

// A multi-partition procedure's call answered OUTCOME_UNKNOWN is sent again with its handle too, on a cluster:
// the servers run a multi-partition call of a session at most once as well (docs/cluster.md, "Client
// de-duplication").
TEST(FailoverTest, SendsAMultiPartitionCallWhoseOutcomeIsUnknownAgainWithItsHandle) {
  std::mutex mu;
  int transfers = 0;  // guarded by mu
  const auto answer = [&](const Invocation& c) -> std::optional<InvocationResponse> {
    if (c.procedure() == "@SystemCatalog") {
      InvocationResponse r = FakeServer::Success(c, 0);
      r.clear_results();
      r.add_results(PartitionsTable({0, 1}, 1));
      r.set_topology_version(1);
      return r;
    }
    if (c.procedure() == "Transfer") {
      std::lock_guard<std::mutex> lock(mu);
      if (transfers++ == 0) {
        return FakeServer::Failure(c, CALL_STATUS_UNEXPECTED_FAILURE, kOutcomeUnknown, "OUTCOME_UNKNOWN", 1);
      }
    }
    return FakeServer::Success(c, 7);
  };
  std::vector<std::unique_ptr<FakeServer>> servers;
  for (uint32_t id = 0; id < 2; ++id) {
    FakeServer::Options o;
    o.host_id = id;
    o.partition_count = 2;
    o.leaders = {0, 1};
    o.routes = {FakeServer::Route("Vote", true, 0, 5), FakeServer::Route("Transfer", false)};
    servers.push_back(std::make_unique<FakeServer>(o, answer));
  }
  std::vector<Host> hosts(2);
  for (uint32_t id = 0; id < 2; ++id) {
    hosts[id].set_host_id(id);
    hosts[id].set_address("127.0.0.1");
    hosts[id].set_client_port(servers[id]->port());
  }
  Client client(TestConfig());
  for (const auto& server : servers) {
    server->SetTopologyHosts(hosts);
    ASSERT_TRUE(client.Connect(server->address()).ok());
  }
  // The routes come after the logins: wait until the client knows Transfer (a call before is not sent again).
  ASSERT_TRUE(client.Call("Vote", {KeyOf(0), 1, 2}).ok());
  const Result<Response> r = client.Call("Transfer", {int64_t{1}, int64_t{2}, int64_t{40}});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_TRUE(r->ok()) << r->ToString();
  std::vector<uint64_t> handles;
  for (const auto& server : servers) {
    for (const Invocation& c : server->received()) {
      if (c.procedure() == "Transfer") handles.push_back(c.client_handle());
    }
  }
  ASSERT_EQ(handles.size(), 2u) << "sent once, then again after OUTCOME_UNKNOWN";
  EXPECT_EQ(handles[0], handles[1]) << "sent again with its handle";
}

// A single server: a call whose outcome is unknown is not sent again (no other copy could answer it).
TEST(FailoverTest, NeverSendsAgainACallWhoseOutcomeIsUnknownOnASingleServer) {
  FakeServer::Options o;
  o.routes = {FakeServer::Route("Vote", true, 0, 5)};
  FakeServer unknown(o, [](const Invocation& c) -> std::optional<InvocationResponse> {
    if (c.parameters(0).integer() == 1) return std::nullopt;  // held: its connection will drop
    return FakeServer::Failure(c, CALL_STATUS_UNEXPECTED_FAILURE, kOutcomeUnknown, "OUTCOME_UNKNOWN", 0);
  });
  Client client(TestConfig());
  ASSERT_TRUE(client.Connect(unknown.address()).ok());
  const Result<Response> r = client.Call("Vote", {int64_t{2}, 1, 2});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->error_code, kOutcomeUnknown);
  auto lost = client.CallFuture("Vote", {int64_t{1}, 1, 2});
  ASSERT_TRUE(unknown.WaitForHeld(1, kWait));
  unknown.DropConnections();
  const Result<Response> l = Await(lost);
  ASSERT_FALSE(l.ok());
  EXPECT_EQ(l.status().code(), Status::Code::kConnectionLost);
  int votes = 0;
  for (const Invocation& c : unknown.received()) votes += c.procedure() == "Vote";
  EXPECT_EQ(votes, 2) << "each call sent once";
}

// A pushed topology (a host's map changed) moves the client's routes
// without any call failing: the next call for the moved partition goes to
// its new leader directly.
TEST(FailoverTest, FollowsAPushedTopologyWithoutACallFailing) {
  FakeHost host0(0), host1(1);
  Client client(TestConfig());
  ASSERT_TRUE(client.Connect(host0.server().address()).ok());
  ASSERT_TRUE(client.Connect(host1.server().address()).ok());
  ASSERT_EQ(client.TopologyVersion(), 1u);
  host0.Move({0, 0}, 2);
  host1.Move({0, 0}, 2);
  host0.server().SetLeaders({0, 0}, 2);
  host0.server().PushTopology();
  const auto deadline = std::chrono::steady_clock::now() + kWait;
  while (client.TopologyVersion() < 2 && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(1ms);
  ASSERT_EQ(client.TopologyVersion(), 2u) << "the push was followed";
  const Result<Response> r = client.Call("Vote", {KeyOf(1), 1, 2});
  ASSERT_TRUE(r.ok() && r->ok()) << (r.ok() ? r->ToString() : r.status().ToString());
  EXPECT_EQ(host0.Received("Vote"), 1) << "straight to the new leader";
  EXPECT_EQ(host1.Received("Vote"), 0) << "no NOT_LEADER on the way";
  EXPECT_EQ(host0.Received("@SystemCatalog") + host1.Received("@SystemCatalog"), 0) << "nothing read";
}

// A host comes back and is handed its partition again (leader rebalancing,
// docs/cluster.md) while the client's connection to it waits out a long
// reconnection backoff: the newer topology that names it leader makes the
// client dial it at once, and the call answered NOT_LEADER elsewhere goes
// there. Before, the call waited for the backoff (here a minute).
TEST(FailoverTest, DialsALeaderWaitingOutItsReconnectionBackoffAtOnce) {
  FakeHost host0(0), host1(1);
  std::vector<Host> hosts(2);
  for (uint32_t id = 0; id < 2; ++id) {
    hosts[id].set_host_id(id);
    hosts[id].set_address("127.0.0.1");
    hosts[id].set_client_port(id == 0 ? host0.server().port() : host1.server().port());
  }
  host0.server().SetTopologyHosts(hosts);
  host1.server().SetTopologyHosts(hosts);
  ClientConfig config = TestConfig();
  config.reconnect = true;
  config.reconnect_initial_backoff = 60s;  // longer than kWait: only a dial at once reaches host 1 in time
  Client client(config);
  ASSERT_TRUE(client.Connect(host0.server().address()).ok());
  ASSERT_TRUE(client.Connect(host1.server().address()).ok());
  host0.Move({0, 0}, 2);  // host 1 is gone: host 0 leads both
  host1.Move({0, 0}, 2);
  host1.server().DropConnections();
  for (int i = 0; i < 500 && client.ConnectedServers().size() > 1; ++i) std::this_thread::sleep_for(10ms);
  ASSERT_EQ(client.ConnectedServers().size(), 1u);

  host0.Move({0, 1}, 3);  // host 1 is back and leads partition 1 again
  host1.Move({0, 1}, 3);
  const int64_t key = KeyOf(1);
  auto moved = client.CallFuture("Vote", {key, 1, 2});
  const Result<Response> r = Await(moved);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_TRUE(r->ok()) << r->ToString();
  EXPECT_EQ(r->results[0].GetInt64(0, 0), key);
  EXPECT_EQ(host1.Received("Vote"), 1) << "run by the returning leader";
  EXPECT_EQ(client.ConnectedServers().size(), 2u);
  EXPECT_EQ(host1.server().connections_accepted(), 2) << "dialled again once";
}

// Close ends a call waiting to be sent again.
TEST(FailoverTest, CloseEndsACallWaitingForTheNewLeaders) {
  FakeServer lone(NotLeaderHost({1, 1}), AlwaysNotLeader);
  ClientConfig config = TestConfig();
  config.not_leader_wait = 60s;
  Client client(config);
  ASSERT_TRUE(client.Connect(lone.address()).ok());
  auto waiting = client.CallFuture("Vote", {KeyOf(1), 1, 2});
  for (int i = 0; i < 500 && lone.received().empty(); ++i) std::this_thread::sleep_for(10ms);
  ASSERT_EQ(lone.received().size(), 1u);
  client.Close();
  const Result<Response> r = Await(waiting);
  ASSERT_FALSE(r.ok());
  // kClosed once the client had parked the call after its NOT_LEADER; kConnectionLost when Close came while the
  // answer was still on its way (the server had the call, so the call was in flight: its outcome is unknown).
  // Either way Close ended it at once instead of leaving it to wait out not_leader_wait.
  EXPECT_TRUE(r.status().code() == Status::Code::kClosed || r.status().code() == Status::Code::kConnectionLost)
      << r.status().ToString();
}

Result<ResultTable> Table(const std::string& bytes) {
  return ResultTable::Parse(bytes);
}

TEST(FailoverTest, ReadsThePartitionsTableAndRefusesBadOnes) {
  std::vector<uint32_t> leaders;
  std::vector<std::string> addresses;
  uint64_t version = 0;
  TableBytes good;
  good.Column(kInteger, "PARTITION_ID").Column(kInteger, "LEADER_HOST_ID").Column(kVarchar, "LEADER_ADDRESS")
      .Column(kBigInt, "TOPOLOGY_VERSION");
  good.Row({false, false, true, false}).Value<int32_t>(1).Value<int32_t>(2).Value<int64_t>(7);
  good.Row({false, false, false, false}).Value<int32_t>(0).Value<int32_t>(0).Text("127.0.0.1:5").Value<int64_t>(7);
  Result<ResultTable> t = Table(good.Build());
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(TopologyFollower::ParsePartitions(*t, &leaders, &version, &addresses), "");
  EXPECT_EQ(leaders, (std::vector<uint32_t>{0, 2}));
  EXPECT_EQ(addresses, (std::vector<std::string>{"127.0.0.1:5", ""}));
  EXPECT_EQ(version, 7u);

  TableBytes missing;
  missing.Column(kInteger, "PARTITION_ID").Column(kBigInt, "TOPOLOGY_VERSION");
  missing.Row({false, false}).Value<int32_t>(0).Value<int64_t>(1);
  t = Table(missing.Build());
  ASSERT_TRUE(t.ok());
  EXPECT_NE(TopologyFollower::ParsePartitions(*t, &leaders, &version, &addresses).find("LEADER_HOST_ID"),
            std::string::npos);

  auto two_rows = [](int32_t first, int32_t second, int32_t host) {
    TableBytes b;
    b.Column(kInteger, "PARTITION_ID").Column(kInteger, "LEADER_HOST_ID").Column(kBigInt, "TOPOLOGY_VERSION");
    b.Row({false, false, false}).Value<int32_t>(first).Value<int32_t>(host).Value<int64_t>(1);
    b.Row({false, false, false}).Value<int32_t>(second).Value<int32_t>(0).Value<int64_t>(1);
    return b.Build();
  };
  for (const std::string& bad : {two_rows(0, 0, 0), two_rows(0, 2, 0), two_rows(-1, 0, 0), two_rows(0, 1, -3)}) {
    t = Table(bad);
    ASSERT_TRUE(t.ok());
    const std::string error = TopologyFollower::ParsePartitions(*t, &leaders, &version, &addresses);
    EXPECT_NE(error.find("row "), std::string::npos) << error;
  }
  TableBytes text_id;
  text_id.Column(kVarchar, "PARTITION_ID").Column(kInteger, "LEADER_HOST_ID").Column(kBigInt, "TOPOLOGY_VERSION");
  text_id.Row({false, false, false}).Text("0").Value<int32_t>(0).Value<int64_t>(1);
  t = Table(text_id.Build());
  ASSERT_TRUE(t.ok());
  EXPECT_NE(TopologyFollower::ParsePartitions(*t, &leaders, &version, &addresses).find("unexpected type"),
            std::string::npos);
}

}  // namespace
}  // namespace partita::client
