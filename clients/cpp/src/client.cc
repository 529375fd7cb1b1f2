#include "partita/client/client.h"

#include "asio.h"
#include <algorithm>
#include <chrono>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <thread>

#include "answer.h"
#include "call_tracker.h"
#include "client.pb.h"
#include "connection.h"
#include "frame_codec.h"
#include "rate_limiter.h"
#include "router.h"
#include "server_address.h"
#include "topology_follower.h"

namespace partita::client {
namespace {
// True on the client's I/O threads, where nothing may block.
thread_local bool t_on_io_thread = false;

// Extra wait beyond the connect timeout, for the login timer's own answer to arrive.
constexpr std::chrono::seconds kConnectGrace{2};

uint64_t NewSession() {
  std::random_device device;
  uint64_t session = 0;
  while (session == 0) session = (static_cast<uint64_t>(device()) << 32) ^ device();
  return session;
}
}  // namespace

// The client's state: I/O threads, connections, router, the follower of
// topology changes (which sends NOT_LEADER calls again), statistics.
// Thread model: connect_mu_ serializes Connect and Close; calls are lock-free
// up to their connection's queue.
class Client::Impl final {
 public:
  explicit Impl(ClientConfig config)
      : config_(std::move(config)),
        work_(boost::asio::make_work_guard(io_)),
        limiter_(config_.rate_limit_per_second > 0 ? std::make_optional<RateLimiter>(config_.rate_limit_per_second)
                                                   : std::nullopt),
        follower_(io_, &router_, &tracker_, config_.not_leader_wait,
                  TopologyFollower::Hooks{
                      [this](std::function<void(Result<Response>)> done) { ReadPartitions(std::move(done)); },
                      [this](PendingCall& call) { return Send(call, std::chrono::milliseconds(0), true); },
                      [this](std::vector<std::string> hosts) { Discover(std::move(hosts)); }}) {
    for (uint32_t i = 0; i < std::max<uint32_t>(1, config_.io_threads); ++i) {
      threads_.emplace_back([this] {
        t_on_io_thread = true;
        io_.run();
      });
    }
  }

  ~Impl() { Close(); }

  Status Connect(std::string_view host_port);
  void CallAsync(std::string_view procedure, std::vector<Param> params, Callback callback,
                 bool user_call = true);
  // (user_call: a call of the user's, paced by the rate limit and bound by max_in_flight; the client's own
  // calls, such as reading a new topology, are neither.)
  // Sends `call` (counted as started) on the connection the router chooses,
  // waiting up to `wait` for room, or finishes it with why it could not be
  // sent. Returns false, leaving `call` untouched, only when
  // `keep_if_full` and the connection had no room.
  bool Send(PendingCall& call, std::chrono::milliseconds wait, bool keep_if_full);
  void Close();
  // A connection logged in (on an I/O thread): its topology and routes become
  // the client's, and with discover_hosts every host it lists that no
  // connection reaches yet is connected to on a discovery thread (Connect
  // waits for the login, which must not happen on an I/O thread).
  void LoggedIn(const LoginResponse& login);
  // A host pushed its new topology (on an I/O thread): routes by its leaders
  // when newer, sends again the calls waiting for them, and connects to its
  // hosts no connection reaches yet.
  void TopologyPushed(const Topology& topology);
  // Calls @SystemCatalog PARTITIONS (outside the rate limit) on the first
  // connection, round-robin, with room for it: after a failover some are
  // full of answers their hosts held. On an I/O thread; never waits.
  void ReadPartitions(Callback done);
  // Connects to each of `addresses`, reporting those that cannot be reached.
  void ConnectToHosts(const std::vector<std::string>& addresses);
  // ConnectToHosts on a discovery thread (Connect waits for the login, which
  // must not happen on an I/O thread), unless discover_hosts is off.
  void Discover(std::vector<std::string> addresses);
  // An answer ran against catalog `version`: when that is newer than the
  // routes, reads the new routes with @SystemCatalog PROCEDURES (once per
  // version; on failure the next answer tries again). Any thread.
  void CatalogVersionSeen(uint64_t version);

