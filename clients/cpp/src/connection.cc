#include "connection.h"

#include <cstring>
#include <memory>

#include <boost/asio/ssl.hpp>

#include "answer.h"
#include "client.pb.h"
#include "frame_codec.h"
#include "handler_memory.h"
#include "scram_client.h"

namespace partita::client {

namespace asio = boost::asio;
using asio::ip::tcp;
// The socket's executor is the connection's strand itself, not the default
// type-erased executor: Asio tracks work on the socket's executor for every
// operation, and a type-erased strand is copied to the heap each time.
using Strand = asio::strand<asio::io_context::executor_type>;
using Socket = asio::basic_stream_socket<tcp, Strand>;
using Clock = PendingCall::Clock;

namespace {
constexpr size_t kInitialReadBuffer = 64 * 1024;
constexpr size_t kMinRead = 16 * 1024;

// partita.proto.ErrorCode ERROR_CODE_NOT_LEADER (proto/errors.proto): the call was not run.
constexpr uint32_t kErrorCodeNotLeader = 20;
// ERROR_CODE_OUTCOME_UNKNOWN: the call may have run.
constexpr uint32_t kErrorCodeOutcomeUnknown = 28;

Status Lost(std::string message) { return Status(Status::Code::kConnectionLost, std::move(message)); }

std::string Millis(std::chrono::milliseconds d) { return std::to_string(d.count()) + " ms"; }

// The wire's CallStatus as the client's ResponseStatus (same meanings); a
// status this client does not know is an unexpected failure.
ResponseStatus ToResponseStatus(CallStatus status) {
  switch (status) {
    case CALL_STATUS_SUCCESS: return ResponseStatus::kSuccess;
    case CALL_STATUS_USER_ABORT: return ResponseStatus::kUserAbort;
    case CALL_STATUS_GRACEFUL_FAILURE: return ResponseStatus::kGracefulFailure;
    case CALL_STATUS_REJECTED: return ResponseStatus::kRejected;
    default: return ResponseStatus::kUnexpectedFailure;
  }
}
}  // namespace

struct Connection::Session {
  explicit Session(const Strand& strand)
      : socket(strand), login_timer(strand), read_buffer(kInitialReadBuffer) {}

