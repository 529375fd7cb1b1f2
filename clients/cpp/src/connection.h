// Connection: the client's one connection to one server, across
// reconnections: the TCP session, the login, the calls waiting to be
// written, the calls in flight, their timeouts, and the room for new calls.
//
// Writing: Submit() (any thread) encodes the call straight into a shared
// buffer under mu_ and, when no write is under way, posts one; a write
// takes every frame queued so far and sends them with one async_write, then
// looks for more. Reading: frames are decoded in place from the read buffer.
// Timeouts: one periodic sweep per connection over the calls in flight.
// A lost session fails every call queued or in flight at once with
// kConnectionLost and, if reconnection is on, reopens after a backoff that
// doubles from the initial to the maximum (or at once, ReconnectNow, when a
// newer topology makes its host a leader).
//
// Ownership: shared (the client, the router and pending handlers hold it).
// Thread model: Submit, AcquirePermit and the accessors are thread-safe;
// everything else runs on the connection's strand. mu_ guards state_ and
// the write queue; in_flight_, session_ and the timers are strand-confined.
#ifndef PARTITA_CLIENT_SRC_CONNECTION_H_
#define PARTITA_CLIENT_SRC_CONNECTION_H_

#include <atomic>
#include <chrono>
#include "asio.h"
#include <boost/asio/ssl/context.hpp>
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <semaphore>
#include <string>
#include <vector>

#include "call_tracker.h"
#include "partita/client/client_config.h"
#include "partita/client/param.h"
#include "handler_memory.h"
#include "in_flight_calls.h"
#include "pending_call.h"
#include "server_address.h"

namespace partita::client {

class AnswerPool;
class LoginResponse;
class InvocationResponse;
class Topology;

class Connection final : public std::enable_shared_from_this<Connection> {
 public:
  // What the connection tells its client; called on the strand.
  struct Listener {
    std::function<void(const LoginResponse&)> logged_in;
    std::function<void()> went_down;
    // An answer named the catalog version it ran against (may be null).
    std::function<void(uint64_t)> catalog_version_seen;
    // An answer named the topology version its host knows (may be null).
    std::function<void(uint64_t)> topology_version_seen;
    // `call` was answered NOT_LEADER (`answer`; not run) by a host knowing
    // topology `version`. Returns true when it took the call (moved from
    // it) to send it again; false to have `answer` delivered. May be null.
    std::function<bool(PendingCall& call, uint64_t version, Response& answer)> not_leader;
    // `call`'s outcome became unknown for `reason` (its connection was lost
    // while it was in flight, or the server answered OUTCOME_UNKNOWN).
    // Returns true when it took the call (moved from it) to send it again or
    // end it; false to end it as before. May be null.
    std::function<bool(PendingCall& call, const std::string& reason)> outcome_unknown;
    // The client session every login names (LoginRequest.client_session; 0: none).
    uint64_t client_session = 0;
    // The server pushed its new topology (ServerMessage.topology_push; the
    // login asked for pushes). May be null.
    std::function<void(const Topology&)> topology_pushed;
  };

  // REQUIRES: `tracker` outlives the connection. `answers` is the
  // client's pool of answers, shared by its connections.
  Connection(boost::asio::io_context& io, ServerAddress address, const ClientConfig& config,
             CallTracker* tracker, std::shared_ptr<AnswerPool> answers, Listener listener);
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Dials and logs in. The future holds OK after the first login, or why it failed.
  std::future<Status> Open();
  // A newer topology names this connection's host as a partition's leader
  // (a host that came back and was handed a partition): if the connection
  // is down and waiting out its reconnection backoff, dials now instead
  // (a dial that fails backs off again, doubled); a no-op otherwise. Only
  // topology events call it, so it cannot dial in a loop. Any thread.
  void ReconnectNow();
  // Closes for good: calls queued or in flight fail with kConnectionLost.
  // Blocks until done. REQUIRES: not on an I/O thread.
  void Close();

  bool up() const { return state_.load(std::memory_order_acquire) == State::kUp; }
  int32_t host_id() const { return host_id_.load(std::memory_order_relaxed); }
  uint32_t max_frame_bytes() const { return max_frame_bytes_.load(std::memory_order_relaxed); }
  const std::string& address() const { return address_text_; }

