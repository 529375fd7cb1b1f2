#include "fake_server.h"

#include <sys/socket.h>

#include "table_bytes.h"

namespace partita::client::testing {

namespace asio = boost::asio;
using asio::ip::tcp;

FakeServer::FakeServer(Options options, Handler handler)
    : options_(std::move(options)),
      handler_(std::move(handler)),
      acceptor_(io_, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)) {
  leaders_ = options_.leaders;  // before any connection: no lock needed yet
  port_ = acceptor_.local_endpoint().port();
  acceptor_thread_ = std::thread([this] { AcceptLoop(); });
}

FakeServer::~FakeServer() {
  std::vector<std::shared_ptr<Conn>> conns;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    conns = conns_;
  }
  ::shutdown(acceptor_.native_handle(), SHUT_RDWR);  // wakes the blocking accept
  acceptor_thread_.join();
  for (auto& c : conns) ::shutdown(c->socket.native_handle(), SHUT_RDWR);
  for (auto& c : conns) c->reader.join();
}

void FakeServer::AcceptLoop() {
  for (;;) {
    boost::system::error_code ec;
    tcp::socket socket = acceptor_.accept(ec);
    std::lock_guard<std::mutex> lock(mu_);
    if (ec || stopping_) return;
    auto conn = std::make_shared<Conn>(std::move(socket));
    conns_.push_back(conn);
    conn->reader = std::thread([this, conn] { Serve(conn); });
  }
}

void FakeServer::Serve(const std::shared_ptr<Conn>& conn) {
  bool logged_in = false;
  for (;;) {
    unsigned char prefix[4];
    boost::system::error_code ec;
    asio::read(conn->socket, asio::buffer(prefix), ec);
    if (ec) break;
    std::string body(static_cast<uint32_t>(prefix[0]) << 24 | prefix[1] << 16 | prefix[2] << 8 | prefix[3], '\0');
    asio::read(conn->socket, asio::buffer(body), ec);
    ClientMessage m;
    if (ec || !m.ParseFromString(body)) break;
    if (!logged_in) {
      if (!m.has_login()) break;
      logged_in = true;
      {
        std::lock_guard<std::mutex> lock(mu_);
        client_names_.push_back(m.login().client_name());
        client_sessions_.push_back(m.login().client_session());
      }
      ServerMessage answer;
      *answer.mutable_login() = Login();
      Send(*conn, answer);
      if (options_.login_status != LOGIN_STATUS_OK) break;
      continue;
    }
    if (!m.has_invocation()) break;
    std::optional<InvocationResponse> response = handler_(m.invocation());
    {
      std::lock_guard<std::mutex> lock(mu_);
      received_.push_back(m.invocation());
      if (!response) held_.push_back(Held{conn, m.invocation()});
    }
    changed_.notify_all();
    if (response) {
      ServerMessage answer;
      *answer.mutable_response() = *response;
      Send(*conn, answer);
    }
  }
  boost::system::error_code ignored;
  conn->socket.shutdown(tcp::socket::shutdown_both, ignored);
}

void FakeServer::Send(Conn& conn, const ServerMessage& message) {
  const std::string body = message.SerializeAsString();
  const uint32_t n = static_cast<uint32_t>(body.size());
  const char prefix[4] = {static_cast<char>(n >> 24), static_cast<char>(n >> 16), static_cast<char>(n >> 8),
                          static_cast<char>(n)};
  std::lock_guard<std::mutex> lock(conn.write_mu);
  boost::system::error_code ignored;
  asio::write(conn.socket, std::vector<asio::const_buffer>{asio::buffer(prefix), asio::buffer(body)}, ignored);
}