  Socket socket;
  // TLS over `socket` when the config asks for it; null for plain TCP.
  std::unique_ptr<asio::ssl::stream<Socket&>> tls;
  StrandTimer login_timer;
  std::string login_frame;
  std::string continue_frame;           // the SCRAM client-final, while it is written
  std::unique_ptr<ScramClient> scram;   // the SCRAM exchange, when the config names a user
  bool scram_continued = false;
  std::string write_buffer;  // the frames of the write under way
  std::vector<char> read_buffer;
  size_t read_begin = 0;  // first byte not yet decoded
  size_t read_end = 0;    // end of the bytes read
  bool logged_in = false;
  ServerMessage message;         // reused for frames other than answers
  InvocationResponse response;   // reused for every answer (FrameCodec::ResponseBody)
  HandlerMemory read_memory;     // the reads' operations and handlers
  HandlerMemory write_memory;    // the writes' operations and handlers
};

namespace {

// Writes `buffers` through TLS when the session has it, else straight to the socket.
using TlsStream = asio::ssl::stream<Socket&>;

template <typename Buffers, typename Handler>
void AsyncWrite(Socket& socket, TlsStream* tls, const Buffers& buffers, Handler&& handler) {
  if (tls != nullptr) {
    asio::async_write(*tls, buffers, std::forward<Handler>(handler));
  } else {
    asio::async_write(socket, buffers, std::forward<Handler>(handler));
  }
}

template <typename Buffers, typename Handler>
void AsyncReadSome(Socket& socket, TlsStream* tls, const Buffers& buffers, Handler&& handler) {
  if (tls != nullptr) {
    tls->async_read_some(buffers, std::forward<Handler>(handler));
  } else {
    socket.async_read_some(buffers, std::forward<Handler>(handler));
  }
}

}  // namespace

Connection::Connection(asio::io_context& io, ServerAddress address, const ClientConfig& config,
                       CallTracker* tracker, std::shared_ptr<AnswerPool> answers, Listener listener)
    : server_(std::move(address)),
      address_text_(server_.ToString()),
      config_(config),
      tracker_(tracker),
      answers_(std::move(answers)),
      listener_(std::move(listener)),
      strand_(asio::make_strand(io)),
      resolver_(strand_),
      sweep_timer_(strand_),
      reconnect_timer_(strand_),
      permits_(config.max_in_flight_per_connection),
      tls_context_(MakeTlsContext(config, &tls_error_)) {}

std::shared_ptr<asio::ssl::context> Connection::MakeTlsContext(const ClientConfig& config, std::string* error) {
  const bool certificate = !config.tls_cert_file.empty() || !config.tls_key_file.empty();
  if (!config.tls) {
    if (certificate) *error = "tls_cert_file and tls_key_file need tls = true";
    return nullptr;
  }
  auto context = std::make_shared<asio::ssl::context>(asio::ssl::context::tls_client);
  boost::system::error_code ec;
  if (config.tls_ca_file.empty()) {
    context->set_default_verify_paths(ec);
  } else {
    context->load_verify_file(config.tls_ca_file, ec);
  }
  context->set_verify_mode(asio::ssl::verify_peer);
  // A CA file that cannot be read leaves nothing trusted: every handshake then fails, naming the certificate.
  if (!certificate) return context;
  if (config.tls_cert_file.empty() || config.tls_key_file.empty()) {
    *error = "tls_cert_file and tls_key_file go together (a client certificate and its private key)";
    return context;
  }
  context->use_certificate_chain_file(config.tls_cert_file, ec);
  if (ec) {
    *error = "cannot use the client certificate " + config.tls_cert_file + ": " + ec.message();
    return context;
  }
  // OpenSSL checks here that the key is the certificate's.
  context->use_private_key_file(config.tls_key_file, asio::ssl::context::pem, ec);
  if (ec) *error = "cannot use the client key " + config.tls_key_file + ": " + ec.message();
  return context;
}

std::future<Status> Connection::Open() {
  std::future<Status> result = login_result_.get_future();
  asio::post(strand_, [self = shared_from_this()] {
    self->ScheduleSweep();
    self->Dial();
  });
  return result;
}

void Connection::SetLoginResult(Status status) {
  if (login_result_set_) return;
  login_result_set_ = true;
  login_result_.set_value(std::move(status));
}

// ---- connecting and logging in (strand) ----

void Connection::Dial() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (state_ == State::kClosed) return;
    state_ = State::kConnecting;
  }
  auto s = std::make_shared<Session>(strand_);
  session_ = s;
  if (!tls_error_.empty()) return SessionFailed(s, tls_error_);
  s->login_timer.expires_after(config_.connect_timeout);
  s->login_timer.async_wait([self = shared_from_this(), s](boost::system::error_code ec) {
    if (!ec && !s->logged_in) {
      self->SessionFailed(s, "no login answer within " + Millis(self->config_.connect_timeout));
    }
  });
  resolver_.async_resolve(server_.host, std::to_string(server_.port),
                          [self = shared_from_this(), s](boost::system::error_code ec, tcp::resolver::results_type r) {
    if (s != self->session_) return;
    if (ec) return self->SessionFailed(s, "cannot resolve " + self->server_.host + ": " + ec.message());
    asio::async_connect(s->socket, r, [self, s](boost::system::error_code ec, const tcp::endpoint&) {
      if (s != self->session_) return;
      if (ec) return self->SessionFailed(s, "cannot connect: " + ec.message());
      self->OnConnected(s);
    });
  });
}

void Connection::OnConnected(const std::shared_ptr<Session>& s) {
  boost::system::error_code ignored;
  s->socket.set_option(tcp::no_delay(true), ignored);
  if (!tls_context_) return SendLogin(s);
  s->tls = std::make_unique<TlsStream>(s->socket, *tls_context_);
  boost::system::error_code is_address;
  asio::ip::make_address(server_.host, is_address);
  if (is_address) SSL_set_tlsext_host_name(s->tls->native_handle(), server_.host.c_str());
  if (config_.tls_verify_hostname) s->tls->set_verify_callback(asio::ssl::host_name_verification(server_.host));
  s->tls->async_handshake(asio::ssl::stream_base::client, [self = shared_from_this(), s](boost::system::error_code ec) {
    if (s != self->session_) return;
    if (ec) return self->SessionFailed(s, "TLS handshake failed: " + ec.message());
    self->SendLogin(s);
  });
}