  const ClientConfig config_;
  boost::asio::io_context io_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
  std::vector<std::thread> threads_;
  CallTracker tracker_{config_.max_in_flight};
  // The answers' reusable storage, shared by every connection (answer.h).
  const std::shared_ptr<AnswerPool> answers_ = AnswerPool::Create();
  Router router_;
  std::optional<RateLimiter> limiter_;
  TopologyFollower follower_;
  std::atomic<uint64_t> next_handle_{1};
  // The client session every login names: random, never 0 (docs/wire-protocol.md, "Client sessions").
  const uint64_t session_ = NewSession();
  std::atomic<bool> closed_{false};
  std::atomic<uint64_t> refreshing_version_{0};  // the version whose routes are being read
  std::mutex connect_mu_;
  std::map<std::string, std::shared_ptr<Connection>> connections_;  // guarded by connect_mu_
  std::mutex discovery_mu_;
  std::vector<std::thread> discovery_;  // guarded by discovery_mu_; joined by Close
};

Status Client::Impl::Connect(std::string_view host_port) {
  Result<ServerAddress> address = ServerAddress::Parse(host_port, ClientConfig::kDefaultPort);
  if (!address.ok()) return address.status();
  const std::string key = address->ToString();
  std::lock_guard<std::mutex> lock(connect_mu_);
  if (closed_) return Status(Status::Code::kClosed, "the client is closed");
  if (const auto it = connections_.find(key); it != connections_.end()) {
    if (it->second->up() || config_.reconnect) return Status::Ok();
    it->second->Close();
    router_.Remove(it->second.get());
    connections_.erase(it);
  }
  Connection::Listener listener{
      [this](const LoginResponse& login) { LoggedIn(login); }, [this] { router_.Rebuild(); },
      [this](uint64_t version) { CatalogVersionSeen(version); },
      [this](uint64_t version) { follower_.VersionSeen(version); },
      [this](PendingCall& call, uint64_t version, Response& answer) {
        return follower_.NotLeader(call, version, answer);
      },
      [this](PendingCall& call, const std::string& reason) { return follower_.OutcomeUnknown(call, reason); },
      session_,
      [this](const Topology& topology) { TopologyPushed(topology); }};
  auto connection = std::make_shared<Connection>(io_, std::move(address.value()), config_, &tracker_, answers_, listener);
  router_.Add(connection);
  std::future<Status> login = connection->Open();
  Status status = login.wait_for(config_.connect_timeout + kConnectGrace) == std::future_status::ready
                      ? login.get()
                      : Status(Status::Code::kTimeout, "no login answer from " + key);
  if (!status.ok()) {
    connection->Close();
    router_.Remove(connection.get());
    return status;
  }
  connections_.emplace(key, std::move(connection));
  return status;
}

void Client::Impl::LoggedIn(const LoginResponse& login) {
  router_.LoggedIn(login);
  follower_.LoggedIn();
  std::vector<std::string> unknown;
  for (const Host& host : login.topology().hosts()) {
    if (host.host_id() == login.host_id() || router_.ConnectedToHost(host.host_id())) continue;
    unknown.push_back(host.address() + ":" + std::to_string(host.client_port()));
  }
  Discover(std::move(unknown));
}

void Client::Impl::TopologyPushed(const Topology& topology) {
  std::vector<uint32_t> leaders(topology.partition_leaders().begin(), topology.partition_leaders().end());
  router_.FollowLeaders(std::move(leaders), topology.topology_version());
  follower_.LoggedIn();
  std::vector<std::string> unknown;
  for (const Host& host : topology.hosts()) {
    if (router_.ConnectedToHost(host.host_id())) continue;
    unknown.push_back(host.address() + ":" + std::to_string(host.client_port()));
  }
  Discover(std::move(unknown));
}

void Client::Impl::Discover(std::vector<std::string> addresses) {
  if (!config_.discover_hosts || closed_ || addresses.empty()) return;
  std::lock_guard<std::mutex> lock(discovery_mu_);
  if (closed_) return;
  discovery_.emplace_back([this, addresses = std::move(addresses)] { ConnectToHosts(addresses); });
}

void Client::Impl::ConnectToHosts(const std::vector<std::string>& addresses) {
  for (const std::string& address : addresses) {
    if (closed_) return;
    const Status status = Connect(address);  // a host already connected is a no-op
    if (!status.ok() && !closed_) {
      std::cerr << "partita client: could not connect to " << address
                << ", a host of the cluster's topology: " << status.message() << "\n";
    }
  }
}

void Client::Impl::ReadPartitions(Callback done) {
  PendingCall call{next_handle_.fetch_add(1, std::memory_order_relaxed), "@SystemCatalog", std::move(done),
                   PendingCall::Clock::now(), {}, {Param("PARTITIONS")}};
  tracker_.Started();
  for (size_t tries = router_.ConnectedServers().size(); tries > 1; --tries) {
    if (Send(call, std::chrono::milliseconds(0), /*keep_if_full=*/true)) return;
  }
  Send(call, std::chrono::milliseconds(0), /*keep_if_full=*/false);  // the last try fails with kBackpressure
}

void Client::Impl::CatalogVersionSeen(uint64_t version) {
  if (version <= router_.catalog_version()) return;
  uint64_t refreshing = refreshing_version_.load();
  do {
    if (version <= refreshing) return;
  } while (!refreshing_version_.compare_exchange_weak(refreshing, version));
  // Posted, not called: this runs while a connection is delivering an answer.
  boost::asio::post(io_, [this, version] {
    CallAsync(
        "@SystemCatalog", {Param("PROCEDURES")},
        [this, version](Result<Response> r) {
          const bool ok = r.ok() && r->status == ResponseStatus::kSuccess && !r->results.empty() &&
                          router_.UpdateRoutes(version, r->results[0]);
          if (!ok) {
            uint64_t expected = version;
            refreshing_version_.compare_exchange_strong(expected, router_.catalog_version());
          }
        },
        /*user_call=*/false);
  });
}

void Client::Impl::CallAsync(std::string_view procedure, std::vector<Param> params, Callback callback,
                             bool user_call) {
  PendingCall call{next_handle_.fetch_add(1, std::memory_order_relaxed), std::string(procedure),
                   std::move(callback), PendingCall::Clock::now(), {}, std::move(params)};
  tracker_.Started();
  auto fail = [&](Status::Code code, std::string message) { tracker_.Finish(call, Status(code, std::move(message))); };
  if (closed_) return fail(Status::Code::kClosed, "the client is closed; the call to " + call.procedure + " was not sent");
  if (procedure.empty()) return fail(Status::Code::kInvalidArgument, "the procedure name is empty");
  if (limiter_ && user_call) limiter_->Acquire();
  // The wait for room, in the client's bound and then on the connection, together at most the backpressure timeout.
  const std::chrono::milliseconds wait = t_on_io_thread ? std::chrono::milliseconds(0) : config_.backpressure_timeout;
  const auto waiting_since = std::chrono::steady_clock::now();
  if (user_call && !tracker_.TakeRoom(call, wait)) {
    return fail(Status::Code::kBackpressure, "no room for the call to " + call.procedure + ": " +
                                                 std::to_string(config_.max_in_flight) +
                                                 " calls in flight on the client and none finished within " +
                                                 std::to_string(wait.count()) + " ms");
  }
  const auto waited =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - waiting_since);
  Send(call, std::max(wait - waited, std::chrono::milliseconds(0)), false);
}

