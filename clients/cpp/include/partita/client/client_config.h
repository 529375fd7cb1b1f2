// ClientConfig: how a Client behaves: timeouts, limits, reconnection, I/O
// threads. A plain struct; the defaults suit most programs.
//
//   ClientConfig config;
//   config.client_name = "voter-driver";
//   config.call_timeout = std::chrono::seconds(10);
//   Client client(config);
//
// Thread model: copied into the Client at construction; not shared.
#ifndef PARTITA_CLIENT_CLIENT_CONFIG_H_
#define PARTITA_CLIENT_CLIENT_CONFIG_H_

#include <chrono>
#include <cstdint>
#include <string>

namespace partita::client {

struct ClientConfig {
  using Millis = std::chrono::milliseconds;

  // The client port a "host" without ":port" means.
  static constexpr uint16_t kDefaultPort = 21212;

  // Sent at login; shown in the server's logs and connection statistics.
  std::string client_name = "partita-cpp";
  // The user to log in as with SCRAM-SHA-256 (docs/security.md); empty: no
  // authentication (a server with security refuses the login). The password
  // never leaves the client.
  std::string user;
  std::string password;
  // Speak TLS (a server started with --tls-*), verifying the server's
  // certificate against `tls_ca_file` (PEM; empty: the system's authorities)
  // and, unless turned off, its host name.
  bool tls = false;
  std::string tls_ca_file;
  bool tls_verify_hostname = true;
  // A client certificate for a server that requires one (started with
  // --tls-client-ca): the certificate chain and its private key, both PEM,
  // both or neither; needs `tls`. A file that cannot be used, or a key that
  // does not match the certificate, fails Connect() saying which.
  std::string tls_cert_file;
  std::string tls_key_file;
  // How long Connect() waits for the TCP connection and the login answer.
  Millis connect_timeout{10'000};
  // How long a call waits for its answer before failing with kTimeout,
  // counted from the call (CallAsync), as its latency is.
  Millis call_timeout{120'000};
  // The time limit every call asks the server for (the invocation's
  // timeout_millis): past it the server rolls the work back and answers
  // TRANSACTION_TIMEOUT. 0 = the server's default (partita start
  // --query-timeout); at most one hour (the server refuses longer ones with
  // BAD_PARAMETER). Keep call_timeout longer, so that answer arrives.
  Millis query_timeout{0};
  // Calls in flight on one connection before new calls wait for room.
  uint32_t max_in_flight_per_connection = 4096;
  // Calls in flight on the whole client, over all its connections, before
  // new calls wait for room, as they wait for room on a connection; 0 (the
  // default): no bound but the one per connection. A client of a cluster
  // connects to every host, so the calls it has in flight grow with the
  // hosts unless this bounds them (clients/cpp/README.md, "Flow control").
  // The calls the client makes itself (reading a new topology) do not count.
  uint32_t max_in_flight = 0;
  // How long a call waits for room before failing with kBackpressure (0: fail
  // at once). A call made on an I/O thread (from a callback) never waits.
  Millis backpressure_timeout{10'000};
  // Calls per second the whole client may start; 0 = unlimited. Callers wait their turn.
  uint64_t rate_limit_per_second = 0;
  // Whether a dropped connection is reopened in the background, waiting
  // reconnect_initial_backoff after the first failure, doubling up to
  // reconnect_max_backoff.
  bool reconnect = true;
  Millis reconnect_initial_backoff{100};
  Millis reconnect_max_backoff{5'000};
  // Whether the client also connects to every host a login's topology lists
  // (a cluster's other hosts), in the background, so that one address is
  // enough to reach the whole cluster (docs/cluster.md); false keeps it to
  // the addresses given to Connect().
  bool discover_hosts = true;
  // A call answered NOT_LEADER (not run) is sent again, at most twice, at
  // its partition's leader (docs/cluster.md). When the answering host knows
  // no newer topology than the client (the leader's connection is down and
  // the cluster has not failed over yet), the call waits up to this long
  // for the client to follow a newer topology before it is sent again
  // (never past its call_timeout).
  Millis not_leader_wait{5'000};
  // Threads running the connections' I/O and the callbacks.
  uint32_t io_threads = 1;
  // How often each connection looks for calls past their timeout.
  Millis timeout_sweep_interval{10};
  // The largest server frame accepted; a larger one closes the connection.
  uint32_t max_response_frame_bytes = 256u << 20;
};

// config.query_timeout as the wire's unsigned 32-bit milliseconds (negative
// or too large values saturate, and the server refuses them).
inline uint32_t QueryTimeoutMillis(const ClientConfig& config) {
  const auto ms = config.query_timeout.count();
  if (ms < 0 || ms > static_cast<int64_t>(UINT32_MAX)) return UINT32_MAX;
  return static_cast<uint32_t>(ms);
}

}  // namespace partita::client

#endif  // PARTITA_CLIENT_CLIENT_CONFIG_H_