void Connection::SendLogin(const std::shared_ptr<Session>& s) {
  if (config_.user.empty()) {
    s->login_frame = FrameCodec::LoginFrame(config_.client_name, "", "", listener_.client_session);
  } else {
    s->scram = std::make_unique<ScramClient>(config_.user, config_.password);
    s->login_frame = FrameCodec::LoginFrame(config_.client_name, ScramClient::kMechanism, s->scram->ClientFirst(),
                                            listener_.client_session);
  }
  AsyncWrite(s->socket, s->tls.get(), asio::buffer(s->login_frame),
                    [self = shared_from_this(), s](boost::system::error_code ec, size_t) {
    if (ec && s == self->session_) self->SessionFailed(s, "cannot send the login: " + ec.message());
  });
  ReadMore(s);
}

void Connection::ContinueLogin(const std::shared_ptr<Session>& s, const LoginResponse& login) {
  if (!s->scram || s->scram_continued) {
    return RefuseLogin(s, "server " + address_text_ + " sent an unexpected authentication step");
  }
  s->scram_continued = true;
  const Status st = s->scram->ClientFinal(login.sasl_data(), &s->continue_frame);
  if (!st.ok()) return RefuseLogin(s, "server " + address_text_ + ": " + st.message());
  s->continue_frame = FrameCodec::LoginContinueFrame(s->continue_frame);
  AsyncWrite(s->socket, s->tls.get(), asio::buffer(s->continue_frame),
                    [self = shared_from_this(), s](boost::system::error_code ec, size_t) {
    if (ec && s == self->session_) self->SessionFailed(s, "cannot send the login: " + ec.message());
  });
}

void Connection::RefuseLogin(const std::shared_ptr<Session>& s, const std::string& why) {
  SetLoginResult(Status(Status::Code::kLoginRefused, why));
  SessionFailed(s, why);
}

void Connection::OnLogin(const std::shared_ptr<Session>& s, const LoginResponse& login) {
  if (login.status() == LOGIN_STATUS_CONTINUE) return ContinueLogin(s, login);
  if (login.status() == LOGIN_STATUS_OK && s->scram_continued && !s->scram->VerifyServerFinal(login.sasl_data())) {
    return RefuseLogin(s, "server " + address_text_ + " did not prove it knows user " + config_.user +
                              "'s keys (wrong SCRAM server signature); not trusting it");
  }
  if (login.status() != LOGIN_STATUS_OK) {
    const std::string why = "server " + address_text_ + " refused the login: " + LoginStatus_Name(login.status()) +
                            (login.message().empty() ? "" : ": " + login.message());
    SetLoginResult(Status(Status::Code::kLoginRefused, why));
    return SessionFailed(s, why);
  }
  s->logged_in = true;
  s->login_timer.cancel();
  host_id_ = static_cast<int32_t>(login.host_id());
  max_frame_bytes_ = login.max_frame_bytes() == 0 ? UINT32_MAX : login.max_frame_bytes();
  backoff_ = std::chrono::milliseconds(0);
  logged_in_once_ = true;
  {
    std::lock_guard<std::mutex> lock(mu_);
    state_ = State::kUp;
  }
  listener_.logged_in(login);
  SetLoginResult(Status::Ok());
}

// ---- reading (strand) ----

void Connection::ReadMore(const std::shared_ptr<Session>& s) {
  char* free_space = s->read_buffer.data() + s->read_end;
  const size_t free_bytes = s->read_buffer.size() - s->read_end;
  AsyncReadSome(s->socket, s->tls.get(), asio::buffer(free_space, free_bytes),
                WithMemory(&s->read_memory, [self = shared_from_this(), s](boost::system::error_code ec, size_t n) {
    if (s != self->session_) return;
    if (ec == asio::error::eof) return self->SessionFailed(s, "the server closed the connection");
    if (ec) return self->SessionFailed(s, "read failed: " + ec.message());
    s->read_end += n;
    if (self->DecodeFrames(*s)) self->ReadMore(s);
  }));
}