bool Client::Impl::Send(PendingCall& call, std::chrono::milliseconds wait, bool keep_if_full) {
  auto fail = [&](Status::Code code, std::string message) {
    tracker_.Finish(call, Status(code, std::move(message)));
    return true;
  };
  if (closed_) return fail(Status::Code::kClosed, "the client is closed; the call to " + call.procedure + " was not sent");
  const Router::Choice choice = router_.Choose(call.procedure, call.params);
  if (!choice.connection) {
    return fail(Status::Code::kNoConnection,
                "no connection to a Partita server is up; the call to " + call.procedure + " was not sent");
  }
  Connection& connection = *choice.connection;
  const size_t bytes = FrameCodec::InvocationMessageSize(call.handle, call.procedure, call.params,
                                                         choice.routed_partition_plus_one, QueryTimeoutMillis(config_));
  if (bytes > connection.max_frame_bytes()) {
    return fail(Status::Code::kFrameTooLarge, "the call to " + call.procedure + " encodes to " + std::to_string(bytes) +
                                                  " bytes; the server at " + connection.address() + " accepts at most " +
                                                  std::to_string(connection.max_frame_bytes()));
  }
  if (!connection.AcquirePermit(wait)) {
    if (keep_if_full) return false;
    return fail(Status::Code::kBackpressure,
                "no room for the call to " + call.procedure + ": " + std::to_string(config_.max_in_flight_per_connection) +
                    " calls in flight on " + connection.address() + " and none finished within " +
                    std::to_string(wait.count()) + " ms");
  }
  connection.Submit(std::move(call), choice.routed_partition_plus_one);
  return true;
}