LoginResponse FakeServer::Login() const {
  LoginResponse login;
  login.set_status(options_.login_status);
  login.set_protocol_version(1);
  if (options_.login_status != LOGIN_STATUS_OK) {
    login.set_message("this fake server refuses every login");
    return login;
  }
  login.set_host_id(options_.host_id);
  login.set_connection_id(1);
  Topology* topology = login.mutable_topology();
  topology->set_partition_count(options_.partition_count);
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (uint32_t leader : leaders_) topology->add_partition_leaders(leader);
    topology->set_topology_version(topology_version_);
    for (const Host& h : topology_hosts_) *topology->add_hosts() = h;
  }
  login.mutable_hash()->set_algorithm("fnv1a64-fmix64");
  login.mutable_hash()->set_bucket_bits(14);
  for (const ProcedureRouting& r : options_.routes) *login.add_procedures() = r;
  login.set_catalog_version(1);
  login.set_server_version("fake");
  login.set_max_frame_bytes(options_.max_frame_bytes);
  return login;
}

void FakeServer::SetTopologyHosts(std::vector<Host> hosts) {
  std::lock_guard<std::mutex> lock(mu_);
  topology_hosts_ = std::move(hosts);
}

void FakeServer::SetLeaders(std::vector<uint32_t> leaders, uint64_t topology_version) {
  std::lock_guard<std::mutex> lock(mu_);
  leaders_ = std::move(leaders);
  topology_version_ = topology_version;
}

InvocationResponse FakeServer::Failure(const Invocation& call, CallStatus status, uint32_t error_code,
                                       const std::string& error_name, uint64_t topology_version) {
  InvocationResponse r;
  r.set_client_handle(call.client_handle());
  r.set_status(status);
  r.set_error_code(error_code);
  r.set_error_name(error_name);
  r.set_message(error_name + " (from a fake server)");
  r.set_catalog_version(1);
  r.set_topology_version(topology_version);
  return r;
}

std::vector<Invocation> FakeServer::received() const {
  std::lock_guard<std::mutex> lock(mu_);
  return received_;
}

int FakeServer::connections_accepted() const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int>(conns_.size());
}

std::vector<std::string> FakeServer::client_names() const {
  std::lock_guard<std::mutex> lock(mu_);
  return client_names_;
}

std::vector<uint64_t> FakeServer::client_sessions() const {
  std::lock_guard<std::mutex> lock(mu_);
  return client_sessions_;
}

size_t FakeServer::held() const {
  std::lock_guard<std::mutex> lock(mu_);
  return held_.size();
}

bool FakeServer::WaitForHeld(size_t n, std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mu_);
  return changed_.wait_for(lock, timeout, [&] { return held_.size() >= n; });
}

void FakeServer::AnswerHeld(const std::function<InvocationResponse(const Invocation&)>& answer, bool reversed) {
  std::vector<Held> held;
  {
    std::lock_guard<std::mutex> lock(mu_);
    held.swap(held_);
  }
  if (reversed) std::reverse(held.begin(), held.end());
  for (const Held& h : held) {
    ServerMessage m;
    *m.mutable_response() = answer(h.call);
    Send(*h.conn, m);
  }
}

void FakeServer::PushTopology() {
  ServerMessage push;
  *push.mutable_topology_push()->mutable_topology() = Login().topology();
  std::vector<std::shared_ptr<Conn>> conns;
  {
    std::lock_guard<std::mutex> lock(mu_);
    conns = conns_;
  }
  for (const auto& c : conns) Send(*c, push);
}

void FakeServer::DropConnections() {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& c : conns_) ::shutdown(c->socket.native_handle(), SHUT_RDWR);
  held_.clear();
}

InvocationResponse FakeServer::Success(const Invocation& call, int64_t value) {
  InvocationResponse r;
  r.set_client_handle(call.client_handle());
  r.set_status(CALL_STATUS_SUCCESS);
  r.add_results(LongTable(value));
  r.set_server_nanos(1234);
  r.set_catalog_version(1);
  return r;
}

ProcedureRouting FakeServer::Route(const std::string& name, bool single, uint32_t parameter, uint32_t type) {
  ProcedureRouting r;
  r.set_name(name);
  r.set_single_partition(single);
  r.set_partition_parameter(parameter);
  r.set_partition_type(type);
  return r;
}

}  // namespace partita::client::testing