// Decodes every whole frame in the buffer, then moves the partial frame left
// to the front and makes room for it. Returns false iff the session failed.
bool Connection::DecodeFrames(Session& s) {
  const std::shared_ptr<Session> keep = session_;
  size_t needed = FrameCodec::kLengthPrefixBytes;
  while (s.read_end - s.read_begin >= FrameCodec::kLengthPrefixBytes) {
    const uint32_t length = FrameCodec::ReadLength(s.read_buffer.data() + s.read_begin);
    if (length > config_.max_response_frame_bytes) {
      SessionFailed(keep, "a frame of " + std::to_string(length) + " bytes from the server exceeds the limit of " +
                              std::to_string(config_.max_response_frame_bytes));
      return false;
    }
    needed = FrameCodec::kLengthPrefixBytes + length;
    if (s.read_end - s.read_begin < needed) break;
    if (!HandleFrame(keep, s.read_buffer.data() + s.read_begin + FrameCodec::kLengthPrefixBytes, length)) return false;
    s.read_begin += needed;
    needed = FrameCodec::kLengthPrefixBytes;
  }
  const size_t pending = s.read_end - s.read_begin;
  if (s.read_begin > 0 && pending > 0) std::memmove(s.read_buffer.data(), s.read_buffer.data() + s.read_begin, pending);
  s.read_begin = 0;
  s.read_end = pending;
  const size_t want = std::max(needed, pending + kMinRead);
  if (s.read_buffer.size() < want) s.read_buffer.resize(want);
  return true;
}

bool Connection::HandleFrame(const std::shared_ptr<Session>& s, const char* data, uint32_t length) {
  if (s->logged_in) {
    if (const auto body = FrameCodec::ResponseBody(std::string_view(data, length))) {
      if (!s->response.ParseFromArray(body->data(), static_cast<int>(body->size()))) {
        SessionFailed(s, "malformed answer from the server (" + std::to_string(length) + " bytes)");
        return false;
      }
      OnResponse(&s->response);
      return true;
    }
  }
  ServerMessage& m = s->message;
  if (!m.ParseFromArray(data, static_cast<int>(length))) {
    SessionFailed(s, "malformed frame from the server (" + std::to_string(length) + " bytes)");
    return false;
  }
  if (!s->logged_in && m.has_login()) {
    OnLogin(s, m.login());
    return s == session_;
  }
  if (s->logged_in && m.has_response()) {
    OnResponse(m.mutable_response());
    return true;
  }
  if (s->logged_in && m.has_topology_push()) {
    if (listener_.topology_pushed) listener_.topology_pushed(m.topology_push().topology());
    return true;
  }
  if (s->logged_in && m.kind_case() == ServerMessage::KIND_NOT_SET) return true;  // a newer server's message
  SessionFailed(s, std::string("unexpected message from the server ") +
                       (s->logged_in ? "after login" : "before the login answer"));
  return false;
}