void Client::Impl::Close() {
  {
    std::lock_guard<std::mutex> lock(connect_mu_);
    if (closed_.exchange(true)) return;
    for (auto& [key, connection] : connections_) connection->Close();
  }
  std::vector<std::thread> discovery;
  {
    std::lock_guard<std::mutex> lock(discovery_mu_);
    discovery.swap(discovery_);
  }
  for (std::thread& t : discovery) t.join();  // each sees closed_ (Connect refuses) and ends
  follower_.Close();  // calls waiting to be sent again after NOT_LEADER end with kClosed
  work_.reset();
  io_.stop();
  for (std::thread& t : threads_) t.join();
}

Client::Client(ClientConfig config) : impl_(std::make_unique<Impl>(std::move(config))) {}

Client::~Client() = default;

Status Client::Connect(std::string_view host_port) { return impl_->Connect(host_port); }

void Client::CallAsync(std::string_view procedure, std::vector<Param> params, Callback callback) {
  impl_->CallAsync(procedure, std::move(params), std::move(callback));
}

std::future<Result<Response>> Client::CallFuture(std::string_view procedure, std::vector<Param> params) {
  auto promise = std::make_shared<std::promise<Result<Response>>>();
  std::future<Result<Response>> future = promise->get_future();
  impl_->CallAsync(procedure, std::move(params),
                   [promise](Result<Response> result) { promise->set_value(std::move(result)); });
  return future;
}

Result<Response> Client::Call(std::string_view procedure, std::vector<Param> params) {
  if (t_on_io_thread) {
    return Status(Status::Code::kInvalidArgument,
                  "Call() of " + std::string(procedure) + " from a callback would block the I/O thread; use CallAsync");
  }
  return CallFuture(procedure, std::move(params)).get();
}

void Client::Drain() { impl_->tracker_.AwaitIdle(); }

ClientStatistics Client::Statistics(bool reset) { return impl_->tracker_.Snapshot(reset); }

std::vector<std::string> Client::ConnectedServers() const { return impl_->router_.ConnectedServers(); }

uint64_t Client::TopologyVersion() const { return impl_->router_.topology_version(); }

int Client::PartitionOf(std::string_view procedure, const std::vector<Param>& params) const {
  return impl_->router_.PartitionOf(procedure, params);
}

const ClientConfig& Client::config() const { return impl_->config_; }

void Client::Close() { impl_->Close(); }

}  // namespace partita::client