  // Takes room for one call, waiting up to `wait` if there is none. Returns
  // true iff room was taken; the call's end gives it back.
  bool AcquirePermit(std::chrono::milliseconds wait);
  // Hands over `call` (holding a permit) to be written: encodes it (its
  // procedure and params) now.
  void Submit(PendingCall call, uint32_t routed_plus_one);

 private:
  enum class State { kConnecting, kUp, kDown, kClosed };
  struct Session;  // one TCP connection attempt; defined in connection.cc

  // All on the strand.
  void Dial();
  void OnConnected(const std::shared_ptr<Session>& s);
  // Sends the login (after the TLS handshake, with TLS) and starts reading.
  void SendLogin(const std::shared_ptr<Session>& s);
  // The TLS context every session of this connection uses, or null without TLS; sets `*error` when the
  // client certificate options cannot be used.
  static std::shared_ptr<boost::asio::ssl::context> MakeTlsContext(const ClientConfig& config, std::string* error);
  void ReadMore(const std::shared_ptr<Session>& s);
  bool DecodeFrames(Session& s);
  bool HandleFrame(const std::shared_ptr<Session>& s, const char* data, uint32_t length);
  void OnLogin(const std::shared_ptr<Session>& s, const LoginResponse& login);
  // Answers a SCRAM server-first message with the client-final one.
  void ContinueLogin(const std::shared_ptr<Session>& s, const LoginResponse& login);
  // Fails the login with `why` (kLoginRefused) and ends the session.
  void RefuseLogin(const std::shared_ptr<Session>& s, const std::string& why);
  void OnResponse(InvocationResponse* r);
  void StartWrite();
  void SessionFailed(const std::shared_ptr<Session>& s, const std::string& reason);
  void GoDown(const std::string& reason);
  void ScheduleReconnect();
  void ScheduleSweep();
  void SweepTimeouts();
  void CloseOnStrand();
  void SetLoginResult(Status status);
  // Any thread: ends a call and gives its room back.
  void Finish(PendingCall& call, Result<Response> result);
  // Any thread: `call`'s outcome is unknown for `reason`: gives its room back
  // and hands it to the listener to send again; if the listener does not
  // take it, ends it (OUTCOME_UNKNOWN when an earlier sending's outcome was
  // already unknown, else kConnectionLost with `reason`).
  void EndUnknown(PendingCall& call, const std::string& reason);

  const ServerAddress server_;
  const std::string address_text_;
  const ClientConfig config_;
  CallTracker* const tracker_;
  const std::shared_ptr<AnswerPool> answers_;
  const Listener listener_;
  boost::asio::strand<boost::asio::io_context::executor_type> strand_;
  boost::asio::ip::tcp::resolver resolver_;
  // Timers on the strand's own type (not the type-erased default), so
  // waiting does not copy the strand to the heap.
  using StrandTimer = boost::asio::basic_waitable_timer<std::chrono::steady_clock,
                                                        boost::asio::wait_traits<std::chrono::steady_clock>,
                                                        boost::asio::strand<boost::asio::io_context::executor_type>>;
  StrandTimer sweep_timer_;
  StrandTimer reconnect_timer_;
  std::counting_semaphore<> permits_;
  std::string tls_error_;  // set once, by MakeTlsContext; then only read (the options cannot be used)
  const std::shared_ptr<boost::asio::ssl::context> tls_context_;
  std::atomic<State> state_{State::kConnecting};
  std::atomic<int32_t> host_id_{-1};
  std::atomic<uint32_t> max_frame_bytes_{UINT32_MAX};

  std::mutex mu_;
  std::string queued_bytes_;               // guarded by mu_
  std::vector<PendingCall> queued_calls_;  // guarded by mu_
  bool writing_ = false;                   // guarded by mu_: a write is posted or under way

  // Strand-confined.
  std::shared_ptr<Session> session_;
  InFlightCalls in_flight_;
  HandlerMemory post_memory_;  // the posts that start a write (Submit)
  std::vector<PendingCall> batch_;
  std::chrono::milliseconds backoff_{0};
  bool logged_in_once_ = false;
  bool login_result_set_ = false;
  std::promise<Status> login_result_;
};

}  // namespace partita::client

#endif  // PARTITA_CLIENT_SRC_CONNECTION_H_