void Connection::OnResponse(InvocationResponse* r) {
  PendingCall call;
  if (!in_flight_.Take(r->client_handle(), &call)) return tracker_->LateResponse();
  Response response;
  response.status = ToResponseStatus(r->status());
  response.error_code = r->error_code();
  // Copied, not moved: the message is reused, and an answer's texts are empty unless it failed.
  response.error_name = r->error_name();
  response.message = r->message();
  response.app_status = r->app_status();
  response.app_status_message = r->app_status_message();
  response.server_nanos = r->server_nanos();
  response.catalog_version = r->catalog_version();
  if (listener_.catalog_version_seen) listener_.catalog_version_seen(response.catalog_version);
  if (listener_.topology_version_seen) listener_.topology_version_seen(r->topology_version());
  if (response.error_code == kErrorCodeNotLeader && listener_.not_leader) {
    permits_.release();  // before a resend, which may pick this connection
    if (!listener_.not_leader(call, r->topology_version(), response)) tracker_->Finish(call, std::move(response));
    return;
  }
  if (response.error_code == kErrorCodeOutcomeUnknown && listener_.outcome_unknown) {
    permits_.release();
    if (!listener_.outcome_unknown(call, "the server at " + address_text_ + " answered OUTCOME_UNKNOWN: " +
                                             response.message)) {
      tracker_->Finish(call, std::move(response));
    }
    return;
  }
  if (r->results_size() > 0) {
    detail::Answer* answer = answers_->Take();  // one reference, ours
    const Status loaded = answer->Load(*r->mutable_results());
    if (!loaded.ok()) {
      answer->Release();
      return Finish(call, Status(Status::Code::kMalformed, "the answer to " + call.procedure + " from " +
                                                              address_text_ + ": " + loaded.message()));
    }
    response.results = ResultTables(answer);  // takes our reference
  }
  Finish(call, std::move(response));
}

// ---- writing ----

bool Connection::AcquirePermit(std::chrono::milliseconds wait) {
  if (permits_.try_acquire()) return true;
  return wait.count() > 0 && permits_.try_acquire_for(wait);
}

void Connection::Submit(PendingCall call, uint32_t routed_plus_one) {
  bool post = false;
  {
    std::unique_lock<std::mutex> lock(mu_);
    if (state_ != State::kUp) {
      lock.unlock();
      if (!call.unknown_reason.empty()) return EndUnknown(call, call.unknown_reason);
      return Finish(call, Lost("the connection to " + address_text_ + " is down; the call to " + call.procedure +
                               " was not sent"));
    }
    call.deadline = call.started + config_.call_timeout;  // no second clock read per call
    FrameCodec::AppendInvocationFrame(call.handle, call.procedure, call.params, routed_plus_one,
                                      QueryTimeoutMillis(config_), &queued_bytes_);
    queued_calls_.push_back(std::move(call));
    post = !writing_;
    writing_ = true;
  }
  if (post) asio::post(strand_, WithMemory(&post_memory_, [self = shared_from_this()] { self->StartWrite(); }));
}

// Sends everything queued in one async_write; when it completes, looks again.
void Connection::StartWrite() {
  const std::shared_ptr<Session> s = session_;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!s || state_ != State::kUp || queued_bytes_.empty()) {
      writing_ = false;
      return;
    }
    s->write_buffer.swap(queued_bytes_);
    queued_bytes_.clear();
    batch_.swap(queued_calls_);
  }
  for (PendingCall& call : batch_) in_flight_.Add(std::move(call));
  batch_.clear();
  AsyncWrite(s->socket, s->tls.get(), asio::buffer(s->write_buffer),
             WithMemory(&s->write_memory, [self = shared_from_this(), s](boost::system::error_code ec, size_t) {
    if (s != self->session_) return;
    if (ec) return self->SessionFailed(s, "write failed: " + ec.message());
    s->write_buffer.clear();
    self->StartWrite();
  }));
}

// ---- going down, reconnecting, closing (strand) ----

void Connection::SessionFailed(const std::shared_ptr<Session>& failed, const std::string& reason) {
  if (failed != session_) return;
  const std::shared_ptr<Session> s = failed;  // `failed` may be session_ itself
  session_.reset();
  boost::system::error_code ignored;
  s->socket.close(ignored);
  s->login_timer.cancel();
  GoDown(reason);
}

