// FakeServer: a Partita server stand-in for client tests. It listens on
// 127.0.0.1 (ephemeral port), answers the login with the topology and routes
// it was given, records every invocation, and hands each to a handler that
// answers it at once or holds it for the test to answer later (in any
// order), or to never answer. It can drop every connection to simulate a
// server going away.
//
// Ownership: owns its sockets and threads; the destructor stops them.
// Thread model: blocking I/O, one thread accepting and one per connection;
// the public methods are thread-safe (guarded by mu_).
#ifndef PARTITA_CLIENT_TESTS_FAKE_SERVER_H_
#define PARTITA_CLIENT_TESTS_FAKE_SERVER_H_

#include "asio.h"
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "client.pb.h"

namespace partita::client::testing {

class FakeServer final {
 public:
  struct Options {
    uint32_t host_id = 0;
    uint32_t partition_count = 1;
    std::vector<uint32_t> leaders = {0};
    std::vector<ProcedureRouting> routes;
    uint32_t max_frame_bytes = 0;  // 0: none announced
    LoginStatus login_status = LOGIN_STATUS_OK;
  };
  // The answer to an invocation, or nullopt to hold it.
  using Handler = std::function<std::optional<InvocationResponse>(const Invocation&)>;

  FakeServer(Options options, Handler handler);
  ~FakeServer();
  FakeServer(const FakeServer&) = delete;
  FakeServer& operator=(const FakeServer&) = delete;

  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  uint16_t port() const { return port_; }

  // Every invocation received so far, in arrival order.
  std::vector<Invocation> received() const;
  int connections_accepted() const;
  std::vector<std::string> client_names() const;
  // The client_session of every login, in order.
  std::vector<uint64_t> client_sessions() const;
  // The calls held now (received, not answered yet).
  size_t held() const;
  // Waits until `n` calls are held; false after `timeout`.
  bool WaitForHeld(size_t n, std::chrono::milliseconds timeout);
  // Answers every held call with `answer`, in arrival order or reversed.
  void AnswerHeld(const std::function<InvocationResponse(const Invocation&)>& answer, bool reversed);
  // Sends the topology later logins report (SetLeaders, SetTopologyHosts) as
  // a ServerMessage{topology_push} on every client connection.
  void PushTopology();
  // Closes every client connection (the listener stays open).
  void DropConnections();
  // The hosts later logins list in their topology (each host's id, address
  // and client port), as a cluster's hosts do; none by default.
  void SetTopologyHosts(std::vector<Host> hosts);
  // The partition leaders and topology version later logins report (a
  // failover); the options' leaders and version 0 until called.
  void SetLeaders(std::vector<uint32_t> leaders, uint64_t topology_version);

  // A failure answer with `error_code` (proto/errors.proto) and its name.
  static InvocationResponse Failure(const Invocation& call, CallStatus status, uint32_t error_code,
                                    const std::string& error_name, uint64_t topology_version);

  // A SUCCESS answer carrying one BIGINT table holding `value`.
  static InvocationResponse Success(const Invocation& call, int64_t value);
  // A route: `name` single-partition on parameter `parameter` of type `type`, or multi-partition.
  static ProcedureRouting Route(const std::string& name, bool single, uint32_t parameter = 0, uint32_t type = 5);

 private:
  struct Conn {
    explicit Conn(boost::asio::ip::tcp::socket s) : socket(std::move(s)) {}
    boost::asio::ip::tcp::socket socket;
    std::mutex write_mu;
    std::thread reader;
  };
  struct Held {
    std::shared_ptr<Conn> conn;
    Invocation call;
  };

  void AcceptLoop();
  void Serve(const std::shared_ptr<Conn>& conn);
  void Send(Conn& conn, const ServerMessage& message);
  LoginResponse Login() const;

  const Options options_;
  const Handler handler_;
  boost::asio::io_context io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  uint16_t port_ = 0;
  std::thread acceptor_thread_;

  mutable std::mutex mu_;
  std::condition_variable changed_;
  bool stopping_ = false;                      // guarded by mu_
  std::vector<std::shared_ptr<Conn>> conns_;   // guarded by mu_
  std::vector<Invocation> received_;           // guarded by mu_
  std::vector<Held> held_;                     // guarded by mu_
  std::vector<std::string> client_names_;      // guarded by mu_
  std::vector<uint64_t> client_sessions_;      // guarded by mu_
  std::vector<Host> topology_hosts_;           // guarded by mu_
  std::vector<uint32_t> leaders_;              // guarded by mu_
  uint64_t topology_version_ = 0;              // guarded by mu_
};

}  // namespace partita::client::testing

#endif  // PARTITA_CLIENT_TESTS_FAKE_SERVER_H_
