// Client: a client of one or more Partita servers (docs/wire-protocol.md).
// One TCP connection per server; many calls in flight on each; answers
// matched to calls in any order; calls of single-partition procedures sent
// to the connection of their partition's leader (docs/partition-hash.md),
// other calls round-robin.
//
//   partita::client::Client client(partita::client::ClientConfig{});
//   if (Status s = client.Connect("127.0.0.1:21212"); !s.ok()) { ... }
//   auto r = client.Call("Vote", {6175551234LL, 3, 2});
//   client.CallAsync("Vote", {2125550100LL, 1, 2}, [](Result<Response> r) { ... });
//   client.Drain();
//
// Outcomes: a callback receives a Response for every answer of the server,
// failures included (look at Response::status), or a Status for a
// client-side failure: kNoConnection, kConnectionLost, kTimeout,
// kBackpressure, kFrameTooLarge, kMalformed, kClosed, kInvalidArgument.
//
// Clusters (docs/cluster.md): the client follows a failover's new leaders
// (an answer naming a newer topology makes it read @SystemCatalog
// PARTITIONS once) and sends a call answered NOT_LEADER, which was not run,
// again at most twice; a call whose outcome is unknown (kConnectionLost,
// kTimeout, OUTCOME_UNKNOWN) is never sent again.
//
// Flow control: at most max_in_flight_per_connection calls are in flight on
// one connection (and, when max_in_flight is set, at most max_in_flight on
// the whole client); beyond that CallAsync blocks its caller up to the
// backpressure timeout, then fails the call with kBackpressure. Calls made
// on an I/O thread (from a callback) never block: they fail at once.
//
// Ownership: the Client owns its connections and I/O threads; destroying it
// closes them (see Close). Thread model: thread-safe; any number of threads
// may call at once. Callbacks run on the client's I/O threads (or on the
// caller's thread when a call fails before it is sent): they must not block,
// and must not call Call(), Drain(), Close() or the destructor.
#ifndef PARTITA_CLIENT_CLIENT_H_
#define PARTITA_CLIENT_CLIENT_H_

#include <functional>
#include <future>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "partita/client/client_config.h"
#include "partita/client/client_statistics.h"
#include "partita/client/param.h"
#include "partita/client/response.h"
#include "partita/client/result.h"
#include "partita/client/status.h"

namespace partita::client {

// Receives the outcome of one call, exactly once.
using Callback = std::function<void(Result<Response>)>;

class Client final {
 public:
  explicit Client(ClientConfig config = {});
  // Close()s. REQUIRES: not called from a callback.
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  // Connects to the server at `host_port` ("host", "host:port",
  // "[::1]:port"; default port 21212) and logs in, waiting up to the connect
  // timeout. Connecting to an address already connected (or reconnecting)
  // does nothing. Returns kInvalidArgument (address), kIoError (unreachable),
  // kLoginRefused, kTimeout or kClosed on failure.
  [[nodiscard]] Status Connect(std::string_view host_port);

  // Calls `procedure` with `params`; `callback` receives the outcome.
  void CallAsync(std::string_view procedure, std::vector<Param> params, Callback callback);

  // CallAsync, with the outcome delivered through a future.
  std::future<Result<Response>> CallFuture(std::string_view procedure, std::vector<Param> params);

  // Calls and waits for the outcome. A Response whose status is not SUCCESS
  // is still a Response (the Result is ok). REQUIRES: not called from a
  // callback (it returns kInvalidArgument there rather than deadlock).
  Result<Response> Call(std::string_view procedure, std::vector<Param> params);

  // Blocks until no call of this client is in flight.
  void Drain();

  // Counts and latency percentiles since the start or the last reset.
  ClientStatistics Statistics(bool reset = false);

  // The servers ("host:port") whose connection is up.
  std::vector<std::string> ConnectedServers() const;

  // The version of the cluster map (topology) calls are routed by: a
  // login's, or a newer one followed (an answer naming it, a topology push).
  uint64_t TopologyVersion() const;

  // The partition a call of `procedure` with `params` routes to by the
  // topology and routes the client knows, or -1 when it is not routed
  // (multi-partition or system procedure, a value the client cannot hash,
  // no login yet). For tools that report per partition.
  int PartitionOf(std::string_view procedure, const std::vector<Param>& params) const;

  const ClientConfig& config() const;

  // Closes every connection (calls in flight fail with kConnectionLost),
  // stops reconnecting and joins the I/O threads. Idempotent.
  // REQUIRES: not called from a callback.
  void Close();

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace partita::client

#endif  // PARTITA_CLIENT_CLIENT_H_