void Connection::GoDown(const std::string& reason) {
  bool was_up;
  bool closed;
  {
    std::lock_guard<std::mutex> lock(mu_);
    was_up = state_ == State::kUp;
    closed = state_ == State::kClosed;
    if (!closed) state_ = State::kDown;
    batch_.swap(queued_calls_);
    queued_bytes_.clear();
    writing_ = false;
  }
  for (PendingCall& call : batch_) {
    const std::string lost =
        "connection to " + address_text_ + " lost before the call to " + call.procedure + " was sent: " + reason;
    // Not sent: unknown only if an earlier sending was (then it is sent again).
    if (!call.unknown_reason.empty()) {
      EndUnknown(call, call.unknown_reason);
    } else {
      Finish(call, Lost(lost));
    }
  }
  batch_.clear();
  in_flight_.TakeAll(&batch_);
  for (PendingCall& call : batch_) {
    const std::string lost =
        "connection to " + address_text_ + " lost with the call to " + call.procedure + " in flight: " + reason;
    EndUnknown(call, lost);
  }
  batch_.clear();
  if (closed) return;
  if (!logged_in_once_) return SetLoginResult(Status(Status::Code::kIoError, address_text_ + ": " + reason));
  if (was_up) listener_.went_down();
  if (config_.reconnect) ScheduleReconnect();
}

void Connection::ScheduleReconnect() {
  backoff_ = backoff_.count() == 0 ? config_.reconnect_initial_backoff
                                   : std::min(backoff_ * 2, config_.reconnect_max_backoff);
  reconnect_timer_.expires_after(backoff_);
  reconnect_timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    // Down still: a dial made at once (ReconnectNow) may have overtaken a timer that had fired.
    if (!ec && self->state_ == State::kDown) self->Dial();
  });
}

void Connection::ReconnectNow() {
  asio::post(strand_, [self = shared_from_this()] {
    if (self->state_ != State::kDown || !self->config_.reconnect || !self->logged_in_once_) return;
    self->reconnect_timer_.cancel();
    self->Dial();
  });
}

void Connection::Close() {
  std::promise<void> done;
  std::future<void> closed = done.get_future();
  asio::post(strand_, [self = shared_from_this(), &done] {
    self->CloseOnStrand();
    done.set_value();
  });
  closed.wait();
}

void Connection::CloseOnStrand() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    state_ = State::kClosed;
  }
  sweep_timer_.cancel();
  reconnect_timer_.cancel();
  resolver_.cancel();
  if (session_) SessionFailed(session_, "the client was closed");
  GoDown("the client was closed");
  SetLoginResult(Status(Status::Code::kClosed, "the connection to " + address_text_ + " was closed"));
}

// ---- timeouts (strand) and ending calls ----

void Connection::ScheduleSweep() {
  sweep_timer_.expires_after(config_.timeout_sweep_interval);
  sweep_timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    if (ec || self->state_ == State::kClosed) return;
    self->SweepTimeouts();
    self->ScheduleSweep();
  });
}

void Connection::SweepTimeouts() {
  const auto now = Clock::now();
  {
    // Calls waiting behind a stalled write time out too; their frames still go out.
    std::lock_guard<std::mutex> lock(mu_);
    size_t kept = 0;
    for (size_t i = 0; i < queued_calls_.size(); ++i) {
      if (queued_calls_[i].deadline <= now) {
        batch_.push_back(std::move(queued_calls_[i]));
      } else if (kept++ != i) {
        queued_calls_[kept - 1] = std::move(queued_calls_[i]);
      }
    }
    queued_calls_.resize(kept);
  }
  in_flight_.TakeExpired(now, &batch_);
  for (PendingCall& call : batch_) {
    if (!call.unknown_reason.empty()) {
      Finish(call, OutcomeUnknownAnswer(call));
      continue;
    }
    Finish(call, Status(Status::Code::kTimeout, "no answer to the call to " + call.procedure + " from " +
                                                    address_text_ + " within " + Millis(config_.call_timeout)));
  }
  batch_.clear();
}

void Connection::EndUnknown(PendingCall& call, const std::string& reason) {
  if (listener_.outcome_unknown) {
    permits_.release();
    if (listener_.outcome_unknown(call, reason)) return;
    if (!call.unknown_reason.empty()) return tracker_->Finish(call, OutcomeUnknownAnswer(call));
    return tracker_->Finish(call, Lost(reason));
  }
  if (!call.unknown_reason.empty()) return Finish(call, OutcomeUnknownAnswer(call));
  Finish(call, Lost(reason));
}

void Connection::Finish(PendingCall& call, Result<Response> result) {
  permits_.release();
  tracker_->Finish(call, std::move(result));
}

}  // namespace partita::client
